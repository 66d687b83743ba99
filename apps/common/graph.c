/* apps/common/graph.c: edge lists, graph generators, the edge-list and
 * DIMACS readers and CSR construction (see graph.h). */
#include "graph.h"
#include "rng.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

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

static int reserve(app_edges *e, size_t cap)
{
    e->src = malloc(cap * sizeof *e->src);
    e->dst = malloc(cap * sizeof *e->dst);
    if (!e->src || !e->dst) {
        app_edges_free(e);
        return -1;
    }
    e->cap = cap;
    return 0;
}

int app_gen_rmat(unsigned scale, unsigned edge_factor, uint64_t seed, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (scale < 1 || scale > 30 || edge_factor < 1 || edge_factor > 64)
        return fail(err, err_len, "R-MAT: scale must be 1..30 and edge factor 1..64 (got %u, %u)", scale,
                    edge_factor);
    int32_t n = (int32_t)1 << scale;
    size_t m = (size_t)n * edge_factor;
    if (m > INT32_MAX / 2)
        return fail(err, err_len, "R-MAT: %zu edges is too many (at most %d)", m, INT32_MAX / 2);
    if (reserve(out, m))
        return fail(err, err_len, "R-MAT: out of memory for %zu edges", m);
    out->n = n;
    app_rng r;
    app_rng_seed(&r, seed);
    int32_t *perm = malloc((size_t)n * sizeof *perm);
    if (!perm) {
        app_edges_free(out);
        return fail(err, err_len, "R-MAT: out of memory for %d nodes", n);
    }
    for (int32_t i = 0; i < n; ++i)
        perm[i] = i;
    for (int32_t i = n - 1; i > 0; --i) {
        int32_t j = (int32_t)app_rng_below(&r, (uint64_t)i + 1);
        int32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    const double a = 0.57, b = 0.19, c = 0.19;
    for (size_t k = 0; k < m; ++k) {
        int32_t u = 0, v = 0;
        for (unsigned bit = 0; bit < scale; ++bit) {
            double p = app_rng_unit(&r);
            int du = 0, dv = 0;
            if (p < a) {
            } else if (p < a + b) {
                dv = 1;
            } else if (p < a + b + c) {
                du = 1;
            } else {
                du = dv = 1;
            }
            u = (u << 1) | du;
            v = (v << 1) | dv;
        }
        out->src[k] = perm[u];
        out->dst[k] = perm[v];
    }
    out->m = m;
    free(perm);
    return 0;
}

int app_gen_grid(unsigned width, unsigned height, unsigned drop_percent, uint64_t seed, app_edges *out, char *err,
                 size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (width < 1 || height < 1 || (uint64_t)width * height > (1u << 30) || drop_percent > 90)
        return fail(err, err_len, "grid: need 1 <= width*height <= 2^30 and drop <= 90%% (got %ux%u, %u%%)", width,
                    height, drop_percent);
    size_t m = 2 * (size_t)width * height;
    if (reserve(out, m ? m : 1))
        return fail(err, err_len, "grid: out of memory for %zu edges", m);
    out->n = (int32_t)(width * height);
    app_rng r;
    app_rng_seed(&r, seed);
    for (unsigned y = 0; y < height; ++y)
        for (unsigned x = 0; x < width; ++x) {
            int32_t v = (int32_t)(y * width + x);
            if (x + 1 < width && app_rng_below(&r, 100) >= drop_percent) {
                out->src[out->m] = v;
                out->dst[out->m++] = v + 1;
            }
            if (y + 1 < height && app_rng_below(&r, 100) >= drop_percent) {
                out->src[out->m] = v;
                out->dst[out->m++] = v + (int32_t)width;
            }
        }
    return 0;
}

/* Parses a non-negative decimal integer at *p, advancing it; -1 if none. */
static long long parse_uint(const char **p)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        ++s;
    if (*s < '0' || *s > '9')
        return -1;
    long long v = 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (*s - '0');
        if (v > INT32_MAX)
            return -1;
        ++s;
    }
    *p = s;
    return v;
}

