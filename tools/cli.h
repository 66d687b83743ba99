/* tools/cli.h: what the tools share on their command lines (ckinfo, ckbench,
 * ckrun, ckstudy, cktasks, ckgraph, ckcheck): the exit statuses, the default
 * timeout, --wg-size's range and the device check, strict parsing of
 * integer, real and list option values against an allowed range with a
 * unit, timeouts that are finite, positive and at most CLI_MAX_TIMEOUT_S,
 * the handling of getopt_long's errors and --version (JSON output:
 * json_out.h). A bad value never clamps or wraps: the tool prints one line
 *   TOOL: --opt VALUE: <why>; allowed: <range and unit>
 * on stderr and exits with CLI_EXIT_USAGE. */
#ifndef TOOLS_CLI_H
#define TOOLS_CLI_H

#include "ck.h"

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* The exit statuses every tool gives (README, "The tools' shared options"):
 * 0 the work ran and everything it checked passed; 1 the work ran and
 * something failed (a check, a measurement, the device during the run);
 * 2 nothing was run: the command line, an input or output file, or the
 * device asked for cannot serve (one line on stderr says which). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAILED 1
#define CLI_EXIT_USAGE 2
/* Longest timeout any tool accepts, in seconds (one day). */
#define CLI_MAX_TIMEOUT_S 86400.0
/* The deadline of every wait when --timeout is not given, in every tool:
 * long enough for a first megakernel build on a loaded CPU device. */
#define CLI_DEFAULT_TIMEOUT_S 120.0
/* --wg-size's range in every tool; the device's own maximum is checked
 * against the device (cli_check_device). */
#define CLI_MAX_WG_SIZE 65536u

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

/* --wg-size (also spelled --wg): work-items per group, 1..CLI_MAX_WG_SIZE.
 * `opt` is the spelling the user gave, for the message. */
size_t cli_wg_size(const char *opt, const char *v);

/* Opens the device `dev` names, checks every one of the n work-group sizes
 * `wgs` against its maximum and closes it again, so that a tool refuses a
 * request the device cannot serve before it builds or runs anything. A
 * device that cannot be opened ("TOOL: <why>") or a size above its maximum
 * ("TOOL: --wg-size N: above the device's maximum; allowed: 1..M work-items
 * on NAME") ends the process with CLI_EXIT_USAGE. */
void cli_check_device(const ck_device_options *dev, const size_t *wgs, size_t n);

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
