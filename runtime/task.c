/* Narrow tasks, host side: kernel lookup, spawning into the task table in
 * the channel's host-visible memory, checks, waits and statistics. The
 * device side (the scheduler making tickets visible, workers claiming
 * groups, the last group marking a task done) is in
 * megakernel/ck_tasks.cl; the table's layout and ownership rule in
 * megakernel/ck_channel_layout.h; the design in docs/TASKS_API.md.
 *
 * Ownership: the host writes an entry only while it is free (its state says
 * the previous ticket there is done), the device writes it only while the
 * ticket in it is not done. A spawn takes a ticket (CAS on task_next) only
 * once its entry is free, so a spawn that gives up leaves no hole the device
 * would wait on. */
#include "context_internal.h"
#include "clock.h"
#include "device_state.h"
#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define T CK_TASK_SLOTS

_Static_assert(CK_TASK_KERNEL_LIMIT == CK_TASK_MAX_KERNELS, "ck.h and the task descriptor disagree on the kernel limit");
#define SPIN_S 0.0002 /* GPU devices: spin this long before napping */

static _Atomic uint32_t *word(ck_context *ctx, unsigned w)
{
    return (_Atomic uint32_t *)&ck_channel_words(ctx->ch)[w];
}

/* The entry's pair: state in the low half, descriptor in the high half,
 * always read and written as one 64-bit value (the device too). */
static _Atomic uint64_t *pair(ck_context *ctx, uint64_t ticket)
{
    return (_Atomic uint64_t *)&ck_channel_words(ctx->ch)[CK_CH_TASK_STATE + 2u * (unsigned)(ticket % T)];
}

static uint32_t state_of(ck_context *ctx, uint64_t ticket, memory_order mo)
{
    return (uint32_t)atomic_load_explicit(pair(ctx, ticket), mo);
}

/* The state word's values for ticket t (mod 2^32: tickets older than 2^31
 * spawns are not compared). */
static uint32_t written_value(uint64_t t) { return (uint32_t)(2u * t + 1u); }
static uint32_t done_value(uint64_t t) { return (uint32_t)(2u * t + 2u); }
/* The entry of ticket t is free for it: empty (first lap) or its previous
 * ticket is done. */
static uint32_t free_value(uint64_t t) { return t < T ? 0u : done_value(t - T); }

static uint64_t now_ns(void) { return (uint64_t)(ck_now_s() * 1e9); }

static int ended(ck_context *ctx) { return __atomic_load_n(&ctx->megakernel_ended, __ATOMIC_ACQUIRE) != 0; }

/* Pauses in a wait loop: spins on GPU devices for SPIN_S, then naps that
 * grow to 50 us; naps at once on CPU devices, whose work-groups need the
 * host's cores. */
static void pause_wait(ck_context *ctx, double started, unsigned *nap_us)
{
    if (!ctx->dev->info.is_cpu && ck_now_s() - started < SPIN_S) {
        ck_cpu_relax();
        return;
    }
    ck_sleep_us(*nap_us);
    if (*nap_us < 50)
        *nap_us *= 2;
}

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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_kernel_find: no kernel named '%s' in the context's sources", name);
    if (ctx->stitch.kernels[k].cooperative)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_kernel_find: kernel '%s' is cooperative; tasks run ordinary "
                       "kernels only (launch it with ck_launch_kernel)", name);
    if ((unsigned)k >= CK_TASK_MAX_KERNELS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_kernel_find: kernel '%s' is kernel %d of the context; a task's "
                       "descriptor holds indices below %u", name, k, CK_TASK_MAX_KERNELS);
    out->ctx = ctx;
    out->index = k;
    return CK_OK;
}

/* The spawn's wait for a free entry ran out: say which task holds it. */
static ck_status table_full(ck_context *ctx, uint64_t t, double waited)
{
    return ck_fail(CK_ERR_TIMEOUT, "the task table (%u entries) stayed full for %.3g s: task %llu "
                   "(the oldest not finished) still holds the entry ticket %llu needs; nothing was spawned (wait for "
                   "tasks, or give the spawn a longer timeout)", T, waited, (unsigned long long)(t - T),
                   (unsigned long long)t);
}

