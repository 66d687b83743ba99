/* apps/tasks/task_runners_ck.c: the megakernel's runners of task_runners.h
 * (owner: apps, tasks): (d) one ck_launch_kernel of one group per task, and
 * (f) one ck_task_spawn per task; both on one context setup (below).
 *
 * (d):
 * ck.h: a launch posts one message to the host-to-device ring; the device
 * keeps a bounded number of launches in flight and ck_launch_kernel blocks
 * (up to the context's timeout, then CK_ERR_TIMEOUT) while the ring is full.
 * To keep the latency figure honest (spawn = the call, not a stall inside
 * it) the runner keeps at most o->ck_window launches outstanding: after each
 * launch it sweeps its window with ck_launch_done, recording and releasing
 * the finished ones, and when the window is full it ck_waits for the oldest. */
#include "task_runners.h"
#include "paths.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now_s(void) { return app_now_ms() / 1000.0; }

#define CK_FAIL(what)                                                                                               \
    do {                                                                                                            \
        snprintf(err, err_len, "%s: %s", what, ck_last_error());                                                    \
        goto done;                                                                                                  \
    } while (0)

typedef struct {
    ck_launch *l;
    unsigned slot; /* latency index */
} inflight;

/* The counts of tasks/beside.cl's kernel (slots of done[]). */
#define BESIDE_SLOTS 1024u

/* A built context with every job's buffers uploaded and its arguments made
 * (the task-number argument left to the caller), and the cooperative
 * kernel beside the tasks when asked for. */
typedef struct {
    ck_context *ctx;
    ck_buffer bufs[TR_MAX_JOBS][TB_MAX_BUFFERS];
    ck_arg args[TR_MAX_JOBS][TB_MAX_ARGS];
    unsigned base_arg[TR_MAX_JOBS];
    size_t max_out_bytes;
    ck_launch *beside; /* NULL: none running */
    ck_buffer beside_stop, beside_next, beside_done;
    uint64_t beside_units; /* units it counted, once stopped */
} ck_setup;

static int setup_context(const tr_set *set, const tr_options *o, int tasks, ck_setup *c, char *err, size_t err_len)
{
    memset(c, 0, sizeof *c);
    /* Arena: every buffer (rounded up) plus room for the runtime; local pool:
     * the largest sum of a kernel's local arguments. */
    uint64_t arena = 16u << 20;
    size_t local = 0;
    for (unsigned j = 0; j < set->n_jobs; j++) {
        const tb_instance *in = &set->jobs[j].inst;
        size_t lj = 0;
        for (unsigned b = 0; b < in->n_buffers; b++) {
            arena += (in->buffers[b].bytes + 4095) / 4096 * 4096 + 4096;
            if (in->buffers[b].output && in->buffers[b].bytes > c->max_out_bytes)
                c->max_out_bytes = in->buffers[b].bytes;
        }
        for (unsigned a = 0; a < in->n_args; a++)
            if (in->args[a].kind == TB_ARG_LOCAL)
                lj += (size_t)in->args[a].value;
        if (lj > local)
            local = lj;
    }
    ck_context_options co;
    memset(&co, 0, sizeof co);
    co.device = o->device;
    co.work_group_size = set->jobs[0].inst.wg;
    co.arena_bytes = (size_t)(arena < (64u << 20) ? (64u << 20) : arena);
    co.local_pool_bytes = (local + 15) / 16 * 16;
    co.timeout_s = o->timeout_s;
    co.quiet_warnings = 1;
    co.tasks = tasks;
    co.chaos_seed = o->chaos_seed;
    if (ck_context_create(&co, &c->ctx) != CK_OK)
        CK_FAIL("ck_context_create");
    if (o->beside) {
        char path[1024];
        const char *coop[] = {"tasks_beside"};
        app_kernel_path("tasks/beside.cl", path, sizeof path);
        if (ck_context_add_file(c->ctx, path, coop, 1) != CK_OK)
            CK_FAIL("ck_context_add_file (the cooperative kernel beside the tasks)");
    }
    for (unsigned j = 0; j < set->n_jobs; j++) {
        int seen = 0;
        for (unsigned i = 0; i < j; i++)
            seen |= !strcmp(set->jobs[i].bench->cl_file, set->jobs[j].bench->cl_file);
        if (seen)
            continue;
        char path[1024];
        app_kernel_path(set->jobs[j].bench->cl_file, path, sizeof path);
        if (ck_context_add_file(c->ctx, path, NULL, 0) != CK_OK)
            CK_FAIL("ck_context_add_file");
    }
    if (ck_context_build(c->ctx) != CK_OK)
        CK_FAIL("ck_context_build");
    for (unsigned j = 0; j < set->n_jobs; j++) {
        const tb_instance *in = &set->jobs[j].inst;
        for (unsigned b = 0; b < in->n_buffers; b++) {
            if (ck_buffer_alloc(c->ctx, in->buffers[b].bytes, &c->bufs[j][b]) != CK_OK)
                CK_FAIL("ck_buffer_alloc");
            if (ck_buffer_write(c->ctx, c->bufs[j][b], 0, in->buffers[b].host, in->buffers[b].bytes) != CK_OK)
                CK_FAIL("ck_buffer_write");
        }
        for (unsigned a = 0; a < in->n_args; a++) {
            const tb_arg *g = &in->args[a];
            switch (g->kind) {
            case TB_ARG_BUFFER: c->args[j][a] = ck_arg_buffer(c->bufs[j][g->value]); break;
            case TB_ARG_INT: c->args[j][a] = ck_arg_int(g->value); break;
            case TB_ARG_LOCAL: c->args[j][a] = ck_arg_local((size_t)g->value); break;
            case TB_ARG_TASK_BASE:
                c->base_arg[j] = a;
                c->args[j][a] = ck_arg_int(0);
                break;
            }
        }
    }
    return 0;
done:
    return -1;
}

