/* apps/worklist/wl_coop.c: host side of the cooperative worklist skeleton:
 * its buffers in the runtime's arena, the per-launch reset and the
 * worklist_coop launch (see wl.h). */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Local scratch asked of the pool: the runtime's default pool (8 KiB) holds
 * the arrays of work-groups up to 511 items. */
#define WL_COOP_LOCAL_BYTES 8192

struct app_wl_coop {
    ck_context *ctx;
    app_wl_mode mode;
    int32_t n, cap;
    ck_buffer row, col, w, dist, wl0, wl1, ctl;
    int32_t *init; /* the initial values without a source */
};

static int ck_fail_msg(const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s", what, ck_last_error());
    return -1;
}

int app_wl_coop_setup(ck_context *ctx, const app_csr *g, app_wl_mode mode, app_wl_coop **out, char *err,
                      size_t err_len)
{
    *out = NULL;
    if (mode == APP_WL_SSSP && g->m && !g->w) {
        snprintf(err, err_len, "cooperative worklist SSSP: the graph has no weights");
        return -1;
    }
    int64_t cap = app_wl_capacity(g, mode, err, err_len);
    if (cap < 0)
        return -1;
    app_wl_coop *b = calloc(1, sizeof *b);
    if (b)
        b->init = malloc((size_t)g->n * sizeof *b->init);
    if (!b || !b->init) {
        free(b);
        snprintf(err, err_len, "cooperative worklist: out of host memory");
        return -1;
    }
    b->ctx = ctx;
    b->mode = mode;
    b->n = g->n;
    b->cap = (int32_t)cap;
    app_wl_init_values(mode, g->n, -1, b->init);
    size_t n = (size_t)g->n, m = (size_t)(g->m ? g->m : 1), c = (size_t)cap;
    if (ck_buffer_alloc(ctx, (n + 1) * 4, &b->row) != CK_OK || ck_buffer_alloc(ctx, m * 4, &b->col) != CK_OK ||
        (mode == APP_WL_SSSP && ck_buffer_alloc(ctx, m * 4, &b->w) != CK_OK) ||
        ck_buffer_alloc(ctx, n * 4, &b->dist) != CK_OK || ck_buffer_alloc(ctx, c * 4, &b->wl0) != CK_OK ||
        ck_buffer_alloc(ctx, c * 4, &b->wl1) != CK_OK || ck_buffer_alloc(ctx, 4 * 4, &b->ctl) != CK_OK) {
        ck_fail_msg("cooperative worklist: allocating buffers in the arena (raise --arena-mb?)", err, err_len);
        app_wl_coop_free(b);
        return -1;
    }
    if (ck_buffer_write(ctx, b->row, 0, g->row, (n + 1) * 4) != CK_OK ||
        (g->m && ck_buffer_write(ctx, b->col, 0, g->col, (size_t)g->m * 4) != CK_OK) ||
        (g->m && mode == APP_WL_SSSP && ck_buffer_write(ctx, b->w, 0, g->w, (size_t)g->m * 4) != CK_OK)) {
        ck_fail_msg("cooperative worklist: uploading the graph", err, err_len);
        app_wl_coop_free(b);
        return -1;
    }
    *out = b;
    return 0;
}

int app_wl_coop_start(app_wl_coop *b, int32_t source, unsigned groups, ck_launch **out, char *err,
                      size_t err_len)
{
    *out = NULL;
    if (source < 0 || source >= b->n) {
        snprintf(err, err_len, "cooperative worklist: source %d outside 0..%d", source, b->n - 1);
        return -1;
    }
    int32_t zero = 0, ctl[4] = {1, 0, 0, 0};
    if (ck_buffer_write(b->ctx, b->dist, 0, b->init, (size_t)b->n * 4) != CK_OK ||
        ck_buffer_write(b->ctx, b->dist, (size_t)source * 4, &zero, 4) != CK_OK ||
        ck_buffer_write(b->ctx, b->wl0, 0, &source, 4) != CK_OK ||
        ck_buffer_write(b->ctx, b->ctl, 0, ctl, sizeof ctl) != CK_OK)
        return ck_fail_msg("cooperative worklist: resetting values and worklists", err, err_len);
    ck_arg args[] = {ck_arg_buffer(b->row),
                     ck_arg_buffer(b->col),
                     b->mode == APP_WL_SSSP ? ck_arg_buffer(b->w) : ck_arg_null(),
                     ck_arg_buffer(b->dist),
                     ck_arg_buffer(b->wl0),
                     ck_arg_buffer(b->wl1),
                     ck_arg_buffer(b->ctl),
                     ck_arg_int(b->cap),
                     ck_arg_int((int32_t)b->mode),
                     ck_arg_local(WL_COOP_LOCAL_BYTES),
                     ck_arg_int(WL_COOP_LOCAL_BYTES / 4),
                     ck_arg_null()};
    if (ck_launch_kernel(b->ctx, APP_WL_COOP_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK)
        return ck_fail_msg("launching " APP_WL_COOP_KERNEL, err, err_len);
    return 0;
}

int app_wl_coop_read(app_wl_coop *b, int32_t *values, int32_t *iterations, char *err, size_t err_len)
{
    int32_t ctl[4];
    if (ck_buffer_read(b->ctx, b->ctl, 0, ctl, sizeof ctl) != CK_OK)
        return ck_fail_msg("cooperative worklist: reading the worklist sizes", err, err_len);
    if (ctl[2] || ctl[0] > b->cap || ctl[1] > b->cap) {
        snprintf(err, err_len, "cooperative worklist overflow after %d iterations: capacity %d", ctl[3], b->cap);
        return -1;
    }
    if (ctl[3] < 0) {
        snprintf(err, err_len, "cooperative worklist: the megakernel's work-group size needs more than %d bytes "
                 "of local scratch (4 ints per work-item + 16)", WL_COOP_LOCAL_BYTES);
        return -1;
    }
    if (iterations)
        *iterations = ctl[3];
    if (ck_buffer_read(b->ctx, b->dist, 0, values, (size_t)b->n * 4) != CK_OK)
        return ck_fail_msg("cooperative worklist: reading the values", err, err_len);
    return 0;
}

void app_wl_coop_free(app_wl_coop *b)
{
    if (!b)
        return;
    ck_buffer *all[] = {&b->row, &b->col, &b->w, &b->dist, &b->wl0, &b->wl1, &b->ctl};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i]->size)
            ck_buffer_free(b->ctx, *all[i]);
    free(b->init);
    free(b);
}
