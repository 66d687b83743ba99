/* apps/tasks/task_runners_plain.c: runners (a) queues, (b) batches and (c)
 * fused of task_runners.h, on raw OpenCL without the megakernel (owner:
 * apps, tasks), and the kernels and device buffers they share. */
#include "task_runners.h"
#include "paths.h"
#include "timer.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now_s(void) { return app_now_ms() / 1000.0; }

void tr_plain_release(tr_plain *p)
{
    for (unsigned j = 0; j < TR_MAX_JOBS; j++) {
        if (p->kern[j])
            clReleaseKernel(p->kern[j]);
        if (p->prog[j])
            clReleaseProgram(p->prog[j]);
        /* A kernel that outlived its deadline may still use the buffers
         * (cl_plain.h): leave them to the process's exit then. */
        for (unsigned b = 0; b < TB_MAX_BUFFERS; b++)
            if (p->mem[j][b] && !(p->cl && p->cl->stuck))
                clReleaseMemObject(p->mem[j][b]);
    }
    memset(p->kern, 0, sizeof p->kern);
    memset(p->prog, 0, sizeof p->prog);
    memset(p->mem, 0, sizeof p->mem);
}

/* Enqueues one group of `wg` work-items of kernel j (task 0) and waits for
 * it, at most 30 s. Returns 0 if it ran; -1 with *refused set and a message
 * naming the kernel's reported limit `kmax` if the device refused the size
 * (CL_INVALID_WORK_GROUP_SIZE, CL_OUT_OF_RESOURCES), -1 with the error
 * otherwise. */
static int probe_group(tr_plain *p, app_cl *cl, unsigned j, size_t wg, size_t kmax, const char *name, int *refused,
                       char *err, size_t err_len)
{
    size_t global = wg;
    cl_int e = clEnqueueNDRangeKernel(cl->queue, p->kern[j], 1, NULL, &global, &wg, 0, NULL, NULL);
    if (e == CL_SUCCESS)
        return app_cl_finish(cl, app_now_ms() + 30e3, "a group at the asked work-group size", err, err_len);
    if (e == CL_INVALID_WORK_GROUP_SIZE || e == CL_OUT_OF_RESOURCES) {
        *refused = 1;
        snprintf(err, err_len,
                 "%s: work-group size %zu is above the kernel's limit on this device (it reports %zu; "
                 "a group of %zu was refused: %s)",
                 name, wg, kmax, wg, app_cl_errstr(e));
        return -1;
    }
    return app_cl_fail(e, "clEnqueueNDRangeKernel (one group at the asked work-group size)", err, err_len);
}

