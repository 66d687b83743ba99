/* tests/tool_run.c: running a tool from a test (see tool_run.h). stdout
 * comes through a pipe with the exit status appended; stderr through a
 * temporary file, so the two stay apart. */
#define _DEFAULT_SOURCE /* popen, mkstemp */
#include "tool_run.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static size_t read_all(FILE *f, char *buf, size_t len)
{
    size_t n = 0, got;
    while (n + 1 < len && (got = fread(buf + n, 1, len - 1 - n, f)) > 0)
        n += got;
    buf[n] = 0;
    return n;
}

int tool_run(const char *tool, const char *args, char *out, size_t out_len, char *err, size_t err_len)
{
    char err_path[] = "/tmp/ck-tool-stderr-XXXXXX";
    int fd = mkstemp(err_path);
    if (fd < 0)
        fail_msg("tool_run: cannot make a temporary file for stderr");
    close(fd);
    size_t cmd_len = strlen(tool) + strlen(args) + sizeof err_path + 64;
    char *cmd = malloc(cmd_len);
    assert_non_null(cmd);
    snprintf(cmd, cmd_len, "%s %s 2>%s; echo \"status=$?\"", tool, args, err_path);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        fail_msg("tool_run: cannot start a shell for %s", tool);
    read_all(p, out, out_len);
    pclose(p);
    char *st = strstr(out, "status=");
    if (!st)
        fail_msg("tool_run: %s %s: no exit status (stdout cut at %zu bytes?)", tool, args, out_len);
    int status = atoi(st + 7);
    *st = 0;
    FILE *f = fopen(err_path, "r");
    if (!f)
        fail_msg("tool_run: cannot read back %s", err_path);
    read_all(f, err, err_len);
    fclose(f);
    unlink(err_path);
    return status;
}

int tool_lines(const char *s)
{
    int n = 0;
    for (; *s; ++s)
        n += *s == '\n';
    return n;
}