/* Starts tasks/beside.cl's kernel on every worker (its buffers zeroed). */
static int start_beside(ck_setup *c, char *err, size_t err_len)
{
    uint32_t *zeros = calloc(BESIDE_SLOTS, 4);
    int rc = -1;
    if (!zeros) {
        snprintf(err, err_len, "out of host memory (the kernel beside the tasks)");
        return -1;
    }
    if (ck_buffer_alloc(c->ctx, 4, &c->beside_stop) != CK_OK ||
        ck_buffer_alloc(c->ctx, 4, &c->beside_next) != CK_OK ||
        ck_buffer_alloc(c->ctx, BESIDE_SLOTS * 4, &c->beside_done) != CK_OK)
        CK_FAIL("ck_buffer_alloc (the kernel beside the tasks)");
    if (ck_buffer_write(c->ctx, c->beside_stop, 0, zeros, 4) != CK_OK ||
        ck_buffer_write(c->ctx, c->beside_next, 0, zeros, 4) != CK_OK ||
        ck_buffer_write(c->ctx, c->beside_done, 0, zeros, BESIDE_SLOTS * 4) != CK_OK)
        CK_FAIL("ck_buffer_write (the kernel beside the tasks)");
    ck_arg a[4] = {ck_arg_buffer(c->beside_stop), ck_arg_buffer(c->beside_next), ck_arg_buffer(c->beside_done),
                   ck_arg_uint(BESIDE_SLOTS)};
    if (ck_launch_kernel(c->ctx, "tasks_beside", ck_context_workers(c->ctx), a, 4, &c->beside) != CK_OK)
        CK_FAIL("ck_launch_kernel (the cooperative kernel beside the tasks)");
    rc = 0;
done:
    free(zeros);
    return rc;
}

/* Sets the stop word of the kernel beside the tasks, waits for it and
 * releases it (c->beside NULL after). CK_OK, or the failing call's status. */
static ck_status halt_beside(ck_setup *c)
{
    uint32_t one = 1;
    ck_status s = ck_buffer_write(c->ctx, c->beside_stop, 0, &one, 4);
    if (s == CK_OK)
        s = ck_wait(c->beside, 0);
    ck_launch_release(c->beside);
    c->beside = NULL;
    return s;
}

