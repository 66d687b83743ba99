/* The persistent megakernel: its entry point, the scheduler work-group and
 * the worker loop. Placed after the stitched user code (it calls the
 * generated ck_dispatch and declares the generated ck_locals_t).
 *
 * Group with discovery ticket 0 is the scheduler; its thread 0 runs the loop
 * below. Every other discovered group is a worker: it waits on its record for
 * an assignment (launch slot, logical group id, resume point), runs the user
 * kernel through ck_dispatch, reports completion on the completion ring and
 * waits again. The scheduler owns the free list of idle workers, takes
 * launches from the channel in FIFO order, gathers groups for ordinary
 * launches (asking the cooperative kernel for kills when it must), reserves
 * idle workers for the cooperative kernel's forks when nothing else waits,
 * and reports begin/start/done of each launch to the host. */

#ifndef CK_LOCAL_POOL_BYTES
#define CK_LOCAL_POOL_BYTES 8192
#endif

typedef struct {
    CK_PTR s;
    CK_PTR ch;
    ck_ch_cursor cur;
    uint max_workers, ring_size, workers;
    uint free_n;
    uint coop_returned;  /* completions of the running cooperative launch seen */
    uint chaos_seed, rng;
} ck_sched_t;

/* Sends a device-to-host message, waiting for room (gives up on abort). */
void ck_sched_send(ck_sched_t *S, const uint *words, uint len)
{
    int slot;
    while ((slot = ck_ch_reserve(S->ch, &S->cur)) < 0)
        if (ck_ch_aborted(S->ch))
            return;
    for (uint i = 0; i < len; ++i)
        ck_ch_write(S->ch, (uint)slot, i, words[i]);
    ck_ch_publish(S->ch, &S->cur);
}

void ck_sched_send2(ck_sched_t *S, uint type, uint a, uint b)
{
    uint m[3] = {CK_MSG_HEADER(type, 3), a, b};
    ck_sched_send(S, m, 3);
}

uint ck_sched_rand(ck_sched_t *S)
{
    uint x = S->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    S->rng = x;
    return x;
}

void ck_free_push(ck_sched_t *S, uint w)
{
    ck_store_relaxed(S->s + CK_SH_FREE(S->max_workers) + S->free_n, w);
    S->free_n += 1u;
}

uint ck_free_pop(ck_sched_t *S)
{
    S->free_n -= 1u;
    return ck_load_relaxed(S->s + CK_SH_FREE(S->max_workers) + S->free_n);
}

void ck_assign(ck_sched_t *S, uint w, uint slot, uint group)
{
    CK_PTR rec = S->s + CK_SH_WORKER(w);
    ck_store_relaxed(rec + CK_W_SLOT, slot);
    ck_store_relaxed(rec + CK_W_LAUNCH, ck_load_relaxed(S->s + CK_SH_LAUNCH(slot) + CK_L_ID));
    ck_store_relaxed(rec + CK_W_GROUP, group);
    ck_store_relaxed(rec + CK_W_RESUME, 0u);
    ck_store_relaxed(rec + CK_W_STATE, 1u);
    ck_store_relaxed(rec + CK_W_TASKS, ck_load_relaxed(rec + CK_W_TASKS) + 1u);
    ck_store_release(rec + CK_W_CMD, ck_load_relaxed(rec + CK_W_CMD) + 1u);
}

/* Moves every reserved worker back to the free list (under the lock). */
void ck_revoke_locked(ck_sched_t *S)
{
    uint res = ck_load_relaxed(S->s + CK_H_RES_N);
    for (uint i = 0; i < res; ++i) {
        uint w = ck_load_relaxed(S->s + CK_SH_RES(S->max_workers) + i);
        ck_store_relaxed(S->s + CK_SH_WORKER(w) + CK_W_STATE, 0u);
        ck_free_push(S, w);
    }
    ck_store_relaxed(S->s + CK_H_RES_N, 0u);
}

void ck_finish(ck_sched_t *S, uint slot)
{
    CK_PTR L = S->s + CK_SH_LAUNCH(slot);
    uint m[8] = {CK_MSG_HEADER(CK_MSG_DONE, 8), ck_load_relaxed(L + CK_L_ID), ck_load_relaxed(L + CK_L_ERROR),
                 ck_load_relaxed(L + CK_L_KILLS), ck_load_relaxed(L + CK_L_FORKED), ck_load_relaxed(L + CK_L_RESIZES),
                 ck_load_relaxed(L + CK_L_MAX_M), ck_load_relaxed(L + CK_L_INITIAL)};
    if (ck_load_relaxed(L + CK_L_COOP)) {
        if (ck_lock(S->s, S->ch)) {
            ck_revoke_locked(S);
            ck_store_relaxed(S->s + CK_H_COOP_SLOT, 0u);
            ck_unlock(S->s);
        }
    }
    ck_store_release(L + CK_L_STATE, 0u);
    ck_sched_send(S, m, 8);
}

