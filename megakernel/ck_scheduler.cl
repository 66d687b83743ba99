/* The persistent megakernel: its entry point, the scheduler work-group and
 * the worker loop. Placed after the stitched user code (it calls the
 * generated ck_dispatch and declares the generated ck_locals_t).
 *
 * Group with discovery ticket 0 is the scheduler; its thread 0 runs the
 * policy loop below. Every other discovered group is a worker that finds its
 * own work (mechanism, ck_sched_layout.h): it takes logical groups of
 * published ordinary launches from their claim words, or a fork ticket that a
 * cooperative kernel (or the start of one) promised to an idle worker, runs
 * the group through ck_dispatch, counts its completion on the launch and
 * looks again. The scheduler decides (policy): it takes launches from the
 * channel in FIFO order, publishes ordinary launches, starts a cooperative
 * launch on the idle workers, asks the cooperative kernel for as many kills
 * as the published launches lack workers, retires finished launches and
 * reports begin/start/done of each launch to the host, with one bus round
 * trip per pass for all its messages. */

#ifndef CK_LOCAL_POOL_BYTES
#define CK_LOCAL_POOL_BYTES 8192
#endif

#if CK_MAX_LAUNCHES != 32
#error "ck_sched_t.free_slots is a 32-bit mask of the launch slots"
#endif

/* A megakernel built without tasks (ck_context_options.tasks 0) folds the
 * task code away: it costs the other paths no registers. */
#ifndef CK_TASKS_BUILD
#define CK_TASKS_BUILD 1
#endif

#define CK_SCHED_MSGS_PER_PASS 16u /* host messages handled per scheduler pass */
#define CK_FIRST_START_PASSES (1u << 22) /* passes the first cooperative launch waits for every worker */
#define CK_CX_START_PASSES (1u << 16) /* replay: passes a start waits for its recorded M */

/* The scheduler's state lives in local memory (ck_megakernel gives it to
 * group 0), not in registers: the megakernel is one kernel, so the
 * scheduler's live values count against every worker's register budget,
 * and so against how many groups are co-resident. */
typedef struct {
    CK_PTR s;
    CK_PTR ch;
    ck_ch_cursor cur;
    uint max_workers, workers;
    uint chaos_seed;
    CK_PTR cx;                /* chaos record/replay area, or 0             */
    uint cx_wait;             /* replay: passes spent waiting for idle workers */
    uint fin_head;            /* finish ring: next entry to read            */
    uint dirty;               /* messages committed, not yet flushed        */
    uint q[CK_MAX_LAUNCHES];  /* published launches with groups left, in order */
    uint q_n;
    uint demand;              /* their groups not yet taken                 */
    uint task_demand;         /* of which task groups not yet claimed       */
    uint id[CK_MAX_LAUNCHES]; /* per slot: host id, group count, started    */
    uint groups[CK_MAX_LAUNCHES];
    uint started[CK_MAX_LAUNCHES];
    uint coop[CK_MAX_LAUNCHES];
    uint free_slots;          /* bit i set: launch slot i is free (the scheduler alone takes and frees slots) */
    uint coop_started;        /* cooperative launches started so far (chaos keys them by it) */
    uint task_taken;          /* tasks: CK_H_TASK_TAKEN when last read        */
    /* The pass loop's own values live here too. Held in registers, they
     * were live across every step of a pass, and a register cap that lets
     * a compute unit hold the most groups (32 on the H100) spilled them to
     * the stack anyway (ptxas: 40 bytes stored, 64 loaded, all in the
     * scheduler's code; docs/RESULTS.md, 326b075). */
    uint pend[CK_MAX_LAUNCHES]; /* received launches not yet started, in arrival order */
    uint pend_head, pend_n;
    uint pass;                /* passes so far (the heartbeat)               */
    uint shutdown;            /* the host asked the megakernel to stop       */
    uint ptok, posted;        /* this pass: the task poller's token, the host's posted count */
    uint taken, more;         /* this pass: messages taken; 1 if more may wait */
    uint msg[CK_CH_TAGGED];   /* tagged words of the host message in hand    */
} ck_sched_t;

/* Writes a device-to-host message; the pass's flush publishes it. */
void ck_sched_send(local ck_sched_t *S, const uint *words, uint len)
{
    int slot;
    while ((slot = ck_ch_reserve(S->ch, &S->cur)) < 0) {
        if (S->dirty) { /* the host cannot make room for what it cannot see */
            ck_ch_flush(S->ch, &S->cur);
            S->dirty = 0;
        }
        if (ck_ch_aborted(S->ch))
            return;
    }
    for (uint i = 0; i < len; ++i)
        ck_ch_write(S->ch, (uint)slot, i, words[i]);
    ck_ch_commit(&S->cur);
    S->dirty = 1;
}

void ck_sched_send2(local ck_sched_t *S, uint type, uint a, uint b)
{
    uint m[3] = {CK_MSG_HEADER(type, 3), a, b};
    ck_sched_send(S, m, 3);
}

void ck_sched_flush(local ck_sched_t *S)
{
    if (S->dirty) {
        ck_ch_flush(S->ch, &S->cur);
        S->dirty = 0;
    }
}

/* Groups an ordinary launch gets at once: the first wave. */
uint ck_sched_wave(local ck_sched_t *S, uint slot) { return min(S->groups[slot], S->workers); }

/* Rewrites the launch queue that workers read (stale reads are harmless). */
void ck_sched_write_queue(local ck_sched_t *S)
{
    for (uint i = 0; i < S->q_n; ++i)
        ck_store_relaxed(S->s + CK_H_Q + i, S->q[i]);
    ck_store_release(S->s + CK_H_Q_N, S->q_n);
}

void ck_sched_unqueue(local ck_sched_t *S, uint slot)
{
    uint j = 0;
    for (uint i = 0; i < S->q_n; ++i)
        if (S->q[i] != slot)
            S->q[j++] = S->q[i];
    if (j != S->q_n) {
        S->q_n = j;
        ck_sched_write_queue(S);
    }
}

void ck_sched_send_started(local ck_sched_t *S, uint slot, uint initial)
{
    if (!S->started[slot]) {
        S->started[slot] = 1;
        ck_sched_send2(S, CK_MSG_STARTED, S->id[slot], initial);
    }
}

/* A launch whose last group has left: report it and free its slot. */
void ck_sched_finish(local ck_sched_t *S, uint slot)
{
    CK_PTR L = S->s + CK_SH_LAUNCH(slot);
    uint m[8] = {CK_MSG_HEADER(CK_MSG_DONE, 8), S->id[slot], 0u, 0u, 0u, 0u, 0u, 0u};
    if (!S->coop[slot]) {
        /* An ordinary launch has no kills, forks, resizes or device error:
         * nothing to read back (each device-memory read is a round trip
         * of the scheduler's one thread, on every launch). */
        ck_sched_unqueue(S, slot);
        ck_sched_send_started(S, slot, ck_sched_wave(S, slot));
    } else {
        ck_store_relaxed(L + CK_L_KILL_REQ, 0u);
        ck_store_release(S->s + CK_H_COOP_SLOT, 0u);
        m[2] = ck_load_relaxed(L + CK_L_ERROR);
        m[3] = ck_load_relaxed(L + CK_L_KILLS);
        m[4] = ck_load_relaxed(L + CK_L_FORKED);
        m[5] = ck_load_relaxed(L + CK_L_RESIZES);
        m[6] = ck_load_relaxed(L + CK_L_MAX_M);
        m[7] = ck_load_relaxed(L + CK_L_INITIAL);
    }
    ck_store_release(L + CK_L_STATE, CK_SLOT_FREE);
    S->free_slots |= 1u << slot;
    ck_sched_send(S, m, 8);
}

