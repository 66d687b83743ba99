/* apps/tasks/task_runners.h: the five ways tools/cktasks runs a set of
 * narrow tasks (owner: apps, tasks), the reference they are checked against,
 * and the check. A set is one benchmark instance, or for mpe several (one
 * per kind), whose tasks are spawned interleaved: spawn k takes the next task
 * of instance k mod J that has tasks left (tr_set_init builds that order).
 *
 * Every runner fills a tr_result: the timed seconds (first spawn to the last
 * completion seen), each task's spawn-to-done latency in seconds, indexed
 * job_base[j] + task (not by spawn order), and the output buffers read back
 * (malloc'd copies, same layout as the instances' host buffers). Each runner
 * first runs a few tasks of every instance untimed (warm-up: programs built,
 * queues and caches warm), then zeroes the outputs, so a task the timed run
 * skips fails the check.
 *
 * Spawn and completion, per form:
 *  (a) queues:  task k is enqueued as one NDRange of one group on in-order
 *      queue k mod `queues` (flushed at once); spawn = the host time of the
 *      enqueue call, done = the host time a poller thread first sees its
 *      event CL_COMPLETE (it walks each queue's events in order with
 *      clGetEventInfo, releasing each as it completes, so only in-flight
 *      events stay alive). With completion_callbacks, instead, each event
 *      gets a CL_COMPLETE callback (clSetEventCallback) that records the
 *      time and releases it; the host thread only enqueues, then waits.
 *  (b) batches: `batch` tasks of one instance as one NDRange (instances
 *      taken round-robin), enqueued and waited for one at a time on one
 *      queue; spawn = the batch's enqueue, done = its wait returned.
 *  (c) fused:   every instance as one NDRange of all its tasks, all enqueued
 *      at once (one queue per instance: for mpe the four kinds run side by
 *      side); spawn = the start, done = when its NDRange's completion is
 *      seen.
 *  (d) ck:      a ck_context built from the instances' kernel files (as
 *      ordinary kernels, work-group size = wg; not timed), one
 *      ck_launch_kernel of one group per task, at most `ck_window` launches
 *      in flight (the host then waits for the oldest); spawn = the
 *      ck_launch_kernel call, done = when ck_launch_done first says so (the
 *      host sweeps its window after every launch) or ck_wait returns.
 *  (e) cpu:     `threads` host threads take tasks in spawn order from an
 *      atomic counter and run cpu_task; all tasks are spawned at the start,
 *      done = when its thread finished it.
 *  (f) tasks:   the same context as (d), one ck_task_spawn of one group per
 *      task (ck.h's task API: no message to the scheduler); at most
 *      CK_TASK_TABLE_ENTRIES in flight, kept in spawn order, retired from the
 *      oldest on with ck_task_check after every spawn (the oldest waited for
 *      when the ring is full); spawn = the ck_task_spawn call, done = when
 *      the host first sees it finished in that order. With task_batch > 0,
 *      batches of that many are spawned and all waited for in turn.
 * Errors: every function returning int returns 0, or -1 with a one-line
 * message in err (an OpenCL call that failed, a deadline passed, out of
 * memory, a ck_* error with ck_last_error()). */
#ifndef APPS_TASK_RUNNERS_H
#define APPS_TASK_RUNNERS_H

#include "task_bench.h"
#include "cl_plain.h"

#include <stddef.h>
#include <stdint.h>

#define TR_MAX_JOBS 8

typedef enum { TR_QUEUES, TR_BATCHES, TR_FUSED, TR_CK, TR_CPU, TR_TASKS, TR_N_FORMS } tr_form;
/* "queues", "batches", "fused", "ck", "cpu", "tasks" */
extern const char *const tr_form_names[TR_N_FORMS];

typedef struct {
    const task_bench *bench;
    tb_instance inst; /* created by the caller */
} tr_job;

typedef struct {
    tr_job jobs[TR_MAX_JOBS];
    unsigned n_jobs;
    unsigned n_total; /* tasks of all jobs */
    unsigned job_base[TR_MAX_JOBS];
    uint8_t *order_job; /* spawn k: job order_job[k], task order_task[k] */
    uint32_t *order_task;
} tr_set;

typedef struct {
    unsigned queues;          /* (a): in-order queues, >= 1 */
    unsigned batch;           /* (b): tasks per NDRange, >= 1 */
    unsigned threads;         /* (e) and the reference: host threads, >= 1 */
    unsigned ck_window;       /* (d): launches in flight, >= 1 */
    unsigned task_batch;      /* (f): 0 = continuous spawning, else batch size */
    unsigned warmup;          /* tasks per instance run untimed first */
    int completion_callbacks; /* (a): 1 = event callbacks instead of the poller */
    double timeout_s;         /* deadline of every wait */
    ck_device_options device; /* (d): the device and path to open */
    uint64_t chaos_seed;      /* (d), (f): the megakernel's chaos seed (0: none) */
    int beside;               /* (d), (f): a cooperative kernel runs beside the tasks (tasks/beside.cl) */
} tr_options;

typedef struct {
    double total_s;
    double *latency_s;                      /* n_total entries */
    void *out[TR_MAX_JOBS][TB_MAX_BUFFERS]; /* outputs read back (NULL for inputs) */
    char note[160];                         /* what the runner chose, e.g. "window 64" */
} tr_result;

/* Fills set->n_total, job_base and the interleaved spawn order of the jobs
 * already in set->jobs[0..n_jobs). */
int tr_set_init(tr_set *set, char *err, size_t err_len);
/* Frees the spawn order and destroys every job's instance. */
void tr_set_free(tr_set *set);

/* Allocates r->latency_s and zeroed output copies for every output buffer. */
int tr_result_alloc(const tr_set *set, tr_result *r, char *err, size_t err_len);
void tr_result_free(tr_result *r);

/* The reference: every task's cpu_task into ref->out (ref allocated here;
 * its times are not meaningful). Run on `threads` host threads: cpu_task is
 * a function of the instance and the task alone, so the result is the same
 * bytes as a single-threaded run. */
int tr_reference(const tr_set *set, unsigned threads, tr_result *ref, char *err, size_t err_len);

/* Checks every task of every job with its bench's check_task against ref,
 * on `threads` host threads (at most 64; check_task is thread-safe for
 * distinct tasks). Returns the number of failing tasks; the message of the
 * first in spawn order is in err ("" if none). Cannot fail otherwise. */
unsigned tr_check(const tr_set *set, const tr_result *got, const tr_result *ref, unsigned threads, char *err,
                  size_t err_len);

/* Plain OpenCL state shared by (a), (b) and (c): a program and kernel per
 * job, and device copies of its buffers (inputs uploaded). */
typedef struct {
    app_cl *cl;
    cl_program prog[TR_MAX_JOBS];
    cl_kernel kern[TR_MAX_JOBS];
    cl_mem mem[TR_MAX_JOBS][TB_MAX_BUFFERS];
    unsigned task_base_arg[TR_MAX_JOBS];
} tr_plain;

/* Builds the kernels and uploads the buffers. Also refuses (-1) a wg above
 * what the device or a kernel allows, saying so (*refused set to 1 then, so
 * the tool can call it a usage error). */
int tr_plain_prepare(app_cl *cl, const tr_set *set, tr_plain *p, int *refused, char *err, size_t err_len);
void tr_plain_release(tr_plain *p);

int tr_run_queues(tr_plain *p, const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len);
int tr_run_batches(tr_plain *p, const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len);
int tr_run_fused(tr_plain *p, const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len);
int tr_run_ck(const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len);
int tr_run_tasks(const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len);
int tr_run_cpu(const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len);

#endif
