/* apps/common/timer.c: monotonic clock, sleeping to a deadline, and timing
 * summaries (see timer.h). */
#include "timer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void app_sleep_until_ms(double t_ms)
{
    for (;;) {
        double left = t_ms - app_now_ms();
        if (left <= 0)
            return;
        struct timespec ts = {(time_t)(left / 1e3), (long)(fmod(left, 1e3) * 1e6)};
        if (nanosleep(&ts, NULL) != 0 && errno != EINTR)
            return;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double app_percentile(const double *xs, size_t n, double q)
{
    if (n == 0)
        return 0;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, xs, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    size_t rank = (size_t)ceil(q / 100.0 * (double)n);
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    double v = s[rank - 1];
    free(s);
    return v;
}

app_summary app_summarize(const double *xs, size_t n)
{
    app_summary r;
    memset(&r, 0, sizeof r);
    if (n == 0)
        return r;
    r.count = n;
    r.min = r.max = xs[0];
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
        r.min = xs[i] < r.min ? xs[i] : r.min;
        r.max = xs[i] > r.max ? xs[i] : r.max;
        sum += xs[i];
    }
    r.mean = sum / (double)n;
    r.median = app_percentile(xs, n, 50);
    r.p99 = app_percentile(xs, n, 99);
    return r;
}
