/* tests/apps/test_apps_graph.c (owner: apps): unit tests of the graph layer of
 * apps/common: the seeded generators (determinism, sizes, ranges), CSR
 * construction (sorted, deduplicated, symmetric, no self loops), the edge-list
 * and DIMACS readers including their error messages, and timing summaries. */
#include "graph.h"
#include "timer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static char tmpdir[256];

static int setup(void **state)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ck_apps_graph_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Checks the CSR invariants; symmetric: every edge has its reverse. */
static void check_csr(const app_csr *g, int symmetric)
{
    assert_int_equal(g->row[0], 0);
    assert_int_equal(g->row[g->n], g->m);
    for (int32_t v = 0; v < g->n; ++v) {
        assert_true(g->row[v] <= g->row[v + 1]);
        for (int32_t e = g->row[v]; e < g->row[v + 1]; ++e) {
            int32_t u = g->col[e];
            assert_true(u >= 0 && u < g->n);
            assert_int_not_equal(u, v);
            if (e > g->row[v])
                assert_true(g->col[e - 1] < u); /* sorted, no duplicates */
            if (symmetric) {
                int found = 0;
                for (int32_t f = g->row[u]; f < g->row[u + 1]; ++f)
                    found |= g->col[f] == v;
                assert_true(found);
            }
        }
    }
}

static void test_rmat_is_deterministic_and_in_range(void **state)
{
    app_edges a, b, c;
    char err[256];
    assert_int_equal(app_gen_rmat(10, 8, 42, &a, err, sizeof err), 0);
    assert_int_equal(app_gen_rmat(10, 8, 42, &b, err, sizeof err), 0);
    assert_int_equal(app_gen_rmat(10, 8, 43, &c, err, sizeof err), 0);
    assert_int_equal(a.n, 1024);
    assert_int_equal(a.m, 8192);
    assert_memory_equal(a.src, b.src, a.m * sizeof *a.src);
    assert_memory_equal(a.dst, b.dst, a.m * sizeof *a.dst);
    assert_true(memcmp(a.src, c.src, a.m * sizeof *a.src) != 0);
    int32_t maxdeg = 0;
    int32_t *deg = calloc(1024, sizeof *deg);
    for (size_t k = 0; k < a.m; ++k) {
        assert_true(a.src[k] >= 0 && a.src[k] < 1024 && a.dst[k] >= 0 && a.dst[k] < 1024);
        if (++deg[a.src[k]] > maxdeg)
            maxdeg = deg[a.src[k]];
    }
    /* Skewed: the biggest hub has far more than the mean of 8 out-edges. */
    assert_true(maxdeg > 64);
    free(deg);
    app_edges_free(&a);
    app_edges_free(&b);
    app_edges_free(&c);
}

static void test_generator_arguments_are_checked(void **state)
{
    app_edges e;
    char err[256];
    assert_int_equal(app_gen_rmat(0, 8, 1, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "scale"));
    assert_int_equal(app_gen_rmat(31, 8, 1, &e, err, sizeof err), -1);
    assert_int_equal(app_gen_grid(0, 4, 0, 1, &e, err, sizeof err), -1);
    assert_int_equal(app_gen_grid(4, 4, 95, 1, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "grid"));
}

static void test_grid_has_long_diameter_shape(void **state)
{
    app_edges e;
    char err[256];
    assert_int_equal(app_gen_grid(16, 8, 0, 7, &e, err, sizeof err), 0);
    assert_int_equal(e.n, 128);
    assert_int_equal(e.m, 2 * 16 * 8 - 16 - 8); /* every horizontal and vertical neighbour */
    for (size_t k = 0; k < e.m; ++k) {
        int32_t d = e.dst[k] - e.src[k];
        assert_true(d == 1 || d == 16);
    }
    app_csr g;
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    check_csr(&g, 1);
    assert_int_equal(g.row[1] - g.row[0], 2);   /* corner */
    assert_int_equal(g.row[18] - g.row[17], 4); /* interior node (1, 1) */
    app_csr_free(&g);
    app_edges_free(&e);
    /* Dropping edges is seeded too. */
    app_edges d1, d2;
    assert_int_equal(app_gen_grid(32, 32, 20, 5, &d1, err, sizeof err), 0);
    assert_int_equal(app_gen_grid(32, 32, 20, 5, &d2, err, sizeof err), 0);
    assert_int_equal(d1.m, d2.m);
    assert_true(d1.m < 2 * 32 * 32 - 64 && d1.m > (2 * 32 * 32 - 64) / 2);
    assert_memory_equal(d1.dst, d2.dst, d1.m * sizeof *d1.dst);
    app_edges_free(&d1);
    app_edges_free(&d2);
}

