/* apps/multitask.c: sessions (context + app + matmul) and the multitasking
 * run: cooperative launch plus a periodic matmul stream on a second thread
 * (see multitask.h). */
#include "multitask.h"
#include "paths.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int app_session_open(app *a, const ck_context_options *opts, int matmul_size, unsigned coop_groups, app_session *s,
                     char *err, size_t err_len)
{
    memset(s, 0, sizeof *s);
    s->a = a;
    double t0 = app_now_ms();
    if (ck_context_create(opts, &s->ctx) != CK_OK) {
        snprintf(err, err_len, "creating the context: %s", ck_last_error());
        return -1;
    }
    char path[1024];
    if (app_add_sources(a, s->ctx, err, err_len))
        goto fail;
    if (matmul_size > 0 &&
        ck_context_add_file(s->ctx, app_kernel_path(APP_MATMUL_FILE, path, sizeof path), NULL, 0) != CK_OK) {
        snprintf(err, err_len, "adding %s: %s", path, ck_last_error());
        goto fail;
    }
    if (ck_context_build(s->ctx) != CK_OK) {
        snprintf(err, err_len, "building the megakernel: %s", ck_last_error());
        goto fail;
    }
    s->build_ms = app_now_ms() - t0;
    s->workers = ck_context_workers(s->ctx);
    if (s->workers == 0) {
        snprintf(err, err_len, "the megakernel has no worker groups");
        goto fail;
    }
    s->coop_groups = coop_groups && coop_groups < s->workers ? coop_groups : s->workers;
    if (app_coop_setup(a, s->ctx, s->coop_groups, err, err_len))
        goto fail;
    if (matmul_size > 0 && app_matmul_setup(s->ctx, matmul_size, &s->mm, err, err_len))
        goto fail;
    return 0;
fail:
    app_coop_teardown(a);
    app_matmul_free(s->mm);
    s->mm = NULL;
    ck_context_destroy(s->ctx);
    s->ctx = NULL;
    return -1;
}

int app_session_close(app_session *s, char *err, size_t err_len)
{
    if (!s->ctx)
        return 0;
    app_coop_teardown(s->a);
    app_matmul_free(s->mm);
    s->mm = NULL;
    ck_status st = ck_context_destroy(s->ctx);
    s->ctx = NULL;
    if (st != CK_OK) {
        snprintf(err, err_len, "destroying the context: %s", ck_last_error());
        return -1;
    }
    return 0;
}

typedef struct {
    app_session *s;
    unsigned groups;
    double period_ms, timeout_s;
    unsigned samples;
    atomic_int stop;
    app_multitask_result *r;
    unsigned cap;
    double *launch_at;
    int failed; /* runtime error in the stream */
    char err[512];
} stream;

static void *stream_main(void *arg)
{
    stream *st = arg;
    app_multitask_result *r = st->r;
    double next = app_now_ms();
    /* The first launch goes out even if the cooperative kernel has already
     * ended (on a loaded CPU this thread may start late), so every
     * multitasked run checks at least one matmul. */
    for (unsigned k = 0; (k == 0 || !atomic_load(&st->stop)) && k < st->cap; ++k) {
        /* Sleep to the next slot in small steps so that the end of the
         * cooperative kernel stops the stream promptly. */
        while (!atomic_load(&st->stop) && app_now_ms() < next) {
            double step = next - app_now_ms();
            app_sleep_until_ms(app_now_ms() + (step > 2 ? 2 : step));
        }
        if (k > 0 && atomic_load(&st->stop))
            break;
        double t0 = app_now_ms();
        float salt = (float)(k + 1);
        ck_launch *l = NULL;
        if (app_matmul_launch(st->s->mm, st->groups, salt, &l, st->err, sizeof st->err)) {
            st->failed = 1;
            break;
        }
        if (ck_wait(l, st->timeout_s) != CK_OK) {
            /* The message carries the scheduler's state dump, longer than
             * the result's fields keep: the whole of it goes to stderr. */
            fprintf(stderr, "matmul stream: waiting for matmul launch %u failed:\n%s\n", k, ck_last_error());
            snprintf(st->err, sizeof st->err, "waiting for matmul launch %u: %s", k, ck_last_error());
            st->failed = 1;
            ck_launch_release(l);
            break;
        }
        ck_launch_stats ls;
        if (ck_launch_get_stats(l, &ls) != CK_OK) {
            snprintf(st->err, sizeof st->err, "stats of matmul launch %u: %s", k, ck_last_error());
            st->failed = 1;
            ck_launch_release(l);
            break;
        }
        ck_launch_release(l);
        double t_end = app_now_ms();
        st->launch_at[k] = t0;
        r->send_ms[k] = t0;
        r->queue_ms[k] = ls.queue_ms;
        if (st->period_ms > 0 && t_end > next + st->period_ms)
            r->mm_missed++;
        r->gather_ms[k] = ls.gather_ms;
        r->exec_ms[k] = ls.exec_ms;
        r->total_ms[k] = ls.total_ms;
        r->mm_launches = k + 1;
        char msg[256];
        int c = app_matmul_check(st->s->mm, salt, st->samples, 1000003u * (k + 1), msg, sizeof msg);
        if (c < 0) {
            snprintf(st->err, sizeof st->err, "%s", msg);
            st->failed = 1;
            break;
        }
        if (c > 0 && r->mm_bad++ == 0)
            snprintf(r->mm_msg, sizeof r->mm_msg, "launch %u: %s", k, msg);
        next += st->period_ms;
        if (next < app_now_ms())
            next = app_now_ms(); /* late: launch at once, do not burst to catch up */
    }
    return NULL;
}

