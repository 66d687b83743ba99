/* Kernels for the portable synchronisation calls of ck_cooperative.h. The
 * same file runs as plain OpenCL (OpenCL C 1.2 and 3.0) and through the
 * framework (test_sync.c). Work-item 0 of each group synchronises with the
 * other groups; what it finds wrong is counted in err[0]. */
#define CK_PLAIN_BARRIER_WORDS ((volatile global uint *)0)
#include "ck_cooperative.h"

#define SYNC_REC 8u     /* words of one mutex-protected record */
#define SYNC_STRIDE 16u /* words between two mutexes */

/* One work-item checks the value every call returns. */
kernel void sync_single(global uint *w, global uint *res)
{
    if (get_global_id(0) != 0)
        return;
    volatile global uint *p = (volatile global uint *)w;
    volatile global int *q = (volatile global int *)(w + 1);
    volatile global uint *m = (volatile global uint *)(w + 2);
    device_store_release(p, 5u);
    res[0] = device_load_acquire(p); /* 5 */
    device_store_release_int(q, -3);
    res[1] = (uint)device_load_acquire_int(q);   /* (uint)-3 */
    res[2] = device_atomic_add(p, 4u);           /* 5, now 9 */
    res[3] = device_atomic_sub(p, 2u);           /* 9, now 7 */
    res[4] = device_atomic_xchg(p, 11u);         /* 7, now 11 */
    res[5] = device_atomic_cmpxchg(p, 11u, 12u); /* 11, now 12 */
    res[6] = device_atomic_cmpxchg(p, 11u, 99u); /* 12, unchanged */
    res[7] = device_load_acquire(p);             /* 12 */
    res[8] = (uint)device_mutex_try_lock(m);     /* 1: taken */
    res[9] = (uint)device_mutex_try_lock(m);     /* 0: already held */
    device_mutex_unlock(m);
    res[10] = device_load_acquire(m); /* 0 */
    device_mutex_lock(m);
    res[11] = device_load_acquire(m); /* 1 */
    device_mutex_unlock(m);
    device_fence_acquire();
    device_fence_release();
    device_fence_acq_rel();
    res[12] = 1u; /* ran */
}

/* Work-item 0 of every group, iters times: takes mutex (g * 7 + i) % nlocks
 * (by device_mutex_lock, or by spinning on device_mutex_try_lock every other
 * time) and updates that mutex's record with plain loads and stores: all its
 * words must be equal (else a holder saw another's writes half done), and
 * each becomes one more. done[0] counts the updates. */
kernel void sync_mutex(global uint *locks, global uint *records, uint nlocks, uint iters, global uint *err,
                       global uint *done)
{
    if (get_local_id(0) != 0)
        return;
    uint g = get_group_id(0);
    for (uint i = 0; i < iters; i++) {
        uint k = (g * 7u + i) % nlocks;
        volatile global uint *m = (volatile global uint *)locks + k * SYNC_STRIDE;
        if (i & 1u) {
            while (!device_mutex_try_lock(m)) {
            }
        } else {
            device_mutex_lock(m);
        }
        global uint *r = records + k * SYNC_REC;
        uint v = r[0];
        for (uint j = 1; j < SYNC_REC; j++)
            if (r[j] != v)
                atomic_inc(err);
        for (uint j = 0; j < SYNC_REC; j++)
            r[j] = v + 1u;
        device_mutex_unlock(m);
    }
    device_atomic_add((volatile global uint *)done, iters);
}

/* A turn passes round-robin between the groups: in round r, group r % M
 * waits until turn == r, checks that the payload (plain stores of the last
 * holder) holds r everywhere, writes r + 1 into it and passes the turn on. */
kernel void sync_relay(global uint *turn, global uint *payload, uint words, uint rounds, global uint *err)
{
    if (get_local_id(0) != 0)
        return;
    uint g = get_group_id(0), groups = get_num_groups(0);
    for (uint r = g; r < rounds; r += groups) {
        while (device_load_acquire((volatile global uint *)turn) != r) {
        }
        for (uint j = 0; j < words; j++)
            if (payload[j] != r) {
                atomic_inc(err);
                break;
            }
        for (uint j = 0; j < words; j++)
            payload[j] = r + 1u;
        device_store_release((volatile global uint *)turn, r + 1u);
    }
}

/* Waits for a mutex nobody releases: only the host's abort ends it. */
kernel void sync_lock_forever(global uint *lock)
{
    if (get_local_id(0) == 0)
        device_mutex_lock((volatile global uint *)lock);
}

/* What ck_atomics.h chose for this build: bit 0 the 2.0 atomics path, bit 1
 * NVIDIA's PTX fences. */
kernel void sync_config(global uint *out)
{
    uint v = 0u;
#if defined(CK_PATH_CL20)
    v |= 1u;
#endif
#if defined(CK_NV_PTX_FENCES)
    v |= 2u;
#endif
    if (get_global_id(0) == 0)
        out[0] = v;
}
