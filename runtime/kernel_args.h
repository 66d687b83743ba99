/* runtime/kernel_args.h: a kernel's arguments (ck_arg, made by the public
 * ck_arg_* functions) checked against the stitcher's parameter list and
 * packed into the 64-bit argument words that a launch message or a task
 * entry carries. Used by launches (launch.c) and tasks (task.c). */
#ifndef CK_RUNTIME_KERNEL_ARGS_H
#define CK_RUNTIME_KERNEL_ARGS_H

#include "context_state.h"

/* Checks args against kernel K (count, kinds, sizes, local bytes against
 * the pool, buffers of this context) and writes its argument words
 * (K->arg_words 64-bit words). Errors: CK_ERR_INVALID_ARGUMENT naming the
 * parameter. */
ck_status ck_pack_args(ck_context *ctx, const ck_stitch_kernel *K, const ck_arg *args, size_t n_args,
                       uint64_t *words);

#endif
