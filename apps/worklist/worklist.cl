/* apps/worklist/worklist.cl: the data-driven worklist skeleton of
 * LonestarGPU's bfs-worklistc and sssp, shared by the bfs-wl and l-sssp
 * applications (mode 0: BFS levels claimed by compare-exchange; mode 1:
 * SSSP distances lowered by atomic_min over weighted edges, duplicates in
 * the worklist allowed). Owner: apps (bfs-wl, l-sssp).
 *
 * Each iteration takes the in-worklist in tiles of one work-group: the
 * tile's nodes lay out their edges by a local prefix sum of their degrees,
 * the group walks those edges a work-group's width at a time (so a hub is
 * shared by the whole group), and every work-item that lowered a node's
 * value pushes it with work-group prefix-sum aggregation: a local prefix sum
 * of the pushes, ONE atomic add on the out-worklist's size per group and
 * step, then each work-item writes its slot.
 *
 * dist: mode 0: -1 unvisited, the source 0; mode 1: INT_MAX unreached, the
 * source 0. ctl: [0], [1] the sizes of worklists wl0 and wl1 (launch: {1, 0}
 * with the source in wl0), [2] counts the pushes that found no room (cap
 * entries per worklist), [3] iterations run (written at the end). A push
 * past cap is dropped, counted in ctl[2] and leaves the out size above cap, which
 * ends the loop: the host reports the overflow, results are void then.
 * lm: local scratch of lm_ints ints, at least 4 * local size + 4; with less,
 * the kernel runs no iteration and leaves ctl[3] = -1.
 *
 * worklist_coop is the cooperative kernel (two resizing barriers per
 * iteration; the worklist selector and the iteration are `transmit`, so a
 * group that joins at a barrier knows which list to read and which level it
 * is on). Without the framework the same kernel is the occupancy-bound
 * persistent baseline (pass the two barrier words), and worklist_step is one
 * iteration of the multi-launch baseline. */
#ifndef CK_MEGAKERNEL
#define CK_PLAIN_BARRIER_WORDS plain_barrier
#endif
#include "ck_cooperative.h"

#define WL_INF 0x7fffffff

/* Inclusive prefix sum of a[0 .. local size) in place (Hillis-Steele); every
 * work-item gets the total. Called by the whole group. */
