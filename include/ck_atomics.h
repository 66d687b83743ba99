/* The portable atomics and fences layer: the one place where device code is
 * mapped onto what a device offers. The megakernel's own device code and the
 * synchronisation calls of ck_cooperative.h (the ones kernel authors use) are
 * written only with the ck_* names below.
 *
 *   CK_PATH_CL20: OpenCL C 2.0 / 3.0 atomics (atomic_uint, explicit orders and
 *                 scopes). Used with fine-grain SVM + SVM atomics.
 *   CK_PATH_CL12: OpenCL 1.2 atomic_* functions on volatile pointers plus
 *                 mem_fence(CLK_GLOBAL_MEM_FENCE). Used where the device has
 *                 only relaxed, work-group-scope 2.0 atomics (NVIDIA).
 *   CK_NV_PTX_FENCES (1.2 path only): device-scope fences become membar.gl,
 *                 system-scope fences membar.sys, and system-scope acquire
 *                 loads / release stores ld.acquire.sys / st.release.sys.
 *                 NVIDIA's OpenCL compiles mem_fence(CLK_GLOBAL_MEM_FENCE)
 *                 too weakly to order memory between work-groups (measured on
 *                 the H100: a work-stealing kernel whose locks used mem_fence
 *                 hung; with membar.gl it was correct).
 *
 * The runtime defines the path for the megakernel (and CK_NV_PTX_FENCES when
 * NVIDIA's compiler accepts inline PTX, else CK_NO_PTX_FENCES). A plain OpenCL
 * build that defines neither path gets one from the compiler: CL20 where the
 * OpenCL C version has acquire/release device-scope atomics, else CL12, with
 * PTX fences when the compiler is NVIDIA's (it defines __NV_CL_C_VERSION).
 *
 * Operations on "device" memory are ordered at device scope; the ck_sys_*
 * variants are for the host-visible channel and are ordered for the host.
 * ck_sys_fence is a full (sequentially consistent) system-scope fence;
 * ck_sys_fence_acq_rel only makes the host-memory loads before it acquire
 * loads and the stores after it release stores, at system scope (lighter
 * than membar.sys on NVIDIA).
 *
 * Read-modify-writes are acquire-release, except ck_fetch_add_relaxed and
 * ck_cas_relaxed: for a word that only counts (no data is published
 * through it), where the fence of an acquire-release one would wait for
 * every earlier store of the work-item. On an H200 that wait was most of
 * a narrow task's time on the device (docs/RESULTS.md, e8ff7eb). */
#ifndef CK_ATOMICS_H
#define CK_ATOMICS_H

#if !defined(CK_PATH_CL20) && !defined(CK_PATH_CL12)
#if defined(__OPENCL_C_VERSION__) &&                                                                                \
    (__OPENCL_C_VERSION__ == 200 || (__OPENCL_C_VERSION__ >= 300 && defined(__opencl_c_atomic_order_acq_rel) &&     \
                                     defined(__opencl_c_atomic_scope_device)))
#define CK_PATH_CL20 1
#else
#define CK_PATH_CL12 1
#endif
#endif

#if defined(CK_PATH_CL12) && defined(__NV_CL_C_VERSION) && !defined(CK_NV_PTX_FENCES) && !defined(CK_NO_PTX_FENCES)
#define CK_NV_PTX_FENCES 1
#endif

#if defined(CK_PATH_CL20)

typedef atomic_uint ck_atomic_uint;
#define CK_PTR volatile global ck_atomic_uint *

#if defined(__opencl_c_atomic_scope_all_devices) || (__OPENCL_C_VERSION__ == 200)
#define CK_SCOPE_SYS memory_scope_all_svm_devices
#else
#define CK_SCOPE_SYS memory_scope_device /* PoCL: host and device share memory */
#endif
#define CK_SCOPE_DEV memory_scope_device

