/* The scheduler work-group's pass (group 0, thread 0) and its messages to
 * the host. Each pass: finished launches are retired (their slots freed,
 * DONE sent), the host's messages are taken in FIFO order (a launch into a
 * free slot, then started in arrival order), the scheduler's share of task
 * publication is done, the published launches' claim words are tracked
 * (STARTED once a first wave is taken, the demand for workers), the running
 * cooperative kernel is asked for the kills that demand lacks, and every
 * message of the pass is published with one flush (one bus round trip).
 * What is decided from the counts read is ck_policy.cl's; how a worker then
 * gets the work is ck_claim.cl's and ck_find_work.cl's. */

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
    uint m[CK_SHORT_MSG_WORDS] = {CK_MSG_HEADER(type, CK_SHORT_MSG_WORDS), a, b};
    ck_sched_send(S, m, CK_SHORT_MSG_WORDS);
}

void ck_sched_flush(local ck_sched_t *S)
{
    if (S->dirty) {
        ck_ch_flush(S->ch, &S->cur);
        S->dirty = 0;
    }
}

/* Groups an ordinary launch gets at once: the first wave. */
uint ck_sched_wave(local ck_sched_t *S, uint slot) { return ck_policy_wave(S->groups[slot], S->workers); }

/* Rewrites the launch queue that workers read (stale reads are harmless). */
void ck_sched_write_queue(local ck_sched_t *S)
{
    for (uint i = 0; i < S->q_n; ++i)
        ck_store_relaxed(ck_queue_at(S->s, i), S->q[i]);
    ck_store_release(&S->s->queued, S->q_n);
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
    CK_SLOT L = ck_slot_of(S->s, slot);
    uint m[CK_DONE_WORDS] = {CK_MSG_HEADER(CK_MSG_DONE, CK_DONE_WORDS), S->id[slot], 0u, 0u, 0u, 0u, 0u, 0u};
    if (!S->coop[slot]) {
        /* An ordinary launch has no kills, forks, resizes or device error:
         * nothing to read back (each device-memory read is a round trip
         * of the scheduler's one thread, on every launch). */
        ck_sched_unqueue(S, slot);
        ck_sched_send_started(S, slot, ck_sched_wave(S, slot));
    } else {
        ck_store_relaxed(&L->kill_req, 0u);
        ck_store_release(&S->s->coop_slot, 0u);
        m[CK_DONE_W_ERROR] = ck_load_relaxed(&L->error);
        m[CK_DONE_W_KILLS] = ck_load_relaxed(&L->kills);
        m[CK_DONE_W_FORKED] = ck_load_relaxed(&L->forked);
        m[CK_DONE_W_RESIZES] = ck_load_relaxed(&L->resizes);
        m[CK_DONE_W_MAX_M] = ck_load_relaxed(&L->max_m);
        m[CK_DONE_W_INITIAL] = ck_load_relaxed(&L->initial);
    }
    ck_store_release(&L->state, CK_SLOT_FREE);
    S->free_slots |= 1u << slot;
    ck_sched_send(S, m, CK_DONE_WORDS);
}

