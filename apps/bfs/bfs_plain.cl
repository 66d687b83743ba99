/* apps/bfs/bfs_plain.cl: the plain multi-launch BFS baseline: one launch per
 * level, one work-item per in-frontier node (global size rounded up to the
 * work-group size). The host resets *out_size before each launch and reads it
 * after. Owner: apps. */
kernel void bfs_level(global const int *row, global const int *col, global int *levels, global const int *in,
                      int n_in, global int *out, volatile global int *out_size, int level)
{
    int i = (int)get_global_id(0);
    if (i >= n_in)
        return;
    int v = in[i];
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int u = col[e];
        if (((volatile global int *)levels)[u] == -1 &&
            atomic_cmpxchg((volatile global int *)&levels[u], -1, level + 1) == -1)
            out[atomic_inc(out_size)] = u;
    }
}
