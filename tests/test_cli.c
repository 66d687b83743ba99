/* Tests of the command lines of ckinfo, ckbench and ckrun (argv[1] is the
 * binary; its name picks the tests): bad input gives exit status 2 (usage;
 * for ckbench also an unknown device) or 1 (device, or a run that failed)
 * and exactly one line on stderr that says what to do, within seconds: out
 * of range, wrapped, clamped or non-finite values, empty lists, timeouts
 * that are infinite, NaN, zero, negative or above a day, allocations sized by
 * a flag beyond their bound, CPU references beyond theirs, persistent
 * baselines with more groups than are co-resident; --version and --help
 * (every option listed); --json prints an object with the report's keys (for
 * ckbench: every figure a positive number; no timing thresholds). */
#define _DEFAULT_SOURCE /* popen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tool_run.h"

static const char *tool;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Runs the tool with args; returns exit status; stdout and stderr captured. */
static int run(const char *args, char *out, size_t outlen, char *err, size_t errlen)
{
    return tool_run(tool, args, out, outlen, err, errlen);
}

/* Bad input: `status`, one line on stderr containing needle, and no more
 * than `seconds` of wall time. */
static void expect_error_within(const char *args, int status, const char *needle, double seconds)
{
    static char out[65536], err[8192];
    double t0 = now_s();
    int st = run(args, out, sizeof out, err, sizeof err);
    double took = now_s() - t0;
    if (st != status || tool_lines(err) != 1 || !strstr(err, needle))
        fail_msg("%s %s: status %d (want %d), stderr '%s' (want one line with '%s')", tool, args, st, status, err,
                 needle);
    if (took > seconds)
        fail_msg("%s %s: the error took %.1f s (want at most %.0f)", tool, args, took, seconds);
}

static void expect_one_line_error(const char *args, int status, const char *needle)
{
    expect_error_within(args, status, needle, 30);
}

/* A command-line error: exit 2, one line "TOOL: ...needle...", in a few seconds
 * (the parser runs before any device is opened). */
static void expect_usage_error(const char *args, const char *needle)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s: ", strrchr(tool, '/') ? strrchr(tool, '/') + 1 : tool);
    expect_error_within(args, 2, needle, 5);
    static char out[65536], err[8192];
    run(args, out, sizeof out, err, sizeof err);
    if (strncmp(err, prefix, strlen(prefix)) != 0)
        fail_msg("%s %s: stderr '%s' does not start with '%s'", tool, args, err, prefix);
}

