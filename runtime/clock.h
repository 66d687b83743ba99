/* Monotonic time and bounded waits on OpenCL events. */
#ifndef CK_RUNTIME_CLOCK_H
#define CK_RUNTIME_CLOCK_H

#include "ck.h"
#include <CL/cl.h>
#include <time.h>

double ck_now_s(void); /* monotonic seconds */
void ck_sleep_us(unsigned us);
/* A hint to the processor inside a spin loop (pause on x86); no effect elsewhere. */
static inline void ck_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}
/* CK_OK if timeout_s is a finite number in 0..CK_MAX_TIMEOUT_S; otherwise
 * CK_ERR_INVALID_ARGUMENT with "<what>: timeout ... is NaN / infinite /
 * negative / above the limit". */
ck_status ck_timeout_check(double timeout_s, const char *what);
/* The CLOCK_MONOTONIC time timeout_s from now, for pthread_cond_timedwait.
 * timeout_s is clamped to 0..CK_MAX_TIMEOUT_S first (NaN counts as 0), so the
 * conversion can never overflow time_t or leave tv_nsec out of range. */
void ck_deadline_timespec(double timeout_s, struct timespec *ts);
/* Waits until ev completes or timeout_s passes. Errors: CK_ERR_TIMEOUT
 * (message: "<what> did not finish within T s"), CK_ERR_OPENCL (the command
 * failed on the device). */
ck_status ck_event_wait(cl_event ev, double timeout_s, const char *what);

#endif
