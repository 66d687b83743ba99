/* The worker loop and the megakernel's entry point. Placed after the
 * stitched user code: it calls the generated ck_dispatch and declares the
 * generated ck_locals_t.
 *
 * ck_megakernel: every group takes a discovery ticket (ck_discovery.cl);
 * ticket 0's thread 0 runs the scheduler (ck_scheduler.cl), every other
 * discovered group is a worker. ck_worker: thread 0 finds the group's next
 * work (ck_find_work, or the task poll), the group copies a fork's transmit
 * bytes or a task's arguments, runs the logical group through ck_dispatch,
 * and counts its completion (an ordinary launch's done count and finish
 * ring, a task's done state in host memory, a cooperative group's leave). */

/* The group copies what its work brings: a forked group its fork's
 * transmit bytes, a task group its arguments from the table in host memory
 * (or from the poll's line) into the worker's transmit area (unused by
 * ordinary kernels), all work-items at once, so a task costs one or two bus
 * round trips. No group barrier under a condition, and a barrier after
 * every stretch of thread-0 code: PoCL 3.1 has run thread-0 code on every
 * work-item otherwise (apps/README.md). */
void ck_group_copy_inputs(CK_PTR ch, CK_FORK_REC F, CK_PTR tx, uint kind, uint task, uint xpress, uint slot,
                          uint desc, local ulong *xline)
{
    uint txw = kind == CK_WORK_FORK ? min(ck_load_relaxed(&F->tx_words), CK_TX_WORDS) : 0u;
    for (uint i = get_local_id(0); i < txw; i += get_local_size(0))
        ck_store_relaxed(tx + i, ck_load_relaxed(&F->tx[i]));
    uint argw = task ? min(CK_TASK_DESC_NW(desc), 2u * CK_MAX_ARG_WORDS) : 0u;
    for (uint i = get_local_id(0); i < argw; i += get_local_size(0))
        ck_store_relaxed(tx + i, xpress ? (uint)xline[1u + i]
                                        : ck_sys_load_relaxed(
                                              ch + CK_CH_TE_ARG(CK_CH_TASK_ENTRY + slot * CK_CH_TE_WORDS, i)));
}

/* Thread 0, as its group starts: lets a fork record go, notes the start in
 * the worker record, and reads the words the group needs from the launch
 * (or the task) in one trip, into local scratch. Returns the chaos
 * incarnation of a forked group. */
uint ck_group_start_t0(CK_SCHED s, CK_WORKER_REC rec, CK_SLOT L, CK_TASK_REC R, CK_FORK_REC F, uint w, uint kind,
                       uint task, uint fromround, uint xticket, uint slot, uint group, uint launch, uint f,
                       uint desc, uint chaos, local uint *scratch, local ulong *xline)
{
    uint birth = chaos && kind == CK_WORK_FORK ? ck_load_relaxed(&F->birth) : 0u;
    if (kind == CK_WORK_FORK) {
        uint refs = ck_fetch_sub(&F->refs, 1u);
        if (CK_CHECK_BUILD && refs == 0u)
            ck_check_fail(s, CK_CHECK_REFS_UNDER, w, f, launch, 0u, 0u);
    }
    /* A task's start time, kept in the poll's local line (free while the
     * group runs) and stored after the kernel, so that no store to host
     * memory comes before the kernel (on an H200 an empty task's round trip
     * was 4.56-4.58 against 4.68-4.78 us in one device run, a difference
     * later runs did not resolve: docs/RESULTS.md, 17c8560). */
    if (task && group == 0u)
        xline[CK_XL_START] = ck_device_clock_ns();
    ck_store_relaxed(&rec->slot, task ? CK_W_SLOT_TASK | slot : slot);
    ck_store_relaxed(&rec->group, group);
    ck_store_relaxed(&rec->state, CK_WORKER_RUNNING);
    /* An ordinary launch's completion word, or a task's ticket, read now
     * beside the launch's descriptor (the loads in flight together) rather
     * than after the kernel, where a load would delay the host's notice; an
     * express task's came with it. */
    uint dslot = kind == CK_WORK_GROUP ? ck_load_relaxed(&L->done_slot)
                 : fromround           ? xticket
                 : task                ? ck_load_relaxed(&R->ticket)
                                       : CK_CH_NO_DONE_SLOT;
    scratch[CK_SCR_DONE_SLOT] = dslot;
    scratch[CK_SCR_TASK_DESC] = desc;
    /* The launch's descriptor, read in the same trip as the words above and
     * handed over in local memory (a task has no launch id; a forked group's
     * came with its fork record). */
    scratch[CK_SCR_LAUNCH] = task ? 0u : kind == CK_WORK_FORK ? launch : ck_load_relaxed(&L->id);
    scratch[CK_SCR_GROUPS] = task ? CK_TASK_DESC_GROUPS(desc) : ck_load_relaxed(&L->groups);
    scratch[CK_SCR_KERNEL] = task ? CK_TASK_DESC_KERNEL(desc) : ck_load_relaxed(&L->kernel_index);
    return birth;
}

