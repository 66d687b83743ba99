/* apps/tasks/task_registry_kern.h: the conv, dct, fb and des3 benchmarks
 * ("kern" part of issue 13), for the integrator to append to tb_benches[]
 * in task_registry.c and for tests/tasks. Owner: apps/tasks. */
#ifndef APPS_TASK_REGISTRY_KERN_H
#define APPS_TASK_REGISTRY_KERN_H

#include "task_bench.h"

extern const task_bench tb_bench_conv;
extern const task_bench tb_bench_dct;
extern const task_bench tb_bench_fb;
extern const task_bench tb_bench_des3;

extern const task_bench *const tb_kern_benches[];
extern const unsigned tb_kern_n_benches;

#endif
