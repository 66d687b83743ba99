/* apps/bfs/bfs_coop.c: host side of the cooperative BFS: its buffers in the
 * runtime's arena, the per-launch reset and the bfs_coop launch (see bfs.h). */
#include "bfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct app_bfs_coop {
    ck_context *ctx;
    int32_t n;
    ck_buffer row, col, levels, f0, f1, sizes;
    int32_t *init_levels; /* -1 everywhere: copied, then the source set to 0 */
};

static int ck_fail_msg(const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s", what, ck_last_error());
    return -1;
}

int app_bfs_coop_setup(ck_context *ctx, const app_csr *g, app_bfs_coop **out, char *err, size_t err_len)
{
    *out = NULL;
    app_bfs_coop *b = calloc(1, sizeof *b);
    if (b)
        b->init_levels = malloc((size_t)g->n * sizeof *b->init_levels);
    if (!b || !b->init_levels) {
        if (b)
            free(b);
        snprintf(err, err_len, "cooperative BFS: out of host memory");
        return -1;
    }
    b->ctx = ctx;
    b->n = g->n;
    for (int32_t v = 0; v < g->n; ++v)
        b->init_levels[v] = -1;
    size_t n = (size_t)g->n, m = (size_t)(g->m ? g->m : 1);
    if (ck_buffer_alloc(ctx, (n + 1) * 4, &b->row) != CK_OK || ck_buffer_alloc(ctx, m * 4, &b->col) != CK_OK ||
        ck_buffer_alloc(ctx, n * 4, &b->levels) != CK_OK || ck_buffer_alloc(ctx, n * 4, &b->f0) != CK_OK ||
        ck_buffer_alloc(ctx, n * 4, &b->f1) != CK_OK || ck_buffer_alloc(ctx, 2 * 4, &b->sizes) != CK_OK) {
        ck_fail_msg("cooperative BFS: allocating buffers in the arena (raise --arena-mb?)", err, err_len);
        app_bfs_coop_free(b);
        return -1;
    }
    if (ck_buffer_write(ctx, b->row, 0, g->row, (n + 1) * 4) != CK_OK ||
        (g->m && ck_buffer_write(ctx, b->col, 0, g->col, (size_t)g->m * 4) != CK_OK)) {
        ck_fail_msg("cooperative BFS: uploading the graph", err, err_len);
        app_bfs_coop_free(b);
        return -1;
    }
    *out = b;
    return 0;
}

int app_bfs_coop_start(app_bfs_coop *b, int32_t source, unsigned groups, ck_launch **out, char *err,
                       size_t err_len)
{
    *out = NULL;
    if (source < 0 || source >= b->n) {
        snprintf(err, err_len, "cooperative BFS: source %d outside 0..%d", source, b->n - 1);
        return -1;
    }
    int32_t zero = 0, sizes[2] = {1, 0};
    if (ck_buffer_write(b->ctx, b->levels, 0, b->init_levels, (size_t)b->n * 4) != CK_OK ||
        ck_buffer_write(b->ctx, b->levels, (size_t)source * 4, &zero, 4) != CK_OK ||
        ck_buffer_write(b->ctx, b->f0, 0, &source, 4) != CK_OK ||
        ck_buffer_write(b->ctx, b->sizes, 0, sizes, sizeof sizes) != CK_OK)
        return ck_fail_msg("cooperative BFS: resetting levels and frontiers", err, err_len);
    ck_arg args[] = {ck_arg_buffer(b->row), ck_arg_buffer(b->col), ck_arg_buffer(b->levels),
                     ck_arg_buffer(b->f0),  ck_arg_buffer(b->f1),  ck_arg_buffer(b->sizes),
                     ck_arg_null()};
    if (ck_launch_kernel(b->ctx, APP_BFS_COOP_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK)
        return ck_fail_msg("launching bfs_coop", err, err_len);
    return 0;
}

int app_bfs_coop_read(app_bfs_coop *b, int32_t *levels, char *err, size_t err_len)
{
    if (ck_buffer_read(b->ctx, b->levels, 0, levels, (size_t)b->n * 4) != CK_OK)
        return ck_fail_msg("cooperative BFS: reading the levels", err, err_len);
    return 0;
}

void app_bfs_coop_free(app_bfs_coop *b)
{
    if (!b)
        return;
    ck_buffer *all[] = {&b->row, &b->col, &b->levels, &b->f0, &b->f1, &b->sizes};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i]->size)
            ck_buffer_free(b->ctx, *all[i]);
    free(b->init_levels);
    free(b);
}
