/* Occupancy discovery inside a launch (the poll of Sorensen et al., OOPSLA
 * 2016) and a barrier among the discovered work-groups.
 *
 * poll[0] is the ticket word: low 31 bits count tickets, the top bit closes
 * the poll. A work-group whose ticket was taken while the poll was open is
 * running at that moment, and no ticket holder leaves before the poll closes,
 * so every ticket holder is co-resident with every other: the count never
 * over-states occupancy, whatever the launch size. Ticket 0 mirrors the count
 * into the channel and closes the poll when the host asks (the host waits for
 * the count to settle, see runtime/occupancy.c); late work-groups exit. */

#define CK_SPIN_CHECK 255u /* spins between two looks at the abort flag */

/* Returns this work-group's ticket, or -1 if it must exit (late, or aborted).
 * On success *n_out (all work-items) is the number of discovered groups.
 * poll: 2 device words, zeroed before launch. scratch: 2 local words. */
int ck_discover(CK_PTR poll, CK_PTR ch, local uint *scratch, uint *n_out)
{
    if (get_local_id(0) == 0) {
        uint old = ck_fetch_add(poll, 1u);
        int ticket = (old & CK_POLL_CLOSED) ? -1 : (int)(old & CK_POLL_MASK);
        uint n = 0;
        if (ticket == 0) {
            for (uint spins = 0;; ++spins) {
                uint seen = ck_load_acquire(poll) & CK_POLL_MASK;
                ck_sys_store_relaxed(ch + CK_CH_POLL_COUNT, seen);
                if (ck_sys_load_acquire(ch + CK_CH_POLL_CLOSE)) {
                    n = ck_fetch_or(poll, CK_POLL_CLOSED) & CK_POLL_MASK;
                    ck_store_release(poll + 1, n + 1u);
                    ck_sys_store_release(ch + CK_CH_POLL_FINAL, n + 1u);
                    break;
                }
                if (ck_ch_aborted(ch)) {
                    ticket = -1;
                    break;
                }
            }
        } else if (ticket > 0) {
            for (uint spins = 0;; ++spins) {
                uint f = ck_load_acquire(poll + 1);
                if (f) {
                    n = f - 1u;
                    break;
                }
                if ((spins & CK_SPIN_CHECK) == 0 && ck_ch_aborted(ch)) {
                    ticket = -1;
                    break;
                }
            }
        }
        scratch[0] = (uint)ticket;
        scratch[1] = n;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *n_out = scratch[1];
    int t = (int)scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return t;
}

/* Barrier among n co-resident work-groups. bar[0] counts arrivals, bar[1] is
 * the generation. Every work-item fences so that all global writes before the
 * barrier are visible to all work-items after it. Returns nonzero if it gave
 * up because the host aborted. */
int ck_discovered_barrier(CK_PTR bar, uint n, CK_PTR ch, local uint *scratch)
{
    ck_fence_acq_rel();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        uint aborted = 0;
        uint gen = ck_load_acquire(bar + 1);
        if (ck_fetch_add(bar, 1u) == n - 1u) {
            ck_store_relaxed(bar, 0u);
            ck_store_release(bar + 1, gen + 1u);
        } else {
            for (uint spins = 0; ck_load_acquire(bar + 1) == gen; ++spins)
                if ((spins & CK_SPIN_CHECK) == 0 && ck_ch_aborted(ch)) {
                    aborted = 1;
                    break;
                }
        }
        scratch[0] = aborted;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    ck_fence_acq_rel();
    uint a = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return (int)a;
}