int tr_plain_prepare(app_cl *cl, const tr_set *set, tr_plain *p, int *refused, char *err, size_t err_len)
{
    memset(p, 0, sizeof *p);
    p->cl = cl;
    *refused = 0;
    size_t dev_max_wg = 0;
    cl_ulong dev_local = 0;
    APP_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_max_wg, &dev_max_wg, NULL),
                 "clGetDeviceInfo(MAX_WORK_GROUP_SIZE)");
    APP_CL_CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof dev_local, &dev_local, NULL),
                 "clGetDeviceInfo(LOCAL_MEM_SIZE)");
    for (unsigned j = 0; j < set->n_jobs; j++) {
        const tr_job *job = &set->jobs[j];
        const tb_instance *in = &job->inst;
        if (in->wg > dev_max_wg) {
            *refused = 1;
            snprintf(err, err_len, "work-group size %u is above the device's limit %zu", in->wg, dev_max_wg);
            goto fail;
        }
        if (app_cl_build(cl, job->bench->cl_file, NULL, &p->prog[j], err, err_len))
            goto fail;
        cl_int e;
        p->kern[j] = clCreateKernel(p->prog[j], job->bench->kernel, &e);
        APP_CL_CHECK(e, "clCreateKernel");
        size_t kmax = 0;
        APP_CL_CHECK(clGetKernelWorkGroupInfo(p->kern[j], cl->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                                              NULL),
                     "clGetKernelWorkGroupInfo(WORK_GROUP_SIZE)");
        size_t local_bytes = 0;
        for (unsigned b = 0; b < in->n_buffers; b++) {
            p->mem[j][b] = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, in->buffers[b].bytes, NULL, &e);
            APP_CL_CHECK(e, "clCreateBuffer (task buffer)");
            APP_CL_CHECK(clEnqueueWriteBuffer(cl->queue, p->mem[j][b], CL_TRUE, 0, in->buffers[b].bytes,
                                              in->buffers[b].host, 0, NULL, NULL),
                         "clEnqueueWriteBuffer (task buffer)");
        }
        for (unsigned a = 0; a < in->n_args; a++) {
            const tb_arg *g = &in->args[a];
            cl_int v = g->value;
            switch (g->kind) {
            case TB_ARG_BUFFER:
                APP_CL_CHECK(clSetKernelArg(p->kern[j], a, sizeof(cl_mem), &p->mem[j][g->value]), "clSetKernelArg");
                break;
            case TB_ARG_INT: APP_CL_CHECK(clSetKernelArg(p->kern[j], a, sizeof v, &v), "clSetKernelArg"); break;
            case TB_ARG_LOCAL:
                local_bytes += (size_t)g->value;
                APP_CL_CHECK(clSetKernelArg(p->kern[j], a, (size_t)g->value, NULL), "clSetKernelArg (local)");
                break;
            case TB_ARG_TASK_BASE:
                p->task_base_arg[j] = a;
                v = 0;
                APP_CL_CHECK(clSetKernelArg(p->kern[j], a, sizeof v, &v), "clSetKernelArg");
                break;
            }
        }
        if (local_bytes > dev_local) {
            *refused = 1;
            snprintf(err, err_len, "%s needs %zu bytes of local memory, the device has %llu", job->bench->name,
                     local_bytes, (unsigned long long)dev_local);
            goto fail;
        }
        /* Above the kernel's reported limit, the device itself is asked:
         * one group of task 0, waited for (warm_and_zero zeroes the outputs
         * later). NVIDIA's driver 580 reports 256 for every kernel, also for
         * one that requires 1024 work-items, and runs 512 and 1024 where
         * the registers allow (H200, docs/RESULTS.md, 208063b), so the
         * report alone would refuse sizes the device runs. */
        if (in->wg > kmax && probe_group(p, cl, j, in->wg, kmax, job->bench->name, refused, err, err_len))
            goto fail;
    }
    return 0;
fail:
    tr_plain_release(p);
    return -1;
}

/* Enqueues tasks [base, base + n) of job j as one NDRange on q. */
static int enqueue_tasks(tr_plain *p, const tr_set *set, unsigned j, unsigned base, unsigned n, cl_command_queue q,
                         cl_event *ev, char *err, size_t err_len)
{
    size_t wg = set->jobs[j].inst.wg;
    size_t global = (size_t)n * wg;
    cl_int b = (cl_int)base;
    APP_CL_CHECK(clSetKernelArg(p->kern[j], p->task_base_arg[j], sizeof b, &b), "clSetKernelArg (task base)");
    APP_CL_CHECK(clEnqueueNDRangeKernel(q, p->kern[j], 1, NULL, &global, &wg, 0, NULL, ev),
                 "clEnqueueNDRangeKernel");
    return 0;
fail:
    return -1;
}

/* Warm-up (a few tasks of each job, waited for), then every output zeroed. */
static int warm_and_zero(tr_plain *p, const tr_set *set, const tr_options *o, char *err, size_t err_len)
{
    app_cl *cl = p->cl;
    double deadline = app_now_ms() + o->timeout_s * 1000;
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned t = 0; t < o->warmup && t < set->jobs[j].inst.n_tasks; t++)
            if (enqueue_tasks(p, set, j, t, 1, cl->queue, NULL, err, err_len))
                return -1;
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned b = 0; b < set->jobs[j].inst.n_buffers; b++)
            if (set->jobs[j].inst.buffers[b].output) {
                cl_int zero = 0;
                APP_CL_CHECK(clEnqueueFillBuffer(cl->queue, p->mem[j][b], &zero, sizeof zero, 0,
                                                 set->jobs[j].inst.buffers[b].bytes, 0, NULL, NULL),
                             "clEnqueueFillBuffer (zero the outputs)");
            }
    return app_cl_finish(cl, deadline, "the warm-up tasks", err, err_len);
