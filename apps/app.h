/* apps/app.h: one interface over the ported applications (BFS, work
 * stealing) for the runner and the tests: build the input and its CPU
 * reference, run the plain baseline, and set up, launch and check the
 * cooperative form inside a runtime context.
 * Errors: int functions return 0 on success and -1 with a message in err;
 * the *check and *plain functions return 0 PASS, 1 FAIL (msg says why), -1
 * error. */
#ifndef APPS_APP_H
#define APPS_APP_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "workstealing/ws.h"

typedef enum { APP_KIND_BFS = 0, APP_KIND_WS } app_kind;

typedef struct {
    app_kind kind;
    uint64_t seed;            /* generator seed (graph or task tree)                */
    /* BFS */
    const char *graph;        /* "rmat", "grid", or a file (.gr: DIMACS, else edge list) */
    unsigned scale;           /* generated graphs have 2^scale nodes                 */
    unsigned edge_factor;     /* R-MAT edges per node                                 */
    unsigned grid_drop;       /* grid: percent of edges dropped                       */
    int32_t source;           /* -1: the node of largest degree (grid: node 0)        */
    /* Work stealing (its seed field is ignored: `seed` above is used). */
    app_ws_params ws;
} app_config;

/* Defaults: BFS on R-MAT 2^14 x 8, or a work-stealing tree of ~25k tasks. */
void app_config_defaults(app_config *c, app_kind kind);
/* Parses "bfs" / "ws" (also "workstealing"). -1 if unknown. */
int app_kind_parse(const char *s, app_kind *out);
const char *app_kind_name(app_kind k);

typedef struct app app;

/* Generates or reads the input and computes the CPU reference (timed). */
int app_create(const app_config *cfg, app **out, char *err, size_t err_len);
void app_destroy(app *a);
/* One line: the input and its reference ("rmat 2^14 nodes, 229376 edges,
 * source 3, 7 levels, 16380 reached"). */
const char *app_describe(const app *a);
double app_cpu_ms(const app *a);
const app_config *app_get_config(const app *a);

/* ---- plain baseline (raw OpenCL, no megakernel) */
typedef struct {
    ck_device_options device;
    size_t work_group_size;  /* 0 = 64                                                */
    unsigned groups;         /* persistent kernels: 0 = discovered occupancy - 1 (the
                                megakernel's worker count on the same device)          */
    int bfs_persistent;      /* BFS: bfs_coop.cl as a persistent kernel instead of the
                                multi-launch bfs_plain.cl                             */
    int warmup;              /* run once untimed first (PoCL compiles a kernel for its
                                work-group size at the first launch)                   */
} app_plain_options;

typedef struct {
    double ms;
    unsigned groups;         /* groups of the persistent kernel (0: multi-launch)     */
    int32_t launches;        /* multi-launch BFS: kernel launches                     */
    char mode[32];           /* "multi-launch", "persistent"                          */
    char device[260];
    char path[8];
} app_plain_result;

int app_plain(app *a, const app_plain_options *o, app_plain_result *res, char *msg, size_t msg_len);

/* ---- cooperative form, inside a context */
/* Adds the application's kernel file to ctx (before ck_context_build). */
int app_add_sources(const app *a, ck_context *ctx, char *err, size_t err_len);
/* Allocates and fills the inputs in a built ctx, for launches of up to
 * max_groups work-groups. */
int app_coop_setup(app *a, ck_context *ctx, unsigned max_groups, char *err, size_t err_len);
/* Resets the inputs and launches the cooperative kernel with N = groups. */
int app_coop_start(app *a, unsigned groups, ck_launch **out, char *err, size_t err_len);
/* After the launch finished: reads the output and compares it with the CPU
 * reference. 0 PASS, 1 FAIL, -1 error. */
int app_coop_check(app *a, char *msg, size_t msg_len);
/* Frees the buffers of app_coop_setup (call before destroying ctx). */
void app_coop_teardown(app *a);

/* Test hook: corrupts the CPU reference (BFS: one node's level; WS: the
 * checksum) so that the next check must FAIL. */
void app_corrupt_reference(app *a);

#endif
