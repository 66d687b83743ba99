/* Device header for kernel authors: the cooperative kernels primitives with
 * the paper's names. Include it from OpenCL C:
 *
 *     #include "ck_cooperative.h"
 *
 *   offer_kill()                 the work-group offers to leave (M-1 only, never 0)
 *   request_fork()               new work-groups may join right after this call
 *   global_barrier()             all active work-groups, with memory ordering
 *   resizing_global_barrier()    the same, and M may change inside it
 *   transmit                     qualifier of root-scope variables of a
 *                                cooperative kernel that forked groups inherit
 *
 * Under the framework (the runtime stitches your source into the megakernel)
 * this header is not used: the stitcher rewrites the primitives, and
 * get_group_id, get_num_groups, get_global_id and get_global_size return the
 * logical values of the cooperative model.
 *
 * Without the framework (plain OpenCL, the paper's backwards compatibility)
 * the primitives become what the occupancy-bound execution model allows:
 * offer_kill and request_fork are no-ops, transmit is nothing, and both
 * barriers are a spin barrier across all work-groups of the launch, which
 * only completes if every group is co-resident (launch no more groups than
 * the discovered occupancy, see ckinfo). The barrier needs two zeroed words
 * of global memory: where the compiler has program-scope global variables
 * (OpenCL C 2.0, or 3.0 with __opencl_c_program_scope_global_variables) they
 * are one; elsewhere (OpenCL C 1.2: NVIDIA; PoCL 3.1) define
 * CK_PLAIN_BARRIER_WORDS to an expression of type `volatile global uint *`
 * (for instance a kernel parameter) before including this header, or the
 * barrier fails to compile with a name that says so. */
#ifndef CK_COOPERATIVE_H
#define CK_COOPERATIVE_H

#ifndef CK_MEGAKERNEL

#define transmit
#define offer_kill() ((void)0)
#define request_fork() ((void)0)

#if defined(CK_PLAIN_BARRIER_WORDS)
#define CK_PLAIN_BARRIER_PTR (CK_PLAIN_BARRIER_WORDS)
#elif defined(__opencl_c_program_scope_global_variables) || \
    (defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ == 200)
volatile global uint ck_plain_barrier_words[2];
#define CK_PLAIN_BARRIER_PTR ck_plain_barrier_words
#endif

#ifdef CK_PLAIN_BARRIER_PTR
/* Device-scope fence. NVIDIA's OpenCL compiles mem_fence too weakly to
 * order global memory between work-groups: build with -DCK_NV_PTX_FENCES
 * there (the framework's runtime does so itself). */
#if defined(CK_NV_PTX_FENCES)
#define CK_PLAIN_FENCE() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define CK_PLAIN_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* Generation barrier over every group of the launch. */
void ck_plain_global_barrier(volatile global uint *w)
{
    CK_PLAIN_FENCE();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        uint gen = w[1];
        CK_PLAIN_FENCE();
        if (atomic_inc(&w[0]) == get_num_groups(0) - 1) {
            w[0] = 0;
            CK_PLAIN_FENCE();
            atomic_inc(&w[1]);
        } else {
            while (w[1] == gen) {}
        }
        CK_PLAIN_FENCE();
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    CK_PLAIN_FENCE();
}
#define global_barrier() ck_plain_global_barrier(CK_PLAIN_BARRIER_PTR)
#define resizing_global_barrier() ck_plain_global_barrier(CK_PLAIN_BARRIER_PTR)
#else
/* No storage for the barrier: using one fails to compile with this name. */
#define global_barrier() define_CK_PLAIN_BARRIER_WORDS_to_use_global_barrier_in_plain_OpenCL()
#define resizing_global_barrier() define_CK_PLAIN_BARRIER_WORDS_to_use_global_barrier_in_plain_OpenCL()
#endif

#endif /* !CK_MEGAKERNEL */
#endif
