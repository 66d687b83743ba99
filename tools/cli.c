/* tools/cli.c: the shared command-line helpers of the tools (see cli.h):
 * range-checked parsing with one-line errors, getopt_long error handling
 * and --version. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include "ck.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tool_name = "ck";

void cli_init(const char *tool)
{
    tool_name = tool;
    opterr = 0; /* getopt_long's own messages are two lines and name no range */
}

const char *cli_tool(void) { return tool_name; }

void cli_bad_value(const char *opt, const char *value, const char *why, const char *allowed)
{
    fprintf(stderr, "%s: %s %s: %s; allowed: %s\n", tool_name, opt, value ? value : "(none)", why, allowed);
    exit(CLI_EXIT_USAGE);
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", tool_name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see %s --help)\n", tool_name);
    va_end(ap);
    exit(CLI_EXIT_USAGE);
}

static void range_text(char *buf, size_t len, uint64_t lo, uint64_t hi, const char *unit)
{
    snprintf(buf, len, "%llu..%llu%s%s", (unsigned long long)lo, (unsigned long long)hi, unit && *unit ? " " : "",
             unit ? unit : "");
}

/* Parses s strictly; 0 ok, -1 not a number, -2 out of uint64_t's range. */
static int parse_u64(const char *s, uint64_t *out)
{
    int base = 10;
    const char *digits = s;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        digits = s + 2;
    }
    if (!isxdigit((unsigned char)digits[0]) || (base == 10 && !isdigit((unsigned char)digits[0])))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (*end)
        return -1;
    if (errno == ERANGE)
        return -2;
    *out = v;
    return 0;
}

uint64_t cli_uint(const char *opt, const char *v, uint64_t lo, uint64_t hi, const char *unit)
{
    char allowed[160], why[96];
    range_text(allowed, sizeof allowed, lo, hi, unit);
    uint64_t x = 0;
    int rc = v && *v ? parse_u64(v, &x) : -1;
    if (rc == -1)
        cli_bad_value(opt, v && *v ? v : "''", "not a non-negative integer", allowed);
    if (rc == -2)
        cli_bad_value(opt, v, "too large (above 2^64-1)", allowed);
    if (x < lo) {
        snprintf(why, sizeof why, "must be at least %llu", (unsigned long long)lo);
        cli_bad_value(opt, v, why, allowed);
    }
    if (x > hi) {
        snprintf(why, sizeof why, "must be at most %llu", (unsigned long long)hi);
        cli_bad_value(opt, v, why, allowed);
    }
    return x;
}

static double parse_real(const char *opt, const char *v, const char *allowed)
{
    if (!v || !*v)
        cli_bad_value(opt, "''", "not a number", allowed);
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || isspace((unsigned char)v[0]))
        cli_bad_value(opt, v, "not a number", allowed);
    if (!isfinite(x) || errno == ERANGE)
        cli_bad_value(opt, v, "not a finite number", allowed);
    return x;
}

double cli_double(const char *opt, const char *v, double lo, double hi, const char *unit)
{
    char allowed[160], why[96];
    snprintf(allowed, sizeof allowed, "%g..%g%s%s", lo, hi, unit && *unit ? " " : "", unit ? unit : "");
    double x = parse_real(opt, v, allowed);
    if (x < lo) {
        snprintf(why, sizeof why, "must be at least %g", lo);
        cli_bad_value(opt, v, why, allowed);
    }
    if (x > hi) {
        snprintf(why, sizeof why, "must be at most %g", hi);
        cli_bad_value(opt, v, why, allowed);
    }
    return x;
}

double cli_timeout(const char *opt, const char *v)
{
    char allowed[160];
    snprintf(allowed, sizeof allowed, "seconds, above 0 and at most %g (one day)", CLI_MAX_TIMEOUT_S);
    double x = parse_real(opt, v, allowed);
    if (!(x > 0))
        cli_bad_value(opt, v, "must be above 0", allowed);
    if (x > CLI_MAX_TIMEOUT_S)
        cli_bad_value(opt, v, "longer than the maximum", allowed);
    return x;
}

size_t cli_uint_list(const char *opt, const char *v, uint64_t lo, uint64_t hi, const char *unit, uint64_t *out,
                     size_t max)
{
    char allowed[200], one[160];
    range_text(one, sizeof one, lo, hi, unit);
    snprintf(allowed, sizeof allowed, "1..%zu comma-separated values, each %s", max, one);
    if (!v || !*v)
        cli_bad_value(opt, "''", "empty list", allowed);
    size_t n = 0;
    const char *p = v;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0)
            cli_bad_value(opt, v, "empty entry in the list", allowed);
        if (n == max)
            cli_bad_value(opt, v, "too many entries", allowed);
        char item[64];
        if (len >= sizeof item)
            cli_bad_value(opt, v, "an entry is too long to be a number", allowed);
        memcpy(item, p, len);
        item[len] = 0;
        uint64_t x = 0;
        int rc = parse_u64(item, &x);
        char why[128];
        if (rc == -1) {
            snprintf(why, sizeof why, "entry '%s' is not a non-negative integer", item);
            cli_bad_value(opt, v, why, allowed);
        }
        if (rc == -2 || x < lo || x > hi) {
            snprintf(why, sizeof why, "entry '%s' is out of range", item);
            cli_bad_value(opt, v, why, allowed);
        }
        out[n++] = x;
        if (!comma)
            break;
        p = comma + 1;
    }
    return n;
}

size_t cli_wg_size(const char *opt, const char *v)
{
    return (size_t)cli_uint(opt, v, 1, CLI_MAX_WG_SIZE, "work-items");
}

void cli_check_device(const ck_device_options *dev, const size_t *wgs, size_t n)
{
    ck_device *d;
    if (ck_device_open(dev, &d) != CK_OK) {
        fprintf(stderr, "%s: %s\n", tool_name, ck_last_error());
        exit(CLI_EXIT_USAGE);
    }
    const ck_device_info *info = ck_device_get_info(d);
    size_t max = info->max_work_group_size;
    char name[256];
    snprintf(name, sizeof name, "%s", info->device_name);
    ck_device_close(d);
    for (size_t i = 0; i < n; ++i)
        if (wgs[i] > max) {
            char value[24], allowed[320];
            snprintf(value, sizeof value, "%zu", wgs[i]);
            snprintf(allowed, sizeof allowed, "1..%zu work-items on %s", max, name);
            cli_bad_value("--wg-size", value, "above the device's maximum", allowed);
        }
}

void cli_getopt_error(int c, char **argv)
{
    /* getopt_long has moved optind past the offending word (and its value,
     * if it took one); the word itself is the last one it looked at. */
    const char *word = optind > 0 ? argv[optind - 1] : "?";
    char name[128];
    snprintf(name, sizeof name, "%s", word);
    char *eq = strchr(name, '=');
    if (eq)
        *eq = 0;
    if (c == ':')
        cli_usage_error("%s needs a value", name);
    if (optopt && optopt != '?' && strncmp(word, "--", 2) != 0)
        cli_usage_error("unknown option '-%c'", optopt);
    cli_usage_error("unknown or ambiguous option '%s'", name);
}

void cli_no_operands(int argc, char **argv)
{
    if (optind < argc)
        cli_usage_error("unexpected argument '%s'", argv[optind]);
}

void cli_print_version(void) { printf("%s (cooperative kernels) %s\n", tool_name, ck_version()); }

void cli_exit_device_busy(int status)
{
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}