/* Tries to start the pending launch in `slot`. Returns 1 if it started. */
uint ck_sched_start(local ck_sched_t *S, uint slot)
{
    CK_PTR s = S->s;
    CK_PTR L = s + CK_SH_LAUNCH(slot);
    if (!S->coop[slot]) {
        /* Published: idle workers take its groups from now on. One fence
         * orders the descriptor, the done count and the queue before the
         * claim word and the queue length (a release for both; each of its
         * own cost a wait for every store before it). */
        ck_store_relaxed(L + CK_L_DONE, 0u);
        ck_store_relaxed(L + CK_L_STATE, CK_SLOT_RUNNING);
        S->q[S->q_n] = slot;
        ck_store_relaxed(s + CK_H_Q + S->q_n, slot);
        S->q_n += 1u;
        ck_fence_release();
        ck_store_relaxed(L + CK_L_CLAIM, CK_CLAIM_BIAS + S->groups[slot]);
        ck_store_relaxed(s + CK_H_Q_N, S->q_n);
        ck_sched_send2(S, CK_MSG_BEGIN, S->id[slot], 0u);
        return 1;
    }
    if (ck_load_relaxed(L + CK_L_STATE) == CK_SLOT_RECEIVED) {
        ck_store_relaxed(L + CK_L_STATE, CK_SLOT_WAITING);
        ck_sched_send2(S, CK_MSG_BEGIN, S->id[slot], 0u);
    }
    /* One cooperative launch at a time; it needs one idle worker to start.
     * The first waits until every worker has counted itself idle, so that
     * it gets them all, but only for CK_FIRST_START_PASSES passes, and the
     * passes go on meanwhile (messages are read, the heartbeat moves): a
     * worker that starts late must not stop the scheduler. */
    uint idle = ck_idle_now(s);
    if (ck_load_relaxed(s + CK_H_COOP_SLOT) || idle == 0u ||
        (!S->coop_started && idle < S->workers && S->pass < CK_FIRST_START_PASSES))
        return 0;
    /* Chaos: the initial M is keyed by the launch; a replay takes the
     * recorded one and waits a bounded number of passes for its workers. */
    uint cx_k1 = ck_cx_kg(CK_CX_START, CK_CX_NO_GROUP), cx_rec = 0u, cx_replay = 0u;
    if (S->chaos_seed && ck_cx_replaying(S->cx)) {
        cx_replay = 1u;
        cx_rec = ck_cx_lookup(S->cx, S->coop_started + 1u, cx_k1, 0u, 0u, 0u);
        if (min(cx_rec, S->groups[slot]) > idle && S->cx_wait++ < CK_CX_START_PASSES)
            return 0;
    }
    if (!ck_lock(s, S->ch))
        return 0;
    uint f = ck_free_fork_record(s, S->max_workers);
    uint m0 = min(S->groups[slot], idle);
    if (S->chaos_seed)
        m0 = cx_replay ? max(min(cx_rec, m0), 1u)
                       : 1u + ck_cx_draw(S->chaos_seed, S->coop_started + 1u, cx_k1, 0u, 0u, 0u) % m0;
    uint k = f < CK_FORK_RECS ? ck_take_idle(s, m0) : 0u;
    if (k == 0) {
        ck_unlock(s);
        return 0;
    }
    ck_store_relaxed(L + CK_L_M, k);
    ck_sys_store_relaxed(S->ch + CK_CH_COOP_M, k); /* host trace */
    ck_store_relaxed(L + CK_L_MAX_M, k);
    ck_store_relaxed(L + CK_L_INITIAL, k);
    ck_store_relaxed(L + CK_L_LIVE, k);
    ck_store_relaxed(L + CK_L_KILL_REQ, 0u);
    S->coop_started += 1u; /* cooperative launches start one at a time, in arrival order */
    ck_store_relaxed(L + CK_L_CX_KEY, S->coop_started);
    ck_reset_arrivals(L + CK_L_BAR_COUNT, 0u);
    ck_store_relaxed(L + CK_L_BAR_WORD, k);
    ck_fork_write(s, S->max_workers, f, slot, S->id[slot], 0u, k, 0u, 0, 0u, 0u);
    ck_store_relaxed(L + CK_L_STATE, CK_SLOT_RUNNING);
    ck_store_release(s + CK_H_COOP_SLOT, slot + 1u);
    ck_unlock(s);
    ck_fork_publish(s, k);
    if (S->chaos_seed) { /* recorded before the launch can finish: the scheduler retires it */
        S->cx_wait = 0;
        ck_cx_record(S->cx, S->coop_started, cx_k1, 0u, 0u, k, 0u, k, cx_replay && k != cx_rec, cx_rec);
    }
    ck_sched_send_started(S, slot, k);
    return 1;
}

/* A published ticket's device record (its claim word is written apart,
 * after a release fence). */
void ck_task_record(CK_PTR R, uint ticket, uint desc)
{
    ck_store_relaxed(R + CK_T_DONE, 0u);
    ck_store_relaxed(R + CK_T_TICKET, ticket);
    ck_store_relaxed(R + CK_T_DESC, desc);
}

/* The whole ticket number of token `tok`'s cursor: the ticket nearest the
 * visible count with those low thirty bits. The count read may lag the
 * cursor by the adds still on their way, never by 2^29. */
uint ck_tok_cursor(CK_PTR s, uint tok)
{
    uint vis = ck_load_relaxed(s + CK_H_TASK_VISIBLE);
    uint d = ((tok >> 2) - vis) & 0x3fffffffu;
    return vis + d - (d >= 0x20000000u ? 0x40000000u : 0u);
}

/* Tasks (runtime/task.c): makes newly written tickets visible to the
 * workers. Only the holder of the poller token (CK_H_TASK_POLLER) does it:
 * an idle worker that polls the table without pause while it has nothing
 * to do, or the scheduler in a pass where no worker holds the token (every
 * worker busy). So the table is read by one agent at a time, and a ticket
 * becomes visible one bus round trip after the host wrote it instead of
 * after a scheduler pass.
 *
 * Reads four tickets with one batched load of host memory (state and
 * descriptor, one 64-bit word each, written by the host as one value); for
 * the run whose state says "written", each ticket's device record is
 * written, then, after a release fence, its claim word (below). The
 * publisher's system-scope fence (ck_task_publish) makes these loads
 * acquire loads, so what the host wrote before a state (the arguments) is
 * visible to every worker that later claims a group of it. (Measured on
 * the H100: sixteen tickets read through a stack array, then a system
 * fence and a second read for the descriptors, took 18 us a pass.) Returns
 * the tickets published. */
uint ck_task_publish_batch(CK_PTR s, CK_PTR ch, uint max_workers, uint v, uint limit, uint *groups,
                           uint sched, uint *held)
{
    uint e0 = v & (CK_TASK_SLOTS - 1u);
    uint base = e0 & ~3u; /* four pairs, 32-byte aligned */
    uint first = e0 - base;
    uint lim = min(4u - first, limit - v);
    ulong w[4];
    ck_sys_load4x64_relaxed((CK_PTR64)(ch + CK_CH_TASK_STATE) + base, w);
    uint n = first; /* pairs before the first ticket are not ours */
    #pragma unroll
    for (uint i = 0; i < 4u; ++i) {
        uint d = (uint)(w[i] >> 32);
        uint after_msg = (d & CK_TASK_DESC_AFTER_MSG) != 0u && !sched;
        if (n == i && i - first < lim && (uint)w[i] == 2u * (v + i - first) + 1u && after_msg)
            *held = 1u; /* the scheduler's to publish, after the messages before it */
        if (n == i && i - first < lim && (uint)w[i] == 2u * (v + i - first) + 1u && !after_msg) {
            n = i + 1u;
            CK_PTR R = s + CK_SH_TASK(max_workers, base + i);
            d &= ~CK_TASK_DESC_AFTER_MSG;
            ck_task_record(R, v + i - first, d);
            *groups += CK_TASK_DESC_GROUPS(d);
        }
    }
    if (n == first)
        return 0u;
    /* The claim words, from the descriptors still at hand, after a release
     * fence: a claimer that scans from a head a table's lap behind may
     * decrement one before the ticket is visible, and its acquire then sees
     * the record this batch wrote. */
    ck_fence_release();
    #pragma unroll
    for (uint i = 0; i < 4u; ++i)
        if (i >= first && i < n)
            ck_store_relaxed(s + CK_SH_TASK(max_workers, base + i) + CK_T_CLAIM,
                             CK_CLAIM_BIAS + CK_TASK_DESC_GROUPS((uint)(w[i] >> 32)));
    return n - first;
}

/* The scheduler, holding the poller token: publishes the written tickets
 * below the pass's posted count S->posted (at most sixteen). The records
 * and claim words come first; one system-scope fence then makes the table
 * loads acquire loads (the host wrote the table) and orders the records
 * before the visible count, instead of an acquiring reread of the state by
 * every claimer (one more bus round trip per task) and a release store per
 * word. `v0` is the holder's cursor
 * (the token's). Holders alone write VISIBLE, by adds (an express take's
 * add may still be on its way when the next holder's lands), and GROUPS;
 * the token's acquire ordered the previous holder's writes before these
 * reads, and the caller's release of the token (with cursor v0 + the count
 * returned) orders these writes before the next holder's reads.
 * Each batch writes its tickets' claim words (ck_task_publish_batch): the
 * descriptors are at hand there, where a loop over the published tickets
 * here read each one back from device memory, one trip after another (a
 * burst of empty tasks: 1.13-1.17 -> 1.25-1.30 M/s on an H200 without that
 * loop, docs/RESULTS.md). A poller (an idle worker) publishes from the
 * pairs its poll round read instead (ck_poll_publish). */
uint ck_task_publish(local ck_sched_t *S, uint v0, uint sched, uint *held)
{
    /* The limit (the pass's posted count) and the scheduler's pointers are
     * read from its local state where they are used, through a volatile
     * view: kept in registers across the batches' loop, beside a batch's
     * four pairs, they were what a register cap of 32 spilled in the
     * megakernel with tasks (ptxas; docs/RESULTS.md, 2026-11-29). */
    volatile local ck_sched_t *V = S;
    CK_PTR s = V->s;
    /* The group count is the holder's own: read before the table, so that
     * no trip to device memory sits between the fence and the stores. */
    uint v = v0;
    uint groups = ck_load_relaxed(s + CK_H_TASK_GROUPS); /* + the groups of the tickets published */
    #pragma unroll 1
    for (uint b = 0; b < 4u && (int)(V->posted - v) > 0; ++b) {
        uint n = ck_task_publish_batch(V->s, V->ch, V->max_workers, v, V->posted, &groups, sched, held);
        v += n;
        if (n == 0u || (v & 3u) != 0u)
            break; /* a ticket not yet written, or the batch ended early */
    }
    if (v == v0)
        return 0u;
    s = V->s;
    ck_sys_fence_acq_rel();
    ck_store_relaxed(s + CK_H_TASK_GROUPS, groups);
    ck_fetch_add_relaxed(s + CK_H_TASK_VISIBLE, v - v0);
    return v - v0;
}

/* The scheduler's share: while no worker polls (all busy), it publishes
 * what the host's hint S->posted says is written; and a ticket spawned
 * after a message the scheduler had not yet taken (the poller left the
 * token at CK_POLLER_SCHED for it), once this pass has taken every pending
 * message. S->ptok is the token as read before this pass read the
 * messages; `drained` says the pass took them all. */
