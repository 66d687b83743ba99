/* runtime/launch.c: the public launch calls (ck_launch_kernel, ck_wait,
 * ck_launch_done, ck_launch_get_stats, ck_launch_release). It checks the
 * handle and the arguments, pins the launch's context, and hands the rest
 * to the launch's kind (ck_launch_ops): sent to the scheduler
 * (launch_scheduler.c) or through the task table (launch_table.c). */
#include "clock.h"
#include "context_handle.h"
#include "error.h"
#include "kernel_args.h"
#include "launch_scheduler.h"
#include "launch_table.h"

#include <string.h>

static ck_status launch_pinned(ck_context *ctx, const char *name, unsigned groups, const ck_arg *args, size_t n_args,
                               ck_launch **out);

ck_status ck_launch_kernel(ck_context *ctx, const char *name, unsigned groups, const ck_arg *args, size_t n_args,
                           ck_launch **out)
{
    if (!name || !out || (n_args && !args))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_launch_kernel: name, args and out must not be NULL");
    *out = NULL;
    ck_status s = ck_context_enter(ctx, "ck_launch_kernel");
    if (s != CK_OK)
        return s;
    s = launch_pinned(ctx, name, groups, args, n_args, out);
    ck_context_leave(ctx);
    return s;
}

static ck_status launch_pinned(ck_context *ctx, const char *name, unsigned groups, const ck_arg *args, size_t n_args,
                               ck_launch **out)
{
    if (__atomic_load_n(&ctx->closing, __ATOMIC_ACQUIRE))
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "launch of '%s': the context is being destroyed (ck_context_destroy "
                       "in another thread)",
                       name);
    ck_status bad = ck_context_check_report(ctx);
    if (bad != CK_OK)
        return bad;
    if (!ctx->built)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch of '%s' before ck_context_build", name);
    int k = ck_stitch_find_kernel(&ctx->stitch, name);
    if (k < 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "no kernel named '%s' in the context's sources", name);
    if (k > (int)CK_LAUNCH_KERNEL(~0u))
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "kernel '%s' is kernel %d of the context; a launch can name only the "
                       "first %u",
                       name, k, CK_LAUNCH_KERNEL(~0u) + 1u);
    if (groups == 0 || groups > CK_MAX_GROUPS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "kernel '%s': group count %u is not in 1..%u", name, groups,
                       CK_MAX_GROUPS);
    const ck_stitch_kernel *K = &ctx->stitch.kernels[k];
    if (K->cooperative && groups > ctx->workers)
        groups = ctx->workers; /* N is at most what can be co-resident */
    uint64_t words[CK_MAX_ARG_WORDS];
    ck_status s = ck_pack_args(ctx, K, args, n_args, words);
    if (s != CK_OK)
        return s;
    if (!K->cooperative && ctx->opts.tasks && ctx->opts.launch_path == CK_LAUNCH_PATH_AUTO &&
        (unsigned)k < CK_TASK_MAX_KERNELS)
        return ck_launch_table_start(ctx, k, groups, words, out);
    return ck_launch_scheduler_start(ctx, k, groups, words, out);
}

int ck_launch_done(const ck_launch *l)
{
    if (!l)
        return 0;
    ck_status bad;
    ck_context *ctx = ck_launch_enter(l, "ck_launch_done", &bad);
    if (bad != CK_OK)
        return 1;
    int done = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE || !ctx ||
               l->ops->finished((ck_launch *)l) || ck_context_megakernel_ended(ctx);
    ck_context_leave(ctx);
    return done;
}

static ck_status wait_pinned(ck_launch *l, ck_context *ctx, double timeout_s);

ck_status ck_wait(ck_launch *l, double timeout_s)
{
    ck_status bad;
    ck_context *ctx = ck_launch_enter(l, "ck_wait", &bad);
    if (bad == CK_OK)
        bad = ck_timeout_check(timeout_s, "ck_wait");
    if (bad != CK_OK) {
        ck_context_leave(ctx);
        return bad;
    }
    if (!ctx)
        return l->state == CK_LAUNCH_DONE ? CK_OK
                                          : ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_wait: the launch's context was "
                                                                             "destroyed before the launch finished");
    ck_status s = wait_pinned(l, ctx, timeout_s);
    ck_context_leave(ctx);
    return s;
}

static ck_status wait_pinned(ck_launch *l, ck_context *ctx, double timeout_s)
{
    ck_status bad = ck_context_check_report(ctx);
    if (bad != CK_OK)
        return bad;
    if (timeout_s == 0)
        timeout_s = ctx->opts.timeout_s;
    return l->ops->wait(l, ctx, timeout_s);
}

ck_status ck_launch_get_stats(const ck_launch *l, ck_launch_stats *out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_launch_get_stats: out must not be NULL");
    ck_status bad;
    ck_context *ctx = ck_launch_enter(l, "ck_launch_get_stats", &bad);
    if (bad != CK_OK)
        return bad;
    /* ctx: the launch's context, pinned, or NULL once it is gone. */
    ck_status s = l->ops->stats(l, ctx, out);
    ck_context_leave(ctx);
    return s;
}

/* The handle dies here (unregistered); its memory lives on while the
 * scheduler may still report on the launch, and then goes to the quarantine
 * (handle.h) rather than straight back to malloc. */
ck_status ck_launch_release(ck_launch *l)
{
    if (!l)
        return CK_OK;
    /* Under the registry's lock: the handle goes, and its context is pinned
     * if it is live. One that is being destroyed has not yet looked at its
     * launches (it does so under this lock after its pins are gone): the
     * mark tells it to retire this one. */
    ck_handle_lock();
    int live = ck_handle_is_live_locked(l, CK_HANDLE_LAUNCH) && l->magic == CK_MAGIC_LAUNCH;
    ck_context *ctx = live ? l->ctx : NULL;
    if (live) {
        ck_handle_unregister_locked(l, CK_HANDLE_LAUNCH);
        if (ctx && ck_handle_is_live_locked(ctx, CK_HANDLE_CONTEXT) && ctx->magic == CK_MAGIC_CONTEXT) {
            atomic_fetch_add(&ctx->calls, 1u);
        } else if (ctx) {
            l->user_released = 1;
            ck_handle_unlock();
            return CK_OK;
        }
    }
    ck_handle_unlock();
    if (!live) {
        ck_status s = ck_handle_check(l, CK_HANDLE_LAUNCH, "ck_launch_release");
        if (s == CK_OK) /* registered, so the magic word was bad */
            s = ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_launch_release: launch handle %p is corrupted (bad magic word)",
                        (void *)l);
        return s;
    }
    if (!ctx) {
        ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
        return CK_OK;
    }
    l->ops->release(l, ctx);
    ck_context_leave(ctx);
    return CK_OK;
}
