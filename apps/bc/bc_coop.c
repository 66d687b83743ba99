/* apps/bc/bc_coop.c: host side of the cooperative bc: its buffers in the
 * runtime's arena, the per-launch reset and the bc_coop launch (see bc.h). */
#include "bc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct app_bc_coop {
    ck_context *ctx;
    int32_t n;
    ck_buffer row, col, level, sigma, delta, bc, flags;
    float *zeros; /* n zeros: bc at launch */
};

static int ck_fail_msg(const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s", what, ck_last_error());
    return -1;
}

int app_bc_coop_setup(ck_context *ctx, const app_csr *g, app_bc_coop **out, char *err, size_t err_len)
{
    *out = NULL;
    app_bc_coop *b = calloc(1, sizeof *b);
    size_t n = (size_t)(g->n ? g->n : 1), m = (size_t)(g->m ? g->m : 1);
    if (b)
        b->zeros = calloc(n, sizeof *b->zeros);
    if (!b || !b->zeros) {
        free(b);
        snprintf(err, err_len, "cooperative bc: out of host memory");
        return -1;
    }
    b->ctx = ctx;
    b->n = g->n;
    if (ck_buffer_alloc(ctx, (n + 1) * 4, &b->row) != CK_OK || ck_buffer_alloc(ctx, m * 4, &b->col) != CK_OK ||
        ck_buffer_alloc(ctx, n * 4, &b->level) != CK_OK || ck_buffer_alloc(ctx, n * 4, &b->sigma) != CK_OK ||
        ck_buffer_alloc(ctx, n * 4, &b->delta) != CK_OK || ck_buffer_alloc(ctx, n * 4, &b->bc) != CK_OK ||
        ck_buffer_alloc(ctx, 3 * 4, &b->flags) != CK_OK) {
        ck_fail_msg("cooperative bc: allocating buffers in the arena (raise --arena-mb?)", err, err_len);
        app_bc_coop_free(b);
        return -1;
    }
    if (ck_buffer_write(ctx, b->row, 0, g->row, ((size_t)g->n + 1) * 4) != CK_OK ||
        (g->m && ck_buffer_write(ctx, b->col, 0, g->col, (size_t)g->m * 4) != CK_OK)) {
        ck_fail_msg("cooperative bc: uploading the graph", err, err_len);
        app_bc_coop_free(b);
        return -1;
    }
    *out = b;
    return 0;
}

int app_bc_coop_start(app_bc_coop *b, int32_t sources, unsigned groups, ck_launch **out, char *err,
                      size_t err_len)
{
    *out = NULL;
    if (sources < 1 || sources > b->n) {
        snprintf(err, err_len, "cooperative bc: %d sources, the graph has %d nodes", sources, b->n);
        return -1;
    }
    static const int32_t no_flags[3] = {0, 0, 0}; /* bc_coop.cl: each source starts with zero flags */
    if (ck_buffer_write(b->ctx, b->bc, 0, b->zeros, (size_t)b->n * 4) != CK_OK ||
        ck_buffer_write(b->ctx, b->flags, 0, no_flags, sizeof no_flags) != CK_OK)
        return ck_fail_msg("cooperative bc: zeroing bc and the flags", err, err_len);
    ck_arg args[] = {ck_arg_buffer(b->row),   ck_arg_buffer(b->col),   ck_arg_int(b->n),
                     ck_arg_int(sources),     ck_arg_buffer(b->level), ck_arg_buffer(b->sigma),
                     ck_arg_buffer(b->delta), ck_arg_buffer(b->bc),    ck_arg_buffer(b->flags),
                     ck_arg_null()};
    if (ck_launch_kernel(b->ctx, APP_BC_COOP_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK)
        return ck_fail_msg("launching bc_coop", err, err_len);
    return 0;
}

int app_bc_coop_read(app_bc_coop *b, float *bc, char *err, size_t err_len)
{
    if (ck_buffer_read(b->ctx, b->bc, 0, bc, (size_t)b->n * 4) != CK_OK)
        return ck_fail_msg("cooperative bc: reading bc", err, err_len);
    return 0;
}

void app_bc_coop_free(app_bc_coop *b)
{
    if (!b)
        return;
    ck_buffer *all[] = {&b->row, &b->col, &b->level, &b->sigma, &b->delta, &b->bc, &b->flags};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i]->size)
            ck_buffer_free(b->ctx, *all[i]);
    free(b->zeros);
    free(b);
}
