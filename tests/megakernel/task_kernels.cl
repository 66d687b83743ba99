/* Kernels for the task API tests (test_tasks.c). */
#include "ck_cooperative.h"

/* Each work-item writes a value that depends on the task's arguments and on
 * its logical ids, at a place only it writes. */
kernel void stamp(global uint *out, uint task, uint key)
{
    uint wg = get_local_size(0);
    uint at = task * 4u * wg + get_group_id(0) * wg + get_local_id(0);
    out[at] = key ^ (get_group_id(0) << 20) ^ (get_num_groups(0) << 26) ^ get_local_id(0);
}

/* One increment per task, at its slot. */
kernel void bump(global uint *count, uint slot)
{
    if (get_local_id(0) == 0)
        atomic_inc(&count[slot]);
}

kernel void with_local(global uint *out, uint task, local uint *tmp)
{
    tmp[get_local_id(0)] = get_local_id(0) + task;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        uint s = 0;
        for (uint i = 0; i < get_local_size(0); ++i)
            s += tmp[i];
        out[task] = s;
    }
}

/* The most argument words (28): a buffer and 27 ulongs. */
kernel void many_args(global ulong *out, ulong a1, ulong a2, ulong a3, ulong a4, ulong a5, ulong a6, ulong a7,
                      ulong a8, ulong a9, ulong a10, ulong a11, ulong a12, ulong a13, ulong a14, ulong a15,
                      ulong a16, ulong a17, ulong a18, ulong a19, ulong a20, ulong a21, ulong a22, ulong a23,
                      ulong a24, ulong a25, ulong a26, ulong a27)
{
    ulong s = a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 + 9 * a9 + 10 * a10 + 11 * a11 +
              12 * a12 + 13 * a13 + 14 * a14 + 15 * a15 + 16 * a16 + 17 * a17 + 18 * a18 + 19 * a19 + 20 * a20 +
              21 * a21 + 22 * a22 + 23 * a23 + 24 * a24 + 25 * a25 + 26 * a26 + 27 * a27;
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = s;
}

/* Arguments on both sides of the express line's end (15 32-bit words;
 * every argument takes a 64-bit slot, megakernel/ck_channel_layout.h):
 * args7 has 7 arguments (14 words, all on the line); args8 has 8, its last
 * ulong with its low half on the line and its high half in the entry's
 * tail. Each group writes a weighted sum at its place. */
kernel void args7(global ulong *out, uint slot, uint a1, uint a2, uint a3, uint a4, ulong a5)
{
    ulong s = a1 + 3ul * a2 + 5ul * a3 + 7ul * a4 + 11ul * a5;
    if (get_local_id(0) == 0)
        out[slot * 2u + get_group_id(0)] = s ^ ((ulong)get_num_groups(0) << 60);
}

kernel void args8(global ulong *out, uint slot, uint a1, uint a2, uint a3, uint a4, ulong a5, ulong a6)
{
    ulong s = a1 + 3ul * a2 + 5ul * a3 + 7ul * a4 + 11ul * a5 + 13ul * a6;
    if (get_local_id(0) == 0)
        out[slot * 2u + get_group_id(0)] = s ^ ((ulong)get_num_groups(0) << 60);
}

/* Cooperative: holds every group it has until *release is nonzero (never
 * yields: no offer_kill, no resizing barrier). It forks onto idle workers
 * while nothing else wants them, so it comes to hold every worker even if
 * one was still on its way back from a task when it started; each group
 * marks present[its id] once it holds its worker. */
kernel void hold(global volatile uint *release, global uint *present)
{
    local uint go;
    for (;;) {
        request_fork();
        if (get_local_id(0) == 0) {
            present[get_group_id(0)] = 1u;
            go = atomic_or(release, 0u);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint g = go;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (g)
            break;
    }
}

/* Cooperative: claims units of work with offer_kill and request_fork at the
 * top of each step, so tasks can gather its workers. */
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
            break;
        uint i = first + get_local_id(0);
        if (i < total)
            atomic_inc(&done[i]);
    }
}

/* Round `round` of a relay: each group checks that its share of buf holds
 * the previous round's number (written by the task or launch before this
 * one, which the host saw done before it sent this one), adds what did not
 * to *stale, and writes this round's number. */
kernel void relay(global uint *buf, uint share, uint round, global uint *stale)
{
    global uint *mine = buf + get_group_id(0) * share;
    uint bad = 0;
    for (uint i = get_local_id(0); i < share; i += get_local_size(0)) {
        bad += mine[i] != round - 1u;
        mine[i] = round;
    }
    if (bad)
        atomic_add(stale, bad);
}
