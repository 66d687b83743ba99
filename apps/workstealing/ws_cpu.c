/* apps/workstealing/ws_cpu.c: the task tree's definition on the host and the
 * sequential reference expansion (see ws.h; the device twin is ws.cl). */
#include "ws.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t app_ws_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

uint32_t app_ws_root_seed(uint64_t seed, uint32_t i)
{
    return app_ws_hash((uint32_t)seed ^ app_ws_hash((uint32_t)(seed >> 32) + i * 0x01000193u + 0x1234567u));
}

uint32_t app_ws_task_value(uint32_t seed, uint32_t units, uint32_t iters)
{
    uint32_t sum = 0;
    for (uint32_t u = 0; u < units; ++u) {
        uint32_t r = seed ^ (u * 0x9e3779b9u);
        for (uint32_t i = 0; i < iters; ++i)
            r = app_ws_hash(r + i);
        sum += r;
    }
    return sum;
}

uint32_t app_ws_children(uint32_t seed, uint32_t depth, uint32_t max_depth)
{
    if (depth >= max_depth)
        return 0;
    uint32_t k = app_ws_hash(seed ^ 0x5bd1e995u) & 7u;
    return k < 3u ? 0u : k < 6u ? 1u : k - 4u;
}

uint32_t app_ws_child_seed(uint32_t seed, uint32_t c) { return app_ws_hash(seed + (c + 1u) * 0x632be5abu); }

int app_ws_cpu(const app_ws_params *p, app_ws_result *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = (size_t)p->roots + 3 * ((size_t)p->max_depth + 1) + 16, top = 0;
    uint32_t(*stack)[2] = malloc(cap * sizeof *stack);
    if (!stack)
        return -1;
    for (uint32_t i = p->roots; i-- > 0;) {
        stack[top][0] = app_ws_root_seed(p->seed, i);
        stack[top++][1] = 0;
    }
    while (top > 0) {
        uint32_t seed = stack[top - 1][0], depth = stack[top - 1][1];
        --top;
        out->tasks++;
        out->checksum += app_ws_task_value(seed, p->units, p->iters);
        if (depth > out->max_depth_seen)
            out->max_depth_seen = depth;
        uint32_t nc = app_ws_children(seed, depth, p->max_depth);
        for (uint32_t c = 0; c < nc; ++c) {
            stack[top][0] = app_ws_child_seed(seed, c);
            stack[top++][1] = depth + 1;
        }
    }
    free(stack);
    return 0;
}

int app_ws_check(const app_ws_result *got, const app_ws_result *want, char *msg, size_t msg_len)
{
    int bad = 0;
    size_t used = 0;
    if (msg && msg_len)
        msg[0] = 0;
#define FIELD(cond, ...)                                                                                            \
    if (cond) {                                                                                                     \
        if (msg && used < msg_len) {                                                                                \
            int k_ = snprintf(msg + used, msg_len - used, "%s", bad ? "; " : "");                                   \
            used += k_ > 0 ? (size_t)k_ : 0;                                                                        \
            if (used < msg_len) {                                                                                   \
                k_ = snprintf(msg + used, msg_len - used, __VA_ARGS__);                                             \
                used += k_ > 0 ? (size_t)k_ : 0;                                                                    \
            }                                                                                                       \
        }                                                                                                           \
        ++bad;                                                                                                      \
    }
    FIELD(got->tasks != want->tasks, "tasks done: got %u, expected %u", got->tasks, want->tasks)
    FIELD(got->checksum != want->checksum, "checksum: got 0x%08x, expected 0x%08x", got->checksum, want->checksum)
    FIELD(got->overflow != 0, "%u tasks lost to full queues", got->overflow)
    FIELD(got->pending != 0, "%u tasks still pending at exit", got->pending)
#undef FIELD
    return bad;
}

uint32_t app_ws_capacity(const app_ws_params *p, uint32_t nq)
{
    /* A queue holds its share of the roots plus, along the owner's current
     * path, at most (3 - 1) waiting siblings per depth level. */
    return (p->roots + nq - 1) / nq + 2 * (p->max_depth + 1) + 16;
}