/* Thread 0, after a task group: group 0's start time, then, from the last
 * group of the task (a task of one group counts nothing), the device time
 * and the state word that says done and frees the entry. The release covers
 * every group's writes, which the count has seen; at device scope, see
 * ck_sys_store64_done. The record holds the ticket until its last group is
 * done. */
void ck_task_group_done(CK_SCHED s, CK_PTR ch, uint max_workers, uint slot, uint group, uint groups,
                        local uint *scratch, local ulong *xline)
{
    if (group == 0u) {
        ulong t0 = xline[CK_XL_START];
        CK_PTR ts = ch + CK_CH_TASK_TIMES + slot * CK_CH_TT_WORDS + CK_CH_TT_START;
        ck_sys_store_relaxed(ts, (uint)t0);
        ck_sys_store_relaxed(ts + 1u, (uint)(t0 >> 32));
    }
    CK_TASK_REC R = ck_task_of(s, max_workers, slot);
    if (groups == 1u || ck_fetch_add(&R->done, 1u) + 1u == groups) {
        ulong now = ck_device_clock_ns();
        CK_PTR tt = ch + CK_CH_TASK_TIMES + slot * CK_CH_TT_WORDS + CK_CH_TT_END;
        ck_sys_store_relaxed(tt, (uint)now);
        ck_sys_store_relaxed(tt + 1u, (uint)(now >> 32));
        ck_sys_store64_done((CK_PTR64)(ch + CK_CH_TASK_STATE) + slot,
                            ((ulong)scratch[CK_SCR_TASK_DESC] << 32) | (2u * scratch[CK_SCR_DONE_SLOT] + 2u));
        ck_fetch_add_relaxed(&s->task_finished, 1u); /* a count (the scheduler's end) */
    }
}

/* Thread 0, after a group of an ordinary launch: the last group (a launch
 * of one group counts nothing; L.done then stays 0) tells a waiting host at
 * once (the release covers every group's writes, which the acquire-release
 * count has seen), then the scheduler. */
void ck_launch_group_done(CK_SCHED s, CK_PTR ch, CK_SLOT L, uint slot, uint launch, uint groups, local uint *scratch)
{
    if (groups == 1u || ck_fetch_add(&L->done, 1u) + 1u == groups) {
        uint dslot = scratch[CK_SCR_DONE_SLOT];
        if (dslot < CK_CH_DONE_SLOTS)
            ck_sys_store_done(ch + CK_CH_DONE + dslot, launch);
        ck_push_finish(s, slot);
    }
}

/* The context a logical group's kernel runs in (ck_primitives.cl). */
void ck_group_context(ck_wg_t *ctx, CK_SCHED s, CK_PTR ch, local uint *scratch, uint max_workers, uint slot, uint w,
                      uint group, uint coop, uint chaos, uint naive, uint launch, CK_PTR cx, uint birth, uint cx_key)
{
    ctx->sched = s;
    ctx->ch = ch;
    ctx->scratch = scratch;
    ctx->max_workers = max_workers;
    ctx->slot = slot;
    ctx->worker = w;
    ctx->group = group;
    ctx->groups = scratch[CK_SCR_GROUPS];
    ctx->coop = coop;
    ctx->killed = 0;
    ctx->chaos = chaos;
    ctx->naive = naive;
    ctx->phase = 0;
    ctx->m_known = CK_M_LIVE; /* the stitched dispatch says whether the kernel may keep M */
    ctx->launch = launch;
    ctx->cx = cx;
    ctx->birth = birth;
    ctx->cx_key = cx_key;
    ctx->cx_offers = 0;
    ctx->cx_forks = 0;
}

