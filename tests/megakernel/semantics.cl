/* Kernels that check the rules of docs/DESIGN.md section 2 from the inside. Each
 * counts violations into `bad` (index per rule) and evidence that the rule
 * was exercised into `seen`; the host asserts bad == 0 and seen > 0. */

/* An ordinary kernel used to make the scheduler ask for groups back. `out`
 * holds `len` words: on a GPU the work-items outnumber them by far. */
kernel void busy(global uint *out, uint n, uint len)
{
    uint acc = (uint)get_global_id(0);
    for (uint i = 0; i < n; ++i)
        acc = acc * 1664525u + 1013904223u;
    out[get_global_id(0) % len] = acc;
}

/* Kill and fork rules: at every step a live group's id is below M (a kill of
 * anything but M-1 would leave a live group with id >= M), no two live groups
 * share an id (busy flag per id), forked groups get thread 0's transmit
 * values, and group 0 reaches the end. */
kernel void kill_fork_rules(global uint *bad, global uint *seen, global uint *busy_id, uint steps)
{
    transmit uint step = 0;
    transmit uint token = 0;
    transmit uint origin = 0;
    while (step < steps) {
        offer_kill();
        uint id = get_group_id(0);
        uint m = get_num_groups(0);
        if (get_local_id(0) == 0) {
            if (id >= m)
                atomic_inc(&bad[0]);
            if (atomic_cmpxchg(&busy_id[id], 0u, 1u) != 0u)
                atomic_inc(&bad[1]);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (get_local_id(0) == 0)
            atomic_xchg(&busy_id[id], 0u);
        step++;
        /* Every thread holds a different token; a forked group must get the
         * values of thread 0 of the forking group. */
        token = get_local_id(0) * 1000u + step;
        origin = get_group_id(0);
        request_fork();
        if (origin != get_group_id(0)) { /* this group was just forked */
            if (token != step)
                atomic_inc(&bad[2]);
            if (get_local_id(0) == 1)
                atomic_inc(&seen[2]);
        } else if (token != get_local_id(0) * 1000u + step) {
            atomic_inc(&bad[2]);
        }
        if (get_local_id(0) == 0)
            atomic_inc(&seen[0]);
    }
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        seen[1] = 1u; /* group 0 finished */
}

/* Resizing-barrier rules: M is the same at both ends of an interval, ids are
 * below M, data written before a barrier is seen by every group after it,
 * and forked groups arrive with the transmitted round. */
kernel void resizing_rules(global uint *bad, global uint *seen, global uint *data, uint rounds, uint width)
{
    transmit uint round = 0;
    while (round < rounds) {
        uint m = get_num_groups(0);
        uint id = get_group_id(0);
        if (id >= m && get_local_id(0) == 0)
            atomic_inc(&bad[0]);
        for (uint i = get_global_id(0); i < width; i += get_global_size(0))
            data[i] = round * width + i;
        if (get_num_groups(0) != m && get_local_id(0) == 0)
            atomic_inc(&bad[2]); /* M moved inside an interval */
        resizing_global_barrier();
        /* Everything written before the barrier, by any group, is visible. */
        for (uint i = get_global_id(0); i < width; i += get_global_size(0)) {
            uint j = (i * 7u + 3u) % width;
            if (data[j] != round * width + j)
                atomic_inc(&bad[1]);
        }
        uint m2 = get_num_groups(0);
        round++;
        if (get_local_id(0) == 0)
            atomic_inc(&seen[0]);
        global_barrier();
        if (get_num_groups(0) != m2 && get_local_id(0) == 0)
            atomic_inc(&bad[3]); /* M moved without a resize */
        resizing_global_barrier();
    }
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        seen[1] = round;
}

/* Global-barrier memory ordering with a fixed number of groups: each round
 * every group writes its slot, passes the barrier, checks every slot. */
kernel void barrier_ordering(global uint *bad, global uint *seen, global uint *slots, uint rounds)
{
    uint id = get_group_id(0);
    for (uint r = 1; r <= rounds; ++r) {
        uint m = get_num_groups(0);
        if (get_local_id(0) == 0)
            slots[id] = r;
        global_barrier();
        for (uint g = get_local_id(0); g < m; g += get_local_size(0))
            if (slots[g] != r)
                atomic_inc(&bad[0]);
        global_barrier();
        if (get_local_id(0) == 0 && id == 0)
            atomic_inc(&seen[0]);
    }
}

/* A short run of resizing barriers, launched again and again in one context:
 * after barrier r every live group counts itself once and group 0 records
 * M', so the counts equal M' exactly. A group dropped by one launch that
 * joined the next launch in the same slot (the straggler rule) would count
 * twice or leave a real group behind. */
kernel void relaunch_rounds(global uint *count, global uint *mprime, uint rounds)
{
    transmit uint r = 0;
    while (r < rounds) {
        resizing_global_barrier();
        if (get_local_id(0) == 0) {
            atomic_inc(&count[r]);
            if (get_group_id(0) == 0)
                mprime[r] = get_num_groups(0);
        }
        r++;
    }
}

/* Never yields: loops on global barriers until the host writes a nonzero
 * word. Group 0 samples the word and every group acts on that sample after
 * a barrier, so all groups leave the loop at the same iteration. */
kernel void hog(volatile global uint *release, global uint *bad)
{
    for (;;) {
        if (get_group_id(0) == 0 && get_local_id(0) == 0)
            release[1] = release[0];
        global_barrier();
        uint stop = release[1];
        global_barrier();
        if (stop)
            break;
    }
}
