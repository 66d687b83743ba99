/* One cooperative kernel, compiled both as plain OpenCL (primitives are
 * no-ops, barriers occupancy-bound) and through the framework. */
#define CK_PLAIN_BARRIER_WORDS plain_barrier_words
#include "ck_cooperative.h"

kernel void rounds(global uint *data, global uint *tmp, uint n, uint total_rounds,
                   volatile global uint *plain_barrier_words)
{
    transmit uint round = 0;
    while (round < total_rounds) {
        /* One snapshot of the stride per interval, taken by every group
         * before any group can reach the offer_kill or request_fork below
         * (the only places where M changes): hence the barrier after it. */
        uint stride = get_global_size(0);
        global_barrier();
        for (uint i = get_global_id(0); i < n; i += stride)
            tmp[i] = data[i] * 3u + round;
        round++;
        offer_kill();   /* a killed group has done its share */
        request_fork(); /* forked groups join at the barrier */
        resizing_global_barrier();
        stride = get_global_size(0);
        for (uint i = get_global_id(0); i < n; i += stride)
            data[i] = tmp[i] ^ (tmp[(i + 1u) % n] & 1u);
        global_barrier();
    }
}
