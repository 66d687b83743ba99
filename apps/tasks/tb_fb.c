/* apps/tasks/tb_fb.c: the FilterBank benchmark's description (task_bench.h):
 * per task a seeded 2048-sample float signal in [-1, 1); 8 channels of a
 * 32-tap FIR filter and decimation by 8, then upsampling by 8, a 32-tap FIR
 * filter and the sum of the channels (apps/tasks/fb.cl). The filters are
 * the same for every task: h_c is a Hamming-windowed low-pass prototype
 * (cutoff pi/16) moved to the centre of band c by a cosine, f_c = 8 h_c (the
 * gain lost to upsampling). The decimated channels live in local memory:
 * 8 x 256 floats = 8 KiB, the megakernel's default local pool, whatever wg.
 * The CPU reference runs the stages literally in double (the full FIR output
 * of every channel, then every 8th sample, then the zero-stuffed signal
 * through f_c); an output passes within 1e-4 + 1e-4 * |ref| (a float sum of
 * at most 32 terms per stage). Owner: apps/tasks. */
#include "tb_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FB_N 2048
#define FB_CH 8
#define FB_M 8
#define FB_L 32
#define FB_D (FB_N / FB_M)
#define FB_PI 3.14159265358979323846

enum { FB_BUF_SIGNAL, FB_BUF_COEF, FB_BUF_OUT };

extern const task_bench tb_bench_fb;

static int fb_create(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed, char *err, size_t err_len)
{
    if (tb_check_shape(&tb_bench_fb, n_tasks, wg, err, err_len))
        return -1;
    tb_init(inst, n_tasks, wg, seed);
    if (tb_add_buffer(inst, (size_t)n_tasks * FB_N * sizeof(float), 0, "fb", "signals", err, err_len) < 0 ||
        tb_add_buffer(inst, 2 * FB_CH * FB_L * sizeof(float), 0, "fb", "filters", err, err_len) < 0 ||
        tb_add_buffer(inst, (size_t)n_tasks * FB_N * sizeof(float), 1, "fb", "outputs", err, err_len) < 0) {
        tb_destroy(inst);
        return -1;
    }
    float *x = inst->buffers[FB_BUF_SIGNAL].host, *coef = inst->buffers[FB_BUF_COEF].host;
    for (unsigned t = 0; t < n_tasks; t++) {
        app_rng r;
        tb_task_rng(&r, seed, t, 0xFB);
        for (size_t i = 0; i < FB_N; i++)
            x[(size_t)t * FB_N + i] = tb_uniform(&r, -1.0f, 1.0f);
    }
    for (int c = 0; c < FB_CH; c++)
        for (int j = 0; j < FB_L; j++) {
            double t = j - (FB_L - 1) / 2.0;
            double window = 0.54 - 0.46 * cos(2 * FB_PI * j / (FB_L - 1));
            double lowpass = sin(FB_PI * t / (2 * FB_M)) / (FB_PI * t);
            double h = 2 * window * lowpass * cos(FB_PI * (c + 0.5) * t / FB_M);
            coef[c * FB_L + j] = (float)h;
            coef[(FB_CH + c) * FB_L + j] = (float)(FB_M * h);
        }
    tb_add_arg(inst, TB_ARG_BUFFER, FB_BUF_SIGNAL);
    tb_add_arg(inst, TB_ARG_BUFFER, FB_BUF_COEF);
    tb_add_arg(inst, TB_ARG_BUFFER, FB_BUF_OUT);
    tb_add_arg(inst, TB_ARG_LOCAL, (int)(FB_CH * FB_D * sizeof(float)));
    tb_add_arg(inst, TB_ARG_TASK_BASE, 0);
    return 0;
}

/* out[n] = sum_{j < FB_L, j <= n} h[j] * in[n - j], for n < FB_N. */
static void fb_fir(const float *h, const double *in, double *out)
{
    for (int n = 0; n < FB_N; n++) {
        double s = 0.0;
        for (int j = 0; j < FB_L && j <= n; j++)
            s += h[j] * in[n - j];
        out[n] = s;
    }
}

static void fb_cpu_task(const tb_instance *inst, unsigned task, void *const *out)
{
    const float *x = (const float *)inst->buffers[FB_BUF_SIGNAL].host + (size_t)task * FB_N;
    const float *coef = inst->buffers[FB_BUF_COEF].host;
    float *y = (float *)out[FB_BUF_OUT] + (size_t)task * FB_N;
    double in[FB_N], v[FB_N], up[FB_N], w[FB_N], sum[FB_N];
    for (int n = 0; n < FB_N; n++) {
        in[n] = x[n];
        sum[n] = 0.0;
    }
    for (int c = 0; c < FB_CH; c++) {
        fb_fir(coef + c * FB_L, in, v); /* analysis filter        */
        for (int n = 0; n < FB_N; n++)  /* decimate, then expand  */
            up[n] = n % FB_M == 0 ? v[n] : 0.0;
        fb_fir(coef + (FB_CH + c) * FB_L, up, w); /* synthesis filter       */
        for (int n = 0; n < FB_N; n++)
            sum[n] += w[n];
    }
    for (int n = 0; n < FB_N; n++)
        y[n] = (float)sum[n];
}

static int fb_check_task(const tb_instance *inst, unsigned task, const void *const *got, const void *const *ref,
                         char *err, size_t err_len)
{
    (void)inst;
    size_t off = (size_t)task * FB_N;
    return tb_check_floats("fb", task, "output", (const float *)got[FB_BUF_OUT] + off,
                           (const float *)ref[FB_BUF_OUT] + off, FB_N, 1e-4, 1e-4, err, err_len);
}

const task_bench tb_bench_fb = {
    .name = "fb",
    .summary = "filter bank on a 2048-sample signal per task: 8 channels of FIR + decimate, expand + FIR, sum",
    .cl_file = "tasks/fb.cl",
    .kernel = "tb_fb",
    .min_wg = 32,
    .max_wg = 1024,
    .create = fb_create,
    .cpu_task = fb_cpu_task,
    .check_task = fb_check_task,
    .destroy = tb_destroy,
};
