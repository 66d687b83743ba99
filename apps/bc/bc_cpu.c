/* apps/bc/bc_cpu.c: the CPU side of bc: Brandes' algorithm in double as the
 * reference, the hop total by plain BFS, and the checker (see bc.h). */
#include "bc.h"
#include "bfs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BC_SIGMA_LIMIT 1e37

int app_bc_cpu(const app_csr *g, int32_t sources, double *bc, int32_t *depth, char *err, size_t err_len)
{
    size_t n = (size_t)g->n;
    if (sources < 1 || sources > g->n) {
        snprintf(err, err_len, "bc reference: %d sources, the graph has %d nodes", sources, g->n);
        return -1;
    }
    int32_t *dist = malloc(n * sizeof *dist), *order = malloc(n * sizeof *order);
    double *sigma = malloc(n * sizeof *sigma), *delta = malloc(n * sizeof *delta);
    int rc = -1;
    if (!dist || !order || !sigma || !delta) {
        snprintf(err, err_len, "bc reference: out of host memory");
        goto out;
    }
    memset(bc, 0, n * sizeof *bc);
    int32_t deepest = 0;
    for (int32_t s = 0; s < sources; ++s) {
        for (size_t v = 0; v < n; ++v) {
            dist[v] = -1;
            sigma[v] = 0;
            delta[v] = 0;
        }
        dist[s] = 0;
        sigma[s] = 1;
        size_t head = 0, tail = 0;
        order[tail++] = s;
        while (head < tail) { /* BFS: order ends up sorted by distance */
            int32_t u = order[head++];
            for (int32_t e = g->row[u]; e < g->row[u + 1]; ++e) {
                int32_t v = g->col[e];
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    order[tail++] = v;
                }
                if (dist[v] == dist[u] + 1)
                    sigma[v] += sigma[u];
            }
        }
        deepest = dist[order[tail - 1]] > deepest ? dist[order[tail - 1]] : deepest;
        for (size_t i = tail; i-- > 0;) { /* dependencies, farthest first */
            int32_t w = order[i];
            if (sigma[w] > BC_SIGMA_LIMIT) {
                snprintf(err, err_len,
                         "bc reference: %g shortest paths from source %d to node %d: beyond the float counts of the "
                         "kernels (use fewer levels: a smaller grid, or a random graph)",
                         sigma[w], s, w);
                goto out;
            }
            for (int32_t e = g->row[w]; e < g->row[w + 1]; ++e) {
                int32_t v = g->col[e];
                if (dist[v] == dist[w] - 1)
                    delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
            }
            if (w != s)
                bc[w] += delta[w];
        }
    }
    if (depth)
        *depth = deepest;
    rc = 0;
out:
    free(dist);
    free(order);
    free(sigma);
    free(delta);
    return rc;
}

int app_bc_hop_total(const app_csr *g, int32_t sources, double *total, char *err, size_t err_len)
{
    int32_t *levels = malloc((size_t)(g->n ? g->n : 1) * sizeof *levels);
    if (!levels) {
        snprintf(err, err_len, "bc hop total: out of host memory");
        return -1;
    }
    double sum = 0;
    for (int32_t s = 0; s < sources && s < g->n; ++s) {
        app_bfs_cpu(g, s, levels);
        for (int32_t t = 0; t < g->n; ++t)
            if (levels[t] > 0)
                sum += levels[t] - 1;
    }
    free(levels);
    *total = sum;
    return 0;
}

static int close_enough(double got, double want)
{
    return fabs(got - want) <= APP_BC_REL_TOL * fabs(want) + APP_BC_ABS_TOL;
}

size_t app_bc_check(const app_csr *g, const float *got, const double *want, double hop_total, char *msg,
                    size_t msg_len)
{
    size_t problems = 0, at = 0;
    if (msg_len)
        msg[0] = '\0';
#define BC_PROBLEM(...)                                                                                             \
    do {                                                                                                            \
        if (problems++ < 3 && at < msg_len)                                                                         \
            at += (size_t)snprintf(msg + at, msg_len - at, __VA_ARGS__);                                            \
    } while (0)
    double sum = 0;
    for (int32_t v = 0; v < g->n; ++v) {
        double x = got[v];
        int32_t degree = g->row[v + 1] - g->row[v];
        if (!isfinite(x) || x < 0)
            BC_PROBLEM("%sbc of node %d is %g, not a finite value >= 0", problems ? "; " : "", v, x);
        else if (degree <= 1 && x != 0)
            BC_PROBLEM("%sbc of node %d (degree %d) is %g, not 0", problems ? "; " : "", v, degree, x);
        else if (want && !close_enough(x, want[v]))
            BC_PROBLEM("%sbc of node %d is %.9g, the reference says %.9g", problems ? "; " : "", v, x, want[v]);
        sum += x;
    }
    if (!close_enough(sum, hop_total))
        BC_PROBLEM("%sbc values sum to %.9g, but the shortest paths have %.9g interior nodes in all",
                   problems ? "; " : "", sum, hop_total);
    if (problems > 3 && at < msg_len)
        snprintf(msg + at, msg_len - at, "; %zu problems in all", problems);
#undef BC_PROBLEM
    return problems;
}
