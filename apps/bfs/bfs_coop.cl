/* apps/bfs/bfs_coop.cl: cooperative frontier BFS, the shape of the paper's
 * Figure 4. Owner: apps.
 *
 * levels[v] is -1 for unvisited nodes and levels[source] = 0 at launch;
 * front0 holds the source and sizes = {1, 0}. Each level the active
 * work-items stride over the in-frontier (tid and stride recomputed from
 * get_global_id/get_global_size after every resizing barrier, since M may
 * change there), claim unvisited neighbours with a compare-exchange on
 * their level and push them to the out-frontier with an atomic increment of
 * its size. Frontier selectors and the level are `transmit` variables, so
 * work-groups that join at a resizing barrier know which arrays to use and
 * which level they are on. Everything else lives in global memory.
 *
 * The same file compiles as a plain OpenCL kernel (ck_cooperative.h turns the
 * resizing barriers into an occupancy-bound spin barrier): launch it then
 * with no more groups than the occupancy, and pass the two barrier words. */
#ifndef CK_MEGAKERNEL
#define CK_PLAIN_BARRIER_WORDS plain_barrier
#endif
#include "ck_cooperative.h"

kernel void bfs_coop(global const int *row, global const int *col, global int *levels, global int *front0,
                     global int *front1, global int *sizes, volatile global uint *plain_barrier)
{
    transmit int level = 0;
    transmit int in_sel = 0;
    while (((volatile global int *)sizes)[in_sel] > 0) {
        int tid = (int)get_global_id(0);
        int stride = (int)get_global_size(0);
        global int *in = in_sel ? front1 : front0;
        global int *out = in_sel ? front0 : front1;
        volatile global int *out_size = (volatile global int *)&sizes[1 - in_sel];
        int n_in = ((volatile global int *)sizes)[in_sel];
        for (int i = tid; i < n_in; i += stride) {
            int v = in[i];
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int u = col[e];
                if (((volatile global int *)levels)[u] == -1 &&
                    atomic_cmpxchg((volatile global int *)&levels[u], -1, level + 1) == -1)
                    out[atomic_inc(out_size)] = u;
            }
        }
        in_sel = 1 - in_sel;
        resizing_global_barrier();
        if (get_global_id(0) == 0)
            ((volatile global int *)sizes)[1 - in_sel] = 0;
        level++;
        resizing_global_barrier();
    }
}
