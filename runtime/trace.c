/* runtime/trace.c: the active-group trace (trace.h), which the public
 * ck_context_take_trace (context.c) reads out. The device writes the cooperative launch's M into
 * the channel word CK_CH_COOP_M whenever the scheduler or a primitive changes
 * it; this file only reads that word, so the trace's resolution is the
 * progress thread's poll interval (a few microseconds while launches are
 * about, up to 20 us on GPUs and 50 us on CPUs when idle), and changes that
 * come and go between two polls are not seen. */
#include "trace.h"
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
        return ck_fail(CK_ERR_NO_MEMORY, "no host memory for the active-group trace (%u samples)",
                       CK_TRACE_CAPACITY);
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

void ck_trace_poll(ck_trace_state *t, const ck_channel *ch, double now)
{
    if (!t->on || !t->live || !ch)
        return;
    uint32_t m = ck_channel_load(ch, CK_CH_COOP_M);
    if (m != t->last && m != 0)
        record(t, now, m);
}

void ck_trace_take(ck_trace_state *t, ck_trace_sample *out, size_t cap, size_t *n_out, size_t *dropped)
{
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
    *n_out = n;
}
