/* apps/tasks/task_runners_ck.c: runner (d) of task_runners.h (owner: apps,
 * tasks): today's megakernel, one ck_launch_kernel of one group per task.
 *
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

#define CK_FAIL(what)                                                                                              \
    do {                                                                                                           \
        snprintf(err, err_len, "%s: %s", what, ck_last_error());                                                   \
        goto done;                                                                                                 \
    } while (0)

typedef struct {
    ck_launch *l;
    unsigned slot; /* latency index */
} inflight;

int tr_run_ck(const tr_set *set, const tr_options *o, tr_result *r, char *err, size_t err_len)
{
    ck_context *ctx = NULL;
    ck_buffer bufs[TR_MAX_JOBS][TB_MAX_BUFFERS];
    ck_arg args[TR_MAX_JOBS][TB_MAX_ARGS];
    unsigned base_arg[TR_MAX_JOBS] = {0};
    inflight *win = NULL;
    unsigned n_win = 0, W = o->ck_window ? o->ck_window : 1;
    void *zeros = NULL;
    int rc = -1;
    memset(bufs, 0, sizeof bufs);
    if (tr_result_alloc(set, r, err, err_len))
        return -1;

    /* Arena: every buffer (rounded up) plus room for the runtime; local pool:
     * the largest sum of a kernel's local arguments. */
    uint64_t arena = 16u << 20;
    size_t local = 0, max_bytes = 0;
    for (unsigned j = 0; j < set->n_jobs; j++) {
        const tb_instance *in = &set->jobs[j].inst;
        size_t lj = 0;
        for (unsigned b = 0; b < in->n_buffers; b++) {
            arena += (in->buffers[b].bytes + 4095) / 4096 * 4096 + 4096;
            if (in->buffers[b].output && in->buffers[b].bytes > max_bytes)
                max_bytes = in->buffers[b].bytes;
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
    if (ck_context_create(&co, &ctx) != CK_OK)
        CK_FAIL("ck_context_create");
    for (unsigned j = 0; j < set->n_jobs; j++) {
        int seen = 0;
        for (unsigned i = 0; i < j; i++)
            seen |= !strcmp(set->jobs[i].bench->cl_file, set->jobs[j].bench->cl_file);
        if (seen)
            continue;
        char path[1024];
        app_kernel_path(set->jobs[j].bench->cl_file, path, sizeof path);
        if (ck_context_add_file(ctx, path, NULL, 0) != CK_OK)
            CK_FAIL("ck_context_add_file");
    }
    if (ck_context_build(ctx) != CK_OK)
        CK_FAIL("ck_context_build");
    for (unsigned j = 0; j < set->n_jobs; j++) {
        const tb_instance *in = &set->jobs[j].inst;
        for (unsigned b = 0; b < in->n_buffers; b++) {
            if (ck_buffer_alloc(ctx, in->buffers[b].bytes, &bufs[j][b]) != CK_OK)
                CK_FAIL("ck_buffer_alloc");
            if (ck_buffer_write(ctx, bufs[j][b], 0, in->buffers[b].host, in->buffers[b].bytes) != CK_OK)
                CK_FAIL("ck_buffer_write");
        }
        for (unsigned a = 0; a < in->n_args; a++) {
            const tb_arg *g = &in->args[a];
            switch (g->kind) {
            case TB_ARG_BUFFER: args[j][a] = ck_arg_buffer(bufs[j][g->value]); break;
            case TB_ARG_INT: args[j][a] = ck_arg_int(g->value); break;
            case TB_ARG_LOCAL: args[j][a] = ck_arg_local((size_t)g->value); break;
            case TB_ARG_TASK_BASE:
                base_arg[j] = a;
                args[j][a] = ck_arg_int(0);
                break;
            }
        }
    }
    /* Warm-up: a few launches of every kernel, waited for. */
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned t = 0; t < o->warmup && t < set->jobs[j].inst.n_tasks; t++) {
            ck_launch *l;
            args[j][base_arg[j]] = ck_arg_int((int32_t)t);
            if (ck_launch_kernel(ctx, set->jobs[j].bench->kernel, 1, args[j], set->jobs[j].inst.n_args, &l) !=
                CK_OK)
                CK_FAIL("ck_launch_kernel (warm-up)");
            ck_status s = ck_wait(l, 0);
            ck_launch_release(l);
            if (s != CK_OK)
                CK_FAIL("ck_wait (warm-up)");
        }
    zeros = calloc(1, max_bytes ? max_bytes : 1);
    win = calloc(W, sizeof *win);
    if (!zeros || !win) {
        snprintf(err, err_len, "out of host memory (ck form)");
        goto done;
    }
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned b = 0; b < set->jobs[j].inst.n_buffers; b++)
            if (set->jobs[j].inst.buffers[b].output &&
                ck_buffer_write(ctx, bufs[j][b], 0, zeros, set->jobs[j].inst.buffers[b].bytes) != CK_OK)
                CK_FAIL("ck_buffer_write (zero the outputs)");

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
        args[j][base_arg[j]] = ck_arg_int((int32_t)t);
        r->latency_s[slot] = now_s(); /* the spawn time, until it is done */
        ck_launch *l;
        if (ck_launch_kernel(ctx, set->jobs[j].bench->kernel, 1, args[j], set->jobs[j].inst.n_args, &l) != CK_OK)
            CK_FAIL("ck_launch_kernel");
        win[n_win++] = (inflight){l, slot};
    }
    r->total_s = t_end - t0;
    for (unsigned j = 0; j < set->n_jobs; j++)
        for (unsigned b = 0; b < set->jobs[j].inst.n_buffers; b++)
            if (r->out[j][b] && ck_buffer_read(ctx, bufs[j][b], 0, r->out[j][b], set->jobs[j].inst.buffers[b].bytes) !=
                                    CK_OK)
                CK_FAIL("ck_buffer_read");
    snprintf(r->note, sizeof r->note, "window %u, %u workers", W, ck_context_workers(ctx));
    rc = 0;
done:
    for (unsigned i = 0; i < n_win; i++) {
        ck_wait(win[i].l, 0);
        ck_launch_release(win[i].l);
    }
    free(win);
    free(zeros);
    if (ctx && ck_context_destroy(ctx) != CK_OK && rc == 0) {
        snprintf(err, err_len, "ck_context_destroy: %s", ck_last_error());
        rc = -1;
    }
    return rc;
}
