/* Kernels for the launch API tests. */
#include "ck_cooperative.h"

kernel void scale(global float *x, float a, uint n)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        x[i] = x[i] * a;
}

kernel void ids(global uint *out)
{
    out[get_global_id(0)] = get_group_id(0) * 1000u + get_num_groups(0);
}

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
