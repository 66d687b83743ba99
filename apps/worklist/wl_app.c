/* apps/worklist/wl_app.c: the worklist skeleton's buffers and kernels for
 * the graph skeleton, its multi-launch loop and overflow checks, shared by
 * bfs-wl and l-sssp (see wl_app.h). */
#include "wl_app.h"

#include "timer.h"

#include <stdio.h>
#include <string.h>

/* Local scratch asked of the pool: the runtime's default pool (8 KiB) holds
 * the arrays of work-groups up to 511 items. */
#define WL_COOP_LOCAL_BYTES 8192

/* Buffers after the graph's (row, col and in SSSP mode w). */
enum { WL_DIST, WL_WL0, WL_WL1, WL_CTL };

static size_t wl_plain_local(size_t wg) { return app_wl_local_ints(wg) * 4; }

int32_t app_wl_pick_source(const app_config *c, const app_csr *g)
{
    if (c->source >= 0)
        return c->source < g->n ? c->source : -1;
    return c->graph && !strcmp(c->graph, "grid") ? 0 : app_csr_max_degree_node(g);
}

int app_wl_spec(app_gapp *a, const app_config *c, app_wl_mode mode, char *err, size_t err_len)
{
    const app_csr *g = a->g;
    a->source = g->n > 0 ? app_wl_pick_source(c, g) : -1;
    if (a->source < 0) {
        snprintf(err, err_len, "%s: source %d outside the graph's nodes 0..%d", a->spec.what, c->source, g->n - 1);
        return -1;
    }
    int32_t *values = app_gapp_host(a, 0, (size_t)g->n * 4), *front = app_gapp_host(a, 1, 4),
            *ctl = app_gapp_host(a, 2, 16);
    if (!values || !front || !ctl) {
        snprintf(err, err_len, "%s: out of host memory for %d nodes", a->spec.what, g->n);
        return -1;
    }
    app_wl_init_values(mode, g->n, a->source, values);
    front[0] = a->source;
    ctl[0] = 1;
    ctl[1] = ctl[2] = ctl[3] = 0;
    int sssp = mode == APP_WL_SSSP;
    app_gk_spec *s = &a->spec;
    app_gapp_csr(a, sssp);
    unsigned char b = (unsigned char)s->nbuf; /* the first buffer after the graph's */
    app_gapp_nodes(a, values, APP_GK_EACH, "values", NULL);
    app_gapp_buf(a, "worklist 0", 0, front, APP_GK_EACH); /* sized by app_wl_prepare */
    s->buf[b + WL_WL0].init_bytes = 4;                    /* the source */
    app_gapp_buf(a, "worklist 1", 0, NULL, APP_GK_KEEP);
    app_gapp_buf(a, "worklist sizes", 16, ctl, APP_GK_EACH);
    s->ints[1] = (int32_t)mode;
    app_gk_arg w = sssp ? (app_gk_arg)APP_GK_B(2) : (app_gk_arg)APP_GK_NUL;
    s->coop_file = APP_WL_FILE;
    s->coop = (app_gk_kernel){APP_WL_COOP_KERNEL,
                              12,
                              {APP_GK_B(0), APP_GK_B(1), w, APP_GK_B(b + WL_DIST), APP_GK_B(b + WL_WL0),
                               APP_GK_B(b + WL_WL1), APP_GK_B(b + WL_CTL), APP_GK_I(0), APP_GK_I(1), APP_GK_LM,
                               APP_GK_LM_INTS, APP_GK_BAR}};
    /* in, n_in, out and level are app_wl_multi's */
    s->plain_file = APP_WL_FILE;
    s->nplain = 1;
    s->plain[0] = (app_gk_kernel){APP_WL_STEP_KERNEL,
                                  12,
                                  {APP_GK_B(0), APP_GK_B(1), w, APP_GK_B(b + WL_DIST), APP_GK_B(b + WL_WL0),
                                   APP_GK_I(0), APP_GK_B(b + WL_WL1), APP_GK_B(b + WL_CTL), APP_GK_I(0), APP_GK_I(1),
                                   APP_GK_I(0), APP_GK_LM}};
    s->plain_local = wl_plain_local;
    s->coop_local = WL_COOP_LOCAL_BYTES;
    s->result = b + WL_DIST;
    s->result_bytes = (size_t)g->n * 4;
    return 0;
}

int app_wl_prepare(app_gapp *a, char *err, size_t err_len)
{
    app_gk_spec *s = &a->spec;
    size_t b = s->result - WL_DIST;
    int64_t cap = app_wl_capacity(a->g, (app_wl_mode)s->ints[1], err, err_len);
    if (cap < 0)
        return -1;
    s->buf[b + WL_WL0].bytes = s->buf[b + WL_WL1].bytes = (size_t)cap * 4;
    s->ints[0] = (int32_t)cap;
    return 0;
}

/* One worklist_step launch per iteration: the host zeroes the out-list's
 * size, reads the sizes back (a blocking read per iteration, as a user's
 * multi-launch version does; each launch ends by itself, so the deadline is
 * checked in between) and swaps the lists. */
int app_wl_multi(app_gapp *a, app_gk_plain *p, double deadline_ms, int32_t *launches, char *err, size_t err_len)
{
    static const size_t step[] = {0};
    size_t b = a->spec.result - WL_DIST, in = b + WL_WL0, out = b + WL_WL1;
    int32_t n_in = 1, iter = 0, cap = a->spec.ints[0], ctl[4];
    while (n_in > 0) {
        size_t global = ((size_t)n_in + p->wg - 1) / p->wg * p->wg;
        if (app_gk_set_buf(p, 0, 4, in, err, err_len) || app_gk_set_int(p, 0, 5, n_in, err, err_len) ||
            app_gk_set_buf(p, 0, 6, out, err, err_len) || app_gk_set_int(p, 0, 10, iter, err, err_len) ||
            app_gk_round(p, b + WL_CTL, step, 1, global, ctl, sizeof ctl, err, err_len))
            return -1;
        ++iter;
        if (ctl[2] || ctl[0] > cap || ctl[0] < 0) {
            snprintf(err, err_len, "worklist overflow in iteration %d: %d pushes, capacity %d", iter, ctl[0], cap);
            return -1;
        }
        if (app_now_ms() > deadline_ms)
            return app_gk_timeout(p, iter, "iterations", err, err_len);
        n_in = ctl[0];
        size_t t = in;
        in = out;
        out = t;
    }
    *launches = iter;
    return 0;
}

int app_wl_after(app_gapp *a, app_gk_plain *p, char *err, size_t err_len)
{
    int32_t ctl[4], cap = a->spec.ints[0];
    if (app_gapp_read(a, p, a->spec.result - WL_DIST + WL_CTL, ctl, sizeof ctl, err, err_len))
        return -1;
    if (ctl[2] || ctl[0] > cap || ctl[1] > cap) {
        snprintf(err, err_len, "%sworklist overflow after %d iterations: capacity %d", p ? "" : "cooperative ",
                 ctl[3], cap);
        return -1;
    }
    if (ctl[3] >= 0)
        return 0;
    if (p)
        snprintf(err, err_len, "work-group size %zu: the kernel found too little local scratch", p->wg);
    else
        snprintf(err, err_len,
                 "cooperative worklist: the megakernel's work-group size needs more than %d bytes "
                 "of local scratch (4 ints per work-item + 16)",
                 WL_COOP_LOCAL_BYTES);
    return -1;
}

void app_wl_test_config(app_config *c, unsigned variant)
{
    c->graph = variant % 2 ? "grid" : "rmat";
    c->scale = variant % 2 ? 6 : 9;
}
