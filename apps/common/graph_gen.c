/* apps/common/graph_gen.c: the seeded R-MAT and grid generators (see
 * graph.h); the look-alikes of real inputs are in graph_gen_like.c. */
#include "graph.h"
#include "graph_text.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>

#define fail app_graph_fail

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
    if (app_edges_reserve(out, m))
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
    if (app_edges_reserve(out, m ? m : 1))
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
