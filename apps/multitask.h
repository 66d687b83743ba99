/* apps/multitask.h: the multitasking experiment of the paper's section 5.4,
 * shared by ckrun and the tests: a context holding an application's
 * cooperative kernel and matmul.cl, a cooperative launch alone or alongside a
 * stream of matmul launches from a second host thread (one every period,
 * each waited for), with every result checked.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef APPS_MULTITASK_H
#define APPS_MULTITASK_H

#include <stddef.h>

#include "app.h"
#include "ck.h"
#include "matmul.h"
#include "timer.h"

typedef struct {
    ck_context *ctx;
    app *a;
    app_matmul *mm;       /* NULL when matmul_size was 0 */
    unsigned workers;     /* the megakernel's worker groups        */
    unsigned coop_groups; /* N of the cooperative launches          */
    double build_ms;
} app_session;

/* Creates and builds a context with the app's kernel and matmul.cl, then
 * sets up the app's inputs and (matmul_size > 0) the matmul matrices.
 * coop_groups 0 = all workers. */
int app_session_open(app *a, const ck_context_options *opts, int matmul_size, unsigned coop_groups, app_session *s,
                     char *err, size_t err_len);
/* Destroys the context (the app survives). -1 if the runtime had to abort
 * the megakernel. */
int app_session_close(app_session *s, char *err, size_t err_len);

typedef struct {
    /* cooperative kernel */
    double coop_ms;      /* launch sent -> finished (runtime's total_ms)   */
    double coop_wall_ms; /* host: launch call -> ck_wait returned          */
    ck_launch_stats coop;
    int coop_check; /* 0 PASS, 1 FAIL, -1 error                       */
    char coop_msg[512];
    /* matmul stream (mm_groups 0: none) */
    unsigned mm_groups;
    unsigned mm_launches;
    unsigned mm_bad;                                    /* launches whose sampled entries were wrong      */
    char mm_msg[384];                                   /* first matmul problem                          */
    double *gather_ms, *exec_ms, *total_ms, *period_ms; /* per launch; period: between launch starts */
    unsigned n_period;
    /* Timeline: host times (app_now_ms, the clock of ck_trace_sample.t_s in
     * ms) when the cooperative launch and each matmul launch were sent, and
     * each matmul launch's queue time (sent -> gathering starts). */
    double coop_send_ms;
    double *send_ms, *queue_ms;
    /* Missed periods: matmul launches that ended after the start of the
     * next period (the next launch then went out at once). period_ms 0
     * counts none. */
    unsigned mm_missed;
} app_multitask_result;

/* One cooperative run: launches the app's kernel with N = s->coop_groups
 * and, if mm_groups > 0, runs the matmul stream (mm_groups groups, one
 * launch per period_ms, first at once, never two in flight: a launch that
 * ends after the next period's start is a missed period and the next one
 * goes out at once) until the cooperative kernel ends;
 * the first matmul launch is made even if the cooperative kernel ended
 * before the stream thread got going.
 * Checks the app's output and every matmul launch (`samples` entries each).
 * Returns -1 on an error of the runtime (message in err; r->coop_msg may say
 * more); a wrong answer is not an error: see r->coop_check and r->mm_bad. */
int app_multitask_run(app_session *s, unsigned mm_groups, double period_ms, unsigned samples, double timeout_s,
                      app_multitask_result *r, char *err, size_t err_len);
void app_multitask_result_free(app_multitask_result *r);

/* Parses one group-count expression of --noncoop ("1", "N/4", "N/2", "N-1",
 * "N" or a number) for N workers; -1 if malformed. Results below 1 become 1
 * and above N become N. */
int app_parse_group_expr(const char *s, unsigned n, unsigned *out);

#endif