void ck_sched_tasks(local ck_sched_t *S, uint drained)
{
    CK_PTR s = S->s;
    uint held = 0u;
    uint ptok = S->ptok;
    if (CK_TOK_STATE(ptok) == CK_POLLER_SCHED) {
        if (!drained)
            return;
        uint v0 = ck_tok_cursor(s, ptok);
        uint n = ck_task_publish(S, v0, 1u, &held);
        ck_store_release(S->s + CK_H_TASK_POLLER, CK_TOK(v0 + n, 0u));
        return;
    }
    uint t = ck_load_relaxed(s + CK_H_TASK_POLLER);
    if (CK_TOK_STATE(t) != 0u)
        return;
    uint v0 = ck_tok_cursor(s, t);
    if ((int)(S->posted - v0) <= 0 || ck_cas(s + CK_H_TASK_POLLER, t, t | 2u) != t)
        return;
    uint n = ck_task_publish(S, v0, drained, &held);
    ck_store_release(S->s + CK_H_TASK_POLLER, CK_TOK(v0 + n, 0u));
}

/* Groups of the launch in `slot` not yet claimed. */
uint ck_sched_left(local ck_sched_t *S, uint slot)
{
    uint c = ck_load_relaxed(S->s + CK_SH_LAUNCH(slot) + CK_L_CLAIM);
    return c > CK_CLAIM_BIAS ? c - CK_CLAIM_BIAS : 0u;
}

/* Published launches: report those whose first wave has been taken, drop
 * the fully taken ones from the queue, and count the groups still wanted. */
void ck_sched_track(local ck_sched_t *S)
{
    uint j = 0, demand = 0;
    for (uint i = 0; i < S->q_n; ++i) {
        uint slot = S->q[i];
        uint left = ck_sched_left(S, slot);
        if (S->groups[slot] - left >= ck_sched_wave(S, slot))
            ck_sched_send_started(S, slot, ck_sched_wave(S, slot));
        if (left) {
            S->q[j++] = slot;
            demand += left;
        }
    }
    if (j != S->q_n) {
        S->q_n = j;
        ck_sched_write_queue(S);
    }
    /* Task groups not yet claimed count like launch groups (the workers'
     * counter is read only while some are outstanding; both counts move on
     * while they are read, so a difference below zero counts as none). */
    if (CK_TASKS_BUILD) {
        uint task_groups = ck_load_relaxed(S->s + CK_H_TASK_GROUPS);
        if (S->task_taken != task_groups)
            S->task_taken = ck_load_relaxed(S->s + CK_H_TASK_TAKEN);
        S->task_demand = (int)(task_groups - S->task_taken) > 0 ? task_groups - S->task_taken : 0u;
        demand += S->task_demand;
    }
    demand = min(demand, S->workers);
    if (demand != S->demand) {
        S->demand = demand;
        ck_store_relaxed(S->s + CK_H_DEMAND, demand);
    }
}

/* The kills the published launches still need: their groups not yet
 * claimed, less the idle workers and the killed groups on their way back.
 * The supply's counts are read first, and the claim words after them: a
 * killed worker claims its next group before it counts itself back
 * (ck_find_work), so a count that no longer has it on its way comes with
 * its claim in view. Read the other way round (the demand of the pass's
 * start against counts read later), a group that came back and took the
 * launch's group at once looked missing, and one more group was killed
 * (seen on an H200: 2 kills for an ordinary launch of 1 group,
 * tests/megakernel/test_semantics.c). */
uint ck_sched_kills_wanted(local ck_sched_t *S)
{
    CK_PTR s = S->s;
    uint back = ck_load_acquire(s + CK_H_KILLED_BACK);
    uint coming = ck_load_relaxed(s + CK_H_KILLS_TOTAL) - back;
    uint supply = ck_idle_now(s) + coming;
    uint demand = S->task_demand;
    for (uint i = 0; i < S->q_n; ++i)
        demand += ck_sched_left(S, S->q[i]);
    demand = min(demand, S->workers);
    return demand > supply ? demand - supply : 0u;
}

/* Policy: ask the cooperative kernel for the workers the published launches
 * lack (ck_sched_kills_wanted). A group that takes a kill counts it under
 * the lock, so the request is worked out again under the lock before it is
 * written: a request from counts read outside could ask again for a kill
 * just taken. */
void ck_sched_gather(local ck_sched_t *S)
{
    CK_PTR s = S->s;
    uint coop = ck_load_relaxed(s + CK_H_COOP_SLOT);
    if (!coop)
        return;
    CK_PTR C = s + CK_SH_LAUNCH(coop - 1u);
    uint cur = ck_load_relaxed(C + CK_L_KILL_REQ);
    if (S->demand == 0u && cur == 0u)
        return;
    if (ck_sched_kills_wanted(S) == cur || !ck_lock(s, S->ch))
        return;
    uint want = ck_sched_kills_wanted(S);
    if (want != ck_load_relaxed(C + CK_L_KILL_REQ))
        ck_store_relaxed(C + CK_L_KILL_REQ, want);
    ck_unlock(s);
}

/* Takes one LAUNCH message (its tagged words already in S->msg: header, id,
 * CK_LAUNCH_KIND, CK_LAUNCH_SIZE) into a free slot; its argument words, if
 * any, are read from the channel now (ck_ch_next acquired them).
 * Returns the slot, or CK_MAX_LAUNCHES if every slot is in use (the message
 * stays in the ring). */
uint ck_sched_receive_launch(local ck_sched_t *S, uint in)
{
    local const uint *w = S->msg;
    if (!S->free_slots)
        return CK_MAX_LAUNCHES;
    uint slot = 31u - clz(S->free_slots & (0u - S->free_slots)); /* the lowest free slot */
    S->free_slots &= ~(1u << slot);
    CK_PTR L = S->s + CK_SH_LAUNCH(slot);
    #pragma unroll 1
    for (uint f = 0; f < CK_L_ARGS; ++f)
        ck_store_relaxed(L + f, 0u);
    uint nw = min(CK_LAUNCH_NW(w[3]), 2u * CK_MAX_ARG_WORDS);
    if (nw)
        ck_ch_copy_body(S->ch, in, L + CK_L_ARGS, nw);
    uint done = CK_LAUNCH_DONE(w[2]);
    S->id[slot] = w[1];
    S->groups[slot] = CK_LAUNCH_GROUPS(w[3]);
    S->started[slot] = 0;
    S->coop[slot] = CK_LAUNCH_COOP(w[2]);
    ck_store_relaxed(L + CK_L_ID, w[1]);
    ck_store_relaxed(L + CK_L_KERNEL, CK_LAUNCH_KERNEL(w[2]));
    ck_store_relaxed(L + CK_L_COOP, CK_LAUNCH_COOP(w[2]));
    ck_store_relaxed(L + CK_L_GROUPS, CK_LAUNCH_GROUPS(w[3]));
    ck_store_relaxed(L + CK_L_DONE_SLOT, done == CK_LAUNCH_NO_DONE ? CK_CH_NO_DONE_SLOT : done);
    /* Only the scheduler reads the state; workers see the descriptor
     * through the claim word's or the fork tickets' release. */
    ck_store_relaxed(L + CK_L_STATE, CK_SLOT_RECEIVED);
    return slot;
}

void ck_scheduler(CK_PTR s, CK_PTR ch, uint workers, uint max_workers, uint chaos_seed, CK_PTR cx,
                  local ck_sched_t *S)
{
    S->s = s;
    S->ch = ch;
    ck_ch_open(ch, &S->cur);
    S->max_workers = max_workers;
    S->workers = workers;
    S->chaos_seed = chaos_seed;
    S->cx = cx;
    S->cx_wait = 0;
    S->fin_head = 0;
    S->dirty = 0;
    S->q_n = 0;
    S->demand = 0;
    S->task_demand = 0;
    S->free_slots = 0xffffffffu;
    S->coop_started = 0;
    S->task_taken = 0;
    S->pend_head = 0;
    S->pend_n = 0;
    S->shutdown = 0;
    if (CK_CHECK_BUILD)
        ck_store_relaxed(s + CK_H_CHECK_WORKERS, workers);
    for (S->pass = 0;; S->pass += 1u) {
        if ((S->pass & 63u) == 0) {
            ck_store_relaxed(s + CK_H_HEARTBEAT, S->pass);
            if (ck_ch_aborted(ch))
                break;
        }
        /* Finished launches (before the messages: they free launch slots). */
        for (;;) {
            CK_PTR e = s + CK_H_FIN + (S->fin_head & (CK_FIN_SLOTS - 1u));
            uint v = ck_load_acquire(e);
            if (!v)
                break;
            ck_store_relaxed(e, 0u);
            S->fin_head += 1u;
            ck_sched_finish(S, v - 1u);
        }
        /* Host messages: every one posted (up to a bound), each found and
         * its first words read in one trip across the bus (its slot's tags
         * say it is there, ck_ch_next); the task hint on the head's line is
         * read before them, and only while no worker polls the task table.
         * A launch is started (published, in arrival order) before the next
         * slot is read, so that read's trip does not delay it. */
        S->ptok = CK_TASKS_BUILD ? ck_load_acquire(s + CK_H_TASK_POLLER) : 1u;
        S->posted = CK_TOK_STATE(S->ptok) != 1u ? ck_sys_load_relaxed(ch + CK_CH_TASK_POSTED) : 0u;
        S->taken = 0;
        for (;;) {
            while (S->pend_n && ck_sched_start(S, S->pend[S->pend_head])) {
                S->pend_head = (S->pend_head + 1u) % CK_MAX_LAUNCHES;
                S->pend_n -= 1u;
            }
            if (S->taken == CK_SCHED_MSGS_PER_PASS) {
                S->more = 1u; /* the bound: more may wait */
                break;
            }
            uint w[CK_CH_TAGGED];
            S->more = ck_ch_next(ch, &S->cur, w);
            if (!S->more)
                break;
            for (uint i = 0; i < CK_CH_TAGGED; ++i)
                S->msg[i] = w[i];
            uint type = CK_MSG_TYPE(w[0]);
            if (type == CK_MSG_LAUNCH) {
                uint slot = ck_sched_receive_launch(S, ck_ch_slot(&S->cur));
                if (slot == CK_MAX_LAUNCHES)
                    break; /* no free slot: the message waits until a launch ends */
                S->pend[(S->pend_head + S->pend_n) % CK_MAX_LAUNCHES] = slot;
                S->pend_n += 1u;
            } else if (type == CK_MSG_SHUTDOWN) {
                S->shutdown = 1;
            }
            ck_ch_take(&S->cur);
            S->taken += 1u;
        }
        /* The taken slots go back to the host after the launches are
         * published (its release waits for every store before it). */
        if (S->taken)
            ck_ch_release_taken(ch, &S->cur);
        if (CK_TASKS_BUILD)
            ck_sched_tasks(S, !S->more); /* drained: the next slot was empty */
        ck_sched_track(S);
        ck_sched_gather(S);
        ck_sched_flush(S);
        if (S->shutdown) {
            uint active = 0;
            #pragma unroll 1
            for (uint slot = 0; slot < CK_MAX_LAUNCHES; ++slot)
                active += ck_load_relaxed(s + CK_SH_LAUNCH(slot) + CK_L_STATE) != CK_SLOT_FREE;
            /* Tasks the host wrote before asking to stop run to the end too
             * (the hint is read again: a poller may have kept it unread).
             * Without tasks nothing is loaded: loads here, even folded into
             * a false condition, cost the megakernel 56 registers against 48
             * on the H100 (measured, 2375 co-resident groups against 2639). */
            if (active == 0 && !CK_TASKS_BUILD)
                break;
            uint visible = ck_load_relaxed(s + CK_H_TASK_VISIBLE);
            if (active == 0 && ((int)(ck_sys_load_relaxed(ch + CK_CH_TASK_POSTED) - visible) <= 0 &&
                                 ck_load_relaxed(s + CK_H_TASK_FINISHED) == visible))
                break;
        }
    }
    ck_store_release(s + CK_H_EXIT, 1u);
    ck_sched_send2(S, CK_MSG_BYE, 0u, 0u);
    ck_sched_flush(S);
}

