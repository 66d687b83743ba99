/* examples/workstealing/workstealing.cl: work stealing with offer_kill and
 * request_fork. The tasks are the nodes of a binary tree numbered like a heap
 * (node t has children 2t+1 and 2t+2 below n_nodes); processing a node, the
 * whole work-group hashes `units` numbers derived from it into a checksum,
 * then thread 0 pushes the node's children on its own queue. There are nq
 * queues (one per group the launch may have), each a stack under a mutex; a
 * group pops from its own queue and steals from the others when it is empty.
 * ctr[PENDING] counts tasks created and not yet finished: the work is done
 * when it reaches 0, whoever left or joined meanwhile. */
#include "ck_cooperative.h"

#define NO_TASK 0xffffffffu
#define PENDING 0 /* counters in ctr */
#define DONE 1
#define SUM 2
#define STEALS 3

uint hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* Thread 0: pushes task t on queue q (meta[2q] is its mutex, meta[2q+1] its
 * size; a queue has room for every task). */
void push(volatile global uint *meta, volatile global uint *tasks, uint cap, uint q, uint t)
{
    device_mutex_lock(&meta[2 * q]);
    uint n = meta[2 * q + 1];
    tasks[q * cap + n] = t;
    meta[2 * q + 1] = n + 1u;
    device_mutex_unlock(&meta[2 * q]); /* the next holder sees the task */
}

/* README:begin steal */
/* Thread 0: pops a task from queue `own`, else steals one from another
 * queue (a killed group may have left tasks in its queue). */
uint pop_or_steal(volatile global uint *meta, volatile global uint *tasks, volatile global uint *ctr,
                  uint nq, uint cap, uint own)
{
    for (uint i = 0; i < nq; i++) {
        uint q = (own + i) % nq, t = NO_TASK;
        if (meta[2 * q + 1] == 0u)    /* a quick look; checked again under the lock */
            continue;
        device_mutex_lock(&meta[2 * q]);
        uint n = meta[2 * q + 1];
        if (n > 0u) {
            t = tasks[q * cap + n - 1u];
            meta[2 * q + 1] = n - 1u;
        }
        device_mutex_unlock(&meta[2 * q]);
        if (t != NO_TASK) {
            if (i > 0)
                atomic_inc(&ctr[STEALS]);
            return t;
        }
    }
    return NO_TASK;
}
/* README:end steal */

/* Work-group level: is any task pending? Thread 0 reads, everyone answers. */
int more_work(volatile global uint *ctr, local uint *flag)
{
    if (get_local_id(0) == 0)
        *flag = device_load_acquire(&ctr[PENDING]) != 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    return *flag;
}

/* README:begin kernel */
kernel void steal(volatile global uint *meta, volatile global uint *tasks, volatile global uint *ctr,
                  uint nq, uint cap, uint n_nodes, uint units)
{
    local uint more;
    local uint task;
    local uint sum;
    while (more_work(ctr, &more)) {  /* the whole group leaves the loop together */
        offer_kill();                /* holding no task and no lock: a group may leave here */
        request_fork();              /* new groups start here, with the arguments only */
        uint own = get_group_id(0);  /* read after the fork point: right for new groups too */
        if (get_local_id(0) == 0) {
            task = pop_or_steal(meta, tasks, ctr, nq, cap, own);
            sum = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint t = task, s = 0;
        for (uint u = get_local_id(0); t != NO_TASK && u < units; u += get_local_size(0))
            s += hash(hash(t) + u);
        atomic_add(&sum, s);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0 && t != NO_TASK) {
            uint first = 2u * t + 1u;
            uint kids = first >= n_nodes ? 0u : first + 1u < n_nodes ? 2u : 1u;
            device_atomic_add(&ctr[PENDING], kids); /* the children count before... */
            for (uint c = 0; c < kids; c++)
                push(meta, tasks, cap, own, first + c);
            atomic_add(&ctr[SUM], sum);
            atomic_inc(&ctr[DONE]);
            device_atomic_sub(&ctr[PENDING], 1u);   /* ...the parent retires */
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* every thread-0 stretch ends with a barrier */
    }
}
/* README:end kernel */
