/* apps/tasks/beside.cl (owner: apps, tasks): the cooperative kernel that
 * tools/cktasks --beside runs while forms (d) and (f) run their tasks, so
 * that the tasks take their workers from it as they come (gathering by
 * offer_kill) and hand them back (request_fork).
 *
 * Every step of every group claims one unit of work and counts it, unit i
 * once in done[i % slots], until the group sees the host's *stop (a step
 * claims before it looks, so group 0, never killed, claims at least once).
 * One unit a step, not one a work-item: an H200 runs tens of millions of
 * steps a second, and the counts must stay far from 2^32.
 * The host checks, once it has stopped the kernel, that the counts add up
 * to the units claimed (*next, which wraps: modulo 2^32): no unit lost or
 * counted twice across kills and forks. */
#include "ck_cooperative.h"

kernel void tasks_beside(global volatile uint *stop, global uint *next, global uint *done, uint slots)
{
    local uint halt;
    for (;;) {
        offer_kill();
        request_fork();
        if (get_local_id(0) == 0) {
            uint unit = atomic_add(next, 1u);
            halt = atomic_or(stop, 0u);
            atomic_inc(&done[unit % slots]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint h = halt;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (h)
            break;
    }
}