/* ------------------------------------------------------------- workers */

#define CK_WORK_LEAVE 0u
#define CK_WORK_GROUP 1u   /* a logical group of an ordinary launch */
#define CK_WORK_FORK  2u   /* a fork ticket of the cooperative launch */
#define CK_WORK_TASK  3u   /* a group of a task of the task table */
#define CK_WORK_POLL  4u   /* the poller's group reads the task table (ck_task_poll_round) */
#define CK_POLL_ROUNDS 64u /* rounds of the table's poll between two calls of ck_find_work */
#define CK_POLL_PAIRS  16u /* pairs a poll round reads: tickets v .. v + 15 (ck_poll_publish) */
#define CK_POLL_TOOK  1u   /* a task the poll round took: its descriptor and ticket came with it */
#define CK_POLL_ARGS  2u   /* ... and all its argument words (on its express line) */
#define CK_TASK_SCAN  64u  /* tickets a worker looks at per attempt */
#define CK_TASK_SPREAD 32u /* claimers start among this many newest tickets (a power of two) */
/* An idle worker that is not hot, between looks. With the scheduler's state
 * out of the registers (40 against 48 on the H100) 3167 workers are
 * co-resident instead of 2639, and their looks slowed the launch path: a 1-group
 * launch took 11.9-12.4 us with 200 ns, 10.0-10.3 us with 2000 ns (ckbench,
 * docs/RESULTS.md). A fork's promised workers and a free cluster token are
 * noticed at most this much later. A megakernel built with tasks has fewer
 * workers (56 registers, 2375), and a burst of tasks wants its resting
 * workers soon: 2000 ns cost it 5-8 % of its empty tasks per second. */
#define CK_IDLE_PAUSE_NS (CK_TASKS_BUILD ? 200u : 2000u)

/* Takes one logical group of a published ordinary launch: of the launch in
 * slot `hint` - 1 if that one still has a group (a hot worker just saw it
 * have one), else the oldest launch that has one. Returns slot + 1 and the
 * group, or 0. (The hint saves the queue's two dependent loads: on the
 * H100 a launch round trip 12.0 -> 11.0-11.4 us, docs/RESULTS.md.) */
uint ck_claim_group(CK_PTR s, uint hint, uint *group)
{
    if (hint) {
        /* As below: above the bias the decrement took a group of the launch
         * the slot holds now, whatever the worker saw. */
        uint slot = hint - 1u;
        uint v = ck_fetch_sub(s + CK_SH_LAUNCH(slot) + CK_L_CLAIM, 1u);
        if (v > CK_CLAIM_BIAS) {
            *group = ck_load_relaxed(s + CK_SH_LAUNCH(slot) + CK_L_GROUPS) - (v - CK_CLAIM_BIAS);
            return slot + 1u;
        }
    }
    uint n = min(ck_load_acquire(s + CK_H_Q_N), CK_MAX_LAUNCHES);
    for (uint i = 0; i < n; ++i) {
        uint slot = ck_load_relaxed(s + CK_H_Q + i) & (CK_MAX_LAUNCHES - 1u);
        CK_PTR claim = s + CK_SH_LAUNCH(slot) + CK_L_CLAIM;
        if (ck_load_relaxed(claim) <= CK_CLAIM_BIAS)
            continue;
        /* Above the bias the decrement took a group of the launch the slot
         * holds now (even if the queue entry was stale): that launch cannot
         * end without it, so its descriptor stays put while we read it. */
        uint v = ck_fetch_sub(claim, 1u);
        if (v > CK_CLAIM_BIAS) {
            *group = ck_load_relaxed(s + CK_SH_LAUNCH(slot) + CK_L_GROUPS) - (v - CK_CLAIM_BIAS);
            return slot + 1u;
        }
    }
    return 0;
}

/* Takes one group of a visible task and moves the head (the oldest ticket
 * that may have a group left) past the tickets it finds without one while
 * it scans from the head. With a nonzero `spread` the scan starts
 * `spread` & (CK_TASK_SPREAD - 1) tickets below the newest visible one
 * (when that many are visible past the head), so the idle workers of a
 * burst start at different claim words among the tickets published last,
 * which are the ones likely to have groups left, instead of all walking
 * from the head over taken ones. Measured on the H100 (docs/RESULTS.md):
 * with the scan from the head after any failed attempt, the tickets of a
 * batch started one after another about 1.1 us apart, however many
 * workers were idle (0.85-0.94 M empty tasks/s); from the newest, 1.11-1.14
 * M/s. With `spread` 0 (the poller, and a worker that failed often:
 * ck_find_work) the scan starts at the head, so groups left on older
 * tickets are found, and the head moves, whichever workers are idle. At
 * most CK_TASK_SCAN tickets a scan. Returns the table entry + 1 and the
 * group, or 0.
 *
 * A ticket below the visible count has its record written, so a claim word
 * at or below the bias means that ticket has no group left (the record is
 * rewritten only for ticket + CK_TASK_SLOTS, once the ticket is done); above
 * the bias the decrement took a group of the ticket the record holds now,
 * which the caller reads from it. */
uint ck_claim_task(CK_PTR s, uint max_workers, uint spread, uint *group)
{
    if (!CK_TASKS_BUILD)
        return 0;
    uint vis = ck_load_acquire(s + CK_H_TASK_VISIBLE);
    uint head = ck_load_relaxed(s + CK_H_TASK_HEAD);
    uint off = spread & (CK_TASK_SPREAD - 1u);
    uint t = spread && (int)(vis - head) > (int)off ? vis - 1u - off : head;
    for (uint n = 0; (int)(vis - t) > 0 && n < CK_TASK_SCAN; ++n, ++t) {
        uint e = t & (CK_TASK_SLOTS - 1u);
        CK_PTR R = s + CK_SH_TASK(max_workers, e);
        if (ck_load_relaxed(R + CK_T_CLAIM) > CK_CLAIM_BIAS) {
            uint c = ck_fetch_sub(R + CK_T_CLAIM, 1u);
            if (c > CK_CLAIM_BIAS) {
                /* What the host wrote before the state (arguments, buffers)
                 * is visible to the group after this acquire and the group
                 * barrier that follows: the publisher acquired the state at
                 * system scope before it wrote the claim word. */
                ck_fetch_add_relaxed(s + CK_H_TASK_TAKEN, 1u); /* a count: its acquire held up the start */
                *group = CK_TASK_DESC_GROUPS(ck_load_relaxed(R + CK_T_DESC)) - (c - CK_CLAIM_BIAS);
                return e + 1u;
            }
        }
        if (t == head) { /* a hint: losing the race to another worker is fine */
            ck_cas_relaxed(s + CK_H_TASK_HEAD, t, t + 1u);
            head = t + 1u;
        }
    }
    return 0;
}

/* Nonzero if a task seems to have a group left (plain loads). */
uint ck_task_possible(CK_PTR s)
{
    if (!CK_TASKS_BUILD)
        return 0;
    return (int)(ck_load_relaxed(s + CK_H_TASK_VISIBLE) - ck_load_relaxed(s + CK_H_TASK_HEAD)) > 0;
}

/* Slot + 1 of a published launch that seems to have a group left, or 0
 * (plain loads). */
uint ck_claim_possible(CK_PTR s)
{
    uint n = min(ck_load_relaxed(s + CK_H_Q_N), CK_MAX_LAUNCHES);
    for (uint i = 0; i < n; ++i) {
        uint slot = ck_load_relaxed(s + CK_H_Q + i) & (CK_MAX_LAUNCHES - 1u);
        if (ck_load_relaxed(s + CK_SH_LAUNCH(slot) + CK_L_CLAIM) > CK_CLAIM_BIAS)
            return slot + 1u;
    }
    return 0;
}

/* The fork record that holds ticket t (ticket ranges of records are
 * disjoint; t's own record stays put until t's holder lets it go). */
