/* apps/tasks/task_registry.c: the table of narrow-task benchmarks (owner:
 * apps, tasks) that tools/cktasks and the tests walk, one line per bench, and
 * tb_find. mpe is not a bench of its own: the runner composes it. */
#include "task_bench.h"

#include <string.h>

extern const task_bench tb_bench_mm;
extern const task_bench tb_bench_mb;
extern const task_bench tb_bench_conv;
extern const task_bench tb_bench_dct;
extern const task_bench tb_bench_fb;
extern const task_bench tb_bench_des3;

const task_bench *const tb_benches[] = {
    &tb_bench_mm, &tb_bench_mb, &tb_bench_conv, &tb_bench_dct, &tb_bench_fb, &tb_bench_des3,
};
const unsigned tb_n_benches = sizeof tb_benches / sizeof tb_benches[0];

const task_bench *tb_find(const char *name)
{
    for (unsigned i = 0; name && i < tb_n_benches; i++)
        if (!strcmp(tb_benches[i]->name, name))
            return tb_benches[i];
    return NULL;
}
