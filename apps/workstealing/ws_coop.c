/* apps/workstealing/ws_coop.c: host side of the cooperative work stealing:
 * queue and counter buffers in the runtime's arena, the per-launch reset and
 * the ws_coop launch (see ws.h). */
#include "ws_queues.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct app_ws_coop {
    ck_context *ctx;
    app_ws_params p;
    unsigned max_groups;
    uint32_t nq;         /* queues of the last launch */
    ck_buffer qmeta, qtasks, ctr;
};

static int ck_fail_msg(const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s", what, ck_last_error());
    return -1;
}

int app_ws_coop_setup(ck_context *ctx, const app_ws_params *p, unsigned max_groups, app_ws_coop **out, char *err,
                      size_t err_len)
{
    *out = NULL;
    if (max_groups == 0) {
        snprintf(err, err_len, "cooperative work stealing: max_groups must be at least 1");
        return -1;
    }
    app_ws_coop *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, err_len, "cooperative work stealing: out of host memory");
        return -1;
    }
    w->ctx = ctx;
    w->p = *p;
    w->max_groups = max_groups;
    /* The capacity shrinks as nq grows, so sizing for one queue per group
     * at every count <= max_groups needs the largest nq * cap product. */
    size_t most = 0;
    for (uint32_t nq = 1; nq <= max_groups; ++nq) {
        size_t t = (size_t)nq * app_ws_capacity(p, nq);
        most = t > most ? t : most;
    }
    if (ck_buffer_alloc(ctx, (size_t)max_groups * APP_WS_QSTRIDE * 4, &w->qmeta) != CK_OK ||
        ck_buffer_alloc(ctx, most * 8, &w->qtasks) != CK_OK ||
        ck_buffer_alloc(ctx, APP_WS_COUNTERS * 4, &w->ctr) != CK_OK) {
        ck_fail_msg("cooperative work stealing: allocating queues in the arena", err, err_len);
        app_ws_coop_free(w);
        return -1;
    }
    *out = w;
    return 0;
}

int app_ws_coop_start(app_ws_coop *w, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    *out = NULL;
    if (groups == 0 || groups > w->max_groups) {
        snprintf(err, err_len, "cooperative work stealing: %u groups asked, buffers sized for 1..%u", groups,
                 w->max_groups);
        return -1;
    }
    uint32_t nq = groups, cap = app_ws_capacity(&w->p, nq);
    uint32_t *qmeta, *qtasks, ctr[APP_WS_COUNTERS];
    if (app_ws_initial_state(&w->p, nq, cap, &qmeta, &qtasks)) {
        snprintf(err, err_len, "cooperative work stealing: out of host memory");
        return -1;
    }
    app_ws_initial_counters(&w->p, ctr);
    ck_status s = ck_buffer_write(w->ctx, w->qmeta, 0, qmeta, (size_t)nq * APP_WS_QSTRIDE * 4);
    if (s == CK_OK)
        s = ck_buffer_write(w->ctx, w->qtasks, 0, qtasks, (size_t)nq * cap * 8);
    if (s == CK_OK)
        s = ck_buffer_write(w->ctx, w->ctr, 0, ctr, sizeof ctr);
    free(qmeta);
    free(qtasks);
    if (s != CK_OK)
        return ck_fail_msg("cooperative work stealing: resetting queues", err, err_len);
    w->nq = nq;
    ck_arg args[] = {ck_arg_buffer(w->qmeta),  ck_arg_buffer(w->qtasks),   ck_arg_buffer(w->ctr),
                     ck_arg_uint(nq),          ck_arg_uint(cap),           ck_arg_uint(w->p.max_depth),
                     ck_arg_uint(w->p.units),  ck_arg_uint(w->p.iters)};
    if (ck_launch_kernel(w->ctx, APP_WS_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK)
        return ck_fail_msg("launching ws_coop", err, err_len);
    return 0;
}

int app_ws_coop_read(app_ws_coop *w, app_ws_result *out, char *err, size_t err_len)
{
    uint32_t ctr[APP_WS_COUNTERS];
    uint32_t *qmeta = malloc((size_t)w->nq * APP_WS_QSTRIDE * 4);
    if (!qmeta) {
        snprintf(err, err_len, "cooperative work stealing: out of host memory");
        return -1;
    }
    if (ck_buffer_read(w->ctx, w->ctr, 0, ctr, sizeof ctr) != CK_OK ||
        ck_buffer_read(w->ctx, w->qmeta, 0, qmeta, (size_t)w->nq * APP_WS_QSTRIDE * 4) != CK_OK) {
        free(qmeta);
        return ck_fail_msg("cooperative work stealing: reading counters", err, err_len);
    }
    app_ws_decode(ctr, qmeta, w->nq, out);
    free(qmeta);
    return 0;
}

void app_ws_coop_free(app_ws_coop *w)
{
    if (!w)
        return;
    if (w->qmeta.size)
        ck_buffer_free(w->ctx, w->qmeta);
    if (w->qtasks.size)
        ck_buffer_free(w->ctx, w->qtasks);
    if (w->ctr.size)
        ck_buffer_free(w->ctx, w->ctr);
    free(w);
}
