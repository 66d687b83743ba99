/* tests/tasks/test_task_kernels.c (owner: apps/tasks, the narrow tasks'
 * "kern" part): every benchmark of tb_benches[] run on PoCL with plain OpenCL
 * on the atomics path named by argv[1] (cl20 or cl12): 64 tasks at wg 128,
 * 32 and the benchmark's max_wg, as ONE NDRange of 64 groups (task_base 0),
 * every task's outputs checked against cpu_task with check_task; and
 * check_task must FAIL when one output element of one task is changed;
 * create() refuses bad work-group sizes and task counts. An optional
 * argv[2] names another device (a substring of "platform / device").
 * Needs POCL_MAX_PTHREAD_COUNT (meson sets 8). */
#include "cl_plain.h"
#include "task_bench.h"
#include "timer.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define N_TASKS 64
#define RUN_DEADLINE_MS 300000.0

static ck_path path;
static const char *device_name = "Portable Computing Language";
static app_cl cl;
static int cl_open;

/* One run's results: the instance, the device's outputs and the CPU's. */
typedef struct {
    tb_instance inst;
    void *got[TB_MAX_BUFFERS];
    void *ref[TB_MAX_BUFFERS];
} run_result;

static int open_device(void **state)
{
    (void)state;
    app_cl_request req;
    memset(&req, 0, sizeof req);
    req.device.device = device_name;
    req.device.path = path;
    req.work_group_size = 64;
    char err[512];
    if (app_cl_open(&req, &cl, err, sizeof err)) {
        fprintf(stderr, "app_cl_open: %s\n", err);
        return -1;
    }
    cl_open = 1;
    return 0;
}

static int close_device(void **state)
{
    (void)state;
    if (cl_open)
        app_cl_close(&cl);
    cl_open = 0;
    return 0;
}

/* Builds b's kernel, runs inst's n_tasks as one NDRange and reads the
 * outputs into r->got. -1 with a message on any OpenCL error. */
static int run_fused(const task_bench *b, run_result *r, char *err, size_t err_len)
{
    tb_instance *inst = &r->inst;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_event ev = NULL;
    cl_mem mem[TB_MAX_BUFFERS] = {0};
    int rc = -1;
    if (app_cl_build(&cl, b->cl_file, "", &prog, err, err_len))
        return -1;
    cl_int e;
    k = clCreateKernel(prog, b->kernel, &e);
    APP_CL_CHECK(e, "clCreateKernel");
    for (unsigned i = 0; i < inst->n_buffers; i++)
        if (app_cl_buffer(&cl, inst->buffers[i].bytes, inst->buffers[i].output ? NULL : inst->buffers[i].host,
                          &mem[i], b->name, err, err_len))
            goto fail;
    for (unsigned i = 0; i < inst->n_args; i++) {
        const tb_arg *a = &inst->args[i];
        cl_int v = a->value;
        switch (a->kind) {
        case TB_ARG_BUFFER:
            APP_CL_CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &mem[a->value]), "clSetKernelArg (buffer)");
            break;
        case TB_ARG_INT: APP_CL_CHECK(clSetKernelArg(k, i, sizeof v, &v), "clSetKernelArg (int)"); break;
        case TB_ARG_LOCAL:
            APP_CL_CHECK(clSetKernelArg(k, i, (size_t)a->value, NULL), "clSetKernelArg (local)");
            break;
        case TB_ARG_TASK_BASE:
            v = 0;
            APP_CL_CHECK(clSetKernelArg(k, i, sizeof v, &v), "clSetKernelArg (task base)");
            break;
        }
    }
    size_t local = inst->wg, global = (size_t)inst->n_tasks * inst->wg;
    double t0 = app_now_ms();
    APP_CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, &ev),
                 "clEnqueueNDRangeKernel");
    if (app_cl_wait_event(&cl, ev, app_now_ms() + RUN_DEADLINE_MS, b->name, err, err_len))
        goto fail;
    print_message("%s: %u tasks x wg %u, one NDRange on %s: %.1f ms\n", b->name, inst->n_tasks, inst->wg,
                  ck_path_name(path), app_now_ms() - t0);
    for (unsigned i = 0; i < inst->n_buffers; i++)
        if (inst->buffers[i].output)
            APP_CL_CHECK(clEnqueueReadBuffer(cl.queue, mem[i], CL_TRUE, 0, inst->buffers[i].bytes, r->got[i], 0,
                                             NULL, NULL),
                         "clEnqueueReadBuffer");
    rc = 0;