static void test_csr_dedups_sorts_and_symmetrizes(void **state)
{
    app_edges e;
    memset(&e, 0, sizeof e);
    e.n = 5;
    int32_t pairs[][2] = {{0, 3}, {0, 1}, {0, 3}, {2, 2}, {1, 0}, {4, 1}, {3, 0}};
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; ++i)
        assert_int_equal(app_edges_push(&e, pairs[i][0], pairs[i][1]), 0);
    app_csr g;
    char err[256];
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    check_csr(&g, 1);
    int32_t want_row[] = {0, 2, 4, 4, 5, 6};
    int32_t want_col[] = {1, 3, 0, 4, 0, 1};
    assert_memory_equal(g.row, want_row, sizeof want_row);
    assert_memory_equal(g.col, want_col, sizeof want_col);
    assert_int_equal(app_csr_max_degree_node(&g), 0);
    app_csr_free(&g);
    /* Directed: only the given directions. */
    assert_int_equal(app_csr_build(&e, 0, &g, err, sizeof err), 0);
    check_csr(&g, 0);
    assert_int_equal(g.m, 5); /* 0->1, 0->3, 1->0, 3->0, 4->1 */
    app_csr_free(&g);
    /* An edge outside 0..n-1 is refused with a message. */
    assert_int_equal(app_edges_push(&e, 7, 1), 0);
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "outside"));
    app_edges_free(&e);
}

static void test_rmat_csr_invariants(void **state)
{
    app_edges e;
    app_csr g;
    char err[256];
    assert_int_equal(app_gen_rmat(12, 4, 3, &e, err, sizeof err), 0);
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    check_csr(&g, 0); /* the O(m * degree) symmetry check is done on the small graphs */
    assert_true(g.m > 0 && (size_t)g.m <= 2 * e.m);
    app_csr_free(&g);
    app_edges_free(&e);
}

