/* examples/multitask/multitask.cl: a cooperative kernel that keeps the
 * device busy, and an ordinary kernel that the host launches many times
 * beside it.
 *
 * `rounds` adds 1 to every word of data[] once per round until the host
 * raises ctl[0]. Its resizing barriers are where the scheduler takes groups
 * back for the ordinary launches and gives them back afterwards. Group 0
 * samples the host's flag into ctl[1] once per round and every group decides
 * on that one sample, so all groups leave the loop at the same round (a
 * group that read the host's flag itself could leave a round early and
 * strand the others at the next barrier). */
#include "ck_cooperative.h"

/* README:begin kernel */
kernel void rounds(global uint *data, uint n, volatile global uint *ctl)
{
    transmit uint stop = 0;             /* groups that join get thread 0's value */
    while (!stop) {
        size_t gid = get_global_id(0), stride = get_global_size(0); /* M-dependent */
        for (size_t i = gid; i < n; i += stride)
            data[i] += 1u;               /* each word once per round, whatever M is */
        if (get_global_id(0) == 0) {
            ctl[1] = ctl[0];             /* the host's flag, sampled once */
            ctl[2] += 1u;                /* rounds done */
        }
        resizing_global_barrier();       /* ordinary launches get their groups here */
        stop = ctl[1];
        resizing_global_barrier();       /* all have read ctl[1] before it changes */
    }
}
/* README:end kernel */

/* An ordinary kernel: launch k fills its own row of out. */
kernel void fill(global uint *out, uint n, uint k)
{
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        out[(size_t)k * n + i] = (uint)i * 3u + k;
}
