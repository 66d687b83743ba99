/* runtime/progress.c: a context's progress thread (progress.h): it takes
 * the scheduler's messages from the channel and hands them to the launches
 * (ck_launch_handle_message), samples the active-group trace, and every
 * 10 ms looks at the megakernel's event (has it ended?) and, in the
 * checking build, at the accounting rules. */
#include "progress.h"
#include "clock.h"
#include "device_state.h"
#include "error.h"
#include "launch_scheduler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The checking build (progress thread, every 10 ms): the first violation,
 * as the device reported it (rules checked at a transition) or as the
 * host's watch sees it over time (rules 8 and 9, kept in *watch), becomes
 * the context's check failure, once. */
static void poll_check(ck_context *ctx, ck_check_watch *watch)
{
    if (ctx->check_failed)
        return;
    ck_device_view v;
    if (ck_device_view_read(ctx, &v) != CK_OK)
        return;
    char rule[512];
    ck_describe_check(&v, rule, sizeof rule);
    if (!rule[0]) {
        pthread_mutex_lock(&ctx->lock);
        int host_idle = ctx->inflight == NULL && atomic_load(&ctx->task_posted) == v.task_visible;
        pthread_mutex_unlock(&ctx->lock);
        ck_check_watch_look(watch, &v, ctx->opts.tasks != 0, host_idle, ck_now_s(), rule, sizeof rule);
    }
    ck_device_view_free(&v);
    if (!rule[0])
        return;
    char *state = ck_describe_state(ctx);
    size_t n = strlen(rule) + strlen(state) + 8;
    char *text = malloc(n);
    if (text)
        snprintf(text, n, "%s\n%s", rule, state);
    free(state);
    fprintf(stderr, "ck: accounting check failed: %s\n", text ? text : rule);
    pthread_mutex_lock(&ctx->lock);
    ctx->check_text = text;
    __atomic_store_n(&ctx->check_failed, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&ctx->cond);
    pthread_mutex_unlock(&ctx->lock);
}

/* Takes the scheduler's messages. On GPU devices it polls without napping
 * until CK_PROGRESS_AWAKE_S after the last message it took, so a completion
 * reaches ck_wait in about one channel round trip; idle, it naps 20 us
 * between polls (a launch does not wake it: the first message after an
 * idle spell may wait out one nap). On CPU devices the device's
 * work-groups need the cores: it naps 50 us after 256 empty polls. */
static void *progress_main(void *arg)
{
    ck_context *ctx = arg;
    uint32_t msg[CK_CH_MSG_WORDS];
    unsigned idle = 0;
    int gpu = !ctx->dev->info.is_cpu;
    double next_check = 0, last_activity = ck_now_s();
    ck_check_watch watch;
    memset(&watch, 0, sizeof watch);
    for (;;) {
        if (ck_channel_try_recv(ctx->ch, msg)) {
            double now = ck_now_s();
            pthread_mutex_lock(&ctx->lock);
            ck_launch_handle_message(ctx, msg, now);
            pthread_cond_broadcast(&ctx->cond);
            pthread_mutex_unlock(&ctx->lock);
            idle = 0;
            last_activity = now;
            continue;
        }
        double now = ck_now_s();
        if (ctx->trace.on)
            ck_trace_poll(&ctx->trace, ctx->ch, now);
        if (gpu) {
            if (now - last_activity > CK_PROGRESS_AWAKE_S)
                ck_sleep_us(20);
            else
                ck_cpu_relax();
        } else if (++idle > 256) {
            ck_sleep_us(50);
        }
        if (now >= next_check) {
            next_check = now + 0.01;
            if (ctx->opts.accounting_checks)
                poll_check(ctx, &watch);
            cl_int st = CL_QUEUED;
            clGetEventInfo(ctx->mk_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
            pthread_mutex_lock(&ctx->lock);
            int stop = ctx->stop_progress;
            if (st == CL_COMPLETE || st < 0) {
                ctx->megakernel_status = st;
                __atomic_store_n(&ctx->megakernel_ended, 1, __ATOMIC_RELEASE);
                pthread_cond_broadcast(&ctx->cond);
            }
            pthread_mutex_unlock(&ctx->lock);
            if (stop)
                break;
        }
    }
    return NULL;
}

ck_status ck_progress_start(ck_context *ctx)
{
    if (pthread_create(&ctx->progress, NULL, progress_main, ctx) != 0)
        return ck_fail(CK_ERR_NO_MEMORY, "cannot start the runtime's progress thread");
    ctx->progress_started = 1;
    return CK_OK;
}

void ck_progress_stop(ck_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->stop_progress = 1;
    pthread_mutex_unlock(&ctx->lock);
    pthread_join(ctx->progress, NULL);
}
