/* Device header for kernel authors: the cooperative kernels primitives with
 * the paper's names, and the portable synchronisation calls that work between
 * work-groups on every device. Include it from OpenCL C:
 *
 *     #include "ck_cooperative.h"
 *
 *   offer_kill()                 the work-group offers to leave (M-1 only, never 0)
 *   request_fork()               new work-groups may join right after this call
 *   global_barrier()             all active work-groups, with memory ordering
 *   resizing_global_barrier()    the same, and M may change inside it
 *   transmit                     qualifier of a cooperative kernel's variables
 *                                (any block, for-inits too) whose values forked
 *                                groups inherit from work-item 0 of the forking
 *                                group; by default the build infers it where a
 *                                forked group would read a variable before
 *                                assigning it (ck_context_options.transmit_mode)
 *
 * Synchronisation between work-groups (device scope, global memory). Plain
 * loads, stores, mem_fence and the OpenCL 1.2 atomic_* functions are not
 * enough for it: atomic_* order nothing around them, and NVIDIA's OpenCL
 * compiles mem_fence(CLK_GLOBAL_MEM_FENCE) too weakly to order memory between
 * work-groups (on the H100 a work-stealing kernel whose locks used mem_fence
 * hung every time; with these calls it is correct). Use these instead:
 *
 *   device_fence_acquire()       later accesses stay after it
 *   device_fence_release()       earlier accesses complete before it
 *   device_fence_acq_rel()       both
 *   device_load_acquire(p)       uint load; later accesses stay after it
 *   device_load_acquire_int(p)   the same for int
 *   device_store_release(p, v)   uint store; earlier accesses complete first
 *   device_store_release_int(p, v)
 *   device_atomic_add(p, v)      atomic read-modify-writes of a uint that are
 *   device_atomic_sub(p, v)      also acquire and release fences: use them for
 *   device_atomic_xchg(p, v)     counters and flags that announce data (the
 *   device_atomic_cmpxchg(p, e, d)  1.2 atomic_* functions order nothing).
 *                                Each returns the old value; cmpxchg stored d
 *                                iff the old value equals e.
 *   device_mutex_try_lock(m)     1 if it took the mutex (word *m == 0: free)
 *   device_mutex_lock(m)         spins until it holds the mutex
 *   device_mutex_unlock(m)       releases it; the holder's writes are visible
 *                                to the next holder
 *
 * Pointers are `volatile global uint *` (or `int *` for the _int calls). The
 * mutex calls are work-item level: let one work-item of a group (usually
 * local id 0) take and release the lock, and share what it read through local
 * memory and barrier(). Through the framework, a device_mutex_lock that waits
 * while the host aborts the megakernel (after a timeout) gives up so the
 * megakernel can stop; the kernel's results are void then.
 *
 * Under the framework (the runtime stitches your source into the megakernel)
 * the runtime puts this header in front of your code itself; the stitcher
 * rewrites the primitives, and get_group_id, get_num_groups, get_global_id
 * and get_global_size return the logical values of the cooperative model.
 *
 * Without the framework (plain OpenCL, the paper's backwards compatibility)
 * build with -I pointing at this directory (ck_atomics.h is included from
 * here; it picks the atomics path from -cl-std and NVIDIA's fences from the
 * compiler). The synchronisation calls work as above, and the primitives
 * become what the occupancy-bound execution model allows: offer_kill and
 * request_fork are no-ops, transmit is nothing, and both barriers are a spin
 * barrier across all work-groups of the launch, which only completes if every
 * group is co-resident (launch no more groups than the discovered occupancy,
 * see ckinfo). The barrier needs CK_PLAIN_BARRIER_N_WORDS (64) zeroed words of
 * global memory, two 128-byte lines (arrivals on one, the generation its
 * waiters spin on on the other, so arrivals do not contend with spinning
 * reads, as in the megakernel's own barrier): where the
 * compiler has program-scope global variables (OpenCL C 2.0, or 3.0 with
 * __opencl_c_program_scope_global_variables) they are one; elsewhere (OpenCL
 * C 1.2: NVIDIA; PoCL 3.1) define CK_PLAIN_BARRIER_WORDS to an expression of
 * type `volatile global uint *` (for instance a kernel parameter) before
 * including this header, or the barrier fails to compile with a name that
 * says so. */
