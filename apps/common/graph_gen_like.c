/* apps/common/graph_gen_like.c: seeded generators of look-alikes of the
 * paper's real inputs (see graph.h): road networks (a random spanning tree
 * of a jittered grid's edges plus extra ones, weights from coordinates),
 * circuit meshes (a grid with dropped edges and a few long wires) and
 * uniform random graphs (distinct pairs, for Pannotia's bc inputs). */
#include "graph.h"
#include "graph_text.h"
#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define fail app_graph_fail

/* n nodes row-major on a grid `width` wide (the last row may be partial):
 * the undirected grid edges, numbered 2*v (to the right) and 2*v+1 (down);
 * returns whether edge id exists and its end points. */
static int grid_edge(int32_t n, int32_t width, uint32_t id, int32_t *u, int32_t *v)
{
    int32_t a = (int32_t)(id / 2);
    int32_t b = id % 2 ? a + width : a + 1;
    if (b >= n || (id % 2 == 0 && (a + 1) % width == 0))
        return 0;
    *u = a;
    *v = b;
    return 1;
}

static int32_t grid_width(int32_t n)
{
    int32_t w = (int32_t)ceil(sqrt((double)n));
    return w < 1 ? 1 : w;
}

int app_gen_road(int32_t n, size_t edges, uint64_t seed, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    int32_t width = grid_width(n);
    if (n < 2 || n > (1 << 30) || edges < (size_t)n - 1 || edges > 2 * (size_t)n - 2 * (size_t)width)
        return fail(err, err_len, "road: need 2 <= n <= 2^30 and n-1 <= edges <= about 2n (got %d nodes, %zu edges)",
                    n, edges);
    float *xy = malloc(2 * (size_t)n * sizeof *xy);
    if (!xy || app_edges_reserve(out, edges) || !(out->w = malloc((edges ? edges : 1) * sizeof *out->w))) {
        free(xy);
        app_edges_free(out);
        return fail(err, err_len, "road: out of memory for %d nodes and %zu edges", n, edges);
    }
    out->n = n;
    app_rng r;
    app_rng_seed(&r, seed);
    /* Coordinates: grid spacing 100, jitter +-35 in each direction. */
    for (int32_t v = 0; v < n; ++v) {
        xy[2 * v] = (float)(100.0 * (v % width) + 70.0 * (app_rng_unit(&r) - 0.5));
        xy[2 * v + 1] = (float)(100.0 * (v / width) + 70.0 * (app_rng_unit(&r) - 0.5));
    }
    /* Each node but 0 has one or two grid edges back (left, up): a random
     * one of them joins the spanning tree (every node reaches node 0); the
     * other ones are the candidates for the extra edges, taken in one pass
     * by selection sampling so that exactly `edges` edges result. */
    uint64_t spare = 0;
    for (int32_t v = 1; v < n; ++v)
        spare += (v % width != 0 && v >= width) ? 1 : 0;
    uint64_t want = edges - ((size_t)n - 1), seen = 0;
    for (int32_t v = 1; v < n; ++v) {
        int has_left = v % width != 0, has_up = v >= width;
        int up = has_up && (!has_left || app_rng_below(&r, 2));
        out->src[out->m] = up ? v - width : v - 1;
        out->dst[out->m++] = v;
        if (has_left && has_up) {
            if (app_rng_below(&r, spare - seen) < want) {
                out->src[out->m] = up ? v - 1 : v - width;
                out->dst[out->m++] = v;
                --want;
            }
            ++seen;
        }
    }
    for (size_t k = 0; k < out->m; ++k) {
        double dx = xy[2 * out->src[k]] - xy[2 * out->dst[k]],
               dy = xy[2 * out->src[k] + 1] - xy[2 * out->dst[k] + 1];
        int32_t w = (int32_t)floor(sqrt(dx * dx + dy * dy) + 0.5);
        out->w[k] = w < 1 ? 1 : w;
    }
    free(xy);
    if (out->m != edges) {
        app_edges_free(out);
        return fail(err, err_len, "road: %d nodes have room for fewer than %zu edges", n, edges);
    }
    return 0;
}

int app_gen_circuit(int32_t n, unsigned drop_per_mille, unsigned wires, uint64_t seed, app_edges *out, char *err,
                    size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (n < 2 || n > (1 << 30) || drop_per_mille > 900 || wires > (unsigned)n)
        return fail(err, err_len, "circuit: need 2 <= n <= 2^30, drop <= 900 per mille, wires <= n (got %d, %u, %u)",
                    n, drop_per_mille, wires);
    int32_t width = grid_width(n);
    size_t cap = 2 * (size_t)n + wires;
    if (app_edges_reserve(out, cap))
        return fail(err, err_len, "circuit: out of memory for %zu edges", cap);
    out->n = n;
    app_rng r;
    app_rng_seed(&r, seed);
    for (uint32_t id = 0; id < 2 * (uint32_t)n; ++id) {
        int32_t u, v;
        if (grid_edge(n, width, id, &u, &v) && app_rng_below(&r, 1000) >= drop_per_mille) {
            out->src[out->m] = u;
            out->dst[out->m++] = v;
        }
    }
    /* Long wires: each joins a node to one at least a third of the grid
     * away in both directions. */
    int32_t height = (n + width - 1) / width;
    for (unsigned k = 0; k < wires; ++k) {
        int32_t u = (int32_t)app_rng_below(&r, (uint64_t)n);
        int32_t x = (u % width + width / 3 + (int32_t)app_rng_below(&r, (uint64_t)width / 3 + 1)) % width;
        int32_t y = (u / width + height / 3 + (int32_t)app_rng_below(&r, (uint64_t)height / 3 + 1)) % height;
        int32_t v = y * width + x;
        if (v >= n)
            v = (int32_t)app_rng_below(&r, (uint64_t)n);
        out->src[out->m] = u;
        out->dst[out->m++] = v;
    }
    return 0;
}

int app_gen_uniform(int32_t n, size_t edges, uint64_t seed, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    uint64_t pairs = (uint64_t)n * (uint64_t)(n - 1) / 2;
    if (n < 2 || n > 16384 || edges > pairs / 4 * 3)
        return fail(err, err_len,
                    "uniform: need 2 <= n <= 16384 and at most 3/4 of the n(n-1)/2 pairs (got %d "
                    "nodes, %zu edges)",
                    n, edges);
    uint64_t *seen = calloc((size_t)((uint64_t)n * (uint64_t)n / 64 + 1), sizeof *seen);
    if (!seen || app_edges_reserve(out, edges)) {
        free(seen);
        return fail(err, err_len, "uniform: out of memory for %d nodes", n);
    }
    out->n = n;
    app_rng r;
    app_rng_seed(&r, seed);
    while (out->m < edges) {
        int32_t u = (int32_t)app_rng_below(&r, (uint64_t)n), v = (int32_t)app_rng_below(&r, (uint64_t)n);
        if (u == v)
            continue;
        uint64_t bit = u < v ? (uint64_t)u * (uint64_t)n + (uint64_t)v : (uint64_t)v * (uint64_t)n + (uint64_t)u;
        if (seen[bit / 64] >> (bit % 64) & 1)
            continue;
        seen[bit / 64] |= 1ull << (bit % 64);
        out->src[out->m] = u;
        out->dst[out->m++] = v;
    }
    free(seen);
    return 0;
}
