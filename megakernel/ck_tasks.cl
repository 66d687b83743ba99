/* Narrow tasks on the device (mechanism): publication of the tickets the
 * host wrote into the task table (runtime/task_table.c, layout in
 * ck_channel_layout.h) and the task poller. One agent at a time holds the
 * poller token (ck_sched.task_poller) and alone reads the table: an idle hot
 * worker whose group polls it (ck_task_poll_round, ck_task_poll_decide,
 * ck_poll_publish), or the scheduler in a pass where every worker is busy
 * (ck_sched_tasks, ck_task_publish). Publishing a ticket writes its device
 * record, then after a release fence its claim word (ck_task_publish_run,
 * for both), then after one system-scope fence the group and visible counts
 * (ck_task_show). The poller's express take of a lone one-group ticket
 * (ck_task_poll_decide) is the one publication apart: it takes group 0
 * itself and needs no fence. docs/TASKS_API.md, "Publishing", gives the
 * protocol and its orders. */

/* A published ticket's device record (its claim word is written apart,
 * after a release fence). */
void ck_task_record(CK_TASK_REC R, uint ticket, uint desc)
{
    ck_store_relaxed(&R->done, 0u);
    ck_store_relaxed(&R->ticket, ticket);
    ck_store_relaxed(&R->desc, desc);
}

/* The whole ticket number of token `tok`'s cursor: the ticket nearest the
 * visible count with those low thirty bits. The count read may lag the
 * cursor by the adds still on their way, never by 2^29. */
uint ck_tok_cursor(CK_SCHED s, uint tok)
{
    uint vis = ck_load_relaxed(&s->task_visible);
    uint d = ((tok >> 2) - vis) & 0x3fffffffu;
    return vis + d - (d >= 0x20000000u ? 0x40000000u : 0u);
}

/* The one publication of tickets, whoever holds the poller token: the run
 * of written tickets v, v + 1, ... among the np pairs read from the table
 * (pairs[i]: ticket v + i's state and descriptor, read with acquire
 * ordering: a system fence after the loads, or acquire loads). Writes each
 * ticket's record, then, after a release fence, their claim words from the
 * descriptors at hand (a claimer that scans from a head a table's lap
 * behind may decrement one before the ticket is visible, and its acquire
 * then sees the record). The run ends at a ticket not yet written, or at one
 * spawned after a message, which is the scheduler's to publish once it has
 * taken the messages before it: unless `sched` says the caller is that
 * scheduler, *held is set there. Adds the run's groups to *groups and
 * returns its length; the caller makes the run visible (ck_task_show),
 * possibly after keeping a group of it. */
uint ck_task_publish_run(CK_SCHED s, uint max_workers, uint v, local const ulong *pairs, uint np, uint sched,
                         uint *held, uint *groups)
{
    uint n = 0u;
#pragma unroll 1
    for (; n < np; ++n) {
        ulong p = pairs[n];
        uint d = (uint)(p >> 32);
        if ((uint)p != 2u * (v + n) + 1u)
            break; /* not written yet */
        if ((d & CK_TASK_DESC_AFTER_MSG) && !sched) {
            *held = 1u;
            break;
        }
        d &= ~CK_TASK_DESC_AFTER_MSG;
        ck_task_record(ck_task_of(s, max_workers, (v + n) & (CK_TASK_SLOTS - 1u)), v + n, d);
        *groups += CK_TASK_DESC_GROUPS(d);
    }
    if (n == 0u)
        return 0u;
    ck_fence_release();
#pragma unroll 1
    for (uint i = 0; i < n; ++i)
        ck_store_relaxed(&ck_task_of(s, max_workers, (v + i) & (CK_TASK_SLOTS - 1u))->claim,
                         CK_CLAIM_BIAS + CK_TASK_DESC_GROUPS((uint)(pairs[i] >> 32)));
    return n;
}

/* Makes n published tickets visible: one system-scope fence (it makes the
 * table's loads acquire loads, the host wrote the table, and orders the
 * records and the group count before the visible count), then the holder's
 * group count and the visible count. Holders alone write these two, the
 * visible count by adds (an express take's add may still be on its way when
 * the next holder's lands). */
void ck_task_show(CK_SCHED s, uint groups, uint n)
{
    ck_sys_fence_acq_rel();
    ck_store_relaxed(&s->task_groups, groups);
    ck_fetch_add_relaxed(&s->task_visible, n);
}