#ifndef CK_COOPERATIVE_H
#define CK_COOPERATIVE_H

#ifndef CK_ATOMICS_H
#include "ck_atomics.h"
#endif

/* ------------------------------------------------ portable synchronisation */

void device_fence_acquire(void) { ck_fence_acquire(); }
void device_fence_release(void) { ck_fence_release(); }
void device_fence_acq_rel(void) { ck_fence_acq_rel(); }

uint device_load_acquire(volatile global uint *p) { return ck_load_acquire((CK_PTR)p); }
int device_load_acquire_int(volatile global int *p) { return (int)ck_load_acquire((CK_PTR)p); }
void device_store_release(volatile global uint *p, uint v) { ck_store_release((CK_PTR)p, v); }
void device_store_release_int(volatile global int *p, int v) { ck_store_release((CK_PTR)p, (uint)v); }

uint device_atomic_add(volatile global uint *p, uint v) { return ck_fetch_add((CK_PTR)p, v); }
uint device_atomic_sub(volatile global uint *p, uint v) { return ck_fetch_sub((CK_PTR)p, v); }
uint device_atomic_xchg(volatile global uint *p, uint v) { return ck_exchange((CK_PTR)p, v); }
uint device_atomic_cmpxchg(volatile global uint *p, uint expected, uint desired)
{
    return ck_cas((CK_PTR)p, expected, desired);
}

/* One acquire-release compare-exchange, with no load before it: on a GPU
 * the load is a round trip of its own to the cache where the atomics are
 * done, and spinning on the compare-exchange alone was the fastest lock
 * form measured on the H200 (below a hand-written atom.cas + membar.gl
 * lock; docs/RESULTS.md, "Portable synchronisation"). */
#if defined(CK_MUTEX_HANDWRITTEN_PTX)
/* Measurement builds: the hand-written NVIDIA lock of ck_atomics.h in place
 * of the portable one, so that a kernel can be timed with both. */
#ifndef CK_HAS_HANDWRITTEN_PTX_LOCK
#error "CK_MUTEX_HANDWRITTEN_PTX needs NVIDIA's OpenCL compiler on the 1.2 atomics path (inline PTX)"
#endif
int device_mutex_try_lock(volatile global uint *m) { return (int)ck_handwritten_try_lock((CK_PTR)m); }
void device_mutex_unlock(volatile global uint *m) { ck_handwritten_unlock((CK_PTR)m); }
#else
int device_mutex_try_lock(volatile global uint *m) { return ck_cas((CK_PTR)m, 0u, 1u) == 0u; }

void device_mutex_unlock(volatile global uint *m) { ck_store_release((CK_PTR)m, 0u); }
#endif

/* Spins until it holds the mutex at m (returns 1), or until the word at stop
 * (if stop is not null) becomes nonzero (returns 0, mutex not taken). */
int ck_mutex_lock_or_stop(volatile global uint *m, CK_PTR stop)
{
    for (uint spins = 1; !device_mutex_try_lock(m); ++spins)
        if (stop && (spins & 255u) == 0u && ck_load_relaxed(stop))
            return 0;
    return 1;
}

#ifdef CK_MEGAKERNEL

/* Stitched code has the group's context in scope as ck_ctx; a lock waiting
 * while the megakernel stops gives up (see ck_aborting in ck_primitives.cl). */
void ck_device_mutex_lock(ck_wg_t *ctx, volatile global uint *m) { ck_mutex_lock_or_stop(m, &ctx->sched->exit); }
#define device_mutex_lock(m) ck_device_mutex_lock(ck_ctx, (m))

#else /* plain OpenCL */

void device_mutex_lock(volatile global uint *m) { ck_mutex_lock_or_stop(m, 0); }

#define transmit
#define offer_kill() ((void)0)
#define request_fork() ((void)0)

/* Words of the plain barrier's storage: the arrival count (and the
 * barrier's parity) on the first 128-byte line, the generation on the
 * second. */
#define CK_PLAIN_BARRIER_N_WORDS 64u
#define CK_PLAIN_BARRIER_GEN_WORD 32u