/* A worker finished (or was killed out of) its task. */
void ck_worker_idle(ck_sched_t *S, uint w)
{
    uint slot = ck_load_relaxed(S->s + CK_SH_WORKER(w) + CK_W_SLOT);
    CK_PTR L = S->s + CK_SH_LAUNCH(slot);
    if (ck_load_relaxed(L + CK_L_STATE) != 2u ||
        ck_load_relaxed(L + CK_L_ID) != ck_load_relaxed(S->s + CK_SH_WORKER(w) + CK_W_LAUNCH)) {
        /* A group dropped from a cooperative launch that has finished since:
         * its slot is free or holds another launch now. */
        ck_free_push(S, w);
        return;
    }
    if (!ck_load_relaxed(L + CK_L_COOP)) {
        uint next = ck_load_relaxed(L + CK_L_NEXT), groups = ck_load_relaxed(L + CK_L_GROUPS);
        if (next < groups) { /* more logical groups than workers: next wave */
            ck_store_relaxed(L + CK_L_NEXT, next + 1u);
            ck_assign(S, w, slot, next);
            return;
        }
        ck_free_push(S, w);
        if (ck_load_acquire(L + CK_L_DONE) == groups)
            ck_finish(S, slot);
        return;
    }
    ck_free_push(S, w);
    S->coop_returned += 1u;
    if (!ck_lock(S->s, S->ch))
        return;
    uint done = ck_load_relaxed(L + CK_L_FINISHED) == ck_load_relaxed(L + CK_L_M);
    ck_unlock(S->s);
    if (done)
        ck_finish(S, slot);
}

/* Tries to start the pending launch in `slot`. Returns 1 if it started. */
uint ck_try_start(ck_sched_t *S, uint slot, uint nothing_else_waits)
{
    CK_PTR s = S->s;
    CK_PTR L = s + CK_SH_LAUNCH(slot);
    if (!ck_load_relaxed(L + CK_L_BEGUN)) {
        ck_store_relaxed(L + CK_L_BEGUN, 1u);
        ck_sched_send2(S, CK_MSG_BEGIN, ck_load_relaxed(L + CK_L_ID), 0u);
    }
    uint groups = ck_load_relaxed(L + CK_L_GROUPS);
    uint coop_slot = ck_load_relaxed(s + CK_H_COOP_SLOT);
    if (ck_load_relaxed(L + CK_L_COOP)) {
        if (coop_slot || S->free_n == 0)
            return 0; /* one cooperative launch at a time; it needs one group to start */
        uint m0 = min(groups, S->free_n);
        if (S->chaos_seed)
            m0 = 1u + ck_sched_rand(S) % m0;
        ck_store_relaxed(L + CK_L_M, m0);
        ck_store_relaxed(L + CK_L_MAX_M, m0);
        ck_store_relaxed(L + CK_L_INITIAL, m0);
        ck_store_release(L + CK_L_BAR_WORD, m0);
        ck_store_relaxed(L + CK_L_RNG, (S->chaos_seed ^ (ck_load_relaxed(L + CK_L_ID) * 0x9E3779B9u)) | 1u);
        S->coop_returned = 0;
        ck_store_release(s + CK_H_COOP_SLOT, slot + 1u);
        for (uint g = 0; g < m0; ++g)
            ck_assign(S, ck_free_pop(S), slot, g);
        ck_store_relaxed(L + CK_L_STATE, 2u);
        ck_sched_send2(S, CK_MSG_STARTED, ck_load_relaxed(L + CK_L_ID), m0);
        return 1;
    }
    uint need = min(groups, S->workers);
    if (coop_slot && S->free_n < need) {
        /* Gather: take back the fork reservation, then ask for the kills
         * still missing. Groups already killed or finished whose workers
         * have not come back through the ring yet are on their way: asking
         * for them again would take twice the groups the launch needs (seen
         * on the H100: half the groups asked for, all but one taken). */
        if (!ck_lock(s, S->ch))
            return 0;
        ck_revoke_locked(S);
        CK_PTR C = s + CK_SH_LAUNCH(coop_slot - 1u);
        uint coming = ck_load_relaxed(C + CK_L_KILLS) + ck_load_relaxed(C + CK_L_FINISHED) - S->coop_returned;
        uint have = S->free_n + coming;
        ck_store_relaxed(C + CK_L_KILL_REQ, have < need ? need - have : 0u);
        ck_unlock(s);
    }
    if (S->free_n < need)
        return 0;
    if (coop_slot && ck_lock(s, S->ch)) {
        ck_store_relaxed(s + CK_SH_LAUNCH(coop_slot - 1u) + CK_L_KILL_REQ, 0u);
        ck_unlock(s);
    }
    ck_store_relaxed(L + CK_L_NEXT, need);
    for (uint g = 0; g < need; ++g)
        ck_assign(S, ck_free_pop(S), slot, g);
    ck_store_relaxed(L + CK_L_STATE, 2u);
    ck_sched_send2(S, CK_MSG_STARTED, ck_load_relaxed(L + CK_L_ID), need);
    return 1;
}