fail:
    if (ev)
        clReleaseEvent(ev);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    return rc;
}

static void free_result(run_result *r)
{
    for (unsigned i = 0; i < TB_MAX_BUFFERS; i++) {
        free(r->got[i]);
        free(r->ref[i]);
    }
}

/* Creates b at N_TASKS x wg, runs it on the device and on the CPU. */
static void run_bench(const task_bench *b, unsigned wg, run_result *r)
{
    char err[1024];
    memset(r, 0, sizeof *r);
    if (b->create(&r->inst, N_TASKS, wg, 7, err, sizeof err))
        fail_msg("%s create (wg %u): %s", b->name, wg, err);
    assert_int_equal(r->inst.n_tasks, N_TASKS);
    assert_int_equal(r->inst.wg, wg);
    for (unsigned i = 0; i < r->inst.n_buffers; i++)
        if (r->inst.buffers[i].output) {
            r->got[i] = calloc(1, r->inst.buffers[i].bytes);
            r->ref[i] = calloc(1, r->inst.buffers[i].bytes);
            assert_non_null(r->got[i]);
            assert_non_null(r->ref[i]);
        }
    if (run_fused(b, r, err, sizeof err))
        fail_msg("%s (wg %u) on %s: %s", b->name, wg, ck_path_name(path), err);
    double t0 = app_now_ms();
    for (unsigned t = 0; t < N_TASKS; t++)
        b->cpu_task(&r->inst, t, r->ref);
    print_message("%s: CPU reference of %u tasks: %.1f ms\n", b->name, N_TASKS, app_now_ms() - t0);
}

static void check_all(const task_bench *b, run_result *r)
{
    char err[1024];
    for (unsigned t = 0; t < N_TASKS; t++)
        if (b->check_task(&r->inst, t, (const void *const *)r->got, (const void *const *)r->ref, err, sizeof err))
            fail_msg("%s (wg %u) on %s: FAIL: %s", b->name, r->inst.wg, ck_path_name(path), err);
    if (b->exact)
        return;
    /* The float benchmarks: how far inside the tolerance the device is. */
    double worst = 0.0;
    for (unsigned i = 0; i < r->inst.n_buffers; i++)
        if (r->inst.buffers[i].output)
            for (size_t j = 0; j < r->inst.buffers[i].bytes / sizeof(float); j++) {
                double d = fabs((double)((const float *)r->got[i])[j] - ((const float *)r->ref[i])[j]);
                worst = d > worst ? d : worst;
            }
    print_message("%s (wg %u): largest |device - reference| %.3g\n", b->name, r->inst.wg, worst);
}

static void test_bench_fused(void **state)
{
    const task_bench *b = *state;
    unsigned wgs[3] = {128, 32, b->max_wg};
    for (int i = 0; i < 3; i++) {
        if (i == 2 && (wgs[2] == 128 || wgs[2] == 32))
            break;
        run_result r;
        run_bench(b, wgs[i], &r);
        check_all(b, &r);
        b->destroy(&r.inst);
        free_result(&r);
    }
}

/* check_task must FAIL when one output element of task 37 is changed (and
 * still pass tasks 36 and 38): the "device" outputs here are an exact copy
 * of the CPU's, so that no device run is needed. */
