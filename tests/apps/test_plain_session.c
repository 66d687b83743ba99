/* tests/apps/test_plain_session.c (owner: apps): the warm plain baselines on
 * PoCL, on the atomics path named by argv[1] (cl20 or cl12): app_cl_build's
 * program cache (the same program for the same file and options, another
 * for other options, the caller's reference its own), the release of a
 * run's buffers, and a plain session kept open across runs of bfs and ws
 * with and without extra build options: every run checked (a corrupted
 * reference FAILs the next run), a device time from the profiling queue, and
 * options that break the build reaching it. Needs POCL_MAX_PTHREAD_COUNT
 * (meson sets 8). */
#include "app.h"
#include "apps_test_util.h"
#include "cl_plain.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static ck_path path;

static app_plain_options pocl_options(void)
{
    app_plain_options o;
    memset(&o, 0, sizeof o);
    o.device.device = "Portable Computing Language";
    o.device.path = path;
    o.work_group_size = 64;
    o.persistent = 1;
    o.groups = 2;
    return o;
}

static cl_uint ref_count(cl_program p)
{
    cl_uint n = 0;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof n, &n, NULL), CL_SUCCESS);
    return n;
}

static void test_program_cache(void **state)
{
    (void)state;
    app_cl_request req;
    memset(&req, 0, sizeof req);
    req.device.device = "Portable Computing Language";
    req.device.path = path;
    req.profiling = 1;
    app_cl c;
    char err[2048];
    if (app_cl_open(&req, &c, err, sizeof err))
        fail_msg("app_cl_open: %s", err);
    cl_program a, b, f, none;
    if (app_cl_build(&c, "bfs/bfs_coop.cl", NULL, &a, err, sizeof err) ||
        app_cl_build(&c, "bfs/bfs_coop.cl", NULL, &b, err, sizeof err) ||
        app_cl_build(&c, "bfs/bfs_coop.cl", "", &none, err, sizeof err) ||
        app_cl_build(&c, "bfs/bfs_coop.cl", "-DCK_PLAIN_BARRIER_FENCED", &f, err, sizeof err))
        fail_msg("app_cl_build: %s", err);
    assert_ptr_equal(a, b);
    assert_ptr_equal(a, none); /* NULL and "" are the same options */
    assert_ptr_not_equal(a, f);
    assert_int_equal(c.n_programs, 2);
    assert_int_equal(ref_count(a), 4); /* the cache's and three callers' */
    assert_int_equal(ref_count(f), 2);
    clReleaseProgram(a);
    clReleaseProgram(b);
    clReleaseProgram(none);
    clReleaseProgram(f);
    assert_int_equal(ref_count(a), 1); /* the cache still holds it */
    /* A bad option is the build's error, and is not cached. */
    cl_program bad;
    assert_int_equal(app_cl_build(&c, "bfs/bfs_coop.cl", "-cl-no-such-option", &bad, err, sizeof err), -1);
    assert_null(bad);
    assert_non_null(strstr(err, "-cl-no-such-option"));
    assert_int_equal(c.n_programs, 2);
    /* Buffers made after a mark go with app_cl_release_since. */
    cl_mem m;
    if (app_cl_buffer(&c, 64, NULL, &m, "kept", err, sizeof err))
        fail_msg("app_cl_buffer: %s", err);
    size_t mark = app_cl_held_mark(&c);
    assert_int_equal(mark, 1);
    for (int i = 0; i < 3; ++i)
        if (app_cl_buffer(&c, 64, NULL, &m, "dropped", err, sizeof err))
            fail_msg("app_cl_buffer: %s", err);
    assert_int_equal(c.n_held, 4);
    app_cl_release_since(&c, mark);
    assert_int_equal(c.n_held, 1);
    app_cl_close(&c);
}

/* Runs in one session: default, fenced, default, each checked, with host and
 * device times; then a corrupted reference FAILs the next run. */