void ck_worker(CK_SCHED s, CK_PTR ch, global uchar *arena, uint w, uint max_workers, uint chaos, uint naive,
               CK_PTR cx, local uint *scratch, local uchar *pool, local ck_locals_t *locals, local ulong *xline,
               local ck_idle_state *fw)
{
    CK_WORKER_REC rec = ck_worker_rec_of(s, w);
    uint birth = 0; /* thread 0: chaos incarnation of a forked group */
    if (get_local_id(0) == 0) {
        ck_idle_clear(fw); /* thread 0's state between groups */
        fw->idle = 0u;
        fw->killed = 0u;
        ck_fetch_add_relaxed(&s->arrived, 1u); /* a count for the diagnostics: this worker started */
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
        CK_SLOT L = ck_slot_of(s, task ? 0u : slot);
        CK_TASK_REC R = ck_task_of(s, max_workers, task ? slot : 0u);
        CK_PTR tx = ck_tx_of(s, max_workers, w);
        CK_FORK_REC F = ck_fork_of(s, max_workers, f);
        /* A task group's descriptor (the claim acquired it; an express
         * task's came with the poll). */
        uint desc = task ? (fromround ? (uint)xline[0] : ck_load_relaxed(&R->desc)) : 0u;
        ck_group_copy_inputs(ch, F, tx, kind, task, xpress, slot, desc, xline);
        ck_group_barrier_device(); /* the copy is done; thread 0's acquire covers the group */
        if (get_local_id(0) == 0)
            birth = ck_group_start_t0(s, rec, L, R, F, w, kind, task, fromround, xticket, slot, group, launch, f,
                                      desc, chaos, scratch, xline);
        barrier(CLK_LOCAL_MEM_FENCE);
        launch = scratch[CK_SCR_LAUNCH];
        ck_wg_t ctx;
        ck_group_context(&ctx, s, ch, scratch, max_workers, slot, w, group, kind == CK_WORK_FORK, chaos, naive,
                         launch, cx, birth, chaos && kind == CK_WORK_FORK ? ck_load_relaxed(&L->cx_key) : 0u);
        ck_dispatch(&ctx, scratch[CK_SCR_KERNEL], resume, (global const void *)tx, arena,
                    task ? (global const ulong *)tx : (global const ulong *)L->args, pool, locals);
        ck_group_barrier_device();
        if (get_local_id(0) == 0) {
            ck_store_relaxed(&rec->state, CK_WORKER_IDLE);
            fw->killed = ctx.coop && ctx.killed;
            /* The group count again from local memory, not ctx.groups: held
             * in a register across the kernel it was what NVIDIA's driver
             * spilled under a cap of 32 in the megakernel with tasks
             * (docs/RESULTS.md, 2026-11-29). */
            uint groups = scratch[CK_SCR_GROUPS];
            if (task)
                ck_task_group_done(s, ch, max_workers, slot, group, groups, scratch, xline);
            else if (!ctx.coop)
                ck_launch_group_done(s, ch, L, slot, launch, groups, scratch);
            else
                ck_coop_group_left(&ctx);
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
    CK_SCHED sched = (CK_SCHED)(arena + sched_off);
    CK_PTR poll = (CK_PTR)(arena + poll_off);
    local uint scratch[CK_SCRATCH_WORDS];
    local ck_sched_t sched_state; /* group 0's scheduler only */
    local ck_locals_t locals;
    local uchar pool[CK_LOCAL_POOL_BYTES] __attribute__((aligned(16)));
    local ulong xline[CK_CH_XL_WORDS / 2u + CK_POLL_PAIRS]; /* the task poller's read of the table */
    local ck_idle_state fw;                                 /* thread 0's state between groups */
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
    uint cx_off = chaos_seed ? ck_load_relaxed(&sched->chaos_area) : 0u;
    CK_PTR cx = cx_off ? (CK_PTR)(arena + (cx_off - 1u)) : (CK_PTR)0;
    if (ticket == 0) {
        if (get_local_id(0) == 0)
            ck_scheduler(sched, ch, n - 1u, max_workers, chaos_seed, cx, &sched_state);
        return;
    }
    ck_worker(sched, ch, arena, (uint)ticket - 1u, max_workers, chaos_seed, naive, cx, scratch, pool, &locals, xline,
              &fw);
}
