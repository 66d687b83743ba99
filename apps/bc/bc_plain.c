/* apps/bc/bc_plain.c: the plain OpenCL bc baselines (no megakernel): the
 * multi-launch form of bc_plain.cl (per source: init, one launch per level
 * forward and backward, accumulate) and the occupancy-bound persistent form
 * of bc_coop.cl (see bc.h). */
#include "bc.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cl_mem row, col, level, sigma, delta, bc, flags, barrier_words;
} bc_bufs;

#define SETARG(k, i, v, what) APP_CL_CHECK(clSetKernelArg(k, i, sizeof(v), &(v)), "clSetKernelArg (" what ")")
#define LAUNCH(k, what)                                                                                            \
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, NULL),                       \
                 "clEnqueueNDRangeKernel (" what ")")

static int run_multi(app_cl *c, cl_program prog, bc_bufs *b, cl_int n, cl_int sources, size_t wg,
                     double deadline_ms, app_bc_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel ks[4] = {NULL, NULL, NULL, NULL};
    const char *names[4] = {"bc_init", "bc_forward_step", "bc_backward_step", "bc_accumulate"};
    for (int i = 0; i < 4; ++i) {
        ks[i] = clCreateKernel(prog, names[i], &e);
        if (e != CL_SUCCESS) {
            char what[64];
            snprintf(what, sizeof what, "clCreateKernel (%s)", names[i]);
            app_cl_fail(e, what, err, err_len);
            goto fail;
        }
    }
    cl_kernel ki = ks[0], kf = ks[1], kb = ks[2], ka = ks[3];
    SETARG(ki, 0, b->level, "bc_init level");
    SETARG(ki, 1, b->sigma, "bc_init sigma");
    SETARG(ki, 2, b->delta, "bc_init delta");
    SETARG(ki, 3, n, "bc_init n");
    SETARG(kf, 0, b->row, "bc_forward_step row");
    SETARG(kf, 1, b->col, "bc_forward_step col");
    SETARG(kf, 2, n, "bc_forward_step n");
    SETARG(kf, 3, b->level, "bc_forward_step level");
    SETARG(kf, 4, b->sigma, "bc_forward_step sigma");
    SETARG(kf, 6, b->flags, "bc_forward_step more");
    SETARG(kb, 0, b->row, "bc_backward_step row");
    SETARG(kb, 1, b->col, "bc_backward_step col");
    SETARG(kb, 2, n, "bc_backward_step n");
    SETARG(kb, 3, b->level, "bc_backward_step level");
    SETARG(kb, 4, b->sigma, "bc_backward_step sigma");
    SETARG(kb, 5, b->delta, "bc_backward_step delta");
    SETARG(ka, 0, b->level, "bc_accumulate level");
    SETARG(ka, 1, b->delta, "bc_accumulate delta");
    SETARG(ka, 2, b->bc, "bc_accumulate bc");
    SETARG(ka, 3, n, "bc_accumulate n");
    size_t global = ((size_t)n + wg - 1) / wg * wg;
    int64_t launches = 0;
    double t0 = app_now_ms();
    for (cl_int s = 0; s < sources; ++s) {
        SETARG(ki, 4, s, "bc_init s");
        LAUNCH(ki, "bc_init");
        ++launches;
        cl_int d = 0, more = 1, zero = 0;
        for (;; ++d) {
            APP_CL_CHECK(clEnqueueWriteBuffer(c->queue, b->flags, CL_FALSE, 0, 4, &zero, 0, NULL, NULL),
                         "clEnqueueWriteBuffer (bc: clear the level flag)");
            SETARG(kf, 5, d, "bc_forward_step d");
            LAUNCH(kf, "bc_forward_step");
            ++launches;
            APP_CL_CHECK(clEnqueueReadBuffer(c->queue, b->flags, CL_TRUE, 0, 4, &more, 0, NULL, NULL),
                         "clEnqueueReadBuffer (bc level flag)");
            if (app_now_ms() > deadline_ms) {
                snprintf(err, err_len, "the plain multi-launch bc did not finish within the timeout (source %d of %d)",
                         s, sources);
                goto fail;
            }
            if (!more)
                break;
        }
        for (cl_int dd = d - 1; dd >= 1; --dd) {
            SETARG(kb, 6, dd, "bc_backward_step d");
            LAUNCH(kb, "bc_backward_step");
            ++launches;
        }
        LAUNCH(ka, "bc_accumulate");
        ++launches;
    }
    if (app_cl_finish(c, deadline_ms, "the plain multi-launch bc", err, err_len))
        goto fail;
    res->ms = app_now_ms() - t0;
    res->launches = launches;
    for (int i = 0; i < 4; ++i)
        clReleaseKernel(ks[i]);
    return 0;
fail:
    for (int i = 0; i < 4; ++i)
        if (ks[i])
            clReleaseKernel(ks[i]);
    return -1;
}

