/* apps/tasks/beside.cl (owner: apps, tasks): the cooperative kernel that
 * tools/cktasks --beside runs while forms (d) and (f) run their tasks, so
 * that the tasks take their workers from it as they come (gathering by
 * offer_kill) and hand them back (request_fork).
 *
 * Every step of every group claims units of work, one per work-item, and
 * counts them, unit i once in done[i % slots], until the group sees the
 * host's *stop (a step claims before it looks, so group 0, never killed,
 * claims at least once).
 * The host checks, once it has stopped the kernel, that the counts add up
 * to the units claimed (*next): no unit lost or counted twice across kills
 * and forks. */
#include "ck_cooperative.h"

kernel void tasks_beside(global volatile uint *stop, global uint *next, global uint *done, uint slots)
{
    local uint base, halt;
    for (;;) {
        offer_kill();
        request_fork();
        if (get_local_id(0) == 0) {
            base = atomic_add(next, get_local_size(0));
            halt = atomic_or(stop, 0u);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint first = base, h = halt;
        barrier(CLK_LOCAL_MEM_FENCE);
        atomic_inc(&done[(first + get_local_id(0)) % slots]);
        if (h)
            break;
    }
}
