/* tools/cli.h: the command-line helpers every tool shares (ckinfo, ckrun,
 * ckbench): strict parsing of integer, real and list option values against
 * an allowed range with a unit, timeouts that are finite, positive and at
 * most CLI_MAX_TIMEOUT_S, the handling of getopt_long's errors and
 * --version (JSON output: json_out.h). A bad value never clamps or wraps: the tool prints one line
 *   TOOL: --opt VALUE: <why>; allowed: <range and unit>
 * on stderr and exits with CLI_EXIT_USAGE. */
#ifndef TOOLS_CLI_H
#define TOOLS_CLI_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#define CLI_EXIT_USAGE 2
/* Longest timeout any tool accepts, in seconds (one day). */
#define CLI_MAX_TIMEOUT_S 86400.0

/* Names the tool in every message ("ckinfo"). Call first. */
void cli_init(const char *tool);
const char *cli_tool(void);

/* Prints "TOOL: --opt VALUE: why; allowed: allowed" and exits 2. */
_Noreturn void cli_bad_value(const char *opt, const char *value, const char *why, const char *allowed);
/* Prints "TOOL: <message> (see TOOL --help)" and exits 2. */
_Noreturn void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An unsigned integer in lo..hi (decimal, or hex after 0x). `unit` names
 * what it counts ("work-groups", "MiB"); it goes into the error message. */
uint64_t cli_uint(const char *opt, const char *v, uint64_t lo, uint64_t hi, const char *unit);
/* A finite real number in lo..hi (inf and nan are refused). */
double cli_double(const char *opt, const char *v, double lo, double hi, const char *unit);
/* Seconds: finite, above 0 and at most CLI_MAX_TIMEOUT_S. */
double cli_timeout(const char *opt, const char *v);
/* A comma-separated list of 1..max unsigned integers, each in lo..hi; an
 * empty list or an empty entry is an error. Returns the count. */
size_t cli_uint_list(const char *opt, const char *v, uint64_t lo, uint64_t hi, const char *unit, uint64_t *out,
                     size_t max);

/* Turns what getopt_long returned for a bad option ('?' or ':' with
 * opterr = 0 and an optstring that starts with ':') into one line on stderr
 * and exit 2. `argv` and the current optind name the option. */
_Noreturn void cli_getopt_error(int c, char **argv);
/* Exits 2 if argv[optind..] holds an argument that is not an option. */
void cli_no_operands(int argc, char **argv);

/* Prints "TOOL (cooperative kernels) X.Y.Z" (the library's ck_version()). */
void cli_print_version(void);

/* Ends the process with `status` after flushing stdout and stderr, without
 * running exit handlers or library destructors. For a tool whose wait for a
 * kernel ran out: the OpenCL runtime may still be compiling or running that
 * kernel in its own threads, and exit() would tear down the libraries under
 * them (with PoCL a kernel compile racing LLVM's destructors crashed or hung
 * the process at exit, after the tool had reported the timeout). Cannot fail. */
_Noreturn void cli_exit_device_busy(int status);

#endif
