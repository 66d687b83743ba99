/* The cooperative kernels primitives as the stitched user code calls them:
 * logical ids, offer_kill, request_fork, global_barrier and
 * resizing_global_barrier, over the scheduler state of ck_sched_layout.h.
 * Semantics: docs/DESIGN.md section 2 and appendix A of the paper.
 *
 * Every primitive is work-group level: all work-items call it, thread 0 does
 * the work and broadcasts the outcome through local scratch. Broadcast slots
 * alternate between two words (scratch[6], scratch[7]), so one group barrier
 * per broadcast suffices: a slot is rewritten only after every work-item has
 * passed the barrier of the next primitive call. Group barriers are kept few
 * on purpose: PoCL inlines every primitive at every call site and its compile
 * time grows steeply with the number of barriers in a kernel. Changes to the
 * cooperative launch (M, kill requests, forks, reservations) happen under one
 * lock (CK_H_LOCK), taken by thread 0 only and only when there is something
 * to decide: a barrier with no kill asked and no idle worker to fork onto
 * takes no lock. Forks hand their groups to idle workers through fork
 * records and tickets (ck_sched_layout.h). In chaos mode (seed nonzero) the
 * nondeterministic choices of the semantics are drawn at random, keyed so
 * that a recorded schedule replays (ck_chaos.cl); that code sits behind
 * `ctx->chaos` tests only. */

typedef struct {
    CK_PTR sched;          /* scheduler state                          */
    CK_PTR ch;             /* channel (abort flag)                     */
    local uint *scratch;   /* CK_SCRATCH_WORDS words, layout below      */
    uint max_workers;      /* W of the layout                          */
    uint slot;             /* launch slot                              */
    uint worker;           /* physical worker index                    */
    uint group;            /* logical group id                         */
    uint groups;           /* ordinary launch: its group count         */
    uint coop;
    uint killed;           /* set when this group was killed           */
    uint chaos;            /* chaos seed; 0: chaos mode off            */
    uint naive;            /* naive resizing barrier                   */
    uint phase;            /* primitive calls so far: picks a broadcast slot */
    uint launch;           /* host id of the launch this group belongs to  */
    CK_PTR cx;             /* chaos: record/replay area, or 0          */
    uint birth;            /* chaos: incarnation of this logical id    */
    uint cx_key;           /* chaos: the launch's key, its number among the context's cooperative launches */
    uint cx_offers;        /* chaos: offer_kill calls so far (thread 0) */
    uint cx_forks;         /* chaos: request_fork calls so far (thread 0) */
} ck_wg_t;

/* The worker's local scratch: words 0-5 carry the work thread 0 found to
 * the group (ck_worker), 6-7 the primitives' broadcasts, 8-9 the barrier
 * word this group last saw (thread 0 alone uses them; ck_worker marks them
 * empty when the worker starts a group), 10 the completion word of the
 * ordinary launch the group belongs to, or the ticket of the task, and 11
 * the task's descriptor (thread 0, ck_worker: read when the group starts,
 * so that nothing is read between the kernel's end and the store the
 * waiting host sees). */
#define CK_SCR_BAR_KNOWN 8u /* nonzero: CK_SCR_BAR_KNOWN + 1 holds the word */
#define CK_SCR_DONE_SLOT 10u
#define CK_SCR_TASK_DESC 11u
/* 12-14: the group's launch id, group count and kernel index, read by thread
 * 0 beside the completion word and handed to the group through local memory
 * (one trip to device memory when a group starts, not two). */
#define CK_SCR_LAUNCH    12u
#define CK_SCR_GROUPS    13u
#define CK_SCR_KERNEL    14u
#define CK_SCRATCH_WORDS 15u

#define CK_L(ctx, field) ((ctx)->sched + CK_SH_LAUNCH((ctx)->slot) + (field))

/* ---------------------------------------------------------------- ids */

uint ck_get_group_id(ck_wg_t *ctx, uint dim) { return dim == 0 ? ctx->group : 0u; }

uint ck_get_num_groups(ck_wg_t *ctx, uint dim)
{
    if (dim != 0)
        return 1u;
    return ctx->coop ? ck_load_relaxed(CK_L(ctx, CK_L_M)) : ctx->groups;
}

size_t ck_get_global_id(ck_wg_t *ctx, uint dim)
{
    if (dim != 0)
        return get_local_id(dim);
    return (size_t)ctx->group * get_local_size(0) + get_local_id(0);
}

size_t ck_get_global_size(ck_wg_t *ctx, uint dim)
{
    if (dim != 0)
        return get_local_size(dim);
    return (size_t)ck_get_num_groups(ctx, 0) * get_local_size(0);
}

/* ------------------------------------------------------------ helpers */

/* The checking build (ck_context_options.accounting_checks): 1 makes the
 * tests below real; 0 folds them away, so they cost the normal build
 * nothing. */
#ifndef CK_CHECK_BUILD
#define CK_CHECK_BUILD 0
#endif

