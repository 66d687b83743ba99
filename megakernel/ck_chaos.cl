/* Keyed chaos: the random choices of chaos mode, their record and their
 * replay (device side). Every choice is a pure function of a key, not of the
 * order in which groups reach the lock:
 *   (seed, launch, kind of decision, logical group, birth, n)
 * where launch is the launch's number among its context's cooperative
 * launches (ck_launch_slot.cx_key: the same in every run of a program, whatever the
 * ordinary launches between them, so a record replays in a new process), n
 * is the n-th call of that kind by that group in the launch (the
 * group's own counter, so it does not depend on timing) and birth tells
 * apart the incarnations of a logical id that was killed and forked again
 * (0 for groups started with the launch, a value derived from the fork's own
 * key for forked groups: their counters start at 0 under that birth). A
 * resizing barrier is keyed by its epoch, the sequence number of the barrier
 * word, which every group of the launch sees the same.
 *
 * The chaos area (host: runtime/chaos.c) lives in the arena; its layout is
 * CK_CX_* in ck_sched_layout.h. Recording appends one entry per decision
 * until the area is full (then counts what it dropped); replay looks the key
 * up in the host's sorted table. All of it runs only in chaos mode. */

/* murmur3's mixing step and finaliser. */
uint ck_cx_mix(uint h, uint v)
{
    v *= 0xcc9e2d51u;
    v = rotate(v, 15u);
    v *= 0x1b873593u;
    h ^= v;
    h = rotate(h, 13u);
    return h * 5u + 0xe6546b64u;
}

uint ck_cx_fmix(uint h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/* The sub-th random word of the decision with key k0..k3. */
uint ck_cx_draw(uint seed, uint k0, uint k1, uint k2, uint k3, uint sub)
{
    uint h = ck_cx_mix(ck_cx_mix(ck_cx_mix(ck_cx_mix(ck_cx_mix(seed, k0), k1), k2), k3), sub);
    return ck_cx_fmix(h ^ 20u);
}

/* Second key word: the kind of decision and the logical group. */
uint ck_cx_kg(uint kind, uint group) { return (kind << 24) | (group & 0xffffffu); }

uint ck_cx_replaying(CK_PTR cx) { return cx != 0 && (ck_load_relaxed(cx + CK_CX_FLAGS) & CK_CX_FLAG_REPLAY); }

/* Replay: the recorded value of a key, or `absent` if the record lacks it
 * (binary search in the sorted table). */
uint ck_cx_lookup(CK_PTR cx, uint k0, uint k1, uint k2, uint k3, uint absent)
{
    uint lo = 0, hi = ck_load_relaxed(cx + CK_CX_TABLE_N);
    CK_PTR t = cx + CK_CX_HEADER;
    while (lo < hi) {
        uint mid = lo + (hi - lo) / 2u;
        CK_PTR e = t + mid * CK_CX_ENTRY;
        uint a[4] = {ck_load_relaxed(e + 0), ck_load_relaxed(e + 1), ck_load_relaxed(e + 2), ck_load_relaxed(e + 3)};
        uint b[4] = {k0, k1, k2, k3};
        int cmp = 0;
        for (uint i = 0; i < 4u && cmp == 0; ++i)
            cmp = a[i] < b[i] ? -1 : a[i] > b[i] ? 1 : 0;
        if (cmp == 0)
            return ck_load_relaxed(e + CK_CX_E_VALUE);
        if (cmp < 0)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return absent;
}

/* Appends one decision to the record: its key, the value that took effect,
 * M before and after, and (replay) the recorded value when the model could
 * not make it. A full area counts the entry as dropped (the host says the
 * record is truncated). */
void ck_cx_record(CK_PTR cx, uint k0, uint k1, uint k2, uint k3, uint value, uint m_before, uint m_after,
                  uint diverged, uint wanted)
{
    if (cx == 0)
        return;
    if (diverged)
        ck_fetch_add(cx + CK_CX_DIVERGED, 1u);
    uint i = ck_fetch_add(cx + CK_CX_COUNT, 1u);
    if (i >= ck_load_relaxed(cx + CK_CX_CAPACITY))
        return;
    CK_PTR e = cx + CK_CX_HEADER + (ck_load_relaxed(cx + CK_CX_TABLE_N) + i) * CK_CX_ENTRY;
    ck_store_relaxed(e + 0, k0);
    ck_store_relaxed(e + 1, k1);
    ck_store_relaxed(e + 2, k2);
    ck_store_relaxed(e + 3, k3);
    ck_store_relaxed(e + CK_CX_E_VALUE, value);
    ck_store_relaxed(e + CK_CX_E_BEFORE, m_before);
    ck_store_relaxed(e + CK_CX_E_AFTER, m_after);
    ck_store_relaxed(e + CK_CX_E_FLAGS, diverged ? (wanted << 1) | 1u : 0u);
}

/* Replay waits this many spins at most for the state a recorded choice
 * needs (idle workers for a fork, M for a kill) before it makes the nearest
 * legal choice instead. */
#define CK_CX_WAIT_SPINS (1u << 18)

/* The initial M of the `key`-th cooperative launch under chaos, from the
 * `m0` groups the policy would start it with: a replay takes the recorded
 * one (`rec`, at least 1 and at most m0), a recording draws one from 1 to
 * m0. */
uint ck_cx_start_groups(uint seed, uint key, uint k1, uint m0, uint replay, uint rec)
{
    return replay ? max(min(rec, m0), 1u) : 1u + ck_cx_draw(seed, key, k1, 0u, 0u, 0u) % m0;
}
