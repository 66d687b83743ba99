/* apps/tasks/fb.cl: the FilterBank narrow-task benchmark (Pagoda's Table 3;
 * StreamIt's FilterBank): each task splits its own 2048-sample float signal
 * into 8 channels and puts it back together:
 *   stage 1 (analysis): channel c's FIR filter h_c (32 taps) and decimation
 *     by 8: d_c[k] = sum_j h_c[j] x[8k - j] (x = 0 before the signal), 8 x 256
 *     values kept in the `local` argument `dec` (8 KiB);
 *   barrier(CLK_LOCAL_MEM_FENCE);
 *   stage 2 (synthesis): upsampling by 8 (zeros between the d_c), channel c's
 *     FIR filter f_c, and the sum of the 8 channels:
 *     y[n] = sum_c sum_{j = n mod 8, n mod 8 + 8, ... <= min(31, n)} f_c[j] d_c[(n - j) / 8].
 * Only the kept samples of stage 1 and the nonzero inputs of stage 2 are
 * computed (the CPU reference, tb_fb.c, runs the stages literally). coef holds
 * h_0..h_7 then f_0..f_7 (32 floats each), the same for every task. Work-items
 * stride over each stage's 2048 outputs, so every wg works. The task id is
 * task_base + get_group_id(0). Owner: apps/tasks. */
#define FB_N 2048
#define FB_CH 8
#define FB_M 8
#define FB_L 32
#define FB_D (FB_N / FB_M)

kernel void tb_fb(global const float *signal, global const float *coef, global float *out, local float *dec,
                  int task_base)
{
    size_t task = (size_t)task_base + get_group_id(0);
    global const float *x = signal + task * FB_N;
    global float *y = out + task * FB_N;
    int wg = (int)get_local_size(0), lid = (int)get_local_id(0);
    for (int e = lid; e < FB_CH * FB_D; e += wg) {
        int c = e / FB_D, n = (e % FB_D) * FB_M;
        global const float *h = coef + c * FB_L;
        float s = 0.0f;
        for (int j = 0; j < FB_L && j <= n; j++)
            s += h[j] * x[n - j];
        dec[e] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int n = lid; n < FB_N; n += wg) {
        float s = 0.0f;
        for (int c = 0; c < FB_CH; c++) {
            global const float *f = coef + (FB_CH + c) * FB_L;
            for (int j = n % FB_M; j < FB_L && j <= n; j += FB_M)
                s += f[j] * dec[c * FB_D + (n - j) / FB_M];
        }
        y[n] = s;
    }
}
