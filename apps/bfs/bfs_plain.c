/* apps/bfs/bfs_plain.c: the plain OpenCL BFS baselines (no megakernel): the
 * multi-launch form (one bfs_level launch per level) and the occupancy-bound
 * persistent form of bfs_coop.cl (see bfs.h). */
#include "bfs.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cl_mem row, col, levels, f0, f1, sizes, barrier_words;
} bfs_bufs;

static int upload(app_cl *c, const app_csr *g, int32_t source, bfs_bufs *b, int32_t *scratch, char *err,
                  size_t err_len)
{
    size_t n = (size_t)g->n;
    for (size_t v = 0; v < n; ++v)
        scratch[v] = -1;
    scratch[source] = 0;
    int32_t sizes[2] = {1, 0};
    uint32_t words[APP_PLAIN_BARRIER_WORDS] = {0}; /* ck_cooperative.h: two lines */
    if (app_cl_buffer(c, (n + 1) * 4, g->row, &b->row, "CSR rows", err, err_len) ||
        app_cl_buffer(c, (size_t)g->m * 4, g->col, &b->col, "CSR columns", err, err_len) ||
        app_cl_buffer(c, n * 4, scratch, &b->levels, "levels", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b->f0, "frontier 0", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b->f1, "frontier 1", err, err_len) ||
        app_cl_buffer(c, sizeof sizes, sizes, &b->sizes, "frontier sizes", err, err_len) ||
        app_cl_buffer(c, sizeof words, words, &b->barrier_words, "barrier words", err, err_len))
        return -1;
    cl_int e = clEnqueueWriteBuffer(c->queue, b->f0, CL_TRUE, 0, 4, &source, 0, NULL, NULL);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clEnqueueWriteBuffer (BFS source into frontier 0)", err, err_len);
    return 0;
}

#define SETARG(k, i, v, what) APP_CL_CHECK(clSetKernelArg(k, i, sizeof(v), &(v)), "clSetKernelArg (" what ")")

static int run_multi(app_cl *c, cl_program prog, bfs_bufs *b, size_t wg, double deadline_ms,
                     app_bfs_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, "bfs_level", &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (bfs_level)", err, err_len);
    int32_t n_in = 1, level = 0, zero = 0;
    cl_mem in = b->f0, out = b->f1;
    double t0 = app_now_ms();
    while (n_in > 0) {
        size_t global = ((size_t)n_in + wg - 1) / wg * wg;
        APP_CL_CHECK(clEnqueueWriteBuffer(c->queue, b->sizes, CL_FALSE, 0, 4, &zero, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (reset out-frontier size)");
        SETARG(k, 0, b->row, "row");
        SETARG(k, 1, b->col, "col");
        SETARG(k, 2, b->levels, "levels");
        SETARG(k, 3, in, "in");
        SETARG(k, 4, n_in, "n_in");
        SETARG(k, 5, out, "out");
        SETARG(k, 6, b->sizes, "out_size");
        SETARG(k, 7, level, "level");
        APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, NULL),
                     "clEnqueueNDRangeKernel (bfs_level)");
        /* A blocking read, as a user's multi-launch BFS would do: every level is
         * an ordinary kernel that ends by itself, so the deadline is checked
         * between levels (polling an event per level instead made this
         * baseline 1.7x slower on the H100, measured). */
        APP_CL_CHECK(clEnqueueReadBuffer(c->queue, b->sizes, CL_TRUE, 0, 4, &n_in, 0, NULL, NULL),
                     "clEnqueueReadBuffer (out-frontier size)");
        if (app_now_ms() > deadline_ms) {
            snprintf(err, err_len, "the plain multi-launch BFS did not finish within the timeout (%d levels run): "
                     "raise the timeout if the graph is just large", level + 1);
            goto fail;
        }
        cl_mem t = in;
        in = out;
        out = t;
        ++level;
    }
    res->ms = app_now_ms() - t0;
    res->levels_run = level;
    clReleaseKernel(k);
    return 0;
fail:
    clReleaseKernel(k);
    return -1;
}

static int run_persistent(app_cl *c, cl_program prog, bfs_bufs *b, size_t wg, unsigned groups, double deadline_ms,
                          app_bfs_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, "bfs_coop", &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (bfs_coop, plain)", err, err_len);
    size_t global = (size_t)groups * wg;
    SETARG(k, 0, b->row, "row");
    SETARG(k, 1, b->col, "col");
    SETARG(k, 2, b->levels, "levels");
    SETARG(k, 3, b->f0, "front0");
    SETARG(k, 4, b->f1, "front1");
    SETARG(k, 5, b->sizes, "sizes");
    SETARG(k, 6, b->barrier_words, "plain_barrier");
    double t0 = app_now_ms();
    cl_event ev;
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel (bfs_coop, plain persistent)");
    int waited = app_cl_wait_event(c, ev, deadline_ms, "the plain persistent BFS kernel", err, err_len);
    clReleaseEvent(ev);
    if (waited)
        goto fail;
    res->ms = app_now_ms() - t0;
    res->levels_run = -1;
    clReleaseKernel(k);
    return 0;
fail:
    clReleaseKernel(k);
    return -1;
}

int app_bfs_plain_run(app_cl *c, const app_csr *g, int32_t source, app_bfs_plain_mode mode, size_t wg,
                      unsigned groups, double timeout_s, int32_t *levels_out, app_bfs_plain_result *res, char *err,
                      size_t err_len)
{
    memset(res, 0, sizeof *res);
    if (!(timeout_s > 0 && timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain BFS: timeout %g s is not a finite number of seconds above 0", timeout_s);
        return -1;
    }
    if (source < 0 || source >= g->n || wg == 0 || (mode == APP_BFS_PLAIN_PERSISTENT && groups == 0)) {
        snprintf(err, err_len, "plain BFS: bad source %d, work-group size %zu or group count %u", source, wg, groups);
        return -1;
    }
    bfs_bufs b;
    memset(&b, 0, sizeof b);
    cl_program prog = NULL;
    int rc = -1;
    if (upload(c, g, source, &b, levels_out, err, err_len))
        goto out;
    if (app_cl_build(c, mode == APP_BFS_PLAIN_MULTI ? APP_BFS_PLAIN_FILE : APP_BFS_COOP_FILE, NULL, &prog, err,
                     err_len))
        goto out;
    double deadline = app_now_ms() + timeout_s * 1e3;
    if (mode == APP_BFS_PLAIN_MULTI ? run_multi(c, prog, &b, wg, deadline, res, err, err_len)
                                    : run_persistent(c, prog, &b, wg, groups, deadline, res, err, err_len))
        goto out;
    cl_int e = clEnqueueReadBuffer(c->queue, b.levels, CL_TRUE, 0, (size_t)g->n * 4, levels_out, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        app_cl_fail(e, "clEnqueueReadBuffer (levels)", err, err_len);
        goto out;
    }
    if (mode == APP_BFS_PLAIN_PERSISTENT) {
        int32_t depth = 0;
        for (int32_t v = 0; v < g->n; ++v)
            depth = levels_out[v] + 1 > depth ? levels_out[v] + 1 : depth;
        res->levels_run = depth + 1;
    }
    rc = 0;
out:
    if (prog)
        clReleaseProgram(prog);
    return rc;
}
