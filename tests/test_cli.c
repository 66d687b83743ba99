/* Tests of the command lines of ckinfo and ckbench (argv[1] is the binary;
 * its name picks the tests): bad input gives exit status 2 (usage; for
 * ckbench also an unknown device) or 1 (device) and exactly one line on
 * stderr that says what to do; --json prints an object with the report's
 * keys (for ckbench: every figure a positive number; no timing thresholds). */
#define _DEFAULT_SOURCE /* popen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

static const char *tool;

/* Runs the tool with args; returns exit status; stdout and stderr captured. */
static int run(const char *args, char *out, size_t outlen, char *err, size_t errlen)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>/tmp/ck_cli_err.$PPID; echo \"status=$?\"", tool, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = 0;
    pclose(p);
    char *st = strstr(out, "status=");
    assert_non_null(st);
    int status = atoi(st + 7);
    *st = 0;
    snprintf(cmd, sizeof cmd, "cat /tmp/ck_cli_err.%d; rm -f /tmp/ck_cli_err.%d", (int)getpid(), (int)getpid());
    p = popen(cmd, "r");
    n = fread(err, 1, errlen - 1, p);
    err[n] = 0;
    pclose(p);
    return status;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; ++s)
        n += *s == '\n';
    return n;
}

static void expect_one_line_error(const char *args, int status, const char *needle)
{
    char out[8192], err[4096];
    int st = run(args, out, sizeof out, err, sizeof err);
    if (st != status || lines(err) != 1 || !strstr(err, needle))
        fail_msg("%s %s: status %d (want %d), stderr '%s' (want one line with '%s')", tool, args, st, status, err,
                 needle);
}

static void test_unknown_device(void **state) { expect_one_line_error("--device nosuchdevice", 1, "CK_DEVICE"); }
static void test_launch_zero(void **state) { expect_one_line_error("--launch 0", 2, "launch size 0"); }
static void test_wg_size_zero(void **state) { expect_one_line_error("--wg-size 0 --round-trips 0", 1, "work-group size 0"); }
static void test_bad_path(void **state) { expect_one_line_error("--path cl99", 2, "cl12"); }
static void test_unknown_option(void **state) { expect_one_line_error("--frobnicate", 2, "--help"); }
static void test_bad_number(void **state) { expect_one_line_error("--launch many", 2, "integer"); }

static void test_json_report(void **state)
{
    char out[16384], err[4096];
    int st = run("--json --wg-size 16 --round-trips 50", out, sizeof out, err, sizeof err);
    if (st != 0)
        fail_msg("ckinfo --json failed: %s", err);
    const char *keys[] = {"\"platform\"", "\"device\"", "\"path\"", "\"transport\"", "\"occupancy\"",
                          "\"round_trip\"", "\"median_us\"", "\"p99_us\"", "\"svm\""};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i)
        if (!strstr(out, keys[i]))
            fail_msg("--json output lacks %s:\n%s", keys[i], out);
    assert_int_equal(out[0], '{');
}

static void bench_unknown_device(void **state) { expect_one_line_error("--device nosuchdevice", 2, "CK_DEVICE"); }
static void bench_wg_size_refused(void **state) { expect_one_line_error("--wg-size 100000", 2, "maximum"); }
static void bench_zero_iterations(void **state) { expect_one_line_error("--iterations 0", 2, "at least 1"); }
static void bench_unknown_option(void **state) { expect_one_line_error("--frobnicate", 2, "--help"); }

/* The number after "key": in text (after `from`, if given); fails if absent. */
static double json_number(const char *text, const char *from, const char *key)
{
    const char *at = from ? strstr(text, from) : text;
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *k = at ? strstr(at, pat) : NULL;
    if (!k)
        fail_msg("ckbench --json lacks \"%s\"%s%s:\n%s", key, from ? " in " : "", from ? from : "", text);
    char *end;
    double v = strtod(k + strlen(pat), &end);
    if (end == k + strlen(pat))
        fail_msg("ckbench --json: \"%s\" is not a number:\n%s", key, text);
    return v;
}

static void bench_json_report(void **state)
{
    static char out[16384], err[8192];
    int st = run("--json --iterations 30 --launches 60 --barriers 10 --gather-reps 1", out, sizeof out, err,
                 sizeof err);
    if (st != 0)
        fail_msg("ckbench --json failed (%d): %s", st, err);
    assert_int_equal(out[0], '{');
    const char *keys[] = {"global_barrier_us", "resizing_barrier_us", "launch_rt_us_median", "launch_rt_us_p99",
                          "launch_throughput_per_s", "plain_launch_rt_us_median", "plain_launch_throughput_per_s",
                          "workers", "plain_occupancy", "megakernel_occupancy"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i)
        if (!(json_number(out, NULL, keys[i]) > 0))
            fail_msg("ckbench --json: \"%s\" is not positive:\n%s", keys[i], out);
    const char *gk[] = {"1", "N/4", "N/2", "N-1"};
    for (size_t i = 0; i < 4; ++i)
        if (!(json_number(out, "\"gather_us\"", gk[i]) > 0))
            fail_msg("ckbench --json: gather_us \"%s\" is not positive:\n%s", gk[i], out);
    if (!strstr(out, "\"device\": \""))
        fail_msg("ckbench --json lacks the device:\n%s", out);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_CKINFO|PATH_TO_CKBENCH\n", argv[0]);
        return 2;
    }
    tool = argv[1];
    if (strstr(tool, "ckbench")) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(bench_unknown_device),  cmocka_unit_test(bench_wg_size_refused),
            cmocka_unit_test(bench_zero_iterations), cmocka_unit_test(bench_unknown_option),
            cmocka_unit_test(bench_json_report),
        };
        return cmocka_run_group_tests_name("ckbench-cli", tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_device), cmocka_unit_test(test_launch_zero),
        cmocka_unit_test(test_wg_size_zero),   cmocka_unit_test(test_bad_path),
        cmocka_unit_test(test_unknown_option), cmocka_unit_test(test_bad_number),
        cmocka_unit_test(test_json_report),
    };
    return cmocka_run_group_tests_name("ckinfo-cli", tests, NULL, NULL);
}
