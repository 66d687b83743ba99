/* apps/workstealing/ws.cl: work stealing over an unbalanced task tree (in the
 * spirit of UTS and of the paper's octree and game-tree apps), written as a
 * cooperative kernel (paper section 3.2). Owner: apps.
 *
 * A task is (seed, depth). Processing it, the whole work-group computes
 * `units` hash chains of `iters` rounds and adds their sum to a global
 * checksum; then thread 0 pushes 0..3 children (fewer on average than one
 * per task below max_depth, decided by a hash of the seed, so subtrees have
 * wildly different sizes). Result: tasks done and the checksum, which do not
 * depend on who ran what; the host compares them with a CPU reference.
 *
 * Queues: nq = N (the launch's most work-groups) deques in global memory,
 * the pool of common/ws_pool.cl (shared with octree.cl and game.cl): each
 * guarded by a mutex (device_mutex_lock/unlock of ck_cooperative.h, so the
 * task words written under the lock are seen by the next holder on every
 * device). The owner pushes and pops at the top; thieves take from the
 * bottom; pop_or_steal scans every queue 0..nq-1, because a work-group that
 * was killed may have left tasks in its queue. offer_kill() and
 * request_fork() sit at the top of the main loop, where a work-group holds no
 * task and no mutex; the queue id is read from get_group_id after
 * request_fork, so a forked group serves its own queue (nothing is
 * transmitted). Termination: ctr[WS_PENDING] counts tasks created and not yet
 * finished (children are added before their parent is retired, with
 * device_atomic_add/sub, which order the pushes), so it reaches 0 exactly
 * when all work is done, whoever left or joined in between.
 *
 * The synchronisation is written only with the portable calls of
 * ck_cooperative.h: no #ifdef and no inline assembly, and the same file is
 * correct through the framework and as plain OpenCL, on PoCL and on NVIDIA.
 *
 * Plain OpenCL (no CK_MEGAKERNEL): offer_kill/request_fork are no-ops and
 * this is an occupancy-bound persistent kernel; launch it with no more
 * groups than the occupancy and nq = number of groups. */
/* No global barrier here: a null barrier pointer keeps ck_cooperative.h from
 * declaring its program-scope barrier words in plain builds (not every OpenCL
 * 3.0 device supports program-scope global variables); the framework ignores
 * it. */
#define CK_PLAIN_BARRIER_WORDS ((volatile global uint *)0)
#include "ck_cooperative.h"

/* Counters in ctr. */
#define WS_PENDING 0
#define WS_DONE 1
#define WS_SUM 2
#define WS_OVERFLOW 3
#define WS_STEALS 4
/* Slots of the work-group's local array. */
#define WS_L_HAVE 0
#define WS_L_SEED 1
#define WS_L_DEPTH 2
#define WS_L_ACC 3
#define WS_L_MORE 4
/* The queues (common/ws_pool.cl): a task is (seed, depth). */
#define WS_POOL_TASK 2
#define WS_POOL_L_HAVE WS_L_HAVE
#define WS_POOL_L_TASK WS_L_SEED /* seed, then depth */
#define WS_POOL_STEALS WS_STEALS
#define WS_POOL_PENDING WS_PENDING
#define WS_POOL_L_MORE WS_L_MORE
#include "common/ws_pool.cl"

uint ws_hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

uint ws_unit(uint seed, uint u, uint iters)
{
    uint r = seed ^ (u * 0x9e3779b9u);
    for (uint i = 0; i < iters; i++)
        r = ws_hash(r + i);
    return r;
}

uint ws_children(uint seed, uint depth, uint max_depth)
{
    if (depth >= max_depth)
        return 0;
    uint k = ws_hash(seed ^ 0x5bd1e995u) & 7u;
    return k < 3u ? 0u : k < 6u ? 1u : k - 4u;
}

uint ws_child_seed(uint seed, uint c) { return ws_hash(seed + (c + 1u) * 0x632be5abu); }

/* Work-group level: processes the task in lt (if lt says there is one),
 * pushes its children to queue qid, then retires it.
 *
 * Two shapes here work around a PoCL 3.1 kernel-compiler bug: when a loop
 * that exits with a break holds a conditional containing a barrier, and
 * thread-0-guarded code follows that barrier with no further barrier before
 * the end of the conditional or of the loop body, the guarded code runs on
 * every work-item (as if get_local_id(0) were 0 for all). The megakernel
 * puts every kernel body, and the peeled code that resumes forked groups,
 * under such conditionals. So this function is called whether or not there
 * is a task (no barrier under a condition in this kernel), and it ends with
 * a barrier after its thread-0 part. */
void ws_process(global uint *qmeta, global uint *qtasks, global uint *ctr, uint nq, uint cap, uint qid,
                uint max_depth, uint units, uint iters, local uint *lt)
{
    uint have = lt[WS_L_HAVE], seed = lt[WS_L_SEED], depth = lt[WS_L_DEPTH];
    if (get_local_id(0) == 0)
        lt[WS_L_ACC] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (uint u = get_local_id(0); have && u < units; u += get_local_size(0))
        s += ws_unit(seed, u, iters);
    atomic_add(&lt[WS_L_ACC], s);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && have) {
        volatile global uint *c = (volatile global uint *)ctr;
        uint nc = ws_children(seed, depth, max_depth);
        atomic_add(&c[WS_SUM], lt[WS_L_ACC]);
        atomic_inc(&c[WS_DONE]);
        if (nc > 0)
            device_atomic_add(&c[WS_PENDING], nc);
        for (uint k = 0; k < nc; k++) {
            uint task[WS_POOL_TASK] = {ws_child_seed(seed, k), depth + 1u};
            if (!ws_pool_push(qmeta, qtasks, nq, cap, qid, task)) {
                atomic_inc(&c[WS_OVERFLOW]);
                device_atomic_sub(&c[WS_PENDING], 1u);
            }
        }
        device_atomic_sub(&c[WS_PENDING], 1u); /* after the pushes above */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void ws_coop(global uint *qmeta, global uint *qtasks, global uint *ctr, uint nq, uint cap, uint max_depth,
                    uint units, uint iters)
{
    local uint lt[5];
    while (ws_pool_more_work(ctr, lt)) {
        offer_kill();
        request_fork();
        uint qid = get_group_id(0);
        ws_pool_pop_or_steal(qmeta, qtasks, ctr, nq, cap, qid, lt);
        ws_process(qmeta, qtasks, ctr, nq, cap, qid, max_depth, units, iters, lt);
    }
}
