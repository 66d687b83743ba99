/* runtime/launch_scheduler.c: launches sent to the scheduler
 * (launch_scheduler.h), one of the two kinds behind a launch handle: a
 * launch message through the channel, the scheduler's begin/start/done
 * messages turned into timestamps and statistics (progress thread), an
 * ordinary launch's completion word, and waits with deadlines that explain
 * what a late launch is waiting for. */
#include "launch_scheduler.h"
#include "chaos.h"
#include "clock.h"
#include "context_handle.h"
#include "device_state.h"
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ck_launch_ops scheduler_ops;

ck_status ck_launch_scheduler_start(ck_context *ctx, int k, unsigned groups, const uint64_t *words, ck_launch **out)
{
    const ck_stitch_kernel *K = &ctx->stitch.kernels[k];
    ck_launch *l;
    ck_status s = ck_launch_new(ctx, &scheduler_ops, k, groups, &l);
    if (s != CK_OK)
        return s;

    uint32_t msg[CK_CH_MSG_WORDS];
    unsigned nw = (unsigned)K->arg_words * 2;
    msg[0] = CK_MSG_HEADER(CK_MSG_LAUNCH, CK_LAUNCH_HEADER_WORDS + nw);
    msg[CK_LAUNCH_W_SIZE] = CK_LAUNCH_SIZE(groups, nw);
    memcpy(&msg[CK_LAUNCH_W_ARGS], words, nw * 4);

    pthread_mutex_lock(&ctx->send_lock);
    pthread_mutex_lock(&ctx->lock);
    if (ctx->megakernel_ended || ctx->bye) {
        pthread_mutex_unlock(&ctx->lock);
        pthread_mutex_unlock(&ctx->send_lock);
        ck_launch_discard(l);
        return ck_fail(CK_ERR_OPENCL, "the megakernel is no longer running (status %d); destroy the context",
                       (int)ctx->megakernel_status);
    }
    l->id = ctx->next_id++;
    msg[CK_LAUNCH_W_ID] = l->id;
    /* An ordinary launch gets a completion word if one is free (cooperative
     * ones report through DONE only: their device errors travel there). */
    l->done_slot = CK_CH_NO_DONE_SLOT;
    if (!l->coop && ctx->done_free_n)
        l->done_slot = ctx->done_free[--ctx->done_free_n];
    msg[CK_LAUNCH_W_KIND] = CK_LAUNCH_KIND(k, K->cooperative ? 1u : 0u,
                                           l->done_slot == CK_CH_NO_DONE_SLOT ? CK_LAUNCH_NO_DONE : l->done_slot);
    l->next = ctx->inflight;
    ctx->inflight = l;
    l->t_sent = ck_now_s();
    /* The scheduler starts cooperative launches one at a time in the
     * ring's order, so this count and its own agree. */
    if (l->coop)
        l->cx_key = ++ctx->coop_sent;
    pthread_mutex_unlock(&ctx->lock);
    s = ck_channel_send(ctx->ch, msg, CK_LAUNCH_HEADER_WORDS + nw, ctx->opts.timeout_s);
    if (s != CK_OK && l->coop)
        ctx->coop_sent--; /* never sent: under send_lock, no later one took a number */
    pthread_mutex_unlock(&ctx->send_lock);
    if (s != CK_OK) {
        pthread_mutex_lock(&ctx->lock);
        for (ck_launch **p = &ctx->inflight; *p; p = &(*p)->next)
            if (*p == l) {
                *p = l->next;
                break;
            }
        if (l->done_slot != CK_CH_NO_DONE_SLOT)
            ctx->done_free[ctx->done_free_n++] = l->done_slot; /* never sent: the device never writes it */
        pthread_mutex_unlock(&ctx->lock);
        ck_launch_discard(l);
        return ck_fail(s, "launch of '%s': %s", K->name, ck_last_error());
    }
    *out = l;
    return CK_OK;
}

static ck_launch *find(ck_context *ctx, uint32_t id)
{
    for (ck_launch *l = ctx->inflight; l; l = l->next)
        if (l->id == id)
            return l;
    return NULL;
}

static const char *kernel_name(ck_context *ctx, int index)
{
    return index >= 0 && (size_t)index < ctx->stitch.n_kernels ? ctx->stitch.kernels[index].name : "?";
}