#if defined(CK_PLAIN_BARRIER_WORDS)
#define CK_PLAIN_BARRIER_PTR (CK_PLAIN_BARRIER_WORDS)
#elif defined(__opencl_c_program_scope_global_variables) ||                                                         \
    (defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ == 200)
volatile global uint ck_plain_barrier_words[CK_PLAIN_BARRIER_N_WORDS];
#define CK_PLAIN_BARRIER_PTR ck_plain_barrier_words
#endif

#ifdef CK_PLAIN_BARRIER_PTR
#ifndef CK_PLAIN_BARRIER_FENCED
/* Ticket barrier over every group of the launch. w[0] counts arrivals in its
 * low 31 bits and holds the barrier's parity P in bit 31; the generation
 * word w[CK_PLAIN_BARRIER_GEN_WORD] (a line of its own) equals P while the
 * barrier is open. An arrival's ticket from the one fetch-add says both its
 * place and P, so a group needs no load before arriving (that load was a
 * round trip on a line thousands of groups poll). The last arrival writes
 * the count back to 0 with the parity flipped and then releases the
 * generation word with the new parity; the others wait until it differs
 * from P. Nobody arrives at the next barrier before that release, and the
 * count's low bits are 0 after every barrier, so the words serve any later
 * launch of any group count. Only work-item 0 of a group touches the words:
 * the group barrier before its arrival lets the arrival's release cover the
 * whole group's writes, the one after its acquire covers the group's later
 * reads (ck_group_barrier_device; the pattern of the megakernel's barrier
 * and of CUDA's grid.sync). Waiters pause N/8 ns between looks, which keeps
 * thousands of polling groups from slowing the arrivals and the release. */
void ck_plain_global_barrier(volatile global uint *w)
{
    CK_PTR count = (CK_PTR)w;
    CK_PTR gen = (CK_PTR)(w + CK_PLAIN_BARRIER_GEN_WORD);
    ck_group_barrier_device();
    if (get_local_id(0) == 0) {
        uint n = (uint)get_num_groups(0);
        uint ticket = ck_fetch_add(count, 1u);
        uint parity = ticket >> 31;
        if ((ticket & 0x7fffffffu) == n - 1u) {
            /* The last arrival: every other group's release reached it. The
             * count is rewritten before the generation is released, so the
             * next barrier's arrivals (which wait for it) see it. */
            ck_store_relaxed(count, (parity ^ 1u) << 31);
            ck_store_release(gen, parity ^ 1u);
        } else {
            while (ck_load_relaxed(gen) == parity)
                ck_pause_ns(n / 8u);
            ck_fence_acquire();
        }
    }
    ck_group_barrier_device();
}
#else
/* The plain barrier in its earlier form, kept so that the study can show
 * what the form above changes: a device fence in every work-item on both
 * sides of the group barrier and waiters that poll without pausing. */
void ck_plain_global_barrier(volatile global uint *w)
{
    CK_PTR count = (CK_PTR)w;
    CK_PTR gen = (CK_PTR)(w + CK_PLAIN_BARRIER_GEN_WORD);
    ck_fence_release();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        uint g = ck_load_acquire(gen);
        if (ck_fetch_add(count, 1u) == get_num_groups(0) - 1) {
            ck_store_relaxed(count, 0u);
            ck_fetch_add(gen, 1u);
        } else {
            while (ck_load_relaxed(gen) == g) {
            }
            ck_fence_acquire();
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    ck_fence_acquire();
}
#endif
#define global_barrier() ck_plain_global_barrier(CK_PLAIN_BARRIER_PTR)
#define resizing_global_barrier() ck_plain_global_barrier(CK_PLAIN_BARRIER_PTR)
#else
/* No storage for the barrier: using one fails to compile with this name. */
#define global_barrier() define_CK_PLAIN_BARRIER_WORDS_to_use_global_barrier_in_plain_OpenCL()
#define resizing_global_barrier() define_CK_PLAIN_BARRIER_WORDS_to_use_global_barrier_in_plain_OpenCL()
#endif

#endif /* CK_MEGAKERNEL */
#endif
