/* apps/color/color_coop.c: host side of the cooperative colouring: its
 * buffers in the runtime's arena, the per-launch reset and the color_coop
 * launch (see color.h). */
#include "color.h"

#include <stdio.h>
#include <stdlib.h>

struct app_color_coop {
    ck_context *ctx;
    int32_t n;
    ck_buffer row, col, value, colors, max_d, stops;
    int32_t *init_colors; /* -1 everywhere */
};

static int ck_fail_msg(const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s", what, ck_last_error());
    return -1;
}

int app_color_coop_setup(ck_context *ctx, const app_csr *g, app_color_coop **out, char *err, size_t err_len)
{
    *out = NULL;
    size_t n = (size_t)g->n, m = (size_t)(g->m ? g->m : 1), n1 = n ? n : 1;
    app_color_coop *b = calloc(1, sizeof *b);
    if (b)
        b->init_colors = malloc(n1 * sizeof *b->init_colors);
    if (!b || !b->init_colors) {
        free(b);
        snprintf(err, err_len, "cooperative colouring: out of host memory");
        return -1;
    }
    b->ctx = ctx;
    b->n = g->n;
    if (ck_buffer_alloc(ctx, (n + 1) * 4, &b->row) != CK_OK || ck_buffer_alloc(ctx, m * 4, &b->col) != CK_OK ||
        ck_buffer_alloc(ctx, n1 * 4, &b->value) != CK_OK || ck_buffer_alloc(ctx, n1 * 4, &b->colors) != CK_OK ||
        ck_buffer_alloc(ctx, n1 * 4, &b->max_d) != CK_OK || ck_buffer_alloc(ctx, 2 * 4, &b->stops) != CK_OK) {
        ck_fail_msg("cooperative colouring: allocating buffers in the arena (raise --arena-mb?)", err, err_len);
        app_color_coop_free(b);
        return -1;
    }
    for (size_t v = 0; v < n; ++v)
        b->init_colors[v] = (int32_t)v; /* the priorities first */
    if (ck_buffer_write(ctx, b->row, 0, g->row, (n + 1) * 4) != CK_OK ||
        (g->m && ck_buffer_write(ctx, b->col, 0, g->col, (size_t)g->m * 4) != CK_OK) ||
        (n && ck_buffer_write(ctx, b->value, 0, b->init_colors, n * 4) != CK_OK)) {
        ck_fail_msg("cooperative colouring: uploading the graph", err, err_len);
        app_color_coop_free(b);
        return -1;
    }
    for (size_t v = 0; v < n; ++v)
        b->init_colors[v] = -1;
    *out = b;
    return 0;
}

int app_color_coop_start(app_color_coop *b, unsigned groups, ck_launch **out, char *err, size_t err_len)
{
    *out = NULL;
    int32_t stops[2] = {0, 0};
    if ((b->n && ck_buffer_write(b->ctx, b->colors, 0, b->init_colors, (size_t)b->n * 4) != CK_OK) ||
        ck_buffer_write(b->ctx, b->stops, 0, stops, sizeof stops) != CK_OK)
        return ck_fail_msg("cooperative colouring: resetting colours and stop flags", err, err_len);
    ck_arg args[] = {ck_arg_buffer(b->row),    ck_arg_buffer(b->col),   ck_arg_buffer(b->value),
                     ck_arg_buffer(b->colors), ck_arg_buffer(b->max_d), ck_arg_buffer(b->stops),
                     ck_arg_int(b->n),         ck_arg_null()};
    if (ck_launch_kernel(b->ctx, APP_COLOR_COOP_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK)
        return ck_fail_msg("launching color_coop", err, err_len);
    return 0;
}

int app_color_coop_read(app_color_coop *b, int32_t *colors, char *err, size_t err_len)
{
    if (b->n && ck_buffer_read(b->ctx, b->colors, 0, colors, (size_t)b->n * 4) != CK_OK)
        return ck_fail_msg("cooperative colouring: reading the colours", err, err_len);
    return 0;
}

void app_color_coop_free(app_color_coop *b)
{
    if (!b)
        return;
    ck_buffer *all[] = {&b->row, &b->col, &b->value, &b->colors, &b->max_d, &b->stops};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i]->size)
            ck_buffer_free(b->ctx, *all[i]);
    free(b->init_colors);
    free(b);
}
