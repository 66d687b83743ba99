/* The cooperative kernels primitives as the stitched user code calls them:
 * logical ids, offer_kill, request_fork, global_barrier and
 * resizing_global_barrier, over the scheduler state of ck_sched_layout.h.
 * Semantics: DESIGN.md section 2 and appendix A of the paper.
 *
 * Every primitive is work-group level: all work-items call it, thread 0 does
 * the work and broadcasts the outcome through local scratch. Broadcast slots
 * alternate between two words (scratch[6], scratch[7]), so one group barrier
 * per broadcast suffices: a slot is rewritten only after every work-item has
 * passed the barrier of the next primitive call. Group barriers are kept few
 * on purpose: PoCL inlines every primitive at every call site and its compile
 * time grows steeply with the number of barriers in a kernel. Changes to the
 * cooperative launch (M, kill requests, forks, reservations) happen under one
 * lock (CK_H_LOCK), taken by thread 0 only. In chaos mode (seed nonzero) the
 * nondeterministic choices of the semantics are drawn at random. */

typedef struct {
    CK_PTR sched;          /* scheduler state                          */
    CK_PTR ch;             /* channel (abort flag)                     */
    local uint *scratch;   /* >= 4 words of broadcast space            */
    uint max_workers;      /* W of the layout                          */
    uint slot;             /* launch slot                              */
    uint worker;           /* physical worker index                    */
    uint group;            /* logical group id                         */
    uint groups;           /* ordinary launch: its group count         */
    uint coop;
    uint killed;           /* set when this group was killed           */
    uint chaos;            /* chaos mode on                            */
    uint naive;            /* naive resizing barrier                   */
    uint phase;            /* primitive calls so far: picks a broadcast slot */
    uint launch;           /* host id of the launch this group belongs to  */
} ck_wg_t;

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
    for (uint spins = 0; ck_cas(sched + CK_H_LOCK, 0u, 1u) != 0u; ++spins)
        if ((spins & CK_SPIN_CHECK) == 0 &&
            (ck_load_relaxed(sched + CK_H_EXIT) || (ch != 0 && ck_ch_aborted(ch))))
            return 0;
    return 1;
}

void ck_unlock(CK_PTR sched) { ck_store_release(sched + CK_H_LOCK, 0u); }

/* xorshift32 on the launch's random state; call under the lock. */
uint ck_chaos_next(CK_PTR state)
{
    uint x = ck_load_relaxed(state);
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    ck_store_relaxed(state, x);
    return x;
}

/* Broadcast of one value of thread 0 to the whole group (one barrier). */
uint ck_broadcast(ck_wg_t *ctx, uint v)
{
    local uint *slot = ctx->scratch + 6 + (ctx->phase++ & 1u);
    if (get_local_id(0) == 0)
        *slot = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return *slot;
}

/* Forking in two steps, both under the lock, thread 0. Prepare adds k
 * groups to M (returns the k it can honour: 0 if the transmit bytes do not
 * fit); dispatch then hands k reserved workers the ids first..first+k-1 at
 * resume point `point` with the caller's transmit bytes. A resizing barrier
 * releases its groups between the two, so M is final before anyone leaves
 * and forked groups can only see the barrier already released. */
uint ck_fork_prepare_locked(ck_wg_t *ctx, uint k, uint tx_bytes)
{
    if (k == 0)
        return 0;
    if (tx_bytes > CK_TX_WORDS * 4u) {
        ck_store_relaxed(CK_L(ctx, CK_L_ERROR), CK_DEV_ERR_TX_TOO_BIG);
        return 0;
    }
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    ck_store_relaxed(CK_L(ctx, CK_L_M), m + k);
    ck_store_relaxed(CK_L(ctx, CK_L_FORKED), ck_load_relaxed(CK_L(ctx, CK_L_FORKED)) + k);
    if (m + k > ck_load_relaxed(CK_L(ctx, CK_L_MAX_M)))
        ck_store_relaxed(CK_L(ctx, CK_L_MAX_M), m + k);
    return k;
}

void ck_fork_dispatch_locked(ck_wg_t *ctx, uint k, uint first, uint point, const void *tx, uint tx_bytes)
{
    CK_PTR s = ctx->sched;
    uint res = ck_load_relaxed(s + CK_H_RES_N);
    const uchar *src = (const uchar *)tx;
    for (uint i = 0; i < k; ++i) {
        uint w = ck_load_relaxed(s + CK_SH_RES(ctx->max_workers) + res - 1u - i);
        global uchar *dst = (global uchar *)(s + CK_SH_TX(ctx->max_workers, w));
        for (uint b = 0; b < tx_bytes; ++b)
            dst[b] = src[b];
        CK_PTR rec = s + CK_SH_WORKER(w);
        ck_store_relaxed(rec + CK_W_SLOT, ctx->slot);
        ck_store_relaxed(rec + CK_W_LAUNCH, ck_load_relaxed(CK_L(ctx, CK_L_ID)));
        ck_store_relaxed(rec + CK_W_GROUP, first + i);
        ck_store_relaxed(rec + CK_W_RESUME, point);
        ck_store_relaxed(rec + CK_W_STATE, 1u);
        ck_store_release(rec + CK_W_CMD, ck_load_relaxed(rec + CK_W_CMD) + 1u);
    }
    ck_store_relaxed(s + CK_H_RES_N, res - k);
}

