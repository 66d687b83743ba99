/* Arena storage and buffers: one buffer per context that every pointer
 * argument points into (arena base + offset on the device). Its storage
 * follows the transport, because the host must reach it while the
 * megakernel runs: fine-grain SVM (cl20), a zero-copy host buffer (cl12 on a
 * CPU device), or device memory filled through a second queue (cl12 on a GPU,
 * where a running kernel does not block copies). */
#include "memory.h"
#include "context_handle.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

/* 256 MiB on a CPU holds every application's default input (octree's
 * needs 48 MB) beside the matmul workload; the mapping costs no memory
 * until it is touched. */
static uint64_t default_arena(const ck_device *dev)
{
    uint64_t want = dev->info.is_cpu ? (256ull << 20) : (1ull << 30);
    uint64_t quarter = dev->info.global_mem_bytes / 4;
    return quarter && quarter < want ? quarter : want;
}

ck_status ck_arena_storage_create(ck_context *ctx, uint64_t reserve, double timeout_s)
{
    ck_device *dev = ctx->dev;
    uint64_t user = ctx->opts.arena_bytes ? ctx->opts.arena_bytes : default_arena(dev);
    /* arena_bytes <= CK_MAX_ARENA_BYTES (ck_context_create), so this cannot wrap. */
    user = (user + 4095) & ~(uint64_t)4095;
    /* The runtime's own region (runtime_off on) sits past everything the
     * allocator hands out: no buffer of the user's can reach it. */
    uint64_t bytes = user + ((reserve + 4095) & ~(uint64_t)4095);
    ctx->runtime_off = user;
    cl_int err = CL_SUCCESS;
    if (dev->info.transport == CK_TRANSPORT_SVM) {
        ctx->arena_svm = clSVMAlloc(dev->context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, bytes, 0);
        if (!ctx->arena_svm)
            return ck_fail(CK_ERR_OPENCL,
                           "clSVMAlloc of a %llu-byte arena failed: ask for a smaller "
                           "ck_context_options.arena_bytes",
                           (unsigned long long)bytes);
        ctx->arena_host = ctx->arena_svm;
    } else if (dev->info.is_cpu) {
        ck_status s = ck_zero_copy_create(dev, bytes, "arena", timeout_s, &ctx->arena_zc);
        if (s != CK_OK)
            return s;
        ctx->arena_host = ctx->arena_zc.backing;
    } else {
        ctx->arena_buf = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (!ctx->arena_buf)
            return ck_fail_cl(err, "clCreateBuffer(arena)", "ask for a smaller ck_context_options.arena_bytes");
        ctx->xfer = clCreateCommandQueueWithProperties(dev->context, dev->device, NULL, &err);
        if (!ctx->xfer)
            return ck_fail_cl(err, "clCreateCommandQueueWithProperties(transfer queue)", "");
    }
    ck_arena_init(&ctx->arena, user);
    return CK_OK;
}

ck_status ck_arena_zero(ck_context *ctx, uint64_t offset, size_t bytes)
{
    if (ctx->arena_host) {
        memset((char *)ctx->arena_host + offset, 0, bytes);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return CK_OK;
    }
    /* A write from zeroed host memory: a copy, which a busy device still
     * runs (a fill may be a kernel that waits behind another's). */
    void *zero = calloc(1, bytes);
    if (!zero)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory zeroing %zu bytes of the arena", bytes);
    ck_status s = ck_arena_copy(ctx, offset, zero, bytes, 1);
    free(zero);
    return s;
}

void ck_arena_storage_destroy(ck_context *ctx)
{
    if (ctx->arena_svm)
        clSVMFree(ctx->dev->context, ctx->arena_svm);
    if (ctx->arena_buf)
        clReleaseMemObject(ctx->arena_buf);
    ck_zero_copy_destroy(ctx->dev, &ctx->arena_zc);
    if (ctx->xfer)
        clReleaseCommandQueue(ctx->xfer);
    ck_arena_destroy(&ctx->arena);
}

ck_status ck_arena_set_kernel_arg(ck_context *ctx, cl_kernel k, cl_uint index)
{
    if (ctx->arena_svm)
        CK_CL_TRY(clSetKernelArgSVMPointer(k, index, ctx->arena_svm), "clSetKernelArgSVMPointer(arena)", "");
    else
        CK_CL_TRY(clSetKernelArg(k, index, sizeof(cl_mem), ctx->arena_buf ? &ctx->arena_buf : &ctx->arena_zc.buf),
                  "clSetKernelArg(arena)", "");
    return CK_OK;
}

static ck_status alloc_pinned(ck_context *ctx, size_t bytes, ck_buffer *out);

ck_status ck_buffer_alloc(ck_context *ctx, size_t bytes, ck_buffer *out)
{
    ck_status s = ck_context_enter(ctx, "ck_buffer_alloc");
    if (s != CK_OK)
        return s;
    s = alloc_pinned(ctx, bytes, out);
    ck_context_leave(ctx);
    return s;
}

