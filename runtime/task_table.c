/* runtime/task_table.c: the task table's entries on the host
 * (task_table.h): posting a ticket into an entry of the channel's
 * host-visible memory, seeing it done, waiting for it, reading its
 * statistics, and which launch through the table the statistics in an
 * entry belong to. The device side: the task poller or the scheduler making
 * tickets visible (megakernel/ck_tasks.cl), workers claiming groups
 * (ck_claim.cl), the last group marking a task done (ck_worker.cl). The
 * table's layout and ownership rule are in megakernel/ck_channel_layout.h,
 * the design in docs/TASKS_API.md.
 *
 * Ownership: the host writes an entry only while it is free (its state says
 * the previous ticket there is done), the device writes it only while the
 * ticket in it is not done. A post takes a ticket (CAS on task_next) only
 * once its entry is free, so a post that gives up leaves no hole the device
 * would wait on. */
#include "task_table.h"
#include "clock.h"
#include "context_handle.h"
#include "device_state.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T CK_TASK_SLOTS
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

/* Pauses in a wait loop: spins on GPU devices for SPIN_S, then naps that
 * double from 1 us (where the callers start *nap_us) up to 64 us; naps at
 * once on CPU devices, whose work-groups need the host's cores. */
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

/* The spawn's wait for a free entry ran out: say which task holds it. */
static ck_status table_full(ck_context *ctx, uint64_t t, double waited)
{
    return ck_fail(
        CK_ERR_TIMEOUT,
        "the task table (%u entries) stayed full for %.3g s: task %llu "
        "(the oldest not finished) still holds the entry ticket %llu needs; nothing was spawned (wait for "
        "tasks, or give the spawn a longer timeout)",
        T, waited, (unsigned long long)(t - T), (unsigned long long)t);
}

/* Copies the statistics of the launch in entry slot `slot` (its ticket
 * done) after the caller swapped the slot from it to CK_TASK_OWNER_BUSY,
 * marks them copied and frees the slot. */
static void copy_from_entry(ck_context *ctx, _Atomic uintptr_t *slot, ck_launch *l)
{
    l->tstats_known = ck_task_ticket_stats(ctx, l->ticket, &l->tstats);
    __atomic_store_n(&l->tstats_copied, 1, __ATOMIC_RELEASE);
    atomic_store_explicit(slot, 0, memory_order_release);
}

/* The statistics of l, whose ticket is done, out of its table entry, once.
 * Whoever swaps task_owner[e] from l to CK_TASK_OWNER_BUSY copies them (the
 * entry cannot take another ticket meanwhile: ck_task_post waits in
 * evict_owner); the others wait for the mark. A launch no longer
 * in its slot was copied by the post that reused the entry. */
void ck_task_owner_copy_stats(ck_launch *l)
{
    if (__atomic_load_n(&l->tstats_copied, __ATOMIC_ACQUIRE) || !l->ctx)
        return;
    ck_context *ctx = l->ctx;
    _Atomic uintptr_t *slot = &ctx->task_owner[l->ticket % CK_TASK_SLOTS];
    while (!__atomic_load_n(&l->tstats_copied, __ATOMIC_ACQUIRE)) {
        uintptr_t v = (uintptr_t)l;
        if (atomic_compare_exchange_weak_explicit(slot, &v, CK_TASK_OWNER_BUSY, memory_order_acquire,
                                                  memory_order_relaxed)) {
            copy_from_entry(ctx, slot, l);
            return;
        }
        ck_cpu_relax();
    }
}

/* Entry e is about to take a new ticket: the launch recorded in
 * task_owner[e], if any, gets its statistics copied out of the entry first
 * (the entry still holds its done ticket). Waits only for another thread's
 * copy of the same launch. */
static void evict_owner(ck_context *ctx, unsigned e)
{
    _Atomic uintptr_t *slot = &ctx->task_owner[e];
    for (;;) {
        uintptr_t v = atomic_load_explicit(slot, memory_order_acquire);
        if (!v)
            return;
        if (v == CK_TASK_OWNER_BUSY) { /* the launch's own thread is copying */
            ck_cpu_relax();
            continue;
        }
        if (atomic_compare_exchange_weak_explicit(slot, &v, CK_TASK_OWNER_BUSY, memory_order_acquire,
                                                  memory_order_relaxed)) {
            copy_from_entry(ctx, slot, (ck_launch *)v);
            return;
        }
    }
}

