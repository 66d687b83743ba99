/* apps/mis/mis_app.c: Pannotia's maximal independent set as an application
 * module (app_module.h): CPU reference, baselines (multi-launch and
 * persistent), cooperative run and check. */
#include "app_module.h"
#include "mis.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const app_csr *g;
    int skip_reference;
    int32_t size;
    int32_t *ref, *got;
    app_mis_coop *coop;
} mis_state;

static void mis_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 5 : 9; /* R-MAT: 5 rounds; grid 8x4: 7 rounds */
}

static double mis_reference_work(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 0);
    return app_graph_spec_edges(&s);
}

static void mis_destroy(void *st)
{
    mis_state *b = st;
    if (!b)
        return;
    app_mis_coop_free(b->coop);
    free(b->ref);
    free(b->got);
    free(b);
}

static void *mis_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                        double *cpu_ms, char *err, size_t err_len)
{
    size_t n1 = g->n ? (size_t)g->n : 1;
    mis_state *b = calloc(1, sizeof *b);
    if (!b || !(b->ref = malloc(n1 * sizeof *b->ref)) || !(b->got = malloc(n1 * sizeof *b->got))) {
        snprintf(err, err_len, "independent set: out of host memory");
        mis_destroy(b);
        return NULL;
    }
    b->g = g;
    b->skip_reference = c->skip_reference;
    if (c->skip_reference) {
        snprintf(desc, desc_len, "%s: %d nodes, %d directed edges (no CPU reference)", input, g->n, g->m);
        return b;
    }
    double t0 = app_now_ms();
    b->size = app_mis_cpu(g, b->ref);
    *cpu_ms = app_now_ms() - t0;
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, independent set of %d nodes", input, g->n, g->m,
             b->size);
    return b;
}

static int mis_check(mis_state *b, char *msg, size_t msg_len)
{
    if (b->skip_reference)
        return APP_UNCHECKED;
    return app_mis_check(b->g, b->got, b->ref, msg, msg_len) ? 1 : 0;
}

static int mis_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len)
{
    mis_state *b = st;
    app_mis_plain_result r;
    if (app_mis_plain_run(c, b->g, a->persistent, a->wg, a->groups, a->timeout_s, b->got, &r, msg, msg_len))
        return -1;
    res->ms = r.ms;
    res->launches = r.launches;
    return mis_check(b, msg, msg_len);
}

static int mis_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    (void)max_groups;
    mis_state *b = st;
    return app_mis_coop_setup(ctx, b->g, &b->coop, err, err_len);
}

static int mis_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    mis_state *b = st;
    return app_mis_coop_start(b->coop, groups, out, err, err_len);
}

static int mis_coop_check(void *st, char *msg, size_t msg_len)
{
    mis_state *b = st;
    if (app_mis_coop_read(b->coop, b->got, msg, msg_len))
        return -1;
    return mis_check(b, msg, msg_len);
}

static void mis_teardown(void *st)
{
    mis_state *b = st;
    app_mis_coop_free(b->coop);
    b->coop = NULL;
}

static void mis_corrupt(void *st)
{
    mis_state *b = st;
    if (b->g->n)
        b->ref[0] = 1 - b->ref[0];
}

const app_module app_module_mis = {
    .name = "mis",
    .summary = "Pannotia maximal independent set, three resizing barriers per round",
    .flags = APP_MOD_GRAPH | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_MIS_COOP_FILE,
    .coop_kernel = APP_MIS_COOP_KERNEL,
    .work_unit = "edges",
    .test_config = mis_test_config,
    .test_variants = 2,
    .reference_work = mis_reference_work,
    .create = mis_create,
    .destroy = mis_destroy,
    .plain = mis_plain,
    .coop_setup = mis_setup,
    .coop_start = mis_start,
    .coop_check = mis_coop_check,
    .coop_teardown = mis_teardown,
    .corrupt_reference = mis_corrupt,
};
