/* tests/apps/test_apps_reference.c (owner: apps): the CPU references and the
 * checkers against tiny hand-checked cases, and proof that the checkers fail
 * on wrong answers: BFS levels (with and without a reference), the
 * work-stealing task tree, matmul's expected entries, the --noncoop group
 * expressions, and the app layer's input descriptions. No OpenCL device is
 * needed. */
#include "app.h"
#include "bfs/bfs.h"
#include "check.h"
#include "color/color.h"
#include "graph_input.h"
#include "mis/mis.h"
#include "graph.h"
#include "matmul.h"
#include "sssp_cpu.h"
#include "bc/bc.h"
#include "worklist/wl.h"
#include "multitask.h"
#include "workstealing/ws.h"
#include "octree/octree.h"
#include "game/game.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static app_csr make_graph(int32_t n, const int32_t (*pairs)[2], size_t np, int symmetric)
{
    app_edges e;
    memset(&e, 0, sizeof e);
    e.n = n;
    for (size_t i = 0; i < np; ++i)
        assert_int_equal(app_edges_push(&e, pairs[i][0], pairs[i][1]), 0);
    app_csr g;
    char err[256];
    assert_int_equal(app_csr_build(&e, symmetric, &g, err, sizeof err), 0);
    app_edges_free(&e);
    return g;
}

static void test_bfs_cpu_hand_cases(void **state)
{
    /* 0-1-2-3 path plus a triangle 4-5-6 not connected to it, and 7 alone. */
    const int32_t pairs[][2] = {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {6, 4}};
    app_csr g = make_graph(8, pairs, 6, 1);
    int32_t lv[8];
    assert_int_equal(app_bfs_cpu(&g, 1, lv), 3);
    int32_t want1[] = {1, 0, 1, 2, -1, -1, -1, -1};
    assert_memory_equal(lv, want1, sizeof want1);
    assert_int_equal(app_bfs_cpu(&g, 5, lv), 2);
    int32_t want5[] = {-1, -1, -1, -1, 1, 0, 1, -1};
    assert_memory_equal(lv, want5, sizeof want5);
    assert_int_equal(app_bfs_cpu(&g, 7, lv), 1);
    app_csr_free(&g);

    /* A 3x3 grid from the corner: levels are Manhattan distances. */
    app_edges e;
    char err[256];
    assert_int_equal(app_gen_grid(3, 3, 0, 1, &e, err, sizeof err), 0);
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    int32_t grid[9];
    assert_int_equal(app_bfs_cpu(&g, 0, grid), 5);
    for (int32_t v = 0; v < 9; ++v)
        assert_int_equal(grid[v], v % 3 + v / 3);
    app_csr_free(&g);
    app_edges_free(&e);

    /* Directed: 0->1->2, 2->0; from 1 node 0 is two hops away. */
    const int32_t dpairs[][2] = {{0, 1}, {1, 2}, {2, 0}};
    g = make_graph(3, dpairs, 3, 0);
    assert_int_equal(app_bfs_cpu(&g, 1, lv), 3);
    assert_int_equal(lv[0], 2);
    assert_int_equal(lv[2], 1);
    app_csr_free(&g);
}

static void test_bfs_checker_detects_wrong_levels(void **state)
{
    const int32_t pairs[][2] = {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 3}, {5, 6}};
    app_csr g = make_graph(7, pairs, 6, 1);
    int32_t ref[7], got[7];
    app_bfs_cpu(&g, 0, ref);
    char msg[512];
    memcpy(got, ref, sizeof got);
    assert_int_equal(app_bfs_check(&g, 0, got, ref, msg, sizeof msg), 0);
    assert_int_equal(app_bfs_check(&g, 0, got, NULL, msg, sizeof msg), 0);

    /* One corrupted level: found against the reference, with the node named. */
    got[3] = 3;
    assert_int_equal(app_bfs_check(&g, 0, got, ref, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "node 3: got 3, expected 2"));
    /* ... and by the independent validation (edge 4->3 spans two levels). */
    assert_true(app_bfs_check(&g, 0, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "->3 goes from level 1 to level 3"));

    /* An unreached node that should be reached. */
    memcpy(got, ref, sizeof got);
    got[4] = -1;
    assert_true(app_bfs_check(&g, 0, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "edge"));
    /* A node of the other component claimed reachable. */
    memcpy(got, ref, sizeof got);
    got[5] = 1;
    got[6] = 2;
    assert_true(app_bfs_check(&g, 0, got, NULL, msg, sizeof msg) > 0);
    /* The source not at level 0. */
    memcpy(got, ref, sizeof got);
    got[0] = 1;
    assert_true(app_bfs_check(&g, 0, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "source"));
    /* Garbage. */
    for (int i = 0; i < 7; ++i)
        got[i] = 1000 + i;
    assert_true(app_bfs_check(&g, 0, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "impossible"));
    app_csr_free(&g);
}

static void test_check_i32_message(void **state)
{
    int32_t a[] = {1, 2, 3, 4, 5, 6, 7}, b[] = {1, 0, 3, 0, 0, 0, 0};
    char msg[256];
    assert_int_equal(app_check_i32("x", a, a, 7, msg, sizeof msg), 0);
    assert_string_equal(msg, "");
    assert_int_equal(app_check_i32("x", b, a, 7, msg, sizeof msg), 5);
    assert_non_null(strstr(msg, "x 1: got 0, expected 2"));
    assert_non_null(strstr(msg, "5 differences"));
    char tiny[8];
    assert_int_equal(app_check_i32("x", b, a, 7, tiny, sizeof tiny), 5); /* truncates safely */
}