/* Stops the kernel beside the tasks, waits for it and checks its counts:
 * every unit it claimed counted once (none lost or doubled by the kills
 * the tasks asked for and the forks that gave the workers back). Its claim
 * counter is 32 bits and wraps (a GPU's groups make tens of millions of
 * steps a second, a unit each), so the claims are compared modulo 2^32
 * with the sum of the counts, which is the number of units (each of the
 * BESIDE_SLOTS counts stays far below 2^32). */
static int stop_beside(ck_setup *c, char *err, size_t err_len)
{
    uint32_t next = 0, *done = calloc(BESIDE_SLOTS, 4);
    int rc = -1;
    if (!done) {
        snprintf(err, err_len, "out of host memory (the kernel beside the tasks)");
        return -1;
    }
    if (halt_beside(c) != CK_OK)
        CK_FAIL("stopping the cooperative kernel beside the tasks");
    if (ck_buffer_read(c->ctx, c->beside_next, 0, &next, 4) != CK_OK ||
        ck_buffer_read(c->ctx, c->beside_done, 0, done, BESIDE_SLOTS * 4) != CK_OK)
        CK_FAIL("ck_buffer_read (the kernel beside the tasks)");
    c->beside_units = 0;
    for (unsigned i = 0; i < BESIDE_SLOTS; i++)
        c->beside_units += done[i];
    if (c->beside_units == 0) { /* its group 0, never killed, claims in every step, the last too */
        snprintf(err, err_len, "the cooperative kernel beside the tasks claimed no unit of work");
        goto done;
    }
    if ((uint32_t)c->beside_units != next) {
        snprintf(err, err_len,
                 "the cooperative kernel beside the tasks counted %llu units, but its claims "
                 "say %u (mod 2^32)",
                 (unsigned long long)c->beside_units, next);
        goto done;
    }
    rc = 0;
done:
    free(done);
    return rc;
}

/* The runner's note's suffix for the kernel beside the tasks ("" without). */
static void beside_note(const ck_setup *c, int beside, char *buf, size_t len)
{
    buf[0] = 0;
    if (beside)
        snprintf(buf, len, ", beside a cooperative kernel (%llu units)", (unsigned long long)c->beside_units);
}

/* Zeroes every output buffer (after the warm-up). */
static int zero_outputs(const tr_set *set, ck_setup *c, char *err, size_t err_len)
{
    void *zeros = calloc(1, c->max_out_bytes ? c->max_out_bytes : 1);
    int rc = -1;
    if (!zeros) {
        snprintf(err, err_len, "out of host memory (ck form)");
        return -1;
    }
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned b = 0; b < set->jobs[j].inst.n_buffers; b++)
            if (set->jobs[j].inst.buffers[b].output &&
                ck_buffer_write(c->ctx, c->bufs[j][b], 0, zeros, set->jobs[j].inst.buffers[b].bytes) != CK_OK)
                CK_FAIL("ck_buffer_write (zero the outputs)");
    rc = 0;
done:
    free(zeros);
    return rc;
}

static int read_outputs(const tr_set *set, ck_setup *c, tr_result *r, char *err, size_t err_len)
{
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned b = 0; b < set->jobs[j].inst.n_buffers; b++)
            if (r->out[j][b] &&
                ck_buffer_read(c->ctx, c->bufs[j][b], 0, r->out[j][b], set->jobs[j].inst.buffers[b].bytes) != CK_OK)
                CK_FAIL("ck_buffer_read");
    return 0;
done:
    return -1;
}

/* Destroys the context (a kernel beside the tasks still running, after a
 * failure, is stopped first, its counts unchecked); an error there fails a
 * run that had succeeded. */
static int close_context(ck_setup *c, int rc, char *err, size_t err_len)
{
    if (c->beside)
        halt_beside(c);
    if (c->ctx && ck_context_destroy(c->ctx) != CK_OK && rc == 0) {
        snprintf(err, err_len, "ck_context_destroy: %s", ck_last_error());
        rc = -1;
    }
    return rc;
}

