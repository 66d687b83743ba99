/* Kernels for the launch API tests. */
#include "ck_cooperative.h"

kernel void scale(global float *x, float a, uint n)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        x[i] = x[i] * a;
}

kernel void ids(global uint *out) { out[get_global_id(0)] = get_group_id(0) * 1000u + get_num_groups(0); }

kernel void with_local(global uint *out, local uint *tmp)
{
    tmp[get_local_id(0)] = get_local_id(0) + 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        uint s = 0;
        for (uint i = 0; i < get_local_size(0); ++i)
            s += tmp[i];
        out[get_group_id(0)] = s;
    }
}

/* A cooperative kernel with a work-stealing-shaped loop: offer_kill and
 * request_fork at the top; each step claims one unit of work per
 * work-item. The group leaves the loop as a whole: the primitives are
 * work-group functions, so every work-item of a group must reach each call
 * (a per-work-item break, as an earlier version had, is undefined; on PoCL
 * it made work-items run the loop again with an index past the end). */
kernel void counter(global uint *next, global uint *done, uint total)
{
    local uint base;
    for (;;) {
        offer_kill();
        request_fork();
        if (get_local_id(0) == 0)
            base = atomic_add(next, get_local_size(0));
        barrier(CLK_LOCAL_MEM_FENCE);
        uint first = base;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (first >= total)
            break; /* the same value in every work-item */
        uint i = first + get_local_id(0);
        if (i < total)
            atomic_inc(&done[i]);
    }
}

/* The most argument words a launch carries (28): a buffer and 27 ulongs. */
kernel void many_args(global ulong *out, ulong a1, ulong a2, ulong a3, ulong a4, ulong a5, ulong a6, ulong a7,
                      ulong a8, ulong a9, ulong a10, ulong a11, ulong a12, ulong a13, ulong a14, ulong a15,
                      ulong a16, ulong a17, ulong a18, ulong a19, ulong a20, ulong a21, ulong a22, ulong a23,
                      ulong a24, ulong a25, ulong a26, ulong a27)
{
    ulong s = a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 + 9 * a9 + 10 * a10 + 11 * a11 +
              12 * a12 + 13 * a13 + 14 * a14 + 15 * a15 + 16 * a16 + 17 * a17 + 18 * a18 + 19 * a19 + 20 * a20 +
              21 * a21 + 22 * a22 + 23 * a23 + 24 * a24 + 25 * a25 + 26 * a26 + 27 * a27;
    out[get_global_id(0)] = s + get_group_id(0);
}
