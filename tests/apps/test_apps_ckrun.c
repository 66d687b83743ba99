/* tests/apps/test_apps_ckrun.c (owner: apps): the ckrun command line (path of
 * the binary in argv[1]): a small multitasking run of each application passes
 * with exit status 0 in table and JSON form; bad command lines and inputs
 * that do not load give exit status 2 (nothing was run), a run whose kernels
 * are missing 1 (it ran and failed), each with a message. Needs
 * POCL_MAX_PTHREAD_COUNT (8). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

static const char *ckrun;
static const char *device = "--device 'Portable Computing Language'";

/* Runs ckrun with args (stderr folded in); returns the exit status and the
 * output (malloc'd) in *out. */
static int run(const char *args, char **out)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", ckrun, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += got;
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    int st = pclose(p);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect(const char *out, const char *needle)
{
    if (!strstr(out, needle))
        fail_msg("output lacks '%s':\n%s", needle, out);
}

static void test_bfs_table(void **state)
{
    char args[512], *out;
    snprintf(args, sizeof args,
             "--app bfs --graph grid --scale 6 --noncoop 1,N-1 --matmul-size 32 --period-ms 10 --path cl20 %s",
             device);
    int rc = run(args, &out);
    if (rc != 0)
        fail_msg("exit %d:\n%s", rc, out);
    expect(out, "plain multi-launch");
    expect(out, "standalone");
    expect(out, "matmul 1 ");
    expect(out, "matmul N-1=");
    expect(out, "gather ms");
    expect(out, "path cl20");
    expect(out, "result: PASS");
    free(out);
}

static void test_ws_json(void **state)
{
    char args[512], *out;
    snprintf(args, sizeof args,
             "--app ws --ws-roots 32 --ws-depth 24 --ws-units 16 --ws-iters 4 --noncoop N/2 --matmul-size 32 "
             "--runs 2 --json --quiet --path cl12 %s",
             device);
    int rc = run(args, &out);
    if (rc != 0)
        fail_msg("exit %d:\n%s", rc, out);
    expect(out, "\"app\": \"ws\"");
    expect(out, "\"path\": \"cl12\"");
    expect(out, "\"kind\": \"plain\"");
    expect(out, "\"kind\": \"multitask\"");
    expect(out, "\"gather_ms\": {\"median\"");
    expect(out, "\"runs\": 2");
    expect(out, "\"pass\": true");
    free(out);
}

static void test_chaos_and_naive_barrier(void **state)
{
    char args[512], *out;
    snprintf(args, sizeof args,
             "--app bfs --scale 8 --chaos 7 --naive-barrier --plain persistent --noncoop N/4 --matmul-size 16 "
             "--json --quiet %s",
             device);
    int rc = run(args, &out);
    if (rc != 0)
        fail_msg("exit %d:\n%s", rc, out);
    expect(out, "\"chaos_seed\": 7");
    expect(out, "\"barrier\": \"naive\"");
    expect(out, "\"mode\": \"persistent\"");
    expect(out, "\"pass\": true");
    free(out);
}

static void test_bad_command_lines(void **state)
{
    const char *bad[] = {"",
                         "--app",
                         "--app sssp",
                         "--app bfs --noncoop N/3",
                         "--app bfs --scale 0",
                         "--app bfs --path cl99",
                         "--app ws --runs 0",
                         "--app bfs --bogus 1",
                         "--app bfs --chaos 0",
                         "--app bfs extra"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        char *out;
        int rc = run(bad[i], &out);
        if (rc != 2)
            fail_msg("'%s': exit %d, expected 2:\n%s", bad[i], rc, out);
        expect(out, "ckrun: ");
        free(out);
    }
    char *out;
    assert_int_equal(run("--help", &out), 0);
    expect(out, "--noncoop");
    free(out);
}

static void test_bad_input_fails(void **state)
{
    char *out;
    int rc = run("--app bfs --graph /nonexistent/road.gr --quiet", &out);
    assert_int_equal(rc, 2); /* nothing was run */
    expect(out, "/nonexistent/road.gr");
    free(out);
    char args[512];
    snprintf(args, sizeof args, "--app bfs --scale 6 --kernels /nonexistent/kernels --noncoop none --quiet %s",
             device);
    rc = run(args, &out);
    assert_int_equal(rc, 1);
    expect(out, "/nonexistent/kernels");
    expect(out, "result: FAIL");
    free(out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH_TO_CKRUN\n", argv[0]);
        return 2;
    }
    ckrun = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_command_lines),
        cmocka_unit_test(test_bad_input_fails),
        cmocka_unit_test(test_bfs_table),
        cmocka_unit_test(test_ws_json),
        cmocka_unit_test(test_chaos_and_naive_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