/* Reports a broken accounting rule (CK_CHECK_* in ck_sched_layout.h): the
 * first report wins the code word and writes its words, then the ready
 * word the host waits for. Later ones are dropped: the first is the one
 * that explains the rest. */
void ck_check_fail(CK_PTR s, uint code, uint who, uint a, uint b, uint c, uint d)
{
    if (ck_cas(s + CK_H_CHECK, 0u, code) != 0u)
        return;
    ck_store_relaxed(s + CK_H_CHECK + 1u, who);
    ck_store_relaxed(s + CK_H_CHECK + 2u, a);
    ck_store_relaxed(s + CK_H_CHECK + 3u, b);
    ck_store_relaxed(s + CK_H_CHECK + 4u, c);
    ck_store_relaxed(s + CK_H_CHECK + 5u, d);
    ck_store_release(s + CK_H_CHECK_READY, 1u);
}

/* The checking build: the worker count (0 until the scheduler wrote it). */
uint ck_check_workers(CK_PTR s) { return ck_load_relaxed(s + CK_H_CHECK_WORKERS); }

/* The checking build: an idle or promised count after an add of `k` that
 * returned `old` stays at most the worker count. */
void ck_check_count(CK_PTR s, uint code, uint who, uint old, uint k)
{
    uint workers = ck_check_workers(s);
    if (workers && (int)(old + k) > (int)workers)
        ck_check_fail(s, code, who, old + k, workers, 0u, 0u);
}

/* A worker counts itself idle (one unit of CK_H_IDLE). */
void ck_count_idle(CK_PTR s, uint w)
{
    uint old = ck_fetch_add_relaxed(s + CK_H_IDLE, 1u);
    if (CK_CHECK_BUILD)
        ck_check_count(s, CK_CHECK_IDLE_OVER, w, old, 1u);
}

/* Nonzero once the megakernel is stopping. Workers look only at the exit
 * word in device memory, which the scheduler sets when the host aborts: on a
 * discrete GPU every read of host memory crosses the bus, and thousands of
 * spinning groups polling it would saturate it (measured: it made barriers
 * and offer_kill hundreds of times slower on the H100). */
uint ck_aborting(ck_wg_t *ctx) { return ck_load_relaxed(ctx->sched + CK_H_EXIT); }

/* Takes the cooperative context lock (thread 0 only). Returns 0 if it gave
 * up because the megakernel is stopping. `ch` is the channel for the
 * scheduler, which watches the host's abort flag itself; 0 for workers. */
uint ck_lock(CK_PTR sched, CK_PTR ch)
{
    for (uint spins = 0;; ++spins) {
        if (ck_load_relaxed(sched + CK_H_LOCK) == 0u && ck_cas(sched + CK_H_LOCK, 0u, 1u) == 0u)
            return 1;
        if ((spins & CK_SPIN_CHECK) == 0 &&
            (ck_load_relaxed(sched + CK_H_EXIT) || (ch != 0 && ck_ch_aborted(ch))))
            return 0;
    }
}

void ck_unlock(CK_PTR sched) { ck_store_release(sched + CK_H_LOCK, 0u); }

/* Broadcast of one value of thread 0 to the whole group (one barrier). */
uint ck_broadcast(ck_wg_t *ctx, uint v)
{
    local uint *slot = ctx->scratch + 6 + (ctx->phase++ & 1u);
    if (get_local_id(0) == 0)
        *slot = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return *slot;
}

/* Idle workers nobody has a claim on (CK_H_IDLE may dip below zero for a
 * moment while a worker tries to take a unit it does not get). */
uint ck_idle_now(CK_PTR s)
{
    int v = (int)ck_load_relaxed(s + CK_H_IDLE);
    return v > 0 ? (uint)v : 0u;
}

/* Takes up to k units of CK_H_IDLE. Returns how many it took. */
uint ck_take_idle(CK_PTR s, uint k)
{
    uint seen = ck_load_relaxed(s + CK_H_IDLE);
    while (k) {
        if ((int)seen <= 0)
            return 0;
        uint take = min(k, seen);
        uint r = ck_cas(s + CK_H_IDLE, seen, seen - take);
        if (r == seen)
            return take;
        seen = r;
    }
    return 0;
}

/* A fork record nobody reads any more, or CK_FORK_RECS (under the lock). */
uint ck_free_fork_record(CK_PTR s, uint max_workers)
{
#pragma unroll 1
    for (uint f = 0; f < CK_FORK_RECS; ++f)
        if (ck_load_acquire(s + CK_SH_FORK(max_workers, f) + CK_F_REFS) == 0u)
            return f;
    return CK_FORK_RECS;
}

/* Writes fork record f: tickets for groups first..first+k-1 of the launch in
 * `slot`, resuming at `point` with the transmit bytes at tx (under the lock;
 * the k workers were taken from CK_H_IDLE). The tickets become claimable
 * with ck_fork_publish. */
