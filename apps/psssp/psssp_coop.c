/* apps/psssp/psssp_coop.c: host side of the cooperative p-sssp: its buffers
 * in the runtime's arena, the per-launch reset and the psssp_coop launch
 * (see psssp.h). */
#include "psssp.h"
#include "sssp_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct app_psssp_coop {
    ck_context *ctx;
    int32_t n;
    ck_buffer row, col, w, dist, dist_old, flags;
    int32_t *init_dist; /* APP_SSSP_INF everywhere: copied, then the source set to 0 */
};

static int ck_fail_msg(const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s", what, ck_last_error());
    return -1;
}

int app_psssp_coop_setup(ck_context *ctx, const app_csr *g, app_psssp_coop **out, char *err, size_t err_len)
{
    *out = NULL;
    if (!g->w) {
        snprintf(err, err_len, "cooperative p-sssp: the graph has no weights");
        return -1;
    }
    app_psssp_coop *p = calloc(1, sizeof *p);
    if (p)
        p->init_dist = malloc((size_t)(g->n ? g->n : 1) * sizeof *p->init_dist);
    if (!p || !p->init_dist) {
        free(p);
        snprintf(err, err_len, "cooperative p-sssp: out of host memory");
        return -1;
    }
    p->ctx = ctx;
    p->n = g->n;
    for (int32_t v = 0; v < g->n; ++v)
        p->init_dist[v] = APP_SSSP_INF;
    size_t n = (size_t)(g->n ? g->n : 1), m = (size_t)(g->m ? g->m : 1);
    if (ck_buffer_alloc(ctx, (n + 1) * 4, &p->row) != CK_OK || ck_buffer_alloc(ctx, m * 4, &p->col) != CK_OK ||
        ck_buffer_alloc(ctx, m * 4, &p->w) != CK_OK || ck_buffer_alloc(ctx, n * 4, &p->dist) != CK_OK ||
        ck_buffer_alloc(ctx, n * 4, &p->dist_old) != CK_OK || ck_buffer_alloc(ctx, 2 * 4, &p->flags) != CK_OK) {
        ck_fail_msg("cooperative p-sssp: allocating buffers in the arena (raise --arena-mb?)", err, err_len);
        app_psssp_coop_free(p);
        return -1;
    }
    if (ck_buffer_write(ctx, p->row, 0, g->row, ((size_t)g->n + 1) * 4) != CK_OK ||
        (g->m && ck_buffer_write(ctx, p->col, 0, g->col, (size_t)g->m * 4) != CK_OK) ||
        (g->m && ck_buffer_write(ctx, p->w, 0, g->w, (size_t)g->m * 4) != CK_OK)) {
        ck_fail_msg("cooperative p-sssp: uploading the graph", err, err_len);
        app_psssp_coop_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int app_psssp_coop_start(app_psssp_coop *p, int32_t source, unsigned groups, ck_launch **out, char *err,
                         size_t err_len)
{
    *out = NULL;
    if (source < 0 || source >= p->n) {
        snprintf(err, err_len, "cooperative p-sssp: source %d outside 0..%d", source, p->n - 1);
        return -1;
    }
    int32_t zero = 0;
    if (ck_buffer_write(p->ctx, p->dist, 0, p->init_dist, (size_t)p->n * 4) != CK_OK ||
        ck_buffer_write(p->ctx, p->dist, (size_t)source * 4, &zero, 4) != CK_OK)
        return ck_fail_msg("cooperative p-sssp: resetting the distances", err, err_len);
    ck_arg args[] = {ck_arg_buffer(p->row),  ck_arg_buffer(p->col),      ck_arg_buffer(p->w),
                     ck_arg_int(p->n),       ck_arg_buffer(p->dist),     ck_arg_buffer(p->dist_old),
                     ck_arg_buffer(p->flags), ck_arg_null()};
    if (ck_launch_kernel(p->ctx, APP_PSSSP_COOP_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK)
        return ck_fail_msg("launching psssp_coop", err, err_len);
    return 0;
}

int app_psssp_coop_read(app_psssp_coop *p, int32_t *dist, char *err, size_t err_len)
{
    if (p->n && ck_buffer_read(p->ctx, p->dist, 0, dist, (size_t)p->n * 4) != CK_OK)
        return ck_fail_msg("cooperative p-sssp: reading the distances", err, err_len);
    return 0;
}

void app_psssp_coop_free(app_psssp_coop *p)
{
    if (!p)
        return;
    ck_buffer *all[] = {&p->row, &p->col, &p->w, &p->dist, &p->dist_old, &p->flags};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i]->size)
            ck_buffer_free(p->ctx, *all[i]);
    free(p->init_dist);
    free(p);
}
