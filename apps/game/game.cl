/* apps/game/game.cl: parallel minimax look-ahead of a Connect-Four position
 * by work stealing, as a cooperative kernel. Owner: apps (game). The rules,
 * the evaluation and the bitboards are game.h's (keep them identical).
 *
 * Nodes are numbered by level: level L holds 7^L slots from off(L) =
 * (7^L - 1) / 6, child t of the node with index i in its level is index
 * 7 i + t of the next level, so a node finds its parent without storage.
 * val[] holds each answered node's value, cnt[] an inner node's answered
 * children. A task is an inner node to expand: (id, level, cur, mask). The
 * work-group looks at the node's 7 children (one work-item each): full
 * columns are illegal (ignored), wins and full boards are terminal, children
 * at level `depth` are evaluated on the spot; the rest are pushed as tasks.
 * Thread 0 then stores the node's partial value and sets cnt to the
 * children already answered (7 - pushed) before pushing; with nothing
 * pushed the node is complete. A complete node answers its parent: an
 * atomic max (we move) or min (they move) into the parent's val, then an
 * atomic increment of its cnt; the child that moves cnt to 7 has the
 * parent's final value and answers the grandparent in turn, up to the root.
 * All of these are device_atomic_* calls (acquire and release), so the last
 * child sees every sibling's value.
 *
 * The queues are common/ws_pool.cl's; termination (ctr[GM_PENDING]: tasks
 * created, not finished) and the cooperative calls follow ws.cl; group 0
 * calls request_fork, the others offer_kill, at the loop top. Every
 * possible push fits: the pool holds one slot per node of levels
 * 1..depth-1 (host side).
 *
 * PoCL 3.1 shape rules (apps/README.md): thread-0 stretches end with a
 * barrier and no barrier sits under a condition. */
#define CK_PLAIN_BARRIER_WORDS ((volatile global uint *)0)
#include "ck_cooperative.h"

#define GM_TASK 8
#define GM_PENDING 0
#define GM_DONE 1
#define GM_NODES 2
#define GM_OVERFLOW 3
#define GM_STEALS 4
#define GM_WIN (1 << 20)
#define GM_INF (1 << 30)
#define GM_ILLEGAL (-0x7fffffff - 1)
/* local lt[] */
#define GM_L_HAVE 0
#define GM_L_MORE 1
#define GM_L_T 2
/* The queues (common/ws_pool.cl). */
#define WS_POOL_TASK GM_TASK
#define WS_POOL_L_HAVE GM_L_HAVE
#define WS_POOL_L_TASK GM_L_T
#define WS_POOL_STEALS GM_STEALS
#define WS_POOL_PENDING GM_PENDING
#define WS_POOL_L_MORE GM_L_MORE
#include "common/ws_pool.cl"

/* child kinds */
#define GM_K_ILLEGAL 0
#define GM_K_VALUE 1
#define GM_K_PUSH 2

int gm_won(ulong b)
{
    ulong m = b & (b >> 1);
    if (m & (m >> 2))
        return 1;
    m = b & (b >> 7);
    if (m & (m >> 14))
        return 1;
    m = b & (b >> 6);
    if (m & (m >> 12))
        return 1;
    m = b & (b >> 8);
    return (m & (m >> 16)) != 0;
}

int gm_eval(ulong ours, ulong theirs)
{
    int s = 0;
    for (int c = 0; c < 7; c++)
        for (int r = 0; r < 6; r++)
            for (int d = 0; d < 4; d++) {
                int dc = d == 1 ? 0 : 1, dr = d == 0 ? 0 : d == 3 ? -1 : 1;
                int ec = c + 3 * dc, er = r + 3 * dr;
                if (ec > 6 || er < 0 || er > 5)
                    continue;
                int a = 0, b = 0;
                for (int k = 0; k < 4; k++) {
                    ulong bit = (ulong)1 << (7 * (c + k * dc) + r + k * dr);
                    a += (ours & bit) != 0;
                    b += (theirs & bit) != 0;
                }
                int wa = a == 1 ? 1 : a == 2 ? 5 : a == 3 ? 50 : a == 4 ? 1000 : 0;
                int wb = b == 1 ? 1 : b == 2 ? 5 : b == 3 ? 50 : b == 4 ? 1000 : 0;
                if (b == 0)
                    s += wa;
                else if (a == 0)
                    s -= wb;
            }
    ulong centre = (ulong)0x3f << 21;
    s += 3 * ((int)popcount(ours & centre) - (int)popcount(theirs & centre));
    return s;
}

uint gm_level_off(uint level)
{
    uint off = 0, p = 1;
    for (uint i = 0; i < level; i++) {
        off += p;
        p *= 7u;
    }
    return off;
}

/* Atomic max (ismax) or min of v into *p. */
void gm_combine(volatile global int *p, int v, int ismax)
{
    volatile global uint *u = (volatile global uint *)p;
    uint old = device_load_acquire(u);
    for (;;) {
        int o = (int)old;
        int n = ismax ? max(o, v) : min(o, v);
        if (n == o)
            return;
        uint seen = device_atomic_cmpxchg(u, old, (uint)n);
        if (seen == old)
            return;
        old = seen;
    }
}