void ck_fork_write(CK_PTR s, uint max_workers, uint f, uint slot, uint launch, uint first, uint k, uint point,
                   const void *tx, uint tx_bytes, uint birth)
{
    CK_PTR F = s + CK_SH_FORK(max_workers, f);
    uint t0 = ck_load_relaxed(s + CK_H_FT_END);
    /* Readers look for their ticket in every record: like a sequence lock,
     * T0 is invalid while the rest changes (ck_fork_record_holds). */
    ck_store_relaxed(F + CK_F_T0, CK_F_T0_INVALID);
    ck_fence_release();
    uint txw = (tx_bytes + 3u) / 4u;
    const uchar *src = (const uchar *)tx;
    global uchar *dst = (global uchar *)(F + CK_F_TX);
    for (uint b = 0; b < tx_bytes; ++b)
        dst[b] = src[b];
    ck_store_relaxed(F + CK_F_SLOT, slot);
    ck_store_relaxed(F + CK_F_LAUNCH, launch);
    ck_store_relaxed(F + CK_F_FIRST, first);
    ck_store_relaxed(F + CK_F_POINT, point);
    ck_store_relaxed(F + CK_F_TX_WORDS, txw);
    ck_store_relaxed(F + CK_F_K, k);
    ck_store_relaxed(F + CK_F_BIRTH, birth);
    ck_store_relaxed(F + CK_F_REFS, k);
    ck_store_release(F + CK_F_T0, t0);
    ck_store_relaxed(s + CK_H_FT_END, t0 + k);
}

/* Nonzero if fork record F holds ticket t, read consistently. */
uint ck_fork_record_holds(CK_PTR F, uint t)
{
    uint a = ck_load_acquire(F + CK_F_T0);
    uint k = ck_load_relaxed(F + CK_F_K);
    ck_fence_acquire();
    uint b = ck_load_relaxed(F + CK_F_T0);
    return a == b && a != CK_F_T0_INVALID && t - a < k;
}

/* Makes k written tickets claimable by idle workers. */
void ck_fork_publish(CK_PTR s, uint k)
{
    if (!k)
        return;
    uint old = ck_fetch_add(s + CK_H_PROMISED, k);
    if (CK_CHECK_BUILD)
        ck_check_count(s, CK_CHECK_PROMISED_OVER, CK_CHECK_SCHEDULER, old, k);
}

/* Queues a finished launch for the scheduler. */
void ck_push_finish(CK_PTR s, uint slot)
{
    uint i = ck_fetch_add(s + CK_H_FIN_TAIL, 1u);
    ck_store_release(s + CK_H_FIN + (i & (CK_FIN_SLOTS - 1u)), slot + 1u);
}

/* Forking in two steps, both under the lock, thread 0. Prepare takes k idle
 * workers, writes the record and tickets and adds them to M (returns the k it
 * can honour: 0 if the transmit bytes do not fit, no record is free or no
 * worker is idle); publish then lets the workers take the tickets. A
 * resizing barrier releases its groups between the two, so M is final
 * before anyone leaves and forked groups can only see the barrier released. */
uint ck_fork_prepare_locked(ck_wg_t *ctx, uint k, uint point, const void *tx, uint tx_bytes, uint birth)
{
    if (k == 0)
        return 0;
    if (tx_bytes > CK_TX_WORDS * 4u) {
        ck_store_relaxed(CK_L(ctx, CK_L_ERROR), CK_DEV_ERR_TX_TOO_BIG);
        return 0;
    }
    CK_PTR s = ctx->sched;
    uint f = ck_free_fork_record(s, ctx->max_workers);
    if (f == CK_FORK_RECS)
        return 0;
    k = ck_take_idle(s, k);
    if (k == 0)
        return 0;
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    if (CK_CHECK_BUILD && m + k > ck_load_relaxed(CK_L(ctx, CK_L_GROUPS)))
        ck_check_fail(s, CK_CHECK_M_RANGE, ctx->worker, ctx->slot, m + k, ck_load_relaxed(CK_L(ctx, CK_L_GROUPS)), 0u);
    ck_fork_write(s, ctx->max_workers, f, ctx->slot, ctx->launch, m, k, point, tx, tx_bytes, birth);
    ck_store_relaxed(CK_L(ctx, CK_L_M), m + k);
    ck_sys_store_relaxed(ctx->ch + CK_CH_COOP_M, m + k); /* host trace */
    ck_fetch_add(CK_L(ctx, CK_L_LIVE), k); /* k more groups to leave */
    ck_store_relaxed(CK_L(ctx, CK_L_FORKED), ck_load_relaxed(CK_L(ctx, CK_L_FORKED)) + k);
    if (m + k > ck_load_relaxed(CK_L(ctx, CK_L_MAX_M)))
        ck_store_relaxed(CK_L(ctx, CK_L_MAX_M), m + k);
    return k;
}

/* Nonzero if a fork could add groups now: idle workers, room below N, and no
 * ordinary launch waiting for workers (non-functional contract: fork
 * whenever workers are idle and nobody else wants them). Lock-free look. */
uint ck_fork_possible(ck_wg_t *ctx)
{
    return ck_load_relaxed(CK_L(ctx, CK_L_M)) < ck_load_relaxed(CK_L(ctx, CK_L_GROUPS)) &&
           ck_idle_now(ctx->sched) > 0u && ck_load_relaxed(ctx->sched + CK_H_DEMAND) == 0u &&
           ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)) == 0u;
}