uint ck_find_fork_record(CK_PTR s, uint max_workers, uint t)
{
    for (uint spins = 0;; ++spins) {
        #pragma unroll 1
        for (uint f = 0; f < CK_FORK_RECS; ++f) {
            CK_PTR F = s + CK_SH_FORK(max_workers, f);
            if (ck_fork_record_holds(F, t))
                return f;
        }
        if ((spins & CK_SPIN_CHECK) == 0 && ck_load_relaxed(s + CK_H_EXIT))
            return CK_FORK_RECS;
        if (CK_CHECK_BUILD && spins == CK_CHECK_PASSES)
            ck_check_fail(s, CK_CHECK_TICKET_LOST, CK_CHECK_SCHEDULER, t, ck_load_relaxed(s + CK_H_FT_END),
                          ck_load_relaxed(s + CK_H_FT_NEXT), 0u);
    }
}

/* Thread 0's idle state, kept between calls of ck_find_work in the
 * group's local memory (ck_worker), not in registers: with tasks, these
 * words live across the whole worker loop, the user kernels included, and
 * held in registers they were what a cap of 32 spilled (docs/DISPATCH.md,
 * "Registers"). Words below CK_FW_WORDS are cleared when the worker leaves
 * idleness. */
#define CK_FW_HOT     0u /* holds its cluster's hot token                        */
#define CK_FW_POLLER  1u /* the poller token as held (with its cursor), or 0     */
#define CK_FW_BACKOFF 2u
#define CK_FW_PUBLISH 3u /* a burst: the poller publishes and polls, claims nothing */
#define CK_FW_WORDS   4u
#define CK_FW_IDLE    4u /* counted in CK_H_IDLE (or holding its unit)           */
#define CK_FW_KILLED  5u /* back from a kill, not yet busy or counted idle       */
#define CK_FW_STATE_WORDS 6u
/* The worker leaves idleness: its tokens were let go. */
void ck_fw_clear(local uint *st)
{
    for (uint i = 0; i < CK_FW_WORDS; ++i)
        st[i] = 0u;
}

/* The poller (thread 0, holding the token at cursor v) publishes the run of
 * written tickets from v among the CK_POLL_PAIRS pairs its group's poll
 * round read (pairs[i]: ticket v + i's state and descriptor, each loaded
 * with acquire at system scope), with no further read of the table: the
 * records, a release fence, the claim words (a claimer that scans from a
 * head a table's lap behind may decrement one before the ticket is
 * visible, and its acquire then sees the record), then one system-scope
 * fence before the group and visible counts, as ck_task_publish. A whole
 * window published: more may be written, so the poller keeps the token
 * (its cursor moved) and polls again at once while the others claim.
 * Fewer, or a ticket after a message (the scheduler's): the poller keeps a
 * group (usually 0) of the oldest if an idle unit can be had, and the
 * token goes back with the cursor, or over to the scheduler.
 * Before, thread 0 published a burst from ck_find_work by reading the table
 * again, four pairs a trip, the trips one after another: four trips a window
 * of sixteen, which bounded a burst to about 1.3 M tasks/s on an H200.
 * Returns CK_WORK_TASK with the kept group (out: entry, group), CK_WORK_POLL
 * with the cursor in out[0] (the token still held), or CK_WORK_GROUP. */
uint ck_poll_publish(CK_PTR s, uint max_workers, uint v, local ulong *pairs, uint np, uint tokw,
                     local uint *st, uint *out)
{
    uint groups = ck_load_relaxed(s + CK_H_TASK_GROUPS); /* the holder's own count */
    uint n = 0u, held = 0u;
    #pragma unroll 1
    for (; n < np; ++n) {
        ulong p = pairs[n];
        uint d = (uint)(p >> 32);
        if ((uint)p != 2u * (v + n) + 1u)
            break; /* not written yet */
        if (d & CK_TASK_DESC_AFTER_MSG) {
            held = 1u; /* the scheduler's to publish, after the messages before it */
            break;
        }
        CK_PTR R = s + CK_SH_TASK(max_workers, (v + n) & (CK_TASK_SLOTS - 1u));
        ck_task_record(R, v + n, d);
        groups += CK_TASK_DESC_GROUPS(d);
    }
    uint keep = 0u, kept = 0u;
    if (n) {
        ck_fence_release();
        #pragma unroll 1
        for (uint i = 0; i < n; ++i)
            ck_store_relaxed(s + CK_SH_TASK(max_workers, (v + i) & (CK_TASK_SLOTS - 1u)) + CK_T_CLAIM,
                             CK_CLAIM_BIAS + CK_TASK_DESC_GROUPS((uint)(pairs[i] >> 32)));
        if (n < np || held) {
            if ((int)ck_fetch_add_relaxed(s + CK_H_IDLE, 0u - 1u) > 0)
                keep = 1u;
            else
                ck_fetch_add_relaxed(s + CK_H_IDLE, 1u); /* the scheduler has a claim on every idle worker */
        }
        if (keep) {
            /* A claim like any other (a claimer from a lagging head may have
             * taken a group of the oldest ticket already), before the
             * tickets are visible, so usually group 0. */
            CK_PTR R = s + CK_SH_TASK(max_workers, v & (CK_TASK_SLOTS - 1u));
            uint c = ck_fetch_sub(R + CK_T_CLAIM, 1u);
            if (c > CK_CLAIM_BIAS) {
                kept = CK_TASK_DESC_GROUPS((uint)(pairs[0] >> 32)) - (c - CK_CLAIM_BIAS);
            } else {
                keep = 0u;
                ck_fetch_add_relaxed(s + CK_H_IDLE, 1u);
            }
        }
        ck_sys_fence_acq_rel();
        ck_store_relaxed(s + CK_H_TASK_GROUPS, groups - keep);
        ck_fetch_add_relaxed(s + CK_H_TASK_VISIBLE, n);
    }
    if (n == np && !held) {
        /* Still held: the token's own cursor moves (only its holder writes
         * it; ck_task_poll_decide's relaxed add continues from it). */
        st[CK_FW_POLLER] = CK_TOK(v + n, 1u);
        st[CK_FW_PUBLISH] = 1u;
        ck_store_relaxed(s + CK_H_TASK_POLLER, st[CK_FW_POLLER]);
        out[0] = v + n;
        return CK_WORK_POLL;
    }
    ck_store_release(s + CK_H_TASK_POLLER, CK_TOK(v + n, held ? CK_POLLER_SCHED : 0u));
    st[CK_FW_POLLER] = 0u;
    st[CK_FW_PUBLISH] = 0u;
    if (!keep)
        return CK_WORK_GROUP;
    if (st[CK_FW_HOT])
        ck_store_relaxed(s + tokw, 0u);
    ck_fw_clear(st);
    st[CK_FW_IDLE] = 0u;
    out[0] = v & (CK_TASK_SLOTS - 1u);
    out[1] = kept;
    out[2] = 0u;
    out[3] = 0u;
    return CK_WORK_TASK;
}

/* Thread 0: the next group this worker runs. A worker back from a group
 * first looks for an ordinary group without counting itself idle; an idle
 * worker takes a promised fork ticket first, else a unit of CK_H_IDLE and
 * then an ordinary group or a task group. out: slot (a task: its table
 * entry), group, resume point, launch id, fork record. `st` is thread 0's
 * state kept between calls (CK_FW_*; CK_FW_POLLER the token as held, with
 * its cursor; CK_FW_KILLED counts this worker back from a kill once it has
 * decided): the worker returns CK_WORK_POLL, with the ticket to read in
 * out[0] and in out[2] whether a burst is on (the round reads the whole
 * window), while it holds the poller token, and its group then polls the
 * task table (ck_task_poll_round) before it calls again; any other return
 * leaves `st` zero (every token let go). */
