/* apps/tasks/dct.cl: the DCT8x8 narrow-task benchmark (Pagoda's Table 3; the
 * CUDA SDK's dct8x8): each task takes the orthonormal 2-D DCT-II of every
 * 8x8 block of its own 128x128 float image. Coefficient (v, u) of the block
 * at block row by, column bx goes to out[(8 by + v) * 128 + 8 bx + u].
 * coef[u * 8 + x] = C(u)/2 * cos((2x + 1) u pi / 16), C(0) = 1/sqrt(2), else 1
 * (one table for all tasks, made by the host), so
 *   F(v, u) = sum_y coef[v][y] * sum_x coef[u][x] * f(y, x).
 * The group works on nb = max(1, wg / 64) blocks at a time, staged in the
 * `local` argument `stage` of 2 * nb * 64 floats (nb input blocks, then their
 * row-transformed copies): load; barrier; row pass; barrier; column pass to
 * global memory. Work-items stride over the nb * 64 elements, so every wg
 * works (the host sizes `stage` from the same wg). The barriers are reached
 * by every work-item in every round (the round count, 256 / nb, is the same
 * for all). The task id is task_base + get_group_id(0). Owner: apps/tasks. */
#define DCT_N 128
#define DCT_BLOCKS_PER_ROW (DCT_N / 8)
#define DCT_BLOCKS (DCT_BLOCKS_PER_ROW * DCT_BLOCKS_PER_ROW)

kernel void tb_dct(global const float *image, global const float *coef, global float *out, local float *stage,
                   int task_base)
{
    size_t task = (size_t)task_base + get_group_id(0);
    global const float *img = image + task * (DCT_N * DCT_N);
    global float *o = out + task * (DCT_N * DCT_N);
    int wg = (int)get_local_size(0), lid = (int)get_local_id(0);
    int nb = wg >= 64 ? wg / 64 : 1;
    int elems = nb * 64;
    local float *a = stage;         /* the nb input blocks       */
    local float *t = stage + elems; /* their row-transformed copy */
    for (int first = 0; first < DCT_BLOCKS; first += nb) {
        for (int e = lid; e < elems; e += wg) {
            int blk = first + e / 64, i = e % 64;
            int by = blk / DCT_BLOCKS_PER_ROW, bx = blk % DCT_BLOCKS_PER_ROW;
            a[e] = img[(by * 8 + i / 8) * DCT_N + bx * 8 + i % 8];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* Row pass: t[b][y][u] = sum_x coef[u][x] * a[b][y][x]. */
        for (int e = lid; e < elems; e += wg) {
            int row = e & ~7, u = e & 7;
            float s = 0.0f;
            for (int x = 0; x < 8; x++)
                s += coef[u * 8 + x] * a[row + x];
            t[e] = s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* Column pass: F[b][v][u] = sum_y coef[v][y] * t[b][y][u]. */
        for (int e = lid; e < elems; e += wg) {
            int b = e / 64, i = e % 64, v = i / 8, u = i % 8;
            float s = 0.0f;
            for (int y = 0; y < 8; y++)
                s += coef[v * 8 + y] * t[b * 64 + y * 8 + u];
            int blk = first + b;
            int by = blk / DCT_BLOCKS_PER_ROW, bx = blk % DCT_BLOCKS_PER_ROW;
            o[(by * 8 + v) * DCT_N + bx * 8 + u] = s;
        }
        /* No barrier needed here: the next load writes only a[], which no
         * work-item reads after the second barrier, and the next row pass
         * writes t[] only after the next round's first barrier. */
    }
}
