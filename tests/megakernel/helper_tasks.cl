/* Work stealing with the kernel's offer_kill and request_fork inside a
 * get_task() helper. */

/* Work stealing: get_task() holds the kernel's offer_kill and request_fork;
 * a forked group starts inside it and claims a task. The group's local slot
 * is the kernel's array, passed by name (the stitcher substitutes it). */
int hf_get_task(global int *next, int n, local int *slot)
{
    offer_kill();
    request_fork();
    if (get_local_id(0) == 0) {
        int t = atomic_inc(next);
        slot[0] = t < n ? t : -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int t = slot[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < 0)
        return -1;
    return t;
}

/* Every task is done exactly once (done[t] == 1, checked by the host); each
 * thread of the group checks that the task it got is its group's. */
kernel void helper_tasks(global uint *bad, global uint *seen, global int *next, global uint *done, int n)
{
    local int slot[1];
    local int mine[1];
    for (;;) {
        int t = hf_get_task(next, n, slot);
        if (t < 0)
            break;
        if (get_local_id(0) == 0) {
            mine[0] = t;
            atomic_inc(&done[t]);
            atomic_inc(&seen[0]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (mine[0] != t)
            atomic_inc(&bad[0]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