static int run_persistent(app_cl *c, cl_program prog, bc_bufs *b, cl_int n, cl_int sources, size_t wg,
                          unsigned groups, double deadline_ms, app_bc_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, APP_BC_COOP_KERNEL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (bc_coop, plain)", err, err_len);
    size_t global = (size_t)groups * wg;
    SETARG(k, 0, b->row, "row");
    SETARG(k, 1, b->col, "col");
    SETARG(k, 2, n, "n");
    SETARG(k, 3, sources, "n_sources");
    SETARG(k, 4, b->level, "level");
    SETARG(k, 5, b->sigma, "sigma");
    SETARG(k, 6, b->delta, "delta");
    SETARG(k, 7, b->bc, "bc");
    SETARG(k, 8, b->flags, "flags");
    SETARG(k, 9, b->barrier_words, "plain_barrier");
    double t0 = app_now_ms();
    cl_event ev;
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel (bc_coop, plain persistent)");
    int waited = app_cl_wait_event(c, ev, deadline_ms, "the plain persistent bc kernel", err, err_len);
    clReleaseEvent(ev);
    if (waited)
        goto fail;
    res->ms = app_now_ms() - t0;
    res->launches = 1;
    clReleaseKernel(k);
    return 0;
fail:
    clReleaseKernel(k);
    return -1;
}

int app_bc_plain_run(app_cl *c, const app_csr *g, int32_t sources, int persistent, size_t wg, unsigned groups,
                     double timeout_s, float *bc_out, app_bc_plain_result *res, char *err, size_t err_len)
{
    memset(res, 0, sizeof *res);
    if (!(timeout_s > 0 && timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain bc: timeout %g s is not a finite number of seconds above 0", timeout_s);
        return -1;
    }
    if (sources < 1 || sources > g->n || wg == 0 || (persistent && groups == 0)) {
        snprintf(err, err_len, "plain bc: bad source count %d (%d nodes), work-group size %zu or group count %u",
                 sources, g->n, wg, groups);
        return -1;
    }
    size_t n = (size_t)g->n, m = (size_t)g->m;
    memset(bc_out, 0, n * sizeof *bc_out);
    int32_t flags[3] = {0, 0, 0};
    uint32_t words[APP_PLAIN_BARRIER_WORDS] = {0}; /* ck_cooperative.h: two lines */
    bc_bufs b;
    memset(&b, 0, sizeof b);
    cl_program prog = NULL;
    int rc = -1;
    if (app_cl_buffer(c, (n + 1) * 4, g->row, &b.row, "CSR rows", err, err_len) ||
        app_cl_buffer(c, m * 4, g->col, &b.col, "CSR columns", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b.level, "levels", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b.sigma, "path counts", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b.delta, "dependencies", err, err_len) ||
        app_cl_buffer(c, n * 4, bc_out, &b.bc, "bc", err, err_len) ||
        app_cl_buffer(c, sizeof flags, flags, &b.flags, "flags", err, err_len) ||
        app_cl_buffer(c, sizeof words, words, &b.barrier_words, "barrier words", err, err_len))
        goto out;
    if (app_cl_build(c, persistent ? APP_BC_COOP_FILE : APP_BC_PLAIN_FILE, NULL, &prog, err, err_len))
        goto out;
    double deadline = app_now_ms() + timeout_s * 1e3;
    if (persistent ? run_persistent(c, prog, &b, g->n, sources, wg, groups, deadline, res, err, err_len)
                   : run_multi(c, prog, &b, g->n, sources, wg, deadline, res, err, err_len))
        goto out;
    cl_int e = clEnqueueReadBuffer(c->queue, b.bc, CL_TRUE, 0, n * 4, bc_out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        app_cl_fail(e, "clEnqueueReadBuffer (bc values)", err, err_len);
        goto out;
    }
    rc = 0;
out:
    if (prog)
        clReleaseProgram(prog);
    return rc;
}