uint ck_find_work(CK_PTR s, CK_PTR ch, uint max_workers, uint w, uint *out, local uint *st)
{
    if (!st[CK_FW_IDLE]) {
        /* After an abort no group starts: what had not started by then is
         * cut short, and its wait says so (the exit word shares its line
         * with the queue length the claim reads next). */
        if (ck_load_relaxed(s + CK_H_EXIT)) {
            ck_fw_clear(st);
            return CK_WORK_LEAVE;
        }
        /* A killed worker stops counting as "on its way back" only once it
         * is busy again or counted idle: the scheduler then never sees too
         * few workers and asks for kills it does not need. */
        uint kind = CK_WORK_GROUP;
        uint slot1 = ck_claim_group(s, 0u, &out[1]);
        if (!slot1 && (slot1 = ck_claim_task(s, max_workers, w, &out[1])))
            kind = CK_WORK_TASK;
        if (!slot1) {
            ck_count_idle(s, w);
            st[CK_FW_IDLE] = 1u;
        }
        if (st[CK_FW_KILLED]) {
            st[CK_FW_KILLED] = 0u;
            ck_fetch_add(s + CK_H_KILLED_BACK, 1u);
        }
        if (slot1) {
            out[0] = slot1 - 1u;
            return kind;
        }
    }
    /* Only hot idle workers (one per cluster, holding its token) look for
     * launch groups and tasks without pause, unless more groups are wanted
     * than there are clusters: then every idle worker looks. So a single
     * group is raced for by a few dozen workers, not by thousands, and the
     * others keep off the memory system. Every idle worker watches the
     * promised count: a fork needs as many workers as it promised. */
    uint clusters = CK_HOT_CLUSTERS(max_workers);
    uint tokw = CK_H_HOT + (w & (clusters - 1u)) * CK_LINE; /* a mask, not a division (any cluster count works) */
    uint backoff = st[CK_FW_BACKOFF], poller = st[CK_FW_POLLER], hot = st[CK_FW_HOT];
    uint publishing = st[CK_FW_PUBLISH];
    for (uint spins = 0;; ++spins) {
        if (!hot && ck_load_relaxed(s + tokw) == 0u && ck_cas_relaxed(s + tokw, 0u, 1u) == 0u)
            hot = 1;
        uint looking = hot || ck_load_relaxed(s + CK_H_DEMAND) > clusters;
        /* One hot worker at a time holds the poller token; its group reads
         * the task table (ck_task_poll_round) between this function's
         * looks at forks, launches and tasks already visible. */
        if (CK_TASKS_BUILD && hot && !poller) {
            uint t = ck_load_relaxed(s + CK_H_TASK_POLLER);
            if (CK_TOK_STATE(t) == 0u && ck_cas(s + CK_H_TASK_POLLER, t, t | 1u) == t) {
                poller = t | 1u; /* the token as held: nonzero, with the cursor */
                publishing = 0;
            }
        }
        if ((int)ck_load_relaxed(s + CK_H_PROMISED) > 0) {
            if ((int)ck_fetch_sub(s + CK_H_PROMISED, 1u) > 0) {
                if (poller)
                    ck_store_release(s + CK_H_TASK_POLLER, poller & ~3u);
                if (hot)
                    ck_store_relaxed(s + tokw, 0u);
                ck_fw_clear(st);
                st[CK_FW_IDLE] = 0u;
                uint t = ck_fetch_add(s + CK_H_FT_NEXT, 1u);
                if (CK_CHECK_BUILD) {
                    /* A unit of the promised count stands for a written ticket. */
                    uint end = ck_load_acquire(s + CK_H_FT_END);
                    if ((int)(t - end) >= 0)
                        ck_check_fail(s, CK_CHECK_TICKET_UNWRITTEN, w, t, end, 0u, 0u);
                }
                uint f = ck_find_fork_record(s, max_workers, t);
                if (f == CK_FORK_RECS)
                    return CK_WORK_LEAVE; /* aborting */
                CK_PTR F = s + CK_SH_FORK(max_workers, f);
                out[0] = ck_load_relaxed(F + CK_F_SLOT);
                out[1] = ck_load_relaxed(F + CK_F_FIRST) + (t - ck_load_relaxed(F + CK_F_T0));
                out[2] = ck_load_relaxed(F + CK_F_POINT);
                out[3] = ck_load_relaxed(F + CK_F_LAUNCH);
                out[4] = f;
                return CK_WORK_FORK;
            }
            ck_fetch_add(s + CK_H_PROMISED, 1u); /* someone else's: give it back */
        }
        /* Ordinary launches first, in arrival order, then tasks. The launch
         * the worker saw with a group left is tried first; not in a
         * megakernel built with tasks, where keeping the hint cost 8
         * registers (64 against 56, 2111 task workers against 2375;
         * measured). A poller that is publishing a burst leaves the claims
         * to the others. */
        uint hint = 0u;
        if (looking && !publishing && ((hint = ck_claim_possible(s)) || ck_task_possible(s))) {
            if ((int)ck_fetch_add_relaxed(s + CK_H_IDLE, 0u - 1u) > 0) {
                uint kind = CK_WORK_TASK;
                /* A task scan from the newest tickets, at a spread that
                 * changes with each attempt; from the head for the poller
                 * and after four failed attempts in a row (back-off 15 and
                 * more), so older tickets' groups are not left behind. */
                uint slot1 = ck_claim_group(s, CK_TASKS_BUILD ? 0u : hint, &out[1]);
                if (!slot1)
                    slot1 = ck_claim_task(s, max_workers, poller || (backoff & 8u) ? 0u : w + backoff, &out[1]);
                else
                    kind = CK_WORK_GROUP;
                if (slot1) {
                    if (poller)
                        ck_store_release(s + CK_H_TASK_POLLER, poller & ~3u);
                    if (hot)
                        ck_store_relaxed(s + tokw, 0u);
                    ck_fw_clear(st);
                    st[CK_FW_IDLE] = 0u;
                    out[0] = slot1 - 1u;
                    return kind;
                }
            }
            ck_count_idle(s, w); /* no unit, or no group: stay idle */
            /* Lost the race: back off before the next try (up to 256 reads,
             * doubling), so that a burst of tasks or groups is not served
             * through one atomic word that every idle worker hammers; a
             * promised fork ticket ends the wait at once. */
            backoff = poller ? 0u : min(2u * backoff + 1u, 255u); /* the poller goes on polling */
            for (uint i = 0; i < backoff && (int)ck_load_relaxed(s + CK_H_PROMISED) <= 0; ++i)
                ;
        }
        if ((spins & CK_SPIN_CHECK) == 0 && ck_load_relaxed(s + CK_H_EXIT)) {
            if (poller)
                ck_store_release(s + CK_H_TASK_POLLER, poller & ~3u);
            ck_fw_clear(st);
            return CK_WORK_LEAVE;
        }
        /* The poller's group polls, and in a burst publishes from what it
         * read (ck_poll_publish: `publishing` then keeps the poller off
         * the claims above, the other workers claim). */
        if (CK_TASKS_BUILD && poller) {
            st[CK_FW_HOT] = hot;
            st[CK_FW_POLLER] = poller;
            st[CK_FW_BACKOFF] = 0u;
            st[CK_FW_PUBLISH] = publishing;
            out[0] = ck_tok_cursor(s, poller); /* the ticket to read */
            out[2] = publishing;               /* the round reads the whole window */
            return CK_WORK_POLL;
        }
        if (!looking)
            ck_pause_ns(CK_IDLE_PAUSE_NS);
    }
}

/* Thread 0 of the poller's group, after the group's batched read of the
 * table (ck_task_poll_round): line[0..15] the express line of ticket v's
 * entry, line[16 + i] ticket v + i's pair (acquire) for i below np (2, or
 * CK_POLL_PAIRS while a burst lasts).
 * Express: ticket v alone is written, is not the scheduler's (after a
 * message), and every word of its express line carries its tag: then the
 * poller takes an idle unit, writes the ticket's record with group 0 taken,
 * makes it visible, lets the token go and runs group 0 with the arguments
 * it already holds (no second read of the table; no system fence for a
 * task of one group: the acquire load of the pair ordered the host's writes
 * before whatever the group reads next; more than CK_CH_XL_ARGS argument
 * words are read from the entry's tail as before). Tickets v and v + 1
 * both written in a round of two pairs: a burst, so the next round reads
 * the whole window (the publish flag in `st`). Otherwise the written run
 * is published from the pairs the round read (ck_poll_publish), and the
 * poller keeps a group of the oldest when no more wait. Returns
 * CK_WORK_TASK (out: entry, group, then CK_POLL_TOOK, with CK_POLL_ARGS if
 * its arguments are all on the line, and the ticket, for an express take),
 * CK_WORK_POLL to poll again (out[0] the ticket to read), or CK_WORK_GROUP
 * to go back to ck_find_work (other work may be there). */
uint ck_task_poll_decide(CK_PTR s, CK_PTR ch, uint max_workers, uint w, uint v, local ulong *line, uint np,
                         local uint *st, uint *out)
{
    uint e = v & (CK_TASK_SLOTS - 1u);
    uint clusters = CK_HOT_CLUSTERS(max_workers);
    uint tokw = CK_H_HOT + (w & (clusters - 1u)) * CK_LINE;
    ulong p0 = line[16];
    uint desc = (uint)(p0 >> 32);
    out[0] = v;
    if ((uint)p0 != 2u * v + 1u) {
        st[CK_FW_PUBLISH] = 0u; /* a burst is over: the poller may claim again */
        return CK_WORK_POLL; /* ticket v not written yet */
    }
    uint nw = CK_TASK_DESC_NW(desc), groups = CK_TASK_DESC_GROUPS(desc);
    uint tag = v + 1u;
    /* Ticket v alone (not v + 1 too), not the scheduler's, and its line
     * whole: the words on the line carry v's tag. */
    uint alone = (desc & CK_TASK_DESC_AFTER_MSG) == 0u && (uint)line[17] != 2u * v + 3u &&
                 (uint)(line[0] >> 32) == tag && (uint)line[0] == desc;
    #pragma unroll 1
    for (uint i = 1; i <= min(nw, CK_CH_XL_ARGS) && alone; ++i)
        alone = (uint)(line[i] >> 32) == tag;
    if (alone) {
        /* This worker runs group 0 whatever the idle count says, so its
         * unit's decrement is not waited for: the token's release (or the
         * system fence) below waits for it and the record's stores at once,
         * one trip to device memory instead of two in a row
         * (docs/RESULTS.md, 17c8560). If the scheduler had taken every
         * unit for promised forks (the count goes below zero here), the
         * worker borrows one: the count stays one short until the worker
         * counts itself idle again after the group, and a promised fork
         * waits for that or for another idle worker (ck_find_work).
         * The unit and the head's move are relaxed (a count and a hint;
         * the next holder needs only the cursor the token carries).
         * With acquire-release forms each waited for the stores before it:
         * device timestamps on an H200 put 0.6 us on the unit and 0.9 us on
         * the rest of this branch; relaxed, an empty task's round trip went
         * from 5.7 to 4.7-4.8 us (docs/RESULTS.md, e8ff7eb). */
        ck_fetch_add_relaxed(s + CK_H_IDLE, 0u - 1u);
        CK_PTR R = s + CK_SH_TASK(max_workers, e);
        ck_task_record(R, v, desc);
        ck_store_relaxed(R + CK_T_CLAIM, CK_CLAIM_BIAS + groups - 1u); /* group 0 is this worker's */
        if (groups > 1u) {
            /* Others claim the rest and read the arguments from host
             * memory: as ck_task_publish, the system fence makes the
             * table's loads acquire loads and orders the record and
             * the group count before the visible count. */
            ck_store_relaxed(s + CK_H_TASK_GROUPS, ck_load_relaxed(s + CK_H_TASK_GROUPS) + groups - 1u);
            ck_sys_fence_acq_rel();
        }
        ck_fetch_add_relaxed(s + CK_H_TASK_VISIBLE, 1u);
        /* A ticket of one group has none left: the head moves past it
         * (a hint, as in ck_claim_task). Left behind, it had the next
         * poller's rounds and every hot worker see a task possible and
         * go looking for it: 7.7-7.9 us for an empty task against
         * 7.2-7.4 with the move (H200, docs/RESULTS.md). */
        if (groups == 1u)
            ck_cas_relaxed(s + CK_H_TASK_HEAD, v, v + 1u);
        /* The token goes back with the cursor past v, by a relaxed add
         * (the token held CK_TOK(v, 1)): no fence waits here for the
         * stores above. The next holder reads only the cursor; a claimer
         * that sees the new count before this record finds the claim word
         * at or below the bias either way and takes nothing; with more
         * groups the system fence above ordered the record first, and an
         * add continues the release sequence of the token. */
        ck_fetch_add_relaxed(s + CK_H_TASK_POLLER, CK_TOK(1u, 0u) - 1u);
        if (st[CK_FW_HOT])
            ck_store_relaxed(s + tokw, 0u);
        ck_fw_clear(st);
        st[CK_FW_IDLE] = 0u;
        out[0] = e;
        out[1] = 0u;
        out[2] = CK_POLL_TOOK | (nw <= CK_CH_XL_ARGS ? CK_POLL_ARGS : 0u);
        out[3] = v;
        return CK_WORK_TASK;
    }
    if (np < CK_POLL_PAIRS && (desc & CK_TASK_DESC_AFTER_MSG) == 0u && (uint)line[17] == 2u * v + 3u) {
        st[CK_FW_PUBLISH] = 1u; /* a burst: the next round reads the whole window, at once */
        return CK_WORK_POLL;
    }
    return ck_poll_publish(s, max_workers, v, line + CK_CH_XL_WORDS / 2u, np, tokw, st, out);
}

