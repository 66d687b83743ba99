/* apps/common/sssp_cpu.c: Dijkstra with a binary heap (lazy deletion) and
 * the shortest-path checker (see sssp_cpu.h). */
#include "sssp_cpu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int64_t d;
    int32_t v;
} heap_item;

static void sift_up(heap_item *h, size_t i)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (h[p].d <= h[i].d)
            break;
        heap_item t = h[p];
        h[p] = h[i];
        h[i] = t;
        i = p;
    }
}

static void sift_down(heap_item *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l].d < h[m].d)
            m = l;
        if (r < n && h[r].d < h[m].d)
            m = r;
        if (m == i)
            return;
        heap_item t = h[m];
        h[m] = h[i];
        h[i] = t;
        i = m;
    }
}

int app_sssp_dijkstra(const app_csr *g, int32_t source, int32_t *dist, char *err, size_t err_len)
{
    if (!g->w) {
        snprintf(err, err_len, "SSSP reference: the graph has no edge weights");
        return -1;
    }
    if (source < 0 || source >= g->n) {
        snprintf(err, err_len, "SSSP reference: source %d outside 0..%d", source, g->n - 1);
        return -1;
    }
    /* Every edge is pushed at most once (when it improves its head). */
    size_t cap = (size_t)g->m + 1, n = 0;
    heap_item *h = malloc(cap * sizeof *h);
    if (!h) {
        snprintf(err, err_len, "SSSP reference: out of memory for a heap of %zu entries", cap);
        return -1;
    }
    for (int32_t v = 0; v < g->n; ++v)
        dist[v] = APP_SSSP_INF;
    dist[source] = 0;
    h[n++] = (heap_item){0, source};
    while (n) {
        heap_item top = h[0];
        h[0] = h[--n];
        sift_down(h, n, 0);
        if (top.d != dist[top.v])
            continue; /* stale */
        for (int32_t k = g->row[top.v]; k < g->row[top.v + 1]; ++k) {
            int64_t nd = top.d + g->w[k];
            int32_t u = g->col[k];
            if (nd >= dist[u])
                continue;
            if (nd >= APP_SSSP_INF) {
                free(h);
                snprintf(err, err_len, "SSSP reference: the distance of node %d passes 2^31-1; use smaller weights",
                         u);
                return -1;
            }
            dist[u] = (int32_t)nd;
            h[n] = (heap_item){nd, u};
            sift_up(h, n++);
        }
    }
    free(h);
    return 0;
}

static void note(size_t *problems, char *msg, size_t msg_len, size_t *at, const char *fmt, ...)
{
    if (++*problems <= 3 && msg && *at + 1 < msg_len) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(msg + *at, msg_len - *at, fmt, ap);
        va_end(ap);
        if (w > 0)
            *at += (size_t)w < msg_len - *at ? (size_t)w : msg_len - *at - 1;
    }
}

size_t app_sssp_check(const app_csr *g, int32_t source, const int32_t *got, const int32_t *want, char *msg,
                      size_t msg_len)
{
    size_t problems = 0, at = 0;
    if (msg && msg_len)
        msg[0] = 0;
    if (got[source] != 0)
        note(&problems, msg, msg_len, &at, "source %d has distance %d, not 0; ", source, got[source]);
    for (int32_t v = 0; v < g->n; ++v) {
        if (want && got[v] != want[v])
            note(&problems, msg, msg_len, &at, "node %d: distance %d, Dijkstra says %d; ", v, got[v], want[v]);
        int tight = v == source || got[v] == APP_SSSP_INF;
        for (int32_t k = g->row[v]; k < g->row[v + 1]; ++k) {
            int32_t u = g->col[k]; /* symmetric graph: u -> v has the same weight */
            if (got[u] == APP_SSSP_INF) {
                if (got[v] != APP_SSSP_INF)
                    note(&problems, msg, msg_len, &at, "node %d is unreached but its neighbour %d is reached; ", u,
                         v);
                continue;
            }
            int64_t via = (int64_t)got[u] + g->w[k];
            if (via < got[v])
                note(&problems, msg, msg_len, &at, "edge %d-%d (weight %d) still relaxes node %d: %lld < %d; ", u, v,
                     g->w[k], v, (long long)via, got[v]);
            if (via == got[v])
                tight = 1;
        }
        if (!tight)
            note(&problems, msg, msg_len, &at, "node %d (distance %d) has no neighbour on a shortest path; ", v,
                 got[v]);
    }
    if (problems > 3 && msg && at + 1 < msg_len)
        snprintf(msg + at, msg_len - at, "... %zu problems in all", problems);
    return problems;
}