/* How many groups a fork may add now (under the lock). */
uint ck_fork_choice_locked(ck_wg_t *ctx)
{
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    uint n = ck_load_relaxed(CK_L(ctx, CK_L_GROUPS));
    uint avail = min(n - m, ck_idle_now(ctx->sched));
    if (ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)) || ck_load_relaxed(ctx->sched + CK_H_DEMAND))
        avail = 0; /* an ordinary launch waits for workers */
    return avail;
}

/* A group of the cooperative launch leaves (finished, killed or dropped).
 * CK_L_LIVE counts the groups started and forked that have not left: the
 * group that brings it to zero is the last of the launch, whatever the order
 * of kills, forks and returns (the forker is live while it forks). */
void ck_coop_group_left(ck_wg_t *ctx)
{
    uint live = ck_fetch_sub(CK_L(ctx, CK_L_LIVE), 1u);
    if (CK_CHECK_BUILD && live == 0u)
        ck_check_fail(ctx->sched, CK_CHECK_LIVE_UNDER, ctx->worker, ctx->slot, ctx->launch, 0u, 0u);
    if (live == 1u)
        ck_push_finish(ctx->sched, ctx->slot);
}

/* Records `drop` kills (under the lock). */
void ck_count_kills_locked(ck_wg_t *ctx, uint drop)
{
    if (CK_CHECK_BUILD && (int)ck_load_relaxed(CK_L(ctx, CK_L_M)) < 1)
        ck_check_fail(ctx->sched, CK_CHECK_M_RANGE, ctx->worker, ctx->slot, ck_load_relaxed(CK_L(ctx, CK_L_M)),
                      ck_load_relaxed(CK_L(ctx, CK_L_GROUPS)), 0u);
    ck_store_relaxed(CK_L(ctx, CK_L_KILLS), ck_load_relaxed(CK_L(ctx, CK_L_KILLS)) + drop);
    CK_PTR total = ctx->sched + CK_H_KILLS_TOTAL;
    ck_store_relaxed(total, ck_load_relaxed(total) + drop);
    uint req = ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ));
    ck_store_relaxed(CK_L(ctx, CK_L_KILL_REQ), req - min(req, drop));
    ck_sys_store_relaxed(ctx->ch + CK_CH_COOP_M, ck_load_relaxed(CK_L(ctx, CK_L_M))); /* host trace */
}

/* ------------------------------------------------ chaos decisions */

/* Chaos and replay versions of the decisions (ck_chaos.cl has the keys).
 * Only choices that change M are recorded: accepted kills, forks of one or
 * more groups, and every resizing barrier (keyed by epoch, so cheap); a
 * declined offer or an empty fork changes nothing, and recording it would
 * make the record depend on timing where the outcome does not. In replay a
 * key absent from the record means: decline (no kill, no fork). */
#define CK_CX_ABSENT 0xffffffffu

/* Replay: waits (bounded) until k workers are idle. */
void ck_cx_wait_idle(ck_wg_t *ctx, uint k)
{
    for (uint spins = 0; k && spins < CK_CX_WAIT_SPINS && ck_idle_now(ctx->sched) < k; ++spins)
        if ((spins & CK_SPIN_CHECK) == 0 && ck_aborting(ctx))
            return;
}

/* Groups a chaos fork may add (under the lock): as ck_fork_choice_locked,
 * but a replay ignores waiting ordinary launches (forking then is legal, and
 * the recorded run may have seen none). */
uint ck_cx_fork_avail_locked(ck_wg_t *ctx, uint replay)
{
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    uint avail = min(ck_load_relaxed(CK_L(ctx, CK_L_GROUPS)) - m, ck_idle_now(ctx->sched));
    if (!replay && (ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)) || ck_load_relaxed(ctx->sched + CK_H_DEMAND)))
        avail = 0;
    return avail;
}

/* offer_kill's cheap look in chaos mode (thread 0): counts the call; a
 * replay says yes only where the record has this call accepted. */
uint ck_cx_offer_kill_possible(ck_wg_t *ctx)
{
    uint n = ctx->cx_offers++;
    if (ck_cx_replaying(ctx->cx))
        return ck_cx_lookup(ctx->cx, ctx->cx_key, ck_cx_kg(CK_CX_OFFER, ctx->group), ctx->birth, n, 0u) == 1u;
    return ctx->group + 1u == ck_load_relaxed(CK_L(ctx, CK_L_M));
}

/* offer_kill's decision in chaos mode, after ck_cx_offer_kill_possible said
 * yes (its call number is cx_offers - 1). A replay waits (bounded) until
 * this group is the highest, as it was when the recorded run accepted. */
