/* apps/octree/octree_cpu.c: the octree app's host side without a device:
 * the clustered particle generator, the sequential run of octree.cl's
 * algorithm (the reference for leaf count, depth and cubes) and the
 * independent checker (see octree.h). */
#include "octree.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float clamp01(double v)
{
    const float top = 0x1.fffffep-1f; /* largest float below 1 */
    if (!(v > 0))
        return 0.0f;
    float f = (float)v;
    return f < top ? f : top;
}

void app_octree_generate(float *p, uint32_t n, uint32_t clusters, uint64_t seed)
{
    app_rng r;
    app_rng_seed(&r, seed ^ 0x6f637472ull);
    uint32_t nc = clusters ? clusters : 1;
    if (nc > n && n > 0)
        nc = n; /* particle i is in cluster i % nc: only the first n clusters get any */
    double *cx = malloc(3 * sizeof(double) * nc);
    for (uint32_t c = 0; cx && c < 3 * nc; ++c)
        cx[c] = 0.05 + 0.9 * app_rng_unit(&r);
    const double sigma = 0.01;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t c = i % nc;
        for (int d = 0; d < 3; ++d) {
            double v;
            if (!clusters || !cx)
                v = app_rng_unit(&r);
            else
                v = cx[3 * c + d] + sigma * (app_rng_unit(&r) + app_rng_unit(&r) + app_rng_unit(&r) - 1.5);
            p[4 * (size_t)i + d] = clamp01(v);
        }
        uint32_t id = i;
        memcpy(&p[4 * (size_t)i + 3], &id, 4);
    }
    free(cx);
}

static unsigned octant(const float *q, uint32_t depth)
{
    float s = (float)(1u << (depth + 1u));
    unsigned bx = (unsigned)(q[0] * s) & 1u, by = (unsigned)(q[1] * s) & 1u, bz = (unsigned)(q[2] * s) & 1u;
    return bx | by << 1 | bz << 2;
}

typedef struct {
    uint32_t start, count, depth, buf, ix, iy, iz;
} ot_task;

