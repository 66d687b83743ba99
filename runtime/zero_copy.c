/* Zero-copy host buffers (see zero_copy.h). */
#include "zero_copy.h"
#include "clock.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

ck_status ck_zero_copy_create(ck_device *dev, size_t bytes, const char *what, double timeout_s, ck_zero_copy *out)
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
    /* Not a blocking map: on a device whose every compute unit another
     * kernel holds (another context's megakernel) the map never runs, and
     * a blocking call would never return. The pointer comes back at once. */
    cl_event ev = NULL;
    void *p = clEnqueueMapBuffer(dev->queue, out->buf, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, &ev,
                                 &err);
    if (!p) {
        ck_zero_copy_destroy(dev, out);
        return ck_fail_cl(err, "clEnqueueMapBuffer", what);
    }
    ck_status w = ck_event_wait(ev, timeout_s, "mapping");
    clReleaseEvent(ev);
    if (w != CK_OK) {
        out->stuck = 1; /* the map may still run: the buffer and its memory stay */
        __atomic_store_n(&dev->stuck, 1, __ATOMIC_RELEASE);
        return ck_fail(w == CK_ERR_TIMEOUT ? CK_ERR_TIMEOUT : w, "the device did not map the %s within %.1f s: it is "
                       "busy with other work (e.g. another context's megakernel holds every compute unit)", what,
                       timeout_s);
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
    if (z->stuck || __atomic_load_n(&dev->stuck, __ATOMIC_ACQUIRE)) {
        /* A map or another command that never ran holds the queue: an unmap
         * would wait behind it for good. Both are left. */
        memset(z, 0, sizeof *z);
        return;
    }
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