uint ck_cx_offer_kill_t0(ck_wg_t *ctx)
{
    uint n = ctx->cx_offers - 1u, k1 = ck_cx_kg(CK_CX_OFFER, ctx->group);
    uint replay = ck_cx_replaying(ctx->cx);
    for (uint spins = 0; replay && spins < CK_CX_WAIT_SPINS &&
                         ck_load_relaxed(CK_L(ctx, CK_L_M)) != ctx->group + 1u; ++spins)
        if ((spins & CK_SPIN_CHECK) == 0 && ck_aborting(ctx))
            return 1;
    if (!ck_lock(ctx->sched, 0))
        return 1;
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    uint legal = ctx->group == m - 1u && m > 1u;
    uint accept = legal && (replay || ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)) > 0u ||
                            (ck_cx_draw(ctx->chaos, ctx->cx_key, k1, ctx->birth, n, 0u) & 1u));
    if (accept) {
        ck_store_relaxed(CK_L(ctx, CK_L_M), m - 1u);
        ck_count_kills_locked(ctx, 1u);
    }
    ck_unlock(ctx->sched);
    if (accept || replay)
        ck_cx_record(ctx->cx, ctx->cx_key, k1, ctx->birth, n, accept, m, accept ? m - 1u : m, !accept, 1u);
    return accept;
}

/* request_fork in chaos mode (thread 0, every work-item arrived): k drawn
 * from 0..available, or in replay the recorded k, after a bounded wait for
 * that many idle workers, else as many as there are. */
void ck_cx_request_fork(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes)
{
    uint n = ctx->cx_forks++, k1 = ck_cx_kg(CK_CX_FORK, ctx->group);
    uint replay = ck_cx_replaying(ctx->cx);
    uint rec = replay ? ck_cx_lookup(ctx->cx, ctx->cx_key, k1, ctx->birth, n, CK_CX_ABSENT) : 0u;
    uint want = rec == CK_CX_ABSENT ? 0u : rec;
    if (replay)
        ck_cx_wait_idle(ctx, want);
    if (!ck_lock(ctx->sched, 0))
        return;
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    uint avail = ck_cx_fork_avail_locked(ctx, replay);
    if (!replay)
        want = avail ? ck_cx_draw(ctx->chaos, ctx->cx_key, k1, ctx->birth, n, 0u) % (avail + 1u) : 0u;
    /* The forked groups' birth: derived from this decision's key alone. */
    uint birth = (ck_cx_draw(0u, ctx->cx_key, k1, ctx->birth, n, 1u) & 0x7fffffffu) | 1u;
    uint k = ck_fork_prepare_locked(ctx, min(want, avail), point, tx, tx_bytes, birth);
    ck_unlock(ctx->sched);
    ck_fork_publish(ctx->sched, k);
    if (k || (replay && want))
        ck_cx_record(ctx->cx, ctx->cx_key, k1, ctx->birth, n, k, m, m + k, replay && k != want, want);
}

/* A resizing barrier in chaos mode, master, every active group arrived,
 * before the lock: the recorded M' (replay; CK_CX_ABSENT if none), after a
 * bounded wait for the idle workers a recorded fork needs. */
uint ck_cx_barrier_prepare(ck_wg_t *ctx, uint epoch, uint m)
{
    if (!ck_cx_replaying(ctx->cx))
        return 0u;
    uint rec = ck_cx_lookup(ctx->cx, ctx->cx_key, ck_cx_kg(CK_CX_BARRIER, CK_CX_NO_GROUP), 0u, epoch, CK_CX_ABSENT);
    if (rec != CK_CX_ABSENT && rec > m)
        ck_cx_wait_idle(ctx, rec - m);
    return rec;
}

/* The barrier's decision (under the lock): drop a random number of groups
 * (query form; also what the scheduler asked for), else fork a random number
 * onto idle workers; in replay the recorded M', or the nearest legal one.
 * Forked groups' birth is the epoch with the top bit set. Returns M'. */
uint ck_cx_barrier_locked(ck_wg_t *ctx, uint naive, uint epoch, uint m, uint rec, uint point, const void *tx,
                          uint tx_bytes, uint *k)
{
    uint k1 = ck_cx_kg(CK_CX_BARRIER, CK_CX_NO_GROUP);
    uint replay = ck_cx_replaying(ctx->cx);
    uint target = m;
    if (replay) {
        target = rec == CK_CX_ABSENT ? m : rec;
    } else {
        uint drop = naive ? 0u : min(ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)), m - 1u);
        if (!naive && !drop && (ck_cx_draw(ctx->chaos, ctx->cx_key, k1, 0u, epoch, 0u) & 1u))
            drop = ck_cx_draw(ctx->chaos, ctx->cx_key, k1, 0u, epoch, 1u) % m; /* 0..M-1 */
        if (drop) {
            target = m - drop;
        } else {
            uint avail = ck_cx_fork_avail_locked(ctx, 0u);
            target = m + (avail ? ck_cx_draw(ctx->chaos, ctx->cx_key, k1, 0u, epoch, 2u) % (avail + 1u) : 0u);
        }
    }
    uint m_new = m;
    *k = 0;
    if (target < m && !naive) { /* the naive form kills only through offers */
        m_new = max(target, 1u);
        ck_store_relaxed(CK_L(ctx, CK_L_M), m_new);
        ck_count_kills_locked(ctx, m - m_new);
    } else if (target > m) {
        uint avail = ck_cx_fork_avail_locked(ctx, replay);
        *k = ck_fork_prepare_locked(ctx, min(target - m, avail), point, tx, tx_bytes, 0x80000000u | epoch);
        m_new = m + *k;
    }
    ck_cx_record(ctx->cx, ctx->cx_key, k1, 0u, epoch, m_new, m, m_new, replay && (m_new != target || rec == CK_CX_ABSENT),
                 rec == CK_CX_ABSENT ? 0x7fffffffu : rec);
    return m_new;
}

