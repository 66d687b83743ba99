/* runtime/context_handle.h: a public call's hold on a context or a launch
 * handle (checking the handle, pinning its context for the call so that
 * ck_context_destroy waits for it), making a launch handle, and the errors
 * every wait reports once the megakernel ended or the checking build found
 * a violation. Everything above the context's state uses these. */
#ifndef CK_RUNTIME_CONTEXT_HANDLE_H
#define CK_RUNTIME_CONTEXT_HANDLE_H

#include "context_state.h"

/* CK_OK if ctx is a live context handle (registry, then magic word);
 * otherwise CK_ERR_INVALID_ARGUMENT naming fn. Never reads freed memory. */
ck_status ck_context_check(const ck_context *ctx, const char *fn);
/* A public function's hold on its context for the length of the call.
 * ck_context_enter: CK_OK with the context pinned if ctx is a live context
 * (ck_context_destroy, in any thread, waits until every pinned call has
 * left before it frees anything, and wakes those that wait), else
 * CK_ERR_INVALID_ARGUMENT naming fn. ck_launch_enter: checks the launch
 * handle (*s: CK_OK, or its error) and pins the launch's context, which it
 * returns; NULL when the handle is bad or its context is gone or being
 * destroyed. Every pin is released with ck_context_leave. */
ck_status ck_context_enter(ck_context *ctx, const char *fn);
ck_context *ck_launch_enter(const ck_launch *l, const char *fn, ck_status *s);
void ck_context_leave(ck_context *ctx);

/* A new launch handle of kernel k of ctx, of kind ops, registered, its
 * kernel and groups set (the rest zero). Errors: CK_ERR_NO_MEMORY, and the
 * registry's (handle.h). ck_launch_discard: undoes it for a launch that was
 * never sent or posted (nothing refers to it). */
ck_status ck_launch_new(ck_context *ctx, const ck_launch_ops *ops, int k, unsigned groups, ck_launch **out);
void ck_launch_discard(ck_launch *l);

/* The error of a wait whose launch or task cannot finish because the
 * megakernel ended, with why it ended (aborted by the host, and why; or the
 * OpenCL status it ended with). fmt names what cannot finish. */
ck_status ck_context_ended_error(ck_context *ctx, const char *fmt, ...);
/* CK_ERR_CHECK_FAILED with the checking build's report if the device
 * reported a violation, else CK_OK. */
ck_status ck_context_check_report(ck_context *ctx);
/* 1 once the megakernel has ended (read without the lock). */
int ck_context_megakernel_ended(const ck_context *ctx);

#endif
