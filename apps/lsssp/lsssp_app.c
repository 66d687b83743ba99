/* apps/lsssp/lsssp_app.c: l-sssp, LonestarGPU's worklist SSSP, as an
 * application module (app_module.h): the worklist skeleton of apps/worklist
 * in SSSP mode (atomic_min over weighted edges, duplicates allowed),
 * checked against Dijkstra and the shortest-path conditions (sssp_cpu.h). */
#include "app_module.h"
#include "sssp_cpu.h"
#include "worklist/wl_app.h"

#include <stdio.h>

static int lsssp_spec(app_gapp *a, const app_config *c, char *err, size_t err_len)
{
    if (a->g->m && !a->g->w) {
        snprintf(err, err_len, "l-sssp: the graph has no weights");
        return -1;
    }
    return app_wl_spec(a, c, APP_WL_SSSP, err, err_len);
}

static int lsssp_describe(app_gapp *a, char *out, size_t out_len, char *err, size_t err_len)
{
    (void)err, (void)err_len;
    int32_t far, reached = app_gapp_reached(a, APP_SSSP_INF, &far);
    snprintf(out, out_len, ", %d reached, largest distance %d", reached, far);
    return 0;
}

static void lsssp_corrupt(void *st)
{
    app_gapp *s = st;
    int32_t *ref = s->ref, v = s->source == 0 && s->g->n > 1 ? 1 : 0;
    ref[v] = ref[v] == APP_SSSP_INF ? 0 : ref[v] + 1;
}

static const app_gapp_ops lsssp_ops = {.what = "l-sssp",
                                       .spec = lsssp_spec,
                                       .about = app_gapp_about_source,
                                       .reference = app_gapp_sssp_reference,
                                       .describe = lsssp_describe,
                                       .check = app_gapp_sssp_check,
                                       .prepare = app_wl_prepare,
                                       .multi = app_wl_multi,
                                       .after = app_wl_after};
APP_GAPP_CREATE(lsssp_create, sizeof(app_gapp), lsssp_ops)

const app_module app_module_lsssp =
    APP_GAPP_MODULE("l-sssp", "lsssp",
                    "LonestarGPU worklist SSSP, atomic_min relaxation, two resizing barriers per iteration",
                    APP_MOD_WEIGHTS | APP_MOD_MULTI_LAUNCH, APP_WL_FILE, APP_WL_COOP_KERNEL, app_wl_test_config,
                    lsssp_create, lsssp_corrupt);
