/* apps/workload.c: workload classes, matmul calibration and the preemption
 * model (see workload.h). */
#include "workload.h"
#include "timer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    double period_ms, exec_ms;
} classes[APP_CLASS_COUNT] = {
    [APP_CLASS_LIGHT] = {"light", 70, 3},
    [APP_CLASS_MEDIUM] = {"medium", 40, 3},
    [APP_CLASS_HEAVY] = {"heavy", 40, 10},
};

int app_class_parse(const char *s, app_class *out)
{
    for (int c = 0; c < APP_CLASS_COUNT; ++c)
        if (s && !strcmp(s, classes[c].name)) {
            *out = (app_class)c;
            return 0;
        }
    return -1;
}

const char *app_class_name(app_class c) { return (unsigned)c < APP_CLASS_COUNT ? classes[c].name : "?"; }

double app_class_period_ms(app_class c, double scale)
{
    return (unsigned)c < APP_CLASS_COUNT ? classes[c].period_ms * scale : 0;
}

double app_class_exec_ms(app_class c, double scale)
{
    return (unsigned)c < APP_CLASS_COUNT ? classes[c].exec_ms * scale : 0;
}

double app_class_preemption_model(app_class c)
{
    if ((unsigned)c >= APP_CLASS_COUNT)
        return 0;
    return classes[c].period_ms / (classes[c].period_ms - classes[c].exec_ms);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median total_ms (sent -> finished) of 5 launches after a warm-up, at size n. */
static int time_matmul(ck_context *ctx, unsigned groups, int n, double *ms, char *err, size_t err_len)
{
    app_matmul *mm = NULL;
    if (app_matmul_setup(ctx, n, &mm, err, err_len))
        return -1;
    double t[5];
    int rc = 0;
    const int launches = 6; /* a warm-up, then 5 timed */
    for (int k = 0; k < launches && rc == 0; ++k) {
        ck_launch *l = NULL;
        ck_launch_stats st;
        if (app_matmul_launch(mm, groups, (float)(k + 1), &l, err, err_len)) {
            rc = -1;
        } else if (ck_wait(l, 0) != CK_OK || ck_launch_get_stats(l, &st) != CK_OK) {
            snprintf(err, err_len, "calibrating matmul %dx%d: %s", n, n, ck_last_error());
            rc = -1;
        } else if (k > 0) {
            t[k - 1] = st.total_ms; /* exec_ms comes from message arrival times: coarse on a busy CPU */
        }
        ck_launch_release(l);
    }
    if (rc == 0) {
        char msg[256];
        int c = app_matmul_check(mm, (float)launches, 8, 7, msg, sizeof msg); /* the last launch's salt */
        if (c != 0) {
            snprintf(err, err_len, "calibrating matmul %dx%d: %s", n, n, msg);
            rc = -1;
        }
    }
    app_matmul_free(mm);
    if (rc == 0) {
        qsort(t, 5, sizeof t[0], cmp_d);
        *ms = t[2];
    }
    return rc;
}

int app_calibrate_matmul(ck_context *ctx, unsigned groups, double target_ms, int max_n, app_calibration *out,
                         char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    out->target_ms = target_ms;
    out->groups = groups;
    if (max_n > 4096)
        max_n = 4096;
    if (max_n < 8 || groups == 0 || !(target_ms > 0)) {
        snprintf(err, err_len, "calibration: bad arguments (max_n %d, groups %u, target %g ms)", max_n, groups,
                 target_ms);
        return -1;
    }
    max_n -= max_n % 8;
    int lo = 0, hi = 0; /* largest n below target, smallest at or above */
    double t_lo = 0, t_hi = 0;
    int n = 64 < max_n ? 64 : max_n;
    for (unsigned step = 0; step < 16; ++step) {
        double t;
        if (time_matmul(ctx, groups, n, &t, err, err_len))
            return -1;
        out->tried_n[out->steps] = n;
        out->tried_ms[out->steps] = t;
        out->steps++;
        if (t >= target_ms) {
            if (!hi || n < hi)
                hi = n, t_hi = t;
        } else if (n > lo) {
            lo = n, t_lo = t;
        }
        if (hi && hi - lo <= 8)
            break;
        if (!hi && lo >= max_n)
            break;
        /* Next size: cube-root rule from the last measurement (time ~ n^3),
         * kept strictly between lo and hi. */
        double f = t > 0 ? cbrt(target_ms / t) : 2.0;
        if (f > 4)
            f = 4;
        int next = (int)(n * f);
        next = (next + 7) / 8 * 8;
        if (next > max_n)
            next = max_n;
        if (hi && next >= hi)
            next = (lo + hi) / 2 / 8 * 8;
        if (next <= lo)
            next = lo + 8 <= max_n ? lo + 8 : max_n;
        if (hi && next >= hi)
            break;
        if (next == n)
            break;
        n = next;
    }
    if (hi) {
        out->n = hi;
        out->exec_ms = t_hi;
    } else {
        out->n = lo;
        out->exec_ms = t_lo;
        out->capped = 1;
    }
    return 0;
}

int app_session_set_matmul(app_session *s, int n, char *err, size_t err_len)
{
    if (!s->mm) {
        snprintf(err, err_len, "the session has no matmul");
        return -1;
    }
    if (app_matmul_size(s->mm) == n)
        return 0;
    app_matmul_free(s->mm);
    s->mm = NULL;
    return app_matmul_setup(s->ctx, n, &s->mm, err, err_len);
}
