/* apps/psssp/psssp_plain.c: the plain OpenCL p-sssp baselines (no
 * megakernel): the multi-launch form (psssp_copy, psssp_relax, psssp_diff
 * per round) and the occupancy-bound persistent form of psssp_coop.cl (see
 * psssp.h). */
#include "psssp.h"
#include "sssp_cpu.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cl_mem row, col, w, dist, dist_old, flags, barrier_words;
} psssp_bufs;

#define SETARG(k, i, v, what) APP_CL_CHECK(clSetKernelArg(k, i, sizeof(v), &(v)), "clSetKernelArg (" what ")")

static int run_multi(app_cl *c, cl_program prog, psssp_bufs *b, cl_int n, size_t wg, double deadline_ms,
                     app_psssp_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel kc = NULL, kr = NULL, kd = NULL;
    const char *names[3] = {"psssp_copy", "psssp_relax", "psssp_diff"};
    cl_kernel *ks[3] = {&kc, &kr, &kd};
    for (int i = 0; i < 3; ++i) {
        *ks[i] = clCreateKernel(prog, names[i], &e);
        if (e != CL_SUCCESS) {
            char what[64];
            snprintf(what, sizeof what, "clCreateKernel (%s)", names[i]);
            app_cl_fail(e, what, err, err_len);
            goto fail;
        }
    }
    SETARG(kc, 0, b->dist, "psssp_copy dist");
    SETARG(kc, 1, b->dist_old, "psssp_copy dist_old");
    SETARG(kc, 2, n, "psssp_copy n");
    SETARG(kr, 0, b->row, "psssp_relax row");
    SETARG(kr, 1, b->col, "psssp_relax col");
    SETARG(kr, 2, b->w, "psssp_relax w");
    SETARG(kr, 3, n, "psssp_relax n");
    SETARG(kr, 4, b->dist, "psssp_relax dist");
    SETARG(kr, 5, b->dist_old, "psssp_relax dist_old");
    SETARG(kd, 0, b->dist, "psssp_diff dist");
    SETARG(kd, 1, b->dist_old, "psssp_diff dist_old");
    SETARG(kd, 2, n, "psssp_diff n");
    SETARG(kd, 3, b->flags, "psssp_diff changed");
    size_t global = ((size_t)n + wg - 1) / wg * wg;
    int32_t changed = 1, zero = 0, rounds = 0;
    double t0 = app_now_ms();
    while (changed) {
        APP_CL_CHECK(clEnqueueWriteBuffer(c->queue, b->flags, CL_FALSE, 0, 4, &zero, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (p-sssp: clear the changed flag)");
        for (int i = 0; i < 3; ++i)
            APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, *ks[i], 1, NULL, &global, &wg, 0, NULL, NULL),
                         "clEnqueueNDRangeKernel (p-sssp round)");
        /* Blocking read as the original does; each launch ends by itself, so
         * the deadline is checked between rounds. */
        APP_CL_CHECK(clEnqueueReadBuffer(c->queue, b->flags, CL_TRUE, 0, 4, &changed, 0, NULL, NULL),
                     "clEnqueueReadBuffer (p-sssp changed flag)");
        ++rounds;
        if (changed && app_now_ms() > deadline_ms) {
            snprintf(err, err_len, "the plain multi-launch p-sssp did not finish within the timeout (%d rounds run)",
                     rounds);
            goto fail;
        }
    }
    res->ms = app_now_ms() - t0;
    res->rounds = rounds;
    clReleaseKernel(kc);
    clReleaseKernel(kr);
    clReleaseKernel(kd);
    return 0;
fail:
    for (int i = 0; i < 3; ++i)
        if (*ks[i])
            clReleaseKernel(*ks[i]);
    return -1;
}

static int run_persistent(app_cl *c, cl_program prog, psssp_bufs *b, cl_int n, size_t wg, unsigned groups,
                          double deadline_ms, app_psssp_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, APP_PSSSP_COOP_KERNEL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (psssp_coop, plain)", err, err_len);
    size_t global = (size_t)groups * wg;
    SETARG(k, 0, b->row, "row");
    SETARG(k, 1, b->col, "col");
    SETARG(k, 2, b->w, "w");
    SETARG(k, 3, n, "n");
    SETARG(k, 4, b->dist, "dist");
    SETARG(k, 5, b->dist_old, "dist_old");
    SETARG(k, 6, b->flags, "flags");
    SETARG(k, 7, b->barrier_words, "plain_barrier");
    double t0 = app_now_ms();
    cl_event ev;
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel (psssp_coop, plain persistent)");
    int waited = app_cl_wait_event(c, ev, deadline_ms, "the plain persistent p-sssp kernel", err, err_len);
    clReleaseEvent(ev);
    if (waited)
        goto fail;
    res->ms = app_now_ms() - t0;
    res->rounds = -1;
    clReleaseKernel(k);
    return 0;
fail:
    clReleaseKernel(k);
    return -1;
}

int app_psssp_plain_run(app_cl *c, const app_csr *g, int32_t source, int persistent, size_t wg, unsigned groups,
                        double timeout_s, int32_t *dist_out, app_psssp_plain_result *res, char *err, size_t err_len)
{
    memset(res, 0, sizeof *res);
    if (!(timeout_s > 0 && timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain p-sssp: timeout %g s is not a finite number of seconds above 0", timeout_s);
        return -1;
    }
    if (!g->w || source < 0 || source >= g->n || wg == 0 || (persistent && groups == 0)) {
        snprintf(err, err_len, "plain p-sssp: unweighted graph, or bad source %d, work-group size %zu or group count %u",
                 source, wg, groups);
        return -1;
    }
    size_t n = (size_t)g->n, m = (size_t)g->m;
    for (size_t v = 0; v < n; ++v)
        dist_out[v] = APP_SSSP_INF;
    dist_out[source] = 0;
    int32_t flags[2] = {1, 1};
    uint32_t words[APP_PLAIN_BARRIER_WORDS] = {0}; /* ck_cooperative.h: two lines */
    psssp_bufs b;
    memset(&b, 0, sizeof b);
    cl_program prog = NULL;
    int rc = -1;
    if (app_cl_buffer(c, (n + 1) * 4, g->row, &b.row, "CSR rows", err, err_len) ||
        app_cl_buffer(c, m * 4, g->col, &b.col, "CSR columns", err, err_len) ||
        app_cl_buffer(c, m * 4, g->w, &b.w, "weights", err, err_len) ||
        app_cl_buffer(c, n * 4, dist_out, &b.dist, "distances", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b.dist_old, "previous distances", err, err_len) ||
        app_cl_buffer(c, sizeof flags, flags, &b.flags, "flags", err, err_len) ||
        app_cl_buffer(c, sizeof words, words, &b.barrier_words, "barrier words", err, err_len))
        goto out;
    if (app_cl_build(c, persistent ? APP_PSSSP_COOP_FILE : APP_PSSSP_PLAIN_FILE, NULL, &prog, err, err_len))
        goto out;
    double deadline = app_now_ms() + timeout_s * 1e3;
    if (persistent ? run_persistent(c, prog, &b, g->n, wg, groups, deadline, res, err, err_len)
                   : run_multi(c, prog, &b, g->n, wg, deadline, res, err, err_len))
        goto out;
    cl_int e = clEnqueueReadBuffer(c->queue, b.dist, CL_TRUE, 0, n * 4, dist_out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        app_cl_fail(e, "clEnqueueReadBuffer (p-sssp distances)", err, err_len);
        goto out;
    }
    rc = 0;
out:
    if (prog)
        clReleaseProgram(prog);
    return rc;
}
