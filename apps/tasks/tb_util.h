/* apps/tasks/tb_util.h: small helpers shared by the narrow-task benchmarks
 * (owner: apps/tasks): checking a
 * work-group size and task count, adding zeroed host buffers to an instance,
 * freeing an instance, a per-task random stream, and a float comparison with
 * a tolerance that names the first wrong element. */
#ifndef APPS_TB_UTIL_H
#define APPS_TB_UTIL_H

#include "rng.h"
#include "task_bench.h"

#include <stddef.h>
#include <stdint.h>

/* 0 if wg is a power of two in [b->min_wg, b->max_wg] and n_tasks is in
 * [1, TB_MAX_TASKS]; else -1 with a one-line message in err. */
int tb_check_shape(const task_bench *b, unsigned n_tasks, unsigned wg, char *err, size_t err_len);
/* Resets inst (n_tasks, wg, seed set, no buffers or args). */
void tb_init(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed);
/* Adds a zeroed host buffer of `bytes` (0 < bytes) and returns its index, or
 * -1 with "<bench>: out of memory for <what> (<bytes> bytes)" in err. */
int tb_add_buffer(tb_instance *inst, size_t bytes, int output, const char *bench, const char *what, char *err,
                  size_t err_len);
/* Appends an argument (the caller keeps to TB_MAX_ARGS). */
void tb_add_arg(tb_instance *inst, tb_arg_kind kind, int value);
/* Frees every buffer and priv, and zeroes the counts; safe on a partly built
 * or already destroyed instance. */
void tb_destroy(tb_instance *inst);
/* A random stream for one task's inputs of one kind (`salt`): depends on the
 * seed and the task id only, never on the task count. */
void tb_task_rng(app_rng *r, uint64_t seed, unsigned task, uint64_t salt);
/* Uniform float in [lo, hi). */
float tb_uniform(app_rng *r, float lo, float hi);
/* Compares n floats: element i passes when |got - ref| <= abs_tol +
 * rel_tol * |ref| (a NaN or infinity never passes). 0 if all pass, else -1
 * with "<bench> task T: <what>[i] = got, expected ref (tolerance ...)" for
 * the first failing element. */
int tb_check_floats(const char *bench, unsigned task, const char *what, const float *got, const float *ref, size_t n,
                    double abs_tol, double rel_tol, char *err, size_t err_len);

#endif
