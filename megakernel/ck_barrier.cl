/* The global barriers of a cooperative kernel: ck_global_barrier and
 * ck_resizing_global_barrier (with its naive form for the study), over the
 * launch slot's barrier counters and release word (ck_sched_layout.h).
 * Group 0 of the launch is the master: it waits for every group's arrival,
 * decides the new M under the lock where the barrier resizes, and releases
 * the others with one word that carries a sequence and M. */

/* The barrier family takes the slot's first counter (ck_bar_counter(L, 0))
 * and steps over the others by lines from it: that one pointer is what the
 * master keeps live through a barrier. Addressing each counter from the
 * launch slot instead compiles, with tasks, to a megakernel that spills at
 * the 32-register cap on an H200 (docs/RESULTS.md). */

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
 * while it waits). Returns 0 if aborted, else M with CK_BAR_MAY_RESIZE set
 * where resize is nonzero and a resize may happen here (a kill request, or
 * a fork that ck_fork_possible_of allows). Once every active group is here
 * nobody else changes M, so it stays the barrier's M. The words after the
 * acquire fence are one batch of independent relaxed loads, in flight
 * together: the release waits one round trip for them, not one per word.
 * Only M and one bit leave, which keeps the registers of the megakernel
 * (whose worst point is a barrier inside user code) where they were. */
#define CK_BAR_MAY_RESIZE 0x80000000u
uint ck_wait_arrivals(ck_wg_t *ctx, CK_PTR count, uint resize)
{
    for (uint spins = 0;; ++spins) {
        /* Relaxed spin; on success one acquire fence and a second look at M:
         * a group that forked before arriving published the larger M before
         * its arrival, so M read after the fence includes its fork. The fence
         * pairs with every counter's arrival that the sum included. */
        uint arrived = ck_arrivals(count);
        if (arrived >= ck_load_relaxed(&CK_LS(ctx)->m)) {
            ck_fence_acq_rel();
            uint m = ck_load_relaxed(&CK_LS(ctx)->m);
            uint may = 0u;
            if (resize) {
                uint req = ck_load_relaxed(&CK_LS(ctx)->kill_req);
                uint groups = ck_load_relaxed(&CK_LS(ctx)->groups);
                uint idle = ck_idle_now(ctx->sched);
                uint demand = ck_load_relaxed(&ctx->sched->demand);
                may = req || ck_fork_possible_of(m, groups, idle, demand, req);
            }
            if (arrived >= m)
                return m | (may ? CK_BAR_MAY_RESIZE : 0u);
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
    CK_PTR counters = ck_bar_counter(CK_LS(ctx), 0u);                   /* the launch slot's first barrier counter */
    CK_PTR count = counters + (ctx->group % CK_BAR_COUNTERS) * CK_LINE; /* this group's counter */
    CK_PTR word = &CK_LS(ctx)->bar_word;
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
        uint look = ck_wait_arrivals(ctx, counters, resize);
        if (!look)
            return 0;
        uint m_start = look & ~CK_BAR_MAY_RESIZE;
        if (naive) { /* phase 1 done: let the slaves offer their kills */
            ck_reset_arrivals(counters, 1u);
            old = ck_next_word(old, m_start);
            ck_store_release(word, old);
            if (!(look = ck_wait_arrivals(ctx, counters, resize)))
                return 0;
        }
        /* Every active group is here: nobody else changes M now. The lock is
         * taken only where a resize may happen; under it the decision reads
         * the words again. */
        uint m = look & ~CK_BAR_MAY_RESIZE, m_new = m, k = 0, locked = 0;
        if (resize && (ctx->chaos || (look & CK_BAR_MAY_RESIZE))) {
            uint rec = ctx->chaos ? ck_cx_barrier_prepare(ctx, epoch, m) : 0u;
            if (!ck_lock(ctx->sched, 0))
                return 0;
            locked = 1;
            if (ctx->chaos) {
                m_new = ck_cx_barrier_locked(ctx, naive, epoch, m, rec, point, tx, tx_bytes, &k);
            } else {
                uint req = ck_load_relaxed(&CK_LS(ctx)->kill_req);
                uint drop = naive ? 0u : min(req, m - 1u);
                if (drop) {
                    m_new = m - drop;
                    ck_store_relaxed(&CK_LS(ctx)->m, m_new);
                    ck_count_kills_locked(ctx, drop);
                } else {
                    k = ck_fork_prepare_locked(ctx, ck_fork_choice_locked(ctx), point, tx, tx_bytes, 0u);
                    m_new = m + k;
                }
            }
        }
        if (resize && m_new != m_start) /* also naive kills between the phases */
            ck_store_relaxed(&CK_LS(ctx)->resizes, ck_load_relaxed(&CK_LS(ctx)->resizes) + 1u);
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
    /* A group dropped here may be slow to see the release, but the slot
     * cannot hold a new launch by then: a dropped group is still counted in
     * L.live until it leaves (ck_coop_group_left), the launch ends only when
     * that count reaches zero, and only then is its slot freed. So the word
     * seen here is this launch's, and no look at the slot's launch id is
     * needed on the way out (the relaunch semantic tests run back-to-back
     * launches of one resizing kernel to check it). */
    uint expected = ((old >> CK_M_BITS) + 1u) & (0xffffffffu >> CK_M_BITS);
    if (naive && (released >> CK_M_BITS) == expected) {
        /* Phase 2 of the naive form: one offer_kill, then arrive again. */
        if (ck_offer_kill_possible(ctx) && ck_offer_kill_t0(ctx))
            return 0;
        old = released;
        ck_fetch_add(count, 1u);
        if (!ck_wait_release(ctx, word, old, &released))
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
    uint m = ck_barrier_group(ctx, 0u, 0u, 0, 0u);
    if (m == 0u)
        ctx->killed = 1;
    else
        ck_learn_m(ctx, m);
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
    if (!killed)
        ck_learn_m(ctx, m_new);
    return (int)killed;
}
