/* Kernels of the shutdown tests (test_shutdown.c): cooperative kernels of
 * every shape that loops until the host writes *stop, each reaching a
 * different primitive (or only a global barrier inside a helper), and an
 * ordinary kernel for tasks and launches that wait behind them. A kernel
 * that never sees *stop must still leave when the megakernel is aborted. */
#include "ck_cooperative.h"

/* Thread 0 reads *stop; the whole group gets its value through `seen` (a
 * group leaves a loop with primitives as a whole). */
uint group_reads(global volatile uint *stop, local uint *seen)
{
    if (get_local_id(0) == 0)
        *seen = *stop;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = *seen;
    barrier(CLK_LOCAL_MEM_FENCE);
    return v;
}

/* The shape of apps/tasks/beside.cl without request_fork: group 0 is never
 * killed, so on abort only the abort takes it out of offer_kill. */
kernel void loop_offer(global volatile uint *stop)
{
    local uint seen;
    for (;;) {
        offer_kill();
        if (group_reads(stop, &seen))
            break;
    }
}

kernel void loop_fork(global volatile uint *stop)
{
    local uint seen;
    for (;;) {
        request_fork();
        if (group_reads(stop, &seen))
            break;
    }
}

/* Every group must leave together: group 0 copies *stop into stop[1]
 * between two barriers, and every group reads the copy. stop[2] tells the
 * host how many groups run (it waits for all of them). */
kernel void loop_barrier(global volatile uint *stop)
{
    for (;;) {
        if (get_group_id(0) == 0 && get_local_id(0) == 0) {
            stop[1] = stop[0];
            stop[2] = get_num_groups(0);
        }
        global_barrier();
        uint s = stop[1];
        global_barrier();
        if (s)
            break;
    }
}

kernel void loop_resizing(global volatile uint *stop)
{
    for (;;) {
        if (get_group_id(0) == 0 && get_local_id(0) == 0)
            stop[1] = stop[0];
        resizing_global_barrier();
        uint s = stop[1];
        global_barrier();
        if (s)
            break;
    }
}

/* The barrier inside a helper that returns nothing. */
void step(global volatile uint *stop)
{
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        stop[1] = stop[0];
    global_barrier();
}

kernel void loop_helper(global volatile uint *stop)
{
    for (;;) {
        step(stop);
        uint s = stop[1];
        global_barrier();
        if (s)
            break;
    }
}

/* Ordinary: counts its groups. */
kernel void count(global uint *n)
{
    if (get_local_id(0) == 0)
        atomic_inc(n);
}
