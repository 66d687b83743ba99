/* apps/workstealing/ws_app.c: work stealing over the unbalanced task tree
 * as an application module (app_module.h). */
#include "app_module.h"
#include "timer.h"
#include "ws.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    app_ws_params p;
    int skip_reference;
    app_ws_result ref;
    app_ws_coop *coop;
} ws_state;

static void ws_defaults(app_config *c)
{
    c->ws.roots = 256;
    c->ws.max_depth = 96;
    c->ws.units = 64;
    c->ws.iters = 16;
}

static void ws_test_config(app_config *c, unsigned variant)
{
    (void)variant;
    c->ws.roots = 128; /* about 9400 tasks */
    c->ws.max_depth = 64;
    c->ws.units = 16;
    c->ws.iters = 4;
}

static double ws_reference_work(const app_config *c)
{
    const app_ws_params *p = &c->ws;
    return (double)p->roots * ((double)p->max_depth + 1) * p->units * (p->iters ? p->iters : 1);
}

static void ws_destroy(void *st)
{
    ws_state *w = st;
    if (!w)
        return;
    app_ws_coop_free(w->coop);
    free(w);
}

static void *ws_create(const app_config *c, const app_csr *g, const char *input, char *desc, size_t desc_len,
                       double *cpu_ms, char *err, size_t err_len)
{
    (void)g;
    (void)input;
    app_ws_params p = c->ws;
    p.seed = c->seed;
    if (p.roots == 0 || p.units == 0 || p.max_depth > 100000) {
        snprintf(err, err_len, "work stealing: need roots >= 1, units >= 1 and depth <= 100000");
        return NULL;
    }
    ws_state *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, err_len, "work stealing: out of host memory");
        return NULL;
    }
    w->p = p;
    w->skip_reference = c->skip_reference;
    if (c->skip_reference) {
        snprintf(desc, desc_len,
                 "task tree: %u roots, depth <= %u, %u x %u hash rounds per task (seed %llu), no CPU reference",
                 p.roots, p.max_depth, p.units, p.iters, (unsigned long long)c->seed);
        return w;
    }
    double t0 = app_now_ms();
    if (app_ws_cpu(&p, &w->ref)) {
        snprintf(err, err_len, "work stealing: out of host memory for the reference");
        free(w);
        return NULL;
    }
    *cpu_ms = app_now_ms() - t0;
    snprintf(desc, desc_len,
             "task tree: %u roots, depth <= %u, %u x %u hash rounds per task (seed %llu): %u tasks, deepest %u, "
             "checksum 0x%08x",
             p.roots, p.max_depth, p.units, p.iters, (unsigned long long)c->seed, w->ref.tasks,
             w->ref.max_depth_seen, w->ref.checksum);
    return w;
}

static int ws_plain(void *st, app_cl *c, const app_plain_args *a, app_plain_result *res, char *msg, size_t msg_len)
{
    ws_state *w = st;
    app_ws_result r;
    app_cl_launch l = app_plain_launch(a);
    app_cl_times t;
    if (app_ws_plain_run(c, &w->p, &l, &r, &t, msg, msg_len))
        return -1;
    res->ms = t.ms;
    res->device_ms = t.device_ms;
    res->launches = 1;
    if (w->skip_reference)
        return APP_UNCHECKED;
    return app_ws_check(&r, &w->ref, msg, msg_len) ? 1 : 0;
}

static int ws_setup(void *st, ck_context *ctx, unsigned max_groups, char *err, size_t err_len)
{
    ws_state *w = st;
    return app_ws_coop_setup(ctx, &w->p, max_groups, &w->coop, err, err_len);
}

static int ws_start(void *st, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    ws_state *w = st;
    return app_ws_coop_start(w->coop, groups, out, err, err_len);
}

static int ws_coop_check(void *st, char *msg, size_t msg_len)
{
    ws_state *w = st;
    app_ws_result r;
    if (app_ws_coop_read(w->coop, &r, msg, msg_len))
        return -1;
    if (w->skip_reference)
        return APP_UNCHECKED;
    return app_ws_check(&r, &w->ref, msg, msg_len) ? 1 : 0;
}

static void ws_teardown(void *st)
{
    ws_state *w = st;
    app_ws_coop_free(w->coop);
    w->coop = NULL;
}

static void ws_corrupt(void *st) { ((ws_state *)st)->ref.checksum ^= 1u; }

const app_module app_module_ws = {
    .name = "ws",
    .alias = "workstealing",
    .summary = "work stealing over an unbalanced task tree (UTS-like)",
    .flags = 0,
    .coop_file = APP_WS_FILE,
    .coop_kernel = APP_WS_KERNEL,
    .work_unit = "hash rounds",
    .defaults = ws_defaults,
    .test_config = ws_test_config,
    .test_variants = 1,
    .reference_work = ws_reference_work,
    .create = ws_create,
    .destroy = ws_destroy,
    .plain = ws_plain,
    .coop_setup = ws_setup,
    .coop_start = ws_start,
    .coop_check = ws_coop_check,
    .coop_teardown = ws_teardown,
    .corrupt_reference = ws_corrupt,
};
