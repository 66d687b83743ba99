/* runtime/context_handle.c: checking and pinning context and launch handles
 * for a public call, making launch handles, and the errors of waits that
 * cannot finish (context_handle.h). */
#include "context_handle.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

ck_status ck_context_check(const ck_context *ctx, const char *fn)
{
    ck_status s = ck_handle_check(ctx, CK_HANDLE_CONTEXT, fn);
    if (s == CK_OK && ctx->magic != CK_MAGIC_CONTEXT)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: context handle %p is corrupted (bad magic word)", fn,
                       (const void *)ctx);
    return s;
}

ck_status ck_context_enter(ck_context *ctx, const char *fn)
{
    if (!ctx)
        return ck_handle_check(ctx, CK_HANDLE_CONTEXT, fn);
    ck_handle_lock();
    int live = ck_handle_is_live_locked(ctx, CK_HANDLE_CONTEXT) && ctx->magic == CK_MAGIC_CONTEXT;
    if (live)
        atomic_fetch_add(&ctx->calls, 1u);
    ck_handle_unlock();
    return live ? CK_OK : ck_context_check(ctx, fn);
}

ck_context *ck_launch_enter(const ck_launch *l, const char *fn, ck_status *s)
{
    *s = CK_OK;
    if (!l) {
        *s = ck_handle_check(l, CK_HANDLE_LAUNCH, fn);
        return NULL;
    }
    ck_context *ctx = NULL;
    ck_handle_lock();
    int live = ck_handle_is_live_locked(l, CK_HANDLE_LAUNCH);
    if (live && l->magic == CK_MAGIC_LAUNCH) {
        /* l->ctx is read under the registry's lock: destroy clears it there
         * before the context's memory can go (it unregisters the context
         * first and waits for the pins). */
        ctx = l->ctx;
        if (ctx && ck_handle_is_live_locked(ctx, CK_HANDLE_CONTEXT) && ctx->magic == CK_MAGIC_CONTEXT)
            atomic_fetch_add(&ctx->calls, 1u);
        else
            ctx = NULL;
    }
    ck_handle_unlock();
    if (!live)
        *s = ck_handle_check(l, CK_HANDLE_LAUNCH, fn);
    else if (l->magic != CK_MAGIC_LAUNCH)
        *s = ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: launch handle %p is corrupted (bad magic word)", fn,
                     (const void *)l);
    return ctx;
}

void ck_context_leave(ck_context *ctx)
{
    if (ctx)
        atomic_fetch_sub(&ctx->calls, 1u);
}

ck_status ck_launch_new(ck_context *ctx, const ck_launch_ops *ops, int k, unsigned groups, ck_launch **out)
{
    ck_launch *l = calloc(1, sizeof *l);
    if (!l)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for a launch");
    l->magic = CK_MAGIC_LAUNCH;
    ck_status s = ck_handle_register(l, CK_HANDLE_LAUNCH);
    if (s != CK_OK) {
        free(l);
        return s;
    }
    l->ctx = ctx;
    l->ops = ops;
    l->kernel_index = k;
    l->coop = ctx->stitch.kernels[k].cooperative;
    l->groups = groups;
    *out = l;
    return CK_OK;
}

void ck_launch_discard(ck_launch *l)
{
    ck_handle_unregister(l, CK_HANDLE_LAUNCH);
    free(l);
}

ck_status ck_context_ended_error(ck_context *ctx, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&ctx->lock);
    int aborted = ctx->aborted;
    char reason[sizeof ctx->abort_reason];
    snprintf(reason, sizeof reason, "%s", ctx->abort_reason);
    cl_int st = ctx->megakernel_status;
    pthread_mutex_unlock(&ctx->lock);
    if (aborted)
        return ck_fail(CK_ERR_TIMEOUT, "%s: the megakernel was aborted before it ran to the end (%s)", what, reason);
    if (st < 0)
        return ck_fail(CK_ERR_OPENCL, "%s: the megakernel ended with an error (%s)", what, ck_cl_error_name(st));
    return ck_fail(CK_ERR_OPENCL, "%s: the megakernel has stopped (the context is being destroyed)", what);
}

ck_status ck_context_check_report(ck_context *ctx)
{
    if (!__atomic_load_n(&ctx->check_failed, __ATOMIC_ACQUIRE))
        return CK_OK;
    return ck_fail(CK_ERR_CHECK_FAILED, "accounting check failed: %s", ctx->check_text ? ctx->check_text : "?");
}

int ck_context_megakernel_ended(const ck_context *ctx)
{
    return __atomic_load_n(&ctx->megakernel_ended, __ATOMIC_ACQUIRE) != 0;
}
