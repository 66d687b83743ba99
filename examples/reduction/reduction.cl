/* examples/reduction/reduction.cl: a cooperative reduction with resizing
 * barriers. The input is cut into `chunks` chunks of `chunk_len` words; for
 * each chunk the active work-groups add up their share, each group leaves its
 * partial sum in partial[group id], and after a resizing barrier group 0 adds
 * the partial sums into sums[chunk]. M, the number of active groups, may
 * change at every resizing barrier (the scheduler takes groups back for other
 * launches, or gives idle ones), so the kernel takes its ids and sizes afresh
 * after each barrier, and the chunk index is `transmit`: a group that joins at
 * a barrier starts right after it, knowing only the arguments and the
 * transmitted chunk. */
#include "ck_cooperative.h"

/* README:begin kernel */
kernel void reduce(global const uint *in, uint chunk_len, uint chunks, global uint *partial,
                   global uint *sums)
{
    local uint group_sum;
    transmit uint chunk = 0;              /* joining groups get thread 0's value */
    while (chunk < chunks) {
        /* One snapshot of M per interval: it changes only inside the barriers. */
        uint m = get_num_groups(0);
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
            partial[get_group_id(0)] = group_sum;
        resizing_global_barrier();        /* M may change here, and only here */
        if (get_global_id(0) == 0) {      /* group 0 is never killed or forked: */
            uint total = 0;               /* its m is the M that wrote partial[] */
            for (uint g = 0; g < m; g++)
                total += partial[g];
            sums[chunk] = total;
        }
        chunk++;
        resizing_global_barrier();        /* partial[] is free for the next chunk */
    }
}
/* README:end kernel */
