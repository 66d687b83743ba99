/* apps/mis/mis_plain.c: the plain OpenCL baselines of the maximal
 * independent set (no megakernel): the original multi-launch form (mis1 +
 * mis2 + mis3 per round) and the occupancy-bound persistent form of
 * mis_coop.cl (see mis.h). */
#include "mis.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cl_mem row, col, value, status, upd, min_d, stop, barrier_words;
} mis_bufs;

/* scratch: n ints, used for the priorities and then the initial statuses. */
static int upload(app_cl *c, const app_csr *g, mis_bufs *b, int32_t *scratch, char *err, size_t err_len)
{
    size_t n = (size_t)g->n;
    int32_t stop = 0;
    uint32_t words[APP_PLAIN_BARRIER_WORDS] = {0}; /* ck_cooperative.h: two lines */
    for (size_t v = 0; v < n; ++v)
        scratch[v] = (int32_t)v;
    if (app_cl_buffer(c, (n + 1) * 4, g->row, &b->row, "CSR rows", err, err_len) ||
        app_cl_buffer(c, (size_t)g->m * 4, g->col, &b->col, "CSR columns", err, err_len) ||
        app_cl_buffer(c, n * 4, scratch, &b->value, "node values", err, err_len))
        return -1;
    for (size_t v = 0; v < n; ++v)
        scratch[v] = -1;
    if (app_cl_buffer(c, n * 4, scratch, &b->status, "statuses", err, err_len) ||
        app_cl_buffer(c, n * 4, scratch, &b->upd, "marks", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b->min_d, "neighbour minima", err, err_len) ||
        app_cl_buffer(c, sizeof stop, &stop, &b->stop, "stop flag", err, err_len) ||
        app_cl_buffer(c, sizeof words, words, &b->barrier_words, "barrier words", err, err_len))
        return -1;
    return 0;
}

#define SETARG(k, i, v, what) APP_CL_CHECK(clSetKernelArg(k, i, sizeof(v), &(v)), "clSetKernelArg (" what ")")