/* Tries to start the pending launch in `slot`. Returns 1 if it started. */
uint ck_sched_start(local ck_sched_t *S, uint slot)
{
    CK_SCHED s = S->s;
    CK_SLOT L = ck_slot_of(s, slot);
    if (!S->coop[slot]) {
        /* Published: idle workers take its groups from now on. One fence
         * orders the descriptor, the done count and the queue before the
         * claim word and the queue length (a release for both; each of its
         * own cost a wait for every store before it). */
        ck_store_relaxed(&L->done, 0u);
        ck_store_relaxed(&L->state, CK_SLOT_RUNNING);
        S->q[S->q_n] = slot;
        ck_store_relaxed(ck_queue_at(s, S->q_n), slot);
        S->q_n += 1u;
        ck_fence_release();
        ck_store_relaxed(&L->claim, CK_CLAIM_BIAS + S->groups[slot]);
        ck_store_relaxed(&s->queued, S->q_n);
        ck_sched_send2(S, CK_MSG_BEGIN, S->id[slot], 0u);
        return 1;
    }
    if (ck_load_relaxed(&L->state) == CK_SLOT_RECEIVED) {
        ck_store_relaxed(&L->state, CK_SLOT_WAITING);
        ck_sched_send2(S, CK_MSG_BEGIN, S->id[slot], 0u);
    }
    uint idle = ck_idle_now(s);
    uint m0 = ck_policy_coop_start(S->groups[slot], idle, S->workers, ck_load_relaxed(&s->coop_slot),
                                   S->coop_started, S->pass);
    if (m0 == 0u)
        return 0;
    /* Chaos: a replay waits a bounded number of passes for the recorded M's
     * workers. */
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
    if (S->chaos_seed)
        m0 = ck_cx_start_groups(S->chaos_seed, S->coop_started + 1u, cx_k1, m0, cx_replay, cx_rec);
    uint k = f < CK_FORK_RECS ? ck_take_idle(s, m0) : 0u;
    if (k == 0) {
        ck_unlock(s);
        return 0;
    }
    ck_store_relaxed(&L->m, k);
    ck_sys_store_relaxed(S->ch + CK_CH_COOP_M, k); /* host trace */
    ck_store_relaxed(&L->max_m, k);
    ck_store_relaxed(&L->initial, k);
    ck_store_relaxed(&L->live, k);
    ck_store_relaxed(&L->kill_req, 0u);
    S->coop_started += 1u; /* cooperative launches start one at a time, in arrival order */
    ck_store_relaxed(&L->cx_key, S->coop_started);
    ck_reset_arrivals(ck_bar_counter(L, 0u), 0u);
    ck_store_relaxed(&L->bar_word, k);
    ck_fork_write(s, S->max_workers, f, slot, S->id[slot], 0u, k, 0u, 0, 0u, 0u);
    ck_store_relaxed(&L->state, CK_SLOT_RUNNING);
    ck_store_release(&s->coop_slot, slot + 1u);
    ck_unlock(s);
    ck_fork_publish(s, k);
    if (S->chaos_seed) { /* recorded before the launch can finish: the scheduler retires it */
        S->cx_wait = 0;
        ck_cx_record(S->cx, S->coop_started, cx_k1, 0u, 0u, k, 0u, k, cx_replay && k != cx_rec, cx_rec);
    }
    ck_sched_send_started(S, slot, k);
    return 1;
}

/* Groups of the launch in `slot` not yet claimed. */
uint ck_sched_left(local ck_sched_t *S, uint slot)
{
    uint c = ck_load_relaxed(&ck_slot_of(S->s, slot)->claim);
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
        if (ck_policy_wave_taken(S->groups[slot], left, S->workers))
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
     * counter is read only while some are outstanding). */
    if (CK_TASKS_BUILD) {
        uint task_groups = ck_load_relaxed(&S->s->task_groups);
        if (S->task_taken != task_groups)
            S->task_taken = ck_load_relaxed(&S->s->task_taken);
        S->task_demand = ck_policy_task_demand(task_groups, S->task_taken);
    }
    demand = ck_policy_demand(demand, CK_TASKS_BUILD ? S->task_demand : 0u, S->workers);
    if (demand != S->demand) {
        S->demand = demand;
        ck_store_relaxed(&S->s->demand, demand);
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
    CK_SCHED s = S->s;
    uint back = ck_load_acquire(&s->killed_back);
    uint coming = ck_load_relaxed(&s->kills_total) - back;
    uint idle = ck_idle_now(s);
    uint left = 0u;
    for (uint i = 0; i < S->q_n; ++i)
        left += ck_sched_left(S, S->q[i]);
    return ck_policy_kills_wanted(ck_policy_demand(left, S->task_demand, S->workers), idle, coming);
}

/* Policy: ask the cooperative kernel for the workers the published launches
 * lack (ck_sched_kills_wanted). A group that takes a kill counts it under
 * the lock, so the request is worked out again under the lock before it is
 * written: a request from counts read outside could ask again for a kill
 * just taken. */
