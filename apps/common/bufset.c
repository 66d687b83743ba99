/* apps/common/bufset.c: one persistent kernel's buffers and arguments in the
 * cooperative arena or as plain OpenCL memory (see bufset.h). */
#include "bufset.h"

#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ck_fail(const char *what, const char *step, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s: %s: %s", what, step, ck_last_error());
    return -1;
}

int app_bufset_coop_alloc(app_bufset_coop *b, ck_context *ctx, const char *what, size_t nbuf,
                          const size_t *max_bytes, char *err, size_t err_len)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    if (nbuf > APP_BUFSET_MAX) {
        snprintf(err, err_len, "%s: %zu buffers, at most %d", what, nbuf, APP_BUFSET_MAX);
        return -1;
    }
    for (size_t i = 0; i < nbuf; ++i) {
        if (ck_buffer_alloc(ctx, max_bytes[i] ? max_bytes[i] : 4, &b->buf[i]) != CK_OK) {
            char step[96];
            snprintf(step, sizeof step, "allocating %zu bytes in the arena", max_bytes[i]);
            ck_fail(what, step, err, err_len);
            app_bufset_coop_free(b);
            return -1;
        }
        b->cap[i] = max_bytes[i];
        b->nbuf = i + 1;
    }
    return 0;
}

int app_bufset_coop_start(app_bufset_coop *b, const app_bufset *s, const char *kernel, unsigned groups,
                          ck_launch **out, char *err, size_t err_len)
{
    *out = NULL;
    if (s->nbuf != b->nbuf || s->nuint > APP_BUFSET_MAX) {
        snprintf(err, err_len, "%s: argument list does not match the allocation", s->what);
        return -1;
    }
    ck_arg args[2 * APP_BUFSET_MAX];
    for (size_t i = 0; i < s->nbuf; ++i) {
        if (s->bytes[i] > b->cap[i]) {
            snprintf(err, err_len, "%s: buffer %zu needs %zu bytes, %zu allocated", s->what, i, s->bytes[i],
                     b->cap[i]);
            return -1;
        }
        const void *src = s->init[i];
        void *zeros = NULL;
        if (!src && s->bytes[i]) {
            zeros = calloc(1, s->bytes[i]);
            if (!zeros) {
                snprintf(err, err_len, "%s: out of host memory", s->what);
                return -1;
            }
            src = zeros;
        }
        ck_status st = s->bytes[i] ? ck_buffer_write(b->ctx, b->buf[i], 0, src, s->bytes[i]) : CK_OK;
        free(zeros);
        if (st != CK_OK)
            return ck_fail(s->what, "writing the initial buffers", err, err_len);
        args[i] = ck_arg_buffer(b->buf[i]);
    }
    for (size_t i = 0; i < s->nuint; ++i)
        args[s->nbuf + i] = ck_arg_uint(s->uints[i]);
    if (ck_launch_kernel(b->ctx, kernel, groups, args, (uint32_t)(s->nbuf + s->nuint), out) != CK_OK)
        return ck_fail(s->what, "launching the cooperative kernel", err, err_len);
    return 0;
}

int app_bufset_coop_read(app_bufset_coop *b, size_t i, void *dst, size_t bytes, char *err, size_t err_len)
{
    if (i >= b->nbuf || bytes > b->cap[i]) {
        snprintf(err, err_len, "reading %zu bytes of buffer %zu: out of range", bytes, i);
        return -1;
    }
    if (bytes && ck_buffer_read(b->ctx, b->buf[i], 0, dst, bytes) != CK_OK)
        return ck_fail("cooperative kernel", "reading results", err, err_len);
    return 0;
}

void app_bufset_coop_free(app_bufset_coop *b)
{
    for (size_t i = 0; i < b->nbuf; ++i)
        if (b->buf[i].size)
            ck_buffer_free(b->ctx, b->buf[i]);
    b->nbuf = 0;
}

int app_bufset_plain_run(app_cl *c, const char *file, const char *kernel, const app_bufset *s,
                         const app_cl_launch *l, void *const *read_dst, const size_t *read_bytes, app_cl_times *t,
                         char *err, size_t err_len)
{
    t->ms = t->device_ms = -1;
    if (!(l->timeout_s > 0 && l->timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain %s: timeout %g s is not a finite number of seconds above 0", s->what,
                 l->timeout_s);
        return -1;
    }
    if (l->groups == 0 || l->wg == 0 || s->nbuf > APP_BUFSET_MAX || s->nuint > APP_BUFSET_MAX) {
        snprintf(err, err_len, "plain %s: need at least one group of at least one item", s->what);
        return -1;
    }
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem mem[APP_BUFSET_MAX] = {0};
    int rc = -1;
    cl_int e;
    if (app_cl_build(c, file, l->build_options, &prog, err, err_len))
        goto fail;
    k = clCreateKernel(prog, kernel, &e);
    APP_CL_CHECK(e, "clCreateKernel");
    for (size_t i = 0; i < s->nbuf; ++i) {
        size_t bytes = s->bytes[i] ? s->bytes[i] : 4;
        if (app_cl_buffer(c, bytes, s->init[i], &mem[i], "buffer", err, err_len))
            goto fail;
        APP_CL_CHECK(clSetKernelArg(k, (cl_uint)i, sizeof mem[i], &mem[i]), "clSetKernelArg (buffer)");
    }
    for (size_t i = 0; i < s->nuint; ++i) {
        cl_uint v = s->uints[i];
        APP_CL_CHECK(clSetKernelArg(k, (cl_uint)(s->nbuf + i), sizeof v, &v), "clSetKernelArg (uint)");
    }
    if (app_cl_finish(c, app_now_ms() + l->timeout_s * 1e3, "the uploads", err, err_len))
        goto fail;
    if (app_cl_run_persistent(c, k, l, "the plain persistent kernel", t, err, err_len))
        goto fail;
    for (size_t i = 0; i < s->nbuf; ++i)
        if (read_bytes && read_bytes[i])
            APP_CL_CHECK(clEnqueueReadBuffer(c->queue, mem[i], CL_TRUE, 0, read_bytes[i], read_dst[i], 0, NULL,
                                             NULL),
                         "clEnqueueReadBuffer");
    rc = 0;
fail: /* the buffers belong to c (app_cl_buffer) */
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (rc && err[0] && !strstr(err, s->what)) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "plain %s: %s", s->what, err);
        snprintf(err, err_len, "%s", tmp);
    }
    return rc;
}