static int run_multi(app_cl *c, cl_program prog, mis_bufs *b, int32_t n, size_t wg, double deadline_ms,
                     app_mis_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    const char *names[3] = {"mis1", "mis2", "mis3"};
    cl_kernel k[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; ++i) {
        k[i] = clCreateKernel(prog, names[i], &e);
        if (e != CL_SUCCESS) {
            char w[64];
            snprintf(w, sizeof w, "clCreateKernel (%s)", names[i]);
            app_cl_fail(e, w, err, err_len);
            goto fail;
        }
    }
    size_t global = ((size_t)n + wg - 1) / wg * wg;
    if (global == 0)
        global = wg;
    SETARG(k[0], 0, b->row, "row");
    SETARG(k[0], 1, b->col, "col");
    SETARG(k[0], 2, b->value, "node_value");
    SETARG(k[0], 3, b->status, "status");
    SETARG(k[0], 4, b->min_d, "min_d");
    SETARG(k[0], 5, b->stop, "stop");
    SETARG(k[0], 6, n, "n");
    SETARG(k[1], 0, b->row, "row");
    SETARG(k[1], 1, b->col, "col");
    SETARG(k[1], 2, b->value, "node_value");
    SETARG(k[1], 3, b->status, "status");
    SETARG(k[1], 4, b->upd, "upd");
    SETARG(k[1], 5, b->min_d, "min_d");
    SETARG(k[1], 6, n, "n");
    SETARG(k[2], 0, b->status, "status");
    SETARG(k[2], 1, b->upd, "upd");
    SETARG(k[2], 2, n, "n");
    int32_t rounds = 0, stop = 1, zero = 0;
    double t0 = app_now_ms();
    while (stop) {
        APP_CL_CHECK(clEnqueueWriteBuffer(c->queue, b->stop, CL_FALSE, 0, 4, &zero, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (clear stop flag)");
        for (int i = 0; i < 3; ++i) {
            cl_int ee = clEnqueueNDRangeKernel(c->queue, k[i], 1, NULL, &global, &wg, 0, NULL, NULL);
            if (ee != CL_SUCCESS) {
                char w[64];
                snprintf(w, sizeof w, "clEnqueueNDRangeKernel (%s)", names[i]);
                app_cl_fail(ee, w, err, err_len);
                goto fail;
            }
        }
        /* A blocking read, as the original host loop does; every launch ends
         * by itself, so the deadline is checked between rounds. */
        APP_CL_CHECK(clEnqueueReadBuffer(c->queue, b->stop, CL_TRUE, 0, 4, &stop, 0, NULL, NULL),
                     "clEnqueueReadBuffer (stop flag)");
        ++rounds;
        if (app_now_ms() > deadline_ms) {
            snprintf(err, err_len, "the plain multi-launch independent set did not finish within the timeout (%d "
                     "rounds run): raise the timeout if the graph is just large", rounds);
            goto fail;
        }
    }
    res->ms = app_now_ms() - t0;
    res->rounds = rounds;
    res->launches = 3 * rounds;
    for (int i = 0; i < 3; ++i)
        clReleaseKernel(k[i]);
    return 0;
fail:
    for (int i = 0; i < 3; ++i)
        if (k[i])
            clReleaseKernel(k[i]);
    return -1;
}

static int run_persistent(app_cl *c, cl_program prog, mis_bufs *b, int32_t n, size_t wg, unsigned groups,
                          double deadline_ms, app_mis_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, APP_MIS_COOP_KERNEL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (mis_coop, plain)", err, err_len);
    size_t global = (size_t)groups * wg;
    SETARG(k, 0, b->row, "row");
    SETARG(k, 1, b->col, "col");
    SETARG(k, 2, b->value, "node_value");
    SETARG(k, 3, b->status, "status");
    SETARG(k, 4, b->upd, "upd");
    SETARG(k, 5, b->min_d, "min_d");
    SETARG(k, 6, b->stop, "stop");
    SETARG(k, 7, n, "n");
    SETARG(k, 8, b->barrier_words, "plain_barrier");
    double t0 = app_now_ms();
    cl_event ev;
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel (mis_coop, plain persistent)");
    int waited = app_cl_wait_event(c, ev, deadline_ms, "the plain persistent independent-set kernel", err, err_len);
    clReleaseEvent(ev);
    if (waited)
        goto fail;
    res->ms = app_now_ms() - t0;
    res->rounds = -1;
    res->launches = 1;
    clReleaseKernel(k);
    return 0;
fail:
    clReleaseKernel(k);
    return -1;
}

int app_mis_plain_run(app_cl *c, const app_csr *g, int persistent, size_t wg, unsigned groups, double timeout_s,
                      int32_t *status_out, app_mis_plain_result *res, char *err, size_t err_len)
{
    memset(res, 0, sizeof *res);
    if (!(timeout_s > 0 && timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain independent set: timeout %g s is not a finite number of seconds above 0",
                 timeout_s);
        return -1;
    }
    if (wg == 0 || (persistent && groups == 0)) {
        snprintf(err, err_len, "plain independent set: bad work-group size %zu or group count %u", wg, groups);
        return -1;
    }
    mis_bufs b;
    memset(&b, 0, sizeof b);
    cl_program prog = NULL;
    int rc = -1;
    if (upload(c, g, &b, status_out, err, err_len))
        goto out;
    if (app_cl_build(c, persistent ? APP_MIS_COOP_FILE : APP_MIS_PLAIN_FILE, NULL, &prog, err, err_len))
        goto out;
    double deadline = app_now_ms() + timeout_s * 1e3;
    if (persistent ? run_persistent(c, prog, &b, g->n, wg, groups, deadline, res, err, err_len)
                   : run_multi(c, prog, &b, g->n, wg, deadline, res, err, err_len))
        goto out;
    if (g->n) {
        cl_int e = clEnqueueReadBuffer(c->queue, b.status, CL_TRUE, 0, (size_t)g->n * 4, status_out, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            app_cl_fail(e, "clEnqueueReadBuffer (statuses)", err, err_len);
            goto out;
        }
    }
    rc = 0;
out:
    if (prog)
        clReleaseProgram(prog);
    return rc;
}
