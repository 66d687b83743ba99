/* Claiming work (mechanism): how a worker takes one group of a published
 * ordinary launch (ck_claim_group) or of a visible task (ck_claim_task),
 * how it sees without atomics whether either may have one (ck_claim_possible,
 * ck_task_possible), and how a worker holding a fork ticket finds the fork
 * record that names its group (ck_find_fork_record). A claim word holds
 * CK_CLAIM_BIAS + the groups not yet taken (ck_sched_layout.h): a decrement
 * that sees a value above the bias took a group, one at or below it took
 * nothing. */

/* Takes one logical group of a published ordinary launch: of the launch in
 * slot `hint` - 1 if that one still has a group (a hot worker just saw it
 * have one), else the oldest launch that has one. Returns slot + 1 and the
 * group, or 0. (The hint saves the queue's two dependent loads: on the
 * H100 a launch round trip 12.0 -> 11.0-11.4 us, docs/RESULTS.md.) */
uint ck_claim_group(CK_SCHED s, uint hint, uint *group)
{
    if (hint) {
        /* As below: above the bias the decrement took a group of the launch
         * the slot holds now, whatever the worker saw. */
        uint slot = hint - 1u;
        uint v = ck_fetch_sub(&ck_slot_of(s, slot)->claim, 1u);
        if (v > CK_CLAIM_BIAS) {
            *group = ck_load_relaxed(&ck_slot_of(s, slot)->groups) - (v - CK_CLAIM_BIAS);
            return slot + 1u;
        }
    }
    uint n = min(ck_load_acquire(&s->queued), CK_MAX_LAUNCHES);
    for (uint i = 0; i < n; ++i) {
        uint slot = ck_load_relaxed(ck_queue_at(s, i)) & (CK_MAX_LAUNCHES - 1u);
        CK_PTR claim = &ck_slot_of(s, slot)->claim;
        if (ck_load_relaxed(claim) <= CK_CLAIM_BIAS)
            continue;
        /* Above the bias the decrement took a group of the launch the slot
         * holds now (even if the queue entry was stale): that launch cannot
         * end without it, so its descriptor stays put while we read it. */
        uint v = ck_fetch_sub(claim, 1u);
        if (v > CK_CLAIM_BIAS) {
            *group = ck_load_relaxed(&ck_slot_of(s, slot)->groups) - (v - CK_CLAIM_BIAS);
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
uint ck_claim_task(CK_SCHED s, uint max_workers, uint spread, uint *group)
{
    if (!CK_TASKS_BUILD)
        return 0;
    uint vis = ck_load_acquire(&s->task_visible);
    uint head = ck_load_relaxed(&s->task_head);
    uint off = spread & (CK_TASK_SPREAD - 1u);
    uint t = spread && (int)(vis - head) > (int)off ? vis - 1u - off : head;
    for (uint n = 0; (int)(vis - t) > 0 && n < CK_TASK_SCAN; ++n, ++t) {
        uint e = t & (CK_TASK_SLOTS - 1u);
        CK_TASK_REC R = ck_task_of(s, max_workers, e);
        if (ck_load_relaxed(&R->claim) > CK_CLAIM_BIAS) {
            uint c = ck_fetch_sub(&R->claim, 1u);
            if (c > CK_CLAIM_BIAS) {
                /* What the host wrote before the state (arguments, buffers)
                 * is visible to the group after this acquire and the group
                 * barrier that follows: the publisher acquired the state at
                 * system scope before it wrote the claim word. */
                ck_fetch_add_relaxed(&s->task_taken, 1u); /* a count: its acquire held up the start */
                *group = CK_TASK_DESC_GROUPS(ck_load_relaxed(&R->desc)) - (c - CK_CLAIM_BIAS);
                return e + 1u;
            }
        }
        if (t == head) { /* a hint: losing the race to another worker is fine */
            ck_cas_relaxed(&s->task_head, t, t + 1u);
            head = t + 1u;
        }
    }
    return 0;
}

/* Nonzero if a task seems to have a group left (plain loads). */
uint ck_task_possible(CK_SCHED s)
{
    if (!CK_TASKS_BUILD)
        return 0;
    return (int)(ck_load_relaxed(&s->task_visible) - ck_load_relaxed(&s->task_head)) > 0;
}

/* Slot + 1 of a published launch that seems to have a group left, or 0
 * (plain loads). */
uint ck_claim_possible(CK_SCHED s)
{
    uint n = min(ck_load_relaxed(&s->queued), CK_MAX_LAUNCHES);
    for (uint i = 0; i < n; ++i) {
        uint slot = ck_load_relaxed(ck_queue_at(s, i)) & (CK_MAX_LAUNCHES - 1u);
        if (ck_load_relaxed(&ck_slot_of(s, slot)->claim) > CK_CLAIM_BIAS)
            return slot + 1u;
    }
    return 0;
}

/* The fork record that holds ticket t (ticket ranges of records are
 * disjoint; t's own record stays put until t's holder lets it go). */
uint ck_find_fork_record(CK_SCHED s, uint max_workers, uint t)
{
    for (uint spins = 0;; ++spins) {
#pragma unroll 1
        for (uint f = 0; f < CK_FORK_RECS; ++f) {
            CK_FORK_REC F = ck_fork_of(s, max_workers, f);
            if (ck_fork_record_holds(F, t))
                return f;
        }
        if ((spins & CK_SPIN_CHECK) == 0 && ck_load_relaxed(&s->exit))
            return CK_FORK_RECS;
        if (CK_CHECK_BUILD && spins == CK_CHECK_PASSES)
            ck_check_fail(s, CK_CHECK_TICKET_LOST, CK_CHECK_SCHEDULER, t, ck_load_relaxed(&s->tickets_written),
                          ck_load_relaxed(&s->tickets_taken), 0u);
    }
}
