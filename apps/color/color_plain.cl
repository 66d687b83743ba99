/* apps/color/color_plain.cl: the original multi-launch form of Pannotia's
 * colouring, the baseline: color1 and color2 launched once per round, one
 * work-item per node (global size rounded up to the work-group size). The
 * host clears *stop before each round, and reads it after color2: still 0
 * means every node is coloured. node_value[v] = v (see color.h). Owner: apps. */
kernel void color1(global const int *row, global const int *col, global const int *node_value,
                   global const int *colors, global int *max_d, volatile global int *stop, int n)
{
    int v = (int)get_global_id(0);
    if (v >= n || colors[v] != -1)
        return;
    int best = -1;
    int any = 0;
    int end = row[v + 1];
    for (int e = row[v]; e < end; e++) {
        int u = col[e];
        if (colors[u] == -1) {
            any = 1;
            best = max(best, node_value[u]);
        }
    }
    max_d[v] = best;
    if (any)
        *stop = 1;
}

kernel void color2(global const int *node_value, global int *colors, global const int *max_d, int color, int n)
{
    int v = (int)get_global_id(0);
    if (v < n && colors[v] == -1 && node_value[v] > max_d[v])
        colors[v] = color;
}
