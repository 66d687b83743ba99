/* apps/app.h: one interface over the ported applications (see the list in
 * app_kind) for the runner and the tests: build the input and its CPU
 * reference, run the plain baseline, and set up, launch and check the
 * cooperative form inside a runtime context. Each application is a module
 * (app_module.h); this interface dispatches to it.
 * Errors: int functions return 0 on success and -1 with a message in err;
 * the *check and *plain functions return 0 PASS, 1 FAIL (msg says why), -1
 * error, and APP_UNCHECKED when the app was created without its CPU
 * reference (app_config.skip_reference). */
#ifndef APPS_APP_H
#define APPS_APP_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "workstealing/ws.h"

/* Every application of the paper's evaluation (and ws). A kind whose module
 * is not built is refused by app_kind_parse and app_create. */
typedef enum {
    APP_KIND_BFS = 0, /* frontier BFS                                   */
    APP_KIND_WS,      /* work stealing over an unbalanced task tree     */
    APP_KIND_COLOR,   /* Pannotia graph colouring                       */
    APP_KIND_MIS,     /* Pannotia maximal independent set               */
    APP_KIND_PSSSP,   /* Pannotia SSSP (min-plus SpMV)                  */
    APP_KIND_BC,      /* Pannotia betweenness centrality                */
    APP_KIND_BFSWL,   /* LonestarGPU worklist BFS                       */
    APP_KIND_LSSSP,   /* LonestarGPU worklist SSSP                      */
    APP_KIND_OCTREE,  /* octree partitioning by work stealing           */
    APP_KIND_GAME,    /* Connect-Four minimax by work stealing          */
    APP_KIND_COUNT
} app_kind;

/* What a check returns when there is no reference to compare with. */
#define APP_UNCHECKED 2
/* Largest CPU reference app_create computes, in app_reference_work()'s
 * units (hash rounds of the work-stealing tree, edges of a BFS graph): about
 * half a minute of one CPU core. */
#define APP_MAX_REFERENCE_WORK 17179869184.0 /* 2^34 */

typedef struct {
    app_kind kind;
    uint64_t seed; /* generator seed (graph or task tree)                */
    /* Graph applications */
    const char *graph;    /* a generator's name ("rmat", "grid", ...) or a file   */
    unsigned scale;       /* generated graphs have 2^scale nodes                 */
    unsigned edge_factor; /* R-MAT edges per node                                 */
    unsigned grid_drop;   /* grid: percent of edges dropped                       */
    int32_t source;       /* BFS/SSSP: -1: the app's default source               */
    uint32_t max_weight;  /* weighted apps: unweighted inputs get weights 1..this  */
    uint32_t bc_sources;  /* bc: sources 0..bc_sources-1 (0: every node)           */
    /* Work stealing (its seed field is ignored: `seed` above is used). */
    app_ws_params ws;
    /* octree: particles in clusters, leaves hold at most max_children */
    uint32_t particles, clusters, max_children;
    /* game: look-ahead depth and the position ("" or NULL: the module's) */
    uint32_t game_depth;
    const char *game_position;
    int skip_reference; /* no CPU reference: checks return APP_UNCHECKED  */
} app_config;

/* Defaults: common ones (R-MAT 2^14 x 8, seed 1, weights up to 100) and
 * the module's own (ws: a tree of ~25k tasks). */
void app_config_defaults(app_config *c, app_kind kind);
/* Parses an application's name or alias ("bfs", "ws", "workstealing", ...).
 * -1 if unknown or not built. */
int app_kind_parse(const char *s, app_kind *out);
/* The name of a kind ("?" outside the enum). */
const char *app_kind_name(app_kind k);
/* Whether the kind's module is built. */
int app_kind_available(app_kind k);
/* The built applications' names, comma-separated ("bfs, ws, ..."). */
const char *app_kind_list(void);
/* Whether the app reads a graph (--graph), and has a multi-launch baseline. */
int app_kind_uses_graph(app_kind k);
int app_kind_has_multi_launch(app_kind k);
/* Small test inputs (for the PoCL tests): the module's test_config for
 * variant % app_test_variants(kind). */
void app_test_config(app_config *c, app_kind kind, unsigned variant);
unsigned app_test_variants(app_kind kind);

