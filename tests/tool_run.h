/* tests/tool_run.h: runs a command-line tool of the project from a test and
 * captures what it printed (shared by the command-line tests test_cli.c and
 * test_ckcheck.c). */
#ifndef CK_TESTS_TOOL_RUN_H
#define CK_TESTS_TOOL_RUN_H

#include <stddef.h>

/* Runs `tool args` through the shell (args are shell words). Returns the
 * tool's exit status; its stdout goes to out and its stderr to err, each
 * NUL-terminated and cut to the buffer's size. Fails the running cmocka test
 * when the shell cannot be started or the stderr file cannot be made. */
int tool_run(const char *tool, const char *args, char *out, size_t out_len, char *err, size_t err_len);

/* Number of newline characters in s. */
int tool_lines(const char *s);

#endif
