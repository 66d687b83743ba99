/* apps/tasks/tb_util.c: the helpers of tb_util.h shared by the
 * conv, dct, fb and des3 benchmarks (owner: apps/tasks, "kern" part). */
#include "tb_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tb_check_shape(const task_bench *b, unsigned n_tasks, unsigned wg, char *err, size_t err_len)
{
    if (wg == 0 || (wg & (wg - 1)) != 0 || wg < b->min_wg || wg > b->max_wg) {
        snprintf(err, err_len, "%s: work-group size %u is not a power of two in [%u, %u]", b->name, wg, b->min_wg,
                 b->max_wg);
        return -1;
    }
    if (n_tasks == 0 || n_tasks > TB_MAX_TASKS) {
        snprintf(err, err_len, "%s: task count %u is not in [1, %u]", b->name, n_tasks, TB_MAX_TASKS);
        return -1;
    }
    return 0;
}

void tb_init(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed)
{
    memset(inst, 0, sizeof *inst);
    inst->n_tasks = n_tasks;
    inst->wg = wg;
    inst->seed = seed;
}

int tb_add_buffer(tb_instance *inst, size_t bytes, int output, const char *bench, const char *what, char *err,
                  size_t err_len)
{
    if (inst->n_buffers >= TB_MAX_BUFFERS) {
        snprintf(err, err_len, "%s: too many buffers (%s)", bench, what);
        return -1;
    }
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        snprintf(err, err_len, "%s: out of memory for %s (%zu bytes)", bench, what, bytes);
        return -1;
    }
    tb_buffer *b = &inst->buffers[inst->n_buffers];
    b->host = p;
    b->bytes = bytes;
    b->output = output;
    return (int)inst->n_buffers++;
}

void tb_add_arg(tb_instance *inst, tb_arg_kind kind, int value)
{
    if (inst->n_args < TB_MAX_ARGS) {
        inst->args[inst->n_args].kind = kind;
        inst->args[inst->n_args].value = value;
        inst->n_args++;
    }
}

void tb_destroy(tb_instance *inst)
{
    for (unsigned i = 0; i < inst->n_buffers; i++) {
        free(inst->buffers[i].host);
        inst->buffers[i].host = NULL;
    }
    inst->n_buffers = 0;
    inst->n_args = 0;
    free(inst->priv);
    inst->priv = NULL;
}

void tb_task_rng(app_rng *r, uint64_t seed, unsigned task, uint64_t salt)
{
    app_rng mix;
    app_rng_seed(&mix, seed ^ (salt * 0xD6E8FEB86659FD93ull));
    uint64_t base = app_rng_next(&mix);
    app_rng_seed(r, base + 0xA0761D6478BD642Full * ((uint64_t)task + 1));
}

float tb_uniform(app_rng *r, float lo, float hi) { return lo + (hi - lo) * (float)app_rng_unit(r); }

int tb_check_floats(const char *bench, unsigned task, const char *what, const float *got, const float *ref, size_t n,
                    double abs_tol, double rel_tol, char *err, size_t err_len)
{
    for (size_t i = 0; i < n; i++) {
        double g = got[i], w = ref[i];
        double tol = abs_tol + rel_tol * fabs(w);
        if (!isfinite(g) || !(fabs(g - w) <= tol)) {
            snprintf(err, err_len, "%s task %u: %s[%zu] = %.9g, expected %.9g (tolerance %.3g)", bench, task, what,
                     i, g, w, tol);
            return -1;
        }
    }
    return 0;
}
