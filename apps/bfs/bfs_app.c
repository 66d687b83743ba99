/* apps/bfs/bfs_app.c: the frontier BFS as an application module
 * (app_module.h): source choice, CPU reference, baselines, cooperative run
 * and check. */
#include "app_module.h"
#include "bfs.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const app_csr *g;
    int skip_reference;
    int32_t source, depth, reached;
    int32_t *ref, *got;
    app_bfs_coop *coop;
} bfs_state;

static void bfs_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 6 : 9;
}

static double bfs_reference_work(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 0);
    return app_graph_spec_edges(&s);
}

static void bfs_destroy(void *st)
{
    bfs_state *b = st;
    if (!b)
        return;
    app_bfs_coop_free(b->coop);
    free(b->ref);
    free(b->got);
    free(b);
}

static void *bfs_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                        double *cpu_ms, char *err, size_t err_len)
{
    if (c->source >= g->n) {
        snprintf(err, err_len, "BFS source %d outside 0..%d", c->source, g->n - 1);
        return NULL;
    }
    bfs_state *b = calloc(1, sizeof *b);
    if (!b || !(b->ref = malloc((size_t)g->n * sizeof *b->ref)) || !(b->got = malloc((size_t)g->n * sizeof *b->got))) {
        snprintf(err, err_len, "BFS: out of host memory");
        bfs_destroy(b);
        return NULL;
    }
    b->g = g;
    b->skip_reference = c->skip_reference;
    b->source = c->source >= 0 ? c->source : !strcmp(c->graph, "grid") ? 0 : app_csr_max_degree_node(g);
    if (c->skip_reference) {
        snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d (no CPU reference)", input, g->n, g->m,
                 b->source);
        return b;
    }
    double t0 = app_now_ms();
    b->depth = app_bfs_cpu(g, b->source, b->ref);
    *cpu_ms = app_now_ms() - t0;
    for (int32_t v = 0; v < g->n; ++v)
        b->reached += b->ref[v] >= 0;
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d, %d levels, %d reached", input, g->n, g->m,
             b->source, b->depth, b->reached);
    return b;
}

static int bfs_check(bfs_state *b, char *msg, size_t msg_len)
{
    if (b->skip_reference)
        return APP_UNCHECKED;
    return app_bfs_check(b->g, b->source, b->got, b->ref, msg, msg_len) ? 1 : 0;
}

static int bfs_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len)
{
    bfs_state *b = st;
    app_bfs_plain_result r;
    app_bfs_plain_mode mode = a->persistent ? APP_BFS_PLAIN_PERSISTENT : APP_BFS_PLAIN_MULTI;
    if (app_bfs_plain_run(c, b->g, b->source, mode, a->wg, a->groups, a->timeout_s, b->got, &r, msg, msg_len))
        return -1;
    res->ms = r.ms;
    res->launches = a->persistent ? 1 : r.levels_run;
    return bfs_check(b, msg, msg_len);
}

static int bfs_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    (void)max_groups;
    bfs_state *b = st;
    return app_bfs_coop_setup(ctx, b->g, &b->coop, err, err_len);
}

static int bfs_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    bfs_state *b = st;
    return app_bfs_coop_start(b->coop, b->source, groups, out, err, err_len);
}

static int bfs_coop_check(void *st, char *msg, size_t msg_len)
{
    bfs_state *b = st;
    if (app_bfs_coop_read(b->coop, b->got, msg, msg_len))
        return -1;
    return bfs_check(b, msg, msg_len);
}

static void bfs_teardown(void *st)
{
    bfs_state *b = st;
    app_bfs_coop_free(b->coop);
    b->coop = NULL;
}

static void bfs_corrupt(void *st)
{
    bfs_state *b = st;
    int32_t v = b->source == 0 && b->g->n > 1 ? 1 : 0;
    b->ref[v] = b->ref[v] + 1;
}

const app_module app_module_bfs = {
    .name = "bfs",
    .summary = "frontier BFS, two resizing barriers per level",
    .flags = APP_MOD_GRAPH | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_BFS_COOP_FILE,
    .coop_kernel = APP_BFS_COOP_KERNEL,
    .work_unit = "edges",
    .test_config = bfs_test_config,
    .test_variants = 2,
    .reference_work = bfs_reference_work,
    .create = bfs_create,
    .destroy = bfs_destroy,
    .plain = bfs_plain,
    .coop_setup = bfs_setup,
    .coop_start = bfs_start,
    .coop_check = bfs_coop_check,
    .coop_teardown = bfs_teardown,
    .corrupt_reference = bfs_corrupt,
};
