/* apps/worklist/wl_plain.c: the plain OpenCL baselines of the worklist
 * skeleton (no megakernel): one worklist_step launch per iteration, and
 * worklist_coop as an occupancy-bound persistent kernel (see wl.h). */
#include "wl.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cl_mem row, col, w, dist, wl0, wl1, ctl, barrier_words;
} wl_bufs;

/* Uploads g and the initial state; scratch (n values) is overwritten. */
static int upload(app_cl *c, const app_csr *g, app_wl_mode mode, int32_t source, size_t cap, wl_bufs *b,
                  int32_t *scratch, char *err, size_t err_len)
{
    size_t n = (size_t)g->n;
    app_wl_init_values(mode, g->n, source, scratch);
    int32_t ctl[4] = {1, 0, 0, 0};
    uint32_t words[APP_PLAIN_BARRIER_WORDS] = {0}; /* ck_cooperative.h: two lines */
    if (app_cl_buffer(c, (n + 1) * 4, g->row, &b->row, "CSR rows", err, err_len) ||
        app_cl_buffer(c, (size_t)g->m * 4, g->m ? g->col : NULL, &b->col, "CSR columns", err, err_len) ||
        (mode == APP_WL_SSSP &&
         app_cl_buffer(c, (size_t)g->m * 4, g->m ? g->w : NULL, &b->w, "edge weights", err, err_len)) ||
        app_cl_buffer(c, n * 4, scratch, &b->dist, "values", err, err_len) ||
        app_cl_buffer(c, cap * 4, NULL, &b->wl0, "worklist 0", err, err_len) ||
        app_cl_buffer(c, cap * 4, NULL, &b->wl1, "worklist 1", err, err_len) ||
        app_cl_buffer(c, sizeof ctl, ctl, &b->ctl, "worklist sizes", err, err_len) ||
        app_cl_buffer(c, sizeof words, words, &b->barrier_words, "barrier words", err, err_len))
        return -1;
    cl_int e = clEnqueueWriteBuffer(c->queue, b->wl0, CL_TRUE, 0, 4, &source, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clEnqueueWriteBuffer (source into worklist 0)", err, err_len);
    return 0;
}

#define SETARG(k, i, v, what) APP_CL_CHECK(clSetKernelArg(k, i, sizeof(v), &(v)), "clSetKernelArg (" what ")")

static int run_multi(app_cl *c, cl_program prog, wl_bufs *b, app_wl_mode mode, int32_t cap, size_t wg,
                     double deadline_ms, app_wl_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, APP_WL_STEP_KERNEL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (" APP_WL_STEP_KERNEL ")", err, err_len);
    int32_t n_in = 1, iter = 0, imode = (int32_t)mode, zero = 0;
    int32_t ctl[4];
    cl_mem in = b->wl0, out = b->wl1, w = b->w;
    double t0 = app_now_ms();
    while (n_in > 0) {
        size_t groups = ((size_t)n_in + wg - 1) / wg, global = groups * wg;
        APP_CL_CHECK(clEnqueueWriteBuffer(c->queue, b->ctl, CL_FALSE, 0, 4, &zero, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (reset out-worklist size)");
        SETARG(k, 0, b->row, "row");
        SETARG(k, 1, b->col, "col");
        SETARG(k, 2, w, "w");
        SETARG(k, 3, b->dist, "dist");
        SETARG(k, 4, in, "in");
        SETARG(k, 5, n_in, "n_in");
        SETARG(k, 6, out, "out");
        SETARG(k, 7, b->ctl, "ctl");
        SETARG(k, 8, cap, "cap");
        SETARG(k, 9, imode, "mode");
        SETARG(k, 10, iter, "level");
        APP_CL_CHECK(clSetKernelArg(k, 11, app_wl_local_ints(wg) * 4, NULL), "clSetKernelArg (local scratch)");
        APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, NULL),
                     "clEnqueueNDRangeKernel (" APP_WL_STEP_KERNEL ")");
        /* A blocking read per iteration, as a user's multi-launch version does
         * (each launch ends by itself; the deadline is checked in between). */
        APP_CL_CHECK(clEnqueueReadBuffer(c->queue, b->ctl, CL_TRUE, 0, sizeof ctl, ctl, 0, NULL, NULL),
                     "clEnqueueReadBuffer (out-worklist size)");
        ++iter;
        if (ctl[2] || ctl[0] > cap || ctl[0] < 0) {
            snprintf(err, err_len, "worklist overflow in iteration %d: %d pushes, capacity %d", iter, ctl[0], cap);
            goto fail;
        }
        if (app_now_ms() > deadline_ms) {
            snprintf(err, err_len, "the plain multi-launch worklist kernel did not finish within the timeout "
                     "(%d iterations run): raise the timeout if the graph is just large", iter);
            goto fail;
        }
        n_in = ctl[0];
        cl_mem t = in;
        in = out;
        out = t;
    }
    res->ms = app_now_ms() - t0;
    res->iterations = iter;
    clReleaseKernel(k);
    return 0;
fail:
    clReleaseKernel(k);
    return -1;
}

static int run_persistent(app_cl *c, cl_program prog, wl_bufs *b, app_wl_mode mode, int32_t cap, size_t wg,
                          unsigned groups, double deadline_ms, app_wl_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, APP_WL_COOP_KERNEL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (" APP_WL_COOP_KERNEL ", plain)", err, err_len);
    size_t global = (size_t)groups * wg;
    int32_t imode = (int32_t)mode, lm_ints = (int32_t)app_wl_local_ints(wg);
    int32_t ctl[4];
    cl_mem w = b->w;
    SETARG(k, 0, b->row, "row");
    SETARG(k, 1, b->col, "col");
    SETARG(k, 2, w, "w");
    SETARG(k, 3, b->dist, "dist");
    SETARG(k, 4, b->wl0, "wl0");
    SETARG(k, 5, b->wl1, "wl1");
    SETARG(k, 6, b->ctl, "ctl");
    SETARG(k, 7, cap, "cap");
    SETARG(k, 8, imode, "mode");
    APP_CL_CHECK(clSetKernelArg(k, 9, (size_t)lm_ints * 4, NULL), "clSetKernelArg (local scratch)");
    SETARG(k, 10, lm_ints, "lm_ints");
    SETARG(k, 11, b->barrier_words, "plain_barrier");
    double t0 = app_now_ms();
    cl_event ev;
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel (" APP_WL_COOP_KERNEL ", plain persistent)");
    int waited = app_cl_wait_event(c, ev, deadline_ms, "the plain persistent worklist kernel", err, err_len);
    clReleaseEvent(ev);
    if (waited)
        goto fail;
    res->ms = app_now_ms() - t0;
    APP_CL_CHECK(clEnqueueReadBuffer(c->queue, b->ctl, CL_TRUE, 0, sizeof ctl, ctl, 0, NULL, NULL),
                 "clEnqueueReadBuffer (worklist sizes)");
    if (ctl[2] || ctl[0] > cap || ctl[1] > cap) {
        snprintf(err, err_len, "worklist overflow after %d iterations: capacity %d", ctl[3], cap);
        goto fail;
    }
    if (ctl[3] < 0) {
        snprintf(err, err_len, "work-group size %zu: the kernel found too little local scratch", wg);
        goto fail;
    }
    res->iterations = ctl[3];
    clReleaseKernel(k);
    return 0;
fail:
    clReleaseKernel(k);
    return -1;
}

int app_wl_plain_run(app_cl *c, const app_csr *g, app_wl_mode mode, int32_t source, int persistent, size_t wg,
                     unsigned groups, double timeout_s, int32_t *out, app_wl_result *res, char *err,
                     size_t err_len)
{
    memset(res, 0, sizeof *res);
    if (!(timeout_s > 0 && timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain worklist: timeout %g s is not a finite number of seconds above 0", timeout_s);
        return -1;
    }
    if (source < 0 || source >= g->n || wg == 0 || wg > 1u << 20 || (persistent && groups == 0)) {
        snprintf(err, err_len, "plain worklist: bad source %d, work-group size %zu or group count %u", source, wg,
                 groups);
        return -1;
    }
    if (mode == APP_WL_SSSP && g->m && !g->w) {
        snprintf(err, err_len, "plain worklist SSSP: the graph has no weights");
        return -1;
    }
    int64_t cap = app_wl_capacity(g, mode, err, err_len);
    if (cap < 0)
        return -1;
    wl_bufs b;
    memset(&b, 0, sizeof b);
    cl_program prog = NULL;
    int rc = -1;
    if (upload(c, g, mode, source, (size_t)cap, &b, out, err, err_len))
        goto out;
    if (app_cl_build(c, APP_WL_FILE, NULL, &prog, err, err_len))
        goto out;
    double deadline = app_now_ms() + timeout_s * 1e3;
    if (persistent ? run_persistent(c, prog, &b, mode, (int32_t)cap, wg, groups, deadline, res, err, err_len)
                   : run_multi(c, prog, &b, mode, (int32_t)cap, wg, deadline, res, err, err_len))
        goto out;
    cl_int e = clEnqueueReadBuffer(c->queue, b.dist, CL_TRUE, 0, (size_t)g->n * 4, out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        app_cl_fail(e, "clEnqueueReadBuffer (values)", err, err_len);
        goto out;
    }
    rc = 0;
out:
    if (prog)
        clReleaseProgram(prog);
    return rc;
}
