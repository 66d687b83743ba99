/* Zero-copy host buffers (see zero_copy.h). */
/* MAP_ANONYMOUS (not in POSIX 2008) */
#define _DEFAULT_SOURCE 1
#include "zero_copy.h"
#include "clock.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

ck_status ck_zero_copy_create(ck_device *dev, size_t bytes, const char *what, double timeout_s, ck_zero_copy *out)
{
    /* timeout_s bounds the whole call; the map's wait gets what is left. */
    double end = ck_now_s() + timeout_s;
    memset(out, 0, sizeof *out);
    size_t rounded = (bytes + 4095) & ~(size_t)4095;
    /* Anonymous pages come zeroed and page-aligned without being touched: a
     * memset of the whole arena (tens of MB) took seconds of the build's
     * timeout under ThreadSanitizer. */
    void *m = mmap(NULL, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for the %zu-byte %s (mmap)", bytes, what);
    out->backing = m;
    out->backing_bytes = rounded;
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
    void *p =
        clEnqueueMapBuffer(dev->queue, out->buf, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, &ev, &err);
    if (!p) {
        ck_zero_copy_destroy(dev, out);
        return ck_fail_cl(err, "clEnqueueMapBuffer", what);
    }
    double left = end - ck_now_s();
    ck_status w = ck_event_wait(ev, left > 0.0 ? left : 0.0, "mapping");
    clReleaseEvent(ev);
    if (w != CK_OK) {
        out->stuck = 1; /* the map may still run: the buffer and its memory stay */
        __atomic_store_n(&dev->stuck, 1, __ATOMIC_RELEASE);
        return ck_fail(
            w == CK_ERR_TIMEOUT ? CK_ERR_TIMEOUT : w,
            "the device did not map the %s within %.1f s (of %.1f s "
            "for the %zu-byte buffer): it is busy with other work (e.g. another context's megakernel holds "
            "every compute unit)",
            what, left > 0.0 ? left : 0.0, timeout_s, bytes);
    }
    out->mapped = 1;
    if (p != out->backing) {
        ck_zero_copy_destroy(dev, out);
        return ck_fail(CK_ERR_NO_PATH,
                       "device '%s' copies host buffers instead of using them in place, so a "
                       "running kernel cannot see the host's %s: use --path cl20",
                       dev->info.device_name, what);
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
    if (z->backing)
        munmap(z->backing, z->backing_bytes);
    memset(z, 0, sizeof *z);
}