void ck_launch_handle_message(ck_context *ctx, const uint32_t *m, double now)
{
    uint32_t type = CK_MSG_TYPE(m[0]);
    ck_launch *l;
    switch (type) {
    case CK_MSG_BEGIN:
        if ((l = find(ctx, m[CK_BEGIN_W_ID]))) {
            l->t_begin = now;
            __atomic_store_n(&l->state, CK_LAUNCH_BEGUN, __ATOMIC_RELEASE);
        }
        break;
    case CK_MSG_STARTED:
        if ((l = find(ctx, m[CK_STARTED_W_ID]))) {
            l->t_started = now;
            l->initial = m[CK_STARTED_W_GROUPS];
            if (l->coop)
                ck_trace_coop_started(&ctx->trace, now, m[CK_STARTED_W_GROUPS]);
            __atomic_store_n(&l->state, CK_LAUNCH_STARTED, __ATOMIC_RELEASE);
        }
        break;
    case CK_MSG_DONE:
        if ((l = find(ctx, m[CK_DONE_W_ID]))) {
            l->t_done = now;
            l->device_error = m[CK_DONE_W_ERROR];
            l->kills = m[CK_DONE_W_KILLS];
            l->forked = m[CK_DONE_W_FORKED];
            l->resizes = m[CK_DONE_W_RESIZES];
            l->max_m = m[CK_DONE_W_MAX_M];
            if (l->coop) {
                l->initial = m[CK_DONE_W_INITIAL];
                ck_trace_coop_done(&ctx->trace, now);
                ck_chaos_launch_done(ctx, l); /* before ck_wait can see it done */
            }
            /* Done first, then the completion word goes back to the free
             * stack: a lock-free reader that finds the word gone then finds
             * the state done (finished()). */
            __atomic_store_n(&l->state, CK_LAUNCH_DONE, __ATOMIC_RELEASE);
            if (l->done_slot != CK_CH_NO_DONE_SLOT) {
                /* The device wrote the word before this message: free again. */
                ctx->done_free[ctx->done_free_n++] = l->done_slot;
                __atomic_store_n(&l->done_slot, CK_CH_NO_DONE_SLOT, __ATOMIC_RELEASE);
            }
            for (ck_launch **p = &ctx->inflight; *p; p = &(*p)->next)
                if (*p == l) {
                    *p = l->next;
                    break;
                }
            l->next = NULL;
            if (l->user_released)
                ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
        }
        break;
    case CK_MSG_BYE: ctx->bye = 1; break;
    default: break;
    }
}

/* Whether an ordinary launch's completion word says it finished (before
 * its DONE message may have arrived). The slot is read once: the progress
 * thread frees it when DONE arrives, after setting the state to done, so a
 * reader that finds the slot gone finds the state done (finished()). */
static int done_word_set(const ck_launch *l)
{
    uint32_t slot = __atomic_load_n(&l->done_slot, __ATOMIC_ACQUIRE);
    return slot < CK_CH_DONE_SLOTS && ck_channel_load(l->ctx->ch, CK_CH_DONE + slot) == l->id;
}

/* Done by its DONE message or by its completion word. The state is read
 * again after the word: DONE may have arrived in between, taking the word
 * away (a reader that checked only state-then-word could see neither). */
static int finished(ck_launch *l)
{
    return __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE || done_word_set(l) ||
           __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE;
}

