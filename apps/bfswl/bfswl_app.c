/* apps/bfswl/bfswl_app.c: bfs-wl, LonestarGPU's data-driven worklist BFS
 * (bfs-worklistc), as an application module (app_module.h): the worklist
 * skeleton of apps/worklist in BFS mode, checked by the frontier BFS's CPU
 * reference and checker (bfs.h). */
#include "app_module.h"
#include "worklist/wl_app.h"

static int bfswl_spec(app_gapp *a, const app_config *c, char *err, size_t err_len)
{
    return app_wl_spec(a, c, APP_WL_BFS, err, err_len);
}

static const app_gapp_ops bfswl_ops = {.what = "bfs-wl",
                                       .spec = bfswl_spec,
                                       .about = app_gapp_about_source,
                                       .reference = app_gapp_bfs_reference,
                                       .describe = app_gapp_bfs_describe,
                                       .check = app_gapp_bfs_check,
                                       .prepare = app_wl_prepare,
                                       .multi = app_wl_multi,
                                       .after = app_wl_after};
APP_GAPP_CREATE(bfswl_create, sizeof(app_gapp), bfswl_ops)

const app_module app_module_bfswl =
    APP_GAPP_MODULE("bfs-wl", "bfswl",
                    "LonestarGPU worklist BFS, prefix-sum pushes, two resizing barriers per iteration",
                    APP_MOD_MULTI_LAUNCH, APP_WL_FILE, APP_WL_COOP_KERNEL, app_wl_test_config, bfswl_create,
                    app_gapp_bfs_corrupt);