static void test_ws_reference_hand_cases(void **state)
{
    /* One root, depth 0: exactly one task, whose value is the sum of its units. */
    app_ws_params p = {1, 0, 3, 2, 99};
    app_ws_result r;
    assert_int_equal(app_ws_cpu(&p, &r), 0);
    assert_int_equal(r.tasks, 1);
    uint32_t seed = app_ws_root_seed(99, 0), want = 0;
    for (uint32_t u = 0; u < 3; ++u)
        want += app_ws_hash(app_ws_hash((seed ^ (u * 0x9e3779b9u)) + 0) + 1);
    assert_int_equal(r.checksum, want);
    assert_int_equal(app_ws_task_value(seed, 3, 2), want);

    /* Depth 1 by hand: the root plus its children (0..3 of them). */
    p.max_depth = 1;
    assert_int_equal(app_ws_cpu(&p, &r), 0);
    uint32_t nc = app_ws_children(seed, 0, 1);
    assert_true(nc <= 3);
    assert_int_equal(r.tasks, 1 + nc);
    uint32_t sum = app_ws_task_value(seed, 3, 2);
    for (uint32_t c = 0; c < nc; ++c) {
        assert_int_equal(app_ws_children(app_ws_child_seed(seed, c), 1, 1), 0);
        sum += app_ws_task_value(app_ws_child_seed(seed, c), 3, 2);
    }
    assert_int_equal(r.checksum, sum);

    /* The children distribution: 0..3, mean 1, all values occur. */
    unsigned hist[4] = {0, 0, 0, 0};
    for (uint32_t s = 0; s < 8000; ++s) {
        uint32_t k = app_ws_children(app_ws_hash(s), 0, 10);
        assert_true(k <= 3);
        hist[k]++;
    }
    for (int k = 0; k < 4; ++k)
        assert_true(hist[k] > 500);
    double mean = (hist[1] + 2.0 * hist[2] + 3.0 * hist[3]) / 8000.0;
    assert_true(mean > 0.9 && mean < 1.1);
    assert_int_equal(app_ws_children(12345, 7, 7), 0); /* depth limit */

    /* Irregular: the roots' subtrees have very different sizes. */
    app_ws_params big = {64, 60, 1, 0, 5};
    uint32_t smallest = 0xffffffffu, largest = 0, total = 0;
    static uint32_t stack[64 * 200][2];
    for (uint32_t i = 0; i < 64; ++i) {
        uint32_t top = 0, size = 0;
        stack[top][0] = app_ws_root_seed(5, i);
        stack[top++][1] = 0;
        while (top) {
            --top;
            uint32_t s0 = stack[top][0], d = stack[top][1];
            ++size;
            for (uint32_t c = 0; c < app_ws_children(s0, d, 60); ++c) {
                stack[top][0] = app_ws_child_seed(s0, c);
                stack[top++][1] = d + 1;
            }
        }
        smallest = size < smallest ? size : smallest;
        largest = size > largest ? size : largest;
        total += size;
    }
    assert_true(largest > 20 * smallest);
    assert_int_equal(app_ws_cpu(&big, &r), 0);
    assert_int_equal(r.tasks, total);
    assert_true(r.max_depth_seen <= 60);

    /* Deterministic, and the seed matters. */
    app_ws_result r2, r3;
    assert_int_equal(app_ws_cpu(&big, &r2), 0);
    assert_memory_equal(&r, &r2, sizeof r);
    big.seed = 6;
    assert_int_equal(app_ws_cpu(&big, &r3), 0);
    assert_true(r3.checksum != r.checksum);
}

static void test_ws_checker_detects_errors(void **state)
{
    app_ws_result want = {100, 0xabcdef01u, 9, 0, 0, 0}, got = want;
    char msg[256];
    got.steals = 77; /* informational: ignored */
    assert_int_equal(app_ws_check(&got, &want, msg, sizeof msg), 0);
    got.tasks = 99;
    assert_int_equal(app_ws_check(&got, &want, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "tasks done: got 99, expected 100"));
    got = want;
    got.checksum ^= 4;
    assert_int_equal(app_ws_check(&got, &want, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "checksum"));
    got = want;
    got.overflow = 2;
    got.pending = 1;
    assert_int_equal(app_ws_check(&got, &want, msg, sizeof msg), 2);
    assert_non_null(strstr(msg, "lost"));
    assert_non_null(strstr(msg, "pending"));
    /* Capacity covers the roots' share plus two siblings per level. */
    app_ws_params p = {100, 10, 1, 1, 1};
    assert_true(app_ws_capacity(&p, 7) >= 15 + 22);
    assert_true(app_ws_capacity(&p, 1) >= 100 + 22);
}