typedef struct app app;

/* Estimated cost of cfg's CPU reference, in app_reference_unit()s: work
 * stealing: expected tasks (roots x (depth + 1): each task has one child on
 * average) x units x iters hash rounds; BFS on a generated graph: its edges;
 * a graph from a file: 0 (the reference is linear in the file read). */
double app_reference_work(const app_config *cfg);
const char *app_reference_unit(app_kind k);
/* Generates or reads the input and computes the CPU reference (timed),
 * unless cfg->skip_reference. Refuses (-1) a reference whose
 * app_reference_work() is above APP_MAX_REFERENCE_WORK. */
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
    size_t work_group_size;    /* 0 = 64                                                */
    unsigned groups;           /* persistent kernels: 0 = discovered occupancy - 1 (the
                                megakernel's worker count on the same device)          */
    int persistent;            /* apps with a multi-launch baseline (graph apps): the
                                persistent form instead; the others are always
                                persistent                                            */
    int warmup;                /* app_plain: run once untimed first (PoCL compiles a kernel
                                for its work-group size at the first launch)            */
    double timeout_s;          /* each run's kernel work must end within this many
                                seconds (0 = APP_PLAIN_DEFAULT_TIMEOUT_S)              */
    unsigned occupancy;        /* co-resident groups if already known (0 = discover it
                                when a persistent kernel runs)                         */
    const char *build_options; /* app_plain: extra options appended to the plain
                                kernels' builds, e.g. "-DCK_PLAIN_BARRIER_FENCED"
                                (NULL = none)                                          */
} app_plain_options;
#define APP_PLAIN_DEFAULT_TIMEOUT_S 120.0

typedef struct {
    double ms;        /* host: just before the (first) enqueue -> the host saw the
                                work complete                                          */
    double device_ms; /* persistent: the launch's CL_PROFILING_COMMAND_END -
                                CL_PROFILING_COMMAND_START on the device's clock; -1
                                where not available (a multi-launch run, or a device
                                without profiling information)                          */
    unsigned groups;  /* groups of the persistent kernel (0: multi-launch)     */
    int32_t launches; /* multi-launch BFS: kernel launches                     */
    char mode[32];    /* "multi-launch", "persistent"                          */
    char device[260];
    char path[8];
    unsigned occupancy; /* persistent: the co-resident groups it was checked against */
    int timed_out;      /* a run passed timeout_s: the device may still be busy    */
} app_plain_result;

/* A plain baseline kept open across runs: the raw OpenCL device, queue and
 * built programs stay (warm), each run uploads fresh buffers from the app's
 * input (untimed), runs, reads back, checks against the CPU reference and
 * releases its buffers. */
typedef struct app_plain_session app_plain_session;

/* Opens the device of o->device and decides the run's shape (persistent or
 * multi-launch, groups; o->warmup and o->build_options are app_plain's).
 * A persistent kernel with more groups than are co-resident (o->groups
 * above the occupancy) is refused (-1, msg names both numbers): it would
 * never finish. Errors: -1 with msg (the device could not be opened,
 * occupancy discovery failed, out of host memory). */
int app_plain_open(app *a, const app_plain_options *o, app_plain_session **out, char *msg, size_t msg_len);
/* One run in session s with build_options appended to the plain kernels'
 * builds (NULL = none; each (kernel file, options) pair is built once per
 * session). Fills *res. Returns 0 PASS, 1 FAIL, -1 error, APP_UNCHECKED; a
 * run that passed its timeout sets res->timed_out and leaves the session
 * unusable (later runs: -1, "... timed out earlier"). */
int app_plain_run(app_plain_session *s, const char *build_options, app_plain_result *res, char *msg, size_t msg_len);
/* Closes the session (NULL is allowed). After a timed-out run the device's
 * objects are left to the process's exit (app_cl.stuck). */
void app_plain_close(app_plain_session *s);

/* Runs the plain baseline: app_plain_open, an untimed run when o->warmup,
 * the timed run (its result in *res), app_plain_close; both runs with
 * o->build_options. Errors as app_plain_open and app_plain_run. */
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
 * checksum; ...) so that the next check must FAIL. */
void app_corrupt_reference(app *a);

#endif
