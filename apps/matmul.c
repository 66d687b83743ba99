/* apps/matmul.c: inputs, launch and sampled CPU check of the matmul workload
 * (see matmul.h). */
#include "matmul.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct app_matmul {
    ck_context *ctx;
    int n;
    ck_buffer a, b, c;
};

float app_matmul_a(int n, int i, int j)
{
    (void)n;
    return (float)((i * 7 + j * 3) % 5 - 2);
}

float app_matmul_b(int n, int i, int j)
{
    (void)n;
    return (float)((i * 5 + j * 11) % 7 - 3);
}

float app_matmul_expected(int n, int i, int j, float salt)
{
    float s = salt;
    for (int k = 0; k < n; ++k)
        s += app_matmul_a(n, i, k) * app_matmul_b(n, k, j);
    return s;
}

int app_matmul_setup(ck_context *ctx, int n, app_matmul **out, char *err, size_t err_len)
{
    *out = NULL;
    if (n < 8 || n > 4096) {
        snprintf(err, err_len, "matmul: size %d outside 8..4096", n);
        return -1;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
    app_matmul *m = calloc(1, sizeof *m);
    float *host = malloc(bytes);
    if (!m || !host) {
        free(m);
        free(host);
        snprintf(err, err_len, "matmul: out of host memory for %d x %d", n, n);
        return -1;
    }
    m->ctx = ctx;
    m->n = n;
    int rc = -1;
    if (ck_buffer_alloc(ctx, bytes, &m->a) != CK_OK || ck_buffer_alloc(ctx, bytes, &m->b) != CK_OK ||
        ck_buffer_alloc(ctx, bytes, &m->c) != CK_OK) {
        snprintf(err, err_len, "matmul: allocating 3 x %zu bytes in the arena: %s", bytes, ck_last_error());
        goto out;
    }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            host[(size_t)i * n + j] = app_matmul_a(n, i, j);
    if (ck_buffer_write(ctx, m->a, 0, host, bytes) != CK_OK)
        goto write_fail;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            host[(size_t)i * n + j] = app_matmul_b(n, i, j);
    if (ck_buffer_write(ctx, m->b, 0, host, bytes) != CK_OK)
        goto write_fail;
    memset(host, 0xff, bytes); /* NaN: an entry never written fails the check */
    if (ck_buffer_write(ctx, m->c, 0, host, bytes) != CK_OK)
        goto write_fail;
    rc = 0;
    goto out;
write_fail:
    snprintf(err, err_len, "matmul: writing inputs: %s", ck_last_error());
out:
    free(host);
    if (rc) {
        app_matmul_free(m);
        m = NULL;
    }
    *out = m;
    return rc;
}

int app_matmul_launch(app_matmul *m, unsigned groups, float salt, ck_launch **out, char *err, size_t err_len)
{
    ck_arg args[] = {ck_arg_buffer(m->a), ck_arg_buffer(m->b), ck_arg_buffer(m->c), ck_arg_int(m->n),
                     ck_arg_float(salt)};
    if (ck_launch_kernel(m->ctx, APP_MATMUL_KERNEL, groups, args, sizeof args / sizeof *args, out) != CK_OK) {
        snprintf(err, err_len, "launching matmul with %u groups: %s", groups, ck_last_error());
        return -1;
    }
    return 0;
}

int app_matmul_check(app_matmul *m, float salt, unsigned samples, uint64_t sample_seed, char *msg, size_t msg_len)
{
    app_rng r;
    app_rng_seed(&r, sample_seed);
    int n = m->n;
    for (unsigned s = 0; s < samples; ++s) {
        int i, j;
        if (s < 4) {
            i = (s & 1) ? n - 1 : 0;
            j = (s & 2) ? n - 1 : 0;
        } else {
            i = (int)app_rng_below(&r, (uint64_t)n);
            j = (int)app_rng_below(&r, (uint64_t)n);
        }
        float got;
        if (ck_buffer_read(m->ctx, m->c, ((size_t)i * n + j) * sizeof(float), &got, sizeof got) != CK_OK) {
            snprintf(msg, msg_len, "matmul: reading C[%d][%d]: %s", i, j, ck_last_error());
            return -1;
        }
        float want = app_matmul_expected(n, i, j, salt);
        if (got != want) {
            snprintf(msg, msg_len, "matmul C[%d][%d] = %g, expected %g (salt %g)", i, j, got, want, salt);
            return 1;
        }
    }
    return 0;
}

int app_matmul_size(const app_matmul *m) { return m->n; }

void app_matmul_free(app_matmul *m)
{
    if (!m)
        return;
    if (m->a.size)
        ck_buffer_free(m->ctx, m->a);
    if (m->b.size)
        ck_buffer_free(m->ctx, m->b);
    if (m->c.size)
        ck_buffer_free(m->ctx, m->c);
    free(m);
}