int tr_run_ck(const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len)
{
    ck_setup c;
    inflight *win = NULL;
    unsigned n_win = 0, W = o->ck_window ? o->ck_window : 1;
    int rc = -1;
    if (tr_result_alloc(set, r, err, err_len))
        return -1;
    if (setup_context(set, o, 0, &c, err, err_len) || (o->beside && start_beside(&c, err, err_len)))
        goto done;
    ck_context *ctx = c.ctx;
    /* Warm-up: a few launches of every kernel, waited for. */
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned t = 0; t < o->warmup && t < set->jobs[j].inst.n_tasks; t++) {
            ck_launch *l;
            c.args[j][c.base_arg[j]] = ck_arg_int((int32_t)t);
            if (ck_launch_kernel(ctx, set->jobs[j].bench->kernel, 1, c.args[j], set->jobs[j].inst.n_args, &l) !=
                CK_OK)
                CK_FAIL("ck_launch_kernel (warm-up)");
            ck_status s = ck_wait(l, 0);
            ck_launch_release(l);
            if (s != CK_OK)
                CK_FAIL("ck_wait (warm-up)");
        }
    win = calloc(W, sizeof *win);
    if (!win) {
        snprintf(err, err_len, "out of host memory (ck form)");
        goto done;
    }
    if (zero_outputs(set, &c, err, err_len))
        goto done;

    double t0 = now_s(), t_end = t0;
    for (unsigned k = 0; k <= set->n_total; k++) {
        /* Sweep the window: record and release what has finished; when it is
         * full (or at the end, until it is empty) wait for the oldest. */
        for (;;) {
            unsigned keep = 0;
            for (unsigned i = 0; i < n_win; i++) {
                if (ck_launch_done(win[i].l)) {
                    ck_status s = ck_wait(win[i].l, 0);
                    double t = now_s();
                    if (s != CK_OK)
                        CK_FAIL("ck_wait");
                    r->latency_s[win[i].slot] = t - r->latency_s[win[i].slot];
                    t_end = t;
                    ck_launch_release(win[i].l);
                } else {
                    win[keep++] = win[i];
                }
            }
            n_win = keep;
            if (n_win == 0 || (n_win < W && k < set->n_total))
                break;
            ck_status s = ck_wait(win[0].l, 0);
            if (s != CK_OK)
                CK_FAIL("ck_wait");
        }
        if (k == set->n_total)
            break;
        unsigned j = set->order_job[k], t = set->order_task[k];
        unsigned slot = set->job_base[j] + t;
        c.args[j][c.base_arg[j]] = ck_arg_int((int32_t)t);
        r->latency_s[slot] = now_s(); /* the spawn time, until it is done */
        ck_launch *l;
        if (ck_launch_kernel(ctx, set->jobs[j].bench->kernel, 1, c.args[j], set->jobs[j].inst.n_args, &l) != CK_OK)
            CK_FAIL("ck_launch_kernel");
        win[n_win++] = (inflight){l, slot};
    }
    r->total_s = t_end - t0;
    if (read_outputs(set, &c, r, err, err_len) || (o->beside && stop_beside(&c, err, err_len)))
        goto done;
    char beside[80];
    beside_note(&c, o->beside, beside, sizeof beside);
    snprintf(r->note, sizeof r->note, "window %u, %u workers%s", W, ck_context_workers(ctx), beside);
    rc = 0;
done:
    for (unsigned i = 0; i < n_win; i++) {
        ck_wait(win[i].l, 0);
        ck_launch_release(win[i].l);
    }
    free(win);
    return close_context(&c, rc, err, err_len);
}

/* (f): spawned tasks in flight are kept in spawn order in a ring of
 * CK_TASK_TABLE_ENTRIES (the table's size: a spawn beyond it would wait in
 * ck_task_spawn). After each spawn the host retires finished tasks from
 * the oldest on (ck_task_check, a load of host memory each), and when the
 * ring is full it waits for the oldest. With o->task_batch > 0 it spawns
 * that many, then waits for all of them (ck_task_wait_all), and so on. */