/* How many groups a fork may add now (under the lock). */
uint ck_fork_choice_locked(ck_wg_t *ctx)
{
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    uint n = ck_load_relaxed(CK_L(ctx, CK_L_GROUPS));
    uint avail = min(n - m, ck_load_relaxed(ctx->sched + CK_H_RES_N));
    if (ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)))
        avail = 0; /* the scheduler is gathering groups for someone else */
    if (ctx->chaos && avail)
        return ck_chaos_next(CK_L(ctx, CK_L_RNG)) % (avail + 1u);
    return avail;
}

/* --------------------------------------------------------- primitives */

/* Offer to be killed, thread 0 only (offer_kill's rule). 1 if accepted. */
uint ck_offer_kill_t0(ck_wg_t *ctx)
{
    if (!ctx->coop || ctx->group == 0)
        return 0;
    if (!ctx->chaos && !ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ)) && !ck_aborting(ctx))
        return 0; /* the common case: two loads of device memory */
    if (ck_aborting(ctx))
        return 1;
    /* Only group M-1 can be accepted: the others need not queue for the lock
     * (with thousands of groups they would serialise on it). If M moves
     * meanwhile, declining is a legal outcome of offer_kill. */
    if (ctx->group + 1u != ck_load_relaxed(CK_L(ctx, CK_L_M)))
        return 0;
    if (!ck_lock(ctx->sched, 0))
        return 1;
    uint m = ck_load_relaxed(CK_L(ctx, CK_L_M));
    uint req = ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ));
    uint accept = ctx->group == m - 1u && m > 1u &&
                  (req > 0u || (ctx->chaos && (ck_chaos_next(CK_L(ctx, CK_L_RNG)) & 1u)));
    if (accept) {
        ck_store_relaxed(CK_L(ctx, CK_L_M), m - 1u);
        if (req)
            ck_store_relaxed(CK_L(ctx, CK_L_KILL_REQ), req - 1u);
        ck_store_relaxed(CK_L(ctx, CK_L_KILLS), ck_load_relaxed(CK_L(ctx, CK_L_KILLS)) + 1u);
    }
    ck_unlock(ctx->sched);
    return accept;
}

/* Returns nonzero if the scheduler accepted: the caller must leave the kernel. */
int ck_offer_kill(ck_wg_t *ctx)
{
    uint killed = get_local_id(0) == 0 ? ck_offer_kill_t0(ctx) : 0u;
    killed = ck_broadcast(ctx, killed);
    ctx->killed = killed;
    return (int)killed;
}

void ck_request_fork(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes)
{
    if (get_local_id(0) == 0 && ctx->coop &&
        (ctx->chaos || ck_load_relaxed(ctx->sched + CK_H_RES_N)) && ck_lock(ctx->sched, 0)) {
        uint first = ck_load_relaxed(CK_L(ctx, CK_L_M));
        uint k = ck_fork_prepare_locked(ctx, ck_fork_choice_locked(ctx), tx_bytes);
        ck_fork_dispatch_locked(ctx, k, first, point, tx, tx_bytes);
        ck_unlock(ctx->sched);
    }
}

/* Master: waits until every active group has arrived (kills may lower M
 * while it waits). 0 if aborted. */
uint ck_wait_arrivals(ck_wg_t *ctx, CK_PTR count)
{
    for (uint spins = 0;; ++spins) {
        /* The count first: a group that forked before arriving published the
         * larger M before its arrival, so acquiring the count makes it
         * visible. Spins are relaxed; the fence makes the load an acquire. */
        uint arrived = ck_load_relaxed(count);
        ck_fence_acq_rel();
        if (arrived >= ck_load_relaxed(CK_L(ctx, CK_L_M)))
            return 1;
        if ((spins & CK_SPIN_CHECK) == 0 && ck_aborting(ctx))
            return 0;
    }
}

/* Slave: waits until the release word moves past `old`. 0 if aborted. */
uint ck_wait_release(ck_wg_t *ctx, CK_PTR word, uint old, uint *released)
{
    for (uint spins = 0;; ++spins) {
        *released = ck_load_relaxed(word); /* relaxed spin, one acquire fence */
        if (*released != old) {
            ck_fence_acq_rel();
            return 1;
        }
        if ((spins & CK_SPIN_CHECK) == 0 && ck_aborting(ctx))
            return 0;
    }
}