fail:
    return -1;
}

static int read_outputs(tr_plain *p, const tr_set *set, tr_result *r, char *err, size_t err_len)
{
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned b = 0; b < set->jobs[j].inst.n_buffers; b++)
            if (r->out[j][b])
                APP_CL_CHECK(clEnqueueReadBuffer(p->cl->queue, p->mem[j][b], CL_TRUE, 0,
                                                 set->jobs[j].inst.buffers[b].bytes, r->out[j][b], 0, NULL, NULL),
                             "clEnqueueReadBuffer (outputs)");
    return 0;
fail:
    return -1;
}

/* ------------------------------------------------------------ (a) queues */

typedef struct {
    const tr_set *set;
    tr_result *r;
    cl_event *ev;
    unsigned queues;
    atomic_uint enqueued; /* spawns 0..enqueued-1 have their event in ev[] */
    atomic_int stop;      /* the enqueuer failed: give up */
    double t0_s, deadline_s, last_s;
    int failed;
    char msg[256];
} poller;

static void *poll_main(void *arg)
{
    poller *w = arg;
    const tr_set *set = w->set;
    unsigned Q = w->queues, n = set->n_total, done = 0;
    unsigned *m = calloc(Q, sizeof *m); /* per queue: spawns completed */
    if (!m) {
        w->failed = 1;
        snprintf(w->msg, sizeof w->msg, "out of host memory in the completion poller");
        return NULL;
    }
    while (done < n) {
        unsigned avail = atomic_load_explicit(&w->enqueued, memory_order_acquire);
        int progress = 0;
        for (unsigned q = 0; q < Q; q++)
            for (;;) {
                uint64_t k = q + (uint64_t)Q * m[q];
                if (k >= avail)
                    break;
                cl_int st = 0;
                cl_int e = clGetEventInfo(w->ev[k], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
                if (e != CL_SUCCESS || st < 0) {
                    w->failed = 1;
                    snprintf(w->msg, sizeof w->msg, "task %llu on queue %u: %s", (unsigned long long)k, q,
                             e != CL_SUCCESS ? "clGetEventInfo failed" : app_cl_errstr(st));
                    goto out;
                }
                if (st != CL_COMPLETE)
                    break;
                double t = now_s();
                unsigned j = set->order_job[k];
                w->r->latency_s[set->job_base[j] + set->order_task[k]] =
                    t - w->r->latency_s[set->job_base[j] + set->order_task[k]];
                w->last_s = t;
                clReleaseEvent(w->ev[k]);
                w->ev[k] = NULL;
                m[q]++;
                done++;
                progress = 1;
            }
        if (!progress) {
            if (atomic_load(&w->stop))
                break;
            if (now_s() > w->deadline_s) {
                w->failed = 1;
                snprintf(w->msg, sizeof w->msg, "%u of %u tasks done after the %.0f s deadline", done, n,
                         w->deadline_s - w->t0_s);
                break;
            }
            sched_yield();
        }
    }
out:
    free(m);
    return NULL;
}

/* The other completion method of (a): an event callback per task, run on the
 * driver's thread, turns the spawn time in latency_s into the latency and
 * releases the event. */
typedef struct {
    double *latency_s;
    atomic_uint done;
    atomic_int error; /* a task's command failed (its status) */
    pthread_mutex_t lock;
    double last_s;
} cb_shared;

typedef struct {
    cb_shared *sh;
    unsigned slot;
} cb_task;

static void CL_CALLBACK on_task_done(cl_event ev, cl_int status, void *data)
{
    cb_task *c = data;
    double t = now_s();
    if (status < 0)
        atomic_store(&c->sh->error, status);
    c->sh->latency_s[c->slot] = t - c->sh->latency_s[c->slot];
    pthread_mutex_lock(&c->sh->lock);
    if (t > c->sh->last_s)
        c->sh->last_s = t;
    pthread_mutex_unlock(&c->sh->lock);
    clReleaseEvent(ev);
    atomic_fetch_add_explicit(&c->sh->done, 1, memory_order_release);
}

static int run_queues_callbacks(tr_plain *p, const tr_set *set, const tr_options *o, cl_command_queue *qs,
                                tr_result *r, char *err, size_t err_len)
{
    unsigned Q = o->queues, issued = 0;
    cb_task *cbs = calloc(set->n_total, sizeof *cbs);
    cb_shared sh = {.latency_s = r->latency_s};
    if (!cbs) {
        snprintf(err, err_len, "out of host memory for %u callbacks", set->n_total);
        return -1;
    }
    atomic_init(&sh.done, 0);
    atomic_init(&sh.error, 0);
    pthread_mutex_init(&sh.lock, NULL);
    int rc = -1;
    double t0 = now_s();
    sh.last_s = t0;
    for (unsigned k = 0; k < set->n_total; k++) {
        unsigned j = set->order_job[k], t = set->order_task[k];
        cl_command_queue q = qs[k % Q];
        cl_event ev;
        cbs[k] = (cb_task){&sh, set->job_base[j] + t};
        r->latency_s[cbs[k].slot] = now_s();
        if (enqueue_tasks(p, set, j, t, 1, q, &ev, err, err_len))
            goto wait;
        cl_int e = clSetEventCallback(ev, CL_COMPLETE, on_task_done, &cbs[k]);
        if (e != CL_SUCCESS) {
            clReleaseEvent(ev);
            app_cl_fail(e, "clSetEventCallback (queues form)", err, err_len);
            goto wait;
        }
        issued++;
        if ((e = clFlush(q)) != CL_SUCCESS) {
            app_cl_fail(e, "clFlush (queues form)", err, err_len);
            goto wait;
        }
    }
    rc = 0;
wait:
    /* Wait for every issued callback (they use cbs and sh), to the deadline. */
    while (atomic_load_explicit(&sh.done, memory_order_acquire) < issued) {
        if (now_s() > t0 + o->timeout_s) {
            p->cl->stuck = 1;
            snprintf(err, err_len, "queues form: %u of %u tasks done after the %.0f s deadline",
                     atomic_load(&sh.done), set->n_total, o->timeout_s);
            /* The callbacks may still come: cbs and sh must outlive them. */
            return -1;
        }
        sched_yield();
    }
    if (rc == 0 && atomic_load(&sh.error)) {
        snprintf(err, err_len, "queues form: a task failed: %s", app_cl_errstr(atomic_load(&sh.error)));
        rc = -1;
    }
    pthread_mutex_lock(&sh.lock);
    r->total_s = sh.last_s - t0;
    pthread_mutex_unlock(&sh.lock);
    pthread_mutex_destroy(&sh.lock);
    free(cbs);
    return rc;
}

int tr_run_queues(tr_plain *p, const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len)
{
    app_cl *cl = p->cl;
    unsigned Q = o->queues;
    cl_command_queue *qs = calloc(Q, sizeof *qs);
    cl_event *ev = calloc(set->n_total, sizeof *ev);
    poller w = {.set = set, .r = r, .ev = ev, .queues = Q};
    int rc = -1;
    if (!qs || !ev) {
        snprintf(err, err_len, "out of host memory for %u queues and %u events", Q, set->n_total);
        goto done;
    }
    if (tr_result_alloc(set, r, err, err_len))
        goto done;
    for (unsigned q = 0; q < Q; q++) {
        cl_int e;
        qs[q] = clCreateCommandQueueWithProperties(cl->context, cl->device, NULL, &e);
        if (e != CL_SUCCESS) {
            app_cl_fail(e, "clCreateCommandQueueWithProperties (queues form)", err, err_len);
            goto done;
        }
    }
    if (warm_and_zero(p, set, o, err, err_len))
        goto done;
    /* Warm every queue too (first use may set it up lazily). */
    for (unsigned q = 0; q < Q; q++) {
        cl_event wev;
        if (enqueue_tasks(p, set, 0, 0, 1, qs[q], &wev, err, err_len))
            goto done;
        int bad = app_cl_wait_event(cl, wev, app_now_ms() + o->timeout_s * 1000, "a warm-up task", err, err_len);
        clFinish(qs[q]);
        clReleaseEvent(wev);
        if (bad)
            goto done;
    }
    {
        unsigned j0 = 0;
        for (unsigned b = 0; b < set->jobs[j0].inst.n_buffers; b++)
            if (set->jobs[j0].inst.buffers[b].output) {
                cl_int zero = 0;
                APP_CL_CHECK(clEnqueueFillBuffer(cl->queue, p->mem[j0][b], &zero, sizeof zero, 0,
                                                 set->jobs[j0].inst.buffers[b].bytes, 0, NULL, NULL),
                             "clEnqueueFillBuffer (zero the outputs)");
            }
        if (app_cl_finish(cl, app_now_ms() + o->timeout_s * 1000, "zeroing the outputs", err, err_len))
            goto done;
    }
    if (o->completion_callbacks) {
        if (run_queues_callbacks(p, set, o, qs, r, err, err_len) || read_outputs(p, set, r, err, err_len))
            goto done;
        snprintf(r->note, sizeof r->note, "%u queues, callbacks", Q);
        rc = 0;
        goto done;
    }
    atomic_init(&w.enqueued, 0);
    atomic_init(&w.stop, 0);
    w.t0_s = now_s();
    w.deadline_s = w.t0_s + o->timeout_s;
    w.last_s = w.t0_s;
    pthread_t tid;
    if (pthread_create(&tid, NULL, poll_main, &w)) {
        snprintf(err, err_len, "pthread_create (completion poller) failed");
        goto done;
    }
    int enq_failed = 0;
    for (unsigned k = 0; k < set->n_total; k++) {
        unsigned j = set->order_job[k], t = set->order_task[k];
        cl_command_queue q = qs[k % Q];
        /* The poller turns the spawn time into the latency when it sees the
         * task done: latency_s holds the spawn time until then. */
        r->latency_s[set->job_base[j] + t] = now_s();
        if (enqueue_tasks(p, set, j, t, 1, q, &ev[k], err, err_len)) {
            enq_failed = 1;
            break;
        }
        cl_int e = clFlush(q);
        if (e != CL_SUCCESS) {
            app_cl_fail(e, "clFlush (queues form)", err, err_len);
            enq_failed = 1;
            break;
        }
        atomic_store_explicit(&w.enqueued, k + 1, memory_order_release);
    }
    if (enq_failed)
        atomic_store(&w.stop, 1);
    pthread_join(tid, NULL);
    r->total_s = w.last_s - w.t0_s;
    if (enq_failed)
        goto done;
    if (w.failed) {
        cl->stuck = 1;
        snprintf(err, err_len, "queues form: %s", w.msg);
        goto done;
    }
    if (read_outputs(p, set, r, err, err_len))
        goto done;
    snprintf(r->note, sizeof r->note, "%u queues, poller", Q);
    rc = 0;
fail:
done:
    if (ev) {
        /* Events left after a failure: wait for them (bounded) unless a
         * kernel is stuck, then release them. */
        char ignored[64];
        for (unsigned k = 0; k < set->n_total; k++)
            if (ev[k] && !cl->stuck) {
                app_cl_wait_event(cl, ev[k], app_now_ms() + 1000 * o->timeout_s, "a queued task", ignored,
                                  sizeof ignored);
                clReleaseEvent(ev[k]);
            }
    }
    if (qs) {
        for (unsigned q = 0; q < Q; q++)
            if (qs[q] && !cl->stuck) {
                clFinish(qs[q]);
                clReleaseCommandQueue(qs[q]);
            }
    }
    free(qs);
    free(ev);
    return rc;
}

/* ----------------------------------------------------------- (b) batches */

int tr_run_batches(tr_plain *p, const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len)
{
    app_cl *cl = p->cl;
    if (tr_result_alloc(set, r, err, err_len) || warm_and_zero(p, set, o, err, err_len))
        return -1;
    unsigned pos[TR_MAX_JOBS] = {0}, left = set->n_total, batches = 0;
    double t0 = now_s(), deadline_ms = app_now_ms() + o->timeout_s * 1000, t_end = t0;
    while (left > 0)
        for (unsigned j = 0; j < set->n_jobs; j++) {
            unsigned n_j = set->jobs[j].inst.n_tasks;
            if (pos[j] >= n_j)
                continue;
            unsigned k = n_j - pos[j] < o->batch ? n_j - pos[j] : o->batch;
            cl_event ev;
            double ts = now_s();
            if (enqueue_tasks(p, set, j, pos[j], k, cl->queue, &ev, err, err_len))
                return -1;
            int bad = app_cl_wait_event(cl, ev, deadline_ms, "a batch of tasks", err, err_len);
            clReleaseEvent(ev);
            if (bad)
                return -1;
            t_end = now_s();
            for (unsigned t = pos[j]; t < pos[j] + k; t++)
                r->latency_s[set->job_base[j] + t] = t_end - ts;
            pos[j] += k;
            left -= k;
            batches++;
        }
    r->total_s = t_end - t0;
    snprintf(r->note, sizeof r->note, "%u batches of at most %u", batches, o->batch);
    return read_outputs(p, set, r, err, err_len);
}

/* ------------------------------------------------------------- (c) fused */

int tr_run_fused(tr_plain *p, const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len)
{
    app_cl *cl = p->cl;
    cl_command_queue qs[TR_MAX_JOBS] = {0};
    cl_event ev[TR_MAX_JOBS] = {0};
    int rc = -1;
    if (tr_result_alloc(set, r, err, err_len))
        return -1;
    for (unsigned j = 0; j < set->n_jobs; j++) {
        cl_int e;
        qs[j] = clCreateCommandQueueWithProperties(cl->context, cl->device, NULL, &e);
        if (e != CL_SUCCESS) {
            app_cl_fail(e, "clCreateCommandQueueWithProperties (fused form)", err, err_len);
            goto done;
        }
    }
    if (warm_and_zero(p, set, o, err, err_len))
        goto done;
    double t0 = now_s(), deadline = t0 + o->timeout_s, t_end = t0;
    for (unsigned j = 0; j < set->n_jobs; j++) {
        if (enqueue_tasks(p, set, j, 0, set->jobs[j].inst.n_tasks, qs[j], &ev[j], err, err_len))
            goto done;
        APP_CL_CHECK(clFlush(qs[j]), "clFlush (fused form)");
    }
    for (unsigned left = set->n_jobs; left > 0;) {
        int progress = 0;
        for (unsigned j = 0; j < set->n_jobs; j++) {
            if (!ev[j])
                continue;
            cl_int st = 0;
            APP_CL_CHECK(clGetEventInfo(ev[j], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL),
                         "clGetEventInfo (fused form)");
            if (st < 0) {
                snprintf(err, err_len, "fused NDRange of %s failed: %s", set->jobs[j].bench->name,
                         app_cl_errstr(st));
                goto done;
            }
            if (st != CL_COMPLETE)
                continue;
            t_end = now_s();
            for (unsigned t = 0; t < set->jobs[j].inst.n_tasks; t++)
                r->latency_s[set->job_base[j] + t] = t_end - t0;
            clReleaseEvent(ev[j]);
            ev[j] = NULL;
            left--;
            progress = 1;
        }
        if (!progress) {
            if (now_s() > deadline) {
                cl->stuck = 1;
                snprintf(err, err_len, "fused form: the NDRanges ran past the %.0f s deadline", o->timeout_s);
                goto done;
            }
            sched_yield();
        }
    }
    r->total_s = t_end - t0;
    snprintf(r->note, sizeof r->note, "%u NDRange%s on %u queue%s", set->n_jobs, set->n_jobs > 1 ? "s" : "",
             set->n_jobs, set->n_jobs > 1 ? "s" : "");
    rc = read_outputs(p, set, r, err, err_len);
fail:
done:
    for (unsigned j = 0; j < set->n_jobs; j++) {
        if (ev[j] && !cl->stuck)
            clReleaseEvent(ev[j]);
        if (qs[j] && !cl->stuck) {
            clFinish(qs[j]);
            clReleaseCommandQueue(qs[j]);
        }
    }
    return rc;
}