ck_status ck_task_post(ck_context *ctx, int kernel, unsigned groups, const uint64_t *words, unsigned arg_words,
                       double timeout_s, ck_launch *owner, uint64_t *ticket)
{
    if (__atomic_load_n(&ctx->closing, __ATOMIC_ACQUIRE))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "the context is being destroyed (ck_context_destroy in another "
                       "thread); nothing was spawned");
    ck_status bad = ck_context_check_report(ctx);
    if (bad != CK_OK)
        return bad;
    if (ended(ctx))
        return ck_fail(CK_ERR_OPENCL, "the megakernel is no longer running (status %d); destroy the context",
                       (int)ctx->megakernel_status);
    if (timeout_s == 0)
        timeout_s = ctx->opts.timeout_s;

    /* A ticket whose entry is free. Its entry's express line is fetched for
     * writing while the state is read and the ticket taken: the device's
     * reads of the line (ck_task_poll_round) take it out of this core's
     * cache, and a store that misses waits under the locked add below. */
    uint64_t t = atomic_load_explicit(&ctx->task_next, memory_order_relaxed);
    __builtin_prefetch(&ck_channel_words(ctx->ch)[CK_CH_TASK_ENTRY + (unsigned)(t % T) * CK_CH_TE_WORDS], 1, 3);
    double started = 0;
    unsigned nap = 1;
    for (;;) {
        if (state_of(ctx, t, memory_order_acquire) == free_value(t)) {
            if (atomic_compare_exchange_weak_explicit(&ctx->task_next, &t, t + 1, memory_order_relaxed,
                                                      memory_order_relaxed))
                break;
            continue; /* another spawn took it: t is the current count now */
        }
        uint64_t again = atomic_load_explicit(&ctx->task_next, memory_order_relaxed);
        if (again != t) { /* another spawn took t meanwhile */
            t = again;
            continue;
        }
        double now = ck_now_s();
        if (started == 0)
            started = now;
        else if (now - started >= timeout_s)
            return table_full(ctx, t, now - started);
        if (ended(ctx))
            return ck_context_ended_error(ctx, "the task table stayed full");
        pause_wait(ctx, started, &nap);
    }

    /* The entry is ours until the state says written: arguments, cleared
     * device times, descriptor, then the state (release), then the hint. */
    unsigned e = (unsigned)(t % T), nw = arg_words * 2u;
    unsigned base = CK_CH_TASK_ENTRY + e * CK_CH_TE_WORDS;
    /* A launch whose done ticket the entry still holds keeps its
     * statistics: they are copied before anything is overwritten. */
    if (atomic_load_explicit(&ctx->task_owner[e], memory_order_acquire))
        ck_launch_table_evict(ctx, e);
    if (owner)
        atomic_store_explicit(&ctx->task_owner[e], (uintptr_t)owner, memory_order_relaxed);
    uint32_t w32[2 * CK_MAX_ARG_WORDS];
    memcpy(w32, words, nw * 4u);
    atomic_store_explicit(&ctx->task_seen_ns[e], 0, memory_order_relaxed);
    atomic_store_explicit(&ctx->task_spawn_ns[e], now_ns(), memory_order_relaxed);
    /* A message (a launch) this thread sent that the scheduler has not taken
     * yet must go first: the flag leaves this ticket to the scheduler. */
    uint32_t desc = CK_TASK_DESC((unsigned)kernel, nw, groups);
    if (atomic_load_explicit(word(ctx, CK_CH_H2D_TAIL), memory_order_acquire) !=
        atomic_load_explicit(word(ctx, CK_CH_H2D_HEAD), memory_order_relaxed))
        desc |= CK_TASK_DESC_AFTER_MSG;
    /* The entry's express line: the descriptor and the first argument words,
     * each beside the ticket's tag, so the poller's one read of the line says
     * by itself whether all of it is this ticket's; the other argument words
     * after it (megakernel/ck_channel_layout.h). */
    _Atomic uint64_t *xl = (_Atomic uint64_t *)&ck_channel_words(ctx->ch)[base];
    uint64_t tag = (uint64_t)(uint32_t)(t + 1u) << 32;
    for (unsigned i = 0; i < nw; ++i) {
        if (i < CK_CH_XL_ARGS)
            atomic_store_explicit(&xl[1u + i], tag | w32[i], memory_order_relaxed);
        else
            atomic_store_explicit(word(ctx, CK_CH_TE_ARG(base, i)), w32[i], memory_order_relaxed);
    }
    atomic_store_explicit(&xl[0], tag | desc, memory_order_relaxed);
    atomic_store_explicit(pair(ctx, t), (uint64_t)desc << 32 | written_value(t), memory_order_release);
    /* The hint: the count of written tickets, kept in host memory (an RMW on
     * a word the device reads every pass cost more) and stored to the
     * channel; a store may land after a later spawn's larger one, so each
     * spawn stores again until the count it stored is the current one. */
    uint32_t posted = atomic_fetch_add_explicit(&ctx->task_posted, 1u, memory_order_acq_rel) + 1u;
    for (;;) {
        atomic_store_explicit(word(ctx, CK_CH_TASK_POSTED), posted, memory_order_release);
        uint32_t now_posted = atomic_load_explicit(&ctx->task_posted, memory_order_acquire);
        if (now_posted == posted)
            break;
        posted = now_posted;
    }
    *ticket = t;
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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_spawn: the kernel handle (index %d) was not found in this "
                       "context by ck_kernel_find", kernel.index);
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

