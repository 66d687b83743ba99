/* tests/apps/test_apps_plain.c (owner: apps): the plain OpenCL baselines on
 * PoCL against the CPU references, on the atomics path named by argv[1]
 * (cl20 or cl12): multi-launch and persistent BFS on R-MAT, grid and a DIMACS
 * file, and the occupancy-bound persistent work stealing with several group
 * counts; bfs-wl and l-sssp in both forms, and their worklist overflow
 * reported as an error (baselines and cooperative form); octree, game,
 * color and mis baselines; and a corrupted reference must make the check FAIL. Needs
 * POCL_MAX_PTHREAD_COUNT (meson sets 8). */
#include "app.h"
#include "apps_test_util.h"
#include "worklist/wl.h"

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

/* octree and game: the persistent baseline at 1, 3 and occupancy - 1
 * groups, and a corrupted reference must FAIL. */
static void test_octree_game_persistent(void **state)
{
    for (int k = 0; k < 2; ++k) {
        app_config c;
        app_kind kind = k ? APP_KIND_GAME : APP_KIND_OCTREE;
        app_config_defaults(&c, kind);
        app_test_config(&c, kind, 0);
        app *a = make_app(&c);
        app_plain_options o = pocl_options();
        unsigned counts[] = {1, 3, 0};
        for (size_t i = 0; i < 3; ++i) {
            o.groups = counts[i];
            expect_pass(a, &o);
        }
        app_destroy(a);
        app_test_config(&c, kind, 1);
        a = make_app(&c);
        o.groups = 2;
        expect_pass(a, &o);
        app_corrupt_reference(a);
        app_plain_result r;
        char msg[1024];
        assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), 1);
        assert_non_null(strstr(msg, k ? "move " : "leaves"));
        app_destroy(a);
    }
}

/* color and mis: the multi-launch form on R-MAT and a grid, the persistent
 * form on small ones (every barrier spins on a CPU: R-MAT with 2 groups, the
 * grid with the occupancy - 1), and a corrupted reference that must FAIL in
 * both forms. */
static void color_mis_baselines(app_kind kind, const char *ref_text)
{
    app_config c;
    app_plain_options o = pocl_options();
    const char *graphs[] = {"rmat", "grid"};
    unsigned multi_scales[] = {11, 10}, persistent_scales[] = {8, 6}, persistent_groups[] = {2, 0};
    for (int persistent = 0; persistent < 2; ++persistent)
        for (int i = 0; i < 2; ++i) {
            app_config_defaults(&c, kind);
            c.graph = graphs[i];
            c.scale = persistent ? persistent_scales[i] : multi_scales[i];
            app *a = make_app(&c);
            o.persistent = persistent;
            o.groups = persistent ? persistent_groups[i] : 0;
            expect_pass(a, &o);
            app_destroy(a);
        }
    app_config_defaults(&c, kind);
    c.graph = "grid";
    c.scale = 6;
    app *a = make_app(&c);
    app_corrupt_reference(a);
    app_plain_result r;
    char msg[1024];
    for (int persistent = 0; persistent < 2; ++persistent) {
        o.persistent = persistent;
        o.groups = 2;
        assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), 1);
        assert_non_null(strstr(msg, ref_text));
    }
    app_destroy(a);
}

static void test_color_baselines(void **state)
{
    (void)state;
    color_mis_baselines(APP_KIND_COLOR, "colour of node 0");
}

static void test_mis_baselines(void **state)
{
    (void)state;
    color_mis_baselines(APP_KIND_MIS, "set membership of node 0");
}

/* bfs-wl and l-sssp: both baselines on R-MAT and a grid, several group
 * counts and work-group sizes (one not a power of two). */
static void test_worklist_apps(void **state)
{
    app_kind kinds[] = {APP_KIND_BFSWL, APP_KIND_LSSSP};
    for (size_t k = 0; k < 2; ++k) {
        app_config c;
        app_config_defaults(&c, kinds[k]);
        c.graph = "rmat";
        c.scale = 11;
        app *a = make_app(&c);
        app_plain_options o = pocl_options();
        expect_pass(a, &o); /* multi-launch */
        o.work_group_size = 48;
        expect_pass(a, &o);
        o.persistent = 1;
        expect_pass(a, &o); /* occupancy - 1 groups */
        o.groups = 2;
        o.work_group_size = 128;
        expect_pass(a, &o);
        app_destroy(a);
        c.graph = "grid";
        c.scale = 9;
        a = make_app(&c);
        o = pocl_options();
        expect_pass(a, &o);
        o.persistent = 1;
        o.groups = 3;
        expect_pass(a, &o);
        app_destroy(a);
    }
}

/* A worklist that overflows (capacity capped by the test hook) is an error
 * naming the overflow in both baselines, and a damaged reference a FAIL. */
static void test_worklist_overflow_and_corruption(void **state)
{
    app_kind kinds[] = {APP_KIND_BFSWL, APP_KIND_LSSSP};
    const char *wrong[] = {"level of node", "Dijkstra says"};
    for (size_t k = 0; k < 2; ++k) {
        app_config c;
        app_config_defaults(&c, kinds[k]);
        c.graph = "rmat";
        c.scale = 8;
        app *a = make_app(&c);
        app_plain_options o = pocl_options();
        app_plain_result r;
        char msg[1024];
        app_wl_set_test_capacity(4);
        for (int persistent = 0; persistent < 2; ++persistent) {
            o.persistent = persistent;
            o.groups = 2;
            assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), -1);
            assert_non_null(strstr(msg, "overflow"));
        }
        app_wl_set_test_capacity(0);
        expect_pass(a, &o);
        app_corrupt_reference(a);
        assert_int_equal(app_plain(a, &o, &r, msg, sizeof msg), 1);
        if (!strstr(msg, wrong[k]))
            fail_msg("unexpected message: %s", msg);
        app_destroy(a);
    }
}

/* The cooperative form reports an overflowing worklist too (read back as an
 * error of the check, not a PASS or a silent FAIL), and passes once the
 * capacity is back. */
static void test_worklist_coop_overflow(void **state)
{
    app_config c;
    app_config_defaults(&c, APP_KIND_LSSSP);
    c.graph = "rmat";
    c.scale = 8;
    app *a = make_app(&c);
    ck_context_options o = apps_test_context(path, 0, 0);
    char err[1024], why[1200];
    for (int capped = 1; capped >= 0; --capped) {
        app_wl_set_test_capacity(capped ? 4 : 0);
        app_session s;
        if (app_session_open(a, &o, 0, 0, &s, err, sizeof err))
            fail_msg("session: %s", err);
        app_multitask_result r;
        int bad = apps_test_run(&s, 0, why, sizeof why, &r);
        if (capped) {
            assert_int_equal(bad, 1);
            assert_int_equal(r.coop_check, -1);
            if (!strstr(r.coop_msg, "overflow"))
                fail_msg("no overflow reported: %s", why);
        } else if (bad) {
            fail_msg("after the overflow: %s", why);
        }
        app_multitask_result_free(&r);
        assert_int_equal(app_session_close(&s, err, sizeof err), 0);
    }
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
        cmocka_unit_test(test_octree_game_persistent),
        cmocka_unit_test(test_color_baselines),
        cmocka_unit_test(test_mis_baselines),
        cmocka_unit_test(test_worklist_apps),
        cmocka_unit_test(test_worklist_overflow_and_corruption),
        cmocka_unit_test(test_worklist_coop_overflow),
        cmocka_unit_test(test_psssp_forms),
        cmocka_unit_test(test_bc_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
