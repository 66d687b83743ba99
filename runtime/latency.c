/* Channel round-trip latency: host posts a message, one work-item of a
 * running kernel answers, host sees the answer. */
#include "channel.h"
#include "clock.h"
#include "device_internal.h"
#include "error.h"
#include "probes.h"
#include "program.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Aborts the echo kernel and waits a bounded time for it to leave; one that
 * never got the device (another kernel holds it) marks the device stuck. */
static void stop_echo(ck_device *dev, ck_channel *ch, cl_event ev)
{
    ck_channel_abort(ch);
    if (ck_event_wait(ev, 5.0, "the aborted channel echo kernel") != CK_OK)
        __atomic_store_n(&dev->stuck, 1, __ATOMIC_RELEASE);
}

ck_status ck_channel_latency(ck_device *dev, unsigned round_trips, ck_latency_result *out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_channel_latency: out must not be NULL");
    memset(out, 0, sizeof *out);
    ck_status bad = ck_device_check(dev, "ck_channel_latency");
    if (bad != CK_OK)
        return bad;
    if (round_trips == 0 || round_trips > CK_MAX_ROUND_TRIPS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "round trips %u is not in 1..%u", round_trips,
                       (unsigned)CK_MAX_ROUND_TRIPS);
    const unsigned warmup = round_trips < 100 ? round_trips : 100;
    double *t = malloc(sizeof *t * round_trips);
    if (!t)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for %u latency samples", round_trips);

    cl_program prog;
    cl_kernel k = NULL;
    ck_channel *ch = NULL;
    cl_event ev = NULL;
    ck_status s = ck_probe_program(dev, &prog);
    if (s == CK_OK)
        s = ck_kernel_create(prog, "ck_channel_echo", &k);
    if (s == CK_OK)
        s = ck_channel_create(dev, 10.0, &ch);
    if (s == CK_OK)
        s = ck_channel_set_kernel_arg(ch, k, 0);
    if (s != CK_OK)
        goto done;
    size_t one = 1;
    cl_int err = clEnqueueNDRangeKernel(dev->queue, k, 1, NULL, &one, &one, 0, NULL, &ev);
    if (err == CL_SUCCESS)
        err = clFlush(dev->queue);
    if (err != CL_SUCCESS) {
        s = ck_fail_cl(err, "clEnqueueNDRangeKernel(channel echo)", "");
        goto done;
    }
    uint32_t msg[CK_CH_MSG_WORDS], reply[CK_CH_MSG_WORDS];
    for (unsigned i = 0; i < warmup + round_trips; ++i) {
        msg[0] = CK_MSG_HEADER(CK_MSG_ECHO, 3);
        msg[1] = i;
        msg[2] = i * 2654435761u;
        double t0 = ck_now_s();
        if ((s = ck_channel_send(ch, msg, 3, 10.0)) != CK_OK ||
            (s = ck_channel_recv(ch, reply, i == 0 ? 30.0 : 10.0)) != CK_OK) {
            ck_fail(s, "channel latency: round trip %u: %s", i, ck_last_error());
            stop_echo(dev, ch, ev);
            goto done;
        }
        double dt = ck_now_s() - t0;
        if (reply[1] != i || reply[2] != ~msg[2] || CK_MSG_TYPE(reply[0]) != CK_MSG_ECHO) {
            s = ck_fail(CK_ERR_CHECK_FAILED,
                        "channel latency: round trip %u came back wrong (seq %u, payload "
                        "0x%08x, expected 0x%08x)",
                        i, reply[1], reply[2], ~msg[2]);
            stop_echo(dev, ch, ev);
            goto done;
        }
        if (i >= warmup)
            t[i - warmup] = dt * 1e6;
    }
    msg[0] = CK_MSG_HEADER(CK_MSG_QUIT, 1);
    if ((s = ck_channel_send(ch, msg, 1, 10.0)) == CK_OK)
        s = ck_event_wait(ev, 10.0, "channel echo kernel");
    if (s != CK_OK) {
        stop_echo(dev, ch, ev);
        goto done;
    }
    qsort(t, round_trips, sizeof *t, cmp_double);
    out->round_trips = round_trips;
    out->min_us = t[0];
    out->median_us = t[round_trips / 2];
    out->p99_us = t[(size_t)((round_trips - 1) * 0.99)];
    out->max_us = t[round_trips - 1];
done:
    if (ev)
        clReleaseEvent(ev);
    ck_channel_destroy(ch);
    if (k)
        clReleaseKernel(k);
    free(t);
    return s;
}
