/* apps/bc/bc_app.c: Pannotia betweenness centrality (Brandes, sources looped
 * inside the kernel) as an application module (app_module.h): source count,
 * its buffers and kernels for the graph skeleton (common/graph_app.h), the
 * multi-launch loop, CPU reference and hop total, and check. */
#include "app_module.h"
#include "graph_app.h"
#include "bc.h"
#include "timer.h"

#include <math.h>
#include <stdio.h>

enum { ROW, COL, LEVEL, SIGMA, DELTA, BC, FLAGS };

typedef struct {
    app_gapp base; /* ref: double, got: float */
    int32_t sources, depth;
    double hop_total;
} bc_state;

static void bc_test_config(app_config *c, unsigned variant)
{
    /* Each source costs about 4 x depth - 2 barriers: few sources, shallow
     * graphs (an R-MAT of 128 nodes, a 4x4 grid). */
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 4 : 7;
    c->bc_sources = variant % 2 ? 2 : 3;
}

static double bc_reference_work(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 0);
    double edges = app_graph_spec_edges(&s);
    double sources = c->bc_sources ? c->bc_sources : ldexp(1.0, (int)c->scale);
    return edges * sources;
}

static size_t bc_check(const app_gapp *a, char *msg, size_t msg_len)
{
    const bc_state *b = (const bc_state *)a;
    return app_bc_check(a->g, a->got, a->ref, b->hop_total, msg, msg_len);
}

static int bc_launch(app_gk_plain *p, size_t k, int64_t *launches, char *err, size_t err_len)
{
    ++*launches;
    return app_gk_enqueue(p, k, p->global, err, err_len);
}

/* The original host loop, per source: bc_init, one bc_forward_step per level
 * with a blocking read of the level flag (the deadline is checked between
 * levels), one bc_backward_step per level from the deepest up, then
 * bc_accumulate. */
static int bc_multi(app_gapp *a, app_gk_plain *p, double deadline_ms, int32_t *launches_out, char *err,
                    size_t err_len)
{
    enum { INIT, FORWARD, BACKWARD, ACCUMULATE };
    static const size_t forward[] = {FORWARD};
    int32_t sources = ((bc_state *)a)->sources;
    int64_t launches = 0;
    for (int32_t s = 0; s < sources; ++s) {
        if (app_gk_set_int(p, INIT, 4, s, err, err_len) || bc_launch(p, INIT, &launches, err, err_len))
            return -1;
        int32_t d = 0, more = 1;
        for (;; ++d) {
            if (app_gk_set_int(p, FORWARD, 5, d, err, err_len) ||
                app_gk_round(p, FLAGS, forward, 1, 0, &more, 4, err, err_len))
                return -1;
            ++launches;
            if (app_now_ms() > deadline_ms) {
                snprintf(err, err_len,
                         "the plain multi-launch bc did not finish within the timeout (source %d of %d)", s,
                         sources);
                return -1;
            }
            if (!more)
                break;
        }
        for (int32_t dd = d - 1; dd >= 1; --dd)
            if (app_gk_set_int(p, BACKWARD, 6, dd, err, err_len) || bc_launch(p, BACKWARD, &launches, err, err_len))
                return -1;
        if (bc_launch(p, ACCUMULATE, &launches, err, err_len))
            return -1;
    }
    if (app_cl_finish(p->c, deadline_ms, "the plain multi-launch bc", err, err_len))
        return -1;
    *launches_out = launches > INT32_MAX ? INT32_MAX : (int32_t)launches;
    return 0;
}

