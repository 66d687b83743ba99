/* apps/mis/mis_coop.cl: cooperative maximal independent set, Pannotia's
 * mis1, mis2 and mis3 kernels merged into one persistent loop with three
 * resizing barriers per round, as in the paper's port. Owner: apps.
 *
 * status[v]: -1 undecided, 1 in the set, 0 out. Per round: (1) every
 * undecided node stores in min_d the smallest priority among its undecided
 * neighbours (INT_MAX if none) and sets the stop flag; barrier; every group
 * reads the flag into `go`; (2) every undecided node smaller than min_d joins
 * the set and marks its undecided neighbours in upd (a separate array, so
 * that nothing (2) reads changes under it: two adjacent nodes never both
 * join); barrier; if no node was undecided in (1) the loop ends; the flag is
 * cleared; (3) the marks are committed (status 0); barrier. `go` is
 * `transmit`: a group that joins at the second barrier reads it without
 * having seen the flag. tid and stride are recomputed after every barrier
 * because M may change there. node_value[v] = v (see mis.h). At launch
 * status and upd are -1 and the flag 0.
 *
 * The same file compiles as a plain OpenCL kernel (the baseline: launch it
 * with no more groups than the occupancy and pass the two barrier words). */
#ifndef CK_MEGAKERNEL
#define CK_PLAIN_BARRIER_WORDS plain_barrier
#endif
#include "ck_cooperative.h"

kernel void mis_coop(global const int *row, global const int *col, global const int *node_value,
                     volatile global int *status, volatile global int *upd, volatile global int *min_d,
                     volatile global int *stop, int n, volatile global uint *plain_barrier)
{
    transmit int go = 0;
    while (1) {
        int tid = (int)get_global_id(0);
        int stride = (int)get_global_size(0);
        int any = 0;
        for (int v = tid; v < n; v += stride) {
            if (status[v] != -1)
                continue;
            any = 1;
            int best = INT_MAX;
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int u = col[e];
                if (status[u] == -1)
                    best = min(best, node_value[u]);
            }
            min_d[v] = best;
        }
        if (any)
            *stop = 1;
        resizing_global_barrier();
        go = *stop;
        tid = (int)get_global_id(0);
        stride = (int)get_global_size(0);
        for (int v = tid; v < n; v += stride) {
            if (status[v] != -1 || node_value[v] >= min_d[v])
                continue;
            status[v] = 1;
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int u = col[e];
                if (status[u] == -1)
                    upd[u] = 0;
            }
        }
        resizing_global_barrier();
        if (go == 0)
            break;
        *stop = 0;
        tid = (int)get_global_id(0);
        stride = (int)get_global_size(0);
        for (int v = tid; v < n; v += stride)
            if (upd[v] == 0 && status[v] == -1)
                status[v] = 0;
        resizing_global_barrier();
    }
}