/* Gives idle workers to the cooperative launch for its next fork, when no
 * other launch waits for them (non-functional contract: fork whenever
 * workers are idle). */
void ck_reserve_for_forks(ck_sched_t *S)
{
    uint coop_slot = ck_load_relaxed(S->s + CK_H_COOP_SLOT);
    if (!coop_slot || S->free_n == 0)
        return;
    CK_PTR L = S->s + CK_SH_LAUNCH(coop_slot - 1u);
    uint m = ck_load_relaxed(L + CK_L_M), n = ck_load_relaxed(L + CK_L_GROUPS);
    uint res = ck_load_relaxed(S->s + CK_H_RES_N);
    if (m + res >= n || ck_load_relaxed(L + CK_L_KILL_REQ))
        return;
    if (!ck_lock(S->s, S->ch))
        return;
    m = ck_load_relaxed(L + CK_L_M);
    res = ck_load_relaxed(S->s + CK_H_RES_N);
    while (m + res < n && S->free_n > 0) {
        uint w = ck_free_pop(S);
        ck_store_relaxed(S->s + CK_SH_WORKER(w) + CK_W_STATE, 2u);
        ck_store_relaxed(S->s + CK_SH_RES(S->max_workers) + res, w);
        res += 1u;
    }
    ck_store_relaxed(S->s + CK_H_RES_N, res);
    ck_unlock(S->s);
}

/* Answers a STATE request: a summary, then each launch slot in use, then
 * the busy workers (slot, group), 18 to a message. */
void ck_send_state(ck_sched_t *S, uint pend_n)
{
    CK_PTR s = S->s;
    uint m[CK_CH_MSG_WORDS];
    m[0] = CK_MSG_HEADER(CK_MSG_STATE_REPLY, 9);
    m[1] = 0u; /* part: summary */
    m[2] = S->workers;
    m[3] = S->free_n;
    m[4] = ck_load_relaxed(s + CK_H_RES_N);
    m[5] = ck_load_relaxed(s + CK_H_COOP_SLOT);
    m[6] = pend_n;
    m[7] = ck_load_relaxed(s + CK_H_HEARTBEAT);
    m[8] = ck_load_relaxed(s + CK_H_RING_TAIL);
    ck_sched_send(S, m, 9);
    for (uint slot = 0; slot < CK_MAX_LAUNCHES; ++slot) {
        CK_PTR L = s + CK_SH_LAUNCH(slot);
        if (!ck_load_relaxed(L + CK_L_STATE))
            continue;
        m[0] = CK_MSG_HEADER(CK_MSG_STATE_REPLY, 12);
        m[1] = 1u; /* part: launch */
        m[2] = slot;
        m[3] = ck_load_relaxed(L + CK_L_ID);
        m[4] = ck_load_relaxed(L + CK_L_STATE);
        m[5] = ck_load_relaxed(L + CK_L_COOP);
        m[6] = ck_load_relaxed(L + CK_L_GROUPS);
        m[7] = ck_load_relaxed(L + CK_L_M);
        m[8] = ck_load_relaxed(L + CK_L_KILL_REQ);
        m[9] = ck_load_relaxed(L + CK_L_FINISHED);
        m[10] = ck_load_relaxed(L + CK_L_NEXT);
        m[11] = ck_load_relaxed(L + CK_L_DONE);
        ck_sched_send(S, m, 12);
    }
    uint n = 0;
    m[1] = 2u; /* part: busy workers as (worker, slot << 16 | group) pairs */
    for (uint w = 0; w < S->workers; ++w) {
        CK_PTR rec = s + CK_SH_WORKER(w);
        uint st = ck_load_relaxed(rec + CK_W_STATE);
        if (st != 1u)
            continue;
        m[2 + 2 * n] = w;
        m[3 + 2 * n] = (ck_load_relaxed(rec + CK_W_SLOT) << 16) | (ck_load_relaxed(rec + CK_W_GROUP) & 0xffffu);
        if (++n == 18u) {
            m[0] = CK_MSG_HEADER(CK_MSG_STATE_REPLY, 2 + 2 * n);
            ck_sched_send(S, m, 2 + 2 * n);
            n = 0;
        }
    }
    m[0] = CK_MSG_HEADER(CK_MSG_STATE_REPLY, 2 + 2 * n);
    m[1] = 3u; /* part: last busy-worker message, ends the reply */
    ck_sched_send(S, m, 2 + 2 * n);
}