static int bc_spec(app_gapp *a, const app_config *c, char *err, size_t err_len)
{
    bc_state *b = (bc_state *)a;
    const app_csr *g = a->g;
    if (g->n < 1 || c->bc_sources > (uint32_t)g->n) {
        snprintf(err, err_len, "bc: %u sources asked, the graph has %d nodes", c->bc_sources, g->n);
        return -1;
    }
    b->sources = c->bc_sources ? (int32_t)c->bc_sources : g->n;
    app_gk_spec *s = &a->spec;
    app_gapp_csr(a, 0);
    app_gapp_nodes(a, NULL, APP_GK_KEEP, "levels", "path counts", "dependencies", NULL);
    app_gapp_nodes(a, NULL, APP_GK_EACH, "bc", NULL);
    app_gapp_buf(a, "flags", 12, NULL, APP_GK_EACH); /* bc_coop.cl: each source starts with zero flags */
    s->ints[0] = g->n;
    s->ints[1] = b->sources;
    s->coop_file = APP_BC_COOP_FILE;
    s->coop = (app_gk_kernel){APP_BC_COOP_KERNEL,
                              10,
                              {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_I(0), APP_GK_I(1), APP_GK_B(LEVEL),
                               APP_GK_B(SIGMA), APP_GK_B(DELTA), APP_GK_B(BC), APP_GK_B(FLAGS), APP_GK_BAR}};
    /* the source and level arguments (written I(0) here) are bc_multi's */
    s->plain_file = APP_BC_PLAIN_FILE;
    s->nplain = 4;
    s->plain[0] =
        (app_gk_kernel){"bc_init", 5, {APP_GK_B(LEVEL), APP_GK_B(SIGMA), APP_GK_B(DELTA), APP_GK_I(0), APP_GK_I(0)}};
    s->plain[1] = (app_gk_kernel){"bc_forward_step",
                                  7,
                                  {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_I(0), APP_GK_B(LEVEL), APP_GK_B(SIGMA),
                                   APP_GK_I(0), APP_GK_B(FLAGS)}};
    s->plain[2] = (app_gk_kernel){"bc_backward_step",
                                  7,
                                  {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_I(0), APP_GK_B(LEVEL), APP_GK_B(SIGMA),
                                   APP_GK_B(DELTA), APP_GK_I(0)}};
    s->plain[3] = (app_gk_kernel){"bc_accumulate", 4, {APP_GK_B(LEVEL), APP_GK_B(DELTA), APP_GK_B(BC), APP_GK_I(0)}};
    s->result = BC;
    s->result_bytes = (size_t)g->n * 4;
    return 0;
}

static void bc_about(const app_gapp *a, char *out, size_t out_len)
{
    snprintf(out, out_len, ", %d sources", ((const bc_state *)a)->sources);
}

static int bc_reference(app_gapp *a, char *err, size_t err_len)
{
    bc_state *b = (bc_state *)a;
    return app_bc_cpu(a->g, b->sources, a->ref, &b->depth, err, err_len);
}

static int bc_describe(app_gapp *a, char *out, size_t out_len, char *err, size_t err_len)
{
    bc_state *b = (bc_state *)a;
    double *ref = a->ref, top = 0;
    if (app_bc_hop_total(a->g, b->sources, &b->hop_total, err, err_len))
        return -1;
    for (int32_t v = 0; v < a->g->n; ++v)
        top = ref[v] > top ? ref[v] : top;
    snprintf(out, out_len, ", depth up to %d, largest bc %.6g", b->depth, top);
    return 0;
}

static const app_gapp_ops bc_ops = {.what = "bc",
                                    .ref_elem = sizeof(double),
                                    .got_elem = sizeof(float),
                                    .spec = bc_spec,
                                    .about = bc_about,
                                    .reference = bc_reference,
                                    .describe = bc_describe,
                                    .check = bc_check,
                                    .multi = bc_multi};
APP_GAPP_CREATE(bc_create, sizeof(bc_state), bc_ops)

static void bc_corrupt(void *st)
{
    app_gapp *b = st;
    double *ref = b->ref;
    /* The node of largest bc gets 1% and one more (node 0 if all are 0):
     * well outside the tolerance. */
    int32_t top = 0;
    for (int32_t v = 1; v < b->g->n; ++v)
        if (ref[v] > ref[top])
            top = v;
    ref[top] = ref[top] * 1.01 + 1.0;
}

const app_module app_module_bc = {
    .name = "bc",
    .summary = "Pannotia betweenness centrality: Brandes over all sources in one kernel",
    .flags = APP_MOD_GRAPH | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_BC_COOP_FILE,
    .coop_kernel = APP_BC_COOP_KERNEL,
    .work_unit = "edges x sources",
    .test_config = bc_test_config,
    .test_variants = 2,
    .reference_work = bc_reference_work,
    .create = bc_create,
    APP_GAPP_CALLBACKS,
    .corrupt_reference = bc_corrupt,
};
