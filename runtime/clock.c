/* Monotonic clock, sleeping, and event waits with deadlines. */
#include "clock.h"
#include "error.h"

#include <math.h>
#include <time.h>

double ck_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void ck_sleep_us(unsigned us)
{
    struct timespec t = {us / 1000000u, (long)(us % 1000000u) * 1000L};
    nanosleep(&t, NULL);
}

ck_status ck_timeout_check(double timeout_s, const char *what)
{
    if (isnan(timeout_s))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: timeout is NaN; give a number of seconds from 0 to %.0f", what,
                       CK_MAX_TIMEOUT_S);
    if (isinf(timeout_s))
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "%s: timeout is infinite; every wait needs a deadline: give at most "
                       "%.0f s (one day)",
                       what, CK_MAX_TIMEOUT_S);
    if (timeout_s < 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: timeout %g s is negative; give 0 (the default) to %.0f s", what,
                       timeout_s, CK_MAX_TIMEOUT_S);
    if (timeout_s > CK_MAX_TIMEOUT_S)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: timeout %g s is above the limit of %.0f s (one day)", what,
                       timeout_s, CK_MAX_TIMEOUT_S);
    return CK_OK;
}

void ck_deadline_timespec(double timeout_s, struct timespec *ts)
{
    if (!(timeout_s > 0)) /* NaN too */
        timeout_s = 0;
    if (timeout_s > CK_MAX_TIMEOUT_S)
        timeout_s = CK_MAX_TIMEOUT_S;
    clock_gettime(CLOCK_MONOTONIC, ts);
    double whole = floor(timeout_s);
    ts->tv_sec += (time_t)whole;
    ts->tv_nsec += (long)((timeout_s - whole) * 1e9);
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec += 1;
        ts->tv_nsec -= 1000000000L;
    }
}

ck_status ck_event_wait(cl_event ev, double timeout_s, const char *what)
{
    double deadline = ck_now_s() + timeout_s;
    unsigned nap = 20;
    for (;;) {
        cl_int st = CL_QUEUED;
        cl_int err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        if (err != CL_SUCCESS)
            return ck_fail_cl(err, "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)", "");
        if (st == CL_COMPLETE)
            return CK_OK;
        if (st < 0)
            return ck_fail(CK_ERR_OPENCL, "%s failed on the device: %s (%d)", what, ck_cl_error_name(st), (int)st);
        if (ck_now_s() > deadline)
            return ck_fail(CK_ERR_TIMEOUT, "%s did not finish within %.1f s", what, timeout_s);
        ck_sleep_us(nap);
        if (nap < 2000)
            nap *= 2;
    }
}
