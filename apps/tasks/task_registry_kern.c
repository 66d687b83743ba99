/* apps/tasks/task_registry_kern.c: the table of the "kern" benchmarks (one
 * line each). Owner: apps/tasks. */
#include "task_registry_kern.h"

const task_bench *const tb_kern_benches[] = {
    &tb_bench_conv,
    &tb_bench_dct,
    &tb_bench_fb,
    &tb_bench_des3,
};
const unsigned tb_kern_n_benches = sizeof tb_kern_benches / sizeof tb_kern_benches[0];
