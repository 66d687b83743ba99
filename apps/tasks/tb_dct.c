/* apps/tasks/tb_dct.c: the DCT8x8 benchmark's description (task_bench.h):
 * per task a seeded 128x128 float image in [-1, 1); the kernel
 * (apps/tasks/dct.cl) transforms every 8x8 block through a `local` pointer
 * argument of 2 * max(1, wg / 64) * 64 floats (8 KiB at wg 1024, the
 * megakernel's default local pool), with the coefficient table in a global
 * buffer. The CPU reference is the direct transform (tb_dct8x8_ref, 64
 * products per coefficient in double), so it shares nothing with the
 * kernel's separable float form; an output passes within 2e-5 + 1e-5 * |ref|
 * (|F| <= 8; two float passes of 8 products each are off by about 1e-6).
 * Owner: apps/tasks. */
#include "tb_dct.h"
#include "tb_util.h"

#include <math.h>
#include <stdio.h>

#define DCT_N 128
#define DCT_PIX (DCT_N * DCT_N)
#define DCT_PI 3.14159265358979323846

enum { DCT_BUF_IMAGE, DCT_BUF_COEF, DCT_BUF_OUT };

extern const task_bench tb_bench_dct;

static double dct_cu(int u) { return u == 0 ? 1.0 / sqrt(2.0) : 1.0; }

void tb_dct8x8_ref(const float *block, size_t stride, double out[64])
{
    double cs[8][8]; /* cs[k][x] = cos((2x + 1) k pi / 16) */
    for (int k = 0; k < 8; k++)
        for (int x = 0; x < 8; x++)
            cs[k][x] = cos((2 * x + 1) * k * DCT_PI / 16.0);
    for (int v = 0; v < 8; v++)
        for (int u = 0; u < 8; u++) {
            double s = 0.0;
            for (int y = 0; y < 8; y++)
                for (int x = 0; x < 8; x++)
                    s += block[(size_t)y * stride + x] * cs[u][x] * cs[v][y];
            out[v * 8 + u] = 0.25 * dct_cu(u) * dct_cu(v) * s;
        }
}

static int dct_create(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed, char *err, size_t err_len)
{
    if (tb_check_shape(&tb_bench_dct, n_tasks, wg, err, err_len))
        return -1;
    tb_init(inst, n_tasks, wg, seed);
    if (tb_add_buffer(inst, (size_t)n_tasks * DCT_PIX * sizeof(float), 0, "dct", "images", err, err_len) < 0 ||
        tb_add_buffer(inst, 64 * sizeof(float), 0, "dct", "coefficients", err, err_len) < 0 ||
        tb_add_buffer(inst, (size_t)n_tasks * DCT_PIX * sizeof(float), 1, "dct", "outputs", err, err_len) < 0) {
        tb_destroy(inst);
        return -1;
    }
    float *img = inst->buffers[DCT_BUF_IMAGE].host, *coef = inst->buffers[DCT_BUF_COEF].host;
    for (unsigned t = 0; t < n_tasks; t++) {
        app_rng r;
        tb_task_rng(&r, seed, t, 0xDC);
        for (size_t i = 0; i < DCT_PIX; i++)
            img[(size_t)t * DCT_PIX + i] = tb_uniform(&r, -1.0f, 1.0f);
    }
    for (int u = 0; u < 8; u++)
        for (int x = 0; x < 8; x++)
            coef[u * 8 + x] = (float)(0.5 * dct_cu(u) * cos((2 * x + 1) * u * DCT_PI / 16.0));
    unsigned nb = wg >= 64 ? wg / 64 : 1;
    tb_add_arg(inst, TB_ARG_BUFFER, DCT_BUF_IMAGE);
    tb_add_arg(inst, TB_ARG_BUFFER, DCT_BUF_COEF);
    tb_add_arg(inst, TB_ARG_BUFFER, DCT_BUF_OUT);
    tb_add_arg(inst, TB_ARG_LOCAL, (int)(2 * nb * 64 * sizeof(float)));
    tb_add_arg(inst, TB_ARG_TASK_BASE, 0);
    return 0;
}

static void dct_cpu_task(const tb_instance *inst, unsigned task, void *const *out)
{
    const float *img = (const float *)inst->buffers[DCT_BUF_IMAGE].host + (size_t)task * DCT_PIX;
    float *o = (float *)out[DCT_BUF_OUT] + (size_t)task * DCT_PIX;
    double f[64];
    for (int by = 0; by < DCT_N / 8; by++)
        for (int bx = 0; bx < DCT_N / 8; bx++) {
            tb_dct8x8_ref(img + (size_t)by * 8 * DCT_N + bx * 8, DCT_N, f);
            for (int i = 0; i < 64; i++)
                o[(by * 8 + i / 8) * DCT_N + bx * 8 + i % 8] = (float)f[i];
        }
}

static int dct_check_task(const tb_instance *inst, unsigned task, const void *const *got, const void *const *ref,
                          char *err, size_t err_len)
{
    (void)inst;
    size_t off = (size_t)task * DCT_PIX;
    return tb_check_floats("dct", task, "coefficient", (const float *)got[DCT_BUF_OUT] + off,
                           (const float *)ref[DCT_BUF_OUT] + off, DCT_PIX, 2e-5, 1e-5, err, err_len);
}

const task_bench tb_bench_dct = {
    .name = "dct",
    .summary = "8x8 DCT-II of every block of a 128x128 float image per task, blocks staged in local memory",
    .cl_file = "tasks/dct.cl",
    .kernel = "tb_dct",
    .min_wg = 32,
    .max_wg = 1024,
    .create = dct_create,
    .cpu_task = dct_cpu_task,
    .check_task = dct_check_task,
    .destroy = tb_destroy,
};