typedef struct {
    ck_task t;
    unsigned slot; /* latency index */
} spawned;

int tr_run_tasks(const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len)
{
    ck_setup c;
    spawned *ring = NULL;
    unsigned head = 0, n_ring = 0, R = CK_TASK_TABLE_ENTRIES;
    int rc = -1;
    if (tr_result_alloc(set, r, err, err_len))
        return -1;
    if (setup_context(set, o, 1, &c, err, err_len) || (o->beside && start_beside(&c, err, err_len)))
        goto done;
    ck_context *ctx = c.ctx;
    ck_kernel kern[TR_MAX_JOBS];
    for (unsigned j = 0; j < set->n_jobs; j++)
        if (ck_kernel_find(ctx, set->jobs[j].bench->kernel, &kern[j]) != CK_OK)
            CK_FAIL("ck_kernel_find");
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned t = 0; t < o->warmup && t < set->jobs[j].inst.n_tasks; t++) {
            ck_task tk;
            c.args[j][c.base_arg[j]] = ck_arg_int((int32_t)t);
            if (ck_task_spawn(ctx, kern[j], 1, c.args[j], set->jobs[j].inst.n_args, 0, &tk) != CK_OK)
                CK_FAIL("ck_task_spawn (warm-up)");
            if (ck_task_wait(tk, 0) != CK_OK)
                CK_FAIL("ck_task_wait (warm-up)");
        }
    ring = calloc(R, sizeof *ring);
    if (!ring) {
        snprintf(err, err_len, "out of host memory (tasks form)");
        goto done;
    }
    if (zero_outputs(set, &c, err, err_len))
        goto done;

    unsigned batch = o->task_batch;
    double t0 = now_s(), t_end = t0;
    for (unsigned k = 0; k <= set->n_total; k++) {
        int drain = k == set->n_total || (batch && k && k % batch == 0);
        /* Retire finished tasks from the oldest on; wait for the oldest while
         * the ring is full, or for all of them at the end of a batch. */
        while (n_ring) {
            spawned *s = &ring[head];
            if (!ck_task_check(s->t)) {
                if (!drain && n_ring < R)
                    break;
                if (ck_task_wait(s->t, 0) != CK_OK)
                    CK_FAIL("ck_task_wait");
            }
            if (ck_task_wait(s->t, 0) != CK_OK) /* at once: says why a check returned 1 early */
                CK_FAIL("ck_task_wait");
            double t = now_s();
            r->latency_s[s->slot] = t - r->latency_s[s->slot];
            t_end = t;
            head = (head + 1) % R;
            n_ring--;
        }
        if (k == set->n_total)
            break;
        unsigned j = set->order_job[k], t = set->order_task[k];
        unsigned slot = set->job_base[j] + t;
        c.args[j][c.base_arg[j]] = ck_arg_int((int32_t)t);
        r->latency_s[slot] = now_s();
        spawned *s = &ring[(head + n_ring) % R];
        if (ck_task_spawn(ctx, kern[j], 1, c.args[j], set->jobs[j].inst.n_args, 0, &s->t) != CK_OK)
            CK_FAIL("ck_task_spawn");
        s->slot = slot;
        n_ring++;
    }
    r->total_s = t_end - t0;
    if (read_outputs(set, &c, r, err, err_len) || (o->beside && stop_beside(&c, err, err_len)))
        goto done;
    char beside[80];
    beside_note(&c, o->beside, beside, sizeof beside);
    if (batch)
        snprintf(r->note, sizeof r->note, "batches of %u, %u workers%s", batch, ck_context_workers(ctx), beside);
    else
        snprintf(r->note, sizeof r->note, "continuous, %u workers%s", ck_context_workers(ctx), beside);
    rc = 0;
done:
    if (c.ctx)
        ck_task_wait_all(c.ctx, 0);
    free(ring);
    return close_context(&c, rc, err, err_len);
}