static ck_status alloc_pinned(ck_context *ctx, size_t bytes, ck_buffer *out)
{
    if (!out || !ctx->built)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_buffer_alloc needs a built context and an out pointer");
    if (bytes == 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "cannot allocate a buffer of 0 bytes");
    /* Refused before the allocator rounds the size up (SIZE_MAX would wrap). */
    if ((uint64_t)bytes > ctx->arena.capacity)
        return ck_fail(CK_ERR_NO_MEMORY,
                       "a buffer of %zu bytes is larger than the whole arena (%llu bytes); set "
                       "ck_context_options.arena_bytes (at most %llu)",
                       bytes, (unsigned long long)ctx->arena.capacity, (unsigned long long)CK_MAX_ARENA_BYTES);
    pthread_mutex_lock(&ctx->arena_lock);
    uint64_t off;
    int r = ck_arena_alloc(&ctx->arena, bytes, &off);
    uint64_t free_bytes = ck_arena_free_bytes(&ctx->arena);
    pthread_mutex_unlock(&ctx->arena_lock);
    if (r != 0)
        return ck_fail(CK_ERR_NO_MEMORY,
                       "the arena has no room for %zu bytes (%llu of %llu free); set "
                       "ck_context_options.arena_bytes",
                       bytes, (unsigned long long)free_bytes, (unsigned long long)ctx->arena.capacity);
    out->offset = off;
    out->size = bytes;
    return CK_OK;
}

ck_status ck_buffer_free(ck_context *ctx, ck_buffer b)
{
    ck_status bad = ck_context_enter(ctx, "ck_buffer_free");
    if (bad != CK_OK)
        return bad;
    pthread_mutex_lock(&ctx->arena_lock);
    int r = ck_arena_free(&ctx->arena, b.offset, b.size);
    pthread_mutex_unlock(&ctx->arena_lock);
    ck_context_leave(ctx);
    if (r != 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "buffer at offset %llu (%zu bytes) is not a live buffer",
                       (unsigned long long)b.offset, b.size);
    return CK_OK;
}

/* The range of a copy inside a live buffer of ctx (pinned by the caller). */
static ck_status check_range(ck_context *ctx, ck_buffer b, size_t offset, size_t bytes, const void *p)
{
    if (!ctx->built || (!p && bytes))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "buffer copy needs a built context and a host pointer");
    /* No offset + bytes: that sum could wrap. */
    if (offset > b.size || bytes > b.size - offset)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "copy of %zu bytes at %zu is outside the %zu-byte buffer", bytes,
                       offset, b.size);
    pthread_mutex_lock(&ctx->arena_lock);
    int live = ck_arena_contains(&ctx->arena, b.offset, b.size);
    pthread_mutex_unlock(&ctx->arena_lock);
    if (!live)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "buffer at offset %llu is not a live buffer",
                       (unsigned long long)b.offset);
    return CK_OK;
}

ck_status ck_arena_copy(ck_context *ctx, uint64_t offset, void *host, size_t bytes, int to_device)
{
    if (ctx->arena_host) {
        if (to_device) {
            memcpy((char *)ctx->arena_host + offset, host, bytes);
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
        } else {
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            memcpy(host, (char *)ctx->arena_host + offset, bytes);
        }
        return CK_OK;
    }
    if (to_device)
        CK_CL_TRY(clEnqueueWriteBuffer(ctx->xfer, ctx->arena_buf, CL_TRUE, offset, bytes, host, 0, NULL, NULL),
                  "clEnqueueWriteBuffer(arena)", "");
    else
        CK_CL_TRY(clEnqueueReadBuffer(ctx->xfer, ctx->arena_buf, CL_TRUE, offset, bytes, host, 0, NULL, NULL),
                  "clEnqueueReadBuffer(arena)", "");
    return CK_OK;
}

static ck_status buffer_copy(ck_context *ctx, ck_buffer b, size_t offset, void *host, size_t bytes, int to_device,
                             const char *fn)
{
    ck_status s = ck_context_enter(ctx, fn);
    if (s != CK_OK)
        return s;
    s = check_range(ctx, b, offset, bytes, host);
    if (s == CK_OK && bytes)
        s = ck_arena_copy(ctx, b.offset + offset, host, bytes, to_device);
    ck_context_leave(ctx);
    return s;
}

ck_status ck_buffer_write(ck_context *ctx, ck_buffer b, size_t offset, const void *src, size_t bytes)
{
    return buffer_copy(ctx, b, offset, (void *)src, bytes, 1, "ck_buffer_write");
}

ck_status ck_buffer_read(ck_context *ctx, ck_buffer b, size_t offset, void *dst, size_t bytes)
{
    return buffer_copy(ctx, b, offset, dst, bytes, 0, "ck_buffer_read");
}
