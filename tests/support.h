/* Helpers shared by the PoCL integration tests: opening PoCL on a given
 * atomics path and reading kernel files named on the command line. */
#ifndef CK_TESTS_SUPPORT_H
#define CK_TESTS_SUPPORT_H

#include "device_internal.h"

/* Opens PoCL with path "cl20" or "cl12"; aborts the test program with a
 * message if that is impossible. */
ck_device *support_open_pocl(const char *path_name);
/* Whole file as a NUL-terminated string; aborts on failure. */
char *support_read_file(const char *path);
/* Buffer of n zeroed uints. */
cl_mem support_zeroed(ck_device *dev, size_t n);
/* Reads n uints from b. */
void support_read(ck_device *dev, cl_mem b, cl_uint *out, size_t n);

#endif
