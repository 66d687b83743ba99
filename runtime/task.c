/* runtime/task.c: narrow tasks, the public calls (ck_kernel_find,
 * ck_task_spawn, ck_task_check, ck_task_wait, ck_task_wait_all,
 * ck_task_get_stats): their checks, then the task table's tickets
 * (task_table.h), which hold the ownership rule between host and device. */
#include "context_handle.h"
#include "clock.h"
#include "error.h"
#include "kernel_args.h"
#include "task_table.h"

#include <stdio.h>
#include <string.h>

#define T CK_TASK_SLOTS

_Static_assert(CK_TASK_KERNEL_LIMIT == CK_TASK_MAX_KERNELS,
               "ck.h and the task descriptor disagree on the kernel limit");

/* Pins ctx for the call (ck_context_enter) and checks that it is built;
 * on an error nothing stays pinned. */
static ck_status enter_built(ck_context *ctx, const char *fn)
{
    ck_status s = ck_context_enter(ctx, fn);
    if (s != CK_OK)
        return s;
    if (!ctx->built) {
        ck_context_leave(ctx);
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: the context is not built (call ck_context_build first)", fn);
    }
    return CK_OK;
}

static ck_status find_pinned(ck_context *ctx, const char *name, ck_kernel *out);

ck_status ck_kernel_find(ck_context *ctx, const char *name, ck_kernel *out)
{
    if (!name || !out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_kernel_find: name and out must not be NULL");
    memset(out, 0, sizeof *out);
    out->index = -1;
    ck_status s = enter_built(ctx, "ck_kernel_find");
    if (s != CK_OK)
        return s;
    s = find_pinned(ctx, name, out);
    ck_context_leave(ctx);
    return s;
}

static ck_status find_pinned(ck_context *ctx, const char *name, ck_kernel *out)
{
    if (!ctx->opts.tasks)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_kernel_find: the context was built without tasks: set "
                                                "ck_context_options.tasks = 1 before ck_context_create");
    int k = ck_stitch_find_kernel(&ctx->stitch, name);
    if (k < 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_kernel_find: no kernel named '%s' in the context's sources",
                       name);
    if (ctx->stitch.kernels[k].cooperative)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "ck_kernel_find: kernel '%s' is cooperative; tasks run ordinary "
                       "kernels only (launch it with ck_launch_kernel)",
                       name);
    if ((unsigned)k >= CK_TASK_MAX_KERNELS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "ck_kernel_find: kernel '%s' is kernel %d of the context; a task's "
                       "descriptor holds indices below %u",
                       name, k, CK_TASK_MAX_KERNELS);
    out->ctx = ctx;
    out->index = k;
    return CK_OK;
}

static ck_status spawn_pinned(ck_context *ctx, ck_kernel kernel, unsigned groups, const ck_arg *args, size_t n_args,
                              double timeout_s, ck_task *out);

ck_status ck_task_spawn(ck_context *ctx, ck_kernel kernel, unsigned groups, const ck_arg *args, size_t n_args,
                        double timeout_s, ck_task *out)
{
    if (!out || (n_args && !args))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_spawn: args and out must not be NULL");
    memset(out, 0, sizeof *out);
    ck_status s = enter_built(ctx, "ck_task_spawn");
    if (s != CK_OK)
        return s;
    s = spawn_pinned(ctx, kernel, groups, args, n_args, timeout_s, out);
    ck_context_leave(ctx);
    return s;
}

static ck_status spawn_pinned(ck_context *ctx, ck_kernel kernel, unsigned groups, const ck_arg *args, size_t n_args,
                              double timeout_s, ck_task *out)
{
    ck_status s = ck_timeout_check(timeout_s, "ck_task_spawn");
    if (s != CK_OK)
        return s;
    /* Every bound ck_kernel_find checks, checked again: a handle made by
     * hand must not name a kernel the task descriptor cannot hold (its
     * index would wrap onto another kernel). */
    if (kernel.ctx != ctx || kernel.index < 0 || (size_t)kernel.index >= ctx->stitch.n_kernels ||
        (unsigned)kernel.index >= CK_TASK_MAX_KERNELS || ctx->stitch.kernels[kernel.index].cooperative)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "ck_task_spawn: the kernel handle (index %d) was not found in this "
                       "context by ck_kernel_find",
                       kernel.index);
    const ck_stitch_kernel *K = &ctx->stitch.kernels[kernel.index];
    if (groups == 0 || groups > CK_MAX_GROUPS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_spawn: kernel '%s': group count %u is not in 1..%u",
                       K->name, groups, CK_MAX_GROUPS);
    uint64_t words[CK_MAX_ARG_WORDS];
    if ((s = ck_pack_args(ctx, K, args, n_args, words)) != CK_OK)
        return ck_fail(s, "ck_task_spawn: %s", ck_last_error());
    uint64_t t;
    if ((s = ck_task_post(ctx, kernel.index, groups, words, (unsigned)K->arg_words, timeout_s, NULL, &t)) != CK_OK)
        return ck_fail(s, "ck_task_spawn: %s", ck_last_error());
    out->ctx = ctx;
    out->ticket = t;
    return CK_OK;
}

