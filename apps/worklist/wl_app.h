/* apps/worklist/wl_app.h: what bfs-wl and l-sssp share on top of the graph
 * skeleton (common/graph_app.h): the worklist buffers and kernels in either
 * mode, the multi-launch loop, the overflow check after a persistent run,
 * source choice and test inputs. Each application's module (bfswl_app.c,
 * lsssp_app.c) adds its reference, check and description. Return
 * conventions as app_module.h. */
#ifndef APPS_WL_APP_H
#define APPS_WL_APP_H

#include "app_module.h"
#include "graph_app.h"
#include "wl.h"

/* The default source: c->source if set (-1 if outside the graph), else node 0
 * of a grid, else the node of largest degree. */
int32_t app_wl_pick_source(const app_config *c, const app_csr *g);
/* app_gapp_ops.spec of the worklist skeleton in mode (chooses a->source);
 * -1 with "<what>: ..." in err for a source outside the graph or out of
 * memory. */
int app_wl_spec(app_gapp *a, const app_config *c, app_wl_mode mode, char *err, size_t err_len);
/* app_gapp_ops.prepare (the worklists' capacity, app_wl_capacity, taken at
 * each run), .multi and .after of both apps. */
int app_wl_prepare(app_gapp *a, char *err, size_t err_len);
int app_wl_multi(app_gapp *a, app_gk_plain *p, double deadline_ms, int32_t *launches, char *err, size_t err_len);
int app_wl_after(app_gapp *a, app_gk_plain *p, char *err, size_t err_len);
/* Test config: variant 0 an R-MAT graph, 1 a grid (small: chaos runs). */
void app_wl_test_config(app_config *c, unsigned variant);

#endif
