/* apps/psssp/psssp_app.c: Pannotia SSSP (iterated min-plus SpMV, three
 * resizing barriers per round) as an application module (app_module.h):
 * source choice, Dijkstra reference, baselines, cooperative run and check. */
#include "app_module.h"
#include "psssp.h"
#include "sssp_cpu.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const app_csr *g;
    int skip_reference;
    int32_t source, reached;
    int32_t *ref, *got;
    app_psssp_coop *coop;
} psssp_state;

static void psssp_test_config(app_config *c, unsigned variant)
{
    /* Rounds follow the longest shortest path in hops: keep them few (each
     * round is three barriers, tens of ms each on PoCL). */
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 4 : 7;
    c->max_weight = variant % 2 ? 3 : 2;
}

static double psssp_reference_work(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 1);
    return app_graph_spec_edges(&s);
}

static void psssp_destroy(void *st)
{
    psssp_state *p = st;
    if (!p)
        return;
    app_psssp_coop_free(p->coop);
    free(p->ref);
    free(p->got);
    free(p);
}

static void *psssp_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                          double *cpu_ms, char *err, size_t err_len)
{
    int32_t source = c->source >= 0 ? c->source : 0;
    if (g->n < 1 || source >= g->n) {
        snprintf(err, err_len, "p-sssp: source %d outside the graph's nodes 0..%d", source, g->n - 1);
        return NULL;
    }
    if (!g->w) {
        snprintf(err, err_len, "p-sssp: the graph has no weights");
        return NULL;
    }
    psssp_state *p = calloc(1, sizeof *p);
    if (!p || !(p->ref = malloc((size_t)g->n * sizeof *p->ref)) || !(p->got = malloc((size_t)g->n * sizeof *p->got))) {
        snprintf(err, err_len, "p-sssp: out of host memory");
        psssp_destroy(p);
        return NULL;
    }
    p->g = g;
    p->skip_reference = c->skip_reference;
    p->source = source;
    if (c->skip_reference) {
        snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d (no CPU reference)", input, g->n, g->m,
                 source);
        return p;
    }
    double t0 = app_now_ms();
    if (app_sssp_dijkstra(g, source, p->ref, err, err_len)) {
        psssp_destroy(p);
        return NULL;
    }
    *cpu_ms = app_now_ms() - t0;
    int32_t far = 0;
    for (int32_t v = 0; v < g->n; ++v)
        if (p->ref[v] != APP_SSSP_INF) {
            p->reached++;
            far = p->ref[v] > far ? p->ref[v] : far;
        }
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d, %d reached, farthest at %d", input, g->n,
             g->m, source, p->reached, far);
    return p;
}

static int psssp_check(psssp_state *p, char *msg, size_t msg_len)
{
    if (p->skip_reference)
        return APP_UNCHECKED;
    return app_sssp_check(p->g, p->source, p->got, p->ref, msg, msg_len) ? 1 : 0;
}

static int psssp_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg,
                       size_t msg_len)
{
    psssp_state *p = st;
    app_psssp_plain_result r;
    if (app_psssp_plain_run(c, p->g, p->source, a->persistent, a->wg, a->groups, a->timeout_s, p->got, &r, msg,
                            msg_len))
        return -1;
    res->ms = r.ms;
    res->launches = a->persistent ? 1 : 3 * r.rounds;
    return psssp_check(p, msg, msg_len);
}

static int psssp_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    (void)max_groups;
    psssp_state *p = st;
    return app_psssp_coop_setup(ctx, p->g, &p->coop, err, err_len);
}

static int psssp_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    psssp_state *p = st;
    return app_psssp_coop_start(p->coop, p->source, groups, out, err, err_len);
}

static int psssp_coop_check(void *st, char *msg, size_t msg_len)
{
    psssp_state *p = st;
    if (app_psssp_coop_read(p->coop, p->got, msg, msg_len))
        return -1;
    return psssp_check(p, msg, msg_len);
}

static void psssp_teardown(void *st)
{
    psssp_state *p = st;
    app_psssp_coop_free(p->coop);
    p->coop = NULL;
}

static void psssp_corrupt(void *st)
{
    psssp_state *p = st;
    /* A reached node other than the source gets a distance one too short
     * (an unreached one becomes reached at 1). */
    int32_t v = p->source == 0 && p->g->n > 1 ? 1 : 0;
    for (int32_t u = 0; u < p->g->n; ++u)
        if (u != p->source && p->ref[u] != APP_SSSP_INF) {
            v = u;
            break;
        }
    p->ref[v] = p->ref[v] == APP_SSSP_INF ? 1 : p->ref[v] - 1;
}

const app_module app_module_psssp = {
    .name = "p-sssp",
    .alias = "psssp",
    .summary = "Pannotia SSSP: min-plus SpMV rounds, three resizing barriers per round",
    .flags = APP_MOD_GRAPH | APP_MOD_WEIGHTS | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_PSSSP_COOP_FILE,
    .coop_kernel = APP_PSSSP_COOP_KERNEL,
    .work_unit = "edges",
    .test_config = psssp_test_config,
    .test_variants = 2,
    .reference_work = psssp_reference_work,
    .create = psssp_create,
    .destroy = psssp_destroy,
    .plain = psssp_plain,
    .coop_setup = psssp_setup,
    .coop_start = psssp_start,
    .coop_check = psssp_coop_check,
    .coop_teardown = psssp_teardown,
    .corrupt_reference = psssp_corrupt,
};
