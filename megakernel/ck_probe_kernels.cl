/* Kernels of the foundation probes: occupancy discovery with a checked
 * barrier (ckinfo, tests) and the channel echo (round-trip latency, tests). */

#define CK_MSG_QUIT 1u
#define CK_MSG_ECHO 2u

/* Discovers the co-resident groups, then runs `rounds` barriers among them.
 * In round r group i writes data[i] = r*n + i, passes a barrier, checks the
 * value of group (i+1)%n, and passes a second barrier.
 * out[0] = discovered n, out[1] = check failures, out[2] = groups finished,
 * out[3] = 1 if aborted. `overcount` adds phantom groups to n (a test hook that
 * must make the barrier time out). */
kernel void ck_occupancy_probe(CK_PTR poll, CK_PTR ch, CK_PTR bar, global uint *data, CK_PTR out, uint rounds,
                               uint overcount)
{
    local uint scratch[2];
    uint n;
    int id = ck_discover(poll, ch, scratch, &n);
    if (id < 0)
        return;
    if (id == 0 && get_local_id(0) == 0)
        ck_store_relaxed(out, n);
    uint groups = n + overcount;
    uint errors = 0;
    for (uint r = 0; r < rounds; ++r) {
        if (get_local_id(0) == 0)
            data[id] = r * groups + (uint)id;
        if (ck_discovered_barrier(bar, groups, ch, scratch)) {
            if (get_local_id(0) == 0)
                ck_store_relaxed(out + 3, 1u);
            return;
        }
        uint peer = ((uint)id + 1u) % n;
        if (get_local_id(0) == 0 && data[peer] != r * groups + peer)
            ++errors;
        if (ck_discovered_barrier(bar, groups, ch, scratch)) {
            if (get_local_id(0) == 0)
                ck_store_relaxed(out + 3, 1u);
            return;
        }
    }
    if (get_local_id(0) == 0) {
        if (errors)
            ck_fetch_add(out + 1, errors);
        ck_fetch_add(out + 2, 1u);
    }
}

/* One work-item answers every host message with a copy whose payload words
 * (2..len-1) are complemented; word 1 (a sequence number) is copied as is.
 * Ends on a QUIT message or on abort. */
kernel void ck_channel_echo(CK_PTR ch)
{
    if (get_global_id(0) != 0)
        return;
    ck_ch_cursor cur;
    ck_ch_open(ch, &cur);
    for (uint spins = 0;; ++spins) {
        int in = ck_ch_poll(ch, &cur);
        if (in < 0) {
            if ((spins & CK_SPIN_CHECK) == 0 && ck_ch_aborted(ch))
                return;
            continue;
        }
        uint w0 = ck_ch_read(ch, (uint)in, 0);
        if (CK_MSG_TYPE(w0) == CK_MSG_QUIT) {
            ck_ch_consume(ch, &cur);
            return;
        }
        int outs;
        while ((outs = ck_ch_reserve(ch, &cur)) < 0)
            if (ck_ch_aborted(ch))
                return;
        uint len = min(CK_MSG_LEN(w0), CK_CH_H2D_MAX_WORDS);
        uint words[CK_CH_H2D_MAX_WORDS];
        for (uint w = 1; w < len; ++w) /* all reads first: they overlap on a bus */
            words[w] = ck_ch_read(ch, (uint)in, w);
        ck_ch_write(ch, (uint)outs, 0, CK_MSG_HEADER(CK_MSG_ECHO, len));
        for (uint w = 1; w < len; ++w)
            ck_ch_write(ch, (uint)outs, w, w == 1 ? words[w] : ~words[w]);
        ck_ch_consume(ch, &cur);
        ck_ch_publish(ch, &cur);
    }
}
