/* apps/tasks/task_bench.h: the interface every narrow-task benchmark
 * implements (Pagoda's Table 3 set: mm, conv, mb, fb, dct, des3; mpe is
 * composed from four of them by the runner). Owner: apps (tasks).
 *
 * A benchmark describes its work abstractly, so that every way of running
 * it (one NDRange per task over several queues, batches, one fused NDRange,
 * one megakernel launch per task, host threads) uses the same description:
 *   - buffers: host copies of every global buffer the kernel takes, with
 *     their sizes; inputs are filled by create(), outputs are zeroed;
 *   - args: the kernel's argument list, each a buffer index, an int, a local
 *     size or the "task base" (the task id of the launch's group 0);
 *   - one task is ONE work-group of `wg` work-items; a kernel finds its task
 *     as task_base + get_group_id(0), so launching tasks [b, b + k) is one
 *     NDRange of k groups with task_base = b (k = 1 for one task per launch,
 *     k = n_tasks for static fusion);
 *   - cpu_task() computes one task's outputs on the host (the reference, and
 *     the pthreads baseline), check_task() compares one task's outputs with
 *     the reference independently of how they were produced.
 * A kernel must not depend on get_num_groups(0), get_global_size(0) or
 * get_global_id(0) (they differ between the forms); only on its task id,
 * get_local_id(0) and get_local_size(0) (== wg).
 *
 * Errors: create() returns -1 with a one-line message in err (a bad wg or
 * task count, out of memory); it must free what it allocated before failing.
 */
#ifndef APPS_TASK_BENCH_H
#define APPS_TASK_BENCH_H

#include <stddef.h>
#include <stdint.h>

#define TB_MAX_BUFFERS 8
#define TB_MAX_ARGS 12
/* Most tasks any benchmark accepts (des3's offsets are 32-bit
 * counts of 8-byte blocks: 2^19 tasks of at most 64 KiB fit). */
#define TB_MAX_TASKS (1u << 19)

typedef enum {
    TB_ARG_BUFFER,    /* value: index into buffers[]                     */
    TB_ARG_INT,       /* value: the int passed                           */
    TB_ARG_LOCAL,     /* value: bytes of a `local` pointer argument       */
    TB_ARG_TASK_BASE, /* the runner passes the first task of the launch   */
} tb_arg_kind;

typedef struct {
    tb_arg_kind kind;
    int value;
} tb_arg;

typedef struct {
    void *host; /* malloc'd host copy: inputs filled, outputs zeroed */
    size_t bytes;
    int output; /* 1 if the kernel writes it (read back and checked)  */
} tb_buffer;

typedef struct {
    unsigned n_tasks;
    unsigned wg; /* work-items per task (the work-group size) */
    uint64_t seed;
    tb_buffer buffers[TB_MAX_BUFFERS];
    unsigned n_buffers;
    tb_arg args[TB_MAX_ARGS];
    unsigned n_args;
    void *priv; /* the benchmark's own data (per-task sizes...) */
} tb_instance;

typedef struct task_bench {
    const char *name;    /* "mm", "conv", "mb", "fb", "dct", "des3"      */
    const char *summary; /* one line for --help and the JSON            */
    const char *cl_file; /* relative to the apps kernel dir: "tasks/mm.cl" */
    const char *kernel;  /* the kernel's name in cl_file                 */
    /* Smallest and largest wg the kernel supports (wg must be a power of
     * two in [min_wg, max_wg]); create() refuses others with a message. */
    unsigned min_wg, max_wg;
    /* 1 if the outputs are integers or bytes checked exactly (mb, des3);
     * 0 if they are floats checked with a tolerance. */
    int exact;
    int (*create)(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed, char *err, size_t err_len);
    /* Task `task`'s outputs on the host, written into out[b] for each
     * output buffer b (out[b] has buffers[b].bytes; non-outputs NULL).
     * Thread-safe for distinct tasks (the pthreads baseline calls it from
     * several threads into the same arrays). */
    void (*cpu_task)(const tb_instance *inst, unsigned task, void *const *out);
    /* 0 if task `task`'s outputs in got[] match ref[] (same layout as
     * out above), else -1 with a message naming the task and the first
     * wrong element. Float outputs are compared with a tolerance the
     * benchmark documents. */
    int (*check_task)(const tb_instance *inst, unsigned task, const void *const *got, const void *const *ref,
                      char *err, size_t err_len);
    void (*destroy)(tb_instance *inst); /* frees buffers and priv */
} task_bench;

/* The registry (apps/tasks/task_registry.c). */
extern const task_bench *const tb_benches[];
extern const unsigned tb_n_benches;
const task_bench *tb_find(const char *name); /* NULL if unknown */

#endif
