/* The loop-phase kernel: a resizing barrier inside a for over a counter, with
 * a break on the counter after the barrier. A work-group forked at a barrier
 * resumes right after it, so the counter must be transmit; without it the
 * stitcher rejects the kernel (test_loop_phase.c builds both forms).
 * Each phase maps every word d[i] = 3 * d[i] + phase + 1, and phase 0 then
 * adds 10: from x the result is 9x + 35. The ids and sizes are read afresh
 * after every barrier, so the groups of one interval split the words exactly
 * whatever M is. */
kernel void loop_phase(global uint *d, uint n)
{
    for (transmit int phase = 0; phase < 2; phase++) {
        size_t gid = get_global_id(0), stride = get_global_size(0);
        for (size_t i = gid; i < n; i += stride)
            d[i] = d[i] * 3u + (uint)phase + 1u;
        resizing_global_barrier();
        if (phase == 1)
            break;
        gid = get_global_id(0);
        stride = get_global_size(0);
        for (size_t i = gid; i < n; i += stride)
            d[i] += 10u;
        resizing_global_barrier();
    }
}