static int at_end_or_space(const char *p) { return *p == 0 || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'; }

int app_read_edge_list(const char *path, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, err_len, "cannot open edge list '%s': %s", path, strerror(errno));
    char line[4096];
    long lineno = 0;
    long long maxid = -1;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p == '#' || *p == '%' || *p == '\n' || *p == '\r' || *p == 0)
            continue;
        long long u = parse_uint(&p);
        if (u < 0 || !at_end_or_space(p)) {
            fclose(f);
            app_edges_free(out);
            return fail(err, err_len, "%s:%ld: expected 'u v' with non-negative node ids", path, lineno);
        }
        long long v = parse_uint(&p);
        if (v < 0 || !at_end_or_space(p)) {
            fclose(f);
            app_edges_free(out);
            return fail(err, err_len, "%s:%ld: expected 'u v' with non-negative node ids", path, lineno);
        }
        if (u >= (1 << 30) || v >= (1 << 30)) {
            fclose(f);
            app_edges_free(out);
            return fail(err, err_len, "%s:%ld: node id above 2^30", path, lineno);
        }
        if (app_edges_push(out, (int32_t)u, (int32_t)v)) {
            fclose(f);
            app_edges_free(out);
            return fail(err, err_len, "%s: out of memory after %zu edges", path, out->m);
        }
        maxid = u > maxid ? u : maxid;
        maxid = v > maxid ? v : maxid;
    }
    fclose(f);
    if (out->m == 0) {
        app_edges_free(out);
        return fail(err, err_len, "%s: no edges", path);
    }
    out->n = (int32_t)(maxid + 1);
    return 0;
}

int app_read_dimacs(const char *path, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, err_len, "cannot open DIMACS graph '%s': %s", path, strerror(errno));
    char line[4096];
    long lineno = 0;
    long long n = -1, m = -1;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        const char *p = line;
        if (*p == 'c' || *p == '\n' || *p == '\r' || *p == 0)
            continue;
        if (*p == 'p') {
            if (n >= 0) {
                rc = fail(err, err_len, "%s:%ld: second 'p' line", path, lineno);
                break;
            }
            ++p;
            while (*p == ' ' || *p == '\t')
                ++p;
            if (strncmp(p, "sp", 2) != 0) {
                rc = fail(err, err_len, "%s:%ld: expected 'p sp N M'", path, lineno);
                break;
            }
            p += 2;
            n = parse_uint(&p);
            m = parse_uint(&p);
            if (n <= 0 || m < 0 || n > (1 << 30)) {
                rc = fail(err, err_len, "%s:%ld: expected 'p sp N M' with 0 < N <= 2^30", path, lineno);
                break;
            }
            out->n = (int32_t)n;
            continue;
        }
        if (*p == 'a') {
            if (n < 0) {
                rc = fail(err, err_len, "%s:%ld: arc before the 'p sp N M' line", path, lineno);
                break;
            }
            ++p;
            long long u = parse_uint(&p), v = parse_uint(&p), wt = parse_uint(&p);
            if (u < 1 || v < 1 || u > n || v > n) {
                rc = fail(err, err_len, "%s:%ld: arc ids must be 1..%lld", path, lineno, n);
                break;
            }
            if (wt < 1 || wt > INT32_MAX) {
                rc = fail(err, err_len, "%s:%ld: arc weight must be 1..%d", path, lineno, INT32_MAX);
                break;
            }
            if (app_edges_push_w(out, (int32_t)(u - 1), (int32_t)(v - 1), (int32_t)wt)) {
                rc = fail(err, err_len, "%s: out of memory after %zu arcs", path, out->m);
                break;
            }
            continue;
        }
        rc = fail(err, err_len, "%s:%ld: unknown line type '%c' (expected c, p or a)", path, lineno, *p);
        break;
    }
    fclose(f);
    if (!rc && n < 0)
        rc = fail(err, err_len, "%s: no 'p sp N M' line", path);
    if (!rc && (long long)out->m != m)
        rc = fail(err, err_len, "%s: header says %lld arcs, file has %zu", path, m, out->m);
    if (rc) {
        app_edges_free(out);
        return -1;
    }
    return 0;
}

int app_read_graph(const char *path, app_edges *out, char *err, size_t err_len)
{
    size_t len = strlen(path);
    if (len > 3 && !strcmp(path + len - 3, ".gr"))
        return app_read_dimacs(path, out, err, err_len);
    return app_read_edge_list(path, out, err, err_len);
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
            return fail(err, err_len, "CSR: edge %zu (%d, %d) names a node outside 0..%d", k, e->src[k],
                        e->dst[k], n - 1);
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
