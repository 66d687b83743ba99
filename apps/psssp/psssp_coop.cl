/* apps/psssp/psssp_coop.cl: cooperative Pannotia SSSP (min-plus SpMV),
 * three resizing barriers per round. Owner: apps (p-sssp).
 *
 * dist[] holds the current distances (INT_MAX: not reached; the host sets
 * dist[source] = 0 and everything else to INT_MAX before the launch). Each
 * round:
 *   copy   dist_old[v] = dist[v];
 *   relax  dist[v] = min(dist_old[v], min over in-edges (u, v) of
 *          dist_old[u] + w(u, v))  (the graph is symmetric, so the in-edges
 *          of v are its CSR row);
 *   diff   any dist[v] != dist_old[v] sets flags[round & 1];
 * and the round's flag, read by every work-item after the third barrier,
 * says whether another round is needed. Two flags alternate: flag r & 1 is
 * cleared during round r's copy phase, when its last readers (round r - 2)
 * are two barriers behind. Every node is written by the one work-item that
 * owns it in that phase, so no atomics are needed. `round` is transmitted so
 * groups that join at a resizing barrier use the right flag; the work-item's
 * index and stride are read again after every barrier (M may change there).
 * The phase is transmitted too, so the body has a single fork point: the
 * stitcher resumes a fork point by copying the code after it, and three
 * fork points in a row made the megakernel slow to compile on PoCL.
 *
 * The same file compiles as the plain persistent baseline (ck_cooperative.h
 * turns the barriers into an occupancy-bound spin barrier over the two words
 * at plain_barrier). */
#ifndef CK_MEGAKERNEL
#define CK_PLAIN_BARRIER_WORDS plain_barrier
#endif
#include "ck_cooperative.h"

#define PSSSP_INF 0x7fffffff

kernel void psssp_coop(global const int *row, global const int *col, global const int *w, int n, global int *dist,
                       global int *dist_old, global int *flags, volatile global uint *plain_barrier)
{
    transmit int round = 0;
    transmit int phase = 0; /* 0 copy, 1 relax, 2 diff */
    transmit int more = 1;
    while (more) {
        int tid = (int)get_global_id(0);
        int stride = (int)get_global_size(0);
        if (phase == 0) {
            if (tid == 0)
                ((volatile global int *)flags)[round & 1] = 0;
            for (int v = tid; v < n; v += stride)
                dist_old[v] = dist[v];
        } else if (phase == 1) {
            for (int v = tid; v < n; v += stride) {
                int best = dist_old[v];
                int end = row[v + 1];
                for (int e = row[v]; e < end; e++) {
                    int du = dist_old[col[e]];
                    int wt = w[e];
                    /* du + wt would pass INT_MAX: no shorter than infinity */
                    if (du <= PSSSP_INF - wt && du + wt < best)
                        best = du + wt;
                }
                dist[v] = best;
            }
        } else {
            for (int v = tid; v < n; v += stride)
                if (dist[v] != dist_old[v])
                    ((volatile global int *)flags)[round & 1] = 1;
        }
        phase = phase == 2 ? 0 : phase + 1;
        resizing_global_barrier();
        if (phase == 0) { /* the round's diff is done */
            more = ((volatile global int *)flags)[round & 1];
            round++;
        }
    }
}
