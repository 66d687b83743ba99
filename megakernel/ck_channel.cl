/* Device side of the host-device channel (layout in ck_channel_layout.h).
 * The device is the single consumer of the host-to-device ring and the single
 * producer of the device-to-host ring: exactly one work-item of the whole
 * launch may use a cursor. The cursor keeps the indices the device owns in
 * private memory, so a message costs no read of them from host memory (on a
 * discrete GPU every such read crosses the bus). Any work-item may read the
 * abort flag. */

typedef struct {
    uint h2d_tail; /* messages taken (device-owned)          */
    uint d2h_head; /* messages published (device-owned)      */
    uint d2h_tail; /* last seen host progress on the d2h ring */
} ck_ch_cursor;

/* The megakernel's scheduler keeps its cursor in local memory with the rest
 * of its state (ck_scheduler.cl says why); elsewhere a cursor is private. */
#ifdef CK_MEGAKERNEL
#define CK_CURSOR local ck_ch_cursor
#else
#define CK_CURSOR ck_ch_cursor
#endif

/* Nonzero once the host has asked every spin loop to give up. */
uint ck_ch_aborted(CK_PTR ch) { return ck_sys_load_relaxed(ch + CK_CH_ABORT); }

/* Takes ownership of the device-side indices. */
void ck_ch_open(CK_PTR ch, CK_CURSOR *c)
{
    c->h2d_tail = ck_sys_load_relaxed(ch + CK_CH_H2D_TAIL);
    c->d2h_head = ck_sys_load_relaxed(ch + CK_CH_D2H_HEAD);
    c->d2h_tail = ck_sys_load_acquire(ch + CK_CH_D2H_TAIL);
}

/* Reads the tagged words of the slot of the oldest unread host message (one
 * batch of loads: one trip across the bus). Returns 1 and that message's
 * first CK_CH_TAGGED words in w if all of them carry its tag (the host has
 * written the whole message), else 0. The last tagged word is read with
 * acquire, so the rest of the message (ck_ch_read, ck_ch_copy_body), and
 * whatever the host wrote before it sent the message, is visible after a
 * yes. (The host writes the rest, then the tagged words after a release
 * fence: a tag read by an acquire load synchronizes with that fence.) */
uint ck_ch_next(CK_PTR ch, CK_CURSOR *c, uint *w)
{
    ulong v[4];
    uint slot = c->h2d_tail & (CK_CH_SLOTS - 1u);
    ck_sys_load4x64_acquire((CK_PTR64)(ch + CK_CH_H2D_RING + slot * CK_CH_MSG_WORDS), v);
    uint tag = c->h2d_tail + 1u, ok = 1u;
    for (uint i = 0; i < CK_CH_TAGGED; ++i) {
        w[i] = (uint)v[i];
        ok &= (uint)(v[i] >> 32) == tag;
    }
    return ok;
}

/* Slot of the oldest unread host message, or -1 if there is none (the
 * message's words are then readable with ck_ch_read). */
int ck_ch_poll(CK_PTR ch, CK_CURSOR *c)
{
    uint w[CK_CH_TAGGED];
    if (!ck_ch_next(ch, c, w))
        return -1;
    return (int)(c->h2d_tail & (CK_CH_SLOTS - 1u));
}

/* Word `word` of host message `slot`. */
uint ck_ch_read(CK_PTR ch, uint slot, uint word)
{
    return ck_sys_load_relaxed(ch + CK_CH_H2D_RING + slot * CK_CH_MSG_WORDS + CK_CH_H2D_WORD(word));
}

/* Hands the slot returned by the last ck_ch_poll back to the host. */
void ck_ch_consume(CK_PTR ch, CK_CURSOR *c)
{
    c->h2d_tail += 1u;
    ck_sys_store_release(ch + CK_CH_H2D_TAIL, c->h2d_tail);
}

/* Slot where the next device message may be written, or -1 if the ring is full. */
int ck_ch_reserve(CK_PTR ch, CK_CURSOR *c)
{
    if (c->d2h_head - c->d2h_tail >= CK_CH_SLOTS) {
        c->d2h_tail = ck_sys_load_acquire(ch + CK_CH_D2H_TAIL);
        if (c->d2h_head - c->d2h_tail >= CK_CH_SLOTS)
            return -1;
    }
    return (int)(c->d2h_head & (CK_CH_SLOTS - 1u));
}

void ck_ch_write(CK_PTR ch, uint slot, uint word, uint value)
{
    ck_sys_store_relaxed(ch + CK_CH_D2H_RING + slot * CK_CH_MSG_WORDS + word, value);
}

/* Makes the message in the reserved slot visible to the host. */
void ck_ch_publish(CK_PTR ch, CK_CURSOR *c)
{
    c->d2h_head += 1u;
    ck_sys_store_release(ch + CK_CH_D2H_HEAD, c->d2h_head);
}

/* Batched use, for a loop that handles several messages per pass: commit
 * counts the reserved slot as written, flush makes every committed message
 * visible with one release store (one bus round trip for all of them). */
void ck_ch_commit(CK_CURSOR *c) { c->d2h_head += 1u; }
void ck_ch_flush(CK_PTR ch, CK_CURSOR *c) { ck_sys_store_release(ch + CK_CH_D2H_HEAD, c->d2h_head); }

/* The slot of the oldest untaken host message is ck_ch_slot(c); take
 * advances past it, and release_taken hands every taken slot back to the
 * host at once. */
uint ck_ch_slot(CK_CURSOR *c) { return c->h2d_tail & (CK_CH_SLOTS - 1u); }
void ck_ch_take(CK_CURSOR *c) { c->h2d_tail += 1u; }
void ck_ch_release_taken(CK_PTR ch, CK_CURSOR *c) { ck_sys_store_release(ch + CK_CH_H2D_TAIL, c->h2d_tail); }

/* Copies words CK_CH_TAGGED .. CK_CH_TAGGED + n - 1 of host message `slot`
 * (those after the tagged words, which sit from slot word 2 * CK_CH_TAGGED
 * on, 32-byte aligned) to device memory, eight reads of host memory in one
 * batch at a time. */
void ck_ch_copy_body(CK_PTR ch, uint slot, CK_PTR dst, uint n)
{
    CK_PTR src = ch + CK_CH_H2D_RING + slot * CK_CH_MSG_WORDS + CK_CH_H2D_WORD(CK_CH_TAGGED);
    for (uint i = 0; i < n; i += 8u) {
        uint v[8];
        ck_sys_load8_relaxed(src + i, v);
        for (uint j = 0; j < 8u && i + j < n; ++j)
            ck_store_relaxed(dst + i + j, v[j]);
    }
}
