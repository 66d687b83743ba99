/* apps/workload.h: the graphics-like workload classes of the paper's section
 * 5.2 (a period P between launches and an execution time E of one launch
 * with every worker), the calibration of the matmul stream's matrix size to
 * E on the device at hand, and the kernel-level preemption model P/(P-E) of
 * section 5.5. Shared by ckrun (--class) and ckstudy.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef APPS_WORKLOAD_H
#define APPS_WORKLOAD_H

#include <stddef.h>

#include "multitask.h"

typedef enum {
    APP_CLASS_LIGHT = 0, /* P 70 ms, E 3 ms: desktop icons      */
    APP_CLASS_MEDIUM,    /* P 40 ms, E 3 ms: window dragging    */
    APP_CLASS_HEAVY,     /* P 40 ms, E 10 ms: a WebGL shader     */
    APP_CLASS_COUNT
} app_class;

/* "light", "medium", "heavy" -> class; -1 if unknown. */
int app_class_parse(const char *s, app_class *out);
/* The name ("?" outside the enum). */
const char *app_class_name(app_class c);
/* The paper's P and E in ms, times `scale` (1 = the paper's; the quick
 * study scales both down on slow devices). */
double app_class_period_ms(app_class c, double scale);
double app_class_exec_ms(app_class c, double scale);
/* Kernel-level preemption's slowdown P/(P-E) (section 5.5). */
double app_class_preemption_model(app_class c);

typedef struct {
    double target_ms; /* E asked for                                           */
    int n;            /* matrix size chosen                                    */
    double exec_ms;   /* measured: median time of one launch at n (total_ms)   */
    unsigned groups;  /* work-groups of the calibration launches (all workers) */
    int capped;       /* E not reached: n is max_n (exec_ms below target_ms)   */
    unsigned steps;   /* sizes tried                                           */
    int tried_n[16];  /* each size tried, in order, and its median exec_ms     */
    double tried_ms[16];
} app_calibration;

/* Finds the smallest n (a multiple of 8, 8..max_n, max_n <= 4096) at which
 * one matmul launch with `groups` work-groups, alone in ctx (built with
 * matmul.cl; nothing else may run), takes at least target_ms (its
 * ck_launch_stats.total_ms, sent to finished: alone, queue and gather are
 * near zero, and exec_ms is measured between two messages' arrivals, coarse
 * on a busy CPU; median of 5 launches after one warm-up). Grows
 * n by the cube-root rule from the last measurement. Stops at max_n and
 * sets capped. Allocates and frees its matrices in ctx's arena. */
int app_calibrate_matmul(ck_context *ctx, unsigned groups, double target_ms, int max_n, app_calibration *out,
                         char *err, size_t err_len);

/* Replaces the session's matmul (s->mm) with one of size n (the session
 * must have been opened with a matmul). */
int app_session_set_matmul(app_session *s, int n, char *err, size_t err_len);

#endif
