/* apps/mis/mis_app.c: Pannotia's maximal independent set as an application
 * module (app_module.h): its buffers and kernels for the graph skeleton
 * (common/graph_app.h), CPU reference and check. */
#include "app_module.h"
#include "graph_app.h"
#include "mis.h"
#include "timer.h"

#include <stdio.h>

enum { ROW, COL, VALUE, STATUS, UPD, MIN_D, STOP };

static void mis_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 5 : 9; /* R-MAT: 5 rounds; grid 8x4: 7 rounds */
}

/* The multi-launch baseline is the original host loop: mis1, mis2, mis3 per
 * round, the host reading the stop flag. */
static int mis_spec(app_gapp *a, const app_config *c, char *err, size_t err_len)
{
    (void)c;
    int32_t *undecided = app_gapp_pannotia(a);
    if (!undecided) {
        snprintf(err, err_len, "independent set: out of host memory");
        return -1;
    }
    app_gk_spec *s = &a->spec;
    app_gapp_nodes(a, undecided, APP_GK_EACH, "statuses", "marks", NULL);
    app_gapp_nodes(a, NULL, APP_GK_KEEP, "neighbour minima", NULL);
    app_gapp_buf(a, "stop flag", 4, NULL, APP_GK_EACH);
    s->ints[0] = a->g->n;
    s->coop_file = APP_MIS_COOP_FILE;
    s->coop = (app_gk_kernel){APP_MIS_COOP_KERNEL,
                              9,
                              {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(VALUE), APP_GK_B(STATUS), APP_GK_B(UPD),
                               APP_GK_B(MIN_D), APP_GK_B(STOP), APP_GK_I(0), APP_GK_BAR}};
    s->plain_file = APP_MIS_PLAIN_FILE;
    s->nplain = 3;
    s->plain[0] = (app_gk_kernel){"mis1",
                                  7,
                                  {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(VALUE), APP_GK_B(STATUS), APP_GK_B(MIN_D),
                                   APP_GK_B(STOP), APP_GK_I(0)}};
    s->plain[1] = (app_gk_kernel){"mis2",
                                  7,
                                  {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(VALUE), APP_GK_B(STATUS), APP_GK_B(UPD),
                                   APP_GK_B(MIN_D), APP_GK_I(0)}};
    s->plain[2] = (app_gk_kernel){"mis3", 3, {APP_GK_B(STATUS), APP_GK_B(UPD), APP_GK_I(0)}};
    s->flag = STOP;
    s->result = STATUS;
    s->result_bytes = (size_t)a->g->n * 4;
    return 0;
}

static int mis_reference(app_gapp *a, char *err, size_t err_len)
{
    (void)err, (void)err_len;
    a->ref_stat = app_mis_cpu(a->g, a->ref);
    return 0;
}

static size_t mis_check(const app_gapp *a, char *msg, size_t msg_len)
{
    return app_mis_check(a->g, a->got, a->ref, msg, msg_len);
}

static void mis_corrupt(void *st)
{
    app_gapp *a = st;
    if (a->g->n)
        ((int32_t *)a->ref)[0] = 1 - ((int32_t *)a->ref)[0];
}

static const app_gapp_ops mis_ops = {.what = "independent set",
                                     .spec = mis_spec,
                                     .reference = mis_reference,
                                     .stat_format = ", independent set of %d nodes",
                                     .check = mis_check};
APP_GAPP_CREATE(mis_create, sizeof(app_gapp), mis_ops)

const app_module app_module_mis =
    APP_GAPP_MODULE("mis", NULL, "Pannotia maximal independent set, three resizing barriers per round",
                    APP_MOD_MULTI_LAUNCH, APP_MIS_COOP_FILE, APP_MIS_COOP_KERNEL, mis_test_config, mis_create,
                    mis_corrupt);
