/* Occupancy discovery: launches the probe kernel with more work-groups than
 * can be resident, lets the device-side poll count the co-resident ones, and
 * closes the poll once the count has settled; then checks a barrier among
 * the discovered groups. */
#include "channel.h"
#include "discovery.h"
#include "clock.h"
#include "device_internal.h"
#include "error.h"
#include "probes.h"
#include "program.h"

#include <stdlib.h>
#include <string.h>

size_t ck_discovery_auto_launch(const ck_device *dev, size_t wg)
{
    /* Twice the most groups any compute unit could hold: on a GPU, 2048
     * work-items' worth; on a CPU device a compute unit is a thread that runs
     * one group at a time. */
    size_t per_cu = dev->info.is_cpu ? 1 : wg >= 2048 ? 1 : 2048 / wg;
    size_t n = (size_t)(dev->info.compute_units ? dev->info.compute_units : 1) * per_cu * 2;
    return n > 65536 ? 65536 : n < 4 ? 4 : n;
}

static ck_status make_buffer(ck_device *dev, size_t bytes, cl_mem *out, const char *what)
{
    cl_int err;
    *out = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!*out)
        return ck_fail_cl(err, what, "");
    cl_uint zero = 0;
    err = clEnqueueFillBuffer(dev->queue, *out, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return ck_fail_cl(err, "clEnqueueFillBuffer", "");
    return CK_OK;
}

ck_status ck_occupancy_discover(ck_device *dev, const ck_occupancy_options *opts, ck_occupancy_result *out)
{
    if (!opts || !out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_occupancy_discover: opts and out must not be NULL");
    memset(out, 0, sizeof *out);
    ck_status bad = ck_device_check(dev, "ck_occupancy_discover");
    if (bad == CK_OK)
        bad = ck_timeout_check(opts->timeout_s, "ck_occupancy_discover");
    if (bad != CK_OK)
        return bad;
    size_t wg = opts->work_group_size;
    if (wg == 0 || wg > dev->info.max_work_group_size)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "work-group size %zu is not in 1..%zu (the device's maximum)", wg,
                       dev->info.max_work_group_size);
    if (opts->launch_groups == CK_LAUNCH_ZERO)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch size 0: launch at least 1 work-group (or omit it for "
                                                "an automatic size)");
    size_t launch = opts->launch_groups ? opts->launch_groups : ck_discovery_auto_launch(dev, wg);
    if (launch > (size_t)CK_POLL_MASK || launch * wg > ((size_t)1 << 40))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "launch size %zu is too large", launch);
    double timeout = opts->timeout_s > 0 ? opts->timeout_s : 30.0; /* 0: the default */

    cl_program prog;
    ck_status s = ck_probe_program(dev, &prog);
    if (s != CK_OK)
        return s;
    cl_kernel k = NULL;
    ck_channel *ch = NULL;
    cl_mem poll = NULL, bar = NULL, data = NULL, res = NULL;
    cl_event ev = NULL;
    if ((s = ck_kernel_create(prog, "ck_occupancy_probe", &k)) != CK_OK ||
        (s = ck_channel_create(dev, timeout, &ch)) != CK_OK ||
        (s = make_buffer(dev, 2 * sizeof(cl_uint), &poll, "clCreateBuffer(poll)")) != CK_OK ||
        (s = make_buffer(dev, 2 * sizeof(cl_uint), &bar, "clCreateBuffer(barrier)")) != CK_OK ||
        (s = make_buffer(dev, launch * sizeof(cl_uint), &data, "clCreateBuffer(barrier data)")) != CK_OK ||
        (s = make_buffer(dev, 4 * sizeof(cl_uint), &res, "clCreateBuffer(results)")) != CK_OK)
        goto done;
    cl_uint rounds = opts->barrier_rounds, over = opts->overcount;
    cl_int err = clSetKernelArg(k, 0, sizeof poll, &poll);
    if (err == CL_SUCCESS && (s = ck_channel_set_kernel_arg(ch, k, 1)) != CK_OK)
        goto done;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 2, sizeof bar, &bar);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 3, sizeof data, &data);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 4, sizeof res, &res);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 5, sizeof rounds, &rounds);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 6, sizeof over, &over);
    if (err != CL_SUCCESS) {
        s = ck_fail_cl(err, "clSetKernelArg(occupancy probe)", "");
        goto done;
    }

    size_t global = launch * wg;
    double t0 = ck_now_s();
    err = clEnqueueNDRangeKernel(dev->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev);
    if (err == CL_SUCCESS)
        err = clFlush(dev->queue);
    if (err != CL_SUCCESS) {
        s = ck_fail_cl(err, "clEnqueueNDRangeKernel(occupancy probe)",
                       "the work-group size may be too large for this kernel on this device");
        goto done;
    }

    unsigned n_found;
    if ((s = ck_discovery_close(dev, ch, launch, t0, timeout, &n_found)) != CK_OK) {
        ck_fail(s, "occupancy probe: %s", ck_last_error());
        goto abort;
    }
    out->occupancy = n_found;
    out->launched = launch;
    out->discovery_ms = (ck_now_s() - t0) * 1e3;

    s = ck_event_wait(ev, timeout - (ck_now_s() - t0), "occupancy probe");
    if (s == CK_ERR_TIMEOUT) {
        s = ck_fail(CK_ERR_TIMEOUT,
                    "occupancy probe: %u barrier rounds among %u discovered work-groups%s did not "
                    "finish within %.1f s; aborted the kernel. A group counted as resident is not running",
                    rounds, out->occupancy + over, over ? " (including the test's phantom groups)" : "", timeout);
        goto abort;
    }
    if (s != CK_OK)
        goto done;
    out->total_ms = (ck_now_s() - t0) * 1e3;
    cl_uint r[4];
    err = clEnqueueReadBuffer(dev->queue, res, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        s = ck_fail_cl(err, "clEnqueueReadBuffer(occupancy results)", "");
        goto done;
    }
    out->barrier_failures = r[1];
    if (r[0] != out->occupancy || r[2] != out->occupancy || r[3])
        s = ck_fail(CK_ERR_CHECK_FAILED,
                    "occupancy probe: device reported n=%u, %u groups finished, aborted=%u; "
                    "host saw n=%u",
                    r[0], r[2], r[3], out->occupancy);
    else if (r[1])
        s = ck_fail(CK_ERR_CHECK_FAILED,
                    "occupancy probe: %u stale reads after barriers among %u groups: the "
                    "barrier does not order memory on this device/path",
                    r[1], out->occupancy);
    goto done;

abort:
    /* The probe leaves at the abort; one that never got the device (another
     * kernel holds it) is not waited for: the device is marked stuck. */
    ck_channel_abort(ch);
    if (ck_event_wait(ev, 5.0, "the aborted occupancy probe") != CK_OK)
        __atomic_store_n(&dev->stuck, 1, __ATOMIC_RELEASE);
done:
    if (ev)
        clReleaseEvent(ev);
    if (poll)
        clReleaseMemObject(poll);
    if (bar)
        clReleaseMemObject(bar);
    if (data)
        clReleaseMemObject(data);
    if (res)
        clReleaseMemObject(res);
    ck_channel_destroy(ch);
    if (k)
        clReleaseKernel(k);
    return s;
}
