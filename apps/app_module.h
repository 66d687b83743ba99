/* apps/app_module.h: what one ported application provides to the common
 * interface of app.h (policy-free mechanism: app.c loads the graph, opens the
 * plain OpenCL device and dispatches; the module owns its input, reference,
 * kernels and checks). One module per application, in apps/<name>/<name>_app.c,
 * listed in apps/app_registry.c.
 *
 * Return conventions: int callbacks return 0 on success and -1 with a
 * one-line message in err. plain and coop_check return 0 PASS, 1 FAIL (msg
 * says why), -1 error, APP_UNCHECKED when created with skip_reference. */
#ifndef APPS_APP_MODULE_H
#define APPS_APP_MODULE_H

#include "app.h"
#include "cl_plain.h"
#include "graph.h"
#include "graph_input.h"

/* flags */
#define APP_MOD_GRAPH 1u        /* takes a graph (--graph): app.c loads it into a symmetric CSR */
#define APP_MOD_WEIGHTS 2u      /* the graph must be weighted (missing weights: app_csr_add_weights) */
#define APP_MOD_MULTI_LAUNCH 4u /* has the original multi-launch baseline besides the persistent one */

/* One plain baseline run, as app.c decided it. */
typedef struct {
    int persistent;            /* the occupancy-bound persistent kernel (else multi-launch) */
    size_t wg;                 /* work-group size                                            */
    unsigned groups;           /* persistent: work-groups (<= the occupancy)                 */
    double timeout_s;          /* the kernel work must end within this (finite, > 0); past it
                                return -1 and set c->stuck                                */
    const char *build_options; /* appended to the plain kernels' builds (NULL: none)      */
} app_plain_args;

/* The persistent launch args describe (app_cl_run_persistent). */
static inline app_cl_launch app_plain_launch(const app_plain_args *a)
{
    app_cl_launch l = {.build_options = a->build_options,
                       .wg = a->wg,
                       .groups = a->groups,
                       .timeout_s = a->timeout_s};
    return l;
}

typedef struct app_module {
    const char *name;        /* what --app takes ("color")                                 */
    const char *alias;       /* a second accepted name, or NULL                            */
    const char *summary;     /* one line for --help                                        */
    unsigned flags;          /* APP_MOD_*                                                  */
    const char *coop_file;   /* kernel file below the kernel folder ("color/color.cl")     */
    const char *coop_kernel; /* the cooperative kernel in it                               */
    const char *work_unit;   /* what reference_work counts ("edges", "hash rounds")        */
    /* App-specific defaults (common ones are already set); may be NULL. */
    void (*defaults)(app_config *c);
    /* Small inputs for the PoCL tests (a few hundred ms per run on 2 cores);
     * variant 0..test_variants-1 picks among shapes (e.g. R-MAT vs grid). */
    void (*test_config)(app_config *c, unsigned variant);
    unsigned test_variants;
    /* Estimated cost of the CPU reference before the input exists (graph
     * apps from a file: 0), in work_unit. */
    double (*reference_work)(const app_config *c);
    /* Builds the module's state: its input (graph apps get g, loaded and
     * owned by app.c, and `input`, a description of it) and, unless
     * c->skip_reference, the CPU reference, timed into *cpu_ms. Writes one
     * line into desc ("rmat 2^14 ...: 7 levels, 16380 reached"). */
    void *(*create)(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                    double *cpu_ms, char *err, size_t err_len);
    void (*destroy)(void *st);
    /* Runs the plain baseline once on c (fresh buffers from the module's
     * input, built with args->build_options) and checks it; fills res->ms,
     * res->device_ms (the persistent launch's; left at -1 by a multi-launch
     * run) and res->launches (app.c fills the rest). */
    int (*plain)(void *st, app_cl *c, const app_plain_args *args, app_plain_result *res, char *msg, size_t msg_len);
    /* Cooperative form, in a built context (see app.h). coop_setup may be
     * called again after coop_teardown. */
    int (*coop_setup)(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len);
    int (*coop_start)(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len);
    int (*coop_check)(void *st, char *msg, size_t msg_len);
    void (*coop_teardown)(void *st);
    /* Test hook: damages the reference so the next check must FAIL. */
    void (*corrupt_reference)(void *st);
} app_module;

/* The graph input a config names (weighted as the module wants). */
static inline app_graph_spec app_config_graph_spec(const app_config *c, int weighted)
{
    app_graph_spec s = {.name = c->graph ? c->graph : "rmat",
                        .scale = c->scale,
                        .edge_factor = c->edge_factor,
                        .grid_drop = c->grid_drop,
                        .seed = c->seed,
                        .weighted = weighted,
                        .max_weight = c->max_weight};
    return s;
}

/* The module of a kind, or NULL when that application is not built. */
const app_module *app_module_of(app_kind k);

#endif
