/* apps/mis/mis_coop.c: host side of the cooperative independent set: its
 * buffers in the runtime's arena, the per-launch reset and the mis_coop
 * launch (see mis.h). */
#include "mis.h"

#include <stdio.h>
#include <stdlib.h>

struct app_mis_coop {
    ck_context *ctx;
    int32_t n;
    ck_buffer row, col, value, status, upd, min_d, stop;
    int32_t *init; /* -1 everywhere: statuses and marks */
};

static int ck_fail_msg(const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s", what, ck_last_error());
    return -1;
}

int app_mis_coop_setup(ck_context *ctx, const app_csr *g, app_mis_coop **out, char *err, size_t err_len)
{
    *out = NULL;
    size_t n = (size_t)g->n, m = (size_t)(g->m ? g->m : 1), n1 = n ? n : 1;
    app_mis_coop *b = calloc(1, sizeof *b);
    if (b)
        b->init = malloc(n1 * sizeof *b->init);
    if (!b || !b->init) {
        free(b);
        snprintf(err, err_len, "cooperative independent set: out of host memory");
        return -1;
    }
    b->ctx = ctx;
    b->n = g->n;
    if (ck_buffer_alloc(ctx, (n + 1) * 4, &b->row) != CK_OK || ck_buffer_alloc(ctx, m * 4, &b->col) != CK_OK ||
        ck_buffer_alloc(ctx, n1 * 4, &b->value) != CK_OK || ck_buffer_alloc(ctx, n1 * 4, &b->status) != CK_OK ||
        ck_buffer_alloc(ctx, n1 * 4, &b->upd) != CK_OK || ck_buffer_alloc(ctx, n1 * 4, &b->min_d) != CK_OK ||
        ck_buffer_alloc(ctx, 4, &b->stop) != CK_OK) {
        ck_fail_msg("cooperative independent set: allocating buffers in the arena (raise --arena-mb?)", err, err_len);
        app_mis_coop_free(b);
        return -1;
    }
    for (size_t v = 0; v < n; ++v)
        b->init[v] = (int32_t)v; /* the priorities first */
    if (ck_buffer_write(ctx, b->row, 0, g->row, (n + 1) * 4) != CK_OK ||
        (g->m && ck_buffer_write(ctx, b->col, 0, g->col, (size_t)g->m * 4) != CK_OK) ||
        (n && ck_buffer_write(ctx, b->value, 0, b->init, n * 4) != CK_OK)) {
        ck_fail_msg("cooperative independent set: uploading the graph", err, err_len);
        app_mis_coop_free(b);
        return -1;
    }
    for (size_t v = 0; v < n; ++v)
        b->init[v] = -1;
    *out = b;
    return 0;
}

int app_mis_coop_start(app_mis_coop *b, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    *out = NULL;
    int32_t stop = 0;
    if ((b->n && (ck_buffer_write(b->ctx, b->status, 0, b->init, (size_t)b->n * 4) != CK_OK ||
                  ck_buffer_write(b->ctx, b->upd, 0, b->init, (size_t)b->n * 4) != CK_OK)) ||
        ck_buffer_write(b->ctx, b->stop, 0, &stop, sizeof stop) != CK_OK)
        return ck_fail_msg("cooperative independent set: resetting statuses, marks and the stop flag", err, err_len);
    ck_arg args[] = {ck_arg_buffer(b->row),    ck_arg_buffer(b->col), ck_arg_buffer(b->value),
                     ck_arg_buffer(b->status), ck_arg_buffer(b->upd), ck_arg_buffer(b->min_d),
                     ck_arg_buffer(b->stop),   ck_arg_int(b->n),      ck_arg_null()};
    if (ck_launch_kernel(b->ctx, APP_MIS_COOP_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK)
        return ck_fail_msg("launching mis_coop", err, err_len);
    return 0;
}

int app_mis_coop_read(app_mis_coop *b, int32_t *status, char *err, size_t err_len)
{
    if (b->n && ck_buffer_read(b->ctx, b->status, 0, status, (size_t)b->n * 4) != CK_OK)
        return ck_fail_msg("cooperative independent set: reading the statuses", err, err_len);
    return 0;
}

void app_mis_coop_free(app_mis_coop *b)
{
    if (!b)
        return;
    ck_buffer *all[] = {&b->row, &b->col, &b->value, &b->status, &b->upd, &b->min_d, &b->stop};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i]->size)
            ck_buffer_free(b->ctx, *all[i]);
    free(b->init);
    free(b);
}
