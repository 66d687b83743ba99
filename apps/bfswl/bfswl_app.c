/* apps/bfswl/bfswl_app.c: bfs-wl, LonestarGPU's data-driven worklist BFS
 * (bfs-worklistc), as an application module (app_module.h): the worklist
 * skeleton of apps/worklist in BFS mode, checked by the frontier BFS's CPU
 * reference and checker (bfs.h). */
#include "app_module.h"
#include "bfs/bfs.h"
#include "timer.h"
#include "worklist/wl_app.h"

#include <stdio.h>

static void *bfswl_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                          double *cpu_ms, char *err, size_t err_len)
{
    char why[256];
    app_wl_state *s = app_wl_state_new(c, g, APP_WL_BFS, app_bfs_check, why, sizeof why);
    if (!s) {
        snprintf(err, err_len, "bfs-wl: %s", why);
        return NULL;
    }
    if (c->skip_reference) {
        snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d (no CPU reference)", input, g->n, g->m,
                 s->source);
        return s;
    }
    double t0 = app_now_ms();
    int32_t depth = app_bfs_cpu(g, s->source, s->ref);
    *cpu_ms = app_now_ms() - t0;
    int32_t reached = 0;
    for (int32_t v = 0; v < g->n; ++v)
        reached += s->ref[v] >= 0;
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, source %d, %d levels, %d reached", input, g->n, g->m,
             s->source, depth, reached);
    return s;
}

static void bfswl_corrupt(void *st)
{
    app_wl_state *s = st;
    int32_t v = s->source == 0 && s->g->n > 1 ? 1 : 0;
    s->ref[v] += 1;
}

const app_module app_module_bfswl = {
    .name = "bfs-wl",
    .alias = "bfswl",
    .summary = "LonestarGPU worklist BFS, prefix-sum pushes, two resizing barriers per iteration",
    .flags = APP_MOD_GRAPH | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_WL_FILE,
    .coop_kernel = APP_WL_COOP_KERNEL,
    .work_unit = "edges",
    .test_config = app_wl_test_config,
    .test_variants = 2,
    .reference_work = app_wl_reference_work,
    .create = bfswl_create,
    .destroy = app_wl_destroy,
    .plain = app_wl_plain,
    .coop_setup = app_wl_setup,
    .coop_start = app_wl_start,
    .coop_check = app_wl_coop_check,
    .coop_teardown = app_wl_teardown,
    .corrupt_reference = bfswl_corrupt,
};