static void test_edge_list_reader(void **state)
{
    const char *p = write_file("g.txt", "# a comment\n% another\n\n0 1\n1 2 7\n  2 0\n5 3\n");
    app_edges e;
    char err[256];
    assert_int_equal(app_read_edge_list(p, &e, err, sizeof err), 0);
    assert_int_equal(e.n, 6);
    assert_int_equal(e.m, 4);
    assert_int_equal(e.src[1], 1);
    assert_int_equal(e.dst[1], 2);
    assert_int_equal(e.src[3], 5);
    app_edges_free(&e);
    /* app_read_graph picks the edge-list reader for other extensions. */
    assert_int_equal(app_read_graph(p, &e, err, sizeof err), 0);
    app_edges_free(&e);

    p = write_file("bad.txt", "0 1\n1 x\n");
    assert_int_equal(app_read_edge_list(p, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2:"));
    /* A third column is a weight or an error: a real number is not dropped in silence. */
    p = write_file("real.txt", "0 1\n1 2 7.5\n");
    assert_int_equal(app_read_edge_list(p, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2: weight (the third column) '7.5'"));
    p = write_file("neg.txt", "0 -1\n");
    assert_int_equal(app_read_edge_list(p, &e, err, sizeof err), -1);
    p = write_file("empty.txt", "# nothing\n");
    assert_int_equal(app_read_edge_list(p, &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "no edges"));
    assert_int_equal(app_read_edge_list("/nonexistent/graph.txt", &e, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/graph.txt"));
}

/* Weighted CSR: both directions keep the weight, a duplicate keeps its
 * smallest weight; generated weights are symmetric, in range and seeded. */
static void test_weighted_csr(void **state)
{
    (void)state;
    app_edges e;
    memset(&e, 0, sizeof e);
    e.n = 4;
    assert_int_equal(app_edges_push(&e, 0, 1), 0);      /* unweighted so far */
    assert_int_equal(app_edges_push_w(&e, 1, 2, 7), 0); /* now weighted: 0-1 has 1 */
    assert_int_equal(app_edges_push_w(&e, 2, 1, 3), 0); /* duplicate of 1-2, lighter */
    assert_int_equal(app_edges_push_w(&e, 3, 0, 9), 0);
    app_csr g;
    char err[256];
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    app_edges_free(&e);
    assert_non_null(g.w);
    assert_int_equal(g.m, 6);
    /* row 1: neighbours 0 (w 1) and 2 (w 3) */
    assert_int_equal(g.row[1], 2);
    assert_int_equal(g.col[2], 0);
    assert_int_equal(g.w[2], 1);
    assert_int_equal(g.col[3], 2);
    assert_int_equal(g.w[3], 3);
    /* row 2: neighbour 1 with the same weight 3 */
    assert_int_equal(g.col[g.row[2]], 1);
    assert_int_equal(g.w[g.row[2]], 3);
    assert_int_equal(app_csr_add_weights(&g, 5, 1, err, sizeof err), 0); /* already weighted: kept */
    assert_int_equal(g.w[3], 3);
    app_csr_free(&g);

    assert_int_equal(app_gen_rmat(8, 4, 3, &e, err, sizeof err), 0);
    assert_int_equal(app_csr_build(&e, 1, &g, err, sizeof err), 0);
    app_edges_free(&e);
    assert_null(g.w);
    assert_int_equal(app_csr_add_weights(&g, 0, 1, err, sizeof err), -1);
    assert_int_equal(app_csr_add_weights(&g, 20, 1, err, sizeof err), 0);
    int distinct = 0;
    for (int32_t u = 0; u < g.n; ++u)
        for (int32_t k = g.row[u]; k < g.row[u + 1]; ++k) {
            int32_t v = g.col[k], back = -1;
            assert_true(g.w[k] >= 1 && g.w[k] <= 20);
            distinct |= 1 << (g.w[k] % 31);
            for (int32_t j = g.row[v]; j < g.row[v + 1]; ++j)
                if (g.col[j] == u)
                    back = g.w[j];
            assert_int_equal(back, g.w[k]);
        }
    assert_true(__builtin_popcount((unsigned)distinct) > 10); /* not one constant */
    app_csr_free(&g);
}

static void test_dimacs_reader(void **state)
{
    const char *p = write_file("g.gr", "c USA-road style\nc\np sp 4 3\na 1 2 10\na 2 3 5\na 4 1 1\n");
    app_edges e;
    char err[256];
    assert_int_equal(app_read_dimacs(p, &e, err, sizeof err), 0);
    assert_int_equal(e.n, 4);
    assert_int_equal(e.m, 3);
    assert_int_equal(e.src[0], 0);
    assert_int_equal(e.dst[0], 1);
    assert_int_equal(e.src[2], 3);
    assert_int_equal(e.dst[2], 0);
    assert_non_null(e.w); /* arcs keep their weights */
    assert_int_equal(e.w[0], 10);
    assert_int_equal(e.w[2], 1);
    app_edges_free(&e);
    assert_int_equal(app_read_graph(p, &e, err, sizeof err), 0); /* by extension */
    app_edges_free(&e);

    struct {
        const char *text, *needle;
    } bad[] = {
        {"p sp 3 2\na 1 2 1\n", "header says 2"},
        {"p sp 3 1\na 1 4 1\n", "1..3"},
        {"a 1 2 1\n", "before"},
        {"p sp 3 1\np sp 3 1\n", "second"},
        {"p max 3 1\n", "p sp"},
        {"p sp 3 1\nx 1 2\n", "unknown line"},
        {"c only comments\n", "no 'p sp"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        p = write_file("bad.gr", bad[i].text);
        assert_int_equal(app_read_dimacs(p, &e, err, sizeof err), -1);
        if (!strstr(err, bad[i].needle))
            fail_msg("case %zu: message '%s' lacks '%s'", i, err, bad[i].needle);
    }
}

static void test_summaries(void **state)
{
    double xs[] = {5, 1, 4, 2, 3};
    app_summary s = app_summarize(xs, 5);
    assert_int_equal(s.count, 5);
    assert_true(s.min == 1 && s.max == 5 && s.median == 3 && s.mean == 3 && s.p99 == 5);
    assert_true(xs[0] == 5); /* input untouched */
    double many[200];
    for (int i = 0; i < 200; ++i)
        many[i] = i;
    assert_true(app_percentile(many, 200, 99) == 197);
    assert_true(app_percentile(many, 200, 50) == 99);
    s = app_summarize(NULL, 0);
    assert_int_equal(s.count, 0);
    double t0 = app_now_ms();
    app_sleep_until_ms(t0 + 5);
    assert_true(app_now_ms() - t0 >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rmat_is_deterministic_and_in_range),
        cmocka_unit_test(test_generator_arguments_are_checked),
        cmocka_unit_test(test_grid_has_long_diameter_shape),
        cmocka_unit_test(test_csr_dedups_sorts_and_symmetrizes),
        cmocka_unit_test(test_rmat_csr_invariants),
        cmocka_unit_test(test_edge_list_reader),
        cmocka_unit_test(test_dimacs_reader),
        cmocka_unit_test(test_weighted_csr),
        cmocka_unit_test(test_summaries),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
