/* apps/mis/mis_plain.cl: the original multi-launch form of Pannotia's
 * maximal independent set, the baseline: mis1, mis2 and mis3 launched once
 * per round, one work-item per node (global size rounded up to the
 * work-group size). The host clears *stop before each round and reads it
 * after mis3: still 0 means no node was undecided. status: -1 undecided, 1 in
 * the set, 0 out; node_value[v] = v (see mis.h). Owner: apps. */
kernel void mis1(global const int *row, global const int *col, global const int *node_value,
                 global const int *status, global int *min_d, volatile global int *stop, int n)
{
    int v = (int)get_global_id(0);
    if (v >= n || status[v] != -1)
        return;
    *stop = 1;
    int best = INT_MAX;
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int u = col[e];
        if (status[u] == -1)
            best = min(best, node_value[u]);
    }
    min_d[v] = best;
}

kernel void mis2(global const int *row, global const int *col, global const int *node_value, global int *status,
                 global int *upd, global const int *min_d, int n)
{
    int v = (int)get_global_id(0);
    if (v >= n || status[v] != -1 || node_value[v] >= min_d[v])
        return;
    status[v] = 1;
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int u = col[e];
        if (status[u] == -1)
            upd[u] = 0;
    }
}

kernel void mis3(global int *status, global const int *upd, int n)
{
    int v = (int)get_global_id(0);
    if (v < n && upd[v] == 0 && status[v] == -1)
        status[v] = 0;
}
