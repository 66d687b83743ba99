/* apps/octree/octree.cl: octree partitioning by work stealing (Cederman and
 * Tsigas, in the form the cooperative-kernels paper's authors rewrote it),
 * as a cooperative kernel. Owner: apps (octree).
 *
 * Particles are float4 (x, y, z in [0,1), w holds the particle's id as bits)
 * in two buffers, pa and pb (double buffering). A task is a cube and a range
 * of particles: (start, count, depth, buffer, ix, iy, iz); the cube at depth
 * d with integer coordinates (ix, iy, iz) is [ix, ix+1) x ... scaled by
 * 2^-d, so a particle's octant is one bit of floor(p * 2^(d+1)), exact in
 * floating point. Processing a task, the work-group counts its particles
 * into the 8 octants (local atomics), scatters them into the other buffer at
 * start + the octant's prefix offset, then thread 0 pushes every octant with
 * more than max_children particles as a new task and records the others
 * (when not empty) as leaves (start, count, depth, ix, iy, iz); a leaf's
 * particles are also copied into `out` at the same positions. At depth
 * limit - 1 every octant becomes a leaf (identical particles would otherwise
 * split forever).
 *
 * The queues are common/ws_pool.cl's, as in ws.cl: nq mutex-guarded deques
 * (device_mutex_lock), the owner at the top, thieves at the bottom,
 * pop_or_steal scans every queue (a killed group may leave tasks).
 * Termination and the cooperative calls follow ws.cl: ctr[OT_PENDING]
 * counts tasks created and not finished (children added before the parent
 * retires). Group 0 calls request_fork and the others offer_kill at the
 * top of the loop, holding no task and no mutex; the queue id is read from
 * get_group_id after them. Pending live tasks cover disjoint
 * ranges of more than max_children particles, so nq * cap >= n /
 * (max_children + 1) + 8 slots always suffice (a push tries every queue).
 *
 * PoCL 3.1 shape rules (apps/README.md): every thread-0 stretch ends with a
 * barrier, no barrier sits under a condition. */
#define CK_PLAIN_BARRIER_WORDS ((volatile global uint *)0)
#include "ck_cooperative.h"

#define OT_TASK 8 /* words per task and per leaf */
/* ctr */
#define OT_PENDING 0
#define OT_DONE 1
#define OT_LEAVES 2
#define OT_OVERFLOW 3
#define OT_STEALS 4
#define OT_LEAF_CAP 7 /* set by the host: leaf records that fit */
/* local lt[] */
#define OT_L_HAVE 0
#define OT_L_MORE 1
#define OT_L_T 2 /* 8 task words */
/* The queues (common/ws_pool.cl). */
#define WS_POOL_TASK OT_TASK
#define WS_POOL_L_HAVE OT_L_HAVE
#define WS_POOL_L_TASK OT_L_T
#define WS_POOL_STEALS OT_STEALS
#define WS_POOL_PENDING OT_PENDING
#define WS_POOL_L_MORE OT_L_MORE
#include "common/ws_pool.cl"

uint ot_octant(float4 p, uint depth)
{
    float s = (float)(1u << (depth + 1u));
    uint bx = (uint)(p.x * s) & 1u, by = (uint)(p.y * s) & 1u, bz = (uint)(p.z * s) & 1u;
    return bx | by << 1 | bz << 2;
}

/* Work-group level: splits the task in lt (when lt says there is one). */
void ot_process(global float4 *pa, global float4 *pb, global float4 *out, global uint *leaves, global uint *qmeta,
                global uint *qtasks, global uint *ctr, uint nq, uint cap, uint qid, uint max_children,
                uint depth_limit, local uint *lt, local uint *cnt, local uint *cur)
{
    device_fence_acquire(); /* the particles a task's pusher wrote */
    uint have = lt[OT_L_HAVE];
    uint start = lt[OT_L_T + 0], count = have ? lt[OT_L_T + 1] : 0u, depth = lt[OT_L_T + 2];
    uint bufsel = lt[OT_L_T + 3];
    global float4 *src = bufsel ? pb : pa;
    global float4 *dst = bufsel ? pa : pb;
    uint lid = get_local_id(0), wg = get_local_size(0);
    for (uint o = lid; o < 8u; o += wg)
        cnt[o] = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < count; i += wg)
        atomic_inc(&cnt[ot_octant(src[start + i], depth)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        uint off = 0;
        for (uint o = 0; o < 8u; o++) {
            cur[o] = off;
            cur[8u + o] = off;
            off += cnt[o];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int last_level = depth + 1u >= depth_limit;
    for (uint i = lid; i < count; i += wg) {
        float4 p = src[start + i];
        uint o = ot_octant(p, depth);
        uint pos = start + atomic_inc(&cur[o]);
        dst[pos] = p;
        if (cnt[o] <= max_children || last_level)
            out[pos] = p;
    }
    device_fence_release(); /* every item's scatter, before thread 0 publishes */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && have) {
        volatile global uint *c = (volatile global uint *)ctr;
        uint ix = lt[OT_L_T + 4], iy = lt[OT_L_T + 5], iz = lt[OT_L_T + 6];
        uint pushes = 0;
        for (uint o = 0; o < 8u; o++)
            if (cnt[o] > max_children && !last_level)
                pushes++;
        if (pushes)
            device_atomic_add(&c[OT_PENDING], pushes);
        for (uint o = 0; o < 8u; o++) {
            if (cnt[o] == 0u)
                continue;
            uint t[OT_TASK];
            t[0] = start + cur[8u + o];
            t[1] = cnt[o];
            t[2] = depth + 1u;
            t[3] = bufsel ^ 1u;
            t[4] = 2u * ix + (o & 1u);
            t[5] = 2u * iy + ((o >> 1) & 1u);
            t[6] = 2u * iz + (o >> 2);
            t[7] = 0u;
            if (cnt[o] > max_children && !last_level) {
                if (!ws_pool_push(qmeta, qtasks, nq, cap, qid, t)) {
                    atomic_inc(&c[OT_OVERFLOW]);
                    device_atomic_sub(&c[OT_PENDING], 1u);
                }
            } else {
                uint l = atomic_inc(&c[OT_LEAVES]);
                if (l < ctr[OT_LEAF_CAP]) {
                    volatile global uint *lf = (volatile global uint *)leaves + (size_t)OT_TASK * l;
                    lf[0] = t[0];
                    lf[1] = t[1];
                    lf[2] = t[2];
                    lf[3] = t[4];
                    lf[4] = t[5];
                    lf[5] = t[6];
                    lf[6] = 0u;
                    lf[7] = 0u;
                }
            }
        }
        atomic_inc(&c[OT_DONE]);
        device_atomic_sub(&c[OT_PENDING], 1u); /* after the pushes above */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void octree_coop(global float4 *pa, global float4 *pb, global float4 *out, global uint *leaves,
                        global uint *qmeta, global uint *qtasks, global uint *ctr, uint nq, uint cap,
                        uint max_children, uint depth_limit)
{
    local uint lt[OT_L_T + OT_TASK];
    local uint cnt[8];
    local uint cur[16];
    while (ws_pool_more_work(ctr, lt)) {
        if (get_group_id(0) == 0)
            request_fork();
        else
            offer_kill();
        uint qid = get_group_id(0);
        ws_pool_pop_or_steal(qmeta, qtasks, ctr, nq, cap, qid, lt);
        ot_process(pa, pb, out, leaves, qmeta, qtasks, ctr, nq, cap, qid, max_children, depth_limit, lt, cnt, cur);
    }
}
