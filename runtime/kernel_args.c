/* runtime/kernel_args.c: the public argument makers (ck_arg_*) and the
 * check and packing of a kernel's arguments into argument words
 * (kernel_args.h). */
#include "kernel_args.h"
#include "error.h"

#include <string.h>

enum { ARG_SCALAR = 0, ARG_BUFFER = 1, ARG_NULL = 2, ARG_LOCAL = 3 };

ck_arg ck_arg_buffer(ck_buffer b) { return (ck_arg){.kind = ARG_BUFFER, .size = 8, .words = {b.offset, 0}}; }
ck_arg ck_arg_null(void) { return (ck_arg){.kind = ARG_NULL, .size = 8, .words = {~0ull, 0}}; }
ck_arg ck_arg_local(size_t bytes) { return (ck_arg){.kind = ARG_LOCAL, .size = 8, .words = {bytes, 0}}; }

ck_arg ck_arg_scalar(const void *value, size_t size)
{
    ck_arg a = {.kind = ARG_SCALAR, .size = size};
    if (value && size <= sizeof a.words)
        memcpy(a.words, value, size);
    else
        a.size = 0; /* rejected at launch */
    return a;
}
ck_arg ck_arg_int(int32_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_uint(uint32_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_long(int64_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_ulong(uint64_t v) { return ck_arg_scalar(&v, sizeof v); }
ck_arg ck_arg_float(float v) { return ck_arg_scalar(&v, sizeof v); }

static const char *kind_name(ck_param_kind k)
{
    return k == CK_PARAM_SCALAR      ? "a value"
           : k == CK_PARAM_LOCAL_PTR ? "a local pointer (ck_arg_local)"
                                     : "a buffer (ck_arg_buffer or ck_arg_null)";
}

ck_status ck_pack_args(ck_context *ctx, const ck_stitch_kernel *K, const ck_arg *args, size_t n_args,
                       uint64_t *words)
{
    if (n_args != K->n_params)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "kernel '%s' takes %zu arguments, %zu given", K->name, K->n_params,
                       n_args);
    memset(words, 0, K->arg_words * 8);
    size_t local_used = 0;
    for (size_t i = 0; i < n_args; ++i) {
        const ck_stitch_param *P = &K->params[i];
        const ck_arg *a = &args[i];
        int ok = P->kind == CK_PARAM_SCALAR      ? a->kind == ARG_SCALAR
                 : P->kind == CK_PARAM_LOCAL_PTR ? a->kind == ARG_LOCAL
                                                 : (a->kind == ARG_BUFFER || a->kind == ARG_NULL);
        if (!ok)
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "argument %zu ('%s %s') of kernel '%s' must be %s", i, P->type,
                           P->name, K->name, kind_name(P->kind));
        if (P->kind == CK_PARAM_SCALAR) {
            if (a->size != P->size)
                return ck_fail(CK_ERR_INVALID_ARGUMENT,
                               "argument %zu ('%s %s') of kernel '%s' is %zu bytes, %zu "
                               "given",
                               i, P->type, P->name, K->name, P->size, a->size);
            memcpy(&words[P->word_offset], a->words, a->size);
        } else if (P->kind == CK_PARAM_LOCAL_PTR) {
            /* Compared before any rounding or sum, which a huge request could wrap. */
            uint64_t want = a->words[0], room = ctx->opts.local_pool_bytes - local_used;
            if (want == 0 || want > room || (want + 15) / 16 * 16 > room)
                return ck_fail(CK_ERR_INVALID_ARGUMENT,
                               "argument %zu ('%s') of kernel '%s' asks for %llu bytes of "
                               "local memory; %zu of the pool's %zu are left (ck_context_options.local_pool_bytes)",
                               i, P->name, K->name, (unsigned long long)want, (size_t)room,
                               ctx->opts.local_pool_bytes);
            local_used += (size_t)((want + 15) / 16 * 16);
            words[P->word_offset] = a->words[0];
        } else {
            if (a->kind == ARG_BUFFER && a->words[0] >= ctx->arena.capacity)
                return ck_fail(CK_ERR_INVALID_ARGUMENT,
                               "argument %zu ('%s') of kernel '%s' is not a buffer of "
                               "this context",
                               i, P->name, K->name);
            words[P->word_offset] = a->words[0];
        }
    }
    return CK_OK;
}
