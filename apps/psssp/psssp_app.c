/* apps/psssp/psssp_app.c: Pannotia SSSP (iterated min-plus SpMV, three
 * resizing barriers per round) as an application module (app_module.h):
 * source choice, its buffers and kernels for the graph skeleton
 * (common/graph_app.h), Dijkstra reference and check. */
#include "app_module.h"
#include "graph_app.h"
#include "psssp.h"
#include "sssp_cpu.h"

#include <stdio.h>

enum { ROW, COL, W, DIST, DIST_OLD, FLAGS };

static void psssp_test_config(app_config *c, unsigned variant)
{
    /* Rounds follow the longest shortest path in hops: keep them few (each
     * round is three barriers, tens of ms each on PoCL). */
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 4 : 7;
    c->max_weight = variant % 2 ? 3 : 2;
}

/* The multi-launch baseline is the original host loop: psssp_copy,
 * psssp_relax, psssp_diff per round, the host reading the changed flag. */
static int psssp_spec(app_gapp *a, const app_config *c, char *err, size_t err_len)
{
    const app_csr *g = a->g;
    a->source = c->source >= 0 ? c->source : 0;
    if (g->n < 1 || a->source >= g->n) {
        snprintf(err, err_len, "p-sssp: source %d outside the graph's nodes 0..%d", a->source, g->n - 1);
        return -1;
    }
    if (!g->w) {
        snprintf(err, err_len, "p-sssp: the graph has no weights");
        return -1;
    }
    size_t n4 = (size_t)g->n * 4;
    int32_t *dist = app_gapp_ints(a, 0, APP_SSSP_INF, 0), *flags = app_gapp_host(a, 1, 8);
    if (!dist || !flags) {
        snprintf(err, err_len, "p-sssp: out of host memory");
        return -1;
    }
    dist[a->source] = 0;
    flags[0] = flags[1] = 1;
    app_gk_spec *s = &a->spec;
    app_gapp_csr(a, 1);
    app_gapp_nodes(a, dist, APP_GK_EACH, "distances", NULL);
    app_gapp_nodes(a, NULL, APP_GK_KEEP, "previous distances", NULL);
    app_gapp_buf(a, "flags", 8, flags, APP_GK_KEEP);
    s->ints[0] = g->n;
    s->coop_file = APP_PSSSP_COOP_FILE;
    s->coop = (app_gk_kernel){APP_PSSSP_COOP_KERNEL,
                              8,
                              {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(W), APP_GK_I(0), APP_GK_B(DIST),
                               APP_GK_B(DIST_OLD), APP_GK_B(FLAGS), APP_GK_BAR}};
    s->plain_file = APP_PSSSP_PLAIN_FILE;
    s->nplain = 3;
    s->plain[0] = (app_gk_kernel){"psssp_copy", 3, {APP_GK_B(DIST), APP_GK_B(DIST_OLD), APP_GK_I(0)}};
    s->plain[1] = (app_gk_kernel){"psssp_relax",
                                  6,
                                  {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(W), APP_GK_I(0), APP_GK_B(DIST),
                                   APP_GK_B(DIST_OLD)}};
    s->plain[2] =
        (app_gk_kernel){"psssp_diff", 4, {APP_GK_B(DIST), APP_GK_B(DIST_OLD), APP_GK_I(0), APP_GK_B(FLAGS)}};
    s->flag = FLAGS;
    s->result = DIST;
    s->result_bytes = n4;
    return 0;
}

static int psssp_describe(app_gapp *a, char *out, size_t out_len, char *err, size_t err_len)
{
    (void)err, (void)err_len;
    int32_t far, reached = app_gapp_reached(a, APP_SSSP_INF, &far);
    snprintf(out, out_len, ", %d reached, farthest at %d", reached, far);
    return 0;
}

static void psssp_corrupt(void *st)
{
    app_gapp *p = st;
    int32_t *ref = p->ref;
    /* A reached node other than the source gets a distance one too short
     * (an unreached one becomes reached at 1). */
    int32_t v = p->source == 0 && p->g->n > 1 ? 1 : 0;
    for (int32_t u = 0; u < p->g->n; ++u)
        if (u != p->source && ref[u] != APP_SSSP_INF) {
            v = u;
            break;
        }
    ref[v] = ref[v] == APP_SSSP_INF ? 1 : ref[v] - 1;
}

static const app_gapp_ops psssp_ops = {.what = "p-sssp",
                                       .spec = psssp_spec,
                                       .about = app_gapp_about_source,
                                       .reference = app_gapp_sssp_reference,
                                       .describe = psssp_describe,
                                       .check = app_gapp_sssp_check};
APP_GAPP_CREATE(psssp_create, sizeof(app_gapp), psssp_ops)

const app_module app_module_psssp =
    APP_GAPP_MODULE("p-sssp", "psssp", "Pannotia SSSP: min-plus SpMV rounds, three resizing barriers per round",
                    APP_MOD_WEIGHTS | APP_MOD_MULTI_LAUNCH, APP_PSSSP_COOP_FILE, APP_PSSSP_COOP_KERNEL,
                    psssp_test_config, psssp_create, psssp_corrupt);