int wl_scan(local int *a)
{
    int lid = (int)get_local_id(0), lsz = (int)get_local_size(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < lsz; off <<= 1) {
        int t = lid >= off ? a[lid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        a[lid] += t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return a[lsz - 1];
}

/* Relaxes the out-edges of the in-worklist entries base .. base + local
 * size - 1 (those below n_in) and pushes the nodes it lowered into out.
 * Called by the whole group. */
void wl_tile(global const int *row, global const int *col, global const int *w, global int *dist,
             global const int *in, int n_in, global int *out, volatile global int *out_size,
             volatile global int *overflow, int cap, int mode, int level, int base, local int *lm)
{
    int lid = (int)get_local_id(0), lsz = (int)get_local_size(0);
    local int *l_incl = lm;           /* prefix sums of the tile's degrees     */
    local int *l_start = lm + lsz;    /* first edge of each tile entry         */
    local int *l_val = lm + 2 * lsz;  /* its level (BFS) or distance (SSSP)    */
    local int *l_push = lm + 3 * lsz; /* prefix sums of the pushes of a step   */
    local int *l_base = lm + 4 * lsz; /* the step's slot in out                */
    int i = base + lid, deg = 0, start = 0, val = 0;
    if (i < n_in) {
        int v = ((volatile global const int *)in)[i];
        start = row[v];
        deg = row[v + 1] - start;
        val = mode ? ((volatile global int *)dist)[v] : level;
        if (mode && val == WL_INF)
            deg = 0;
    }
    l_incl[lid] = deg;
    l_start[lid] = start;
    l_val[lid] = val;
    int total = wl_scan(l_incl);
    for (int e0 = 0; e0 < total; e0 += lsz) {
        int j = e0 + lid, push = 0, u = 0;
        if (j < total) {
            int lo = 0, hi = lsz - 1; /* the entry whose edges hold j: first l_incl > j */
            while (lo < hi) {
                int mid = (lo + hi) >> 1;
                if (l_incl[mid] > j)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            int e = l_start[lo] + j - (lo ? l_incl[lo - 1] : 0);
            u = col[e];
            volatile global int *du = (volatile global int *)&dist[u];
            if (mode == 0) {
                int nl = l_val[lo] + 1;
                push = *du == -1 && atomic_cmpxchg(du, -1, nl) == -1;
            } else {
                int we = w[e];
                int nd = l_val[lo] <= WL_INF - we ? l_val[lo] + we : WL_INF;
                push = nd < *du && atomic_min(du, nd) > nd;
            }
        }
        l_push[lid] = push;
        int n_push = wl_scan(l_push);
        if (lid == 0)
            l_base[0] = n_push > 0 ? atomic_add(out_size, n_push) : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (push) {
            int pos = l_base[0] + l_push[lid] - 1;
            if (pos >= 0 && pos < cap)
                out[pos] = u;
            else
                atomic_inc(overflow); /* counts the dropped pushes */
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Whether another iteration runs: the in-worklist is not empty and did not
 * overflow (read by every work-item after a barrier: all agree). */
int wl_more(global int *ctl, int in_sel, int cap)
{
    int n = ((volatile global int *)ctl)[in_sel];
    return n > 0 && n <= cap;
}

/* Whether the local scratch holds a tile's arrays. */
int wl_fits(int lm_ints) { return 4 * (int)get_local_size(0) + 4 <= lm_ints; }

kernel void worklist_coop(global const int *row, global const int *col, global const int *w, global int *dist,
                          global int *wl0, global int *wl1, global int *ctl, int cap, int mode, local int *lm,
                          int lm_ints, volatile global uint *plain_barrier)
{
    transmit int in_sel = 0;
    transmit int iter = 0;
    while (wl_fits(lm_ints) && wl_more(ctl, in_sel, cap)) {
        int lsz = (int)get_local_size(0);
        int n_in = ((volatile global int *)ctl)[in_sel];
        global int *in = in_sel ? wl1 : wl0;
        global int *out = in_sel ? wl0 : wl1;
        int first = (int)get_group_id(0) * lsz, step = (int)get_num_groups(0) * lsz;
        for (int base = first; base < n_in; base += step)
            wl_tile(row, col, w, dist, in, n_in, out, (volatile global int *)&ctl[1 - in_sel],
                    (volatile global int *)&ctl[2], cap, mode, iter, base, lm);
        in_sel = 1 - in_sel;
        resizing_global_barrier();
        if (get_global_id(0) == 0)
            ((volatile global int *)ctl)[1 - in_sel] = 0;
        iter++;
        resizing_global_barrier();
    }
    if (get_global_id(0) == 0)
        ((volatile global int *)ctl)[3] = wl_fits(lm_ints) ? iter : -1;
    barrier(CLK_GLOBAL_MEM_FENCE);
}

/* One iteration of the multi-launch baseline: the groups of the launch take
 * the in-worklist's tiles; the host zeroes *out_size before and swaps the
 * lists after. */
kernel void worklist_step(global const int *row, global const int *col, global const int *w, global int *dist,
                          global const int *in, int n_in, global int *out, global int *ctl, int cap, int mode,
                          int level, local int *lm)
{
    int lsz = (int)get_local_size(0);
    int first = (int)get_group_id(0) * lsz, step = (int)get_num_groups(0) * lsz;
    for (int base = first; base < n_in; base += step)
        wl_tile(row, col, w, dist, in, n_in, out, (volatile global int *)&ctl[0], (volatile global int *)&ctl[2],
                cap, mode, level, base, lm);
}