/* --------------------------------------------------------- primitives */

/* Nonzero if offer_kill might be accepted now, thread 0 (lock-free look):
 * the common case is two loads of device memory and a no. Only group M-1
 * can be accepted: the others need not queue for the lock (with thousands
 * of groups they would serialise on it). If M moves meanwhile, declining is
 * a legal outcome of offer_kill. */
uint ck_offer_kill_possible(ck_wg_t *ctx)
{
    /* An abort ends every group at its next primitive, group 0 too: a
     * kernel that loops on offer_kill until the host stops it (its only
     * fork point) must still leave when the megakernel is stopped. */
    if (!ctx->coop)
        return 0;
    if (ck_aborting(ctx))
        return 1;
    if (ctx->group == 0)
        return 0;
    if (!ctx->chaos && !ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)))
        return 0;
    if (ctx->chaos)
        return ck_cx_offer_kill_possible(ctx);
    return ctx->group + 1u == ck_load_relaxed(CK_L(ctx, CK_L_M));
}

/* Offer to be killed, thread 0 only, after ck_offer_kill_possible said yes
 * and every work-item of the group has reached the offer. 1 if accepted. */
uint ck_offer_kill_t0(ck_wg_t *ctx)
{
    if (ck_aborting(ctx))
        return 1;
    if (ctx->chaos)
        return ck_cx_offer_kill_t0(ctx);
    if (!ck_lock(ctx->sched, 0))
        return 1;
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    uint req = ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ));
    uint accept = ctx->group == m - 1u && m > 1u && req > 0u;
    if (accept) {
        ck_store_relaxed(CK_L(ctx, CK_L_M), m - 1u);
        ck_count_kills_locked(ctx, 1u);
    }
    ck_unlock(ctx->sched);
    return accept;
}

/* Both primitives act for the whole group at one point of the program: a
 * group killed at offer_kill has done all it did before the offer, and a
 * group forked at request_fork sees all the forker did before the request.
 * So before thread 0 commits a kill or a fork, every work-item must have
 * arrived and its global writes must be ordered before thread 0's release
 * (a device-scope group barrier). Without it thread 0 could be killed while
 * other work-items still write (PoCL runs a group's work-items one after the
 * other between barriers, so it happened there: a master saw the killed
 * group's share unfinished). The barrier is paid only when the cheap look
 * says a kill or fork may happen; the common path keeps one local barrier. */
/* offer_kill: nonzero if the scheduler accepted (the caller must leave). */
int ck_offer_kill(ck_wg_t *ctx)
{
    uint killed = ck_broadcast(ctx, get_local_id(0) == 0 ? ck_offer_kill_possible(ctx) : 0u);
    if (killed) { /* uniform */
        ck_group_barrier_device();
        killed = ck_broadcast(ctx, get_local_id(0) == 0 ? ck_offer_kill_t0(ctx) : 0u);
    }
    ctx->killed = killed;
    return (int)killed;
}

/* request_fork: nonzero if the megakernel is stopping (the caller must
 * leave, as after an accepted offer_kill: a kernel that loops on
 * request_fork alone would otherwise never see the abort). */
