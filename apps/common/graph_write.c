/* apps/common/graph_write.c: writes a CSR graph as a DIMACS, METIS, Matrix
 * Market, Galois binary or edge-list file (see graph.h: app_write_graph). */
#include "graph.h"
#include "graph_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Weight of edge k (1 when unweighted). */
static int32_t weight(const app_csr *g, int32_t k) { return g->w ? g->w[k] : 1; }

/* Index of v in u's sorted row, or -1. */
static int32_t find(const app_csr *g, int32_t u, int32_t v)
{
    int32_t lo = g->row[u], hi = g->row[u + 1];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (g->col[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->row[u + 1] && g->col[lo] == v ? lo : -1;
}

int app_csr_is_symmetric(const app_csr *g)
{
    for (int32_t u = 0; u < g->n; ++u)
        for (int32_t k = g->row[u]; k < g->row[u + 1]; ++k) {
            int32_t back = find(g, g->col[k], u);
            if (back < 0 || weight(g, back) != weight(g, k))
                return 0;
        }
    return 1;
}

static int put64(FILE *f, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; ++i)
        b[i] = (unsigned char)(v >> (8 * i));
    return fwrite(b, 1, 8, f) == 8 ? 0 : -1;
}

static int put32(FILE *f, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

static int write_galois(FILE *f, const app_csr *g)
{
    int bad = put64(f, 1) | put64(f, g->w ? 4 : 0) | put64(f, (uint64_t)g->n) | put64(f, (uint64_t)g->m);
    for (int32_t v = 0; v < g->n && !bad; ++v)
        bad |= put64(f, (uint64_t)g->row[v + 1]);
    for (int32_t k = 0; k < g->m && !bad; ++k)
        bad |= put32(f, (uint32_t)g->col[k]);
    if (g->m % 2)
        bad |= put32(f, 0);
    for (int32_t k = 0; g->w && k < g->m && !bad; ++k)
        bad |= put32(f, (uint32_t)g->w[k]);
    return bad;
}

static int write_text(FILE *f, app_graph_format fmt, const app_csr *g, int symmetric)
{
    int bad = 0;
    switch (fmt) {
    case APP_FMT_DIMACS:
        bad |= fprintf(f, "c written by coopkernels\np sp %d %d\n", g->n, g->m) < 0;
        for (int32_t u = 0; u < g->n && !bad; ++u)
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !bad; ++k)
                bad |= fprintf(f, "a %d %d %d\n", u + 1, g->col[k] + 1, weight(g, k)) < 0;
        break;
    case APP_FMT_METIS:
        bad |= fprintf(f, "%% written by coopkernels\n%d %d%s\n", g->n, g->m / 2, g->w ? " 1" : "") < 0;
        for (int32_t u = 0; u < g->n && !bad; ++u) {
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !bad; ++k) {
                bad |= fprintf(f, k > g->row[u] ? " %d" : "%d", g->col[k] + 1) < 0;
                if (g->w)
                    bad |= fprintf(f, " %d", g->w[k]) < 0;
            }
            bad |= fputc('\n', f) == EOF;
        }
        break;
    case APP_FMT_MTX: {
        int32_t entries = symmetric ? g->m / 2 : g->m;
        bad |= fprintf(f, "%%%%MatrixMarket matrix coordinate %s %s\n%% written by coopkernels\n%d %d %d\n",
                       g->w ? "integer" : "pattern", symmetric ? "symmetric" : "general", g->n, g->n, entries) < 0;
        for (int32_t u = 0; u < g->n && !bad; ++u)
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !bad; ++k) {
                if (symmetric && g->col[k] > u)
                    continue; /* the lower triangle only */
                if (g->w)
                    bad |= fprintf(f, "%d %d %d\n", u + 1, g->col[k] + 1, g->w[k]) < 0;
                else
                    bad |= fprintf(f, "%d %d\n", u + 1, g->col[k] + 1) < 0;
            }
        break;
    }
    default:
        bad |= fprintf(f, "# written by coopkernels: %d nodes, %d edges (u v%s), 0-based\n", g->n, g->m,
                       g->w ? " w" : "") < 0;
        for (int32_t u = 0; u < g->n && !bad; ++u)
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !bad; ++k)
                bad |= (g->w ? fprintf(f, "%d %d %d\n", u, g->col[k], g->w[k]) : fprintf(f, "%d %d\n", u, g->col[k])) <
                       0;
        break;
    }
    return bad;
}

int app_write_graph(const char *path, app_graph_format fmt, const app_csr *g, char *err, size_t err_len)
{
    if ((unsigned)fmt > APP_FMT_MTX)
        return app_graph_fail(err, err_len, "%s: unknown graph format %d", path, (int)fmt);
    int symmetric = (fmt == APP_FMT_METIS || fmt == APP_FMT_MTX) && app_csr_is_symmetric(g);
    if (fmt == APP_FMT_METIS && !symmetric)
        return app_graph_fail(err, err_len, "%s: METIS needs a symmetric graph (every edge with its reverse, of the "
                              "same weight)", path);
    FILE *f = fopen(path, fmt == APP_FMT_GALOIS ? "wb" : "w");
    if (!f)
        return app_graph_fail(err, err_len, "cannot write '%s': %s", path, strerror(errno));
    int bad = fmt == APP_FMT_GALOIS ? write_galois(f, g) : write_text(f, fmt, g, symmetric);
    int saved = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        remove(path);
        return app_graph_fail(err, err_len, "cannot write '%s': %s", path, strerror(saved ? saved : EIO));
    }
    return 0;
}
