/* Helpers of the megakernel tests that drive a whole context through the
 * public API (test_shutdown.c, test_accounting.c): a monotonic clock, a
 * built context of one kernel file on PoCL, and zeroed buffers. Each fails
 * the running cmocka test on an error. */
#ifndef CK_TESTS_CONTEXT_SUPPORT_H
#define CK_TESTS_CONTEXT_SUPPORT_H

#include "ck.h"

#include <stddef.h>

double support_now_s(void);
/* Creates and builds a context of `kernel_file` (cooperative kernels coop,
 * n_coop of them) with options o, on PoCL unless CK_DEVICE is set, on path
 * `path_name` ("cl20", "cl12"). */
ck_context *support_open_context(ck_context_options o, const char *path_name, const char *kernel_file,
                                 const char *const *coop, size_t n_coop);
/* A buffer of `bytes` zeroed bytes. */
ck_buffer support_zeroed_buffer(ck_context *c, size_t bytes);
/* A cmocka teardown: destroys every context support_open_context made that
 * is still live (a failed test leaves its context, whose megakernel would
 * hold the device's threads from the tests after it). Always 0. */
int support_close_contexts(void **state);

#endif