/* CK_OK with task.ctx pinned if task names a spawned ticket of a live,
 * built context (the caller leaves the context); nothing pinned otherwise. */
static ck_status enter_task(ck_task task, const char *fn)
{
    ck_status s = enter_built(task.ctx, fn);
    if (s != CK_OK)
        return s;
    if (task.ticket >= atomic_load_explicit(&task.ctx->task_next, memory_order_relaxed)) {
        s = ck_fail(CK_ERR_INVALID_ARGUMENT,
                    "%s: task %llu was never spawned on this context (%llu spawned so "
                    "far)",
                    fn, (unsigned long long)task.ticket,
                    (unsigned long long)atomic_load_explicit(&task.ctx->task_next, memory_order_relaxed));
        ck_context_leave(task.ctx);
    }
    return s;
}

int ck_task_check(ck_task task)
{
    if (!task.ctx || ck_context_enter(task.ctx, "ck_task_check") != CK_OK)
        return 1;
    int done = 1;
    if (task.ctx->built && !ck_context_megakernel_ended(task.ctx) && !task.ctx->check_failed &&
        task.ticket < atomic_load_explicit(&task.ctx->task_next,
                                           memory_order_relaxed)) /* never spawned: ck_task_wait says so */
        done = ck_task_ticket_done(task.ctx, task.ticket);
    ck_context_leave(task.ctx);
    return done;
}

static const char *task_name(uint64_t t, char *buf, size_t n)
{
    snprintf(buf, n, "task %llu", (unsigned long long)t);
    return buf;
}

ck_status ck_task_wait(ck_task task, double timeout_s)
{
    ck_status s = ck_timeout_check(timeout_s, "ck_task_wait");
    if (s == CK_OK)
        s = enter_task(task, "ck_task_wait");
    if (s != CK_OK)
        return s;
    if (timeout_s == 0)
        timeout_s = task.ctx->opts.timeout_s;
    char name[48];
    s = ck_task_ticket_wait(task.ctx, task.ticket, ck_now_s() + timeout_s, timeout_s, "ck_task_wait",
                            task_name(task.ticket, name, sizeof name));
    ck_context_leave(task.ctx);
    return s;
}

ck_status ck_task_wait_all(ck_context *ctx, double timeout_s)
{
    ck_status s = ck_timeout_check(timeout_s, "ck_task_wait_all");
    if (s == CK_OK)
        s = enter_built(ctx, "ck_task_wait_all");
    if (s != CK_OK)
        return s;
    if (timeout_s == 0)
        timeout_s = ctx->opts.timeout_s;
    double deadline = ck_now_s() + timeout_s;
    /* Tickets below next - T are done: their entries were taken again. */
    uint64_t next = atomic_load_explicit(&ctx->task_next, memory_order_relaxed);
    char name[48];
    for (uint64_t t = next > T ? next - T : 0; t < next && s == CK_OK; ++t)
        s = ck_task_ticket_wait(ctx, t, deadline, timeout_s, "ck_task_wait_all", task_name(t, name, sizeof name));
    if (s == CK_OK)
        s = ck_context_check_report(ctx);
    ck_context_leave(ctx);
    return s;
}

ck_status ck_task_get_stats(ck_task task, ck_task_stats *out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_get_stats: out must not be NULL");
    ck_status s = enter_task(task, "ck_task_get_stats");
    if (s != CK_OK)
        return s;
    if (!ck_task_ticket_done(task.ctx, task.ticket))
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_get_stats: task %llu has not finished: wait for it first",
                    (unsigned long long)task.ticket);
    else if (!ck_task_ticket_stats(task.ctx, task.ticket, out))
        s = ck_fail(CK_ERR_INVALID_ARGUMENT,
                    "ck_task_get_stats: the statistics of task %llu are gone: a later "
                    "task took its table entry (read them before %u more spawns)",
                    (unsigned long long)task.ticket, T);
    ck_context_leave(task.ctx);
    return s;
}