void ck_task_owner_disown(ck_launch *l)
{
    _Atomic uintptr_t *slot = &l->ctx->task_owner[l->ticket % CK_TASK_SLOTS];
    for (;;) {
        uintptr_t v = (uintptr_t)l;
        if (atomic_compare_exchange_weak_explicit(slot, &v, 0, memory_order_acq_rel, memory_order_acquire))
            return;
        if (v != (uintptr_t)l && v != CK_TASK_OWNER_BUSY)
            return;     /* copied already: the slot is free or another launch's */
        ck_cpu_relax(); /* a copy in progress, or a spurious failure */
    }
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
    if (ck_context_megakernel_ended(ctx))
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
        if (ck_context_megakernel_ended(ctx))
            return ck_context_ended_error(ctx, "the task table stayed full");
        pause_wait(ctx, started, &nap);
    }

    /* The entry is ours until the state says written: the host's times of
     * the entry (seen cleared, spawn stamped), the arguments, the
     * descriptor, then the state (release), then the hint. The device times
     * are not cleared: the task's groups write them before the state that
     * says done, and ck_task_ticket_stats takes them only with that state. */
    unsigned e = (unsigned)(t % T), nw = arg_words * 2u;
    unsigned base = CK_CH_TASK_ENTRY + e * CK_CH_TE_WORDS;
    /* A launch whose done ticket the entry still holds keeps its
     * statistics: they are copied before anything is overwritten. */
    if (atomic_load_explicit(&ctx->task_owner[e], memory_order_acquire))
        evict_owner(ctx, e);
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

/* 1 if ticket t is done (its entry's state is at or past done(t)). Also
 * notes the first time the host saw it done, while the entry still holds t. */
int ck_task_ticket_done(ck_context *ctx, uint64_t t)
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

static const char *kernel_name_of(const ck_context *ctx, uint32_t k)
{
    return k < ctx->stitch.n_kernels ? ctx->stitch.kernels[k].name : "?";
}

ck_status ck_task_ticket_wait(ck_context *ctx, uint64_t t, double deadline, double timeout_s, const char *fn,
                              const char *what)
{
    double started = ck_now_s();
    unsigned nap = 1;
    while (!ck_task_ticket_done(ctx, t)) {
        if (ctx->check_failed)
            return ck_context_check_report(ctx);
        if (ck_context_megakernel_ended(ctx))
            return ck_context_ended_error(ctx, "%s: %s cannot finish", fn, what);
        if (ck_now_s() >= deadline) {
            uint32_t d = (uint32_t)(atomic_load_explicit(pair(ctx, t), memory_order_relaxed) >> 32);
            const char *kn = kernel_name_of(ctx, CK_TASK_DESC_KERNEL(d));
            char why[256] = "";
            ck_device_view v;
            if (ck_device_view_read(ctx, &v) == CK_OK) {
                int c = (int)v.coop_slot - 1;
                const char *holder = c >= 0 && c < (int)CK_MAX_LAUNCHES && v.slots[c].state == CK_SLOT_RUNNING
                                         ? kernel_name_of(ctx, v.slots[c].kernel)
                                         : NULL;
                if ((int32_t)((uint32_t)t - v.task_visible) >= 0)
                    snprintf(why, sizeof why,
                             ": it is written but not yet visible to the workers (%u tickets "
                             "visible; the poller and the scheduler make tickets visible)",
                             v.task_visible);
                else if (holder)
                    snprintf(why, sizeof why,
                             ": it is visible, and its groups wait for workers that cooperative "
                             "kernel '%s' holds (%u kills asked of it)",
                             holder, v.slots[c].kill_req);
                else
                    snprintf(why, sizeof why, ": it is visible to the workers, %d of them idle", v.idle);
                ck_device_view_free(&v);
            }
            char *state_text = ck_describe_state(ctx);
            ck_status s = ck_fail(CK_ERR_TIMEOUT,
                                  "%s: %s ('%s', %u groups) did not finish within %.1f s%s; it "
                                  "stays pending.\n%s",
                                  fn, what, kn, CK_TASK_DESC_GROUPS(d), timeout_s, why, state_text);
            free(state_text);
            return s;
        }
        pause_wait(ctx, started, &nap);
    }
    return CK_OK;
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