/* Thread 0: node x at `level` is complete with value v: answer its parents
 * as long as this answer is the last one they wait for. */
void gm_answer(global int *val, global uint *cnt, uint x, uint level, int v)
{
    while (level > 0u) {
        uint off = gm_level_off(level), poff = gm_level_off(level - 1u);
        uint p = poff + (x - off) / 7u;
        level -= 1u;
        gm_combine((volatile global int *)&val[p], v, (level & 1u) == 0u);
        if (device_atomic_add((volatile global uint *)&cnt[p], 1u) != 6u)
            return;
        v = (int)device_atomic_add((volatile global uint *)&val[p], 0u);
        x = p;
    }
}

/* Work-group level: expands the node in lt (when lt says there is one). */
void gm_process(global int *val, global uint *cnt, global uint *qmeta, global uint *qtasks, global uint *ctr,
                uint nq, uint cap, uint qid, uint depth, local uint *lt, local int *kind, local int *cval)
{
    uint have = lt[GM_L_HAVE];
    uint x = lt[GM_L_T + 0], level = lt[GM_L_T + 1];
    ulong cur = (ulong)lt[GM_L_T + 2] | (ulong)lt[GM_L_T + 3] << 32;
    ulong mask = (ulong)lt[GM_L_T + 4] | (ulong)lt[GM_L_T + 5] << 32;
    int ismax = (level & 1u) == 0u;
    for (uint t = get_local_id(0); have && t < 7u; t += get_local_size(0)) {
        int k = GM_K_ILLEGAL, v = 0;
        if ((mask & ((ulong)1 << (7u * t + 5u))) == 0) {
            ulong ncur = cur ^ mask, nmask = mask | (mask + ((ulong)1 << (7u * t)));
            int clevel = (int)level + 1;
            k = GM_K_VALUE;
            if (gm_won(ncur ^ nmask))
                v = ismax ? GM_WIN - clevel : -(GM_WIN - clevel);
            else if (popcount(nmask) == 42)
                v = 0;
            else if (level + 1u == depth) {
                ulong ours = ismax ? ncur ^ nmask : ncur; /* at an odd child level they move */
                v = gm_eval(ours, nmask ^ ours);
            } else
                k = GM_K_PUSH;
        }
        kind[t] = k;
        cval[t] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && have) {
        volatile global uint *c = (volatile global uint *)ctr;
        uint coff = gm_level_off(level + 1u) + 7u * (x - gm_level_off(level));
        int acc = ismax ? -GM_INF : GM_INF;
        uint npush = 0, nodes = 1;
        for (uint t = 0; t < 7u; t++) {
            volatile global uint *cv = (volatile global uint *)&val[coff + t];
            if (kind[t] == GM_K_ILLEGAL) {
                device_atomic_xchg(cv, (uint)GM_ILLEGAL);
            } else if (kind[t] == GM_K_VALUE) {
                device_atomic_xchg(cv, (uint)cval[t]);
                acc = ismax ? max(acc, cval[t]) : min(acc, cval[t]);
                nodes++;
            } else {
                npush++;
            }
        }
        atomic_add(&c[GM_NODES], nodes);
        if (npush == 0u) {
            device_atomic_xchg((volatile global uint *)&val[x], (uint)acc);
            gm_answer(val, cnt, x, level, acc);
        } else {
            device_atomic_xchg((volatile global uint *)&val[x], (uint)acc);
            device_atomic_xchg((volatile global uint *)&cnt[x], 7u - npush);
            device_atomic_add(&c[GM_PENDING], npush);
            for (uint t = 0; t < 7u; t++) {
                if (kind[t] != GM_K_PUSH)
                    continue;
                ulong ncur = cur ^ mask, nmask = mask | (mask + ((ulong)1 << (7u * t)));
                uint task[GM_TASK] = {coff + t,    level + 1u,          (uint)ncur, (uint)(ncur >> 32),
                                      (uint)nmask, (uint)(nmask >> 32), 0u,         0u};
                if (!ws_pool_push(qmeta, qtasks, nq, cap, qid, task)) {
                    atomic_inc(&c[GM_OVERFLOW]);
                    device_atomic_sub(&c[GM_PENDING], 1u);
                }
            }
        }
        atomic_inc(&c[GM_DONE]);
        device_atomic_sub(&c[GM_PENDING], 1u); /* after the pushes and answers above */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void game_coop(global int *val, global uint *cnt, global uint *qmeta, global uint *qtasks, global uint *ctr,
                      uint nq, uint cap, uint depth)
{
    local uint lt[GM_L_T + GM_TASK];
    local int kind[7];
    local int cval[7];
    while (ws_pool_more_work(ctr, lt)) {
        if (get_group_id(0) == 0)
            request_fork();
        else
            offer_kill();
        uint qid = get_group_id(0);
        ws_pool_pop_or_steal(qmeta, qtasks, ctr, nq, cap, qid, lt);
        gm_process(val, cnt, qmeta, qtasks, ctr, nq, cap, qid, depth, lt, kind, cval);
    }
}