/* The poller's group polls the task table: its first CK_CH_XL_WORDS / 2
 * work-items read ticket v's express line (one 128-byte line, a single
 * trip across the bus; tools/dispatch_path_cuda.cu measured a line read by
 * one thread in two pieces 2 us slower), two more the pairs of tickets v
 * and v + 1 (while a burst lasts, `wide`: the sixteen of v .. v + 15), all
 * at once; another work-item meanwhile looks whether other work waits (a
 * promised fork, a launch group, a visible task, the end), and thread 0
 * then decides (ck_task_poll_decide). Rounds repeat while nothing is
 * written and nothing else waits, and while a burst is being published
 * (the cursor moves by a window a round) unless a fork, the end or the
 * round limit asks for the worker. On return scratch holds the work as
 * ck_worker reads it (any kind but CK_WORK_TASK: go back to ck_find_work).
 * A group with fewer work-items than words reads them in turns.
 *
 * The two-pair round while idle keeps the poll as small as it was; a round
 * that read all sixteen pairs every time measured the same (H200,
 * docs/RESULTS.md, f7d0948), so the narrow one is kept for the bus's sake.
 *
 * Every work-item's word comes from the same load instruction (an acquire
 * at system scope; only the address differs), and the look for other work
 * is made by a work-item of another warp where the group has one. A warp
 * whose work-items took different branches to different loads, and whose
 * thread 0 then walked a chain of dependent loads in device memory, made a
 * round several trips long: an empty task's round trip went from 7.3-7.9
 * to 5.8-5.9 us with one load and the look elsewhere, and the megakernel
 * from 64 registers to 56 (H200, docs/RESULTS.md). */
#define CK_SCR_POLL_OTHER 6u /* a primitives' broadcast word, free between kernels */
#define CK_XL_START 17u /* xline: a task group 0's start time (the poll's word 17 is free then) */
void ck_task_poll_round(CK_PTR s, CK_PTR ch, uint max_workers, uint w, uint v, uint wide, local uint *scratch,
                        local ulong *line, local uint *st)
{
    uint lid = get_local_id(0);
    CK_PTR64 pairs = (CK_PTR64)(ch + CK_CH_TASK_STATE);
    for (uint round = 0;; ++round) {
        CK_PTR64 xl = (CK_PTR64)(ch + CK_CH_TASK_ENTRY + (v & (CK_TASK_SLOTS - 1u)) * CK_CH_TE_WORDS);
        uint np = wide ? CK_POLL_PAIRS : 2u;
        for (uint i = lid; i < CK_CH_XL_WORDS / 2u + np; i += get_local_size(0)) {
            /* Words 0-15: the line; 16 on: the pairs of tickets v, v + 1, ... */
            uint pair = i - CK_CH_XL_WORDS / 2u;
            line[i] = ck_sys_load64_acquire(i < CK_CH_XL_WORDS / 2u ? xl + i
                                                                    : pairs + ((v + pair) & (CK_TASK_SLOTS - 1u)));
        }
        /* Bit 1: something asks for this worker (a promised fork, the end,
         * or enough rounds); bit 0: other work is visible. A poller that is
         * publishing a burst goes on for bit 1 only. */
        if (lid == (get_local_size(0) > 32u ? 32u : 0u))
            scratch[CK_SCR_POLL_OTHER] =
                ((int)ck_load_relaxed(s + CK_H_PROMISED) > 0 || ck_load_relaxed(s + CK_H_EXIT) ||
                 round >= CK_POLL_ROUNDS) * 2u +
                (ck_claim_possible(s) || ck_task_possible(s));
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0u) {
            uint other = scratch[CK_SCR_POLL_OTHER];
            uint out[4] = {0u, 0u, 0u, 0u};
            uint kind = ck_task_poll_decide(s, ch, max_workers, w, v, line, np, st, out);
            if (kind == CK_WORK_POLL && (other & (st[CK_FW_PUBLISH] ? 2u : 3u)))
                kind = CK_WORK_GROUP;
            scratch[0] = kind;
            scratch[1] = out[0];
            scratch[2] = out[1];
            scratch[3] = st[CK_FW_PUBLISH]; /* the next round's width */
            scratch[4] = out[3];
            scratch[5] = out[2];
            scratch[CK_SCR_BAR_KNOWN] = 0u;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint kind = scratch[0];
        v = scratch[1]; /* the cursor: moved by a publication */
        wide = scratch[3];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (kind != CK_WORK_POLL)
            return;
    }
}

