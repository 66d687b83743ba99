/* runtime/trace.c: the active-group trace (trace.h) and its public reader,
 * ck_context_take_trace. The device writes the cooperative launch's M into
 * the channel word CK_CH_COOP_M whenever the scheduler or a primitive changes
 * it; this file only reads that word, so the trace's resolution is the
 * progress thread's poll interval (a few microseconds while launches are
 * about, up to 20 us on GPUs and 50 us on CPUs when idle), and changes that
 * come and go between two polls are not seen. */
#include "trace.h"
#include "channel.h"
#include "context_internal.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

ck_status ck_trace_init(ck_trace_state *t, int on)
{
    memset(t, 0, sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    if (!on)
        return CK_OK;
    t->buf = malloc(CK_TRACE_CAPACITY * sizeof *t->buf);
    if (!t->buf) {
        pthread_mutex_destroy(&t->lock);
        return ck_fail(CK_ERR_NO_MEMORY, "no host memory for the active-group trace (%u samples)", CK_TRACE_CAPACITY);
    }
    t->on = 1;
    return CK_OK;
}

void ck_trace_free(ck_trace_state *t)
{
    free(t->buf);
    t->buf = NULL;
    t->on = 0;
    pthread_mutex_destroy(&t->lock);
}

static void record(ck_trace_state *t, double now, uint32_t m)
{
    pthread_mutex_lock(&t->lock);
    if (t->n < CK_TRACE_CAPACITY)
        t->buf[t->n++] = (ck_trace_sample){.t_s = now, .active = m};
    else
        t->dropped++;
    pthread_mutex_unlock(&t->lock);
    t->last = m;
}

void ck_trace_coop_started(ck_trace_state *t, double now, uint32_t m)
{
    if (!t->on)
        return;
    t->live = 1;
    record(t, now, m);
}

void ck_trace_coop_done(ck_trace_state *t, double now)
{
    if (!t->on)
        return;
    t->live = 0;
    record(t, now, 0);
}

void ck_trace_poll(struct ck_context *ctx, double now)
{
    ck_trace_state *t = &ctx->trace;
    if (!t->on || !t->live || !ctx->ch)
        return;
    uint32_t m = ck_channel_load(ctx->ch, CK_CH_COOP_M);
    if (m != t->last && m != 0)
        record(t, now, m);
}

ck_status ck_context_take_trace(ck_context *ctx, ck_trace_sample *out, size_t cap, size_t *n_out, size_t *dropped)
{
    if (!n_out || (cap > 0 && !out))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_take_trace: %s is NULL", n_out ? "out" : "n_out");
    ck_status s = ck_context_enter(ctx, "ck_context_take_trace");
    if (s != CK_OK)
        return s;
    if (!ctx->trace.on) {
        ck_context_leave(ctx);
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_take_trace: tracing is off for this context (set "
                       "ck_context_options.trace_active_groups)");
    }
    ck_trace_state *t = &ctx->trace;
    pthread_mutex_lock(&t->lock);
    size_t n = t->n < cap ? t->n : cap;
    if (n)
        memcpy(out, t->buf, n * sizeof *out);
    /* What did not fit in out stays for the next call. */
    memmove(t->buf, t->buf + n, (t->n - n) * sizeof *t->buf);
    t->n -= n;
    if (dropped)
        *dropped = t->dropped;
    t->dropped = 0;
    pthread_mutex_unlock(&t->lock);
    ck_context_leave(ctx);
    *n_out = n;
    return CK_OK;
}
