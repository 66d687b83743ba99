/* apps/tasks/task_runners.c: the parts of task_runners.h that need no
 * device (owner: apps, tasks): the set's spawn order, results, the
 * reference, the check, and runner (e), host threads over an atomic
 * counter. */
#include "task_runners.h"
#include "timer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tr_form_names[TR_N_FORMS] = {"queues", "batches", "fused", "ck", "cpu", "tasks"};

int tr_set_init(tr_set *set, char *err, size_t err_len)
{
    uint64_t total = 0;
    for (unsigned j = 0; j < set->n_jobs; j++) {
        set->job_base[j] = (unsigned)total;
        total += set->jobs[j].inst.n_tasks;
    }
    if (set->n_jobs == 0 || set->n_jobs > TR_MAX_JOBS || total == 0 || total > (1u << 24)) {
        snprintf(err, err_len, "a task set of %u kinds and %llu tasks is not usable", set->n_jobs,
                 (unsigned long long)total);
        return -1;
    }
    set->n_total = (unsigned)total;
    set->order_job = malloc(total);
    set->order_task = malloc(total * sizeof *set->order_task);
    if (!set->order_job || !set->order_task) {
        snprintf(err, err_len, "out of host memory for the spawn order of %u tasks", set->n_total);
        return -1;
    }
    unsigned k = 0;
    for (unsigned t = 0; k < set->n_total; t++)
        for (unsigned j = 0; j < set->n_jobs; j++)
            if (t < set->jobs[j].inst.n_tasks) {
                set->order_job[k] = (uint8_t)j;
                set->order_task[k] = t;
                k++;
            }
    return 0;
}

void tr_set_free(tr_set *set)
{
    for (unsigned j = 0; j < set->n_jobs; j++)
        if (set->jobs[j].bench && set->jobs[j].inst.n_buffers)
            set->jobs[j].bench->destroy(&set->jobs[j].inst);
    free(set->order_job);
    free(set->order_task);
    memset(set, 0, sizeof *set);
}

int tr_result_alloc(const tr_set *set, tr_result *r, char *err, size_t err_len)
{
    memset(r, 0, sizeof *r);
    r->latency_s = calloc(set->n_total, sizeof *r->latency_s);
    int ok = r->latency_s != NULL;
    for (unsigned j = 0; ok && j < set->n_jobs; j++)
        for (unsigned b = 0; ok && b < set->jobs[j].inst.n_buffers; b++)
            if (set->jobs[j].inst.buffers[b].output)
                ok = (r->out[j][b] = calloc(1, set->jobs[j].inst.buffers[b].bytes)) != NULL;
    if (!ok) {
        tr_result_free(r);
        snprintf(err, err_len, "out of host memory for the outputs of %u tasks", set->n_total);
        return -1;
    }
    return 0;
}

void tr_result_free(tr_result *r)
{
    free(r->latency_s);
    for (unsigned j = 0; j < TR_MAX_JOBS; j++)
        for (unsigned b = 0; b < TB_MAX_BUFFERS; b++)
            free(r->out[j][b]);
    memset(r, 0, sizeof *r);
}

/* The host thread pool of (e) and the reference. */
typedef struct {
    const tr_set *set;
    tr_result *r;
    atomic_uint next;
    double t0_s;
} pool;

static void *pool_worker(void *arg)
{
    pool *p = arg;
    const tr_set *set = p->set;
    for (;;) {
        unsigned k = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (k >= set->n_total)
            break;
        unsigned j = set->order_job[k], t = set->order_task[k];
        const tr_job *job = &set->jobs[j];
        job->bench->cpu_task(&job->inst, t, p->r->out[j]);
        p->r->latency_s[set->job_base[j] + t] = app_now_ms() / 1000.0 - p->t0_s;
    }
    return NULL;
}

