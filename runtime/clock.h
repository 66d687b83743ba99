/* Monotonic time and bounded waits on OpenCL events. */
#ifndef CK_RUNTIME_CLOCK_H
#define CK_RUNTIME_CLOCK_H

#include "ck.h"
#include <CL/cl.h>

double ck_now_s(void);                 /* monotonic seconds */
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
/* Waits until ev completes or timeout_s passes. Errors: CK_ERR_TIMEOUT
 * (message: "<what> did not finish within T s"), CK_ERR_OPENCL (the command
 * failed on the device). */
ck_status ck_event_wait(cl_event ev, double timeout_s, const char *what);

#endif
