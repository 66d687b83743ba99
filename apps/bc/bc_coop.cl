/* apps/bc/bc_coop.cl: cooperative Pannotia betweenness centrality (Brandes,
 * unweighted) with the loop over the sources inside the kernel. Owner: apps
 * (bc).
 *
 * Per source s, two phases, each a helper that performs ONE level step and
 * ends with resizing_global_barrier(), so that groups may join and leave at
 * every level of both sweeps:
 *   forward   bc_forward_level: level-synchronous BFS counting shortest
 *             paths; its step for level 0 is also the source's init
 *             (level[v] = 0 for s, 1 for the neighbours of s, else -1;
 *             sigma[v] = 1 for s, the number of arcs to s for v != s;
 *             delta[v] = 0), so the init costs no step of its own;
 *   backward  bc_backward_level: the dependencies of one level, from the
 *             deepest up, each added to bc[v].
 * Instead of the original's n x n predecessor matrix the levels say who is
 * a predecessor: u precedes v iff level[u] == level[v] - 1. Both sweeps pull
 * (each node computes its own value from its neighbours), so every value is
 * written by the one work-item that owns the node and no atomics are needed.
 * Path counts, dependencies and bc are float, as in Pannotia.
 *
 * The shape is chosen for the stitcher and for PoCL. The kernel is one loop
 * whose every iteration calls bc_forward_level and then bc_backward_level,
 * both unconditionally; the one whose phase it is not does nothing but its
 * barrier (then the phase is the other's). So:
 *  - in the plain persistent build (ck_cooperative.h turns both barriers
 *    into an occupancy-bound spin barrier with barrier() inside, over the
 *    words at plain_barrier, which the helpers therefore take as a
 *    parameter) every helper holding a barrier is called unconditionally and
 *    reaches its barrier on every path: PoCL's compiler crashed on a form
 *    that chose the phase helper under an `if` on the phase;
 *  - in the megakernel the two fork points sit in one loop with nothing
 *    around them: the stitcher's resume code of the first is the rest of its
 *    helper and one more copy of bc_backward_level, that of the second the
 *    rest of bc_backward_level. A helper holding a loop over the levels (the
 *    other tried form) makes the stitcher copy the rest of that loop and of
 *    every phase after it, and PoCL took 386 s to build that megakernel.
 * The price is the idle barrier: a forward level costs two barriers, and so
 * does every backward level but the first (it shares the iteration of the
 * last forward step). A source of depth L >= 2 takes 4L - 2 barriers (the
 * per-phase form took 2L + 3, only 3 of them resizing); see apps/README.md
 * for the measured cost.
 *
 * State: s, phase and d (the level of the next step: forward, the level
 * whose successors join; backward, the level whose dependencies are
 * computed) are transmitted kernel variables that the helpers update
 * through pointers (the stitcher replaces such a parameter by its argument,
 * so the kernel's transmit variables are what a joining group receives).
 * The helpers read the work-item's index before their barrier only: M may
 * change at it.
 *
 * The forward sweep's "a node joined this level" flag rotates through three
 * words: step d sets flags[d % 3] and clears flags[(d + 1) % 3], whose last
 * readers (after barrier d - 2) are a barrier behind. Every source's
 * backward phase (at least one step, which may hold no level) clears all
 * three words, so each source starts with zero flags; the host zeroes them
 * before the launch. The clear cannot disturb a reader: the word read after
 * the last forward barrier is already 0 (that step added no node) and the
 * others were last read a barrier before. */
#ifndef CK_MEGAKERNEL
#define CK_PLAIN_BARRIER_WORDS plain_barrier
#endif
#include "ck_cooperative.h"

#define BC_FORWARD 0
#define BC_BACKWARD 1

/* In the forward phase: the nodes of level *d + 1 get their level and path
 * count (at *d == 0, every node its init for source s). Then the resizing
 * barrier; then, in the forward phase, *d + 1 next if a node joined, else
 * the backward phase from level *d - 1. */
void bc_forward_level(global const int *row, global const int *col, int n, int s, global int *level,
                      global float *sigma, global float *delta, global int *flags, int *phase, int *d,
                      volatile global uint *plain_barrier)
{
    if (*phase == BC_FORWARD) {
        volatile global int *flag = (volatile global int *)flags;
        int tid = (int)get_global_id(0);
        int stride = (int)get_global_size(0);
        int at = *d;
        if (tid == 0)
            flag[(at + 1) % 3] = 0;
        for (int v = tid; v < n; v += stride) {
            if (at == 0) {
                float arcs = 0.0f;
                int end = row[v + 1];
                for (int e = row[v]; e < end; e++)
                    if (col[e] == s)
                        arcs += 1.0f;
                int joins = v != s && arcs > 0.0f;
                level[v] = v == s ? 0 : joins ? 1 : -1;
                sigma[v] = v == s ? 1.0f : arcs;
                delta[v] = 0.0f;
                if (joins)
                    flag[0] = 1;
                continue;
            }
            if (level[v] != -1)
                continue;
            float paths = 0.0f;
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int u = col[e];
                if (level[u] == at)
                    paths += sigma[u];
            }
            if (paths > 0.0f) {
                level[v] = at + 1;
                sigma[v] = paths;
                flag[at % 3] = 1;
            }
        }
    }
    resizing_global_barrier();
    if (*phase == BC_FORWARD) {
        if (((volatile global int *)flags)[*d % 3]) {
            *d = *d + 1;
        } else {
            *phase = BC_BACKWARD;
            *d = *d - 1;
        }
    }
}

/* In the backward phase: the flags are cleared and, when *d >= 1, the
 * nodes of level *d get their dependency (from those of level *d + 1),
 * added to bc. Then the resizing barrier; then, in the backward phase,
 * level *d - 1 next, or after level 1 (or no level) the forward phase of
 * the next source. */
void bc_backward_level(global const int *row, global const int *col, int n, global const int *level,
                       global const float *sigma, global float *delta, global float *bc, global int *flags, int *s,
                       int *phase, int *d, volatile global uint *plain_barrier)
{
    if (*phase == BC_BACKWARD) {
        int tid = (int)get_global_id(0);
        int stride = (int)get_global_size(0);
        int at = *d;
        if (tid == 0) {
            volatile global int *flag = (volatile global int *)flags;
            flag[0] = 0;
            flag[1] = 0;
            flag[2] = 0;
        }
        for (int v = tid; at >= 1 && v < n; v += stride) {
            if (level[v] != at)
                continue;
            float sum = 0.0f;
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int w = col[e];
                if (level[w] == at + 1)
                    sum += (1.0f + delta[w]) / sigma[w];
            }
            float dep = sigma[v] * sum;
            delta[v] = dep;
            bc[v] += dep;
        }
    }
    resizing_global_barrier();
    if (*phase == BC_BACKWARD) {
        if (*d > 1) {
            *d = *d - 1;
        } else {
            *s = *s + 1;
            *phase = BC_FORWARD;
            *d = 0;
        }
    }
}

kernel void bc_coop(global const int *row, global const int *col, int n, int n_sources, global int *level,
                    global float *sigma, global float *delta, global float *bc, global int *flags,
                    volatile global uint *plain_barrier)
{
    transmit int s = 0;
    transmit int phase = BC_FORWARD;
    transmit int d = 0;
    while (s < n_sources) {
        bc_forward_level(row, col, n, s, level, sigma, delta, flags, &phase, &d, plain_barrier);
        bc_backward_level(row, col, n, level, sigma, delta, bc, flags, &s, &phase, &d, plain_barrier);
    }
}
