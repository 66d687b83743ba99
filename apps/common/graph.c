/* apps/common/graph.c: edge lists and CSR construction (see graph.h); the
 * generators are in graph_gen*.c, the readers in graph_read*.c and the
 * writers in graph_write.c. */
#include "graph.h"
#include "graph_text.h"
#include "rng.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define fail app_graph_fail

void app_edges_free(app_edges *e)
{
    if (!e)
        return;
    free(e->src);
    free(e->dst);
    free(e->w);
    memset(e, 0, sizeof *e);
}

static int grow(app_edges *e)
{
    size_t cap = e->cap ? e->cap * 2 : 1024;
    int32_t *s = realloc(e->src, cap * sizeof *s);
    if (!s)
        return -1;
    e->src = s;
    int32_t *d = realloc(e->dst, cap * sizeof *d);
    if (!d)
        return -1;
    e->dst = d;
    if (e->w) {
        int32_t *w = realloc(e->w, cap * sizeof *w);
        if (!w)
            return -1;
        e->w = w;
    }
    e->cap = cap;
    return 0;
}

int app_edges_push(app_edges *e, int32_t u, int32_t v)
{
    if (e->m == e->cap && grow(e))
        return -1;
    e->src[e->m] = u;
    e->dst[e->m] = v;
    if (e->w)
        e->w[e->m] = 1;
    e->m++;
    return 0;
}

int app_edges_push_w(app_edges *e, int32_t u, int32_t v, int32_t w)
{
    if (!e->w) {
        e->w = malloc((e->cap ? e->cap : 1) * sizeof *e->w);
        if (!e->w)
            return -1;
        for (size_t k = 0; k < e->m; ++k)
            e->w[k] = 1;
    }
    if (app_edges_push(e, u, v))
        return -1;
    e->w[e->m - 1] = w;
    return 0;
}

int app_edges_reserve(app_edges *e, size_t cap)
{
    memset(e, 0, sizeof *e);
    e->src = malloc((cap ? cap : 1) * sizeof *e->src);
    e->dst = malloc((cap ? cap : 1) * sizeof *e->dst);
    if (!e->src || !e->dst) {
        app_edges_free(e);
        return -1;
    }
    e->cap = cap;
    return 0;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* (neighbour, weight) sorted by neighbour, then weight: the first of a run
 * of duplicates has the smallest weight. */
static int cmp_pair(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    if (x[0] != y[0])
        return (x[0] > y[0]) - (x[0] < y[0]);
    return (x[1] > y[1]) - (x[1] < y[1]);
}

int app_csr_build(const app_edges *e, int symmetric, app_csr *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (e->n < 1)
        return fail(err, err_len, "CSR: the graph has no nodes");
    size_t total = e->m * (symmetric ? 2 : 1);
    if (total > INT32_MAX)
        return fail(err, err_len, "CSR: %zu edges is too many", total);
    int weighted = e->w != NULL;
    size_t stride = weighted ? 2 : 1; /* weighted: (neighbour, weight) pairs while building */
    int32_t n = e->n;
    int32_t *row = calloc((size_t)n + 1, sizeof *row);
    int32_t *col = malloc((total ? total : 1) * stride * sizeof *col);
    int32_t *fill = malloc((size_t)n * sizeof *fill);
    if (!row || !col || !fill) {
        free(row);
        free(col);
        free(fill);
        return fail(err, err_len, "CSR: out of memory for %d nodes and %zu edges", n, total);
    }
    for (size_t k = 0; k < e->m; ++k) {
        if (e->src[k] < 0 || e->src[k] >= n || e->dst[k] < 0 || e->dst[k] >= n) {
            free(row);
            free(col);
            free(fill);
            return fail(err, err_len, "CSR: edge %zu (%d, %d) names a node outside 0..%d", k, e->src[k], e->dst[k],
                        n - 1);
        }
        if (e->src[k] == e->dst[k])
            continue;
        row[e->src[k] + 1]++;
        if (symmetric)
            row[e->dst[k] + 1]++;
    }
    for (int32_t v = 0; v < n; ++v)
        row[v + 1] += row[v];
    memcpy(fill, row, (size_t)n * sizeof *fill);
    for (size_t k = 0; k < e->m; ++k) {
        int32_t u = e->src[k], v = e->dst[k], wt = weighted ? e->w[k] : 0;
        if (u == v)
            continue;
        size_t at = (size_t)fill[u]++ * stride;
        col[at] = v;
        if (weighted)
            col[at + 1] = wt;
        if (symmetric) {
            at = (size_t)fill[v]++ * stride;
            col[at] = u;
            if (weighted)
                col[at + 1] = wt;
        }
    }
    free(fill);
    int32_t *wts = NULL;
    if (weighted && !(wts = malloc((total ? total : 1) * sizeof *wts))) {
        free(row);
        free(col);
        return fail(err, err_len, "CSR: out of memory for %zu edge weights", total);
    }
    /* Sort each row and squeeze out duplicates, compacting in place (the
     * write position never passes the read position). */
    int32_t w = 0;
    for (int32_t v = 0; v < n; ++v) {
        int32_t b = row[v], end = row[v + 1];
        qsort(col + (size_t)b * stride, (size_t)(end - b), stride * sizeof *col, weighted ? cmp_pair : cmp_i32);
        row[v] = w;
        for (int32_t k = b; k < end; ++k) {
            if (k != b && col[(size_t)k * stride] == col[(size_t)(k - 1) * stride])
                continue;
            if (weighted)
                wts[w] = col[(size_t)k * 2 + 1];
            col[w++] = col[(size_t)k * stride];
        }
    }
    row[n] = w;
    int32_t *shrunk = realloc(col, (w ? (size_t)w : 1) * sizeof *col);
    out->n = n;
    out->m = w;
    out->row = row;
    out->col = shrunk ? shrunk : col;
    if (weighted) {
        int32_t *ws = realloc(wts, (w ? (size_t)w : 1) * sizeof *wts);
        out->w = ws ? ws : wts;
    }
    return 0;
}

void app_csr_free(app_csr *g)
{
    if (!g)
        return;
    free(g->w);
    free(g->row);
    free(g->col);
    memset(g, 0, sizeof *g);
}

int32_t app_csr_max_degree_node(const app_csr *g)
{
    int32_t best = 0;
    for (int32_t v = 1; v < g->n; ++v)
        if (g->row[v + 1] - g->row[v] > g->row[best + 1] - g->row[best])
            best = v;
    return best;
}

int app_csr_add_weights(app_csr *g, uint32_t max_weight, uint64_t seed, char *err, size_t err_len)
{
    if (g->w)
        return 0;
    if (max_weight < 1 || max_weight > INT32_MAX)
        return fail(err, err_len, "edge weights: the largest weight must be 1..%d, not %u", INT32_MAX, max_weight);
    g->w = malloc((g->m ? (size_t)g->m : 1) * sizeof *g->w);
    if (!g->w)
        return fail(err, err_len, "edge weights: out of memory for %d weights", g->m);
    for (int32_t u = 0; u < g->n; ++u)
        for (int32_t k = g->row[u]; k < g->row[u + 1]; ++k) {
            int32_t v = g->col[k];
            uint64_t lo = (uint64_t)(u < v ? u : v), hi = (uint64_t)(u < v ? v : u);
            app_rng r;
            app_rng_seed(&r, seed ^ (lo << 32 | hi));
            g->w[k] = (int32_t)(1 + app_rng_below(&r, max_weight));
        }
    return 0;
}