static ck_status scheduler_wait(ck_launch *l, ck_context *ctx, double timeout_s)
{
    double deadline = ck_now_s() + timeout_s;
    /* Fast path: an ordinary launch's last group writes its completion word
     * in host memory, and a cooperative launch's DONE reaches us about one
     * channel round trip after the device sends it, so spin for a while
     * before sleeping on the condition variable (a wake-up costs tens of
     * microseconds). Not on CPU devices, whose work-groups need the host's
     * cores. An ordinary launch has no device error to report: done is OK. */
    if (!ctx->dev->info.is_cpu) {
        double spin_until = ck_now_s() + CK_WAIT_SPIN_S;
        while (!finished(l) && ck_now_s() < spin_until && !ck_context_megakernel_ended(ctx))
            ck_cpu_relax();
    }
    if (!l->coop && done_word_set(l))
        return CK_OK;
    struct timespec ts;
    ck_deadline_timespec(timeout_s, &ts);
    int wait_err = 0;
    pthread_mutex_lock(&ctx->lock);
    while (l->state != CK_LAUNCH_DONE && !ctx->megakernel_ended && !ctx->check_failed &&
           !(!l->coop && done_word_set(l))) {
        int rc = pthread_cond_timedwait(&ctx->cond, &ctx->lock, &ts);
        if (rc == ETIMEDOUT && ck_now_s() >= deadline)
            break;
        if (rc != 0 && rc != ETIMEDOUT) {
            /* EINVAL (a bad deadline) would come back at once forever: an
             * error, never a reason to keep waiting with the lock held. */
            wait_err = rc;
            break;
        }
    }
    /* Read under the lock, where the progress thread cannot move a DONE
     * in between: the loop may have ended on the completion word, and a
     * DONE handled after the unlock takes the word away (reading it again
     * there turned a finished launch into a timeout: the stress hang in
     * docs/RESULTS.md, "Dispatch speed", 2026-11-24). */
    int by_word = !l->coop && done_word_set(l);
    int state = l->state;
    int ended = ctx->megakernel_ended;
    int check_failed = ctx->check_failed;
    const char *kn = kernel_name(ctx, l->kernel_index);
    uint32_t dev_err = l->device_error;
    uint32_t id = l->id;
    pthread_mutex_unlock(&ctx->lock);
    if (wait_err && state != CK_LAUNCH_DONE && !ended)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "ck_wait: waiting for launch %u of '%s' failed: "
                       "pthread_cond_timedwait: %s (timeout %g s); the launch stays pending",
                       id, kn, strerror(wait_err), timeout_s);
    if (state != CK_LAUNCH_DONE && by_word)
        return CK_OK;
    if (state == CK_LAUNCH_DONE) {
        if (dev_err == CK_DEV_ERR_TX_TOO_BIG)
            return ck_fail(CK_ERR_INVALID_ARGUMENT,
                           "launch %u of '%s': its transmit variables exceed %u bytes, so "
                           "no group was forked",
                           id, kn, CK_TX_WORDS * 4);
        return CK_OK;
    }
    if (check_failed)
        return ck_context_check_report(ctx);
    if (ended)
        return ck_context_ended_error(ctx, "launch %u of '%s' cannot finish", id, kn);
    /* What the device's memory says, not what the host heard last: the
     * host's view lags the scheduler's messages. */
    char why[768];
    ck_device_view v;
    if (ck_device_view_read(ctx, &v) == CK_OK) {
        ck_describe_launch(ctx, &v, id, why, sizeof why);
        ck_device_view_free(&v);
    } else {
        snprintf(why, sizeof why, "the scheduler state could not be read (%s)", ck_last_error());
    }
    char *state_text = ck_describe_state(ctx);
    ck_status s = ck_fail(CK_ERR_TIMEOUT, "launch %u of '%s' (%u groups) did not finish within %.1f s: %s.\n%s", id,
                          kn, l->groups, timeout_s, why, state_text);
    free(state_text);
    return s;
}

static ck_status scheduler_stats(const ck_launch *l, ck_context *ctx, ck_launch_stats *out)
{
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) != CK_LAUNCH_DONE && ctx && done_word_set(l)) {
        /* Finished on the device (its completion word), and its DONE with
         * the timestamps is one scheduler pass behind: wait for it. */
        struct timespec ts;
        ck_deadline_timespec(ctx->opts.timeout_s, &ts);
        pthread_mutex_lock(&ctx->lock);
        while (l->state != CK_LAUNCH_DONE && !ctx->megakernel_ended)
            if (pthread_cond_timedwait(&ctx->cond, &ctx->lock, &ts) != 0)
                break;
        pthread_mutex_unlock(&ctx->lock);
    }
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) != CK_LAUNCH_DONE)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch %u has not finished: call ck_wait first", l->id);
    memset(out, 0, sizeof *out);
    out->queue_ms = (l->t_begin - l->t_sent) * 1e3;
    out->gather_ms = (l->t_started - l->t_begin) * 1e3;
    out->exec_ms = (l->t_done - l->t_started) * 1e3;
    out->total_ms = (l->t_done - l->t_sent) * 1e3;
    out->groups = l->groups;
    out->initial_groups = l->initial;
    out->max_active = l->coop ? l->max_m : l->initial;
    out->kills = l->kills;
    out->forked = l->forked;
    out->resizes = l->resizes;
    out->replay_divergences = l->divergences;
    return CK_OK;
}

/* Its memory goes once the scheduler has reported the launch done (now, or
 * when its DONE arrives: ck_launch_handle_message). */
static void scheduler_release(ck_launch *l, ck_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    int done = l->state == CK_LAUNCH_DONE;
    l->user_released = 1;
    pthread_mutex_unlock(&ctx->lock);
    if (done)
        ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
}

void ck_launch_scheduler_detach(ck_context *ctx, ck_launch **retire)
{
    for (ck_launch *l = ctx->inflight, *n; l; l = n) {
        n = l->next;
        if (l->user_released) {
            l->next = *retire;
            *retire = l;
        } else {
            l->ctx = NULL;
        }
    }
    ctx->inflight = NULL;
}

static const ck_launch_ops scheduler_ops = {
    .finished = finished,
    .wait = scheduler_wait,
    .stats = scheduler_stats,
    .release = scheduler_release,
};
