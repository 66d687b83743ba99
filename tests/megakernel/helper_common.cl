/* Fork points inside helper functions, checked from the inside like
 * semantics.cl: each kernel counts violations into `bad` and evidence into
 * `seen`. The stitcher inlines every helper that reaches a fork point, so a
 * work-group forked inside one resumes there and returns to its caller.
 * test_semantics.c builds this file with one of helper_depth2.cl,
 * helper_two_sites.cl and helper_tasks.cl per context (each kernel alone keeps
 * PoCL's compile time short) and runs them under chaos seeds. */

/* An ordinary kernel that makes the scheduler ask for groups back. */
kernel void hf_busy(global uint *out, uint n, uint len)
{
    uint acc = (uint)get_global_id(0);
    for (uint i = 0; i < n; ++i)
        acc = acc * 1664525u + 1013904223u;
    out[get_global_id(0) % len] = acc;
}

/* Two calls deep, level 2: writes round r's words, passes a resizing
 * barrier, then checks words written by other groups. round and the pointers
 * are the caller's values: a forked group gets them transmitted. Returns the
 * number of wrong words this thread saw. */
uint hf_write_check(global uint *data, uint width, uint round)
{
    for (uint i = get_global_id(0); i < width; i += get_global_size(0))
        data[i] = round * width + i;
    resizing_global_barrier();
    uint errs = 0;
    for (uint i = get_global_id(0); i < width; i += get_global_size(0)) {
        uint j = (i * 7u + 3u) % width;
        if (data[j] != round * width + j)
            errs++;
    }
    return errs;
}
