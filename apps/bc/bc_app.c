/* apps/bc/bc_app.c: Pannotia betweenness centrality (Brandes, sources looped
 * inside the kernel) as an application module (app_module.h): source count,
 * CPU reference and hop total, baselines, cooperative run and check. */
#include "app_module.h"
#include "bc.h"
#include "timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const app_csr *g;
    int skip_reference;
    int32_t sources, depth;
    double hop_total;
    double *ref;
    float *got;
    app_bc_coop *coop;
} bc_state;

static void bc_test_config(app_config *c, unsigned variant)
{
    /* Each source costs about 4 x depth - 2 barriers: few sources, shallow
     * graphs (an R-MAT of 128 nodes, a 4x4 grid). */
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 4 : 7;
    c->bc_sources = variant % 2 ? 2 : 3;
}

static double bc_reference_work(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 0);
    double edges = app_graph_spec_edges(&s);
    double sources = c->bc_sources ? c->bc_sources : ldexp(1.0, (int)c->scale);
    return edges * sources;
}

static void bc_destroy(void *st)
{
    bc_state *b = st;
    if (!b)
        return;
    app_bc_coop_free(b->coop);
    free(b->ref);
    free(b->got);
    free(b);
}

static void *bc_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                       double *cpu_ms, char *err, size_t err_len)
{
    if (g->n < 1 || c->bc_sources > (uint32_t)g->n) {
        snprintf(err, err_len, "bc: %u sources asked, the graph has %d nodes", c->bc_sources, g->n);
        return NULL;
    }
    bc_state *b = calloc(1, sizeof *b);
    if (!b || !(b->ref = malloc((size_t)g->n * sizeof *b->ref)) || !(b->got = malloc((size_t)g->n * sizeof *b->got))) {
        snprintf(err, err_len, "bc: out of host memory");
        bc_destroy(b);
        return NULL;
    }
    b->g = g;
    b->skip_reference = c->skip_reference;
    b->sources = c->bc_sources ? (int32_t)c->bc_sources : g->n;
    if (c->skip_reference) {
        snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, %d sources (no CPU reference)", input, g->n, g->m,
                 b->sources);
        return b;
    }
    double t0 = app_now_ms();
    if (app_bc_cpu(g, b->sources, b->ref, &b->depth, err, err_len)) {
        bc_destroy(b);
        return NULL;
    }
    *cpu_ms = app_now_ms() - t0;
    if (app_bc_hop_total(g, b->sources, &b->hop_total, err, err_len)) {
        bc_destroy(b);
        return NULL;
    }
    double top = 0;
    for (int32_t v = 0; v < g->n; ++v)
        top = b->ref[v] > top ? b->ref[v] : top;
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, %d sources, depth up to %d, largest bc %.6g", input,
             g->n, g->m, b->sources, b->depth, top);
    return b;
}

static int bc_check(bc_state *b, char *msg, size_t msg_len)
{
    if (b->skip_reference)
        return APP_UNCHECKED;
    return app_bc_check(b->g, b->got, b->ref, b->hop_total, msg, msg_len) ? 1 : 0;
}

static int bc_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len)
{
    bc_state *b = st;
    app_bc_plain_result r;
    if (app_bc_plain_run(c, b->g, b->sources, a->persistent, a->wg, a->groups, a->timeout_s, b->got, &r, msg,
                         msg_len))
        return -1;
    res->ms = r.ms;
    res->launches = r.launches > INT32_MAX ? INT32_MAX : (int32_t)r.launches;
    return bc_check(b, msg, msg_len);
}

static int bc_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    (void)max_groups;
    bc_state *b = st;
    return app_bc_coop_setup(ctx, b->g, &b->coop, err, err_len);
}

static int bc_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    bc_state *b = st;
    return app_bc_coop_start(b->coop, b->sources, groups, out, err, err_len);
}

static int bc_coop_check(void *st, char *msg, size_t msg_len)
{
    bc_state *b = st;
    if (app_bc_coop_read(b->coop, b->got, msg, msg_len))
        return -1;
    return bc_check(b, msg, msg_len);
}

static void bc_teardown(void *st)
{
    bc_state *b = st;
    app_bc_coop_free(b->coop);
    b->coop = NULL;
}

static void bc_corrupt(void *st)
{
    bc_state *b = st;
    /* The node of largest bc gets 1% and one more (node 0 if all are 0):
     * well outside the tolerance. */
    int32_t top = 0;
    for (int32_t v = 1; v < b->g->n; ++v)
        if (b->ref[v] > b->ref[top])
            top = v;
    b->ref[top] = b->ref[top] * 1.01 + 1.0;
}

const app_module app_module_bc = {
    .name = "bc",
    .summary = "Pannotia betweenness centrality: Brandes over all sources in one kernel",
    .flags = APP_MOD_GRAPH | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_BC_COOP_FILE,
    .coop_kernel = APP_BC_COOP_KERNEL,
    .work_unit = "edges x sources",
    .test_config = bc_test_config,
    .test_variants = 2,
    .reference_work = bc_reference_work,
    .create = bc_create,
    .destroy = bc_destroy,
    .plain = bc_plain,
    .coop_setup = bc_setup,
    .coop_start = bc_start,
    .coop_check = bc_coop_check,
    .coop_teardown = bc_teardown,
    .corrupt_reference = bc_corrupt,
};
