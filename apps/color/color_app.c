/* apps/color/color_app.c: Pannotia's graph colouring as an application
 * module (app_module.h): its buffers and kernels for the graph skeleton
 * (common/graph_app.h), CPU reference and check. */
#include "app_module.h"
#include "color.h"
#include "graph_app.h"
#include "timer.h"

#include <stdio.h>

enum { ROW, COL, VALUE, COLORS, MAX_D, STOPS };

static void color_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 5 : 8;
    c->edge_factor = 2; /* R-MAT: 16 rounds; grid 8x4: 11 rounds */
}

/* The multi-launch baseline is the original host loop: color1, color2 with
 * the round's colour, the host reading the stop flag. */
static int color_spec(app_gapp *a, const app_config *c, char *err, size_t err_len)
{
    (void)c;
    int32_t *uncoloured = app_gapp_pannotia(a);
    if (!uncoloured) {
        snprintf(err, err_len, "colouring: out of host memory");
        return -1;
    }
    app_gk_spec *s = &a->spec;
    app_gapp_nodes(a, uncoloured, APP_GK_EACH, "colours", NULL);
    app_gapp_nodes(a, NULL, APP_GK_KEEP, "neighbour maxima", NULL);
    app_gapp_buf(a, "stop flags", 8, NULL, APP_GK_EACH);
    s->ints[0] = a->g->n;
    s->coop_file = APP_COLOR_COOP_FILE;
    s->coop = (app_gk_kernel){APP_COLOR_COOP_KERNEL,
                              8,
                              {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(VALUE), APP_GK_B(COLORS), APP_GK_B(MAX_D),
                               APP_GK_B(STOPS), APP_GK_I(0), APP_GK_BAR}};
    s->plain_file = APP_COLOR_PLAIN_FILE;
    s->nplain = 2;
    s->plain[0] = (app_gk_kernel){"color1",
                                  7,
                                  {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(VALUE), APP_GK_B(COLORS), APP_GK_B(MAX_D),
                                   APP_GK_B(STOPS), APP_GK_I(0)}};
    s->plain[1] =
        (app_gk_kernel){"color2", 5, {APP_GK_B(VALUE), APP_GK_B(COLORS), APP_GK_B(MAX_D), APP_GK_I(1), APP_GK_I(0)}};
    s->flag = STOPS;
    s->round_kernel = 1;
    s->round_arg = 3;
    s->result = COLORS;
    s->result_bytes = (size_t)a->g->n * 4;
    return 0;
}

static int color_reference(app_gapp *a, char *err, size_t err_len)
{
    (void)err, (void)err_len;
    a->ref_stat = app_color_cpu(a->g, a->ref);
    return 0;
}

static size_t color_check(const app_gapp *a, char *msg, size_t msg_len)
{
    return app_color_check(a->g, a->got, a->ref, msg, msg_len);
}

static void color_corrupt(void *st)
{
    app_gapp *a = st;
    if (a->g->n)
        ((int32_t *)a->ref)[0] += 1;
}

static const app_gapp_ops color_ops = {.what = "colouring",
                                       .spec = color_spec,
                                       .reference = color_reference,
                                       .stat_format = ", %d colours (rounds)",
                                       .check = color_check};
APP_GAPP_CREATE(color_create, sizeof(app_gapp), color_ops)

const app_module app_module_color =
    APP_GAPP_MODULE("color", NULL,
                    "Pannotia graph colouring (Jones-Plassmann rounds), one resizing barrier per phase",
                    APP_MOD_MULTI_LAUNCH, APP_COLOR_COOP_FILE, APP_COLOR_COOP_KERNEL, color_test_config,
                    color_create, color_corrupt);