uint ck_next_word(uint old, uint m) { return (((old >> CK_M_BITS) + 1u) << CK_M_BITS) | (m & CK_M_MASK); }

/* Thread 0's part of the barrier among the active groups. Group 0 (never
 * killed) is the master: it waits until the arrivals equal the current M,
 * then releases everyone with one word that carries the new M', so a group
 * learns whether it survived from the load that releases it.
 *
 * resize == 0: global_barrier. resize == 1: resizing_global_barrier;
 *   query form: the master asks how many groups the scheduler wants back
 *     (the kill request) and drops that many, else forks what it may;
 *   naive form: two phases: after everyone arrived each slave offers one
 *     kill, then the master waits for the survivors and forks.
 * Forked groups are dispatched after the release, so they can only see this
 * barrier completed. Returns M' (0: this group was dropped, or abort). */
uint ck_barrier_t0(ck_wg_t *ctx, uint resize, uint point, const void *tx, uint tx_bytes)
{
    CK_PTR count = CK_L(ctx, CK_L_BAR_COUNT);
    CK_PTR word = CK_L(ctx, CK_L_BAR_WORD);
    uint naive = resize && ctx->naive;
    uint old = ck_load_acquire(word);
    uint released = old;
    ck_fetch_add(count, 1u);
    if (ctx->group == 0) {
        if (!ck_wait_arrivals(ctx, count))
            return 0;
        uint m_start = ck_load_relaxed(CK_L(ctx, CK_L_M));
        if (naive) { /* phase 1 done: let the slaves offer their kills */
            ck_store_relaxed(count, 1u);
            old = ck_next_word(old, ck_load_relaxed(CK_L(ctx, CK_L_M)));
            ck_store_release(word, old);
            if (!ck_wait_arrivals(ctx, count))
                return 0;
        }
        if (!ck_lock(ctx->sched, 0))
            return 0;
        uint m = ck_load_relaxed(CK_L(ctx, CK_L_M)), m_new = m, k = 0;
        if (resize) {
            uint req = ck_load_relaxed(CK_L(ctx, CK_L_KILL_REQ));
            uint drop = 0;
            if (!naive) {
                drop = min(req, m - 1u);
                if (ctx->chaos && !drop && (ck_chaos_next(CK_L(ctx, CK_L_RNG)) & 1u))
                    drop = ck_chaos_next(CK_L(ctx, CK_L_RNG)) % m; /* 0..M-1 */
            }
            if (drop) {
                m_new = m - drop;
                ck_store_relaxed(CK_L(ctx, CK_L_M), m_new);
                ck_store_relaxed(CK_L(ctx, CK_L_KILL_REQ), req - min(req, drop));
                ck_store_relaxed(CK_L(ctx, CK_L_KILLS), ck_load_relaxed(CK_L(ctx, CK_L_KILLS)) + drop);
            } else {
                k = ck_fork_prepare_locked(ctx, ck_fork_choice_locked(ctx), tx_bytes);
                m_new = m + k;
            }
            if (m_new != m_start) /* naive kills happened between the phases */
                ck_store_relaxed(CK_L(ctx, CK_L_RESIZES), ck_load_relaxed(CK_L(ctx, CK_L_RESIZES)) + 1u);
        }
        ck_store_relaxed(count, 0u);
        ck_store_release(word, ck_next_word(old, m_new));
        ck_fork_dispatch_locked(ctx, k, m, point, tx, tx_bytes);
        ck_unlock(ctx->sched);
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
     * written before the new launch's first barrier word, tells them apart. */
    if (ck_load_relaxed(CK_L(ctx, CK_L_ID)) != ctx->launch)
        return 0;
    uint expected = ((old >> CK_M_BITS) + 1u) & (0xffffffffu >> CK_M_BITS);
    if (naive && (released >> CK_M_BITS) == expected) {
        /* Phase 2 of the naive form: one offer_kill, then arrive again. */
        if (ck_offer_kill_t0(ctx))
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
    return released & CK_M_MASK;
}

/* The group-level barrier: fences and one group barrier on each side. */
uint ck_barrier_group(ck_wg_t *ctx, uint resize, uint point, const void *tx, uint tx_bytes)
{
    ck_fence_acq_rel();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    local uint *slot = ctx->scratch + 6 + (ctx->phase++ & 1u);
    if (get_local_id(0) == 0)
        *slot = ck_barrier_t0(ctx, resize, point, tx, tx_bytes);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    ck_fence_acq_rel();
    return *slot;
}

void ck_global_barrier(ck_wg_t *ctx)
{
    if (!ctx->coop)
        return; /* no inter-group barrier in an ordinary launch */
    /* M' is 0 only when the megakernel is being aborted: every active group
     * takes part in a plain global barrier, so none can be dropped. */
    if (ck_barrier_group(ctx, 0u, 0u, 0, 0u) == 0u)
        ctx->killed = 1;
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
