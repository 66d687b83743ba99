/* apps/psssp/psssp_plain.cl: the plain multi-launch Pannotia SSSP baseline,
 * the original's shape: per round the host launches psssp_copy,
 * psssp_relax and psssp_diff (one work-item per node, global size rounded up
 * to the work-group size), after clearing *changed, and reads *changed after
 * psssp_diff to decide on another round. Owner: apps (p-sssp). */
#define PSSSP_INF 0x7fffffff

kernel void psssp_copy(global const int *dist, global int *dist_old, int n)
{
    int v = (int)get_global_id(0);
    if (v < n)
        dist_old[v] = dist[v];
}

kernel void psssp_relax(global const int *row, global const int *col, global const int *w, int n, global int *dist,
                        global const int *dist_old)
{
    int v = (int)get_global_id(0);
    if (v >= n)
        return;
    int best = dist_old[v];
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int du = dist_old[col[e]];
        int wt = w[e];
        if (du <= PSSSP_INF - wt && du + wt < best)
            best = du + wt;
    }
    dist[v] = best;
}

kernel void psssp_diff(global const int *dist, global const int *dist_old, int n, global int *changed)
{
    int v = (int)get_global_id(0);
    if (v < n && dist[v] != dist_old[v])
        *changed = 1;
}
