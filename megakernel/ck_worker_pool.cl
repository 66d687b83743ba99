/* The worker pool's shared counts and records (mechanism the scheduler, the
 * workers and the cooperative primitives all use): the idle count
 * (ck_sched.idle) and the promised count (ck_sched.promised), fork records and their
 * tickets, the finish ring, the lock of the cooperative launch's context,
 * and the checking build's reports of a broken accounting rule. Layout and
 * rules in ck_sched_layout.h. */

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
void ck_check_fail(CK_SCHED s, uint code, uint who, uint a, uint b, uint c, uint d)
{
    if (ck_cas(&s->check.code, 0u, code) != 0u)
        return;
    ck_store_relaxed(&s->check.words[0], who);
    ck_store_relaxed(&s->check.words[1], a);
    ck_store_relaxed(&s->check.words[2], b);
    ck_store_relaxed(&s->check.words[3], c);
    ck_store_relaxed(&s->check.words[4], d);
    ck_store_release(&s->check.ready, 1u);
}

/* The checking build: the worker count (0 until the scheduler wrote it). */
uint ck_check_workers(CK_SCHED s) { return ck_load_relaxed(&s->check.workers); }

/* The checking build: an idle or promised count after an add of `k` that
 * returned `old` stays at most the worker count. */
void ck_check_count(CK_SCHED s, uint code, uint who, uint old, uint k)
{
    uint workers = ck_check_workers(s);
    if (workers && (int)(old + k) > (int)workers)
        ck_check_fail(s, code, who, old + k, workers, 0u, 0u);
}

/* A worker counts itself idle (one unit of ck_sched.idle). */
void ck_count_idle(CK_SCHED s, uint w)
{
    uint old = ck_fetch_add_relaxed(&s->idle, 1u);
    if (CK_CHECK_BUILD)
        ck_check_count(s, CK_CHECK_IDLE_OVER, w, old, 1u);
}

/* Takes the cooperative context lock (thread 0 only). Returns 0 if it gave
 * up because the megakernel is stopping. `ch` is the channel for the
 * scheduler, which watches the host's abort flag itself; 0 for workers. */
uint ck_lock(CK_SCHED sched, CK_PTR ch)
{
    for (uint spins = 0;; ++spins) {
        if (ck_load_relaxed(&sched->lock) == 0u && ck_cas(&sched->lock, 0u, 1u) == 0u)
            return 1;
        if ((spins & CK_SPIN_CHECK) == 0 && (ck_load_relaxed(&sched->exit) || (ch != 0 && ck_ch_aborted(ch))))
            return 0;
    }
}

void ck_unlock(CK_SCHED sched) { ck_store_release(&sched->lock, 0u); }

/* Idle workers nobody has a claim on (ck_sched.idle may dip below zero for a
 * moment while a worker tries to take a unit it does not get). */
uint ck_idle_now(CK_SCHED s)
{
    int v = (int)ck_load_relaxed(&s->idle);
    return v > 0 ? (uint)v : 0u;
}

/* Takes up to k units of ck_sched.idle. Returns how many it took. */
uint ck_take_idle(CK_SCHED s, uint k)
{
    uint seen = ck_load_relaxed(&s->idle);
    while (k) {
        if ((int)seen <= 0)
            return 0;
        uint take = min(k, seen);
        uint r = ck_cas(&s->idle, seen, seen - take);
        if (r == seen)
            return take;
        seen = r;
    }
    return 0;
}

/* A fork record nobody reads any more, or CK_FORK_RECS (under the lock). */
uint ck_free_fork_record(CK_SCHED s, uint max_workers)
{
#pragma unroll 1
    for (uint f = 0; f < CK_FORK_RECS; ++f)
        if (ck_load_acquire(&ck_fork_of(s, max_workers, f)->refs) == 0u)
            return f;
    return CK_FORK_RECS;
}

/* Writes fork record f: tickets for groups first..first+k-1 of the launch in
 * `slot`, resuming at `point` with the transmit bytes at tx (under the lock;
 * the k workers were taken from ck_sched.idle). The tickets become claimable
 * with ck_fork_publish. */
void ck_fork_write(CK_SCHED s, uint max_workers, uint f, uint slot, uint launch, uint first, uint k, uint point,
                   const void *tx, uint tx_bytes, uint birth)
{
    CK_FORK_REC F = ck_fork_of(s, max_workers, f);
    uint t0 = ck_load_relaxed(&s->tickets_written);
    /* Readers look for their ticket in every record: like a sequence lock,
     * T0 is invalid while the rest changes (ck_fork_record_holds). */
    ck_store_relaxed(&F->t0, CK_F_T0_INVALID);
    ck_fence_release();
    uint txw = (tx_bytes + 3u) / 4u;
    const uchar *src = (const uchar *)tx;
    global uchar *dst = (global uchar *)F->tx;
    for (uint b = 0; b < tx_bytes; ++b)
        dst[b] = src[b];
    ck_store_relaxed(&F->slot, slot);
    ck_store_relaxed(&F->launch, launch);
    ck_store_relaxed(&F->first, first);
    ck_store_relaxed(&F->point, point);
    ck_store_relaxed(&F->tx_words, txw);
    ck_store_relaxed(&F->k, k);
    ck_store_relaxed(&F->birth, birth);
    ck_store_relaxed(&F->refs, k);
    ck_store_release(&F->t0, t0);
    ck_store_relaxed(&s->tickets_written, t0 + k);
}

/* Nonzero if fork record F holds ticket t, read consistently. */
uint ck_fork_record_holds(CK_FORK_REC F, uint t)
{
    uint a = ck_load_acquire(&F->t0);
    uint k = ck_load_relaxed(&F->k);
    ck_fence_acquire();
    uint b = ck_load_relaxed(&F->t0);
    return a == b && a != CK_F_T0_INVALID && t - a < k;
}

/* Makes k written tickets claimable by idle workers. */
void ck_fork_publish(CK_SCHED s, uint k)
{
    if (!k)
        return;
    uint old = ck_fetch_add(&s->promised, k);
    if (CK_CHECK_BUILD)
        ck_check_count(s, CK_CHECK_PROMISED_OVER, CK_CHECK_SCHEDULER, old, k);
}

/* Queues a finished launch for the scheduler. */
void ck_push_finish(CK_SCHED s, uint slot)
{
    uint i = ck_fetch_add(&s->fin_tail, 1u);
    ck_store_release(ck_fin_at(s, i & (CK_FIN_SLOTS - 1u)), slot + 1u);
}
