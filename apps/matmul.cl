/* apps/matmul.cl: the non-cooperative "graphics-like" workload of the paper's
 * section 5.2: C = A * B + salt for n x n float matrices, whose size sets its
 * duration. Any number of work-groups computes the whole product: group g
 * takes the 8x8 output tiles g, g + G, g + 2G, ... (G = get_num_groups), and
 * its work-items stride over the tile's 64 entries, so it is correct for
 * 1, N/4, N/2 or N-1 groups and any work-group size. The host fills A and B
 * with small integers, so every entry is exact in float. Owner: apps. */
#define MM_TILE 8

kernel void matmul(global const float *a, global const float *b, global float *c, int n, float salt)
{
    int tiles_per_row = (n + MM_TILE - 1) / MM_TILE;
    int tiles = tiles_per_row * tiles_per_row;
    for (int t = (int)get_group_id(0); t < tiles; t += (int)get_num_groups(0)) {
        int ti = t / tiles_per_row, tj = t % tiles_per_row;
        for (int e = (int)get_local_id(0); e < MM_TILE * MM_TILE; e += (int)get_local_size(0)) {
            int i = ti * MM_TILE + e / MM_TILE, j = tj * MM_TILE + e % MM_TILE;
            if (i < n && j < n) {
                float s = salt;
                for (int k = 0; k < n; k++)
                    s += a[i * n + k] * b[k * n + j];
                c[i * n + j] = s;
            }
        }
    }
}
