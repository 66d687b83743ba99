/* Launches: kernel arguments checked against the stitcher's parameter list
 * and packed into launch packets (or, for an ordinary launch in a context
 * with tasks, into a ticket of the task table); the scheduler's
 * begin/start/done messages turned into timestamps and statistics; waits
 * with deadlines that explain what a late launch is waiting for. */
#include "context_internal.h"
#include "clock.h"
#include "device_state.h"
#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ARG_SCALAR = 0, ARG_BUFFER = 1, ARG_NULL = 2, ARG_LOCAL = 3 };

ck_arg ck_arg_buffer(ck_buffer b) { return (ck_arg){.kind = ARG_BUFFER, .size = 8, .words = {b.offset, 0}}; }
ck_arg ck_arg_null(void) { return (ck_arg){.kind = ARG_NULL, .size = 8, .words = {~0ull, 0}}; }
ck_arg ck_arg_local(size_t bytes) { return (ck_arg){.kind = ARG_LOCAL, .size = 8, .words = {bytes, 0}}; }

ck_arg ck_arg_scalar(const void *value, size_t size)
{
    ck_arg a = {.kind = ARG_SCALAR, .size = size};
    if (value && size <= sizeof a.words)
        memcpy(a.words, value, size);
    else
        a.size = 0; /* rejected at launch */
    return a;
}
ck_arg ck_arg_int(int32_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_uint(uint32_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_long(int64_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_ulong(uint64_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_float(float v) { return ck_arg_scalar(&v, sizeof v); }

static const char *kind_name(ck_param_kind k)
{
    return k == CK_PARAM_SCALAR ? "a value" : k == CK_PARAM_LOCAL_PTR ? "a local pointer (ck_arg_local)"
                                                                      : "a buffer (ck_arg_buffer or ck_arg_null)";
}

ck_status ck_pack_args(ck_context *ctx, const ck_stitch_kernel *K, const ck_arg *args, size_t n_args,
                       uint64_t *words)
{
    if (n_args != K->n_params)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "kernel '%s' takes %zu arguments, %zu given", K->name, K->n_params,
                       n_args);
    memset(words, 0, K->arg_words * 8);
    size_t local_used = 0;
    for (size_t i = 0; i < n_args; ++i) {
        const ck_stitch_param *P = &K->params[i];
        const ck_arg *a = &args[i];
        int ok = P->kind == CK_PARAM_SCALAR ? a->kind == ARG_SCALAR
               : P->kind == CK_PARAM_LOCAL_PTR ? a->kind == ARG_LOCAL
                                               : (a->kind == ARG_BUFFER || a->kind == ARG_NULL);
        if (!ok)
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "argument %zu ('%s %s') of kernel '%s' must be %s", i, P->type,
                           P->name, K->name, kind_name(P->kind));
        if (P->kind == CK_PARAM_SCALAR) {
            if (a->size != P->size)
                return ck_fail(CK_ERR_INVALID_ARGUMENT, "argument %zu ('%s %s') of kernel '%s' is %zu bytes, %zu "
                               "given", i, P->type, P->name, K->name, P->size, a->size);
            memcpy(&words[P->word_offset], a->words, a->size);
        } else if (P->kind == CK_PARAM_LOCAL_PTR) {
            /* Compared before any rounding or sum, which a huge request could wrap. */
            uint64_t want = a->words[0], room = ctx->opts.local_pool_bytes - local_used;
            if (want == 0 || want > room || (want + 15) / 16 * 16 > room)
                return ck_fail(CK_ERR_INVALID_ARGUMENT, "argument %zu ('%s') of kernel '%s' asks for %llu bytes of "
                               "local memory; %zu of the pool's %zu are left (ck_context_options.local_pool_bytes)",
                               i, P->name, K->name, (unsigned long long)want, (size_t)room,
                               ctx->opts.local_pool_bytes);
            local_used += (size_t)((want + 15) / 16 * 16);
            words[P->word_offset] = a->words[0];
        } else {
            if (a->kind == ARG_BUFFER && a->words[0] >= ctx->arena.capacity)
                return ck_fail(CK_ERR_INVALID_ARGUMENT, "argument %zu ('%s') of kernel '%s' is not a buffer of "
                               "this context", i, P->name, K->name);
            words[P->word_offset] = a->words[0];
        }
    }
    return CK_OK;
}

/* The context's list of launches through the task table (under its lock). */
static void table_unlink(ck_context *ctx, ck_launch *l)
{
    if (l->tprev)
        l->tprev->tnext = l->tnext;
    else if (ctx->table_launches == l)
        ctx->table_launches = l->tnext;
    if (l->tnext)
        l->tnext->tprev = l->tprev;
    l->tprev = l->tnext = NULL;
}

/* A new launch handle of kernel k, registered, its kernel and groups set.
 * Errors: CK_ERR_NO_MEMORY. */
static ck_status launch_new(ck_context *ctx, int k, unsigned groups, ck_launch **out)
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
    l->kernel_index = k;
    l->coop = ctx->stitch.kernels[k].cooperative;
    l->groups = groups;
    *out = l;
    return CK_OK;
}

/* An ordinary launch as a task (ck_context_options.launch_path): one ticket
 * of the task table, which the device runs as it runs ck_task_spawn's, so
 * no message goes to the scheduler and no DONE comes back; the launch is
 * done when its ticket is. */
static ck_status launch_through_table(ck_context *ctx, int k, unsigned groups, const uint64_t *words, ck_launch **out)
{
    const ck_stitch_kernel *K = &ctx->stitch.kernels[k];
    ck_launch *l;
    ck_status s = launch_new(ctx, k, groups, &l);
    if (s != CK_OK)
        return s;
    l->table = 1;
    l->done_slot = CK_CH_NO_DONE_SLOT;
    pthread_mutex_lock(&ctx->lock);
    l->id = ctx->next_id++;
    l->tnext = ctx->table_launches;
    if (l->tnext)
        l->tnext->tprev = l;
    ctx->table_launches = l;
    pthread_mutex_unlock(&ctx->lock);
    l->t_sent = ck_now_s();
    s = ck_task_post(ctx, k, groups, words, (unsigned)K->arg_words, 0, l, &l->ticket);
    if (s != CK_OK) {
        pthread_mutex_lock(&ctx->lock);
        table_unlink(ctx, l);
        pthread_mutex_unlock(&ctx->lock);
        ck_handle_unregister(l, CK_HANDLE_LAUNCH);
        free(l);
        return ck_fail(s, "launch of '%s' through the task table: %s", K->name, ck_last_error());
    }
    *out = l;
    return CK_OK;
}

/* A launch through the table that was seen done: its state says done, with
 * the host time it was seen. Its statistics stay in its table entry until
 * they are asked for or the entry is reused (table_copy_stats): copied
 * here, they put reads of device-written host memory between the device's
 * done and ck_wait's return. Lock-free: ck_launch_done calls it. */
static void table_settle(ck_launch *l)
{
    int expect = CK_LAUNCH_SENT;
    if (__atomic_compare_exchange_n(&l->state, &expect, CK_LAUNCH_SETTLING, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        l->t_done = ck_now_s();
        __atomic_store_n(&l->state, CK_LAUNCH_DONE, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_SETTLING)
        ck_cpu_relax();
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
 * ck_launch_table_evict); the others wait for the mark. A launch no longer
 * in its slot was copied by the post that reused the entry. */
static void table_copy_stats(ck_launch *l)
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

void ck_launch_table_evict(ck_context *ctx, unsigned e)
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

/* l's entry forgets it (its handle goes): no later post copies into it. */
static void table_disown(ck_launch *l)
{
    _Atomic uintptr_t *slot = &l->ctx->task_owner[l->ticket % CK_TASK_SLOTS];
    for (;;) {
        uintptr_t v = (uintptr_t)l;
        if (atomic_compare_exchange_weak_explicit(slot, &v, 0, memory_order_acq_rel, memory_order_acquire))
            return;
        if (v != (uintptr_t)l && v != CK_TASK_OWNER_BUSY)
            return; /* copied already: the slot is free or another launch's */
        ck_cpu_relax(); /* a copy in progress, or a spurious failure */
    }
}

/* Done (and settled) if its ticket is; never blocks. */
static int table_finished(ck_launch *l)
{
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE)
        return 1;
    if (!l->ctx || !ck_task_ticket_done(l->ctx, l->ticket))
        return 0;
    table_settle(l);
    return 1;
}

void ck_launch_table_detach(ck_context *ctx, ck_launch **retire)
{
    for (ck_launch *l = ctx->table_launches, *n; l; l = n) {
        n = l->tnext;
        l->tprev = l->tnext = NULL;
        if (l->user_released) { /* released while the context was being destroyed */
            l->next = *retire;
            *retire = l;
            continue;
        }
        /* Settled, with the statistics, while the channel is still there. */
        if (table_finished(l))
            table_copy_stats(l);
        else
            table_disown(l);
        l->ctx = NULL;
    }
    ctx->table_launches = NULL;
}

static ck_status launch_pinned(ck_context *ctx, const char *name, unsigned groups, const ck_arg *args,
                               size_t n_args, ck_launch **out);

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

static ck_status launch_pinned(ck_context *ctx, const char *name, unsigned groups, const ck_arg *args,
                               size_t n_args, ck_launch **out)
{
    if (__atomic_load_n(&ctx->closing, __ATOMIC_ACQUIRE))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch of '%s': the context is being destroyed (ck_context_destroy "
                       "in another thread)", name);
    ck_status bad = ck_context_check_report(ctx);
    if (bad != CK_OK)
        return bad;
    if (!ctx->built)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch of '%s' before ck_context_build", name);
    int k = ck_stitch_find_kernel(&ctx->stitch, name);
    if (k < 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "no kernel named '%s' in the context's sources", name);
    if (k > (int)CK_LAUNCH_KERNEL(~0u))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "kernel '%s' is kernel %d of the context; a launch can name only the "
                       "first %u", name, k, CK_LAUNCH_KERNEL(~0u) + 1u);
    if (groups == 0 || groups > CK_MAX_GROUPS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "kernel '%s': group count %u is not in 1..%u", name, groups, CK_MAX_GROUPS);
    const ck_stitch_kernel *K = &ctx->stitch.kernels[k];
    if (K->cooperative && groups > ctx->workers)
        groups = ctx->workers; /* N is at most what can be co-resident */
    uint64_t words[CK_MAX_ARG_WORDS];
    ck_status s = ck_pack_args(ctx, K, args, n_args, words);
    if (s != CK_OK)
        return s;
    if (!K->cooperative && ctx->opts.tasks && ctx->opts.launch_path == CK_LAUNCH_PATH_AUTO &&
        (unsigned)k < CK_TASK_MAX_KERNELS)
        return launch_through_table(ctx, k, groups, words, out);
    ck_launch *l;
    if ((s = launch_new(ctx, k, groups, &l)) != CK_OK)
        return s;

    uint32_t msg[CK_CH_MSG_WORDS];
    unsigned nw = (unsigned)K->arg_words * 2;
    msg[0] = CK_MSG_HEADER(CK_MSG_LAUNCH, CK_LAUNCH_HEADER_WORDS + nw);
    msg[CK_LAUNCH_W_SIZE] = CK_LAUNCH_SIZE(groups, nw);
    memcpy(&msg[CK_LAUNCH_W_ARGS], words, nw * 4);

    pthread_mutex_lock(&ctx->send_lock);
    pthread_mutex_lock(&ctx->lock);
    if (ctx->megakernel_ended || ctx->bye) {
        pthread_mutex_unlock(&ctx->lock);
        pthread_mutex_unlock(&ctx->send_lock);
        ck_handle_unregister(l, CK_HANDLE_LAUNCH);
        free(l);
        return ck_fail(CK_ERR_OPENCL, "the megakernel is no longer running (status %d); destroy the context",
                       (int)ctx->megakernel_status);
    }
    l->id = ctx->next_id++;
    msg[CK_LAUNCH_W_ID] = l->id;
    /* An ordinary launch gets a completion word if one is free (cooperative
     * ones report through DONE only: their device errors travel there). */
    l->done_slot = CK_CH_NO_DONE_SLOT;
    if (!l->coop && ctx->done_free_n)
        l->done_slot = ctx->done_free[--ctx->done_free_n];
    msg[CK_LAUNCH_W_KIND] = CK_LAUNCH_KIND(k, K->cooperative ? 1u : 0u,
                            l->done_slot == CK_CH_NO_DONE_SLOT ? CK_LAUNCH_NO_DONE : l->done_slot);
    l->next = ctx->inflight;
    ctx->inflight = l;
    l->t_sent = ck_now_s();
    /* The scheduler starts cooperative launches one at a time in the
     * ring's order, so this count and its own agree. */
    if (l->coop)
        l->cx_key = ++ctx->coop_sent;
    pthread_mutex_unlock(&ctx->lock);
    s = ck_channel_send(ctx->ch, msg, CK_LAUNCH_HEADER_WORDS + nw, ctx->opts.timeout_s);
    if (s != CK_OK && l->coop)
        ctx->coop_sent--; /* never sent: under send_lock, no later one took a number */
    pthread_mutex_unlock(&ctx->send_lock);
    if (s != CK_OK) {
        pthread_mutex_lock(&ctx->lock);
        for (ck_launch **p = &ctx->inflight; *p; p = &(*p)->next)
            if (*p == l) {
                *p = l->next;
                break;
            }
        if (l->done_slot != CK_CH_NO_DONE_SLOT)
            ctx->done_free[ctx->done_free_n++] = l->done_slot; /* never sent: the device never writes it */
        pthread_mutex_unlock(&ctx->lock);
        ck_handle_unregister(l, CK_HANDLE_LAUNCH);
        free(l);
        return ck_fail(s, "launch of '%s': %s", name, ck_last_error());
    }
    *out = l;
    return CK_OK;
}

static ck_launch *find(ck_context *ctx, uint32_t id)
{
    for (ck_launch *l = ctx->inflight; l; l = l->next)
        if (l->id == id)
            return l;
    return NULL;
}

static const char *kernel_name(ck_context *ctx, int index)
{
    return index >= 0 && (size_t)index < ctx->stitch.n_kernels ? ctx->stitch.kernels[index].name : "?";
}

void ck_launch_handle_message(ck_context *ctx, const uint32_t *m, double now)
{
    uint32_t type = CK_MSG_TYPE(m[0]);
    ck_launch *l;
    switch (type) {
    case CK_MSG_BEGIN:
        if ((l = find(ctx, m[CK_BEGIN_W_ID]))) {
            l->t_begin = now;
            __atomic_store_n(&l->state, CK_LAUNCH_BEGUN, __ATOMIC_RELEASE);
        }
        break;
    case CK_MSG_STARTED:
        if ((l = find(ctx, m[CK_STARTED_W_ID]))) {
            l->t_started = now;
            l->initial = m[CK_STARTED_W_GROUPS];
            if (l->coop)
                ck_trace_coop_started(&ctx->trace, now, m[CK_STARTED_W_GROUPS]);
            __atomic_store_n(&l->state, CK_LAUNCH_STARTED, __ATOMIC_RELEASE);
        }
        break;
    case CK_MSG_DONE:
        if ((l = find(ctx, m[CK_DONE_W_ID]))) {
            l->t_done = now;
            l->device_error = m[CK_DONE_W_ERROR];
            l->kills = m[CK_DONE_W_KILLS];
            l->forked = m[CK_DONE_W_FORKED];
            l->resizes = m[CK_DONE_W_RESIZES];
            l->max_m = m[CK_DONE_W_MAX_M];
            if (l->coop) {
                l->initial = m[CK_DONE_W_INITIAL];
                ck_trace_coop_done(&ctx->trace, now);
                ck_chaos_launch_done(ctx, l); /* before ck_wait can see it done */
            }
            /* Done first, then the completion word goes back to the free
             * stack: a lock-free reader that finds the word gone then finds
             * the state done (finished()). */
            __atomic_store_n(&l->state, CK_LAUNCH_DONE, __ATOMIC_RELEASE);
            if (l->done_slot != CK_CH_NO_DONE_SLOT) {
                /* The device wrote the word before this message: free again. */
                ctx->done_free[ctx->done_free_n++] = l->done_slot;
                __atomic_store_n(&l->done_slot, CK_CH_NO_DONE_SLOT, __ATOMIC_RELEASE);
            }
            for (ck_launch **p = &ctx->inflight; *p; p = &(*p)->next)
                if (*p == l) {
                    *p = l->next;
                    break;
                }
            l->next = NULL;
            if (l->user_released)
                ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
        }
        break;
    case CK_MSG_BYE:
        ctx->bye = 1;
        break;
    default:
        break;
    }
}

/* Whether an ordinary launch's completion word says it finished (before
 * its DONE message may have arrived). The slot is read once: the progress
 * thread frees it when DONE arrives, after setting the state to done, so a
 * reader that finds the slot gone finds the state done (finished()). */
static int done_word_set(const ck_launch *l)
{
    uint32_t slot = __atomic_load_n(&l->done_slot, __ATOMIC_ACQUIRE);
    return slot < CK_CH_DONE_SLOTS && ck_channel_load(l->ctx->ch, CK_CH_DONE + slot) == l->id;
}

/* Done by its DONE message or by its completion word. The state is read
 * again after the word: DONE may have arrived in between, taking the word
 * away (a reader that checked only state-then-word could see neither). */
static int finished(const ck_launch *l)
{
    return __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE || done_word_set(l) ||
           __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE;
}

int ck_launch_done(const ck_launch *l)
{
    if (!l)
        return 0;
    ck_status bad;
    ck_context *ctx = ck_launch_enter(l, "ck_launch_done", &bad);
    if (bad != CK_OK)
        return 1;
    int done;
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == CK_LAUNCH_DONE || !ctx)
        done = 1;
    else if (l->table)
        done = table_finished((ck_launch *)l) || __atomic_load_n(&ctx->megakernel_ended, __ATOMIC_ACQUIRE) != 0;
    else
        done = finished(l) || __atomic_load_n(&ctx->megakernel_ended, __ATOMIC_ACQUIRE) != 0;
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
    if (l->table) {
        if (table_finished(l))
            return CK_OK;
        char what[96];
        snprintf(what, sizeof what, "launch %u (task %llu)", l->id, (unsigned long long)l->ticket);
        ck_status s = ck_task_ticket_wait(ctx, l->ticket, timeout_s, "ck_wait", what);
        if (s == CK_OK)
            table_settle(l);
        return s;
    }
    double deadline = ck_now_s() + timeout_s;
    /* Fast path: an ordinary launch's last group writes its completion word
     * in host memory, and a cooperative launch's DONE reaches us about one
     * channel round trip after the device sends it, so spin for a while
     * before sleeping on the condition variable (a wake-up costs tens of
     * microseconds). Not on CPU devices, whose work-groups need the host's
     * cores. An ordinary launch has no device error to report: done is OK. */
    if (!ctx->dev->info.is_cpu) {
        double spin_until = ck_now_s() + CK_WAIT_SPIN_S;
        while (!finished(l) && ck_now_s() < spin_until && !__atomic_load_n(&ctx->megakernel_ended, __ATOMIC_ACQUIRE))
            ck_cpu_relax();
    }
    if (!l->coop && done_word_set(l))
        return CK_OK;
    struct timespec ts;
    ck_deadline_timespec(timeout_s, &ts);
    int wait_err = 0;
    pthread_mutex_lock(&ctx->lock);
    while (l->state != CK_LAUNCH_DONE && !ctx->megakernel_ended && !ctx->check_failed &&
           !(!l->coop && done_word_set(l))) {
        int rc = pthread_cond_timedwait(&ctx->cond, &ctx->lock, &ts);
        if (rc == ETIMEDOUT && ck_now_s() >= deadline)
            break;
        if (rc != 0 && rc != ETIMEDOUT) {
            /* EINVAL (a bad deadline) would come back at once forever: an
             * error, never a reason to keep waiting with the lock held. */
            wait_err = rc;
            break;
        }
    }
    /* Read under the lock, where the progress thread cannot move a DONE
     * in between: the loop may have ended on the completion word, and a
     * DONE handled after the unlock takes the word away (reading it again
     * there turned a finished launch into a timeout: the stress hang in
     * docs/RESULTS.md, "Dispatch speed", 2026-11-24). */
    int by_word = !l->coop && done_word_set(l);
    int state = l->state;
    int ended = ctx->megakernel_ended;
    int check_failed = ctx->check_failed;
    const char *kn = kernel_name(ctx, l->kernel_index);
    uint32_t dev_err = l->device_error;
    uint32_t id = l->id;
    pthread_mutex_unlock(&ctx->lock);
    if (wait_err && state != CK_LAUNCH_DONE && !ended)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_wait: waiting for launch %u of '%s' failed: "
                       "pthread_cond_timedwait: %s (timeout %g s); the launch stays pending", id, kn,
                       strerror(wait_err), timeout_s);
    if (state != CK_LAUNCH_DONE && by_word)
        return CK_OK;
    if (state == CK_LAUNCH_DONE) {
        if (dev_err == CK_DEV_ERR_TX_TOO_BIG)
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch %u of '%s': its transmit variables exceed %u bytes, so "
                           "no group was forked", id, kn, CK_TX_WORDS * 4);
        return CK_OK;
    }
    if (check_failed)
        return ck_context_check_report(ctx);
    if (ended)
        return ck_context_ended_error(ctx, "launch %u of '%s' cannot finish", id, kn);
    /* What the device's memory says, not what the host heard last: the
     * host's view lags the scheduler's messages. */
    char why[768];
    ck_device_view v;
    if (ck_device_view_read(ctx, &v) == CK_OK) {
        ck_describe_launch(ctx, &v, id, why, sizeof why);
        ck_device_view_free(&v);
    } else {
        snprintf(why, sizeof why, "the scheduler state could not be read (%s)", ck_last_error());
    }
    char *state_text = ck_describe_state(ctx);
    ck_status s = ck_fail(CK_ERR_TIMEOUT, "launch %u of '%s' (%u groups) did not finish within %.1f s: %s.\n%s", id,
                          kn, l->groups, timeout_s, why, state_text);
    free(state_text);
    return s;
}

