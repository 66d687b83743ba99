/* apps/lsssp/lsssp_app.c: l-sssp, LonestarGPU's worklist SSSP, as an
 * application module (app_module.h): the worklist skeleton of apps/worklist
 * in SSSP mode (atomic_min over weighted edges, duplicates allowed),
 * checked against Dijkstra and the shortest-path conditions (sssp_cpu.h). */
#include "app_module.h"
#include "sssp_cpu.h"
#include "timer.h"
#include "worklist/wl_app.h"

#include <stdio.h>

static void *lsssp_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                          double *cpu_ms, char *err, size_t err_len)
{
    char why[256];
    if (g->m && !g->w) {
        snprintf(err, err_len, "l-sssp: the graph has no weights");
        return NULL;
    }
    app_wl_state *s = app_wl_state_new(c, g, APP_WL_SSSP, app_sssp_check, why, sizeof why);
    if (!s) {
        snprintf(err, err_len, "l-sssp: %s", why);
        return NULL;
    }
    if (c->skip_reference) {
        snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d (no CPU reference)", input, g->n, g->m,
                 s->source);
        return s;
    }
    double t0 = app_now_ms();
    if (app_sssp_dijkstra(g, s->source, s->ref, why, sizeof why)) {
        snprintf(err, err_len, "l-sssp reference: %s", why);
        app_wl_destroy(s);
        return NULL;
    }
    *cpu_ms = app_now_ms() - t0;
    int32_t reached = 0, far = 0;
    for (int32_t v = 0; v < g->n; ++v)
        if (s->ref[v] != APP_SSSP_INF) {
            ++reached;
            far = s->ref[v] > far ? s->ref[v] : far;
        }
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d, %d reached, largest distance %d", input,
             g->n, g->m, s->source, reached, far);
    return s;
}

static void lsssp_corrupt(void *st)
{
    app_wl_state *s = st;
    int32_t v = s->source == 0 && s->g->n > 1 ? 1 : 0;
    s->ref[v] = s->ref[v] == APP_SSSP_INF ? 0 : s->ref[v] + 1;
}

const app_module app_module_lsssp = {
    .name = "l-sssp",
    .alias = "lsssp",
    .summary = "LonestarGPU worklist SSSP, atomic_min relaxation, two resizing barriers per iteration",
    .flags = APP_MOD_GRAPH | APP_MOD_WEIGHTS | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_WL_FILE,
    .coop_kernel = APP_WL_COOP_KERNEL,
    .work_unit = "edges",
    .test_config = app_wl_test_config,
    .test_variants = 2,
    .reference_work = app_wl_reference_work,
    .create = lsssp_create,
    .destroy = app_wl_destroy,
    .plain = app_wl_plain,
    .coop_setup = app_wl_setup,
    .coop_start = app_wl_start,
    .coop_check = app_wl_coop_check,
    .coop_teardown = app_wl_teardown,
    .corrupt_reference = lsssp_corrupt,
};
