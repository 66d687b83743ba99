/* apps/tasks/conv.cl: the CONV narrow-task benchmark (Pagoda's Table 3; the
 * CUDA SDK's image convolution): each task convolves its own 128x128 float
 * image with its own 5x5 filter, zero padding outside the image:
 *   out[y][x] = sum_{i,j in 0..4} w[i][j] * in[y + 2 - i][x + 2 - j].
 * One task = one work-group; its work-items stride over the 16384 pixels, so
 * any work-group size works. The task id is task_base + get_group_id(0)
 * (apps/tasks/task_bench.h). Owner: apps/tasks. */
#define CONV_N 128
#define CONV_R 2
#define CONV_K (2 * CONV_R + 1)

kernel void tb_conv(global const float *image, global const float *filter, global float *out, int task_base)
{
    size_t task = (size_t)task_base + get_group_id(0);
    global const float *img = image + task * (CONV_N * CONV_N);
    global const float *w = filter + task * (CONV_K * CONV_K);
    global float *o = out + task * (CONV_N * CONV_N);
    for (int p = (int)get_local_id(0); p < CONV_N * CONV_N; p += (int)get_local_size(0)) {
        int y = p / CONV_N, x = p % CONV_N;
        float s = 0.0f;
        for (int i = 0; i < CONV_K; i++) {
            int sy = y + CONV_R - i;
            if (sy < 0 || sy >= CONV_N)
                continue;
            for (int j = 0; j < CONV_K; j++) {
                int sx = x + CONV_R - j;
                if (sx >= 0 && sx < CONV_N)
                    s += w[i * CONV_K + j] * img[sy * CONV_N + sx];
            }
        }
        o[p] = s;
    }
}