/* 1 if ticket t is done (its entry's state is at or past done(t)). Also
 * notes the first time the host saw it done, while the entry still holds t. */
static int task_done(ck_context *ctx, uint64_t t)
{
    uint32_t st = state_of(ctx, t, memory_order_acquire);
    if ((int32_t)(st - done_value(t)) < 0)
        return 0;
    if (st == done_value(t)) {
        uint64_t zero = 0, e = t % T;
        atomic_compare_exchange_strong_explicit(&ctx->task_seen_ns[e], &zero, now_ns(), memory_order_relaxed,
                                                memory_order_relaxed);
    }
    return 1;
}

/* CK_OK with task.ctx pinned if task names a spawned ticket of a live,
 * built context (the caller leaves the context); nothing pinned otherwise. */
static ck_status enter_task(ck_task task, const char *fn)
{
    ck_status s = enter_built(task.ctx, fn);
    if (s != CK_OK)
        return s;
    if (task.ticket >= atomic_load_explicit(&task.ctx->task_next, memory_order_relaxed)) {
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: task %llu was never spawned on this context (%llu spawned so "
                    "far)", fn, (unsigned long long)task.ticket,
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
    if (task.ctx->built && !ended(task.ctx) && !task.ctx->check_failed &&
        task.ticket < atomic_load_explicit(&task.ctx->task_next, memory_order_relaxed)) /* never spawned: ck_task_wait says so */
        done = task_done(task.ctx, task.ticket);
    ck_context_leave(task.ctx);
    return done;
}

static const char *kernel_name_of(const ck_context *ctx, uint32_t k)
{
    return k < ctx->stitch.n_kernels ? ctx->stitch.kernels[k].name : "?";
}

/* Waits for ticket t until `deadline` (ck_now_s); `what` names it in the
 * messages ("task 12", "launch 7 (task 12)"). */
static ck_status wait_ticket(ck_context *ctx, uint64_t t, double deadline, double timeout_s, const char *fn,
                             const char *what)
{
    double started = ck_now_s();
    unsigned nap = 1;
    while (!task_done(ctx, t)) {
        if (ctx->check_failed)
            return ck_context_check_report(ctx);
        if (ended(ctx))
            return ck_context_ended_error(ctx, "%s: %s cannot finish", fn, what);
        if (ck_now_s() >= deadline) {
            uint32_t d = (uint32_t)(atomic_load_explicit(pair(ctx, t), memory_order_relaxed) >> 32);
            const char *kn = kernel_name_of(ctx, CK_TASK_DESC_KERNEL(d));
            char why[256] = "";
            ck_device_view v;
            if (ck_device_view_read(ctx, &v) == CK_OK) {
                int c = (int)v.coop_slot - 1;
                const char *holder = c >= 0 && c < (int)CK_MAX_LAUNCHES && v.slots[c].state == CK_SLOT_RUNNING
                                         ? kernel_name_of(ctx, v.slots[c].kernel) : NULL;
                if ((int32_t)((uint32_t)t - v.task_visible) >= 0)
                    snprintf(why, sizeof why, ": it is written but not yet visible to the workers (%u tickets "
                             "visible; the poller and the scheduler make tickets visible)", v.task_visible);
                else if (holder)
                    snprintf(why, sizeof why, ": it is visible, and its groups wait for workers that cooperative "
                             "kernel '%s' holds (%u kills asked of it)", holder, v.slots[c].kill_req);
                else
                    snprintf(why, sizeof why, ": it is visible to the workers, %d of them idle", v.idle);
                ck_device_view_free(&v);
            }
            char *state_text = ck_describe_state(ctx);
            ck_status s = ck_fail(CK_ERR_TIMEOUT, "%s: %s ('%s', %u groups) did not finish within %.1f s%s; it "
                                  "stays pending.\n%s", fn, what, kn, CK_TASK_DESC_GROUPS(d), timeout_s, why,
                                  state_text);
            free(state_text);
            return s;
        }
        pause_wait(ctx, started, &nap);
    }
    return CK_OK;
}

static const char *task_name(uint64_t t, char *buf, size_t n)
{
    snprintf(buf, n, "task %llu", (unsigned long long)t);
    return buf;
}

int ck_task_ticket_done(ck_context *ctx, uint64_t t) { return task_done(ctx, t); }

ck_status ck_task_ticket_wait(ck_context *ctx, uint64_t t, double timeout_s, const char *fn, const char *what)
{
    return wait_ticket(ctx, t, ck_now_s() + timeout_s, timeout_s, fn, what);
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
    s = wait_ticket(task.ctx, task.ticket, ck_now_s() + timeout_s, timeout_s, "ck_task_wait",
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
        s = wait_ticket(ctx, t, deadline, timeout_s, "ck_task_wait_all", task_name(t, name, sizeof name));
    if (s == CK_OK)
        s = ck_context_check_report(ctx);
    ck_context_leave(ctx);
    return s;
}

int ck_task_ticket_stats(ck_context *ctx, uint64_t t, ck_task_stats *out)
{
    /* Read, then check that the entry still held t throughout. */
    unsigned e = (unsigned)(t % T), base = CK_CH_TASK_TIMES + e * CK_CH_TT_WORDS;
    uint32_t d = (uint32_t)(atomic_load_explicit(pair(ctx, t), memory_order_relaxed) >> 32);
    uint32_t v[4];
    for (unsigned i = 0; i < 4; ++i)
        v[i] = atomic_load_explicit(word(ctx, base + i), memory_order_relaxed);
    uint64_t spawn = atomic_load_explicit(&ctx->task_spawn_ns[e], memory_order_relaxed);
    uint64_t seen = atomic_load_explicit(&ctx->task_seen_ns[e], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (state_of(ctx, t, memory_order_relaxed) != done_value(t))
        return 0;
    uint64_t start = v[0] | (uint64_t)v[1] << 32, end = v[2] | (uint64_t)v[3] << 32;
    memset(out, 0, sizeof *out);
    out->groups = CK_TASK_DESC_GROUPS(d);
    out->total_ms = seen > spawn ? (double)(seen - spawn) / 1e6 : 0.0;
    if (start && end >= start) {
        out->exec_ms = (double)(end - start) / 1e6;
        out->queue_ms = out->total_ms > out->exec_ms ? out->total_ms - out->exec_ms : 0.0;
    } else {
        out->exec_ms = -1.0;
        out->queue_ms = -1.0;
    }
    return 1;
}

ck_status ck_task_get_stats(ck_task task, ck_task_stats *out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_get_stats: out must not be NULL");
    ck_status s = enter_task(task, "ck_task_get_stats");
    if (s != CK_OK)
        return s;
    if (!task_done(task.ctx, task.ticket))
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_get_stats: task %llu has not finished: wait for it first",
                    (unsigned long long)task.ticket);
    else if (!ck_task_ticket_stats(task.ctx, task.ticket, out))
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_task_get_stats: the statistics of task %llu are gone: a later "
                    "task took its table entry (read them before %u more spawns)",
                    (unsigned long long)task.ticket, T);
    ck_context_leave(task.ctx);
    return s;
}