static void test_matmul_expected_entries(void **state)
{
    const int n = 8;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float s = 5.0f;
            for (int k = 0; k < n; ++k)
                s += app_matmul_a(n, i, k) * app_matmul_b(n, k, j);
            assert_true(app_matmul_expected(n, i, j, 5.0f) == s);
            assert_true(app_matmul_a(n, i, j) >= -2 && app_matmul_a(n, i, j) <= 2);
            assert_true(app_matmul_b(n, i, j) >= -3 && app_matmul_b(n, i, j) <= 3);
        }
    /* The salt changes every entry, so a stale result is detected. */
    assert_true(app_matmul_expected(64, 3, 4, 1.0f) != app_matmul_expected(64, 3, 4, 2.0f));
}

static void test_group_expressions(void **state)
{
    unsigned g;
    assert_int_equal(app_parse_group_expr("1", 7, &g), 0);
    assert_int_equal(g, 1);
    assert_int_equal(app_parse_group_expr("N/4", 7, &g), 0);
    assert_int_equal(g, 1);
    assert_int_equal(app_parse_group_expr("N/4", 132, &g), 0);
    assert_int_equal(g, 33);
    assert_int_equal(app_parse_group_expr("N/2", 7, &g), 0);
    assert_int_equal(g, 3);
    assert_int_equal(app_parse_group_expr("N-1", 7, &g), 0);
    assert_int_equal(g, 6);
    assert_int_equal(app_parse_group_expr("N-1", 1, &g), 0);
    assert_int_equal(g, 1);
    assert_int_equal(app_parse_group_expr("N", 7, &g), 0);
    assert_int_equal(g, 7);
    assert_int_equal(app_parse_group_expr("12", 7, &g), 0);
    assert_int_equal(g, 7);
    assert_int_equal(app_parse_group_expr("N/3", 7, &g), -1);
    assert_int_equal(app_parse_group_expr("0", 7, &g), -1);
    assert_int_equal(app_parse_group_expr("x", 7, &g), -1);
    assert_int_equal(app_parse_group_expr("", 7, &g), -1);
}

