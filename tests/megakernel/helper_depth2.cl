/* A resizing barrier two calls deep inside the kernel's loop; the
 * level-2 helper hf_write_check is in helper_common.cl. */

/* Level 1: one round. Its own transmit variable `tag` must survive the
 * second barrier; the barrier keeps the checks of this round apart from the
 * writes of the next. */
void hf_round(global uint *bad, global uint *seen, global uint *data, uint width, uint round)
{
    transmit uint tag = round * 3u + 1u;
    uint errs = hf_write_check(data, width, round);
    if (errs)
        atomic_add(&bad[0], errs);
    if (get_local_id(0) == 0)
        atomic_inc(&seen[0]);
    barrier(CLK_GLOBAL_MEM_FENCE);
    resizing_global_barrier();
    if (tag != round * 3u + 1u)
        atomic_inc(&bad[1]);
}

/* A resizing barrier two calls deep, inside the kernel's loop. */
kernel void helper_depth2(global uint *bad, global uint *seen, global uint *data, uint rounds, uint width)
{
    for (transmit uint r = 0; r < rounds; r++)
        hf_round(bad, seen, data, width, r);
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        seen[1] = rounds;
}
