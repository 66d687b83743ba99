/* Kernels of the accounting test (test_accounting.c): `shift` adds `by` to
 * the word `word` words past its buffer, which the test points at one of
 * the scheduler's counts in the arena's runtime region: a deliberate
 * break of the accounting that the checking build must report. `count` is
 * an ordinary kernel that does nothing wrong, and `forks` a cooperative
 * one that forks and is killed, for a clean run under the checks. */
#include "ck_cooperative.h"

kernel void shift(global uint *base, uint word, uint by)
{
    if (get_global_id(0) == 0)
        atomic_add(base + word, by);
}

kernel void count(global uint *n)
{
    if (get_local_id(0) == 0)
        atomic_inc(n);
}

kernel void forks(global uint *rounds, uint n)
{
    for (transmit uint r = 0; r < n; ++r) {
        resizing_global_barrier();
        if (get_group_id(0) == 0 && get_local_id(0) == 0)
            atomic_inc(rounds);
        global_barrier();
    }
}