int ck_request_fork(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes)
{
    uint maybe = 0u;
    if (get_local_id(0) == 0 && ctx->coop)
        maybe = ck_aborting(ctx) ? 2u : (ctx->chaos || ck_fork_possible(ctx)) ? 1u : 0u;
    maybe = ck_broadcast(ctx, maybe);
    if (maybe == 2u) { /* uniform */
        ctx->killed = 1;
        return 1;
    }
    if (maybe) { /* uniform */
        ck_group_barrier_device();
        if (get_local_id(0) == 0 && ctx->chaos) {
            ck_cx_request_fork(ctx, point, tx, tx_bytes);
        } else if (get_local_id(0) == 0 && ck_lock(ctx->sched, 0)) {
            uint k = ck_fork_prepare_locked(ctx, ck_fork_choice_locked(ctx), point, tx, tx_bytes, 0u);
            ck_unlock(ctx->sched);
            ck_fork_publish(ctx->sched, k);
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* ends the thread-0 stretch (PoCL, apps/README.md) */
    }
    return 0;
}

/* Arrivals so far: the sum of the barrier's counters (relaxed loads with no
 * dependence between them, so they are in flight together). Counters only
 * grow until the master resets them, so the sum never runs ahead. */
uint ck_arrivals(CK_PTR count)
{
    uint n = 0;
    for (uint i = 0; i < CK_BAR_COUNTERS; ++i)
        n += ck_load_relaxed(count + i * CK_LINE);
    return n;
}

/* Master: zeroes the counters, then counts `self` arrivals on counter 0 (its
 * own). The release of the word that follows publishes the reset. */
void ck_reset_arrivals(CK_PTR count, uint self)
{
    for (uint i = 1; i < CK_BAR_COUNTERS; ++i)
        ck_store_relaxed(count + i * CK_LINE, 0u);
    ck_store_relaxed(count, self);
}

/* Master: waits until every active group has arrived (kills may lower M
 * while it waits). 0 if aborted. */
uint ck_wait_arrivals(ck_wg_t *ctx, CK_PTR count)
{
    for (uint spins = 0;; ++spins) {
        /* Relaxed spin; on success one acquire fence and a second look at M:
         * a group that forked before arriving published the larger M before
         * its arrival, so M read after the fence includes its fork. The fence
         * pairs with every counter's arrival that the sum included. */
        uint arrived = ck_arrivals(count);
        if (arrived >= ck_load_relaxed(CK_L(ctx, CK_L_M))) {
            ck_fence_acq_rel();
            if (arrived >= ck_load_relaxed(CK_L(ctx, CK_L_M)))
                return 1;
        }
        if ((spins & CK_SPIN_CHECK) == 0 && ck_aborting(ctx))
            return 0;
    }
}

/* Slave: waits until the release word moves past `old`. 0 if aborted.
 * Between looks it pauses M/8 ns (M, the active groups, is in the word):
 * thousands of groups polling one line slowed the arrivals and the master's
 * release more than the pause delays a waiter's notice (measured on the
 * H100 at 3167 groups: 6.8 -> 5.6-5.7 us, CUDA's grid.sync 6.8 us; at 132
 * groups no change; docs/RESULTS.md). */
uint ck_wait_release(ck_wg_t *ctx, CK_PTR word, uint old, uint *released)
{
    for (uint spins = 0;; ++spins) {
        *released = ck_load_relaxed(word); /* relaxed spin, one acquire fence */
        if (*released != old) {
            ck_fence_acq_rel();
            return 1;
        }
        ck_pause_ns((old & CK_M_MASK) / 8u);
        if ((spins & CK_SPIN_CHECK) == 0 && ck_aborting(ctx))
            return 0;
    }
}

uint ck_next_word(uint old, uint m) { return (((old >> CK_M_BITS) + 1u) << CK_M_BITS) | (m & CK_M_MASK); }

/* Thread 0's part of the barrier among the active groups. Group 0 (never
 * killed) is the master: it waits until the arrivals equal the current M,
 * then releases everyone with one word that carries the new M', so a group
 * learns whether it survived from the load that releases it. One atomic per
 * group, on one of CK_BAR_COUNTERS counters, and the lock only when a resize
 * may happen.
 *
 * A barrier costs its chain of round trips to device memory, so none is
 * spent on what a group already knows. The word it was last released with
 * is the word of the barrier it enters (the word moves only when a barrier
 * this group takes part in completes), so only a group's first barrier
 * reads it (CK_SCR_BAR_KNOWN). And the launch-id check that keeps a dropped
 * straggler out of a later launch is made only where groups can be dropped:
 * a plain barrier drops none, so its launch cannot end while a group waits
 * there. (Measured on the H100 at 2639 groups: 6.3 -> 5.1 us, about half
 * from each; docs/RESULTS.md.)
 *
 * resize == 0: global_barrier. resize == 1: resizing_global_barrier;
 *   query form: the master asks how many groups the scheduler wants back
 *     (the kill request) and drops that many, else forks what it may;
 *   naive form: two phases: after everyone arrived each slave offers one
 *     kill, then the master waits for the survivors and forks.
 * Forked groups are published after the release, so they can only see this
 * barrier completed. Returns M' (0: this group was dropped, or abort). */
uint ck_barrier_t0(ck_wg_t *ctx, uint resize, uint point, const void *tx, uint tx_bytes)
{
    CK_PTR counters = CK_L(ctx, CK_L_BAR_COUNT);
    CK_PTR count = counters + (ctx->group % CK_BAR_COUNTERS) * CK_LINE; /* this group's counter */
    CK_PTR word = CK_L(ctx, CK_L_BAR_WORD);
    uint naive = resize && ctx->naive;
    /* The word cannot move before this group arrives: the word this group
     * was last released with, else (its first barrier) a relaxed load, gives
     * the sequence of the barrier it is entering. */
    local uint *known = ctx->scratch + CK_SCR_BAR_KNOWN;
    uint old = known[0] ? known[1] : ck_load_relaxed(word);
    uint released = old;
    uint epoch = old >> CK_M_BITS; /* chaos: the barrier's key */
    ck_fetch_add(count, 1u);
    if (ctx->group == 0) {
        if (!ck_wait_arrivals(ctx, counters))
            return 0;
        uint m_start = ck_load_relaxed(CK_L(ctx, CK_L_M));
        if (naive) { /* phase 1 done: let the slaves offer their kills */
            ck_reset_arrivals(counters, 1u);
            old = ck_next_word(old, m_start);
            ck_store_release(word, old);
            if (!ck_wait_arrivals(ctx, counters))
                return 0;
        }
        /* Every active group is here: nobody else changes M now. */
        uint m = ck_load_relaxed(CK_L(ctx, CK_L_M)), m_new = m, k = 0, locked = 0;
        if (resize && (ctx->chaos || ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)) || ck_fork_possible(ctx))) {
            uint rec = ctx->chaos ? ck_cx_barrier_prepare(ctx, epoch, m) : 0u;
            if (!ck_lock(ctx->sched, 0))
                return 0;
            locked = 1;
            if (ctx->chaos) {
                m_new = ck_cx_barrier_locked(ctx, naive, epoch, m, rec, point, tx, tx_bytes, &k);
            } else {
                uint req = ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ));
                uint drop = naive ? 0u : min(req, m - 1u);
                if (drop) {
                    m_new = m - drop;
                    ck_store_relaxed(CK_L(ctx, CK_L_M), m_new);
                    ck_count_kills_locked(ctx, drop);
                } else {
                    k = ck_fork_prepare_locked(ctx, ck_fork_choice_locked(ctx), point, tx, tx_bytes, 0u);
                    m_new = m + k;
                }
            }
        }
        if (resize && m_new != m_start) /* also naive kills between the phases */
            ck_store_relaxed(CK_L(ctx, CK_L_RESIZES), ck_load_relaxed(CK_L(ctx, CK_L_RESIZES)) + 1u);
        ck_reset_arrivals(counters, 0u);
        released = ck_next_word(old, m_new);
        ck_store_release(word, released);
        known[0] = 1u;
        known[1] = released;
        if (locked)
            ck_unlock(ctx->sched);
        ck_fork_publish(ctx->sched, k);
        return m_new;
    }
    if (!ck_wait_release(ctx, word, old, &released))
        return 0;
    /* A group dropped here may be slow to see the release: by then its
     * launch can have finished and the slot can hold a new launch whose
     * barrier word happens to carry the very sequence number this group
     * expects (the same kernel on the same input passes through the same
     * sequence numbers). Such a straggler must not join the new launch: its
     * arrivals would stand in for a real group at the next barrier, which
     * then leaves as dropped while still counted in M. The slot's launch id,
     * written before the new launch's first barrier word, tells them apart.
     * A plain barrier drops no group, so it needs no such check. */
    if (resize && ck_load_relaxed(CK_L(ctx, CK_L_ID)) != ctx->launch)
        return 0;
    uint expected = ((old >> CK_M_BITS) + 1u) & (0xffffffffu >> CK_M_BITS);
    if (naive && (released >> CK_M_BITS) == expected) {
        /* Phase 2 of the naive form: one offer_kill, then arrive again. */
        if (ck_offer_kill_possible(ctx) && ck_offer_kill_t0(ctx))
            return 0;
        old = released;
        ck_fetch_add(count, 1u);
        if (!ck_wait_release(ctx, word, old, &released) || ck_load_relaxed(CK_L(ctx, CK_L_ID)) != ctx->launch)
            return 0;
        expected = ((old >> CK_M_BITS) + 1u) & (0xffffffffu >> CK_M_BITS);
    }
    /* A later barrier can only have completed without this group if this
     * barrier dropped it: then the word no longer carries this barrier's M'. */
    if ((released >> CK_M_BITS) != expected)
        return 0;
    known[0] = 1u;
    known[1] = released;
    return released & CK_M_MASK;
}

