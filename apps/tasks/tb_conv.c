/* apps/tasks/tb_conv.c: the CONV benchmark's description (task_bench.h):
 * per task a seeded 128x128 float image in [-1, 1) and a seeded 5x5 filter in
 * [-1, 1), zero padding; the kernel is apps/tasks/conv.cl. A 5x5 filter
 * rather than 3x3: 25 multiply-adds per pixel keep a task's arithmetic above
 * its 128 KiB of memory traffic (a 3x3 one is nearly pure copying), and it is
 * the usual blur/edge-detection size. The CPU reference sums in double; a
 * float output passes within 1e-4 + 1e-5 * |ref|: a float sum of 25
 * products of magnitude below 1 is off by at most 25 * 2^-24 * 25 = 3.7e-5
 * in any order, with or without fused multiply-adds. Owner: apps/tasks. */
#include "tb_util.h"

#include <stdio.h>

#define CONV_N 128
#define CONV_PIX (CONV_N * CONV_N)
#define CONV_R 2
#define CONV_K (2 * CONV_R + 1)
#define CONV_TAPS (CONV_K * CONV_K)

enum { CONV_BUF_IMAGE, CONV_BUF_FILTER, CONV_BUF_OUT };

extern const task_bench tb_bench_conv;

static int conv_create(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed, char *err, size_t err_len)
{
    if (tb_check_shape(&tb_bench_conv, n_tasks, wg, err, err_len))
        return -1;
    tb_init(inst, n_tasks, wg, seed);
    if (tb_add_buffer(inst, (size_t)n_tasks * CONV_PIX * sizeof(float), 0, "conv", "images", err, err_len) < 0 ||
        tb_add_buffer(inst, (size_t)n_tasks * CONV_TAPS * sizeof(float), 0, "conv", "filters", err, err_len) < 0 ||
        tb_add_buffer(inst, (size_t)n_tasks * CONV_PIX * sizeof(float), 1, "conv", "outputs", err, err_len) < 0) {
        tb_destroy(inst);
        return -1;
    }
    float *img = inst->buffers[CONV_BUF_IMAGE].host, *w = inst->buffers[CONV_BUF_FILTER].host;
    for (unsigned t = 0; t < n_tasks; t++) {
        app_rng r;
        tb_task_rng(&r, seed, t, 0xC0);
        for (size_t i = 0; i < CONV_PIX; i++)
            img[(size_t)t * CONV_PIX + i] = tb_uniform(&r, -1.0f, 1.0f);
        for (size_t i = 0; i < CONV_TAPS; i++)
            w[(size_t)t * CONV_TAPS + i] = tb_uniform(&r, -1.0f, 1.0f);
    }
    tb_add_arg(inst, TB_ARG_BUFFER, CONV_BUF_IMAGE);
    tb_add_arg(inst, TB_ARG_BUFFER, CONV_BUF_FILTER);
    tb_add_arg(inst, TB_ARG_BUFFER, CONV_BUF_OUT);
    tb_add_arg(inst, TB_ARG_TASK_BASE, 0);
    return 0;
}

static void conv_cpu_task(const tb_instance *inst, unsigned task, void *const *out)
{
    const float *img = (const float *)inst->buffers[CONV_BUF_IMAGE].host + (size_t)task * CONV_PIX;
    const float *w = (const float *)inst->buffers[CONV_BUF_FILTER].host + (size_t)task * CONV_TAPS;
    float *o = (float *)out[CONV_BUF_OUT] + (size_t)task * CONV_PIX;
    for (int y = 0; y < CONV_N; y++)
        for (int x = 0; x < CONV_N; x++) {
            double s = 0.0;
            for (int i = 0; i < CONV_K; i++)
                for (int j = 0; j < CONV_K; j++) {
                    int sy = y + CONV_R - i, sx = x + CONV_R - j;
                    if (sy >= 0 && sy < CONV_N && sx >= 0 && sx < CONV_N)
                        s += (double)w[i * CONV_K + j] * img[sy * CONV_N + sx];
                }
            o[y * CONV_N + x] = (float)s;
        }
}

static int conv_check_task(const tb_instance *inst, unsigned task, const void *const *got, const void *const *ref,
                           char *err, size_t err_len)
{
    (void)inst;
    size_t off = (size_t)task * CONV_PIX;
    return tb_check_floats("conv", task, "output", (const float *)got[CONV_BUF_OUT] + off,
                           (const float *)ref[CONV_BUF_OUT] + off, CONV_PIX, 1e-4, 1e-5, err, err_len);
}

const task_bench tb_bench_conv = {
    .name = "conv",
    .summary = "2-D convolution of a 128x128 float image with a 5x5 filter per task, zero padding",
    .cl_file = "tasks/conv.cl",
    .kernel = "tb_conv",
    .min_wg = 32,
    .max_wg = 1024,
    .create = conv_create,
    .cpu_task = conv_cpu_task,
    .check_task = conv_check_task,
    .destroy = tb_destroy,
};
