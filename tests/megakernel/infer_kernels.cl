/* Cooperative kernels written without transmit, the way OpenCL C is usually
 * written: each carries private values across its fork points undeclared
 * (test_infer.c runs them with transmit inference, under chaos, and checks
 * that the build without inference lists every such value). */

/* A resizing barrier per round; the round counter, an offset and an output
 * pointer cross it. Every element gets r + base added in round r. */
kernel void rounds_inferred(global uint *data, global uint *out, uint n, uint rounds)
{
    uint base = n / 2;
    global uint *dst = out + 1;
    for (uint r = 0; r < rounds; r++) {
        uint gid = get_global_id(0), gsz = get_global_size(0);
        for (uint i = gid; i < n; i += gsz)
            data[i] += r + base;
        resizing_global_barrier();
    }
    if (get_global_id(0) == 0)
        dst[0] = rounds + base;
}

/* A task loop that forks and offers kills: a group takes task numbers from
 * a counter until they run out; the scale and the slots pointer cross the
 * fork point. Every task's slot gets scale added exactly once. */
kernel void tasks_inferred(global uint *slots_base, global uint *counter, uint n_tasks, uint weight)
{
    local uint task;
    uint scale = weight + 1;
    global uint *slots = slots_base;
    for (;;) {
        if (get_local_id(0) == 0)
            task = atomic_inc(counter);
        barrier(CLK_LOCAL_MEM_FENCE);
        uint t = task;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t >= n_tasks)
            break;
        if (get_local_id(0) == 0)
            slots[t] += scale;
        request_fork();
        offer_kill();
    }
}

/* Resizing barriers inside a helper, whose own local crosses them; the
 * caller's loop counter crosses them too. Round r adds r + 1 to every
 * element. */
void phase_inferred(global uint *data, uint n, uint add)
{
    uint step = add / 2;
    resizing_global_barrier();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        data[i] += step + 1;
    resizing_global_barrier();
}

kernel void helper_inferred(global uint *data, uint n, uint rounds)
{
    for (uint r = 0; r < rounds; r++)
        phase_inferred(data, n, 2 * r);
}

/* Fork-point helpers called where expressions stand: in a while condition,
 * inside && and || (called in some rounds, skipped by short-circuiting in
 * others), and returned by another helper. calls[0] counts the calls of
 * round_due (the one work-item with global id 0 after the barrier adds 1),
 * so a call that short-circuiting should skip shows up. Two call sites
 * only, the second in the loop's body: PoCL's compile time roughly doubles
 * with each fork point under a condition (the stitcher's README says why). */
uint round_due(global uint *calls, uint r, uint rounds)
{
    resizing_global_barrier();
    if (get_global_id(0) == 0)
        calls[0] += 1;
    return r < rounds;
}

uint next_due(global uint *calls, uint r, uint rounds)
{
    return round_due(calls, r + 1, rounds);
}

kernel void forms_inferred(global uint *data, global uint *calls, uint n, uint rounds)
{
    uint r = 0, tail = n % 5, extra = 0;
    while (round_due(calls, r, rounds)) {
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] += r + tail;
        /* next_due runs only where r % 3 != 0 and r is odd */
        if (r % 3 != 0 && (r % 2 == 0 || next_due(calls, r, rounds)))
            extra += 1;
        r++;
    }
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        data[i] += extra;
}
