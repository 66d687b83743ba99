/* apps/workstealing/ws_plain.c: the plain baseline: ws.cl compiled as ordinary
 * OpenCL and run as an occupancy-bound persistent kernel (see ws.h). */
#include "timer.h"
#include "ws_queues.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int app_ws_plain_run(app_cl *c, const app_ws_params *p, size_t wg, unsigned groups, double timeout_s,
                     app_ws_result *out, double *ms, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (!(timeout_s > 0 && timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain work stealing: timeout %g s is not a finite number of seconds above 0",
                 timeout_s);
        return -1;
    }
    if (groups == 0 || wg == 0) {
        snprintf(err, err_len, "plain work stealing: need at least one group of at least one item");
        return -1;
    }
    uint32_t nq = groups, cap = app_ws_capacity(p, nq);
    uint32_t *qmeta = NULL, *qtasks = NULL, ctr[APP_WS_COUNTERS];
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem bm = NULL, bt = NULL, bc = NULL;
    int rc = -1;
    cl_int e;
    if (app_ws_initial_state(p, nq, cap, &qmeta, &qtasks)) {
        snprintf(err, err_len, "plain work stealing: out of host memory for %u queues of %u tasks", nq, cap);
        goto fail;
    }
    app_ws_initial_counters(p, ctr);
    if (app_cl_build(c, APP_WS_FILE, NULL, &prog, err, err_len))
        goto fail;
    k = clCreateKernel(prog, APP_WS_KERNEL, &e);
    APP_CL_CHECK(e, "clCreateKernel (ws_coop, plain)");
    size_t mbytes = (size_t)nq * APP_WS_QSTRIDE * 4, tbytes = (size_t)nq * cap * 8;
    if (app_cl_buffer(c, mbytes, qmeta, &bm, "queue metadata", err, err_len) ||
        app_cl_buffer(c, tbytes, qtasks, &bt, "queue tasks", err, err_len) ||
        app_cl_buffer(c, sizeof ctr, ctr, &bc, "counters", err, err_len))
        goto fail;
    cl_uint a_nq = nq, a_cap = cap, a_depth = p->max_depth, a_units = p->units, a_iters = p->iters;
    APP_CL_CHECK(clSetKernelArg(k, 0, sizeof bm, &bm), "clSetKernelArg (qmeta)");
    APP_CL_CHECK(clSetKernelArg(k, 1, sizeof bt, &bt), "clSetKernelArg (qtasks)");
    APP_CL_CHECK(clSetKernelArg(k, 2, sizeof bc, &bc), "clSetKernelArg (ctr)");
    APP_CL_CHECK(clSetKernelArg(k, 3, sizeof a_nq, &a_nq), "clSetKernelArg (nq)");
    APP_CL_CHECK(clSetKernelArg(k, 4, sizeof a_cap, &a_cap), "clSetKernelArg (cap)");
    APP_CL_CHECK(clSetKernelArg(k, 5, sizeof a_depth, &a_depth), "clSetKernelArg (max_depth)");
    APP_CL_CHECK(clSetKernelArg(k, 6, sizeof a_units, &a_units), "clSetKernelArg (units)");
    APP_CL_CHECK(clSetKernelArg(k, 7, sizeof a_iters, &a_iters), "clSetKernelArg (iters)");
    if (app_cl_finish(c, app_now_ms() + timeout_s * 1e3, "the uploads of the plain work stealing", err, err_len))
        goto fail;
    size_t global = (size_t)groups * wg;
    double t0 = app_now_ms();
    cl_event ev;
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel (ws_coop, plain persistent)");
    int waited = app_cl_wait_event(c, ev, t0 + timeout_s * 1e3, "the plain persistent work-stealing kernel", err,
                                   err_len);
    clReleaseEvent(ev);
    if (waited)
        goto fail;
    *ms = app_now_ms() - t0;
    APP_CL_CHECK(clEnqueueReadBuffer(c->queue, bc, CL_TRUE, 0, sizeof ctr, ctr, 0, NULL, NULL),
                 "clEnqueueReadBuffer (counters)");
    APP_CL_CHECK(clEnqueueReadBuffer(c->queue, bm, CL_TRUE, 0, mbytes, qmeta, 0, NULL, NULL),
                 "clEnqueueReadBuffer (queue metadata)");
    app_ws_decode(ctr, qmeta, nq, out);
    rc = 0;
fail: /* the buffers belong to c (app_cl_buffer) */
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    free(qmeta);
    free(qtasks);
    return rc;
}
