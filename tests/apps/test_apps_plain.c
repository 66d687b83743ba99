/* tests/apps/test_apps_plain.c (owner: apps): the plain OpenCL baselines on
 * PoCL against the CPU references, on the atomics path named by argv[1]
 * (cl20 or cl12): multi-launch and persistent BFS on R-MAT, grid and a DIMACS
 * file, and the occupancy-bound persistent work stealing with several group
 * counts; and a corrupted reference must make the check FAIL. Needs
 * POCL_MAX_PTHREAD_COUNT (meson sets 8). */
#include "app.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static ck_path path;

static app_plain_options pocl_options(void)
{
    app_plain_options o;
    memset(&o, 0, sizeof o);
    o.device.device = "Portable Computing Language";
    o.device.path = path;
    o.work_group_size = 64;
    return o;
}

static app *make_app(app_config *c)
{
    app *a;
    char err[512];
    if (app_create(c, &a, err, sizeof err))
        fail_msg("app_create: %s", err);
    return a;
}

static void expect_pass(app *a, const app_plain_options *o)
{
    app_plain_result r;
    char msg[1024];
    int s = app_plain(a, o, &r, msg, sizeof msg);
    if (s != 0)
        fail_msg("%s baseline on %s: %s: %s", r.mode, app_describe(a), s < 0 ? "error" : "FAIL", msg);
    assert_true(r.ms > 0);
    assert_string_equal(r.path, ck_path_name(path));
    print_message("%s %s (%u groups): %.1f ms, PASS\n", app_describe(a), r.mode, r.groups, r.ms);
}

static void test_bfs_multi_launch(void **state)
{
    app_config c;
    app_config_defaults(&c, APP_KIND_BFS);
    app_plain_options o = pocl_options();
    c.graph = "rmat";
    c.scale = 12;
    app *a = make_app(&c);
    expect_pass(a, &o);
    app_destroy(a);
    c.graph = "grid";
    c.scale = 10;
    a = make_app(&c);
    expect_pass(a, &o);
    app_destroy(a);
}

static void test_bfs_from_dimacs_file(void **state)
{
    char dir[] = "/tmp/ck_apps_plain_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path_buf[64];
    snprintf(path_buf, sizeof path_buf, "%s/grid.gr", dir);
    FILE *f = fopen(path_buf, "w");
    assert_non_null(f);
    /* A 20x20 grid as directed arcs both ways, and an isolated node 401. */
    fprintf(f, "c test graph\np sp 401 %d\n", 2 * (2 * 20 * 19));
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 20; ++x) {
            int v = y * 20 + x + 1;
            if (x + 1 < 20)
                fprintf(f, "a %d %d 1\na %d %d 1\n", v, v + 1, v + 1, v);
            if (y + 1 < 20)
                fprintf(f, "a %d %d 1\na %d %d 1\n", v, v + 20, v + 20, v);
        }
    fclose(f);
    app_config c;
    app_config_defaults(&c, APP_KIND_BFS);
    c.graph = path_buf;
    c.source = 0;
    app *a = make_app(&c);
    assert_non_null(strstr(app_describe(a), "39 levels"));
    assert_non_null(strstr(app_describe(a), "400 reached"));
    app_plain_options o = pocl_options();
    expect_pass(a, &o);
    app_destroy(a);
    unlink(path_buf);
    rmdir(dir);
}

static void test_bfs_persistent(void **state)
{
    app_config c;
    app_config_defaults(&c, APP_KIND_BFS);
    c.graph = "grid";
    c.scale = 8;
    app *a = make_app(&c);
    app_plain_options o = pocl_options();
    o.persistent = 1;
    expect_pass(a, &o); /* occupancy - 1 groups */
    o.groups = 2;
    expect_pass(a, &o);
    app_destroy(a);
}

static void test_ws_persistent(void **state)
{
    app_config c;
    app_config_defaults(&c, APP_KIND_WS);
    c.ws.roots = 64;
    c.ws.max_depth = 48;
    c.ws.units = 32;
    c.ws.iters = 8;
    app *a = make_app(&c);
    app_plain_options o = pocl_options();
    unsigned counts[] = {1, 3, 0};
    for (size_t i = 0; i < 3; ++i) {
        o.groups = counts[i];
        expect_pass(a, &o);
    }
    app_destroy(a);
}

static void test_corrupted_reference_fails(void **state)
{
    app_config c;
    app_config_defaults(&c, APP_KIND_BFS);
    c.graph = "grid";
    c.scale = 6;
    app *a = make_app(&c);
    app_corrupt_reference(a);
    app_plain_options o = pocl_options();
    app_plain_result r;
    char msg[1024];
    assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "level of node"));
    app_destroy(a);

    app_config_defaults(&c, APP_KIND_WS);
    c.ws.roots = 8;
    c.ws.max_depth = 8;
    a = make_app(&c);
    app_corrupt_reference(a);
    o.groups = 2;
    assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "checksum"));
    app_destroy(a);
}

/* p-sssp and bc: the multi-launch and the persistent baseline (occupancy - 1
 * and 2 groups) on an R-MAT and a grid each; a corrupted reference FAILs. */
static void run_pannotia_forms(app_kind kind, const char *graph, unsigned scale, uint32_t bc_sources)
{
    app_config c;
    app_config_defaults(&c, kind);
    c.graph = graph;
    c.scale = scale;
    c.bc_sources = bc_sources;
    c.max_weight = 4; /* p-sssp: rounds follow hops, few with small weights */
    app *a = make_app(&c);
    app_plain_options o = pocl_options();
    expect_pass(a, &o); /* multi-launch */
    o.persistent = 1;
    expect_pass(a, &o); /* occupancy - 1 groups */
    o.groups = 2;
    expect_pass(a, &o);
    app_corrupt_reference(a);
    app_plain_result r;
    char msg[1024];
    assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "says"));
    app_destroy(a);
}

static void test_psssp_forms(void **state)
{
    (void)state;
    run_pannotia_forms(APP_KIND_PSSSP, "rmat", 9, 0);
    run_pannotia_forms(APP_KIND_PSSSP, "grid", 5, 0);
}

static void test_bc_forms(void **state)
{
    (void)state;
    run_pannotia_forms(APP_KIND_BC, "rmat", 9, 4);
    run_pannotia_forms(APP_KIND_BC, "grid", 3, 0); /* every node a source */
}

int main(int argc, char **argv)
{
    if (argc < 2 || ck_path_parse(argv[1], &path) != CK_OK || path == CK_PATH_AUTO) {
        fprintf(stderr, "usage: %s cl20|cl12\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfs_multi_launch),
        cmocka_unit_test(test_bfs_from_dimacs_file),
        cmocka_unit_test(test_bfs_persistent),
        cmocka_unit_test(test_ws_persistent),
        cmocka_unit_test(test_corrupted_reference_fails),
        cmocka_unit_test(test_psssp_forms),
        cmocka_unit_test(test_bc_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