uint ck_load_relaxed(CK_PTR p) { return atomic_load_explicit(p, memory_order_relaxed, CK_SCOPE_DEV); }
uint ck_load_acquire(CK_PTR p) { return atomic_load_explicit(p, memory_order_acquire, CK_SCOPE_DEV); }
void ck_store_relaxed(CK_PTR p, uint v) { atomic_store_explicit(p, v, memory_order_relaxed, CK_SCOPE_DEV); }
void ck_store_release(CK_PTR p, uint v) { atomic_store_explicit(p, v, memory_order_release, CK_SCOPE_DEV); }
uint ck_fetch_add(CK_PTR p, uint v) { return atomic_fetch_add_explicit(p, v, memory_order_acq_rel, CK_SCOPE_DEV); }
uint ck_fetch_sub(CK_PTR p, uint v) { return atomic_fetch_sub_explicit(p, v, memory_order_acq_rel, CK_SCOPE_DEV); }
uint ck_fetch_or(CK_PTR p, uint v) { return atomic_fetch_or_explicit(p, v, memory_order_acq_rel, CK_SCOPE_DEV); }
uint ck_exchange(CK_PTR p, uint v) { return atomic_exchange_explicit(p, v, memory_order_acq_rel, CK_SCOPE_DEV); }
/* Returns the value found; the swap happened iff it equals `expected`. */
uint ck_cas(CK_PTR p, uint expected, uint desired)
{
    uint e = expected;
    atomic_compare_exchange_strong_explicit(p, &e, desired, memory_order_acq_rel, memory_order_acquire,
                                            CK_SCOPE_DEV);
    return e;
}
uint ck_fetch_add_relaxed(CK_PTR p, uint v)
{
    return atomic_fetch_add_explicit(p, v, memory_order_relaxed, CK_SCOPE_DEV);
}
uint ck_cas_relaxed(CK_PTR p, uint expected, uint desired)
{
    uint e = expected;
    atomic_compare_exchange_strong_explicit(p, &e, desired, memory_order_relaxed, memory_order_relaxed,
                                            CK_SCOPE_DEV);
    return e;
}
void ck_fence_acq_rel(void) { atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, CK_SCOPE_DEV); }
void ck_fence_acquire(void) { atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, CK_SCOPE_DEV); }
void ck_fence_release(void) { atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, CK_SCOPE_DEV); }

uint ck_sys_load_acquire(CK_PTR p) { return atomic_load_explicit(p, memory_order_acquire, CK_SCOPE_SYS); }
uint ck_sys_load_relaxed(CK_PTR p) { return atomic_load_explicit(p, memory_order_relaxed, CK_SCOPE_SYS); }
void ck_sys_store_release(CK_PTR p, uint v) { atomic_store_explicit(p, v, memory_order_release, CK_SCOPE_SYS); }
void ck_sys_store_relaxed(CK_PTR p, uint v) { atomic_store_explicit(p, v, memory_order_relaxed, CK_SCOPE_SYS); }
void ck_sys_fence(void) { atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, CK_SCOPE_SYS); }
void ck_sys_fence_acq_rel(void) { atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, CK_SCOPE_SYS); }

#elif defined(CK_PATH_CL12)

typedef uint ck_atomic_uint;
#define CK_PTR volatile global ck_atomic_uint *

#if defined(CK_NV_PTX_FENCES)
/* Scoped PTX (sm_70+): one acquire-release instruction per read-modify-write
 * instead of an atomic between two membar.gl, and acquire loads / release
 * stores at GPU scope (docs/RESULTS.md, dispatch speed: measured cheaper). */
