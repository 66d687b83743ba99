/* Zero-copy host buffers for CPU devices: page-aligned host memory wrapped in
 * a CL_MEM_USE_HOST_PTR buffer and mapped once, so the host reads and writes
 * what a running kernel sees. Used by the channel and the arena on the cl12
 * path of a CPU device. */
#ifndef CK_RUNTIME_ZERO_COPY_H
#define CK_RUNTIME_ZERO_COPY_H

#include "device_internal.h"

typedef struct {
    void *backing; /* our allocation; also the host's view once mapped */
    cl_mem buf;
    int mapped;
} ck_zero_copy;

/* Allocates `bytes` of zeroed memory and maps it. `what` names the user in
 * messages. Errors: CK_ERR_NO_MEMORY, CK_ERR_OPENCL, CK_ERR_NO_PATH (the
 * device copied the host memory instead of using it in place). On error
 * nothing stays allocated. */
ck_status ck_zero_copy_create(ck_device *dev, size_t bytes, const char *what, ck_zero_copy *out);
/* Unmaps and frees; a zeroed struct is accepted. */
void ck_zero_copy_destroy(ck_device *dev, ck_zero_copy *z);

#endif
