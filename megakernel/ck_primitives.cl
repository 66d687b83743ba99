/* The cooperative kernels primitives as the stitched user code calls them:
 * the group context (ck_wg_t), logical ids, offer_kill and request_fork
 * (the global barriers are ck_barrier.cl's), over the scheduler state of
 * ck_sched_layout.h and the worker pool (ck_worker_pool.cl).
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
 * lock (ck_sched.lock), taken by thread 0 only and only when there is something
 * to decide: a barrier with no kill asked and no idle worker to fork onto
 * takes no lock. Forks hand their groups to idle workers through fork
 * records and tickets (ck_sched_layout.h). In chaos mode (seed nonzero) the
 * nondeterministic choices of the semantics are drawn at random, keyed so
 * that a recorded schedule replays (ck_chaos.cl); that code sits behind
 * `ctx->chaos` tests only. */

typedef struct {
    CK_SCHED sched;      /* scheduler state                          */
    CK_PTR ch;           /* channel (abort flag)                     */
    local uint *scratch; /* CK_SCRATCH_WORDS words, layout below      */
    uint max_workers;    /* W of the layout                          */
    uint slot;           /* launch slot                              */
    uint worker;         /* physical worker index                    */
    uint group;          /* logical group id                         */
    uint groups;         /* ordinary launch: its group count         */
    uint coop;
    uint killed;    /* set when this group was killed           */
    uint chaos;     /* chaos seed; 0: chaos mode off            */
    uint naive;     /* naive resizing barrier                   */
    uint phase;     /* primitive calls so far: picks a broadcast slot */
    uint m_known;   /* cooperative: M as this group's last barrier left it, for a
                              kernel whose M changes only inside barriers (the stitcher
                              sets 0 before the kernel starts); 0: not known yet;
                              CK_M_LIVE: the kernel calls offer_kill or request_fork, so
                              M is read every time */
    uint launch;    /* host id of the launch this group belongs to  */
    CK_PTR cx;      /* chaos: record/replay area, or 0          */
    uint birth;     /* chaos: incarnation of this logical id    */
    uint cx_key;    /* chaos: the launch's key, its number among the context's cooperative launches */
    uint cx_offers; /* chaos: offer_kill calls so far (thread 0) */
    uint cx_forks;  /* chaos: request_fork calls so far (thread 0) */
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
#define CK_SCR_LAUNCH 12u
#define CK_SCR_GROUPS 13u
#define CK_SCR_KERNEL 14u
#define CK_SCRATCH_WORDS 15u

#define CK_LS(ctx) ck_slot_of((ctx)->sched, (ctx)->slot) /* the group's launch slot */

/* ---------------------------------------------------------------- ids */

uint ck_get_group_id(ck_wg_t *ctx, uint dim) { return dim == 0 ? ctx->group : 0u; }

/* M of a cooperative launch: the one its last barrier returned where the
 * kernel lets it keep that (ck_wg_t.m_known), else read from the launch's
 * record. Kernels ask in every work-item after every barrier, so the read
 * is what matters: every work-item of the launch reading one word of
 * device memory (docs/RESULTS.md, "Table 2 against the fair baseline"). */
#define CK_M_LIVE 0xffffffffu
uint ck_get_num_groups(ck_wg_t *ctx, uint dim)
{
    if (dim != 0)
        return 1u;
    if (!ctx->coop)
        return ctx->groups;
    uint m = ctx->m_known;
    return m != 0u && m != CK_M_LIVE ? m : ck_load_relaxed(&CK_LS(ctx)->m);
}

/* After a barrier that returned M' (nonzero): the group keeps it where its
 * kernel allows. */
void ck_learn_m(ck_wg_t *ctx, uint m)
{
    if (ctx->m_known != CK_M_LIVE)
        ctx->m_known = m;
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

/* Nonzero once the megakernel is stopping. Workers look only at the exit
 * word in device memory, which the scheduler sets when the host aborts: on a
 * discrete GPU every read of host memory crosses the bus, and thousands of
 * spinning groups polling it would saturate it (measured: it made barriers
 * and offer_kill hundreds of times slower on the H100). */
uint ck_aborting(ck_wg_t *ctx) { return ck_load_relaxed(&ctx->sched->exit); }

/* Broadcast of one value of thread 0 to the whole group (one barrier). */
uint ck_broadcast(ck_wg_t *ctx, uint v)
{
    local uint *slot = ctx->scratch + 6 + (ctx->phase++ & 1u);
    if (get_local_id(0) == 0)
        *slot = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return *slot;
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
        ck_store_relaxed(&CK_LS(ctx)->error, CK_DEV_ERR_TX_TOO_BIG);
        return 0;
    }
    CK_SCHED s = ctx->sched;
    uint f = ck_free_fork_record(s, ctx->max_workers);
    if (f == CK_FORK_RECS)
        return 0;
    k = ck_take_idle(s, k);
    if (k == 0)
        return 0;
    uint m = ck_load_relaxed(&CK_LS(ctx)->m);
    if (CK_CHECK_BUILD && m + k > ck_load_relaxed(&CK_LS(ctx)->groups))
        ck_check_fail(s, CK_CHECK_M_RANGE, ctx->worker, ctx->slot, m + k, ck_load_relaxed(&CK_LS(ctx)->groups), 0u);
    ck_fork_write(s, ctx->max_workers, f, ctx->slot, ctx->launch, m, k, point, tx, tx_bytes, birth);
    ck_store_relaxed(&CK_LS(ctx)->m, m + k);
    ck_sys_store_relaxed(ctx->ch + CK_CH_COOP_M, m + k); /* host trace */
    ck_fetch_add(&CK_LS(ctx)->live, k);                  /* k more groups to leave */
    ck_store_relaxed(&CK_LS(ctx)->forked, ck_load_relaxed(&CK_LS(ctx)->forked) + k);
    if (m + k > ck_load_relaxed(&CK_LS(ctx)->max_m))
        ck_store_relaxed(&CK_LS(ctx)->max_m, m + k);
    return k;
}

/* Nonzero if a fork could add groups, given M, N, the idle workers, the
 * ordinary launches' demand and the kill request: idle workers, room below
 * N, and nobody else wanting workers (non-functional contract: fork
 * whenever workers are idle and nobody else wants them). */
uint ck_fork_possible_of(uint m, uint groups, uint idle, uint demand, uint kill_req)
{
    return m < groups && idle > 0u && demand == 0u && kill_req == 0u;
}

/* ck_fork_possible_of over the words as they are now (independent loads,
 * in flight together). Lock-free look. */
uint ck_fork_possible(ck_wg_t *ctx)
{
    return ck_fork_possible_of(ck_load_relaxed(&CK_LS(ctx)->m), ck_load_relaxed(&CK_LS(ctx)->groups),
                               ck_idle_now(ctx->sched), ck_load_relaxed(&ctx->sched->demand),
                               ck_load_relaxed(&CK_LS(ctx)->kill_req));
}

/* How many groups a fork may add now (under the lock). */
uint ck_fork_choice_locked(ck_wg_t *ctx)
{
    uint m = ck_load_relaxed(&CK_LS(ctx)->m);
    uint n = ck_load_relaxed(&CK_LS(ctx)->groups);
    uint avail = min(n - m, ck_idle_now(ctx->sched));
    if (ck_load_relaxed(&CK_LS(ctx)->kill_req) || ck_load_relaxed(&ctx->sched->demand))
        avail = 0; /* an ordinary launch waits for workers */
    return avail;
}

/* A group of the cooperative launch leaves (finished, killed or dropped).
 * ck_launch_slot.live counts the groups started and forked that have not left: the
 * group that brings it to zero is the last of the launch, whatever the order
 * of kills, forks and returns (the forker is live while it forks). */
void ck_coop_group_left(ck_wg_t *ctx)
{
    uint live = ck_fetch_sub(&CK_LS(ctx)->live, 1u);
    if (CK_CHECK_BUILD && live == 0u)
        ck_check_fail(ctx->sched, CK_CHECK_LIVE_UNDER, ctx->worker, ctx->slot, ctx->launch, 0u, 0u);
    if (live == 1u)
        ck_push_finish(ctx->sched, ctx->slot);
}

/* Records `drop` kills (under the lock). */
void ck_count_kills_locked(ck_wg_t *ctx, uint drop)
{
    if (CK_CHECK_BUILD && (int)ck_load_relaxed(&CK_LS(ctx)->m) < 1)
        ck_check_fail(ctx->sched, CK_CHECK_M_RANGE, ctx->worker, ctx->slot, ck_load_relaxed(&CK_LS(ctx)->m),
                      ck_load_relaxed(&CK_LS(ctx)->groups), 0u);
    ck_store_relaxed(&CK_LS(ctx)->kills, ck_load_relaxed(&CK_LS(ctx)->kills) + drop);
    CK_PTR total = &ctx->sched->kills_total;
    ck_store_relaxed(total, ck_load_relaxed(total) + drop);
    uint req = ck_load_relaxed(&CK_LS(ctx)->kill_req);
    ck_store_relaxed(&CK_LS(ctx)->kill_req, req - min(req, drop));
    ck_sys_store_relaxed(ctx->ch + CK_CH_COOP_M, ck_load_relaxed(&CK_LS(ctx)->m)); /* host trace */
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
    uint m = ck_load_relaxed(&CK_LS(ctx)->m);
    uint avail = min(ck_load_relaxed(&CK_LS(ctx)->groups) - m, ck_idle_now(ctx->sched));
    if (!replay && (ck_load_relaxed(&CK_LS(ctx)->kill_req) || ck_load_relaxed(&ctx->sched->demand)))
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
    return ctx->group + 1u == ck_load_relaxed(&CK_LS(ctx)->m);
}

/* offer_kill's decision in chaos mode, after ck_cx_offer_kill_possible said
 * yes (its call number is cx_offers - 1). A replay waits (bounded) until
 * this group is the highest, as it was when the recorded run accepted. */
uint ck_cx_offer_kill_t0(ck_wg_t *ctx)
{
    uint n = ctx->cx_offers - 1u, k1 = ck_cx_kg(CK_CX_OFFER, ctx->group);
    uint replay = ck_cx_replaying(ctx->cx);
    for (uint spins = 0; replay && spins < CK_CX_WAIT_SPINS && ck_load_relaxed(&CK_LS(ctx)->m) != ctx->group + 1u;
         ++spins)
        if ((spins & CK_SPIN_CHECK) == 0 && ck_aborting(ctx))
            return 1;
    if (!ck_lock(ctx->sched, 0))
        return 1;
    uint m = ck_load_relaxed(&CK_LS(ctx)->m);
    uint legal = ctx->group == m - 1u && m > 1u;
    uint accept = legal && (replay || ck_load_relaxed(&CK_LS(ctx)->kill_req) > 0u ||
                            (ck_cx_draw(ctx->chaos, ctx->cx_key, k1, ctx->birth, n, 0u) & 1u));
    if (accept) {
        ck_store_relaxed(&CK_LS(ctx)->m, m - 1u);
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
    uint m = ck_load_relaxed(&CK_LS(ctx)->m);
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
        uint drop = naive ? 0u : min(ck_load_relaxed(&CK_LS(ctx)->kill_req), m - 1u);
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
        ck_store_relaxed(&CK_LS(ctx)->m, m_new);
        ck_count_kills_locked(ctx, m - m_new);
    } else if (target > m) {
        uint avail = ck_cx_fork_avail_locked(ctx, replay);
        *k = ck_fork_prepare_locked(ctx, min(target - m, avail), point, tx, tx_bytes, 0x80000000u | epoch);
        m_new = m + *k;
    }
    ck_cx_record(ctx->cx, ctx->cx_key, k1, 0u, epoch, m_new, m, m_new,
                 replay && (m_new != target || rec == CK_CX_ABSENT), rec == CK_CX_ABSENT ? 0x7fffffffu : rec);
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
    if (!ctx->chaos && !ck_load_relaxed(&CK_LS(ctx)->kill_req))
        return 0;
    if (ctx->chaos)
        return ck_cx_offer_kill_possible(ctx);
    return ctx->group + 1u == ck_load_relaxed(&CK_LS(ctx)->m);
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
    uint m = ck_load_relaxed(&CK_LS(ctx)->m);
    uint req = ck_load_relaxed(&CK_LS(ctx)->kill_req);
    uint accept = ctx->group == m - 1u && m > 1u && req > 0u;
    if (accept) {
        ck_store_relaxed(&CK_LS(ctx)->m, m - 1u);
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