static void test_app_layer_inputs(void **state)
{
    app_config c;
    app *a;
    char err[256];
    app_config_defaults(&c, APP_KIND_BFS);
    c.graph = "grid";
    c.scale = 6;
    assert_int_equal(app_create(&c, &a, err, sizeof err), 0);
    assert_non_null(strstr(app_describe(a), "grid 8x8"));
    assert_non_null(strstr(app_describe(a), "source 0"));
    app_destroy(a);
    c.graph = "rmat";
    c.scale = 8;
    assert_int_equal(app_create(&c, &a, err, sizeof err), 0);
    assert_non_null(strstr(app_describe(a), "256 nodes"));
    app_destroy(a);
    c.graph = "/nonexistent.gr";
    assert_int_equal(app_create(&c, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent.gr"));
    c.graph = "grid";
    c.source = 1000;
    assert_int_equal(app_create(&c, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "source"));

    app_config_defaults(&c, APP_KIND_WS);
    c.ws.roots = 8;
    c.ws.max_depth = 4;
    assert_int_equal(app_create(&c, &a, err, sizeof err), 0);
    assert_non_null(strstr(app_describe(a), "8 roots"));
    app_destroy(a);

    app_kind k;
    assert_int_equal(app_kind_parse("bfs", &k), 0);
    assert_int_equal(k, APP_KIND_BFS);
    assert_int_equal(app_kind_parse("workstealing", &k), 0);
    assert_int_equal(k, APP_KIND_WS);
    assert_int_equal(app_kind_parse("sssp", &k), -1);
}

/* Dijkstra on a hand-checked graph: 0-1 (4), 0-2 (1), 2-1 (2), 1-3 (5),
 * 4 isolated: distances 0, 3, 1, 8, unreachable; and the checker catches a
 * wrong distance even without a reference. */
static void test_sssp_dijkstra_and_checker(void **state)
{
    (void)state;
    app_edges e;
    memset(&e, 0, sizeof e);
    e.n = 5;
    assert_int_equal(app_edges_push_w(&e, 0, 1, 4), 0);
    assert_int_equal(app_edges_push_w(&e, 0, 2, 1), 0);
    assert_int_equal(app_edges_push_w(&e, 2, 1, 2), 0);
    assert_int_equal(app_edges_push_w(&e, 1, 3, 5), 0);
    app_csr g;
    char err[512];
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    app_edges_free(&e);
    int32_t d[5], want[5] = {0, 3, 1, 8, APP_SSSP_INF};
    assert_int_equal(app_sssp_dijkstra(&g, 0, d, err, sizeof err), 0);
    assert_memory_equal(d, want, sizeof want);
    assert_int_equal(app_sssp_check(&g, 0, d, want, err, sizeof err), 0);
    d[3] = 9; /* too long: edge 1-3 still relaxes it, and no tight neighbour */
    assert_true(app_sssp_check(&g, 0, d, NULL, err, sizeof err) > 0);
    assert_non_null(strstr(err, "relaxes"));
    d[3] = 7; /* too short: no neighbour explains it */
    assert_true(app_sssp_check(&g, 0, d, NULL, err, sizeof err) > 0);
    assert_non_null(strstr(err, "no neighbour"));
    d[3] = 8;
    d[4] = 2; /* isolated node reached */
    assert_true(app_sssp_check(&g, 0, d, NULL, err, sizeof err) > 0);
    assert_int_equal(app_sssp_dijkstra(&g, 7, d, err, sizeof err), -1);
    app_csr_free(&g);
}

/* ---- octree: a hand-checked split, identical particles, the checker */
static void put(float *p, uint32_t i, float x, float y, float z)
{
    p[4 * i] = x;
    p[4 * i + 1] = y;
    p[4 * i + 2] = z;
    memcpy(&p[4 * i + 3], &i, 4);
}

static void test_octree_reference_hand_cases(void **state)
{
    /* Root splits at 1/2: p2 and p3 are alone (leaves at depth 1); p0 and p1
     * stay together at depth 2 and part at depth 3 (0.1*8 < 1 <= 0.2*8). */
    float in[16], out[16];
    put(in, 0, 0.1f, 0.1f, 0.1f);
    put(in, 1, 0.2f, 0.2f, 0.2f);
    put(in, 2, 0.9f, 0.1f, 0.1f);
    put(in, 3, 0.9f, 0.9f, 0.9f);
    app_ot_leaf lv[4];
    uint32_t nl, nt;
    char msg[256];
    assert_int_equal(app_octree_cpu(in, 4, 1, out, lv, &nl, &nt), 0);
    assert_int_equal(nl, 4);
    assert_int_equal(nt, 3);
    app_ot_summary s = app_octree_summarize(lv, nl);
    assert_int_equal(s.max_depth, 3);
    unsigned seen = 0;
    for (uint32_t i = 0; i < nl; ++i) {
        assert_int_equal(lv[i].count, 1);
        uint32_t id;
        memcpy(&id, &out[4 * lv[i].start + 3], 4);
        uint32_t want[4][4] = {{3, 0, 0, 0}, {3, 1, 1, 1}, {1, 1, 0, 0}, {1, 1, 1, 1}}; /* depth, ix, iy, iz */
        assert_int_equal(lv[i].depth, want[id][0]);
        assert_int_equal(lv[i].ix, want[id][1]);
        assert_int_equal(lv[i].iy, want[id][2]);
        assert_int_equal(lv[i].iz, want[id][3]);
        seen |= 1u << id;
    }
    assert_int_equal(seen, 15);
    assert_int_equal(app_octree_check(in, 4, 1, out, lv, nl, msg, sizeof msg), 0);

    /* Identical particles split down to the depth limit, one leaf. */
    float same[40], sout[40];
    for (uint32_t i = 0; i < 10; ++i)
        put(same, i, 0.3f, 0.3f, 0.3f);
    assert_int_equal(app_octree_cpu(same, 10, 5, sout, lv, &nl, &nt), 0);
    assert_int_equal(nl, 1);
    assert_int_equal(nt, APP_OCTREE_DEPTH_LIMIT);
    assert_int_equal(lv[0].depth, APP_OCTREE_DEPTH_LIMIT);
    assert_int_equal(lv[0].count, 10);
    assert_int_equal(app_octree_check(same, 10, 5, sout, lv, nl, msg, sizeof msg), 0);

    /* The generator: in [0,1), ids in order, deterministic. */
    enum { N = 2000 };
    static float g1[4 * N], g2[4 * N], gout[4 * N];
    static app_ot_leaf glv[N];
    app_octree_generate(g1, N, 20, 7);
    app_octree_generate(g2, N, 20, 7);
    assert_memory_equal(g1, g2, sizeof g1);
    for (uint32_t i = 0; i < N; ++i) {
        uint32_t id;
        memcpy(&id, &g1[4 * i + 3], 4);
        assert_int_equal(id, i);
        for (int d = 0; d < 3; ++d)
            assert_true(g1[4 * i + d] >= 0.0f && g1[4 * i + d] < 1.0f);
    }
    assert_int_equal(app_octree_cpu(g1, N, 5, gout, glv, &nl, &nt), 0);
    assert_int_equal(app_octree_check(g1, N, 5, gout, glv, nl, msg, sizeof msg), 0);
    assert_true(nl > N / 5 / 2 && nl < N);
}

static void test_octree_checker_detects_errors(void **state)
{
    float in[16], out[16], bad[16];
    put(in, 0, 0.1f, 0.1f, 0.1f);
    put(in, 1, 0.2f, 0.2f, 0.2f);
    put(in, 2, 0.9f, 0.1f, 0.1f);
    put(in, 3, 0.9f, 0.9f, 0.9f);
    app_ot_leaf lv[4], lb[4];
    uint32_t nl, nt;
    char msg[256];
    assert_int_equal(app_octree_cpu(in, 4, 1, out, lv, &nl, &nt), 0);
    /* a particle twice (and another missing), in its own cube */
    float same[16], sout[16];
    for (uint32_t i = 0; i < 4; ++i)
        put(same, i, 0.3f, 0.3f, 0.3f);
    app_ot_leaf sl[4];
    assert_int_equal(app_octree_cpu(same, 4, 1, sout, sl, &nl, &nt), 0);
    assert_int_equal(app_octree_check(same, 4, 1, sout, sl, nl, msg, sizeof msg), 0);
    memcpy(&sout[4], &sout[0], 16);
    assert_int_equal(app_octree_check(same, 4, 1, sout, sl, nl, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "twice"));
    assert_int_equal(app_octree_cpu(in, 4, 1, out, lv, &nl, &nt), 0);
    /* moved coordinates */
    memcpy(bad, out, sizeof bad);
    bad[4 * lv[0].start] += 0.01f;
    assert_int_equal(app_octree_check(in, 4, 1, bad, lv, nl, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "changed"));
    /* a leaf whose cube does not hold its particle */
    memcpy(lb, lv, sizeof lb);
    lb[0].ix ^= 1;
    assert_int_equal(app_octree_check(in, 4, 1, out, lb, nl, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "outside"));
    /* a leaf missing: counts do not sum to n */
    assert_int_equal(app_octree_check(in, 4, 1, out, lv, nl - 1, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "expected 4"));
    /* two particles in one leaf where max_children is 1 (not at the limit) */
    float two[8], tout[8];
    put(two, 0, 0.1f, 0.1f, 0.1f);
    put(two, 1, 0.2f, 0.2f, 0.2f);
    memcpy(tout, two, sizeof two);
    app_ot_leaf one = {0, 2, 1, 0, 0, 0, 0, 0};
    assert_int_equal(app_octree_check(two, 2, 1, tout, &one, 1, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "max 1"));
    /* a different tree shows in the summary */
    app_ot_summary a = app_octree_summarize(lv, nl);
    lb[0] = lv[0];
    lb[0].depth += 1;
    app_ot_summary b = app_octree_summarize(lb, nl);
    assert_true(a.leaf_hash != b.leaf_hash);
}

/* ---- game: rules, evaluation, minimax by hand, the checker */
static void test_game_reference_hand_cases(void **state)
{
    app_game_pos p;
    char err[256];
    assert_int_equal(app_game_parse("", &p, err, sizeof err), 0);
    assert_true(p.mask == 0);
    assert_int_equal(app_game_parse("48", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "character 2"));
    assert_int_equal(app_game_parse("1111111", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "full column 1"));
    assert_int_equal(app_game_parse("1212121", &p, err, sizeof err), -1); /* vertical four */
    assert_non_null(strstr(err, "wins"));
    assert_int_equal(app_game_parse("1122334", &p, err, sizeof err), -1);                       /* horizontal four */
    assert_int_equal(app_game_won(0xfull), 1);                                                  /* vertical */
    assert_int_equal(app_game_won((1ull << 0) | (1ull << 7) | (1ull << 14) | (1ull << 21)), 1); /* horizontal */
    assert_int_equal(app_game_won(0x7ull | (1ull << 7)), 0);
    assert_int_equal(app_game_won((1ull << 0) | (1ull << 8) | (1ull << 16) | (1ull << 24)), 1); /* diagonal */
    assert_int_equal(app_game_won((1ull << 3) | (1ull << 9) | (1ull << 15) | (1ull << 21)), 1); /* anti-diagonal */
    assert_int_equal(app_game_won((1ull << 4) | (1ull << 5) | (1ull << 7) | (1ull << 8)), 0);   /* no wrap */
    assert_int_equal(app_game_slots(6), 137257);

    /* One piece: 3 per line of four through it, 3 more in the centre. */
    assert_int_equal(app_game_eval(0, 0), 0);
    assert_int_equal(app_game_eval(1ull << 21, 0), 10);
    assert_int_equal(app_game_eval(0, 1ull << 21), -10);
    assert_int_equal(app_game_eval(1ull, 0), 3);
    /* ours at column 2 (4 lines), theirs at 4 (7 lines): the 2 lines through both count for nobody */
    assert_int_equal(app_game_eval(1ull << 7, 1ull << 21), (4 - 2) - (7 - 2) - 3);

    /* Depth 1 from the empty board: the value of each first move. */
    app_game_result r;
    app_game_cpu(p = (app_game_pos){0, 0}, 1, &r);
    int32_t want1[7] = {3, 4, 5, 10, 5, 4, 3};
    assert_memory_equal(r.move, want1, sizeof want1);
    assert_int_equal(r.root, 10);
    assert_int_equal(r.nodes, 8);
    app_game_cpu(p, 2, &r);
    assert_int_equal(r.nodes, 57);

    /* Column 4 full; column 2 wins for the side to move; the others (but 1,
     * which blocks) let the opponent win in column 1 at once. */
    assert_int_equal(app_game_parse("4444441212123", &p, err, sizeof err), 0);
    app_game_cpu(p, 2, &r);
    assert_int_equal(r.move[3], APP_GAME_ILLEGAL);
    assert_int_equal(r.move[1], APP_GAME_WIN - 1);
    assert_int_equal(r.root, APP_GAME_WIN - 1);
    int cols[] = {2, 4, 5, 6};
    for (int i = 0; i < 4; ++i)
        assert_int_equal(r.move[cols[i]], -(APP_GAME_WIN - 2));
    assert_true(r.move[0] > -1000 && r.move[0] < 1000);
}

static void test_game_checker_detects_errors(void **state)
{
    app_game_result want, got;
    app_game_cpu((app_game_pos){0, 0}, 2, &want);
    got = want;
    char msg[512];
    assert_int_equal(app_game_check(&got, &want, msg, sizeof msg), 0);
    got.move[6] += 1; /* the last move alone */
    assert_int_equal(app_game_check(&got, &want, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "move 7"));
    for (int m = 0; m < 7; ++m)
        got.move[m] = want.move[m] - 1;
    assert_int_equal(app_game_check(&got, &want, msg, sizeof msg), 1);
    for (int m = 1; m <= 7; ++m) {
        char k[16];
        snprintf(k, sizeof k, "move %d:", m);
        assert_non_null(strstr(msg, k)); /* all seven named */
    }
    got = want;
    got.nodes += 1;
    assert_int_equal(app_game_check(&got, &want, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "nodes"));
}

/* ---- color and mis (Pannotia) */

/* Path 0-1-2-3, triangle 4-5-6, node 7 alone: the colouring and independent
 * set of the rules worked out by hand. */
static app_csr color_mis_hand_graph(void)
{
    const int32_t pairs[][2] = {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 6}, {4, 6}};
    return make_graph(8, pairs, sizeof pairs / sizeof *pairs, 1);
}

static void test_color_cpu_and_checker(void **state)
{
    (void)state;
    app_csr g = color_mis_hand_graph();
    /* Colour = round = 1 + the largest colour of a higher neighbour. */
    int32_t want[8] = {3, 2, 1, 0, 2, 1, 0, 0}, got[8], rounds[8];
    char msg[512];
    assert_int_equal(app_color_cpu(&g, got), 4);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(app_color_cpu_rounds(&g, rounds), 4);
    assert_memory_equal(rounds, want, sizeof want);
    assert_int_equal(app_color_check(&g, got, want, msg, sizeof msg), 0);
    assert_int_equal(app_color_check(&g, got, NULL, msg, sizeof msg), 0);
    got[1] = 3; /* edge 0-1 joins two nodes of colour 3 */
    assert_true(app_color_check(&g, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "edge 0-1 joins"));
    got[1] = 2;
    got[7] = -1; /* uncoloured */
    assert_true(app_color_check(&g, got, want, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "node 7 has no colour"));
    got[7] = 5; /* proper, but not the rule's colouring */
    assert_int_equal(app_color_check(&g, got, NULL, msg, sizeof msg), 0);
    assert_int_equal(app_color_check(&g, got, want, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "colour of node 7: got 5, expected 0"));
    app_csr_free(&g);
}

static void test_mis_cpu_and_checker(void **state)
{
    (void)state;
    app_csr g = color_mis_hand_graph();
    /* Greedy by id: 0 in, 1 out, 2 in, 3 out, 4 in, 5 and 6 out, 7 in; the
     * rounds: {0, 4, 7} join in the first, 2 in the second. */
    int32_t want[8] = {1, 0, 1, 0, 1, 0, 0, 1}, got[8], r[8], rounds = 0;
    char msg[512];
    assert_int_equal(app_mis_cpu(&g, got), 4);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(app_mis_cpu_rounds(&g, r, &rounds), 4);
    assert_memory_equal(r, want, sizeof want);
    assert_int_equal(rounds, 2);
    assert_int_equal(app_mis_check(&g, got, want, msg, sizeof msg), 0);
    got[1] = 1; /* not independent */
    assert_true(app_mis_check(&g, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "not independent"));
    got[1] = 0;
    got[7] = 0; /* not maximal */
    assert_true(app_mis_check(&g, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "node 7 is out of the set but has no neighbour in it"));
    got[7] = 1;
    got[3] = -1; /* undecided */
    assert_true(app_mis_check(&g, got, NULL, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "node 3 is undecided"));
    /* {1, 3, 4, 7} is maximal and independent, but not the rule's set. */
    int32_t other[8] = {0, 1, 0, 1, 1, 0, 0, 1};
    assert_int_equal(app_mis_check(&g, other, NULL, msg, sizeof msg), 0);
    assert_true(app_mis_check(&g, other, want, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "set membership of node 0"));
    app_csr_free(&g);
}

/* The closed forms equal the rules run round by round on generated graphs,
 * and pass the independent checks. */
static void test_color_mis_closed_forms_match_rounds(void **state)
{
    (void)state;
    const char *names[] = {"rmat", "grid", "rmat"};
    unsigned scales[] = {10, 9, 7};
    for (int i = 0; i < 3; ++i) {
        app_graph_spec s = {.name = names[i], .scale = scales[i], .edge_factor = 8, .grid_drop = 10, .seed = 3};
        app_csr g;
        char what[256], err[256];
        assert_int_equal(app_graph_load(&s, &g, what, sizeof what, err, sizeof err), 0);
        int32_t *a = malloc((size_t)g.n * 4), *b = malloc((size_t)g.n * 4);
        assert_non_null(a);
        assert_non_null(b);
        int32_t k = app_color_cpu(&g, a);
        assert_true(k > 1);
        assert_int_equal(app_color_cpu_rounds(&g, b), k);
        assert_memory_equal(a, b, (size_t)g.n * 4);
        assert_int_equal(app_color_check(&g, a, NULL, err, sizeof err), 0);
        int32_t size = app_mis_cpu(&g, a);
        assert_true(size > 0);
        assert_int_equal(app_mis_cpu_rounds(&g, b, NULL), size);
        assert_memory_equal(a, b, (size_t)g.n * 4);
        assert_int_equal(app_mis_check(&g, a, NULL, err, sizeof err), 0);
        free(a);
        free(b);
        app_csr_free(&g);
    }
}

/* bfs-wl and l-sssp: the worklist sizing and initial values by hand, the
 * checkers on a weighted case where the fewest hops are not the shortest
 * path (BFS levels passed off as distances must FAIL), and the app layer's
 * names, flags and input descriptions. */
static void test_worklist_apps_reference(void **state)
{
    (void)state;
    char err[512];
    app_csr big = {.n = 1 << 30, .m = INT32_MAX};
    assert_int_equal(app_wl_capacity(&big, APP_WL_BFS, err, sizeof err), 1 << 30);
    assert_int_equal(app_wl_capacity(&big, APP_WL_SSSP, err, sizeof err), -1);
    assert_non_null(strstr(err, "2^30"));
    big.n = 1 << 29;
    big.m = 5;
    assert_int_equal(app_wl_capacity(&big, APP_WL_SSSP, err, sizeof err), (1 << 29) + 5);
    app_wl_set_test_capacity(7);
    assert_int_equal(app_wl_capacity(&big, APP_WL_BFS, err, sizeof err), 7);
    app_wl_set_test_capacity(0);
    assert_int_equal(app_wl_local_ints(128), 516);
    int32_t init[4];
    app_wl_init_values(APP_WL_BFS, 4, 2, init);
    assert_true(init[0] == -1 && init[1] == -1 && init[2] == 0 && init[3] == -1);
    app_wl_init_values(APP_WL_SSSP, 4, 0, init);
    assert_true(init[0] == 0 && init[1] == APP_SSSP_INF && init[3] == APP_SSSP_INF);

    /* 0-1 weighs 10; 0-2-3-1 weighs 1+1+1: node 1 is one hop away but at
     * distance 3. Node 4 hangs off 1 (weight 2). */
    app_edges e;
    memset(&e, 0, sizeof e);
    e.n = 5;
    assert_int_equal(app_edges_push_w(&e, 0, 1, 10), 0);
    assert_int_equal(app_edges_push_w(&e, 0, 2, 1), 0);
    assert_int_equal(app_edges_push_w(&e, 2, 3, 1), 0);
    assert_int_equal(app_edges_push_w(&e, 3, 1, 1), 0);
    assert_int_equal(app_edges_push_w(&e, 1, 4, 2), 0);
    app_csr g;
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    app_edges_free(&e);
    int32_t d[5], want_d[5] = {0, 3, 1, 2, 5}, lv[5], want_lv[5] = {0, 1, 1, 2, 2};
    assert_int_equal(app_sssp_dijkstra(&g, 0, d, err, sizeof err), 0);
    assert_memory_equal(d, want_d, sizeof want_d);
    assert_int_equal(app_bfs_cpu(&g, 0, lv), 3);
    assert_memory_equal(lv, want_lv, sizeof want_lv);
    assert_int_equal(app_sssp_check(&g, 0, d, want_d, err, sizeof err), 0);
    assert_int_equal(app_bfs_check(&g, 0, lv, want_lv, err, sizeof err), 0);
    int32_t hops_as_dist[5] = {0, 10, 1, 2, 12}; /* first relaxation only, never lowered */
    assert_true(app_sssp_check(&g, 0, hops_as_dist, NULL, err, sizeof err) > 0);
    assert_non_null(strstr(err, "relaxes"));
    assert_true(app_sssp_check(&g, 0, hops_as_dist, want_d, err, sizeof err) > 0);
    app_csr_free(&g);

    app_kind k;
    assert_int_equal(app_kind_parse("bfs-wl", &k), 0);
    assert_int_equal(k, APP_KIND_BFSWL);
    assert_int_equal(app_kind_parse("lsssp", &k), 0);
    assert_int_equal(k, APP_KIND_LSSSP);
    assert_true(app_kind_uses_graph(k) && app_kind_has_multi_launch(k));
    assert_int_equal(app_test_variants(APP_KIND_BFSWL), 2);
    app_config c;
    app_config_defaults(&c, APP_KIND_LSSSP);
    c.graph = "grid";
    c.scale = 4;
    app *a;
    assert_int_equal(app_create(&c, &a, err, sizeof err), 0);
    assert_non_null(strstr(app_describe(a), "source 0, 16 reached"));
    app_destroy(a);
    c.source = 99;
    assert_int_equal(app_create(&c, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "source 99"));
}

/* Brandes on hand-checked graphs (bc counts ordered pairs: no halving):
 * the path 0-1-2-3 (bc 0, 4, 4, 0), the 4-cycle 0-1-2-3-0 (1 each; from
 * source 0 alone 1 and 3 get 1/2) and the star 4-{0,1,2,3} (centre 12); the
 * hop totals agree; too many shortest paths for float are refused. */
static void test_bc_brandes_hand_cases(void **state)
{
    (void)state;
    char err[512];
    double bc[9], total;
    int32_t depth;
    const int32_t path[][2] = {{0, 1}, {1, 2}, {2, 3}};
    app_csr g = make_graph(4, path, 3, 1);
    assert_int_equal(app_bc_cpu(&g, 4, bc, &depth, err, sizeof err), 0);
    double want_path[4] = {0, 4, 4, 0};
    for (int v = 0; v < 4; ++v)
        assert_true(bc[v] == want_path[v]);
    assert_int_equal(depth, 3);
    assert_int_equal(app_bc_hop_total(&g, 4, &total, err, sizeof err), 0);
    assert_true(total == 8);
    app_csr_free(&g);

    const int32_t cycle[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    g = make_graph(4, cycle, 4, 1);
    assert_int_equal(app_bc_cpu(&g, 4, bc, &depth, err, sizeof err), 0);
    for (int v = 0; v < 4; ++v)
        assert_true(bc[v] == 1);
    assert_int_equal(app_bc_cpu(&g, 1, bc, &depth, err, sizeof err), 0);
    assert_true(bc[0] == 0 && bc[1] == 0.5 && bc[2] == 0 && bc[3] == 0.5);
    assert_int_equal(app_bc_hop_total(&g, 1, &total, err, sizeof err), 0);
    assert_true(total == 1);
    assert_int_equal(app_bc_cpu(&g, 5, bc, &depth, err, sizeof err), -1);
    app_csr_free(&g);

    const int32_t star[][2] = {{4, 0}, {4, 1}, {4, 2}, {4, 3}};
    g = make_graph(5, star, 4, 1);
    assert_int_equal(app_bc_cpu(&g, 5, bc, &depth, err, sizeof err), 0);
    assert_true(bc[4] == 12 && bc[0] == 0 && bc[3] == 0);
    app_csr_free(&g);

    /* 130 diamonds in a row: 2^130 shortest paths end to end. */
    enum { K = 130 };
    static int32_t chain[4 * K][2];
    for (int i = 0; i < K; ++i) {
        int a = 3 * i, b = a + 1, c = a + 2, next = a + 3;
        chain[4 * i][0] = a, chain[4 * i][1] = b;
        chain[4 * i + 1][0] = a, chain[4 * i + 1][1] = c;
        chain[4 * i + 2][0] = b, chain[4 * i + 2][1] = next;
        chain[4 * i + 3][0] = c, chain[4 * i + 3][1] = next;
    }
    g = make_graph(3 * K + 1, chain, 4 * K, 1);
    static double big[3 * K + 1];
    assert_int_equal(app_bc_cpu(&g, 1, big, &depth, err, sizeof err), -1);
    assert_non_null(strstr(err, "float"));
    app_csr_free(&g);
}

/* The bc checker: the right answer passes; a value off the reference, a
 * negative or NaN value, a leaf with bc, and (without a reference) values
 * that do not sum to the hop total all fail. */
static void test_bc_checker_detects_errors(void **state)
{
    (void)state;
    char msg[512];
    const int32_t path[][2] = {{0, 1}, {1, 2}, {2, 3}};
    app_csr g = make_graph(4, path, 3, 1);
    double want[4] = {0, 4, 4, 0};
    float got[4] = {0, 4, 4, 0};
    assert_int_equal(app_bc_check(&g, got, want, 8, msg, sizeof msg), 0);
    got[1] = 4.0001f; /* within 1e-3 relative */
    assert_int_equal(app_bc_check(&g, got, want, 8, msg, sizeof msg), 0);
    got[1] = 4.1f;
    assert_true(app_bc_check(&g, got, want, 8, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "reference says"));
    got[1] = 5, got[2] = 3; /* the sum still holds: only the reference sees it */
    assert_int_equal(app_bc_check(&g, got, NULL, 8, msg, sizeof msg), 0);
    assert_true(app_bc_check(&g, got, want, 8, msg, sizeof msg) > 0);
    got[1] = 4, got[2] = 3.5f;
    assert_true(app_bc_check(&g, got, NULL, 8, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "sum to"));
    got[2] = 4, got[0] = 0.5f; /* a leaf is never inside a shortest path */
    assert_true(app_bc_check(&g, got, NULL, 8.5, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, "degree 1"));
    got[0] = 0, got[1] = -4, got[2] = 12;
    assert_true(app_bc_check(&g, got, NULL, 8, msg, sizeof msg) > 0);
    assert_non_null(strstr(msg, ">= 0"));
    got[1] = 0.0f / 0.0f;
    assert_true(app_bc_check(&g, got, NULL, 8, msg, sizeof msg) > 0);
    app_csr_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfs_cpu_hand_cases),
        cmocka_unit_test(test_sssp_dijkstra_and_checker),
        cmocka_unit_test(test_bfs_checker_detects_wrong_levels),
        cmocka_unit_test(test_check_i32_message),
        cmocka_unit_test(test_ws_reference_hand_cases),
        cmocka_unit_test(test_ws_checker_detects_errors),
        cmocka_unit_test(test_matmul_expected_entries),
        cmocka_unit_test(test_group_expressions),
        cmocka_unit_test(test_app_layer_inputs),
        cmocka_unit_test(test_worklist_apps_reference),
        cmocka_unit_test(test_bc_brandes_hand_cases),
        cmocka_unit_test(test_bc_checker_detects_errors),
        cmocka_unit_test(test_octree_reference_hand_cases),
        cmocka_unit_test(test_octree_checker_detects_errors),
        cmocka_unit_test(test_game_reference_hand_cases),
        cmocka_unit_test(test_game_checker_detects_errors),
        cmocka_unit_test(test_color_cpu_and_checker),
        cmocka_unit_test(test_mis_cpu_and_checker),
        cmocka_unit_test(test_color_mis_closed_forms_match_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
