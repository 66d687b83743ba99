/* runtime/launch_scheduler.h: the launches sent to the scheduler through
 * the channel (launch_scheduler.c), one of the two kinds behind a launch
 * handle: every cooperative launch, and the ordinary ones of a context
 * without tasks or with launch_path CK_LAUNCH_PATH_SCHEDULER. */
#ifndef CK_RUNTIME_LAUNCH_SCHEDULER_H
#define CK_RUNTIME_LAUNCH_SCHEDULER_H

#include "context_state.h"

/* Sends kernel k's launch message with its packed argument words.
 * Errors: those of ck_launch_new; CK_ERR_OPENCL (the megakernel is no
 * longer running); the channel's (ck_channel_send), the message naming the
 * kernel. */
ck_status ck_launch_scheduler_start(ck_context *ctx, int k, unsigned groups, const uint64_t *words, ck_launch **out);
/* The progress thread, with ctx->lock held: one message from the
 * scheduler (begin, started, done, bye). */
void ck_launch_handle_message(ck_context *ctx, const uint32_t *msg, double now);
/* At context destruction, after the megakernel stopped, with the
 * registry's lock held: every launch in flight forgets the context, and
 * those the user released go on the *retire list (linked by next) for the
 * caller to retire after the lock. */
void ck_launch_scheduler_detach(ck_context *ctx, ck_launch **retire);

#endif
