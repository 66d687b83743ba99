/* apps/worklist/wl.h: the worklist skeleton shared by the bfs-wl and l-sssp
 * applications (worklist.cl): worklist sizing and initial values (the host
 * side is the graph skeleton's, common/graph_app.h, driven by wl_app.c).
 *
 * Values: APP_WL_BFS gives BFS levels (-1 unreached, as bfs.h);
 * APP_WL_SSSP gives distances over g->w (APP_SSSP_INF unreached, as
 * sssp_cpu.h). A worklist overflow is an error of the run (wl_app.c). */
#ifndef APPS_WL_H
#define APPS_WL_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"
#include "graph.h"

#define APP_WL_FILE "worklist/worklist.cl"
#define APP_WL_COOP_KERNEL "worklist_coop"
#define APP_WL_STEP_KERNEL "worklist_step"

typedef enum {
    APP_WL_BFS = 0, /* levels claimed by compare-exchange: each node pushed once  */
    APP_WL_SSSP = 1 /* distances lowered by atomic_min: a node may be pushed again */
} app_wl_mode;

/* Entries of each of the two worklists for g in mode: BFS n (a node is
 * pushed at most once in the whole run), SSSP m + n (a node is pushed once
 * per lowering of its distance, which within one iteration is bounded in
 * practice by its in-edges; a push beyond this is detected and reported as
 * an overflow, never dropped silently). -1 (message in err) when that is
 * above APP_WL_MAX_CAPACITY (the kernel's int32 index arithmetic, list
 * position plus a launch's work-items, must not overflow). */
#define APP_WL_MAX_CAPACITY ((int64_t)1 << 30)
int64_t app_wl_capacity(const app_csr *g, app_wl_mode mode, char *err, size_t err_len);
/* Test hook: caps app_wl_capacity at cap entries (0: no cap), so a test can
 * make a worklist overflow and see it reported. Not thread-safe. */
void app_wl_set_test_capacity(int32_t cap);
/* Ints of local scratch a work-group of wg items needs (4 wg + 4). */
size_t app_wl_local_ints(size_t wg);
/* The initial values: -1 (BFS) or APP_SSSP_INF (SSSP) everywhere, 0 at
 * the source. */
void app_wl_init_values(app_wl_mode mode, int32_t n, int32_t source, int32_t *values);

#endif
