/* apps/color/color_app.c: Pannotia's graph colouring as an application
 * module (app_module.h): CPU reference, baselines (multi-launch and
 * persistent), cooperative run and check. */
#include "app_module.h"
#include "color.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const app_csr *g;
    int skip_reference;
    int32_t colors_used;
    int32_t *ref, *got;
    app_color_coop *coop;
} color_state;

static void color_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 5 : 8;
    c->edge_factor = 2; /* R-MAT: 16 rounds; grid 8x4: 11 rounds */
}

static double color_reference_work(const app_config *c)
{
    app_graph_spec s = app_config_graph_spec(c, 0);
    return app_graph_spec_edges(&s);
}

static void color_destroy(void *st)
{
    color_state *b = st;
    if (!b)
        return;
    app_color_coop_free(b->coop);
    free(b->ref);
    free(b->got);
    free(b);
}

static void *color_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                          double *cpu_ms, char *err, size_t err_len)
{
    size_t n1 = g->n ? (size_t)g->n : 1;
    color_state *b = calloc(1, sizeof *b);
    if (!b || !(b->ref = malloc(n1 * sizeof *b->ref)) || !(b->got = malloc(n1 * sizeof *b->got))) {
        snprintf(err, err_len, "colouring: out of host memory");
        color_destroy(b);
        return NULL;
    }
    b->g = g;
    b->skip_reference = c->skip_reference;
    if (c->skip_reference) {
        snprintf(desc, desc_len, "%s: %d nodes, %d directed edges (no CPU reference)", input, g->n, g->m);
        return b;
    }
    double t0 = app_now_ms();
    b->colors_used = app_color_cpu(g, b->ref);
    *cpu_ms = app_now_ms() - t0;
    snprintf(desc, desc_len, "%s: %d nodes, %d directed edges, %d colours (rounds)", input, g->n, g->m,
             b->colors_used);
    return b;
}

static int color_check(color_state *b, char *msg, size_t msg_len)
{
    if (b->skip_reference)
        return APP_UNCHECKED;
    return app_color_check(b->g, b->got, b->ref, msg, msg_len) ? 1 : 0;
}

static int color_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg,
                       size_t msg_len)
{
    color_state *b = st;
    app_color_plain_result r;
    if (app_color_plain_run(c, b->g, a->persistent, a->wg, a->groups, a->timeout_s, b->got, &r, msg, msg_len))
        return -1;
    res->ms = r.ms;
    res->launches = r.launches;
    return color_check(b, msg, msg_len);
}

static int color_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    (void)max_groups;
    color_state *b = st;
    return app_color_coop_setup(ctx, b->g, &b->coop, err, err_len);
}

static int color_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    color_state *b = st;
    return app_color_coop_start(b->coop, groups, out, err, err_len);
}

static int color_coop_check(void *st, char *msg, size_t msg_len)
{
    color_state *b = st;
    if (app_color_coop_read(b->coop, b->got, msg, msg_len))
        return -1;
    return color_check(b, msg, msg_len);
}

static void color_teardown(void *st)
{
    color_state *b = st;
    app_color_coop_free(b->coop);
    b->coop = NULL;
}

static void color_corrupt(void *st)
{
    color_state *b = st;
    if (b->g->n)
        b->ref[0] += 1;
}

const app_module app_module_color = {
    .name = "color",
    .summary = "Pannotia graph colouring (Jones-Plassmann rounds), one resizing barrier per phase",
    .flags = APP_MOD_GRAPH | APP_MOD_MULTI_LAUNCH,
    .coop_file = APP_COLOR_COOP_FILE,
    .coop_kernel = APP_COLOR_COOP_KERNEL,
    .work_unit = "edges",
    .test_config = color_test_config,
    .test_variants = 2,
    .reference_work = color_reference_work,
    .create = color_create,
    .destroy = color_destroy,
    .plain = color_plain,
    .coop_setup = color_setup,
    .coop_start = color_start,
    .coop_check = color_coop_check,
    .coop_teardown = color_teardown,
    .corrupt_reference = color_corrupt,
};
