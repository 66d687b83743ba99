/* apps/common/graph_write.c: writes a CSR graph as a DIMACS, METIS, Matrix
 * Market, Galois binary or edge-list file (see graph.h: app_write_graph),
 * through a temporary file and a rename (file_io.h): a FIFO, a folder or a
 * device is refused before anything is opened, and a write that fails
 * leaves what was at the path as it was. */
#include "file_io.h"
#include "graph.h"
#include "graph_text.h"

#include <errno.h>
#include <stdarg.h>
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

/* Every write below goes through these, which keep the errno of the first
 * one that failed (stdio keeps only that an error happened). */
typedef struct {
    FILE *f;
    int bad, error;
} out_file;

static void note(out_file *o, int failed)
{
    if (failed && !o->bad) {
        o->bad = 1;
        o->error = errno ? errno : EIO;
    }
}

static void put64(out_file *o, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; ++i)
        b[i] = (unsigned char)(v >> (8 * i));
    errno = 0;
    note(o, fwrite(b, 1, 8, o->f) != 8);
}

static void put32(out_file *o, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    errno = 0;
    note(o, fwrite(b, 1, 4, o->f) != 4);
}

static void print(out_file *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void print(out_file *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    note(o, vfprintf(o->f, fmt, ap) < 0);
    va_end(ap);
}

static void write_galois(out_file *o, const app_csr *g)
{
    put64(o, 1);
    put64(o, g->w ? 4 : 0);
    put64(o, (uint64_t)g->n);
    put64(o, (uint64_t)g->m);
    for (int32_t v = 0; v < g->n && !o->bad; ++v)
        put64(o, (uint64_t)g->row[v + 1]);
    for (int32_t k = 0; k < g->m && !o->bad; ++k)
        put32(o, (uint32_t)g->col[k]);
    if (g->m % 2)
        put32(o, 0);
    for (int32_t k = 0; g->w && k < g->m && !o->bad; ++k)
        put32(o, (uint32_t)g->w[k]);
}

static void write_text(out_file *o, app_graph_format fmt, const app_csr *g, int symmetric)
{
    switch (fmt) {
    case APP_FMT_DIMACS:
        print(o, "c written by coopkernels\np sp %d %d\n", g->n, g->m);
        for (int32_t u = 0; u < g->n && !o->bad; ++u)
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !o->bad; ++k)
                print(o, "a %d %d %d\n", u + 1, g->col[k] + 1, weight(g, k));
        break;
    case APP_FMT_METIS:
        print(o, "%% written by coopkernels\n%d %d%s\n", g->n, g->m / 2, g->w ? " 1" : "");
        for (int32_t u = 0; u < g->n && !o->bad; ++u) {
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !o->bad; ++k) {
                print(o, k > g->row[u] ? " %d" : "%d", g->col[k] + 1);
                if (g->w)
                    print(o, " %d", g->w[k]);
            }
            print(o, "\n");
        }
        break;
    case APP_FMT_MTX: {
        int32_t entries = symmetric ? g->m / 2 : g->m;
        print(o, "%%%%MatrixMarket matrix coordinate %s %s\n%% written by coopkernels\n%d %d %d\n",
              g->w ? "integer" : "pattern", symmetric ? "symmetric" : "general", g->n, g->n, entries);
        for (int32_t u = 0; u < g->n && !o->bad; ++u)
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !o->bad; ++k) {
                if (symmetric && g->col[k] > u)
                    continue; /* the lower triangle only */
                if (g->w)
                    print(o, "%d %d %d\n", u + 1, g->col[k] + 1, g->w[k]);
                else
                    print(o, "%d %d\n", u + 1, g->col[k] + 1);
            }
        break;
    }
    default:
        print(o, "# written by coopkernels: %d nodes, %d edges (u v%s), 0-based\n", g->n, g->m, g->w ? " w" : "");
        for (int32_t u = 0; u < g->n && !o->bad; ++u)
            for (int32_t k = g->row[u]; k < g->row[u + 1] && !o->bad; ++k) {
                if (g->w)
                    print(o, "%d %d %d\n", u, g->col[k], g->w[k]);
                else
                    print(o, "%d %d\n", u, g->col[k]);
            }
        break;
    }
}

int app_write_graph(const char *path, app_graph_format fmt, const app_csr *g, char *err, size_t err_len)
{
    if ((unsigned)fmt > APP_FMT_MTX)
        return app_graph_fail(err, err_len, "%s: unknown graph format %d", path, (int)fmt);
    int symmetric = (fmt == APP_FMT_METIS || fmt == APP_FMT_MTX) && app_csr_is_symmetric(g);
    if (fmt == APP_FMT_METIS && !symmetric)
        return app_graph_fail(err, err_len,
                              "%s: METIS needs a symmetric graph (every edge with its reverse, of the "
                              "same weight)",
                              path);
    char why[768];
    ck_file_writer w;
    if (ck_file_writer_open(&w, path, fmt == APP_FMT_GALOIS, why, sizeof why))
        return app_graph_fail(err, err_len, "graph file: %s", why);
    out_file o = {.f = w.f, .bad = 0, .error = 0};
    if (fmt == APP_FMT_GALOIS)
        write_galois(&o, g);
    else
        write_text(&o, fmt, g, symmetric);
    if (o.bad) {
        ck_file_writer_abort(&w);
        return app_graph_fail(err, err_len, "graph file: writing '%s' failed: %s; the file was left as it was", path,
                              strerror(o.error));
    }
    if (ck_file_writer_commit(&w, why, sizeof why))
        return app_graph_fail(err, err_len, "graph file: %s", why);
    return 0;
}
