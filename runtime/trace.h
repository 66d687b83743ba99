/* runtime/trace.h: the active-group trace of a context (ck_context_take_trace):
 * while tracing is on (ck_context_options.trace_active_groups), the progress
 * thread samples the word in which the device mirrors the cooperative
 * launch's M (CK_CH_COOP_M) at every poll and keeps (host time, M) at every
 * change, in a bounded buffer. */
#ifndef CK_RUNTIME_TRACE_H
#define CK_RUNTIME_TRACE_H

#include "channel.h"
#include "ck.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int on;
    pthread_mutex_t lock; /* the fields below                          */
    ck_trace_sample *buf; /* CK_TRACE_CAPACITY entries when on         */
    size_t n, dropped;
    int live;      /* a cooperative launch is running (progress thread only) */
    uint32_t last; /* last M recorded (progress thread only)     */
} ck_trace_state;

/* Prepares the state; allocates the buffer when `on`. CK_ERR_NO_MEMORY. */
ck_status ck_trace_init(ck_trace_state *t, int on);
void ck_trace_free(ck_trace_state *t);
/* Progress thread: a cooperative launch started with m groups / finished. */
void ck_trace_coop_started(ck_trace_state *t, double now, uint32_t m);
void ck_trace_coop_done(ck_trace_state *t, double now);
/* Progress thread, every poll: records the mirrored M (channel word
 * CK_CH_COOP_M of ch; NULL: no channel yet) if it changed. */
void ck_trace_poll(ck_trace_state *t, const ck_channel *ch, double now);
/* Moves up to cap samples, oldest first, into out (*n_out: how many);
 * those that do not fit stay. *dropped (if not NULL): the samples lost to
 * a full buffer since the last take. The trace must be on. */
void ck_trace_take(ck_trace_state *t, ck_trace_sample *out, size_t cap, size_t *n_out, size_t *dropped);

#endif
