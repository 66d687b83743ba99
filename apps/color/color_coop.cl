/* apps/color/color_coop.cl: cooperative graph colouring, Pannotia's color1
 * and color2 kernels merged into one persistent loop as in the paper's port.
 * Owner: apps.
 *
 * Per round: (1) every uncoloured node stores in max_d the largest priority
 * of its uncoloured neighbours (-1 if none), and sets the round's stop flag
 * if it has an uncoloured neighbour at all; resizing barrier; (2) every
 * uncoloured node whose priority beats max_d gets the round's colour; if the
 * round's stop flag stayed clear every node is coloured now and the loop
 * ends; else the other flag is cleared for the next round, the colour
 * advances, resizing barrier. Two stop flags alternate so that one barrier
 * separates writing a flag, reading it and clearing it. node_value[v] = v
 * (see color.h). The colour and the flag selector are `transmit` variables:
 * a group that joins at a barrier needs both; tid and stride are recomputed
 * after every barrier because M may change there. colors starts at -1 and
 * both flags at 0.
 *
 * The same file compiles as a plain OpenCL kernel (the baseline: launch it
 * with no more groups than the occupancy and pass the two barrier words). */
#ifndef CK_MEGAKERNEL
#define CK_PLAIN_BARRIER_WORDS plain_barrier
#endif
#include "ck_cooperative.h"

kernel void color_coop(global const int *row, global const int *col, global const int *node_value,
                       volatile global int *colors, volatile global int *max_d, volatile global int *stops, int n,
                       volatile global uint *plain_barrier)
{
    transmit int color = 0;
    transmit int sel = 0;
    while (1) {
        int tid = (int)get_global_id(0);
        int stride = (int)get_global_size(0);
        for (int v = tid; v < n; v += stride) {
            if (colors[v] != -1)
                continue;
            int best = -1;
            int any = 0;
            int end = row[v + 1];
            for (int e = row[v]; e < end; e++) {
                int u = col[e];
                if (colors[u] == -1) {
                    any = 1;
                    best = max(best, node_value[u]);
                }
            }
            max_d[v] = best;
            if (any)
                stops[sel] = 1;
        }
        resizing_global_barrier();
        tid = (int)get_global_id(0);
        stride = (int)get_global_size(0);
        for (int v = tid; v < n; v += stride)
            if (colors[v] == -1 && node_value[v] > max_d[v])
                colors[v] = color;
        if (stops[sel] == 0)
            break;
        stops[1 - sel] = 0;
        sel = 1 - sel;
        color++;
        resizing_global_barrier();
    }
}