static void test_bench_corrupt_fails(void **state)
{
    const task_bench *b = *state;
    char err[1024];
    run_result r;
    memset(&r, 0, sizeof r);
    if (b->create(&r.inst, N_TASKS, 128, 7, err, sizeof err))
        fail_msg("%s create: %s", b->name, err);
    int out = -1;
    for (unsigned i = 0; i < r.inst.n_buffers; i++)
        if (r.inst.buffers[i].output) {
            r.got[i] = calloc(1, r.inst.buffers[i].bytes);
            r.ref[i] = calloc(1, r.inst.buffers[i].bytes);
            assert_non_null(r.got[i]);
            assert_non_null(r.ref[i]);
            if (out < 0)
                out = (int)i;
        }
    assert_true(out >= 0);
    /* Task 37 alone into zeroed arrays: its slice is where bytes changed. */
    b->cpu_task(&r.inst, 37, r.ref);
    size_t bytes = r.inst.buffers[out].bytes, first = bytes, last = 0;
    for (size_t i = 0; i < bytes; i++)
        if (((unsigned char *)r.ref[out])[i] != 0) {
            if (first == bytes)
                first = i;
            last = i;
        }
    assert_true(first < bytes);
    for (unsigned t = 0; t < N_TASKS; t++)
        b->cpu_task(&r.inst, t, r.ref);
    for (unsigned i = 0; i < r.inst.n_buffers; i++)
        if (r.inst.buffers[i].output)
            memcpy(r.got[i], r.ref[i], r.inst.buffers[i].bytes);
    check_all(b, &r);
    size_t at = (first + (last - first) / 2) & ~(size_t)3; /* an element in the middle of the slice */
    unsigned char *g = r.got[out];
    if (b->exact)
        g[at] ^= 0x10;
    else {
        float f;
        memcpy(&f, g + at, sizeof f);
        f += 0.01f + 0.01f * (f < 0 ? -f : f);
        memcpy(g + at, &f, sizeof f);
    }
    if (b->check_task(&r.inst, 37, (const void *const *)r.got, (const void *const *)r.ref, err, sizeof err) == 0)
        fail_msg("%s: check_task passed a changed output element", b->name);
    print_message("%s: changed element caught: %s\n", b->name, err);
    assert_int_equal(b->check_task(&r.inst, 36, (const void *const *)r.got, (const void *const *)r.ref, err,
                                   sizeof err),
                     0);
    assert_int_equal(b->check_task(&r.inst, 38, (const void *const *)r.got, (const void *const *)r.ref, err,
                                   sizeof err),
                     0);
    b->destroy(&r.inst);
    free_result(&r);
}

/* create() refuses a wg outside [min_wg, max_wg] or not a power of two,
 * and zero tasks, with a message. */
static void test_bad_shapes(void **state)
{
    (void)state;
    for (unsigned i = 0; i < tb_n_benches; i++) {
        const task_bench *b = tb_benches[i];
        unsigned bad_wg[3] = {b->min_wg / 2, b->max_wg * 2, 96};
        char err[256];
        for (int j = 0; j < 3; j++) {
            tb_instance inst;
            err[0] = 0;
            assert_int_equal(b->create(&inst, 4, bad_wg[j], 1, err, sizeof err), -1);
            assert_true(strlen(err) > 0);
        }
        tb_instance inst;
        assert_int_equal(b->create(&inst, 0, 128, 1, err, sizeof err), -1);
        assert_non_null(strstr(err, b->name));
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || ck_path_parse(argv[1], &path) != CK_OK || path == CK_PATH_AUTO) {
        fprintf(stderr, "usage: %s cl20|cl12 [DEVICE]\n", argv[0]);
        return 2;
    }
    if (argc > 2)
        device_name = argv[2];
    struct CMUnitTest tests[2 * 8 + 1];
    size_t n = 0;
    static char names[2 * 8][64];
    for (unsigned i = 0; i < tb_n_benches && i < 8; i++) {
        const task_bench *b = tb_benches[i];
        snprintf(names[2 * i], sizeof names[0], "%s_fused_ndrange", b->name);
        snprintf(names[2 * i + 1], sizeof names[0], "%s_changed_output_fails", b->name);
        struct CMUnitTest t1 = {names[2 * i], test_bench_fused, NULL, NULL, (void *)b};
        struct CMUnitTest t2 = {names[2 * i + 1], test_bench_corrupt_fails, NULL, NULL, (void *)b};
        tests[n++] = t1;
        tests[n++] = t2;
    }
    struct CMUnitTest t3 = {"bad_shapes", test_bad_shapes, NULL, NULL, NULL};
    tests[n++] = t3;
    return _cmocka_run_group_tests("task-kernels", tests, n, open_device, close_device);
}