/* The group-level barrier: thread 0 arrives and waits for the others; one
 * work-group barrier on each side makes its device-scope release and
 * acquire cover the whole group (the pattern of CUDA's grid.sync). */
uint ck_barrier_group(ck_wg_t *ctx, uint resize, uint point, const void *tx, uint tx_bytes)
{
    ck_group_barrier_device();
    local uint *slot = ctx->scratch + 6 + (ctx->phase++ & 1u);
    if (get_local_id(0) == 0)
        *slot = ck_barrier_t0(ctx, resize, point, tx, tx_bytes);
    ck_group_barrier_device();
    return *slot;
}

/* Returns nonzero if the megakernel is stopping: M' is 0 only then (every
 * active group takes part in a plain global barrier, so none can be
 * dropped), and the caller leaves. */
int ck_global_barrier(ck_wg_t *ctx)
{
    if (!ctx->coop)
        return 0; /* no inter-group barrier in an ordinary launch */
    if (ck_barrier_group(ctx, 0u, 0u, 0, 0u) == 0u)
        ctx->killed = 1;
    return (int)ctx->killed;
}

/* Returns nonzero if this group is no longer active: the caller must return. */
int ck_resizing_global_barrier(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes)
{
    if (!ctx->coop)
        return 0;
    uint m_new = ck_barrier_group(ctx, 1u, point, tx, tx_bytes);
    uint killed = m_new == 0u || ctx->group >= m_new;
    ctx->killed = killed;
    return (int)killed;
}