static ck_status stats_pinned(const ck_launch *l, ck_context *ctx, ck_launch_stats *out);

ck_status ck_launch_get_stats(const ck_launch *l, ck_launch_stats *out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_launch_get_stats: out must not be NULL");
    ck_status bad;
    ck_context *ctx = ck_launch_enter(l, "ck_launch_get_stats", &bad);
    if (bad != CK_OK)
        return bad;
    ck_status s = stats_pinned(l, ctx, out);
    ck_context_leave(ctx);
    return s;
}

/* ctx: the launch's context, pinned, or NULL once it is gone. */
static ck_status stats_pinned(const ck_launch *l, ck_context *ctx, ck_launch_stats *out)
{
    if (l->table) {
        if (!ctx ? l->state != CK_LAUNCH_DONE : !table_finished((ck_launch *)l))
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch %u has not finished: call ck_wait first", l->id);
        table_copy_stats((ck_launch *)l);
        /* A task's times: host ones around the spawn and the first notice of
         * done, the device's around its groups (none on a device without a
         * clock). A launch first seen done after its entry was reused has
         * no notice time in the entry: its total runs from the launch call
         * to the first ck_wait or ck_launch_done that saw it done. */
        memset(out, 0, sizeof *out);
        out->gather_ms = -1.0;
        int known = l->tstats_known;
        out->exec_ms = known ? l->tstats.exec_ms : -1.0;
        out->total_ms = known && l->tstats.total_ms > 0 ? l->tstats.total_ms : (l->t_done - l->t_sent) * 1e3;
        out->queue_ms = out->exec_ms < 0 ? -1.0 : out->total_ms > out->exec_ms ? out->total_ms - out->exec_ms : 0.0;
        out->groups = l->groups;
        out->initial_groups = l->groups;
        out->max_active = l->groups;
        return CK_OK;
    }
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) != CK_LAUNCH_DONE && ctx && done_word_set(l)) {
        /* Finished on the device (its completion word), and its DONE with
         * the timestamps is one scheduler pass behind: wait for it. */
        struct timespec ts;
        ck_deadline_timespec(ctx->opts.timeout_s, &ts);
        pthread_mutex_lock(&ctx->lock);
        while (l->state != CK_LAUNCH_DONE && !ctx->megakernel_ended)
            if (pthread_cond_timedwait(&ctx->cond, &ctx->lock, &ts) != 0)
                break;
        pthread_mutex_unlock(&ctx->lock);
    }
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) != CK_LAUNCH_DONE)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch %u has not finished: call ck_wait first", l->id);
    memset(out, 0, sizeof *out);
    out->queue_ms = (l->t_begin - l->t_sent) * 1e3;
    out->gather_ms = (l->t_started - l->t_begin) * 1e3;
    out->exec_ms = (l->t_done - l->t_started) * 1e3;
    out->total_ms = (l->t_done - l->t_sent) * 1e3;
    out->groups = l->groups;
    out->initial_groups = l->initial;
    out->max_active = l->coop ? l->max_m : l->initial;
    out->kills = l->kills;
    out->forked = l->forked;
    out->resizes = l->resizes;
    out->replay_divergences = l->divergences;
    return CK_OK;
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
    if (l->table) { /* nothing will report on it: its memory can go now */
        table_disown(l);
        pthread_mutex_lock(&ctx->lock);
        table_unlink(ctx, l);
        pthread_mutex_unlock(&ctx->lock);
        ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
        ck_context_leave(ctx);
        return CK_OK;
    }
    pthread_mutex_lock(&ctx->lock);
    int done = l->state == CK_LAUNCH_DONE;
    l->user_released = 1;
    pthread_mutex_unlock(&ctx->lock);
    if (done)
        ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
    ck_context_leave(ctx);
    return CK_OK;
}