void ck_sched_gather(local ck_sched_t *S)
{
    CK_SCHED s = S->s;
    uint coop = ck_load_relaxed(&s->coop_slot);
    if (!coop)
        return;
    CK_SLOT C = ck_slot_of(s, coop - 1u);
    uint cur = ck_load_relaxed(&C->kill_req);
    if (S->demand == 0u && cur == 0u)
        return;
    if (ck_sched_kills_wanted(S) == cur || !ck_lock(s, S->ch))
        return;
    uint want = ck_sched_kills_wanted(S);
    if (want != ck_load_relaxed(&C->kill_req))
        ck_store_relaxed(&C->kill_req, want);
    ck_unlock(s);
}

/* Takes one LAUNCH message (its tagged words already in S->msg:
 * ck_launch_msg_word) into a free slot; its argument words, if
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
    CK_SLOT L = ck_slot_of(S->s, slot);
#pragma unroll 1
    for (uint f = 0; f < CK_L_HEAD_WORDS; ++f)
        ck_store_relaxed((CK_PTR)L + f, 0u);
    uint nw = min(CK_LAUNCH_NW(w[CK_LAUNCH_W_SIZE]), 2u * CK_MAX_ARG_WORDS);
    if (nw)
        ck_ch_copy_body(S->ch, in, L->args, nw);
    uint kind = w[CK_LAUNCH_W_KIND], size = w[CK_LAUNCH_W_SIZE];
    uint done = CK_LAUNCH_DONE(kind);
    S->id[slot] = w[CK_LAUNCH_W_ID];
    S->groups[slot] = CK_LAUNCH_GROUPS(size);
    S->started[slot] = 0;
    S->coop[slot] = CK_LAUNCH_COOP(kind);
    ck_store_relaxed(&L->id, w[CK_LAUNCH_W_ID]);
    ck_store_relaxed(&L->kernel_index, CK_LAUNCH_KERNEL(kind));
    ck_store_relaxed(&L->coop, CK_LAUNCH_COOP(kind));
    ck_store_relaxed(&L->groups, CK_LAUNCH_GROUPS(size));
    ck_store_relaxed(&L->done_slot, done == CK_LAUNCH_NO_DONE ? CK_CH_NO_DONE_SLOT : done);
    /* Only the scheduler reads the state; workers see the descriptor
     * through the claim word's or the fork tickets' release. */
    ck_store_relaxed(&L->state, CK_SLOT_RECEIVED);
    return slot;
}

void ck_scheduler(CK_SCHED s, CK_PTR ch, uint workers, uint max_workers, uint chaos_seed, CK_PTR cx,
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
        ck_store_relaxed(&s->check.workers, workers);
    for (S->pass = 0;; S->pass += 1u) {
        if ((S->pass & 63u) == 0) {
            ck_store_relaxed(&s->heartbeat, S->pass);
            if (ck_ch_aborted(ch))
                break;
        }
        /* Finished launches (before the messages: they free launch slots). */
        for (;;) {
            CK_PTR e = ck_fin_at(s, S->fin_head & (CK_FIN_SLOTS - 1u));
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
        S->ptok = CK_TASKS_BUILD ? ck_load_acquire(&s->task_poller) : 1u;
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
                active += ck_load_relaxed(&ck_slot_of(s, slot)->state) != CK_SLOT_FREE;
            /* Tasks the host wrote before asking to stop run to the end too
             * (the hint is read again: a poller may have kept it unread).
             * Without tasks nothing is loaded: loads here, even folded into
             * a false condition, cost the megakernel 56 registers against 48
             * on the H100 (2375 co-resident groups against 2639). */
            if (!CK_TASKS_BUILD && ck_policy_may_stop(active, 0u, 0u, 0u))
                break;
            uint visible = ck_load_relaxed(&s->task_visible);
            if (active == 0u && ck_policy_may_stop(active, ck_sys_load_relaxed(ch + CK_CH_TASK_POSTED), visible,
                                                   ck_load_relaxed(&s->task_finished)))
                break;
        }
    }
    ck_store_release(&s->exit, 1u);
    ck_sched_send2(S, CK_MSG_BYE, 0u, 0u);
    ck_sched_flush(S);
}
