/* The same helper with a fork point (hf_write_check, helper_common.cl) called
 * from two places. */

/* The same helper from two call sites, one in a loop (resumed by peeling) and
 * one after it (resumed by a jump): each resumes at its own site, which the
 * round numbers it checks prove (a group resumed at the wrong site would
 * check the other site's words). */
kernel void helper_two_sites(global uint *bad, global uint *seen, global uint *data, uint rounds, uint width)
{
    transmit uint r = 0;
    while (r < rounds) {
        uint e = hf_write_check(data, width, r);
        if (e)
            atomic_add(&bad[0], e);
        if (get_local_id(0) == 0)
            atomic_inc(&seen[0]);
        barrier(CLK_GLOBAL_MEM_FENCE);
        resizing_global_barrier();
        r++;
    }
    uint e2 = hf_write_check(data, width, rounds + 1u);
    if (e2)
        atomic_add(&bad[1], e2);
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        seen[1] = r;
}
