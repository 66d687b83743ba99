/* apps/bc/bc_coop.cl: cooperative Pannotia betweenness centrality (Brandes,
 * unweighted) with the loop over the sources inside the kernel. Owner: apps
 * (bc).
 *
 * Per source s, three phases, each followed by a resizing barrier (the
 * kernel's fork point):
 *   init      level[v] = -1 (0 for s), sigma[v] = 0 (1 for s), delta[v] = 0;
 *   forward   bc_forward: level-synchronous BFS counting shortest paths,
 *             one plain global_barrier() per level; returns the depth;
 *   backward  bc_backward: dependencies level by level from the deepest,
 *             one global_barrier() per level, each added to bc[v].
 * Instead of the original's n x n predecessor matrix the levels say who is
 * a predecessor: u precedes v iff level[u] == level[v] - 1. Both sweeps pull
 * (each node computes its own value from its neighbours), so every value is
 * written by the one work-item that owns the node and no atomics are needed.
 * Path counts, dependencies and bc are float, as in Pannotia.
 *
 * The forward sweep's "a node joined this level" flag rotates through three
 * words: step d sets flags[d % 3] and clears flags[(d + 1) % 3], whose last
 * readers (step d - 2) are a barrier behind; init clears all three. The
 * helpers run between two fork points, so M is fixed inside them (they read
 * the work-item's index once). s and depth are transmitted: groups that join
 * at a resizing barrier need the source and, after the forward phase, the
 * depth. The phase is a transmitted variable too, so that the kernel body has
 * a single fork point: the stitcher resumes a fork point by copying the code
 * that follows it, and PoCL took minutes to compile the three copies of the
 * barrier-holding helpers that three fork points in a row made.
 *
 * The same file compiles as the plain persistent baseline (ck_cooperative.h
 * turns both barriers into an occupancy-bound spin barrier over the words at
 * plain_barrier, which the helpers therefore take as a parameter too). */
#ifndef CK_MEGAKERNEL
#define CK_PLAIN_BARRIER_WORDS plain_barrier
#endif
#include "ck_cooperative.h"

/* Forward sweep from the source (level 0 set by init). Returns the deepest
 * level that holds a node. */
int bc_forward(global const int *row, global const int *col, int n, global int *level, global float *sigma,
               global int *flags, volatile global uint *plain_barrier)
{
    int tid = (int)get_global_id(0);
    int stride = (int)get_global_size(0);
    volatile global int *flag = (volatile global int *)flags;
    int d = 0;
    for (;;) {
        if (tid == 0)
            flag[(d + 1) % 3] = 0;
        for (int v = tid; v < n; v += stride) {
            if (level[v] != -1)
                continue;
            float paths = 0.0f;
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int u = col[e];
                if (level[u] == d)
                    paths += sigma[u];
            }
            if (paths > 0.0f) {
                level[v] = d + 1;
                sigma[v] = paths;
                flag[d % 3] = 1;
            }
        }
        global_barrier();
        if (!flag[d % 3])
            break;
        d++;
    }
    return d;
}

/* Backward sweep: levels depth-1 down to 1 (the deepest level's nodes and
 * the source have no dependency to add). */
void bc_backward(global const int *row, global const int *col, int n, global const int *level,
                 global const float *sigma, global float *delta, global float *bc, int depth,
                 volatile global uint *plain_barrier)
{
    int tid = (int)get_global_id(0);
    int stride = (int)get_global_size(0);
    for (int d = depth - 1; d >= 1; d--) {
        for (int v = tid; v < n; v += stride) {
            if (level[v] != d)
                continue;
            float sum = 0.0f;
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int w = col[e];
                if (level[w] == d + 1)
                    sum += (1.0f + delta[w]) / sigma[w];
            }
            float dep = sigma[v] * sum;
            delta[v] = dep;
            bc[v] += dep;
        }
        global_barrier();
    }
}

/* Init for source s: levels, path counts and dependencies. */
void bc_init(int n, int s, global int *level, global float *sigma, global float *delta, global int *flags)
{
    int tid = (int)get_global_id(0);
    int stride = (int)get_global_size(0);
    if (tid == 0) {
        flags[0] = 0;
        flags[1] = 0;
        flags[2] = 0;
    }
    for (int v = tid; v < n; v += stride) {
        level[v] = v == s ? 0 : -1;
        sigma[v] = v == s ? 1.0f : 0.0f;
        delta[v] = 0.0f;
    }
}

kernel void bc_coop(global const int *row, global const int *col, int n, int n_sources, global int *level,
                    global float *sigma, global float *delta, global float *bc, global int *flags,
                    volatile global uint *plain_barrier)
{
    transmit int s = 0;
    transmit int phase = 0; /* 0 init, 1 forward, 2 backward */
    transmit int depth = 0;
    while (s < n_sources) {
        if (phase == 0)
            bc_init(n, s, level, sigma, delta, flags);
        else if (phase == 1)
            depth = bc_forward(row, col, n, level, sigma, flags, plain_barrier);
        else
            bc_backward(row, col, n, level, sigma, delta, bc, depth, plain_barrier);
        if (phase == 2)
            s++;
        phase = phase == 2 ? 0 : phase + 1;
        resizing_global_barrier();
    }
}
