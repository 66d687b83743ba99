/* Zero-copy host buffers for CPU devices: page-aligned host memory wrapped in
 * a CL_MEM_USE_HOST_PTR buffer and mapped once, so the host reads and writes
 * what a running kernel sees. Used by the channel and the arena on the cl12
 * path of a CPU device. */
#ifndef CK_RUNTIME_ZERO_COPY_H
#define CK_RUNTIME_ZERO_COPY_H

#include "device_internal.h"

typedef struct {
    void *backing;        /* our allocation (anonymous pages); also the host's view once mapped */
    size_t backing_bytes; /* its size, whole pages */
    cl_mem buf;
    int mapped;
    int stuck; /* the map did not run within its timeout: nothing may be freed */
} ck_zero_copy;

/* Allocates `bytes` of zeroed memory and maps it, within timeout_s in
 * all (the map's wait gets what zeroing the memory left of it). `what` names the user in messages. Errors:
 * CK_ERR_NO_MEMORY, CK_ERR_OPENCL, CK_ERR_NO_PATH (the device copied the
 * host memory instead of using it in place), CK_ERR_TIMEOUT (the device
 * did not run the map: it is busy; the buffer and its memory are then left
 * allocated, since the map may still run). On any other error nothing stays
 * allocated. */
ck_status ck_zero_copy_create(ck_device *dev, size_t bytes, const char *what, double timeout_s, ck_zero_copy *out);
/* Unmaps and frees; a zeroed struct is accepted. */
void ck_zero_copy_destroy(ck_device *dev, ck_zero_copy *z);

#endif