void ck_scheduler(CK_PTR s, CK_PTR ch, uint workers, uint max_workers, uint ring_size, uint chaos_seed)
{
    ck_sched_t S;
    S.s = s;
    S.ch = ch;
    ck_ch_open(ch, &S.cur);
    S.max_workers = max_workers;
    S.ring_size = ring_size;
    S.workers = workers;
    S.free_n = 0;
    S.coop_returned = 0;
    S.chaos_seed = chaos_seed;
    S.rng = chaos_seed ? chaos_seed : 1u;
    for (uint w = workers; w > 0; --w) /* pop order: worker 0 first */
        ck_free_push(&S, w - 1u);
    uint pend[CK_MAX_LAUNCHES];
    uint pend_head = 0, pend_n = 0, active = 0, shutdown = 0, head = 0;
    for (uint iter = 0;; ++iter) {
        if ((iter & 63u) == 0) {
            ck_store_relaxed(s + CK_H_HEARTBEAT, iter);
            ck_store_relaxed(s + CK_H_FREE_N, S.free_n);
            if (ck_ch_aborted(ch))
                break;
        }
        /* Completions. */
        for (;;) {
            CK_PTR e = s + CK_SH_RING(max_workers) + (head & (ring_size - 1u));
            uint v = ck_load_acquire(e);
            if (!v)
                break;
            ck_store_relaxed(e, 0u);
            head += 1u;
            ck_worker_idle(&S, v - 1u);
        }
        /* One host message. */
        int in = ck_ch_poll(ch, &S.cur);
        if (in >= 0) {
            uint w0 = ck_ch_read(ch, (uint)in, 0);
            uint type = CK_MSG_TYPE(w0);
            uint consume = 1;
            if (type == CK_MSG_LAUNCH) {
                uint slot = 0;
                while (slot < CK_MAX_LAUNCHES && ck_load_relaxed(s + CK_SH_LAUNCH(slot) + CK_L_STATE))
                    ++slot;
                /* No free slot: leave the message in the ring until a launch ends. */
                consume = slot < CK_MAX_LAUNCHES;
            }
            if (type == CK_MSG_LAUNCH && consume) {
                uint slot = 0;
                while (ck_load_relaxed(s + CK_SH_LAUNCH(slot) + CK_L_STATE))
                    ++slot;
                CK_PTR L = s + CK_SH_LAUNCH(slot);
                for (uint f = 0; f < CK_L_ARGS; ++f)
                    ck_store_relaxed(L + f, 0u);
                ck_store_relaxed(L + CK_L_ID, ck_ch_read(ch, (uint)in, 1));
                ck_store_relaxed(L + CK_L_KERNEL, ck_ch_read(ch, (uint)in, 2));
                ck_store_relaxed(L + CK_L_COOP, ck_ch_read(ch, (uint)in, 3) & 1u);
                ck_store_relaxed(L + CK_L_GROUPS, ck_ch_read(ch, (uint)in, 4));
                uint nw = min(ck_ch_read(ch, (uint)in, 5), 2u * CK_MAX_ARG_WORDS);
                for (uint i = 0; i < nw; ++i)
                    ck_store_relaxed(L + CK_L_ARGS + i, ck_ch_read(ch, (uint)in, CK_LAUNCH_HEADER_WORDS + i));
                ck_store_release(L + CK_L_STATE, 1u);
                pend[(pend_head + pend_n) % CK_MAX_LAUNCHES] = slot;
                pend_n += 1u;
                active += 1u;
            } else if (type == CK_MSG_SHUTDOWN) {
                shutdown = 1;
            } else if (type == CK_MSG_STATE) {
                ck_send_state(&S, pend_n);
            }
            if (consume)
                ck_ch_consume(ch, &S.cur);
        }
        /* Start launches in arrival order. */
        while (pend_n && ck_try_start(&S, pend[pend_head], pend_n == 1u)) {
            pend_head = (pend_head + 1u) % CK_MAX_LAUNCHES;
            pend_n -= 1u;
        }
        if (pend_n == 0)
            ck_reserve_for_forks(&S);
        /* Count launches still in a slot. */
        if (shutdown) {
            active = 0;
            for (uint slot = 0; slot < CK_MAX_LAUNCHES; ++slot)
                active += ck_load_relaxed(s + CK_SH_LAUNCH(slot) + CK_L_STATE) != 0u;
            if (active == 0)
                break;
        }
    }
    ck_store_release(s + CK_H_EXIT, 1u);
    ck_sched_send2(&S, CK_MSG_BYE, 0u, 0u);
}

