/* apps/tasks/tb_mb.c: the MB (Mandelbrot) narrow-task benchmark (owner:
 * apps, tasks): per task a 64x64 image of iteration counts (at most
 * MB_MAX_ITER) over the task's own window of the plane (kernel tasks/mb.cl).
 * The window of task t is drawn from the seed and t alone: its centre
 * uniform in [-2.1, 0.6] x [-1.2, 1.2] and its width 3 * 2^-u, u uniform in
 * [0, 8), so some tasks lie outside the set (a few iterations a pixel), some
 * inside (MB_MAX_ITER a pixel) and most across its edge: irregular work.
 *
 * Check: exact. The CPU reference does the kernel's float operations in the
 * same order (the kernel turns fma contraction off; this file is compiled as
 * ISO C11, where GCC does not contract either), so every count must be equal.
 * As an independent test it also requires every count in 0..MB_MAX_ITER. */
#include "task_bench.h"
#include "tb_util.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB_W 64
#define MB_PIXELS (MB_W * MB_W)
#define MB_MAX_ITER 256

enum { MB_BUF_WIN, MB_BUF_OUT };

extern const task_bench tb_bench_mb;

static int mb_create(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed, char *err, size_t err_len)
{
    memset(inst, 0, sizeof *inst);
    if (tb_check_shape(&tb_bench_mb, n_tasks, wg, err, err_len))
        return -1;
    tb_init(inst, n_tasks, wg, seed);
    inst->n_buffers = 2;
    inst->buffers[MB_BUF_WIN].bytes = (size_t)n_tasks * 4 * sizeof(float);
    inst->buffers[MB_BUF_WIN].host = malloc(inst->buffers[MB_BUF_WIN].bytes);
    inst->buffers[MB_BUF_OUT].bytes = (size_t)n_tasks * MB_PIXELS * sizeof(int32_t);
    inst->buffers[MB_BUF_OUT].host = calloc(1, inst->buffers[MB_BUF_OUT].bytes);
    inst->buffers[MB_BUF_OUT].output = 1;
    if (!inst->buffers[MB_BUF_WIN].host || !inst->buffers[MB_BUF_OUT].host) {
        tb_destroy(inst);
        snprintf(err, err_len, "mb: out of host memory for %u tasks", n_tasks);
        return -1;
    }
    float *win = inst->buffers[MB_BUF_WIN].host;
    for (unsigned t = 0; t < n_tasks; t++) {
        app_rng r;
        app_rng_seed(&r, seed ^ (0x6d62ull << 48) ^ t);
        double cx = -2.1 + 2.7 * app_rng_unit(&r);
        double cy = -1.2 + 2.4 * app_rng_unit(&r);
        double w = 3.0 / (double)(1u << (unsigned)(8 * app_rng_unit(&r)));
        w *= 1.0 - 0.5 * app_rng_unit(&r);
        win[4 * t + 0] = (float)(cx - w / 2);
        win[4 * t + 1] = (float)(cy - w / 2);
        win[4 * t + 2] = (float)(w / MB_W);
        win[4 * t + 3] = (float)(w / MB_W);
    }
    inst->n_args = 4;
    inst->args[0] = (tb_arg){TB_ARG_BUFFER, MB_BUF_WIN};
    inst->args[1] = (tb_arg){TB_ARG_BUFFER, MB_BUF_OUT};
    inst->args[2] = (tb_arg){TB_ARG_INT, MB_MAX_ITER};
    inst->args[3] = (tb_arg){TB_ARG_TASK_BASE, 0};
    return 0;
}

static void mb_cpu_task(const tb_instance *inst, unsigned task, void *const *out)
{
    const float *win = (const float *)inst->buffers[MB_BUF_WIN].host + 4 * (size_t)task;
    int32_t *o = (int32_t *)out[MB_BUF_OUT] + (size_t)task * MB_PIXELS;
    float x0 = win[0], y0 = win[1], dx = win[2], dy = win[3];
    for (int p = 0; p < MB_PIXELS; p++) {
        float px = (float)(p % MB_W) * dx;
        float py = (float)(p / MB_W) * dy;
        float cr = x0 + px;
        float ci = y0 + py;
        float zr = 0.0f, zi = 0.0f;
        int it = 0;
        while (it < MB_MAX_ITER) {
            float zr2 = zr * zr;
            float zi2 = zi * zi;
            if (zr2 + zi2 > 4.0f)
                break;
            float t = zr * zi;
            zi = (t + t) + ci;
            zr = (zr2 - zi2) + cr;
            it++;
        }
        o[p] = it;
    }
}

static int mb_check_task(const tb_instance *inst, unsigned task, const void *const *got, const void *const *ref,
                         char *err, size_t err_len)
{
    (void)inst;
    const int32_t *G = (const int32_t *)got[MB_BUF_OUT] + (size_t)task * MB_PIXELS;
    const int32_t *R = (const int32_t *)ref[MB_BUF_OUT] + (size_t)task * MB_PIXELS;
    for (int p = 0; p < MB_PIXELS; p++)
        if (G[p] < 0 || G[p] > MB_MAX_ITER || G[p] != R[p]) {
            snprintf(err, err_len, "mb: task %u: pixel (%d, %d) took %d iterations, expected %d", task, p % MB_W,
                     p / MB_W, (int)G[p], (int)R[p]);
            return -1;
        }
    return 0;
}

const task_bench tb_bench_mb = {
    .name = "mb",
    .exact = 1,
    .summary = "Mandelbrot 64x64 per task over its own seeded window (irregular), 256 iterations at most",
    .cl_file = "tasks/mb.cl",
    .kernel = "tb_mb",
    .min_wg = 32,
    .max_wg = 1024,
    .create = mb_create,
    .cpu_task = mb_cpu_task,
    .check_task = mb_check_task,
    .destroy = tb_destroy,
};
