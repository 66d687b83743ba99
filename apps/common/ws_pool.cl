/* apps/common/ws_pool.cl: the work-stealing task pool of the ws, octree and
 * game kernels (workstealing/ws.cl, octree/octree.cl, game/game.cl), which
 * include it after ck_cooperative.h. Owner: apps. It owns the queues' memory
 * layout, the push, the pop-or-steal with its steal counter and the test for
 * pending work; the tasks' meaning and keeping the pending-task count (a
 * task's children added before it retires) stay the kernels'.
 *
 * Layout (the hosts mirror it: workstealing/ws_queues.h, octree/octree.h,
 * game/game.h): nq deques in global memory. Queue q's metadata are the
 * WS_POOL_QSTRIDE words at qmeta + q * WS_POOL_QSTRIDE (padded to keep
 * queues on separate cache lines): [WS_POOL_LOCK] its mutex
 * (device_mutex_lock/unlock of ck_cooperative.h, so the task words written
 * under it are seen by the next holder on every device), [WS_POOL_LO] the
 * bottom (next task a thief takes), [WS_POOL_HI] the top (one past the
 * owner's newest task). Its cap task slots, WS_POOL_TASK words each, start
 * at qtasks + WS_POOL_TASK * q * cap; task i (lo <= i < hi) is in slot
 * i % cap. The owner pushes and pops at the top (LIFO), thieves take from
 * the bottom (FIFO).
 *
 * The includer defines first:
 *   WS_POOL_TASK    words per task (ws: 2, octree and game: 8)
 *   WS_POOL_L_HAVE  the slot of the work-group's local array that says
 *                   whether ws_pool_pop_or_steal got a task (1) or not (0)
 *   WS_POOL_L_TASK  the first of the WS_POOL_TASK local slots that receive it
 *   WS_POOL_STEALS  the word of ctr counting steals (atomic_inc)
 *   WS_POOL_PENDING the word of ctr counting tasks created and not finished
 *   WS_POOL_L_MORE  the local slot through which ws_pool_more_work answers
 * and may define WS_POOL_QSTRIDE, WS_POOL_LOCK, WS_POOL_LO and WS_POOL_HI
 * (16, 0, 1, 2 below).
 *
 * How the include resolves: plain OpenCL builds (common/cl_plain.c) pass the
 * kernel directory with -I; cooperative builds get this file's text spliced
 * in place of the #include line by app_add_sources (app.c, through
 * app_read_kernel of common/paths.h), because the runtime's stitcher hands
 * #include lines other than ck_cooperative.h's to the device compiler as they
 * are, without an include path. */
#ifndef APPS_WS_POOL_CL
#define APPS_WS_POOL_CL

#if !defined(WS_POOL_TASK) || !defined(WS_POOL_L_HAVE) || !defined(WS_POOL_L_TASK) || !defined(WS_POOL_STEALS) ||   \
    !defined(WS_POOL_PENDING) || !defined(WS_POOL_L_MORE)
#error "ws_pool.cl: define WS_POOL_TASK, _L_HAVE, _L_TASK, _STEALS, _PENDING and _L_MORE before including it"
#endif
#ifndef WS_POOL_QSTRIDE
#define WS_POOL_QSTRIDE 16
#endif
#ifndef WS_POOL_LOCK
#define WS_POOL_LOCK 0
#endif
#ifndef WS_POOL_LO
#define WS_POOL_LO 1
#endif
#ifndef WS_POOL_HI
#define WS_POOL_HI 2
#endif

/* Thread 0: pushes the WS_POOL_TASK words of task on queue qid, or on the
 * next queue with room (a full one is skipped without its lock, except qid).
 * Returns 0 when every queue is full. */
int ws_pool_push(global uint *qmeta, global uint *qtasks, uint nq, uint cap, uint qid, const uint *task)
{
    for (uint i = 0; i < nq; i++) {
        uint q = (qid + i) % nq;
        volatile global uint *m = (volatile global uint *)qmeta + q * WS_POOL_QSTRIDE;
        if (i > 0 && m[WS_POOL_HI] - m[WS_POOL_LO] >= cap)
            continue;
        device_mutex_lock(&m[WS_POOL_LOCK]);
        uint lo = m[WS_POOL_LO], hi = m[WS_POOL_HI];
        int ok = hi - lo < cap;
        if (ok) {
            volatile global uint *t = (volatile global uint *)qtasks + WS_POOL_TASK * ((size_t)q * cap + hi % cap);
            for (uint w = 0; w < WS_POOL_TASK; w++)
                t[w] = task[w];
            m[WS_POOL_HI] = hi + 1u;
        }
        device_mutex_unlock(&m[WS_POOL_LOCK]);
        if (ok)
            return 1;
    }
    return 0;
}

/* Work-group level: thread 0 pops the newest task of queue qid or steals the
 * oldest task of another queue, scanning every queue from qid on (a
 * work-group that was killed may have left tasks in its queue), and counts a
 * steal in ctr[WS_POOL_STEALS]; the task (if any) is broadcast through lt
 * (WS_POOL_L_HAVE, WS_POOL_L_TASK). Ends with a barrier. */
void ws_pool_pop_or_steal(global uint *qmeta, global uint *qtasks, global uint *ctr, uint nq, uint cap, uint qid,
                          local uint *lt)
{
    if (get_local_id(0) == 0) {
        uint got = 0;
        for (uint i = 0; i < nq && !got; i++) {
            uint q = (qid + i) % nq;
            volatile global uint *m = (volatile global uint *)qmeta + q * WS_POOL_QSTRIDE;
            if (m[WS_POOL_HI] == m[WS_POOL_LO])
                continue;
            device_mutex_lock(&m[WS_POOL_LOCK]);
            uint lo = m[WS_POOL_LO], hi = m[WS_POOL_HI];
            if (hi != lo) {
                uint slot = i == 0 ? hi - 1u : lo;
                volatile global uint *t =
                    (volatile global uint *)qtasks + WS_POOL_TASK * ((size_t)q * cap + slot % cap);
                for (uint w = 0; w < WS_POOL_TASK; w++)
                    lt[WS_POOL_L_TASK + w] = t[w];
                if (i == 0)
                    m[WS_POOL_HI] = hi - 1u;
                else
                    m[WS_POOL_LO] = lo + 1u;
                got = 1;
            }
            device_mutex_unlock(&m[WS_POOL_LOCK]);
            if (got && i > 0)
                atomic_inc((volatile global uint *)&ctr[WS_POOL_STEALS]);
        }
        lt[WS_POOL_L_HAVE] = got;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Work-group level: is any task still pending (ctr[WS_POOL_PENDING] != 0,
 * read with acquire by thread 0 and broadcast through lt[WS_POOL_L_MORE])?
 * Ends with a barrier. */
int ws_pool_more_work(global uint *ctr, local uint *lt)
{
    if (get_local_id(0) == 0)
        lt[WS_POOL_L_MORE] = device_load_acquire((volatile global uint *)&ctr[WS_POOL_PENDING]) != 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    return lt[WS_POOL_L_MORE];
}

#endif