void ck_fence_acq_rel(void) { __asm__ volatile("fence.acq_rel.gpu;" ::: "memory"); }
void ck_sys_fence(void) { __asm__ volatile("membar.sys;" ::: "memory"); }
void ck_sys_fence_acq_rel(void) { __asm__ volatile("fence.acq_rel.sys;" ::: "memory"); }
void ck_fence_acquire(void) { ck_fence_acq_rel(); }
void ck_fence_release(void) { ck_fence_acq_rel(); }
uint ck_load_relaxed(CK_PTR p) { return *p; }
uint ck_load_acquire(CK_PTR p)
{
    uint v;
    __asm__ volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
void ck_store_relaxed(CK_PTR p, uint v) { *p = v; }
void ck_store_release(CK_PTR p, uint v)
{
    __asm__ volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
#define CK_PTX_RMW(name, op)                                                                                        \
    uint name(CK_PTR p, uint v)                                                                                     \
    {                                                                                                               \
        uint r;                                                                                                     \
        __asm__ volatile("atom.acq_rel.gpu.global." op " %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");     \
        return r;                                                                                                   \
    }
CK_PTX_RMW(ck_fetch_add, "add.u32")
CK_PTX_RMW(ck_fetch_or, "or.b32")
CK_PTX_RMW(ck_exchange, "exch.b32")
#undef CK_PTX_RMW
uint ck_fetch_sub(CK_PTR p, uint v) { return ck_fetch_add(p, 0u - v); }
uint ck_cas(CK_PTR p, uint expected, uint desired)
{
    uint r;
    __asm__ volatile("atom.acq_rel.gpu.global.cas.b32 %0, [%1], %2, %3;"
                     : "=r"(r)
                     : "l"(p), "r"(expected), "r"(desired)
                     : "memory");
    return r;
}
uint ck_fetch_add_relaxed(CK_PTR p, uint v)
{
    uint r;
    __asm__ volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
    return r;
}
uint ck_cas_relaxed(CK_PTR p, uint expected, uint desired)
{
    uint r;
    __asm__ volatile("atom.relaxed.gpu.global.cas.b32 %0, [%1], %2, %3;"
                     : "=r"(r)
                     : "l"(p), "r"(expected), "r"(desired)
                     : "memory");
    return r;
}
/* The lock a CUDA programmer writes by hand (atomicCAS, then
 * __threadfence; __threadfence, then atomicExch), the reference that
 * ck_cooperative.h's mutex is measured against: it takes the place of
 * device_mutex_try_lock/unlock in a build with -DCK_MUTEX_HANDWRITTEN_PTX
 * (measurement builds only; ckbench's plain_sync has the same lock). */
#define CK_HAS_HANDWRITTEN_PTX_LOCK 1
uint ck_handwritten_try_lock(CK_PTR p)
{
    uint old;
    __asm__ volatile("atom.global.cas.b32 %0, [%1], 0, 1;" : "=r"(old) : "l"(p) : "memory");
    if (old != 0u)
        return 0u;
    __asm__ volatile("membar.gl;" ::: "memory");
    return 1u;
}
void ck_handwritten_unlock(CK_PTR p)
{
    uint old;
    __asm__ volatile("membar.gl;" ::: "memory");
    __asm__ volatile("atom.global.exch.b32 %0, [%1], 0;" : "=r"(old) : "l"(p) : "memory");
}
#else
void ck_fence_acq_rel(void) { mem_fence(CLK_GLOBAL_MEM_FENCE); }
void ck_sys_fence(void) { mem_fence(CLK_GLOBAL_MEM_FENCE); }
void ck_sys_fence_acq_rel(void) { mem_fence(CLK_GLOBAL_MEM_FENCE); }
/* One full fence serves both directions on this path. */
void ck_fence_acquire(void) { ck_fence_acq_rel(); }
void ck_fence_release(void) { ck_fence_acq_rel(); }

uint ck_load_relaxed(CK_PTR p) { return *p; }
uint ck_load_acquire(CK_PTR p)
{
    uint v = *p;
    ck_fence_acq_rel();
    return v;
}
void ck_store_relaxed(CK_PTR p, uint v) { *p = v; }
void ck_store_release(CK_PTR p, uint v)
{
    ck_fence_acq_rel();
    *p = v;
}
uint ck_fetch_add(CK_PTR p, uint v)
{
    ck_fence_acq_rel();
    uint r = atomic_add(p, v);
    ck_fence_acq_rel();
    return r;
}
uint ck_fetch_sub(CK_PTR p, uint v)
{
    ck_fence_acq_rel();
    uint r = atomic_sub(p, v);
    ck_fence_acq_rel();
    return r;
}
uint ck_fetch_or(CK_PTR p, uint v)
{
    ck_fence_acq_rel();
    uint r = atomic_or(p, v);
    ck_fence_acq_rel();
    return r;
}
uint ck_exchange(CK_PTR p, uint v)
{
    ck_fence_acq_rel();
    uint r = atomic_xchg(p, v);
    ck_fence_acq_rel();
    return r;
}
uint ck_cas(CK_PTR p, uint expected, uint desired)
{
    ck_fence_acq_rel();
    uint r = atomic_cmpxchg(p, expected, desired);
    ck_fence_acq_rel();
    return r;
}
uint ck_fetch_add_relaxed(CK_PTR p, uint v) { return atomic_add(p, v); }
uint ck_cas_relaxed(CK_PTR p, uint expected, uint desired) { return atomic_cmpxchg(p, expected, desired); }
#endif

#if defined(CK_NV_PTX_FENCES)
/* Scoped acquire/release instructions (sm_70+): measured faster on the H100
 * than a volatile access next to membar.sys (docs/RESULTS.md). */
uint ck_sys_load_acquire(CK_PTR p)
{
    uint v;
    __asm__ volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
void ck_sys_store_release(CK_PTR p, uint v)
{
    __asm__ volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
#else
uint ck_sys_load_acquire(CK_PTR p)
{
    uint v = *p;
    ck_sys_fence();
    return v;
}
void ck_sys_store_release(CK_PTR p, uint v)
{
    ck_sys_fence();
    *p = v;
}
#endif
uint ck_sys_load_relaxed(CK_PTR p) { return *p; }
void ck_sys_store_relaxed(CK_PTR p, uint v) { *p = v; }

#endif

/* Work-group barrier after which one work-item's device-scope release (or
 * before which its acquire) covers the whole group's global accesses: PTX
 * fences are cumulative over what bar.sync made visible to the work-item
 * (the pattern of CUDA's grid.sync); elsewhere every work-item fences at
 * device scope around a plain barrier (PoCL 3.1 gave wrong results with
 * work_group_barrier(..., memory_scope_device) in this place). */
#if defined(CK_NV_PTX_FENCES)
#define ck_group_barrier_device() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#else
#define ck_group_barrier_device()                                                                                   \
    do {                                                                                                            \
        ck_fence_acq_rel();                                                                                         \
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                                                        \
        ck_fence_acq_rel();                                                                                         \
    } while (0)
#endif

/* Eight consecutive words of host-visible memory (32-byte aligned), read
 * with relaxed system-scope loads that are all in flight at once. Each read
 * of host memory crosses the bus; on the H100, eight scalar volatile loads
 * took eight round trips one after the other (docs/RESULTS.md), so the
 * NVIDIA path issues two 16-byte vector loads in one instruction group. */
#if defined(CK_PATH_CL12) && defined(CK_NV_PTX_FENCES)
void ck_sys_load8_relaxed(CK_PTR p, uint *v)
{
    __asm__ volatile("ld.relaxed.sys.global.v4.u32 {%0, %1, %2, %3}, [%8];\n\t"
                     "ld.relaxed.sys.global.v4.u32 {%4, %5, %6, %7}, [%8+16];"
                     : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7])
                     : "l"(p)
                     : "memory");
}
#else
void ck_sys_load8_relaxed(CK_PTR p, uint *v)
{
    for (uint i = 0; i < 8u; ++i)
        v[i] = ck_sys_load_relaxed(p + i);
}
#endif

/* 64-bit words of host-visible memory: the task table's pairs of state and
 * descriptor (megakernel/ck_channel_layout.h), which must be read and
 * written as one value (a descriptor read apart from its state could be an
 * older one). Four consecutive words (32-byte aligned) are read with relaxed
 * loads all in flight at once (the _acquire form makes the last of them an
 * acquire load: what a writer released before the fourth word is visible
 * after it); one is read relaxed or with acquire, or written with release. */
#if defined(CK_PATH_CL20)
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
#define CK_PTR64 volatile global atomic_ulong *
ulong ck_sys_load64_acquire(CK_PTR64 p) { return atomic_load_explicit(p, memory_order_acquire, CK_SCOPE_SYS); }
ulong ck_sys_load64_relaxed(CK_PTR64 p) { return atomic_load_explicit(p, memory_order_relaxed, CK_SCOPE_SYS); }
void ck_sys_store64_release(CK_PTR64 p, ulong v) { atomic_store_explicit(p, v, memory_order_release, CK_SCOPE_SYS); }
void ck_sys_load4x64_relaxed(CK_PTR64 p, ulong *v)
{
    for (uint i = 0; i < 4u; ++i)
        v[i] = atomic_load_explicit(p + i, memory_order_relaxed, CK_SCOPE_SYS);
}
void ck_sys_load4x64_acquire(CK_PTR64 p, ulong *v)
{
    for (uint i = 0; i < 3u; ++i)
        v[i] = atomic_load_explicit(p + i, memory_order_relaxed, CK_SCOPE_SYS);
    v[3] = atomic_load_explicit(p + 3, memory_order_acquire, CK_SCOPE_SYS);
}
#elif defined(CK_NV_PTX_FENCES)
#define CK_PTR64 volatile global ulong *
ulong ck_sys_load64_acquire(CK_PTR64 p)
{
    ulong v;
    __asm__ volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
ulong ck_sys_load64_relaxed(CK_PTR64 p)
{
    ulong v;
    __asm__ volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
void ck_sys_store64_release(CK_PTR64 p, ulong v)
{
    __asm__ volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
void ck_sys_load4x64_relaxed(CK_PTR64 p, ulong *v)
{
    __asm__ volatile("ld.relaxed.sys.global.v2.u64 {%0, %1}, [%4];\n\t"
                     "ld.relaxed.sys.global.v2.u64 {%2, %3}, [%4+16];"
                     : "=l"(v[0]), "=l"(v[1]), "=l"(v[2]), "=l"(v[3])
                     : "l"(p)
                     : "memory");
}
void ck_sys_load4x64_acquire(CK_PTR64 p, ulong *v)
{
    /* Both halves in flight together: an acquire load orders only what
     * comes after it. */
    __asm__ volatile("ld.relaxed.sys.global.v2.u64 {%0, %1}, [%4];\n\t"
                     "ld.acquire.sys.global.v2.u64 {%2, %3}, [%4+16];"
                     : "=l"(v[0]), "=l"(v[1]), "=l"(v[2]), "=l"(v[3])
                     : "l"(p)
                     : "memory");
}
#else
#define CK_PTR64 volatile global ulong *
ulong ck_sys_load64_acquire(CK_PTR64 p)
{
    ulong v = *p;
    ck_sys_fence();
    return v;
}
ulong ck_sys_load64_relaxed(CK_PTR64 p) { return *p; }
void ck_sys_store64_release(CK_PTR64 p, ulong v)
{
    ck_sys_fence();
    *p = v;
}
void ck_sys_load4x64_relaxed(CK_PTR64 p, ulong *v)
{
    for (uint i = 0; i < 4u; ++i)
        v[i] = p[i];
}
void ck_sys_load4x64_acquire(CK_PTR64 p, ulong *v)
{
    ck_sys_load4x64_relaxed(p, v);
    ck_sys_fence();
}
#endif

/* Done signals: the store of a launch's completion word or a task's done
 * state, after which the host reads the kernel's output through the OpenCL
 * runtime (a copy out of the arena, which is device memory) and reuses the
 * task's entry. With NVIDIA's PTX a device-scope release (st.release.gpu):
 * the group's writes (through the group barrier before it) reach the
 * device's point of coherence, where the copy engine reads, before the word
 * can leave for the host. Elsewhere the system-scope release. */
#if defined(CK_PATH_CL12) && defined(CK_NV_PTX_FENCES)
void ck_sys_store_done(CK_PTR p, uint v)
{
    __asm__ volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
void ck_sys_store64_done(CK_PTR64 p, ulong v)
{
    __asm__ volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
#else
void ck_sys_store_done(CK_PTR p, uint v) { ck_sys_store_release(p, v); }
void ck_sys_store64_done(CK_PTR64 p, ulong v) { ck_sys_store64_release(p, v); }
#endif

/* The device's clock in nanoseconds, for the task statistics: NVIDIA's
 * %globaltimer where inline PTX is accepted; 0 elsewhere, where OpenCL C has
 * no clock (the host then reports the device times as unavailable). */
#if defined(__NV_CL_C_VERSION) && !defined(CK_NO_PTX_FENCES)
ulong ck_device_clock_ns(void)
{
    ulong t;
    __asm__ volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#else
ulong ck_device_clock_ns(void) { return 0; }
#endif

/* A pause of about `ns` nanoseconds in a polling loop, to take load off the
 * memory system while many work-items wait: NVIDIA's nanosleep (sm_70 and
 * later) where inline PTX is accepted; elsewhere nothing (a CPU device runs
 * a group's work-items in turn, and the loop's next look is the pause). */
#if defined(__NV_CL_C_VERSION) && !defined(CK_NO_PTX_FENCES)
void ck_pause_ns(uint ns) { __asm__ volatile("nanosleep.u32 %0;" ::"r"(ns) : "memory"); }
#else
void ck_pause_ns(uint ns) { (void)ns; }
#endif

#endif