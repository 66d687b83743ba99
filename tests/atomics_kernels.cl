/* Test kernels for the portable atomics layer (include/ck_atomics.h). */

/* One work-item checks the value each operation returns and leaves. */
kernel void single_ops(CK_PTR a, global uint *res)
{
    if (get_global_id(0) != 0)
        return;
    ck_store_relaxed(a, 5u);
    res[0] = ck_load_relaxed(a); /* 5 */
    ck_store_release(a, 7u);
    res[1] = ck_load_acquire(a); /* 7 */
    res[2] = ck_fetch_add(a, 3u);
    res[3] = ck_load_relaxed(a);  /* 7, 10 */
    res[4] = ck_fetch_sub(a, 4u); /* 10 -> 6 */
    res[5] = ck_cas(a, 6u, 11u);
    res[6] = ck_load_relaxed(a); /* 6, 11 */
    res[7] = ck_cas(a, 6u, 99u);
    res[8] = ck_load_relaxed(a); /* 11, 11 */
    res[9] = ck_exchange(a, 42u);
    res[10] = ck_load_relaxed(a); /* 11, 42 */
    res[11] = ck_fetch_or(a, 0x100u);
    res[12] = ck_load_relaxed(a); /* 42, 0x12a */
    ck_fence_acq_rel();
    ck_sys_fence();
    ck_sys_store_release(a + 1, 77u);
    res[13] = ck_sys_load_acquire(a + 1); /* 77 */
    ck_sys_store_relaxed(a + 1, 78u);
    res[14] = ck_sys_load_relaxed(a + 1); /* 78 */
    res[15] = 1u;                         /* ran */
    ck_store_relaxed(a, 0x12au);
    res[16] = ck_fetch_add_relaxed(a, 1u);
    res[17] = ck_load_relaxed(a); /* 0x12a, 0x12b */
    res[18] = ck_cas_relaxed(a, 0x12bu, 3u);
    res[19] = ck_load_relaxed(a); /* 0x12b, 3 */
    res[20] = ck_cas_relaxed(a, 0x12bu, 9u);
    res[21] = ck_load_relaxed(a); /* 3, 3 */
}

/* Every work-item of every group adds 1, iters times (with the relaxed
 * form when `relaxed` is nonzero: no update may be lost either way). */
kernel void contended_add(CK_PTR counter, uint iters, uint relaxed)
{
    for (uint i = 0; i < iters; ++i) {
        if (relaxed)
            ck_fetch_add_relaxed(counter, 1u);
        else
            ck_fetch_add(counter, 1u);
    }
}

/* Every work-item increments through a compare-exchange loop (the relaxed
 * form when `relaxed` is nonzero). */
kernel void contended_cas(CK_PTR counter, uint iters, uint relaxed)
{
    for (uint i = 0; i < iters; ++i) {
        uint seen = ck_load_relaxed(counter);
        for (;;) {
            uint found = relaxed ? ck_cas_relaxed(counter, seen, seen + 1u) : ck_cas(counter, seen, seen + 1u);
            if (found == seen)
                break;
            seen = found;
        }
    }
}

/* Every work-item swaps unique values into one slot and counts, per value,
 * how often it came back out: each value but the last must come back once. */
kernel void exchange_tokens(CK_PTR slot, CK_PTR seen, uint per_item)
{
    uint base = (uint)get_global_id(0) * per_item;
    for (uint k = 0; k < per_item; ++k) {
        uint old = ck_exchange(slot, base + k);
        ck_fetch_add(seen + old, 1u);
    }
}

/* Group 0 publishes a block of plain data then a flag (release); group 1
 * waits for the flag (acquire), checks the data and acknowledges. */
kernel void message_passing(CK_PTR flag, CK_PTR ack, global uint *data, global uint *errors, uint rounds)
{
    if (get_local_id(0) != 0)
        return;
    uint g = get_group_id(0);
    for (uint r = 1; r <= rounds; ++r) {
        if (g == 0) {
            for (uint i = 0; i < 16; ++i)
                data[i] = r * 16u + i;
            ck_store_release(flag, r);
            for (uint s = 0; ck_load_acquire(ack) != r; ++s)
                if (s > (1u << 31)) {
                    errors[1] = 1u;
                    return;
                }
        } else {
            for (uint s = 0; ck_load_acquire(flag) != r; ++s)
                if (s > (1u << 31)) {
                    errors[1] = 1u;
                    return;
                }
            for (uint i = 0; i < 16; ++i)
                if (data[i] != r * 16u + i)
                    errors[0] += 1u;
            ck_store_release(ack, r);
        }
    }
}

/* Thread 0 of every group takes a spin lock (cas acquire / store release)
 * and increments a plain counter inside it. */
kernel void mutex_counter(CK_PTR lock, global uint *counter, uint iters)
{
    if (get_local_id(0) != 0)
        return;
    for (uint i = 0; i < iters; ++i) {
        while (ck_cas(lock, 0u, 1u) != 0u) {
        }
        *counter = *counter + 1u;
        ck_store_release(lock, 0u);
    }
}
