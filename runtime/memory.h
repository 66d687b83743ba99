/* runtime/memory.h: a context's arena storage (memory.c): creating and
 * releasing it, handing it to the megakernel, and the runtime's own copies
 * in and out of it. The public buffer calls (ck_buffer_*) are ck.h's. */
#ifndef CK_RUNTIME_MEMORY_H
#define CK_RUNTIME_MEMORY_H

#include "context_state.h"

/* ck_arena_storage_create: the arena's storage, the user's capacity
 * (arena_bytes) followed by `reserve` bytes of the runtime's own region at
 * ctx->runtime_off (the scheduler state and the discovery poll: the host
 * reads them with ck_arena_copy while the megakernel runs, on every kind of
 * storage), waiting at most timeout_s for a zero-copy map. Errors:
 * CK_ERR_OPENCL, CK_ERR_NO_MEMORY, CK_ERR_TIMEOUT (a busy device).
 * ck_arena_zero: zeroes a range (the runtime's region before launch);
 * errors as ck_arena_copy, and CK_ERR_NO_MEMORY. */
ck_status ck_arena_storage_create(ck_context *ctx, uint64_t reserve, double timeout_s);
ck_status ck_arena_zero(ck_context *ctx, uint64_t offset, size_t bytes);
void ck_arena_storage_destroy(ck_context *ctx);
/* The storage as argument `index` of kernel k. Errors: CK_ERR_OPENCL. */
ck_status ck_arena_set_kernel_arg(ck_context *ctx, cl_kernel k, cl_uint index);
/* Copies between host memory and the arena at a byte offset, unchecked (the
 * runtime's own areas); to_device 1 writes, 0 reads. Errors: CK_ERR_OPENCL
 * (a copy to or from device memory failed). */
ck_status ck_arena_copy(ck_context *ctx, uint64_t offset, void *host, size_t bytes, int to_device);

#endif
