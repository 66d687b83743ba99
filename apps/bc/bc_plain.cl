/* apps/bc/bc_plain.cl: the plain multi-launch bc baseline, the original's
 * shape: per source the host launches bc_init, bc_forward_step once per
 * level (clearing *more before and reading it after each), bc_backward_step
 * once per level from the deepest, and bc_accumulate. One work-item per node,
 * global size rounded up to the work-group size. The same pull formulation
 * as bc_coop.cl (see there). Owner: apps (bc). */

kernel void bc_init(global int *level, global float *sigma, global float *delta, int n, int s)
{
    int v = (int)get_global_id(0);
    if (v < n) {
        level[v] = v == s ? 0 : -1;
        sigma[v] = v == s ? 1.0f : 0.0f;
        delta[v] = 0.0f;
    }
}

kernel void bc_forward_step(global const int *row, global const int *col, int n, global int *level,
                            global float *sigma, int d, global int *more)
{
    int v = (int)get_global_id(0);
    if (v >= n || level[v] != -1)
        return;
    float paths = 0.0f;
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int u = col[e];
        if (level[u] == d)
            paths += sigma[u];
    }
    if (paths > 0.0f) {
        level[v] = d + 1;
        sigma[v] = paths;
        *more = 1;
    }
}

kernel void bc_backward_step(global const int *row, global const int *col, int n, global const int *level,
                             global const float *sigma, global float *delta, int d)
{
    int v = (int)get_global_id(0);
    if (v >= n || level[v] != d)
        return;
    float sum = 0.0f;
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int w = col[e];
        if (level[w] == d + 1)
            sum += (1.0f + delta[w]) / sigma[w];
    }
    delta[v] = sigma[v] * sum;
}

kernel void bc_accumulate(global const int *level, global const float *delta, global float *bc, int n)
{
    int v = (int)get_global_id(0);
    if (v < n && level[v] > 0)
        bc[v] += delta[v];
}
