/* runtime/launch_table.c: launches through the task table
 * (ck_context_options.launch_path; launch_table.h): an ordinary launch in a
 * context with tasks becomes one ticket of the table, which the device runs
 * as it runs ck_task_spawn's, so no message goes to the scheduler and no
 * DONE comes back; the launch is done when its ticket is. Its statistics
 * stay in its table entry until they are asked for or the entry is reused
 * (task_table.h). */
#include "launch_table.h"
#include "clock.h"
#include "context_handle.h"
#include "error.h"
#include "task_table.h"

#include <stdio.h>
#include <string.h>

static const ck_launch_ops table_ops;

/* The context's list of launches through the task table (under its lock). */
static void table_unlink(ck_context *ctx, ck_launch *l)
{
    if (l->tprev)
        l->tprev->tnext = l->tnext;
    else if (ctx->table_launches == l)
        ctx->table_launches = l->tnext;
    if (l->tnext)
        l->tnext->tprev = l->tprev;
    l->tprev = l->tnext = NULL;
}

ck_status ck_launch_table_start(ck_context *ctx, int k, unsigned groups, const uint64_t *words, ck_launch **out)
{
    const ck_stitch_kernel *K = &ctx->stitch.kernels[k];
    ck_launch *l;
    ck_status s = ck_launch_new(ctx, &table_ops, k, groups, &l);
    if (s != CK_OK)
        return s;
    l->done_slot = CK_CH_NO_DONE_SLOT;
    pthread_mutex_lock(&ctx->lock);
    l->id = ctx->next_id++;
    l->tnext = ctx->table_launches;
    if (l->tnext)
        l->tnext->tprev = l;
    ctx->table_launches = l;
    pthread_mutex_unlock(&ctx->lock);
    l->t_sent = ck_now_s();
    s = ck_task_post(ctx, k, groups, words, (unsigned)K->arg_words, 0, l, &l->ticket);
    if (s != CK_OK) {
        pthread_mutex_lock(&ctx->lock);
        table_unlink(ctx, l);
        pthread_mutex_unlock(&ctx->lock);
        ck_launch_discard(l);
        return ck_fail(s, "launch of '%s' through the task table: %s", K->name, ck_last_error());
    }
    *out = l;
    return CK_OK;
}

/* A launch through the table that was seen done: its state says done, with
 * the host time it was seen. Its statistics stay in its table entry until
 * they are asked for or the entry is reused (ck_task_owner_copy_stats): copied
 * here, they put reads of device-written host memory between the device's
 * done and ck_wait's return. Lock-free: ck_launch_done calls it. */
static void table_settle(ck_launch *l)
{
    int expect = CK_LAUNCH_SENT;
    if (__atomic_compare_exchange_n(&l->state, &expect, CK_LAUNCH_SETTLING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        l->t_done = ck_now_s();
        __atomic_store_n(&l->state, CK_LAUNCH_DONE, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_SETTLING)
        ck_cpu_relax();
}

/* Done (and settled) if its ticket is; never blocks. */
static int table_finished(ck_launch *l)
{
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE)
        return 1;
    if (!l->ctx || !ck_task_ticket_done(l->ctx, l->ticket))
        return 0;
    table_settle(l);
    return 1;
}

void ck_launch_table_detach(ck_context *ctx, ck_launch **retire)
{
    for (ck_launch *l = ctx->table_launches, *n; l; l = n) {
        n = l->tnext;
        l->tprev = l->tnext = NULL;
        if (l->user_released) { /* released while the context was being destroyed */
            l->next = *retire;
            *retire = l;
            continue;
        }
        /* Settled, with the statistics, while the channel is still there. */
        if (table_finished(l))
            ck_task_owner_copy_stats(l);
        else
            ck_task_owner_disown(l);
        l->ctx = NULL;
    }
    ctx->table_launches = NULL;
}

static ck_status table_wait(ck_launch *l, ck_context *ctx, double timeout_s)
{
    if (table_finished(l))
        return CK_OK;
    char what[96];
    snprintf(what, sizeof what, "launch %u (task %llu)", l->id, (unsigned long long)l->ticket);
    ck_status s = ck_task_ticket_wait(ctx, l->ticket, ck_now_s() + timeout_s, timeout_s, "ck_wait", what);
    if (s == CK_OK)
        table_settle(l);
    return s;
}

static ck_status table_stats(const ck_launch *l, ck_context *ctx, ck_launch_stats *out)
{
    if (!ctx ? l->state != CK_LAUNCH_DONE : !table_finished((ck_launch *)l))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch %u has not finished: call ck_wait first", l->id);
    ck_task_owner_copy_stats((ck_launch *)l);
    /* A task's times: host ones around the spawn and the first notice of
     * done, the device's around its groups (none on a device without a
     * clock). A launch first seen done after its entry was reused has
     * no notice time in the entry: its total runs from the launch call
     * to the first ck_wait or ck_launch_done that saw it done. */
    memset(out, 0, sizeof *out);
    out->gather_ms = -1.0;
    int known = l->tstats_known;
    out->exec_ms = known ? l->tstats.exec_ms : -1.0;
    out->total_ms = known && l->tstats.total_ms > 0 ? l->tstats.total_ms : (l->t_done - l->t_sent) * 1e3;
    out->queue_ms = out->exec_ms < 0 ? -1.0 : out->total_ms > out->exec_ms ? out->total_ms - out->exec_ms : 0.0;
    out->groups = l->groups;
    out->initial_groups = l->groups;
    out->max_active = l->groups;
    return CK_OK;
}

/* Nothing will report on it: its memory can go now. */
static void table_release(ck_launch *l, ck_context *ctx)
{
    ck_task_owner_disown(l);
    pthread_mutex_lock(&ctx->lock);
    table_unlink(ctx, l);
    pthread_mutex_unlock(&ctx->lock);
    ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
}

static const ck_launch_ops table_ops = {
    .finished = table_finished,
    .wait = table_wait,
    .stats = table_stats,
    .release = table_release,
};