void ck_worker(CK_PTR s, CK_PTR ch, global uchar *arena, uint w, uint max_workers,
               uint chaos, uint naive, CK_PTR cx, local uint *scratch, local uchar *pool, local ck_locals_t *locals,
               local ulong *xline, local uint *fw)
{
    CK_PTR rec = s + CK_SH_WORKER(w);
    uint birth = 0;            /* thread 0: chaos incarnation of a forked group */
    if (get_local_id(0) == 0) {
        for (uint i = 0; i < CK_FW_STATE_WORDS; ++i)
            fw[i] = 0u; /* thread 0's state between groups (CK_FW_*) */
        ck_fetch_add_relaxed(s + CK_H_ARRIVED, 1u); /* a count for the diagnostics: this worker started */
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* a thread-0 stretch ends with a barrier (PoCL 3.1) */
    for (;;) {
        if (get_local_id(0) == 0) {
            uint out[5] = {0u, 0u, 0u, 0u, 0u};
            uint kind = ck_find_work(s, ch, max_workers, w, out, fw);
            scratch[0] = kind;
            scratch[1] = out[0];
            scratch[2] = out[1];
            scratch[3] = out[2];
            scratch[4] = out[3];
            scratch[5] = out[4];
            scratch[CK_SCR_BAR_KNOWN] = 0u; /* a new group has seen no barrier word */
        }
        ck_group_barrier_device(); /* a task claim's acquire covers the group */
        uint kind = scratch[0], slot = scratch[1], group = scratch[2], resume = scratch[3];
        uint launch = scratch[4], f = scratch[5];
        uint xticket = 0u; /* an express task's ticket (ck_task_poll_decide) */
        barrier(CLK_LOCAL_MEM_FENCE);
        if (kind == CK_WORK_LEAVE)
            return;
        /* The poller's group reads the task table; a task it took comes
         * back as CK_WORK_TASK (f: CK_POLL_TOOK, CK_POLL_ARGS), anything
         * else sends thread 0 back to ck_find_work. */
        if (CK_TASKS_BUILD && kind == CK_WORK_POLL) {
            ck_task_poll_round(s, ch, max_workers, w, slot, resume, scratch, xline, fw);
            kind = scratch[0];
            slot = scratch[1];
            group = scratch[2];
            resume = 0u;
            launch = 0u;
            xticket = scratch[4];
            f = scratch[5];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (kind != CK_WORK_TASK)
                continue;
        }
        uint task = CK_TASKS_BUILD && kind == CK_WORK_TASK;
        /* A task the poll round took: its descriptor and ticket came with
         * the poll, and its arguments too if they fit the line. */
        uint fromround = task && (f & CK_POLL_TOOK) != 0u;
        uint xpress = task && (f & CK_POLL_ARGS) != 0u;
        CK_PTR L = s + CK_SH_LAUNCH(task ? 0u : slot);
        CK_PTR R = s + CK_SH_TASK(max_workers, task ? slot : 0u);
        CK_PTR tx = s + CK_SH_TX(max_workers, w);
        CK_PTR F = s + CK_SH_FORK(max_workers, f);
        /* A task group's descriptor (the claim acquired it; an express
         * task's came with the poll). */
        uint desc = task ? (fromround ? (uint)xline[0] : ck_load_relaxed(R + CK_T_DESC)) : 0u;
        /* A forked group copies its fork's transmit bytes, then lets the
         * record go; a task group copies its arguments from the table in host
         * memory into the worker's transmit area (unused by ordinary kernels),
         * all work-items at once, so a task costs one or two bus round trips.
         * No group barrier under a condition, and a barrier after every
         * stretch of thread-0 code: PoCL 3.1 has run thread-0 code on every
         * work-item otherwise (apps/README.md). */
        uint txw = kind == CK_WORK_FORK ? min(ck_load_relaxed(F + CK_F_TX_WORDS), CK_TX_WORDS) : 0u;
        for (uint i = get_local_id(0); i < txw; i += get_local_size(0))
            ck_store_relaxed(tx + i, ck_load_relaxed(F + CK_F_TX + i));
        uint argw = task ? min(CK_TASK_DESC_NW(desc), 2u * CK_MAX_ARG_WORDS) : 0u;
        for (uint i = get_local_id(0); i < argw; i += get_local_size(0))
            ck_store_relaxed(tx + i, xpress ? (uint)xline[1u + i]
                                            : ck_sys_load_relaxed(ch + CK_CH_TE_ARG(CK_CH_TASK_ENTRY + slot * CK_CH_TE_WORDS, i)));
        ck_group_barrier_device(); /* the copy is done; thread 0's acquire covers the group */
        if (get_local_id(0) == 0) {
            if (chaos)
                birth = kind == CK_WORK_FORK ? ck_load_relaxed(F + CK_F_BIRTH) : 0u;
            if (kind == CK_WORK_FORK) {
                uint refs = ck_fetch_sub(F + CK_F_REFS, 1u);
                if (CK_CHECK_BUILD && refs == 0u)
                    ck_check_fail(s, CK_CHECK_REFS_UNDER, w, f, launch, 0u, 0u);
            }
            /* A task's start time, kept in the poll's local line (free
             * while the group runs) and stored after the kernel, so that no
             * store to host memory comes before the kernel (on an H200 an
             * empty task's round trip was 4.56-4.58 against 4.68-4.78 us in
             * one device run, a difference later runs did not resolve:
             * docs/RESULTS.md, 17c8560). */
            if (task && group == 0u)
                xline[CK_XL_START] = ck_device_clock_ns();
            ck_store_relaxed(rec + CK_W_SLOT, task ? CK_W_SLOT_TASK | slot : slot);
            ck_store_relaxed(rec + CK_W_GROUP, group);
            ck_store_relaxed(rec + CK_W_STATE, 1u);
            /* An ordinary launch's completion word, or a task's ticket, read
             * now beside the launch's descriptor (the loads in flight
             * together) rather than after the kernel, where a load would
             * delay the host's notice; an express task's came with it. */
            uint dslot = kind == CK_WORK_GROUP ? ck_load_relaxed(L + CK_L_DONE_SLOT)
                         : fromround           ? xticket
                         : task                ? ck_load_relaxed(R + CK_T_TICKET)
                                               : CK_CH_NO_DONE_SLOT;
            scratch[CK_SCR_DONE_SLOT] = dslot;
            scratch[CK_SCR_TASK_DESC] = desc;
            /* The launch's descriptor, read by thread 0 in the same trip as
             * the words above and handed over in local memory (a task has no
             * launch id; a forked group's came with its fork record). */
            scratch[CK_SCR_LAUNCH] = task ? 0u : kind == CK_WORK_FORK ? launch : ck_load_relaxed(L + CK_L_ID);
            scratch[CK_SCR_GROUPS] = task ? CK_TASK_DESC_GROUPS(desc) : ck_load_relaxed(L + CK_L_GROUPS);
            scratch[CK_SCR_KERNEL] = task ? CK_TASK_DESC_KERNEL(desc) : ck_load_relaxed(L + CK_L_KERNEL);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        launch = scratch[CK_SCR_LAUNCH];
        ck_wg_t ctx;
        ctx.sched = s;
        ctx.ch = ch;
        ctx.scratch = scratch;
        ctx.max_workers = max_workers;
        ctx.slot = slot;
        ctx.worker = w;
        ctx.group = group;
        ctx.groups = scratch[CK_SCR_GROUPS];
        ctx.coop = kind == CK_WORK_FORK;
        ctx.killed = 0;
        ctx.chaos = chaos;
        ctx.naive = naive;
        ctx.phase = 0;
        ctx.launch = launch;
        ctx.cx = cx;
        ctx.birth = birth;
        ctx.cx_key = chaos && kind == CK_WORK_FORK ? ck_load_relaxed(L + CK_L_CX_KEY) : 0u;
        ctx.cx_offers = 0;
        ctx.cx_forks = 0;
        ck_dispatch(&ctx, scratch[CK_SCR_KERNEL], resume,
                    (global const void *)tx, arena, task ? (global const ulong *)tx : (global const ulong *)(L + CK_L_ARGS),
                    pool, locals);
        ck_group_barrier_device();
        if (get_local_id(0) == 0) {
            ck_store_relaxed(rec + CK_W_STATE, 0u);
            fw[CK_FW_KILLED] = ctx.coop && ctx.killed;
            /* The group count again from local memory, not ctx.groups: held
             * in a register across the kernel it was what NVIDIA's driver
             * spilled under a cap of 32 in the megakernel with tasks
             * (docs/RESULTS.md, 2026-11-29). */
            uint groups = scratch[CK_SCR_GROUPS];
            if (task) {
                /* Group 0's start time, before the count that the last
                 * group's release of the done state covers. */
                if (group == 0u) {
                    ulong t0 = xline[CK_XL_START];
                    CK_PTR ts = ch + CK_CH_TASK_TIMES + slot * CK_CH_TT_WORDS + CK_CH_TT_START;
                    ck_sys_store_relaxed(ts, (uint)t0);
                    ck_sys_store_relaxed(ts + 1u, (uint)(t0 >> 32));
                }
                /* The record holds this ticket until its last group is done. */
                R = s + CK_SH_TASK(max_workers, slot);
                if (groups == 1u || ck_fetch_add(R + CK_T_DONE, 1u) + 1u == groups) {
                    /* The last group (a task of one group counts nothing):
                     * the device time, then the state word that says done and
                     * frees the entry (the release covers every group's
                     * writes, which the count above has seen; at device
                     * scope, see ck_sys_store64_done). */
                    ulong now = ck_device_clock_ns();
                    CK_PTR tt = ch + CK_CH_TASK_TIMES + slot * CK_CH_TT_WORDS + CK_CH_TT_END;
                    ck_sys_store_relaxed(tt, (uint)now);
                    ck_sys_store_relaxed(tt + 1u, (uint)(now >> 32));
                    ck_sys_store64_done((CK_PTR64)(ch + CK_CH_TASK_STATE) + slot,
                                        ((ulong)scratch[CK_SCR_TASK_DESC] << 32) |
                                            (2u * scratch[CK_SCR_DONE_SLOT] + 2u));
                    ck_fetch_add_relaxed(s + CK_H_TASK_FINISHED, 1u); /* a count (the scheduler's end) */
                }
            } else if (!ctx.coop) {
                if (groups == 1u || ck_fetch_add(L + CK_L_DONE, 1u) + 1u == groups) {
                    /* The last group (a launch of one group counts
                     * nothing; L_DONE then stays 0): tell a waiting host at
                     * once (the release covers every group's writes, which
                     * the acq_rel count above has seen), then the scheduler. */
                    uint dslot = scratch[CK_SCR_DONE_SLOT];
                    if (dslot < CK_CH_DONE_SLOTS)
                        ck_sys_store_done(ch + CK_CH_DONE + dslot, launch);
                    ck_push_finish(s, slot);
                }
            } else {
                ck_coop_group_left(&ctx);
            }
        }
        /* Close the thread-0 stretch with a barrier: PoCL 3.1 was seen to run
         * thread-0-guarded code on every work-item when such a stretch ends a
         * loop body without one (apps/README.md has the reproducer). */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#ifndef CK_CHAOS_BUILD
#define CK_CHAOS_BUILD 1 /* the host says 0 when chaos mode is off */
#endif

/* sched_off and poll_off: byte offsets of the scheduler state and the
 * discovery poll in the arena (the runtime's region past the user's
 * buffers, which the host reads while the megakernel runs). */
kernel void ck_megakernel(ulong sched_off, CK_PTR ch, ulong poll_off, global uchar *arena, uint max_workers,
                          uint chaos_seed, uint naive)
{
    CK_PTR sched = (CK_PTR)(arena + sched_off);
    CK_PTR poll = (CK_PTR)(arena + poll_off);
    local uint scratch[CK_SCRATCH_WORDS];
    local ck_sched_t sched_state; /* group 0's scheduler only */
    local ck_locals_t locals;
    local uchar pool[CK_LOCAL_POOL_BYTES] __attribute__((aligned(16)));
    local ulong xline[CK_CH_XL_WORDS / 2u + CK_POLL_PAIRS]; /* the task poller's read of the table */
    local uint fw[CK_FW_STATE_WORDS];                       /* thread 0's state between groups */
    uint n;
    int ticket = ck_discover(poll, ch, scratch, &n);
    if (ticket < 0)
        return;
    /* A megakernel built without chaos (CK_CHAOS_BUILD 0, the context's seed
     * is 0) folds every chaos test to false: the chaos code and its state
     * vanish from the build, so they cost the normal path no registers. */
    if (!CK_CHAOS_BUILD)
        chaos_seed = 0u;
    /* Chaos record/replay area in the arena (the host wrote its offset
     * before the launch), or none. */
    uint cx_off = chaos_seed ? ck_load_relaxed(sched + CK_H_CHAOS_AREA) : 0u;
    CK_PTR cx = cx_off ? (CK_PTR)(arena + (cx_off - 1u)) : (CK_PTR)0;
    if (ticket == 0) {
        if (get_local_id(0) == 0)
            ck_scheduler(sched, ch, n - 1u, max_workers, chaos_seed, cx, &sched_state);
        return;
    }
    ck_worker(sched, ch, arena, (uint)ticket - 1u, max_workers, chaos_seed, naive, cx, scratch, pool, &locals, xline, fw);
}