void ck_worker(CK_PTR s, CK_PTR ch, global uchar *arena, uint w, uint max_workers, uint ring_size,
               uint chaos, uint naive, local uint *scratch, local uchar *pool, local ck_locals_t *locals)
{
    CK_PTR rec = s + CK_SH_WORKER(w);
    uint last = 0;
    for (;;) {
        if (get_local_id(0) == 0) {
            uint cmd = last, leave = 0;
            for (uint spins = 0;; ++spins) {
                cmd = ck_load_relaxed(rec + CK_W_CMD); /* relaxed spin, one acquire fence */
                if (cmd != last) {
                    ck_fence_acq_rel();
                    break;
                }
                if ((spins & CK_SPIN_CHECK) == 0 && ck_load_relaxed(s + CK_H_EXIT)) {
                    leave = 1;
                    break;
                }
            }
            scratch[0] = leave;
            scratch[1] = cmd;
            scratch[2] = ck_load_relaxed(rec + CK_W_SLOT);
            scratch[3] = ck_load_relaxed(rec + CK_W_GROUP);
            scratch[4] = ck_load_relaxed(rec + CK_W_RESUME);
            scratch[5] = ck_load_relaxed(rec + CK_W_LAUNCH);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint leave = scratch[0];
        last = scratch[1];
        uint slot = scratch[2], group = scratch[3], resume = scratch[4], launch = scratch[5];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (leave)
            return;
        ck_fence_acq_rel(); /* see everything written before the assignment */
        CK_PTR L = s + CK_SH_LAUNCH(slot);
        ck_wg_t ctx;
        ctx.sched = s;
        ctx.ch = ch;
        ctx.scratch = scratch;
        ctx.max_workers = max_workers;
        ctx.slot = slot;
        ctx.worker = w;
        ctx.group = group;
        ctx.groups = ck_load_relaxed(L + CK_L_GROUPS);
        ctx.coop = ck_load_relaxed(L + CK_L_COOP);
        ctx.killed = 0;
        ctx.chaos = chaos;
        ctx.naive = naive;
        ctx.phase = 0;
        ctx.launch = launch;
        ck_dispatch(&ctx, ck_load_relaxed(L + CK_L_KERNEL), resume, (global const void *)(s + CK_SH_TX(max_workers, w)),
                    arena, (global const ulong *)(L + CK_L_ARGS), pool, locals);
        ck_fence_acq_rel();
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0) {
            if (!ctx.coop) {
                ck_fetch_add(L + CK_L_DONE, 1u);
            } else if (!ctx.killed && ck_lock(s, 0)) {
                ck_store_relaxed(L + CK_L_FINISHED, ck_load_relaxed(L + CK_L_FINISHED) + 1u);
                ck_unlock(s);
            }
            ck_store_relaxed(rec + CK_W_STATE, 0u);
            uint i = ck_fetch_add(s + CK_H_RING_TAIL, 1u);
            ck_store_release(s + CK_SH_RING(max_workers) + (i & (ring_size - 1u)), w + 1u);
        }
        /* Close the thread-0 stretch with a barrier: PoCL 3.1 was seen to run
         * thread-0-guarded code on every work-item when such a stretch ends a
         * loop body without one (apps/README.md has the reproducer). */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

kernel void ck_megakernel(CK_PTR sched, CK_PTR ch, CK_PTR poll, global uchar *arena, uint max_workers,
                          uint ring_size, uint chaos_seed, uint naive)
{
    local uint scratch[8];
    local ck_locals_t locals;
    local uchar pool[CK_LOCAL_POOL_BYTES] __attribute__((aligned(16)));
    uint n;
    int ticket = ck_discover(poll, ch, scratch, &n);
    if (ticket < 0)
        return;
    if (ticket == 0) {
        if (get_local_id(0) == 0)
            ck_scheduler(sched, ch, n - 1u, max_workers, ring_size, chaos_seed);
        return;
    }
    ck_worker(sched, ch, arena, (uint)ticket - 1u, max_workers, ring_size, chaos_seed != 0u, naive, scratch, pool,
              &locals);
}
