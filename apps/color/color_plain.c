/* apps/color/color_plain.c: the plain OpenCL colouring baselines (no
 * megakernel): the original multi-launch form (color1 + color2 per round)
 * and the occupancy-bound persistent form of color_coop.cl (see color.h). */
#include "color.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cl_mem row, col, value, colors, max_d, stops, barrier_words;
} color_bufs;

/* scratch: n ints, used for the priorities and then the initial colours. */
static int upload(app_cl *c, const app_csr *g, color_bufs *b, int32_t *scratch, char *err, size_t err_len)
{
    size_t n = (size_t)g->n;
    int32_t stops[2] = {0, 0};
    uint32_t words[APP_PLAIN_BARRIER_WORDS] = {0}; /* ck_cooperative.h: two lines */
    for (size_t v = 0; v < n; ++v)
        scratch[v] = (int32_t)v;
    if (app_cl_buffer(c, (n + 1) * 4, g->row, &b->row, "CSR rows", err, err_len) ||
        app_cl_buffer(c, (size_t)g->m * 4, g->col, &b->col, "CSR columns", err, err_len) ||
        app_cl_buffer(c, n * 4, scratch, &b->value, "node values", err, err_len))
        return -1;
    for (size_t v = 0; v < n; ++v)
        scratch[v] = -1;
    if (app_cl_buffer(c, n * 4, scratch, &b->colors, "colours", err, err_len) ||
        app_cl_buffer(c, n * 4, NULL, &b->max_d, "neighbour maxima", err, err_len) ||
        app_cl_buffer(c, sizeof stops, stops, &b->stops, "stop flags", err, err_len) ||
        app_cl_buffer(c, sizeof words, words, &b->barrier_words, "barrier words", err, err_len))
        return -1;
    return 0;
}

#define SETARG(k, i, v, what) APP_CL_CHECK(clSetKernelArg(k, i, sizeof(v), &(v)), "clSetKernelArg (" what ")")

static int run_multi(app_cl *c, cl_program prog, color_bufs *b, int32_t n, size_t wg, double deadline_ms,
                     app_color_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k1 = clCreateKernel(prog, "color1", &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (color1)", err, err_len);
    cl_kernel k2 = clCreateKernel(prog, "color2", &e);
    if (e != CL_SUCCESS) {
        clReleaseKernel(k1);
        return app_cl_fail(e, "clCreateKernel (color2)", err, err_len);
    }
    size_t global = ((size_t)n + wg - 1) / wg * wg;
    if (global == 0)
        global = wg;
    SETARG(k1, 0, b->row, "row");
    SETARG(k1, 1, b->col, "col");
    SETARG(k1, 2, b->value, "node_value");
    SETARG(k1, 3, b->colors, "colors");
    SETARG(k1, 4, b->max_d, "max_d");
    SETARG(k1, 5, b->stops, "stop");
    SETARG(k1, 6, n, "n");
    SETARG(k2, 0, b->value, "node_value");
    SETARG(k2, 1, b->colors, "colors");
    SETARG(k2, 2, b->max_d, "max_d");
    SETARG(k2, 4, n, "n");
    int32_t color = 0, stop = 1, zero = 0;
    double t0 = app_now_ms();
    while (stop) {
        APP_CL_CHECK(clEnqueueWriteBuffer(c->queue, b->stops, CL_FALSE, 0, 4, &zero, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (clear stop flag)");
        APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k1, 1, NULL, &global, &wg, 0, NULL, NULL),
                     "clEnqueueNDRangeKernel (color1)");
        SETARG(k2, 3, color, "color");
        APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k2, 1, NULL, &global, &wg, 0, NULL, NULL),
                     "clEnqueueNDRangeKernel (color2)");
        /* A blocking read, as the original host loop does; every launch ends
         * by itself, so the deadline is checked between rounds. */
        APP_CL_CHECK(clEnqueueReadBuffer(c->queue, b->stops, CL_TRUE, 0, 4, &stop, 0, NULL, NULL),
                     "clEnqueueReadBuffer (stop flag)");
        ++color;
        if (app_now_ms() > deadline_ms) {
            snprintf(err, err_len, "the plain multi-launch colouring did not finish within the timeout (%d rounds "
                     "run): raise the timeout if the graph is just large", color);
            goto fail;
        }
    }
    res->ms = app_now_ms() - t0;
    res->rounds = color;
    res->launches = 2 * color;
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    return 0;
fail:
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    return -1;
}

static int run_persistent(app_cl *c, cl_program prog, color_bufs *b, int32_t n, size_t wg, unsigned groups,
                          double deadline_ms, app_color_plain_result *res, char *err, size_t err_len)
{
    cl_int e;
    cl_kernel k = clCreateKernel(prog, APP_COLOR_COOP_KERNEL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (color_coop, plain)", err, err_len);
    size_t global = (size_t)groups * wg;
    SETARG(k, 0, b->row, "row");
    SETARG(k, 1, b->col, "col");
    SETARG(k, 2, b->value, "node_value");
    SETARG(k, 3, b->colors, "colors");
    SETARG(k, 4, b->max_d, "max_d");
    SETARG(k, 5, b->stops, "stops");
    SETARG(k, 6, n, "n");
    SETARG(k, 7, b->barrier_words, "plain_barrier");
    double t0 = app_now_ms();
    cl_event ev;
    APP_CL_CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel (color_coop, plain persistent)");
    int waited = app_cl_wait_event(c, ev, deadline_ms, "the plain persistent colouring kernel", err, err_len);
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

int app_color_plain_run(app_cl *c, const app_csr *g, int persistent, size_t wg, unsigned groups, double timeout_s,
                        int32_t *colors_out, app_color_plain_result *res, char *err, size_t err_len)
{
    memset(res, 0, sizeof *res);
    if (!(timeout_s > 0 && timeout_s <= 1e9)) {
        snprintf(err, err_len, "plain colouring: timeout %g s is not a finite number of seconds above 0", timeout_s);
        return -1;
    }
    if (wg == 0 || (persistent && groups == 0)) {
        snprintf(err, err_len, "plain colouring: bad work-group size %zu or group count %u", wg, groups);
        return -1;
    }
    color_bufs b;
    memset(&b, 0, sizeof b);
    cl_program prog = NULL;
    int rc = -1;
    if (upload(c, g, &b, colors_out, err, err_len))
        goto out;
    if (app_cl_build(c, persistent ? APP_COLOR_COOP_FILE : APP_COLOR_PLAIN_FILE, NULL, &prog, err, err_len))
        goto out;
    double deadline = app_now_ms() + timeout_s * 1e3;
    if (persistent ? run_persistent(c, prog, &b, g->n, wg, groups, deadline, res, err, err_len)
                   : run_multi(c, prog, &b, g->n, wg, deadline, res, err, err_len))
        goto out;
    if (g->n) {
        cl_int e = clEnqueueReadBuffer(c->queue, b.colors, CL_TRUE, 0, (size_t)g->n * 4, colors_out, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            app_cl_fail(e, "clEnqueueReadBuffer (colours)", err, err_len);
            goto out;
        }
    }
    if (persistent) {
        int32_t used = 0;
        for (int32_t v = 0; v < g->n; ++v)
            used = colors_out[v] + 1 > used ? colors_out[v] + 1 : used;
        res->rounds = used;
    }
    rc = 0;
out:
    if (prog)
        clReleaseProgram(prog);
    return rc;
}
