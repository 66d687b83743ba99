/* Zero-copy host buffers (see zero_copy.h). */
#include "zero_copy.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

ck_status ck_zero_copy_create(ck_device *dev, size_t bytes, const char *what, ck_zero_copy *out)
{
    memset(out, 0, sizeof *out);
    size_t rounded = (bytes + 4095) & ~(size_t)4095;
    out->backing = aligned_alloc(4096, rounded);
    if (!out->backing)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for the %zu-byte %s", bytes, what);
    memset(out->backing, 0, rounded);
    cl_int err;
    out->buf = clCreateBuffer(dev->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, out->backing, &err);
    if (!out->buf) {
        ck_zero_copy_destroy(dev, out);
        return ck_fail_cl(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR)", what);
    }
    void *p = clEnqueueMapBuffer(dev->queue, out->buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL,
                                 &err);
    if (!p) {
        ck_zero_copy_destroy(dev, out);
        return ck_fail_cl(err, "clEnqueueMapBuffer", what);
    }
    out->mapped = 1;
    if (p != out->backing) {
        ck_zero_copy_destroy(dev, out);
        return ck_fail(CK_ERR_NO_PATH, "device '%s' copies host buffers instead of using them in place, so a "
                       "running kernel cannot see the host's %s: use --path cl20", dev->info.device_name, what);
    }
    return CK_OK;
}

void ck_zero_copy_destroy(ck_device *dev, ck_zero_copy *z)
{
    if (z->buf) {
        if (z->mapped) {
            cl_event ev = NULL;
            if (clEnqueueUnmapMemObject(dev->queue, z->buf, z->backing, 0, NULL, &ev) == CL_SUCCESS && ev) {
                clWaitForEvents(1, &ev);
                clReleaseEvent(ev);
            }
        }
        clFinish(dev->queue);
        clReleaseMemObject(z->buf);
    }
    free(z->backing);
    memset(z, 0, sizeof *z);
}