int app_multitask_run(app_session *s, unsigned mm_groups, double period_ms, unsigned samples, double timeout_s,
                      app_multitask_result *r, char *err, size_t err_len)
{
    memset(r, 0, sizeof *r);
    r->coop_check = -1;
    r->mm_groups = mm_groups;
    if (mm_groups > 0 && !s->mm) {
        snprintf(err, err_len, "matmul stream asked for, but the session has no matmul");
        return -1;
    }
    stream st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.groups = mm_groups;
    st.period_ms = period_ms > 0 ? period_ms : 0;
    st.timeout_s = timeout_s;
    st.samples = samples;
    st.r = r;
    st.cap = 100000;
    if (mm_groups > 0) {
        r->gather_ms = calloc(st.cap, sizeof(double));
        r->exec_ms = calloc(st.cap, sizeof(double));
        r->total_ms = calloc(st.cap, sizeof(double));
        r->period_ms = calloc(st.cap, sizeof(double));
        r->send_ms = calloc(st.cap, sizeof(double));
        r->queue_ms = calloc(st.cap, sizeof(double));
        st.launch_at = calloc(st.cap, sizeof(double));
        if (!r->gather_ms || !r->exec_ms || !r->total_ms || !r->period_ms || !r->send_ms || !r->queue_ms ||
            !st.launch_at) {
            free(st.launch_at);
            app_multitask_result_free(r);
            snprintf(err, err_len, "out of host memory for the matmul stream");
            return -1;
        }
    }
    ck_launch *l = NULL;
    double t0 = app_now_ms();
    r->coop_send_ms = t0;
    if (app_coop_start(s->a, s->coop_groups, &l, err, err_len)) {
        free(st.launch_at);
        return -1;
    }
    pthread_t th;
    int have_thread = 0;
    if (mm_groups > 0) {
        if (pthread_create(&th, NULL, stream_main, &st) != 0) {
            snprintf(err, err_len, "cannot start the matmul stream thread");
            ck_wait(l, timeout_s);
            ck_launch_release(l);
            free(st.launch_at);
            return -1;
        }
        have_thread = 1;
    }
    ck_status ws = ck_wait(l, timeout_s);
    r->coop_wall_ms = app_now_ms() - t0;
    char wait_err[1024] = "";
    if (ws != CK_OK)
        snprintf(wait_err, sizeof wait_err, "waiting for the cooperative kernel: %s", ck_last_error());
    atomic_store(&st.stop, 1);
    if (have_thread)
        pthread_join(th, NULL);
    int rc = 0;
    if (ws != CK_OK) {
        snprintf(err, err_len, "%s", wait_err);
        rc = -1;
    } else if (ck_launch_get_stats(l, &r->coop) != CK_OK) {
        snprintf(err, err_len, "stats of the cooperative kernel: %s", ck_last_error());
        rc = -1;
    } else {
        r->coop_ms = r->coop.total_ms;
        r->coop_check = app_coop_check(s->a, r->coop_msg, sizeof r->coop_msg);
        if (r->coop_check < 0) {
            snprintf(err, err_len, "%s", r->coop_msg);
            rc = -1;
        }
    }
    ck_launch_release(l);
    if (rc == 0 && st.failed) {
        snprintf(err, err_len, "matmul stream: %s", st.err);
        rc = -1;
    }
    for (unsigned k = 1; k < r->mm_launches; ++k)
        r->period_ms[k - 1] = st.launch_at[k] - st.launch_at[k - 1];
    r->n_period = r->mm_launches > 1 ? r->mm_launches - 1 : 0;
    free(st.launch_at);
    return rc;
}

void app_multitask_result_free(app_multitask_result *r)
{
    free(r->gather_ms);
    free(r->exec_ms);
    free(r->total_ms);
    free(r->period_ms);
    free(r->send_ms);
    free(r->queue_ms);
    r->gather_ms = r->exec_ms = r->total_ms = r->period_ms = r->send_ms = r->queue_ms = NULL;
}

int app_parse_group_expr(const char *s, unsigned n, unsigned *out)
{
    long v;
    char *end;
    if (!strcmp(s, "N"))
        v = n;
    else if (!strcmp(s, "N/4"))
        v = n / 4;
    else if (!strcmp(s, "N/2"))
        v = n / 2;
    else if (!strcmp(s, "N-1"))
        v = (long)n - 1;
    else {
        v = strtol(s, &end, 10);
        if (end == s || *end || v < 1)
            return -1;
    }
    if (v < 1)
        v = 1;
    if (v > (long)n)
        v = n;
    *out = (unsigned)v;
    return 0;
}
