/* apps/tasks/tb_mm.c: the MM narrow-task benchmark (owner: apps, tasks):
 * per task a 64x64 float matrix product C = A x B (Pagoda's MM, with local
 * memory and barriers: kernel tasks/mm.cl). A and B of task t are drawn in
 * [-1, 1) from the seed and t alone, so a task's data does not depend on the
 * task count.
 *
 * Check: element (i, j) passes when |got - ref| <= MM_TOL * sum_k |A_ik B_kj|
 * (+ 1e-30). Rounding 64 products and sums in float errs by at most about
 * 64 * 2^-24 = 3.8e-6 times that sum on each side, whatever the order or fma
 * contraction, so MM_TOL = 1e-5 never fails a right answer and catches any
 * wrong term (one term is typically ~1/64 of the sum). */
#include "task_bench.h"
#include "tb_util.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MM_N 64
#define MM_ELEMS (MM_N * MM_N)
#define MM_TILE_BYTES (2 * MM_N * 16 * (int)sizeof(float))
#define MM_TOL 1e-5

enum { MM_BUF_A, MM_BUF_B, MM_BUF_C };

static void fill_task(float *dst, uint64_t seed, unsigned task, unsigned which)
{
    app_rng r;
    app_rng_seed(&r, seed ^ (0x6d6dull << 48) ^ ((uint64_t)task << 1) ^ which);
    for (int e = 0; e < MM_ELEMS; e++)
        dst[e] = (float)(app_rng_unit(&r) * 2.0 - 1.0);
}

extern const task_bench tb_bench_mm;

static int mm_create(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed, char *err, size_t err_len)
{
    memset(inst, 0, sizeof *inst);
    if (tb_check_shape(&tb_bench_mm, n_tasks, wg, err, err_len))
        return -1;
    tb_init(inst, n_tasks, wg, seed);
    size_t bytes = (size_t)n_tasks * MM_ELEMS * sizeof(float);
    inst->n_buffers = 3;
    for (unsigned b = 0; b < 3; b++) {
        inst->buffers[b].bytes = bytes;
        inst->buffers[b].output = b == MM_BUF_C;
        inst->buffers[b].host = b == MM_BUF_C ? calloc(1, bytes) : malloc(bytes);
        if (!inst->buffers[b].host) {
            tb_destroy(inst);
            snprintf(err, err_len, "mm: out of host memory for %u tasks (%zu bytes a matrix set)", n_tasks, bytes);
            return -1;
        }
    }
    float *a = inst->buffers[MM_BUF_A].host, *b = inst->buffers[MM_BUF_B].host;
    for (unsigned t = 0; t < n_tasks; t++) {
        fill_task(a + (size_t)t * MM_ELEMS, seed, t, 0);
        fill_task(b + (size_t)t * MM_ELEMS, seed, t, 1);
    }
    inst->n_args = 5;
    inst->args[0] = (tb_arg){TB_ARG_BUFFER, MM_BUF_A};
    inst->args[1] = (tb_arg){TB_ARG_BUFFER, MM_BUF_B};
    inst->args[2] = (tb_arg){TB_ARG_BUFFER, MM_BUF_C};
    inst->args[3] = (tb_arg){TB_ARG_LOCAL, MM_TILE_BYTES};
    inst->args[4] = (tb_arg){TB_ARG_TASK_BASE, 0};
    return 0;
}

static void mm_cpu_task(const tb_instance *inst, unsigned task, void *const *out)
{
    const float *A = (const float *)inst->buffers[MM_BUF_A].host + (size_t)task * MM_ELEMS;
    const float *B = (const float *)inst->buffers[MM_BUF_B].host + (size_t)task * MM_ELEMS;
    float *C = (float *)out[MM_BUF_C] + (size_t)task * MM_ELEMS;
    for (int i = 0; i < MM_N; i++)
        for (int j = 0; j < MM_N; j++) {
            float s = 0.0f;
            for (int k = 0; k < MM_N; k++) {
                float p = A[i * MM_N + k] * B[k * MM_N + j];
                s = s + p;
            }
            C[i * MM_N + j] = s;
        }
}

static int mm_check_task(const tb_instance *inst, unsigned task, const void *const *got, const void *const *ref,
                         char *err, size_t err_len)
{
    const float *A = (const float *)inst->buffers[MM_BUF_A].host + (size_t)task * MM_ELEMS;
    const float *B = (const float *)inst->buffers[MM_BUF_B].host + (size_t)task * MM_ELEMS;
    const float *G = (const float *)got[MM_BUF_C] + (size_t)task * MM_ELEMS;
    const float *R = (const float *)ref[MM_BUF_C] + (size_t)task * MM_ELEMS;
    for (int i = 0; i < MM_N; i++)
        for (int j = 0; j < MM_N; j++) {
            double mag = 0;
            for (int k = 0; k < MM_N; k++)
                mag += fabs((double)A[i * MM_N + k] * B[k * MM_N + j]);
            double g = G[i * MM_N + j], r = R[i * MM_N + j];
            if (!(fabs(g - r) <= MM_TOL * mag + 1e-30)) {
                snprintf(err, err_len, "mm: task %u: C[%d][%d] = %.9g, expected %.9g (tolerance %.3g)", task, i, j,
                         g, r, MM_TOL * mag);
                return -1;
            }
        }
    return 0;
}

const task_bench tb_bench_mm = {
    .name = "mm",
    .summary = "64x64 float matrix product per task, k-tiled through local memory with barriers",
    .cl_file = "tasks/mm.cl",
    .kernel = "tb_mm",
    .min_wg = 32,
    .max_wg = 1024,
    .create = mm_create,
    .cpu_task = mm_cpu_task,
    .check_task = mm_check_task,
    .destroy = tb_destroy,
};
