/* apps/bfs/bfs_app.c: the frontier BFS as an application module
 * (app_module.h): source choice, its buffers and kernels for the graph
 * skeleton (common/graph_app.h), the multi-launch loop, CPU reference and
 * check. */
#include "app_module.h"
#include "graph_app.h"
#include "bfs.h"
#include "timer.h"

#include <stdio.h>
#include <string.h>

enum { ROW, COL, LEVELS, F0, F1, SIZES };

static void bfs_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 6 : 9;
}

/* One bfs_level launch per level over the in-frontier: the host zeroes the
 * out-frontier's size, reads it back (blocking, as a user's multi-launch BFS
 * would: polling an event per level made this baseline 1.7x slower on the
 * H100, measured) and swaps the frontiers; every level ends by itself, so the
 * deadline is checked between levels. */
static int bfs_multi(app_gapp *a, app_gk_plain *p, double deadline_ms, int32_t *launches, char *err, size_t err_len)
{
    (void)a;
    static const size_t level_kernel[] = {0};
    int32_t n_in = 1, level = 0;
    size_t in = F0, out = F1;
    while (n_in > 0) {
        size_t global = ((size_t)n_in + p->wg - 1) / p->wg * p->wg;
        if (app_gk_set_buf(p, 0, 3, in, err, err_len) || app_gk_set_int(p, 0, 4, n_in, err, err_len) ||
            app_gk_set_buf(p, 0, 5, out, err, err_len) || app_gk_set_int(p, 0, 7, level, err, err_len) ||
            app_gk_round(p, SIZES, level_kernel, 1, global, &n_in, 4, err, err_len))
            return -1;
        if (app_now_ms() > deadline_ms)
            return app_gk_timeout(p, level + 1, "levels", err, err_len);
        size_t t = in;
        in = out;
        out = t;
        ++level;
    }
    *launches = level;
    return 0;
}

static int bfs_spec(app_gapp *a, const app_config *c, char *err, size_t err_len)
{
    const app_csr *g = a->g;
    if (c->source >= g->n) {
        snprintf(err, err_len, "BFS source %d outside 0..%d", c->source, g->n - 1);
        return -1;
    }
    a->source = c->source >= 0 ? c->source : !strcmp(c->graph, "grid") ? 0 : app_csr_max_degree_node(g);
    int32_t *levels = app_gapp_ints(a, 0, -1, 0), *front = app_gapp_host(a, 1, 4), *sizes = app_gapp_host(a, 2, 8);
    if (!levels || !front || !sizes) {
        snprintf(err, err_len, "BFS: out of host memory");
        return -1;
    }
    levels[a->source] = 0;
    front[0] = a->source;
    sizes[0] = 1;
    sizes[1] = 0;
    app_gk_spec *s = &a->spec;
    app_gapp_csr(a, 0);
    app_gapp_nodes(a, levels, APP_GK_EACH, "levels", "frontier 0", NULL);
    s->buf[F0].init = front;
    s->buf[F0].init_bytes = 4; /* the source */
    app_gapp_nodes(a, NULL, APP_GK_KEEP, "frontier 1", NULL);
    app_gapp_buf(a, "frontier sizes", 8, sizes, APP_GK_EACH);
    s->coop_file = APP_BFS_COOP_FILE;
    s->coop = (app_gk_kernel){APP_BFS_COOP_KERNEL,
                              7,
                              {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(LEVELS), APP_GK_B(F0), APP_GK_B(F1),
                               APP_GK_B(SIZES), APP_GK_BAR}};
    /* in, n_in, out and level are bfs_multi's */
    s->plain_file = APP_BFS_PLAIN_FILE;
    s->nplain = 1;
    s->plain[0] = (app_gk_kernel){"bfs_level",
                                  8,
                                  {APP_GK_B(ROW), APP_GK_B(COL), APP_GK_B(LEVELS), APP_GK_B(F0), APP_GK_I(0),
                                   APP_GK_B(F1), APP_GK_B(SIZES), APP_GK_I(0)}};
    s->result = LEVELS;
    s->result_bytes = (size_t)g->n * 4;
    return 0;
}

static const app_gapp_ops bfs_ops = {.what = "BFS",
                                     .spec = bfs_spec,
                                     .about = app_gapp_about_source,
                                     .reference = app_gapp_bfs_reference,
                                     .describe = app_gapp_bfs_describe,
                                     .check = app_gapp_bfs_check,
                                     .multi = bfs_multi};
APP_GAPP_CREATE(bfs_create, sizeof(app_gapp), bfs_ops)

const app_module app_module_bfs =
    APP_GAPP_MODULE("bfs", NULL, "frontier BFS, two resizing barriers per level", APP_MOD_MULTI_LAUNCH,
                    APP_BFS_COOP_FILE, APP_BFS_COOP_KERNEL, bfs_test_config, bfs_create, app_gapp_bfs_corrupt);
