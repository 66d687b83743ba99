/* apps/common/timer.h: a monotonic clock in milliseconds and summary
 * statistics (median, percentiles) of timing samples. */
#ifndef APPS_TIMER_H
#define APPS_TIMER_H

#include <stddef.h>

/* Milliseconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double app_now_ms(void);
/* Sleeps until app_now_ms() >= t_ms (returns at once if already past). */
void app_sleep_until_ms(double t_ms);

typedef struct {
    size_t count;
    double min, median, p99, max, mean;
} app_summary;

/* Summary of n samples (n may be 0: all fields 0). Does not modify xs.
 * p99 is the nearest-rank 99th percentile. */
app_summary app_summarize(const double *xs, size_t n);
/* Nearest-rank percentile q in [0, 100] of n > 0 samples. */
double app_percentile(const double *xs, size_t n, double q);

#endif
