/* Kernels of the chaos replay test. stale_sum, a cooperative kernel with a
 * known rule break:
 * it takes a snapshot of get_num_groups(0) before a resizing barrier and
 * still uses it after, where M may have changed. Each group then sums the
 * elements i = id*L + lid, stepping by groups*L: with M' below the snapshot
 * the dropped groups' elements are missed, with M' above it forked groups
 * add elements twice. The sum is right only when M did not change. */
kernel void stale_sum(global const uint *data, global uint *sum, uint n)
{
    transmit uint groups = 0;
    groups = get_num_groups(0); /* the snapshot */
    resizing_global_barrier();  /* M may change here ... */
    uint L = get_local_size(0); /* ... and `groups` is not refreshed */
    for (uint i = get_group_id(0) * L + get_local_id(0); i < n; i += groups * L)
        atomic_add(sum, data[i]);
}

/* An ordinary kernel: the test launches it a varying number of times before
 * stale_sum, so that the cooperative launch's id differs between the
 * recorded run and its replays while its chaos key (its number among the
 * context's cooperative launches) does not. */
kernel void touch(global uint *count)
{
    if (get_global_id(0) == 0)
        atomic_inc(count);
}