/* Runs every task on `threads` threads; the caller's thread is one of them. */
static int pool_run(const tr_set *set, unsigned threads, tr_result *r, char *err, size_t err_len)
{
    pool p = {.set = set, .r = r};
    atomic_init(&p.next, 0);
    if (threads < 1)
        threads = 1;
    pthread_t *tid = calloc(threads, sizeof *tid);
    if (!tid) {
        snprintf(err, err_len, "out of host memory for %u threads", threads);
        return -1;
    }
    unsigned started = 0;
    int rc = 0;
    p.t0_s = app_now_ms() / 1000.0;
    for (; started + 1 < threads; started++)
        if (pthread_create(&tid[started], NULL, pool_worker, &p)) {
            snprintf(err, err_len, "pthread_create failed after %u threads", started);
            rc = -1;
            break; /* the threads started still finish every task */
        }
    pool_worker(&p);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    r->total_s = app_now_ms() / 1000.0 - p.t0_s;
    free(tid);
    return rc;
}

int tr_reference(const tr_set *set, unsigned threads, tr_result *ref, char *err, size_t err_len)
{
    if (tr_result_alloc(set, ref, err, err_len))
        return -1;
    return pool_run(set, threads, ref, err, err_len);
}

/* The check, spread over threads like the pool: each takes spawn indices
 * from a counter; the first failure (lowest spawn index) keeps its message. */
typedef struct {
    const tr_set *set;
    const tr_result *got, *ref;
    atomic_uint next, bad;
    pthread_mutex_t lock;
    unsigned first_k;
    char msg[512];
} checker;

static void *check_worker(void *arg)
{
    checker *c = arg;
    const tr_set *set = c->set;
    char msg[512];
    for (;;) {
        unsigned k = atomic_fetch_add_explicit(&c->next, 1, memory_order_relaxed);
        if (k >= set->n_total)
            break;
        unsigned j = set->order_job[k], t = set->order_task[k];
        const tr_job *job = &set->jobs[j];
        if (job->bench->check_task(&job->inst, t, (const void *const *)c->got->out[j],
                                   (const void *const *)c->ref->out[j], msg, sizeof msg)) {
            atomic_fetch_add(&c->bad, 1);
            pthread_mutex_lock(&c->lock);
            if (k < c->first_k) {
                c->first_k = k;
                snprintf(c->msg, sizeof c->msg, "%s", msg);
            }
            pthread_mutex_unlock(&c->lock);
        }
    }
    return NULL;
}

unsigned tr_check(const tr_set *set, const tr_result *got, const tr_result *ref, unsigned threads, char *err,
                  size_t err_len)
{
    checker c = {.set = set, .got = got, .ref = ref, .first_k = UINT32_MAX};
    atomic_init(&c.next, 0);
    atomic_init(&c.bad, 0);
    pthread_mutex_init(&c.lock, NULL);
    pthread_t tid[64];
    unsigned started = 0;
    for (; threads > 1 && started + 1 < threads && started < 64; started++)
        if (pthread_create(&tid[started], NULL, check_worker, &c))
            break; /* fewer threads: the others still check everything */
    check_worker(&c);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&c.lock);
    if (err_len)
        snprintf(err, err_len, "%s", c.msg);
    return atomic_load(&c.bad);
}

int tr_run_cpu(const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len)
{
    if (tr_result_alloc(set, r, err, err_len))
        return -1;
    /* Warm-up: a few tasks of each kind on this thread (caches, page faults of
     * the inputs they touch); the outputs they write are overwritten. */
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned t = 0; t < o->warmup && t < set->jobs[j].inst.n_tasks; t++)
            set->jobs[j].bench->cpu_task(&set->jobs[j].inst, t, r->out[j]);
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned b = 0; b < set->jobs[j].inst.n_buffers; b++)
            if (r->out[j][b])
                memset(r->out[j][b], 0, set->jobs[j].inst.buffers[b].bytes);
    snprintf(r->note, sizeof r->note, "%u threads", o->threads);
    return pool_run(set, o->threads, r, err, err_len);
}