int app_octree_cpu(const float *p, uint32_t n, uint32_t max_children, float *out, app_ot_leaf *leaves,
                   uint32_t *nleaves, uint32_t *ntasks)
{
    *nleaves = 0;
    *ntasks = 0;
    float *buf[2] = {malloc(16 * (size_t)n + 16), malloc(16 * (size_t)n + 16)};
    /* Live tasks cover disjoint ranges: at most n / (max_children + 1) + 8 per level pending. */
    size_t cap = (size_t)n / (max_children + 1) * 8 + 64, top = 0;
    ot_task *stack = malloc(cap * sizeof *stack);
    if (!buf[0] || !buf[1] || !stack) {
        free(buf[0]);
        free(buf[1]);
        free(stack);
        return -1;
    }
    memcpy(buf[0], p, 16 * (size_t)n);
    if (n > 0)
        stack[top++] = (ot_task){0, n, 0, 0, 0, 0, 0};
    while (top > 0) {
        ot_task t = stack[--top];
        ++*ntasks;
        const float *src = buf[t.buf];
        float *dst = buf[t.buf ^ 1];
        uint32_t cnt[8] = {0}, cur[8];
        for (uint32_t i = 0; i < t.count; ++i)
            cnt[octant(src + 4 * ((size_t)t.start + i), t.depth)]++;
        uint32_t off = 0;
        for (int o = 0; o < 8; ++o) {
            cur[o] = off;
            off += cnt[o];
        }
        uint32_t first[8];
        memcpy(first, cur, sizeof first);
        int last_level = t.depth + 1 >= APP_OCTREE_DEPTH_LIMIT;
        for (uint32_t i = 0; i < t.count; ++i) {
            const float *q = src + 4 * ((size_t)t.start + i);
            unsigned o = octant(q, t.depth);
            size_t pos = (size_t)t.start + cur[o]++;
            memcpy(dst + 4 * pos, q, 16);
            if (cnt[o] <= max_children || last_level)
                memcpy(out + 4 * pos, q, 16);
        }
        for (unsigned o = 0; o < 8; ++o) {
            if (!cnt[o])
                continue;
            ot_task c = {t.start + first[o], cnt[o],
                         t.depth + 1,        t.buf ^ 1,
                         2 * t.ix + (o & 1), 2 * t.iy + ((o >> 1) & 1),
                         2 * t.iz + (o >> 2)};
            if (cnt[o] > max_children && !last_level) {
                if (top == cap) {
                    ot_task *s2 = realloc(stack, 2 * cap * sizeof *stack);
                    if (!s2) {
                        free(buf[0]);
                        free(buf[1]);
                        free(stack);
                        return -1;
                    }
                    stack = s2;
                    cap *= 2;
                }
                stack[top++] = c;
            } else {
                leaves[(*nleaves)++] = (app_ot_leaf){c.start, c.count, c.depth, c.ix, c.iy, c.iz, 0, 0};
            }
        }
    }
    free(buf[0]);
    free(buf[1]);
    free(stack);
    return 0;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

app_ot_summary app_octree_summarize(const app_ot_leaf *leaves, uint32_t nleaves)
{
    app_ot_summary s = {0};
    s.leaves = nleaves;
    for (uint32_t i = 0; i < nleaves; ++i) {
        const app_ot_leaf *l = &leaves[i];
        if (l->depth > s.max_depth)
            s.max_depth = l->depth;
        s.leaf_hash += mix64(((uint64_t)l->depth << 58) ^ ((uint64_t)l->ix << 38) ^ ((uint64_t)l->iy << 19) ^ l->iz ^
                             ((uint64_t)l->count * 0x9E3779B97F4A7C15ull));
    }
    return s;
}

int app_octree_check(const float *in, uint32_t n, uint32_t max_children, const float *out, const app_ot_leaf *leaves,
                     uint32_t nleaves, char *msg, size_t msg_len)
{
    uint8_t *seen = calloc((size_t)n + 1, 1);
    if (!seen)
        return -1;
    int bad = 1;
    uint64_t total = 0;
    for (uint32_t li = 0; li < nleaves; ++li) {
        const app_ot_leaf *l = &leaves[li];
        if (l->count == 0 || l->depth == 0 || l->depth > APP_OCTREE_DEPTH_LIMIT) {
            snprintf(msg, msg_len, "leaf %u: %u particles at depth %u", li, l->count, l->depth);
            goto done;
        }
        if (l->count > max_children && l->depth < APP_OCTREE_DEPTH_LIMIT) {
            snprintf(msg, msg_len, "leaf %u holds %u particles (max %u) at depth %u", li, l->count, max_children,
                     l->depth);
            goto done;
        }
        if ((uint64_t)l->start + l->count > n) {
            snprintf(msg, msg_len, "leaf %u: range %u+%u beyond %u particles", li, l->start, l->count, n);
            goto done;
        }
        total += l->count;
        uint32_t side = 1u << l->depth;
        if (l->ix >= side || l->iy >= side || l->iz >= side) {
            snprintf(msg, msg_len, "leaf %u: cube (%u,%u,%u) outside depth %u", li, l->ix, l->iy, l->iz, l->depth);
            goto done;
        }
        for (uint32_t k = 0; k < l->count; ++k) {
            const float *q = out + 4 * ((size_t)l->start + k);
            uint32_t id;
            memcpy(&id, &q[3], 4);
            if (id >= n || seen[id]) {
                snprintf(msg, msg_len, "leaf %u: particle id %u %s", li, id, id >= n ? "out of range" : "twice");
                goto done;
            }
            seen[id] = 1;
            if (memcmp(q, in + 4 * (size_t)id, 12) != 0) {
                snprintf(msg, msg_len, "particle %u changed its coordinates", id);
                goto done;
            }
            float s = (float)side;
            uint32_t c[3] = {l->ix, l->iy, l->iz};
            for (int d = 0; d < 3; ++d)
                if ((uint32_t)(q[d] * s) != c[d]) {
                    snprintf(msg, msg_len, "particle %u (%g,%g,%g) outside leaf %u's cube (%u,%u,%u)/2^%u", id, q[0],
                             q[1], q[2], li, l->ix, l->iy, l->iz, l->depth);
                    goto done;
                }
        }
    }
    if (total != n) {
        snprintf(msg, msg_len, "leaves hold %llu particles, expected %u", (unsigned long long)total, n);
        goto done;
    }
    bad = 0;
done:
    free(seen);
    return bad;
}

uint32_t app_octree_capacity(uint32_t n, uint32_t max_children, uint32_t nq)
{
    uint64_t live = (uint64_t)n / (max_children + 1) + 8;
    return (uint32_t)((live + nq - 1) / nq + 8);
}
