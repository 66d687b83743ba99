/* Helpers of the context-level megakernel tests (context_support.h). */
#define _POSIX_C_SOURCE 200809L
#include "context_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

double support_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define OPENED_MAX 64
static ck_context *opened[OPENED_MAX];
static size_t n_opened;

int support_close_contexts(void **state)
{
    (void)state;
    for (size_t i = 0; i < n_opened; ++i)
        ck_context_destroy(opened[i]); /* one already destroyed: an error, nothing touched */
    n_opened = 0;
    return 0;
}

ck_context *support_open_context(ck_context_options o, const char *path_name, const char *kernel_file,
                                 const char *const *coop, size_t n_coop)
{
    if (ck_path_parse(path_name, &o.device.path) != CK_OK)
        fail_msg("bad path %s", path_name);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *c;
    if (ck_context_create(&o, &c) != CK_OK)
        fail_msg("%s", ck_last_error());
    if (n_opened < OPENED_MAX)
        opened[n_opened++] = c;
    if (ck_context_add_file(c, kernel_file, coop, n_coop) != CK_OK || ck_context_build(c) != CK_OK)
        fail_msg("%s", ck_last_error());
    return c;
}

ck_buffer support_zeroed_buffer(ck_context *c, size_t bytes)
{
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(c, bytes, &b), CK_OK);
    void *z = calloc(1, bytes);
    assert_non_null(z);
    assert_int_equal(ck_buffer_write(c, b, 0, z, bytes), CK_OK);
    free(z);
    return b;
}