static void session_runs(app_kind kind, const char *wrong)
{
    app_config cfg = apps_test_config(kind, 0);
    app *a;
    char msg[2048];
    if (app_create(&cfg, &a, msg, sizeof msg))
        fail_msg("app_create: %s", msg);
    app_plain_options o = pocl_options();
    app_plain_session *s;
    if (app_plain_open(a, &o, &s, msg, sizeof msg))
        fail_msg("app_plain_open: %s", msg);
    const char *opts[] = {NULL, "-DCK_PLAIN_BARRIER_FENCED", NULL, "-DCK_PLAIN_BARRIER_FENCED"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; ++i) {
        app_plain_result r;
        int rc = app_plain_run(s, opts[i], &r, msg, sizeof msg);
        if (rc != 0)
            fail_msg("%s run %zu (%s): %s: %s", app_kind_name(kind), i, opts[i] ? opts[i] : "default",
                     rc < 0 ? "error" : "FAIL", msg);
        assert_true(r.ms > 0);
        assert_true(r.device_ms > 0); /* PoCL keeps profiling times */
        assert_true(r.device_ms <= r.ms + 1.0);
        assert_int_equal(r.groups, 2);
        assert_string_equal(r.mode, "persistent");
        assert_false(r.timed_out);
        print_message("%s run %zu (%s): %.2f ms host, %.2f ms device\n", app_kind_name(kind), i,
                      opts[i] ? opts[i] : "default", r.ms, r.device_ms);
    }
    app_plain_result r;
    assert_int_equal(app_plain_run(s, "-cl-no-such-option", &r, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "-cl-no-such-option"));
    assert_int_equal(app_plain_run(s, NULL, &r, msg, sizeof msg), 0); /* the session survives a failed build */
    app_corrupt_reference(a);
    assert_int_equal(app_plain_run(s, NULL, &r, msg, sizeof msg), 1);
    if (!strstr(msg, wrong))
        fail_msg("unexpected message: %s", msg);
    app_plain_close(s);
    app_destroy(a);
}

static void test_session_bfs(void **state)
{
    (void)state;
    session_runs(APP_KIND_BFS, "level");
}

static void test_session_ws(void **state)
{
    (void)state;
    session_runs(APP_KIND_WS, "checksum");
}

/* app_plain keeps its contract: warm-up and timed run, device time included. */
static void test_app_plain_wrapper(void **state)
{
    (void)state;
    app_config cfg = apps_test_config(APP_KIND_BFS, 0);
    app *a;
    char msg[2048];
    if (app_create(&cfg, &a, msg, sizeof msg))
        fail_msg("app_create: %s", msg);
    app_plain_options o = pocl_options();
    o.warmup = 1;
    o.build_options = "-DCK_PLAIN_BARRIER_FENCED";
    app_plain_result r;
    int rc = app_plain(a, &o, &r, msg, sizeof msg);
    if (rc != 0)
        fail_msg("app_plain: %d: %s", rc, msg);
    assert_true(r.device_ms > 0);
    o.build_options = "-cl-no-such-option";
    assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "-cl-no-such-option"));
    o.build_options = NULL;
    o.persistent = 0; /* multi-launch: no device time */
    rc = app_plain(a, &o, &r, msg, sizeof msg);
    if (rc != 0)
        fail_msg("app_plain multi-launch: %d: %s", rc, msg);
    assert_string_equal(r.mode, "multi-launch");
    assert_true(r.device_ms == -1);
    app_destroy(a);
}

int main(int argc, char **argv)
{
    if (argc < 2 || ck_path_parse(argv[1], &path) != CK_OK || path == CK_PATH_AUTO) {
        fprintf(stderr, "usage: %s cl20|cl12\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_program_cache),
        cmocka_unit_test(test_session_bfs),
        cmocka_unit_test(test_session_ws),
        cmocka_unit_test(test_app_plain_wrapper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
