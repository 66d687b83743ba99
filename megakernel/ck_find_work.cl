/* An idle worker's look for work (thread 0 of each worker group):
 * ck_find_work takes, in the order ck_policy.cl states, a promised fork
 * ticket, a group of a published ordinary launch or a task group, counts the
 * worker idle (ck_sched.idle) while it has none, and hands the poller token's
 * holder to the task poll. The look's pace (hot clusters, back-off, pause)
 * is ck_policy.cl's. */

/* Thread 0: the next group this worker runs. A worker back from a group
 * first looks for an ordinary group without counting itself idle; an idle
 * worker takes a promised fork ticket first, else a unit of ck_sched.idle and
 * then an ordinary group or a task group. out: slot (a task: its table
 * entry), group, resume point, launch id, fork record. `st` is thread 0's
 * state kept between calls (ck_idle_state; its poller the token as held, with
 * its cursor; its killed flag counts this worker back from a kill once it has
 * decided): the worker returns CK_WORK_POLL, with the ticket to read in
 * out[0] and in out[2] whether a burst is on (the round reads the whole
 * window), while it holds the poller token, and its group then polls the
 * task table (ck_task_poll_round) before it calls again; any other return
 * leaves `st` zero (every token let go). */
uint ck_find_work(CK_SCHED s, CK_PTR ch, uint max_workers, uint w, uint *out, local ck_idle_state *st)
{
    if (!st->idle) {
        /* After an abort no group starts: what had not started by then is
         * cut short, and its wait says so (the exit word shares its line
         * with the queue length the claim reads next). */
        if (ck_load_relaxed(&s->exit)) {
            ck_idle_clear(st);
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
            st->idle = 1u;
        }
        if (st->killed) {
            st->killed = 0u;
            ck_fetch_add(&s->killed_back, 1u);
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
    uint clusters = ck_policy_hot_clusters(max_workers);
    uint hotc = w & (clusters - 1u); /* a mask, not a division (any cluster count works) */
    uint backoff = st->backoff, poller = st->poller, hot = st->hot;
    uint publishing = st->publish;
    for (uint spins = 0;; ++spins) {
        if (!hot && ck_load_relaxed(ck_hot_token(s, hotc)) == 0u &&
            ck_cas_relaxed(ck_hot_token(s, hotc), 0u, 1u) == 0u)
            hot = 1;
        uint looking = hot || ck_policy_all_look(ck_load_relaxed(&s->demand), clusters);
        /* One hot worker at a time holds the poller token; its group reads
         * the task table (ck_task_poll_round) between this function's
         * looks at forks, launches and tasks already visible. */
        if (CK_TASKS_BUILD && hot && !poller) {
            uint t = ck_load_relaxed(&s->task_poller);
            if (CK_TOK_STATE(t) == 0u && ck_cas(&s->task_poller, t, t | 1u) == t) {
                poller = t | 1u; /* the token as held: nonzero, with the cursor */
                publishing = 0;
            }
        }
        if ((int)ck_load_relaxed(&s->promised) > 0) {
            if ((int)ck_fetch_sub(&s->promised, 1u) > 0) {
                if (poller)
                    ck_store_release(&s->task_poller, poller & ~3u);
                if (hot)
                    ck_store_relaxed(ck_hot_token(s, hotc), 0u);
                ck_idle_clear(st);
                st->idle = 0u;
                uint t = ck_fetch_add(&s->tickets_taken, 1u);
                if (CK_CHECK_BUILD) {
                    /* A unit of the promised count stands for a written ticket. */
                    uint end = ck_load_acquire(&s->tickets_written);
                    if ((int)(t - end) >= 0)
                        ck_check_fail(s, CK_CHECK_TICKET_UNWRITTEN, w, t, end, 0u, 0u);
                }
                uint f = ck_find_fork_record(s, max_workers, t);
                if (f == CK_FORK_RECS)
                    return CK_WORK_LEAVE; /* aborting */
                CK_FORK_REC F = ck_fork_of(s, max_workers, f);
                out[0] = ck_load_relaxed(&F->slot);
                out[1] = ck_load_relaxed(&F->first) + (t - ck_load_relaxed(&F->t0));
                out[2] = ck_load_relaxed(&F->point);
                out[3] = ck_load_relaxed(&F->launch);
                out[4] = f;
                return CK_WORK_FORK;
            }
            ck_fetch_add(&s->promised, 1u); /* someone else's: give it back */
        }
        /* Ordinary launches first, in arrival order, then tasks. The launch
         * the worker saw with a group left is tried first; not in a
         * megakernel built with tasks, where keeping the hint cost 8
         * registers (64 against 56, 2111 task workers against 2375;
         * measured). A poller that is publishing a burst leaves the claims
         * to the others. */
        uint hint = 0u;
        if (looking && !publishing && ((hint = ck_claim_possible(s)) || ck_task_possible(s))) {
            if ((int)ck_fetch_add_relaxed(&s->idle, 0u - 1u) > 0) {
                uint kind = CK_WORK_TASK;
                uint slot1 = ck_claim_group(s, CK_TASKS_BUILD ? 0u : hint, &out[1]);
                if (!slot1)
                    slot1 = ck_claim_task(s, max_workers, ck_policy_task_spread(w, backoff, poller), &out[1]);
                else
                    kind = CK_WORK_GROUP;
                if (slot1) {
                    if (poller)
                        ck_store_release(&s->task_poller, poller & ~3u);
                    if (hot)
                        ck_store_relaxed(ck_hot_token(s, hotc), 0u);
                    ck_idle_clear(st);
                    st->idle = 0u;
                    out[0] = slot1 - 1u;
                    return kind;
                }
            }
            ck_count_idle(s, w); /* no unit, or no group: stay idle */
            /* Lost the race: back off before the next try (up to 256 reads,
             * doubling), so that a burst of tasks or groups is not served
             * through one atomic word that every idle worker hammers; a
             * promised fork ticket ends the wait at once. */
            backoff = ck_policy_backoff(backoff, poller);
            for (uint i = 0; i < backoff && (int)ck_load_relaxed(&s->promised) <= 0; ++i)
                ;
        }
        if ((spins & CK_SPIN_CHECK) == 0 && ck_load_relaxed(&s->exit)) {
            if (poller)
                ck_store_release(&s->task_poller, poller & ~3u);
            ck_idle_clear(st);
            return CK_WORK_LEAVE;
        }
        /* The poller's group polls, and in a burst publishes from what it
         * read (ck_poll_publish: `publishing` then keeps the poller off
         * the claims above, the other workers claim). */
        if (CK_TASKS_BUILD && poller) {
            st->hot = hot;
            st->poller = poller;
            st->backoff = 0u;
            st->publish = publishing;
            out[0] = ck_tok_cursor(s, poller); /* the ticket to read */
            out[2] = publishing;               /* the round reads the whole window */
            return CK_WORK_POLL;
        }
        if (!looking)
            ck_pause_ns(CK_IDLE_PAUSE_NS);
    }
}
