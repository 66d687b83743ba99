/* apps/worklist/wl.h: the worklist skeleton shared by the bfs-wl and l-sssp
 * applications (worklist.cl): worklist sizing, the plain OpenCL baselines
 * (multi-launch and occupancy-bound persistent) and the cooperative launch.
 *
 * Values: APP_WL_BFS gives BFS levels (-1 unreached, as bfs.h);
 * APP_WL_SSSP gives distances over g->w (APP_SSSP_INF unreached, as
 * sssp_cpu.h). Errors: int functions return 0 on success and -1 with a
 * one-line message in err; a worklist overflow is such an error. */
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

typedef struct {
    int32_t iterations; /* worklist iterations (multi-launch: launches)  */
    double ms;          /* kernel work, uploads excluded                */
} app_wl_result;

/* Runs the plain baseline on c: persistent: worklist_coop as an
 * occupancy-bound kernel on `groups` groups of wg items (no more groups
 * than the occupancy); else one worklist_step launch per iteration (the
 * host swaps the lists and reads the out-list's size). Reads the values
 * into out. The kernel work must end within timeout_s seconds (finite,
 * > 0), else -1 and c->stuck is set (persistent form). Overflow: -1. */
int app_wl_plain_run(app_cl *c, const app_csr *g, app_wl_mode mode, int32_t source, int persistent, size_t wg,
                     unsigned groups, double timeout_s, int32_t *out, app_wl_result *res, char *err,
                     size_t err_len);

/* The cooperative form's buffers in a built context (the graph, its weights
 * in SSSP mode, the values, two worklists of app_wl_capacity entries). */
typedef struct app_wl_coop app_wl_coop;
int app_wl_coop_setup(ck_context *ctx, const app_csr *g, app_wl_mode mode, app_wl_coop **out, char *err,
                      size_t err_len);
/* Resets values and worklists for a run from source and launches
 * worklist_coop asking for at most `groups` work-groups. */
int app_wl_coop_start(app_wl_coop *b, int32_t source, unsigned groups, ck_launch **out, char *err,
                      size_t err_len);
/* Reads the values of the last finished launch and its iteration count.
 * -1 if the worklist overflowed or the megakernel's work-group size needs
 * more local memory than the pool gives (message says which). */
int app_wl_coop_read(app_wl_coop *b, int32_t *values, int32_t *iterations, char *err, size_t err_len);
void app_wl_coop_free(app_wl_coop *b);

#endif