/* Tasks (runtime/task_table.c): makes newly written tickets visible to the
 * workers. Only the holder of the poller token (ck_sched.task_poller) does it:
 * an idle worker that polls the table without pause while it has nothing
 * to do, or the scheduler in a pass where no worker holds the token (every
 * worker busy). So the table is read by one agent at a time, and a ticket
 * becomes visible one bus round trip after the host wrote it instead of
 * after a scheduler pass.
 *
 * Reads four tickets with one batched load of host memory (state and
 * descriptor, one 64-bit word each, written by the host as one value) and
 * publishes the run whose state says "written" (ck_task_publish_run; the
 * four pairs pass through the scheduler's local state, `buf`, the form the
 * poller's pairs have). The
 * publisher's system-scope fence (ck_task_publish) makes these loads
 * acquire loads, so what the host wrote before a state (the arguments) is
 * visible to every worker that later claims a group of it. (Measured on
 * the H100: sixteen tickets read through a stack array, then a system
 * fence and a second read for the descriptors, took 18 us a pass.) Returns
 * the tickets published. */
uint ck_task_publish_batch(CK_SCHED s, CK_PTR ch, uint max_workers, uint v, uint limit, uint *groups, uint sched,
                           uint *held, local ulong *buf)
{
    uint e0 = v & (CK_TASK_SLOTS - 1u);
    uint base = e0 & ~3u; /* four pairs, 32-byte aligned */
    uint first = e0 - base;
    ulong w[4];
    ck_sys_load4x64_relaxed((CK_PTR64)(ch + CK_CH_TASK_STATE) + base, w);
#pragma unroll
    for (uint i = 0; i < 4u; ++i)
        buf[i] = w[i];
    /* pairs before the first ticket are not ours */
    return ck_task_publish_run(s, max_workers, v, buf + first, min(4u - first, limit - v), sched, held, groups);
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
    CK_SCHED s = V->s;
    /* The group count is the holder's own: read before the table, so that
     * no trip to device memory sits between the fence and the stores. */
    uint v = v0;
    uint groups = ck_load_relaxed(&s->task_groups); /* + the groups of the tickets published */
#pragma unroll 1
    for (uint b = 0; b < 4u && (int)(V->posted - v) > 0; ++b) {
        uint n = ck_task_publish_batch(V->s, V->ch, V->max_workers, v, V->posted, &groups, sched, held, S->pairs);
        v += n;
        if (n == 0u || (v & 3u) != 0u)
            break; /* a ticket not yet written, or the batch ended early */
    }
    if (v == v0)
        return 0u;
    ck_task_show(V->s, groups, v - v0);
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
    CK_SCHED s = S->s;
    uint held = 0u;
    uint ptok = S->ptok;
    if (CK_TOK_STATE(ptok) == CK_POLLER_SCHED) {
        if (!drained)
            return;
        uint v0 = ck_tok_cursor(s, ptok);
        uint n = ck_task_publish(S, v0, 1u, &held);
        ck_store_release(&S->s->task_poller, CK_TOK(v0 + n, 0u));
        return;
    }
    uint t = ck_load_relaxed(&s->task_poller);
    if (CK_TOK_STATE(t) != 0u)
        return;
    uint v0 = ck_tok_cursor(s, t);
    if ((int)(S->posted - v0) <= 0 || ck_cas(&s->task_poller, t, t | 2u) != t)
        return;
    uint n = ck_task_publish(S, v0, drained, &held);
    ck_store_release(&S->s->task_poller, CK_TOK(v0 + n, 0u));
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
uint ck_poll_publish(CK_SCHED s, uint max_workers, uint v, local ulong *pairs, uint np, uint hotc,
                     local ck_idle_state *st, uint *out)
{
    uint groups = ck_load_relaxed(&s->task_groups); /* the holder's own count */
    uint held = 0u;
    uint n = ck_task_publish_run(s, max_workers, v, pairs, np, 0u, &held, &groups);
    uint keep = 0u, kept = 0u;
    if (n) {
        if (n < np || held) {
            if ((int)ck_fetch_add_relaxed(&s->idle, 0u - 1u) > 0)
                keep = 1u;
            else
                ck_fetch_add_relaxed(&s->idle, 1u); /* the scheduler has a claim on every idle worker */
        }
        if (keep) {
            /* A claim like any other (a claimer from a lagging head may have
             * taken a group of the oldest ticket already), before the
             * tickets are visible, so usually group 0. */
            CK_TASK_REC R = ck_task_of(s, max_workers, v & (CK_TASK_SLOTS - 1u));
            uint c = ck_fetch_sub(&R->claim, 1u);
            if (c > CK_CLAIM_BIAS) {
                kept = CK_TASK_DESC_GROUPS((uint)(pairs[0] >> 32)) - (c - CK_CLAIM_BIAS);
            } else {
                keep = 0u;
                ck_fetch_add_relaxed(&s->idle, 1u);
            }
        }
        ck_task_show(s, groups - keep, n);
    }
    if (n == np && !held) {
        /* Still held: the token's own cursor moves (only its holder writes
         * it; ck_task_poll_decide's relaxed add continues from it). */
        st->poller = CK_TOK(v + n, 1u);
        st->publish = 1u;
        ck_store_relaxed(&s->task_poller, st->poller);
        out[0] = v + n;
        return CK_WORK_POLL;
    }
    ck_store_release(&s->task_poller, CK_TOK(v + n, held ? CK_POLLER_SCHED : 0u));
    st->poller = 0u;
    st->publish = 0u;
    if (!keep)
        return CK_WORK_GROUP;
    if (st->hot)
        ck_store_relaxed(ck_hot_token(s, hotc), 0u);
    ck_idle_clear(st);
    st->idle = 0u;
    out[0] = v & (CK_TASK_SLOTS - 1u);
    out[1] = kept;
    out[2] = 0u;
    out[3] = 0u;
    return CK_WORK_TASK;
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
uint ck_task_poll_decide(CK_SCHED s, CK_PTR ch, uint max_workers, uint w, uint v, local ulong *line, uint np,
                         local ck_idle_state *st, uint *out)
{
    uint e = v & (CK_TASK_SLOTS - 1u);
    uint clusters = ck_policy_hot_clusters(max_workers);
    uint hotc = w & (clusters - 1u);
    ulong p0 = line[16];
    uint desc = (uint)(p0 >> 32);
    out[0] = v;
    if ((uint)p0 != 2u * v + 1u) {
        st->publish = 0u;    /* a burst is over: the poller may claim again */
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
        ck_fetch_add_relaxed(&s->idle, 0u - 1u);
        CK_TASK_REC R = ck_task_of(s, max_workers, e);
        ck_task_record(R, v, desc);
        ck_store_relaxed(&R->claim, CK_CLAIM_BIAS + groups - 1u); /* group 0 is this worker's */
        if (groups > 1u) {
            /* Others claim the rest and read the arguments from host
             * memory: as ck_task_publish, the system fence makes the
             * table's loads acquire loads and orders the record and
             * the group count before the visible count. */
            ck_store_relaxed(&s->task_groups, ck_load_relaxed(&s->task_groups) + groups - 1u);
            ck_sys_fence_acq_rel();
        }
        ck_fetch_add_relaxed(&s->task_visible, 1u);
        /* A ticket of one group has none left: the head moves past it
         * (a hint, as in ck_claim_task). Left behind, it had the next
         * poller's rounds and every hot worker see a task possible and
         * go looking for it: 7.7-7.9 us for an empty task against
         * 7.2-7.4 with the move (H200, docs/RESULTS.md). */
        if (groups == 1u)
            ck_cas_relaxed(&s->task_head, v, v + 1u);
        /* The token goes back with the cursor past v, by a relaxed add
         * (the token held CK_TOK(v, 1)): no fence waits here for the
         * stores above. The next holder reads only the cursor; a claimer
         * that sees the new count before this record finds the claim word
         * at or below the bias either way and takes nothing; with more
         * groups the system fence above ordered the record first, and an
         * add continues the release sequence of the token. */
        ck_fetch_add_relaxed(&s->task_poller, CK_TOK(1u, 0u) - 1u);
        if (st->hot)
            ck_store_relaxed(ck_hot_token(s, hotc), 0u);
        ck_idle_clear(st);
        st->idle = 0u;
        out[0] = e;
        out[1] = 0u;
        out[2] = CK_POLL_TOOK | (nw <= CK_CH_XL_ARGS ? CK_POLL_ARGS : 0u);
        out[3] = v;
        return CK_WORK_TASK;
    }
    if (np < CK_POLL_PAIRS && (desc & CK_TASK_DESC_AFTER_MSG) == 0u && (uint)line[17] == 2u * v + 3u) {
        st->publish = 1u; /* a burst: the next round reads the whole window, at once */
        return CK_WORK_POLL;
    }
    return ck_poll_publish(s, max_workers, v, line + CK_CH_XL_WORDS / 2u, np, hotc, st, out);
}

/* The poller's group polls the task table: its first CK_CH_XL_WORDS / 2
 * work-items read ticket v's express line (one 128-byte line, a single
 * trip across the bus; tools/bench/dispatch_path_cuda.cu measured a line read by
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
#define CK_XL_START 17u      /* xline: a task group 0's start time (the poll's word 17 is free then) */
void ck_task_poll_round(CK_SCHED s, CK_PTR ch, uint max_workers, uint w, uint v, uint wide, local uint *scratch,
                        local ulong *line, local ck_idle_state *st)
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
                ((int)ck_load_relaxed(&s->promised) > 0 || ck_load_relaxed(&s->exit) || round >= CK_POLL_ROUNDS) *
                    2u +
                (ck_claim_possible(s) || ck_task_possible(s));
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0u) {
            uint other = scratch[CK_SCR_POLL_OTHER];
            uint out[4] = {0u, 0u, 0u, 0u};
            uint kind = ck_task_poll_decide(s, ch, max_workers, w, v, line, np, st, out);
            if (kind == CK_WORK_POLL && (other & (st->publish ? 2u : 3u)))
                kind = CK_WORK_GROUP;
            scratch[0] = kind;
            scratch[1] = out[0];
            scratch[2] = out[1];
            scratch[3] = st->publish; /* the next round's width */
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