/* Bad values that every tool's --timeout refuses. */
static void expect_bad_timeouts(const char *prefix_args)
{
    const char *bad[][2] = {{"inf", "not a finite number"},
                            {"nan", "not a finite number"},
                            {"-inf", "not a finite number"},
                            {"0", "above 0"},
                            {"-1", "above 0"},
                            {"86401", "one day"},
                            {"1e300", "one day"},
                            {"''", "not a number"},
                            {"5s", "not a number"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        char args[256];
        snprintf(args, sizeof args, "%s --timeout %s", prefix_args, bad[i][0]);
        expect_usage_error(args, bad[i][1]);
    }
}

/* --version prints "TOOL (cooperative kernels) X.Y.Z" and exits 0; --help
 * exits 0 and names every option in `opts`. */
static void expect_version_and_help(const char *const *opts, size_t n)
{
    static char out[65536], err[8192];
    const char *name = strrchr(tool, '/') ? strrchr(tool, '/') + 1 : tool;
    int st = run("--version", out, sizeof out, err, sizeof err);
    char want[96];
    snprintf(want, sizeof want, "%s (cooperative kernels) ", name);
    if (st != 0 || strncmp(out, want, strlen(want)) != 0 || tool_lines(out) != 1)
        fail_msg("%s --version: status %d, output '%s' (want one line '%sX.Y.Z')", tool, st, out, want);
    unsigned maj, min, pat;
    if (sscanf(out + strlen(want), "%u.%u.%u", &maj, &min, &pat) != 3)
        fail_msg("%s --version: no X.Y.Z in '%s'", tool, out);
    st = run("--help", out, sizeof out, err, sizeof err);
    if (st != 0)
        fail_msg("%s --help: status %d", tool, st);
    for (size_t i = 0; i < n; ++i)
        if (!strstr(out, opts[i]))
            fail_msg("%s --help does not list %s:\n%s", tool, opts[i], out);
    if (!strstr(out, "default"))
        fail_msg("%s --help names no defaults:\n%s", tool, out);
}

static void test_unknown_device(void **state) { expect_one_line_error("--device nosuchdevice", 2, "CK_DEVICE"); }
static void test_launch_zero(void **state) { expect_usage_error("--launch 0", "--launch 0: must be at least 1"); }
static void test_wg_size_zero(void **state) { expect_usage_error("--wg-size 0 --round-trips 0", "allowed: 1..16"); }
static void test_bad_path(void **state) { expect_usage_error("--path cl99", "cl12"); }
static void test_unknown_option(void **state) { expect_usage_error("--frobnicate", "--help"); }
static void test_bad_number(void **state) { expect_usage_error("--launch many", "integer"); }

/* Values that used to wrap, clamp or allocate without a bound. */
static void test_out_of_range(void **state)
{
    expect_usage_error("--round-trips 4294967297", "at most 1000000");
    expect_usage_error("--round-trips 99999999999", "allowed: 0..1000000 round trips");
    expect_usage_error("--round-trips 18446744073709551616", "too large");
    expect_usage_error("--round-trips 99999999999999999999999", "too large");
    expect_usage_error("--round-trips -1", "not a non-negative integer");
    expect_usage_error("--launch 1048577", "at most 1048576");
    expect_usage_error("--launch 0x", "not a non-negative integer");
    expect_usage_error("--wg-size 65537", "out of range");
}

static void test_bad_lists(void **state)
{
    expect_usage_error("--wg-size ,,,", "empty entry");
    expect_usage_error("--wg-size 64,,128", "empty entry");
    expect_usage_error("--wg-size 64,", "empty entry");
    expect_usage_error("--wg-size ''", "empty list");
    expect_usage_error("--wg-size 64,x", "not a non-negative integer");
    expect_usage_error("--wg-size 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "too many entries");
}

static void test_timeouts(void **state) { expect_bad_timeouts("--round-trips 0"); }
static void test_missing_and_extra(void **state)
{
    expect_usage_error("--device", "--device needs a value");
    expect_usage_error("--round-trips", "needs a value");
    expect_usage_error("--json extra", "unexpected argument 'extra'");
    expect_usage_error("-x", "unknown option '-x'");
}

static void test_version_help(void **state)
{
    const char *opts[] = {"--device",  "--path", "--wg-size", "--launch",  "--round-trips",
                          "--timeout", "--json", "--list",    "--version", "--help"};
    expect_version_and_help(opts, sizeof opts / sizeof *opts);
}

static void test_json_report(void **state)
{
    char out[16384], err[4096];
    int st = run("--json --wg-size 16 --round-trips 50", out, sizeof out, err, sizeof err);
    if (st != 0)
        fail_msg("ckinfo --json failed: %s", err);
    const char *keys[] = {"\"platform\"",   "\"device\"",    "\"path\"",   "\"transport\"", "\"occupancy\"",
                          "\"round_trip\"", "\"median_us\"", "\"p99_us\"", "\"svm\""};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i)
        if (!strstr(out, keys[i]))
            fail_msg("--json output lacks %s:\n%s", keys[i], out);
    assert_int_equal(out[0], '{');
}

static void bench_unknown_device(void **state) { expect_one_line_error("--device nosuchdevice", 2, "CK_DEVICE"); }
static void bench_wg_size_refused(void **state) { expect_one_line_error("--wg-size 16384", 2, "maximum"); }
static void bench_zero_iterations(void **state) { expect_usage_error("--iterations 0", "at least 1"); }
static void bench_unknown_option(void **state) { expect_usage_error("--frobnicate", "--help"); }

static void bench_out_of_range(void **state)
{
    expect_usage_error("--wg-size 100000", "allowed: 1..65536 work-items");
    expect_usage_error("--iterations 99999999999", "at most 1000000");
    expect_usage_error("--iterations 4294967297", "at most 1000000");
    expect_usage_error("--inflight 0", "at least 1");
    expect_usage_error("--inflight 1000000", "at most 4096");
    expect_usage_error("--gather-reps 100000000", "at most 10000");
    expect_usage_error("--barriers 18446744073709551616", "too large");
    expect_usage_error("--launches 1.5", "not a non-negative integer");
    expect_usage_error("--path", "needs a value");
    expect_usage_error("--json extra", "unexpected argument");
    expect_usage_error("--max-groups 1", "at least 2");
    expect_usage_error("--max-groups 1048577", "at most 1048576");
    expect_usage_error("--register-cap 8", "at least 16");
    expect_usage_error("--register-cap 256", "at most 255");
    expect_usage_error("--register-cap lots", "auto, none");
    setenv("CK_REGISTER_CAP", "lots", 1); /* the variable, where no option overrides it */
    expect_usage_error("", "CK_REGISTER_CAP lots");
    unsetenv("CK_REGISTER_CAP");
}

static void bench_timeouts(void **state) { expect_bad_timeouts(""); }

static void bench_version_help(void **state)
{
    const char *opts[] = {"--device",      "--path",         "--wg-size",  "--iterations", "--barriers",
                          "--gather-reps", "--gather-work",  "--launches", "--inflight",   "--timeout",
                          "--max-groups",  "--register-cap", "--cuda",     "--gap-sweep",  "--json",
                          "--version",     "--help"};
    expect_version_and_help(opts, sizeof opts / sizeof *opts);
}

/* ckrun (POCL_MAX_PTHREAD_COUNT=8). */
static const char *pocl = "--device 'Portable Computing Language'";

static void run_bad_values(void **state)
{
    expect_usage_error("--app bfs --scale 29", "at most 28");
    expect_usage_error("--app bfs --scale 28 --edge-factor 64", "edges");
    expect_usage_error("--app bfs --graph grid --scale 28", "edges");
    expect_usage_error("--app ws --ws-roots 16777217", "at most 16777216");
    expect_usage_error("--app bfs --seed 18446744073709551616", "too large");
    expect_usage_error("--app bfs --chaos 0", "at least 1");
    expect_usage_error("--app bfs --wg 4294967360", "at most 65536");
    expect_usage_error("--app bfs --runs 101", "at most 100");
    expect_usage_error("--app bfs --period-ms inf", "not a finite number");
    expect_usage_error("--app bfs --period-ms nan", "not a finite number");
    expect_usage_error("--app bfs --period-ms -1", "at least 0");
    expect_usage_error("--app bfs --arena-mb 99999999999", "MiB");
    expect_usage_error("--app bfs --plain-groups 0", "at least 1");
    expect_usage_error("--app bfs --plain sometimes", "multi, persistent or none");
    expect_usage_error("--app sssp", "bfs, ws");
    expect_usage_error("--app", "--app needs a value");
    expect_usage_error("--app bfs extra", "unexpected argument");
    expect_usage_error("--scale 8", "--app NAME is required");
}

static void run_bad_lists(void **state)
{
    expect_usage_error("--app bfs --noncoop ,,,", "empty entry");
    expect_usage_error("--app bfs --noncoop 1,,N", "empty entry");
    expect_usage_error("--app bfs --noncoop N/2,", "empty entry");
    expect_usage_error("--app bfs --noncoop N/3", "is not N, N/4, N/2, N-1");
    expect_usage_error("--app bfs --noncoop 0", "is not N, N/4, N/2, N-1");
    expect_usage_error("--app bfs --noncoop 99999999999999999999", "is not N, N/4, N/2, N-1");
    expect_usage_error("--app bfs --noncoop 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", "too many entries");
}

static void run_timeouts(void **state) { expect_bad_timeouts("--app bfs"); }

/* A work-stealing reference of 2^52 hash rounds is refused before it starts,
 * with a pointer to --no-reference. */
static void run_reference_bound(void **state)
{
    char args[256];
    snprintf(args, sizeof args, "--app ws --ws-units 1048576 --ws-iters 1048576 --ws-roots 64 %s", pocl);
    expect_usage_error(args, "--no-reference");
}

/* More plain persistent groups than are co-resident: refused, naming both. */
static void run_plain_groups_above_occupancy(void **state)
{
    char args[256];
    snprintf(args, sizeof args, "--app bfs --scale 6 --plain persistent --plain-groups 100000 --noncoop none %s",
             pocl);
    expect_error_within(args, 2, "--plain-groups 100000: only 8 work-groups", 30);
    snprintf(args, sizeof args, "--app ws --ws-roots 32 --plain-groups 9 --noncoop none %s", pocl);
    expect_error_within(args, 2, "allowed: 1..8 work-groups on this device", 30);
}

/* --timeout covers the plain baseline: a deadline far shorter than the plain
 * persistent BFS ends the run with exit 1 within seconds. */
static void run_plain_timeout(void **state)
{
    static char out[65536], err[8192];
    char args[256];
    snprintf(args, sizeof args, "--app bfs --scale 14 --plain persistent --timeout 0.001 --noncoop none --quiet %s",
             pocl);
    double t0 = now_s();
    int st = run(args, out, sizeof out, err, sizeof err);
    double took = now_s() - t0;
    if (st != 1 || !strstr(err, "did not finish within the timeout") || !strstr(out, "result: FAIL"))
        fail_msg("ckrun %s: status %d (want 1), stderr '%s', stdout '%s'", args, st, err, out);
    if (took > 30)
        fail_msg("ckrun %s took %.1f s", args, took);
}

/* --no-reference: a warning on stderr, 'unchecked' in the check column and
 * the JSON, exit 0. */
static void run_no_reference(void **state)
{
    static char out[65536], err[8192];
    char args[320];
    snprintf(
        args, sizeof args,
        "--app ws --ws-roots 32 --ws-depth 24 --ws-units 16 --ws-iters 4 --noncoop none --no-reference --quiet %s",
        pocl);
    int st = run(args, out, sizeof out, err, sizeof err);
    if (st != 0 || !strstr(err, "warning") || !strstr(err, "not checked") || !strstr(out, "unchecked") ||
        strstr(out, "PASS") || !strstr(out, "result: UNCHECKED"))
        fail_msg("ckrun %s: status %d, stderr '%s', stdout '%s'", args, st, err, out);
    snprintf(args, sizeof args, "--app bfs --scale 8 --noncoop none --no-reference --json --quiet %s", pocl);
    st = run(args, out, sizeof out, err, sizeof err);
    if (st != 0 || !strstr(out, "\"status\": \"unchecked\"") || !strstr(out, "\"checked\": false") ||
        !strstr(out, "\"pass\": null") || !strstr(err, "warning"))
        fail_msg("ckrun %s: status %d, stderr '%s', stdout '%s'", args, st, err, out);
}

static void run_version_help(void **state)
{
    const char *opts[] = {"--app",     "--graph",         "--scale",        "--edge-factor", "--grid-drop",
                          "--source",  "--ws-roots",      "--ws-depth",     "--ws-units",    "--ws-iters",
                          "--seed",    "--no-reference",  "--device",       "--path",        "--wg-size",
                          "--chaos",   "--naive-barrier", "--groups",       "--max-groups",  "--arena-mb",
                          "--timeout", "--kernels",       "--noncoop",      "--period-ms",   "--matmul-size",
                          "--samples", "--plain",         "--plain-groups", "--runs",        "--json",
                          "--quiet",   "--version",       "--help"};
    expect_version_and_help(opts, sizeof opts / sizeof *opts);
}

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
    int st = run("--json --iterations 30 --launches 60 --barriers 10 --gather-reps 1 --gap-sweep", out, sizeof out,
                 err, sizeof err);
    if (st != 0)
        fail_msg("ckbench --json failed (%d): %s", st, err);
    assert_int_equal(out[0], '{');
    const char *keys[] = {"global_barrier_us",
                          "resizing_barrier_us",
                          "launch_rt_us_median",
                          "launch_rt_us_p99",
                          "launch_throughput_per_s",
                          "plain_launch_rt_us_median",
                          "plain_launch_throughput_per_s",
                          "workers",
                          "plain_occupancy",
                          "megakernel_occupancy",
                          "task_rt_us_median",
                          "task2_rt_us_median",
                          "task_throughput_per_s"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i)
        if (!(json_number(out, NULL, keys[i]) > 0))
            fail_msg("ckbench --json: \"%s\" is not positive:\n%s", keys[i], out);
    /* The headline megakernel is the one with tasks, whose ordinary launches
     * go through the task table; the one without tasks (launches as
     * messages to the scheduler) has the same figures in scheduler_path. */
    if (!strstr(out, "\"launch_path\": \"task table\""))
        fail_msg("ckbench --json lacks launch_path \"task table\":\n%s", out);
    const char *sched = strstr(out, "\"scheduler_path\": {");
    if (!sched)
        fail_msg("ckbench --json lacks scheduler_path:\n%s", out);
    const char *qk[] = {"workers",           "launch_rt_us_median", "launch_rt_us_p99", "launch_throughput_per_s",
                        "global_barrier_us", "resizing_barrier_us"};
    for (size_t i = 0; i < sizeof qk / sizeof *qk; ++i)
        if (!(json_number(sched, NULL, qk[i]) > 0))
            fail_msg("ckbench --json: scheduler_path \"%s\" is not positive:\n%s", qk[i], out);
    if (!(json_number(sched, "\"launch_phases_us_median\"", "exec") >= 0))
        fail_msg("ckbench --json: scheduler_path lacks its launch phases:\n%s", out);
    /* The burst's start figures need a device clock (PoCL has none: null);
     * where there is one, a burst of 5 x --launches tasks. */
    if (!strstr(out, "\"task_burst\": null")) {
        assert_true(json_number(out, "\"task_burst\"", "tasks") == 300);
        if (!(json_number(out, "\"task_burst\"", "starts_per_s") > 0))
            fail_msg("ckbench --json: task_burst without positive starts_per_s:\n%s", out);
    }
    const char *gk[] = {"1", "N/4", "N/2", "N-1"};
    for (size_t i = 0; i < 4; ++i)
        if (!(json_number(out, "\"gather_us\"", gk[i]) > 0) || !(json_number(sched, "\"gather_us\"", gk[i]) > 0))
            fail_msg("ckbench --json: gather_us \"%s\" is not positive in both megakernels:\n%s", gk[i], out);
    if (!strstr(out, "\"device\": \""))
        fail_msg("ckbench --json lacks the device:\n%s", out);
    /* --gap-sweep: nine pauses from 0 to 3000 ns, a positive round trip of
     * each kind at each. */
    const char *sweep =
        strstr(out, "\"host_gap_sweep\": {\"gap_ns\": [0, 250, 500, 750, 1000, 1250, 1500, 2000, 3000]");
    if (!sweep)
        fail_msg("ckbench --json lacks host_gap_sweep's nine pauses:\n%s", out);
    const char *sk[] = {"\"task_rt_us_median\": [", "\"table_launch_rt_us_median\": ["};
    for (size_t i = 0; i < 2; ++i) {
        const char *at = strstr(sweep, sk[i]);
        if (!at)
            fail_msg("ckbench --json: host_gap_sweep lacks %s:\n%s", sk[i], out);
        at += strlen(sk[i]);
        for (int g = 0; g < 9; ++g) {
            char *end;
            double v = strtod(at, &end);
            if (end == at || !(v > 0))
                fail_msg("ckbench --json: host_gap_sweep %s point %d is not a positive number:\n%s", sk[i], g, out);
            at = end + (*end == ',' ? 2 : 0);
        }
    }
    /* The megakernels' registers: null where the compiler reports none (PoCL),
     * else a positive count; the cap's note is a string. */
    const char *rk = "\"megakernel_resources\": ";
    const char *from[2] = {out, sched};
    for (size_t i = 0; i < 2; ++i) {
        const char *at = strstr(from[i], rk);
        if (!at || (i == 0 && at > sched))
            fail_msg("ckbench --json lacks %s%s:\n%s", rk, i ? " in scheduler_path" : "", out);
        if (strncmp(at + strlen(rk), "null", 4) && !(json_number(at, NULL, "registers") > 0))
            fail_msg("ckbench --json: %s has no positive register count:\n%s", rk, out);
        const char *note = strstr(at, "\"register_cap_note\": \"");
        if (!note || (i == 0 && note > sched))
            fail_msg("ckbench --json lacks register_cap_note%s:\n%s", i ? " in scheduler_path" : "", out);
    }
    /* The run sets no CK_REGISTER_CAP and no --register-cap: auto. */
    if (!strstr(out, "\"register_cap_mode\": \"auto\""))
        fail_msg("ckbench --json: register_cap_mode is not \"auto\" by default:\n%s", out);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_CKINFO|PATH_TO_CKBENCH|PATH_TO_CKRUN\n", argv[0]);
        return 2;
    }
    tool = argv[1];
    const char *name = strrchr(tool, '/') ? strrchr(tool, '/') + 1 : tool;
    if (strstr(name, "ckbench")) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(bench_unknown_device),  cmocka_unit_test(bench_wg_size_refused),
            cmocka_unit_test(bench_zero_iterations), cmocka_unit_test(bench_unknown_option),
            cmocka_unit_test(bench_out_of_range),    cmocka_unit_test(bench_timeouts),
            cmocka_unit_test(bench_version_help),    cmocka_unit_test(bench_json_report),
        };
        return cmocka_run_group_tests_name("ckbench-cli", tests, NULL, NULL);
    }
    if (strstr(name, "ckrun")) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(run_bad_values),    cmocka_unit_test(run_bad_lists),
            cmocka_unit_test(run_timeouts),      cmocka_unit_test(run_reference_bound),
            cmocka_unit_test(run_version_help),  cmocka_unit_test(run_plain_groups_above_occupancy),
            cmocka_unit_test(run_plain_timeout), cmocka_unit_test(run_no_reference),
        };
        return cmocka_run_group_tests_name("ckrun-cli", tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_device), cmocka_unit_test(test_launch_zero),
        cmocka_unit_test(test_wg_size_zero),   cmocka_unit_test(test_bad_path),
        cmocka_unit_test(test_unknown_option), cmocka_unit_test(test_bad_number),
        cmocka_unit_test(test_out_of_range),   cmocka_unit_test(test_bad_lists),
        cmocka_unit_test(test_timeouts),       cmocka_unit_test(test_missing_and_extra),
        cmocka_unit_test(test_version_help),   cmocka_unit_test(test_json_report),
    };
    return cmocka_run_group_tests_name("ckinfo-cli", tests, NULL, NULL);
}
