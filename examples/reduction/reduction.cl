/* examples/reduction/reduction.cl: a cooperative reduction with resizing
 * barriers. The input is cut into `chunks` chunks of `chunk_len` words; for
 * each chunk the active work-groups add up their share and each group adds
 * its partial sum into sums[chunk] with an atomic. M, the number of active
 * groups, may change at every resizing barrier (the scheduler takes groups
 * back for other launches, or gives idle ones), so the kernel takes its ids
 * and sizes afresh after each barrier and uses that one snapshot until the
 * next, and the chunk index is `transmit`: a group that joins at a barrier
 * starts right after it, knowing only the arguments and the transmitted
 * chunk. */
#include "ck_cooperative.h"

/* README:begin kernel */
kernel void reduce(global const uint *in, uint chunk_len, uint chunks, global uint *sums)
{
    local uint group_sum;
    transmit uint chunk = 0;              /* joining groups get thread 0's value */
    while (chunk < chunks) {
        /* One snapshot of the ids and sizes per interval: M changes only in the barrier. */
        size_t gid = get_global_id(0), stride = get_global_size(0);
        uint s = 0;
        for (size_t i = gid; i < chunk_len; i += stride)
            s += in[(size_t)chunk * chunk_len + i];
        if (get_local_id(0) == 0)
            group_sum = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        atomic_add(&group_sum, s);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0)
            atomic_add(&sums[chunk], group_sum); /* every group adds its share */
        chunk++;
        resizing_global_barrier();        /* M may change here, and only here */
    }
}
/* README:end kernel */
