/* Backwards compatibility (paper section 1): a cooperative kernel written
 * against ck_cooperative.h compiles and runs as a plain OpenCL kernel, where
 * the primitives become no-ops and an occupancy-bound barrier, and gives the
 * same result as through the framework (argv[1] path, argv[2] kernel file,
 * argv[3] the include directory). */
#include "ck.h"
#include "support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

static const char *path_name, *kernel_file, *include_dir;
enum { N = 3000, ROUNDS = 12 };

static void reference_rounds(uint32_t *d, uint32_t rounds)
{
    static uint32_t t[N];
    for (uint32_t r = 0; r < rounds; ++r) {
        for (int i = 0; i < N; ++i)
            d[i] = d[i] * 3u + r;
        memcpy(t, d, sizeof t);
        for (int i = 0; i < N; ++i)
            d[i] = t[i] ^ (t[(i + 1) % N] & 1u);
    }
}

static void init(uint32_t *d)
{
    for (int i = 0; i < N; ++i)
        d[i] = (uint32_t)i * 2654435761u;
}

/* Waits for ev within 60 s (a barrier that lets no group out would
 * otherwise block the test until Meson's timeout). */
static void wait_within(cl_event ev, const char *what)
{
    for (int ms = 0; ms < 60000; ++ms) {
        cl_int st = CL_QUEUED;
        assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), CL_SUCCESS);
        if (st == CL_COMPLETE)
            return;
        if (st < 0)
            fail_msg("%s failed on the device (status %d)", what, (int)st);
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    fail_msg("%s did not finish within 60 s: the plain barrier let no group out", what);
}

/* The plain program of kernel_file, built as a kernel author would. */
static cl_kernel build_rounds(ck_device *dev, cl_program *prog)
{
    char *src = support_read_file(kernel_file);
    const char *parts[1] = {src};
    cl_int err;
    cl_program p = clCreateProgramWithSource(dev->context, 1, parts, NULL, &err);
    free(src);
    char opts[512];
    snprintf(opts, sizeof opts, "-cl-std=%s -I %s", dev->info.opencl_c_std, include_dir);
    if (clBuildProgram(p, 1, &dev->device, opts, NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("plain build failed: %s", log);
    }
    cl_kernel k = clCreateKernel(p, "rounds", &err);
    assert_non_null(k);
    *prog = p;
    return k;
}

/* One launch of `rounds` over `groups` groups of 64 with the barrier words
 * bar, checked against the CPU. */
static void run_rounds(ck_device *dev, cl_kernel k, cl_mem bar, cl_mem tmp, size_t groups, cl_uint rounds)
{
    static uint32_t d[N], want[N];
    init(d);
    init(want);
    reference_rounds(want, rounds);
    cl_int err;
    cl_mem data = clCreateBuffer(dev->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof d, d, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_uint n = N;
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 1, sizeof tmp, &tmp);
    clSetKernelArg(k, 2, sizeof n, &n);
    clSetKernelArg(k, 3, sizeof rounds, &rounds);
    clSetKernelArg(k, 4, sizeof bar, &bar);
    size_t wg = 64, global = groups * wg;
    cl_event ev;
    assert_int_equal(clEnqueueNDRangeKernel(dev->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev), CL_SUCCESS);
    clFlush(dev->queue);
    char what[96];
    snprintf(what, sizeof what, "the plain launch of %zu groups, %u rounds", groups, rounds);
    wait_within(ev, what);
    clReleaseEvent(ev);
    clEnqueueReadBuffer(dev->queue, data, CL_TRUE, 0, sizeof d, d, 0, NULL, NULL);
    assert_memory_equal(d, want, sizeof d);
    clReleaseMemObject(data);
}

static void test_plain_opencl_build_and_run(void **state)
{
    (void)state;
    ck_device *dev = support_open_pocl(path_name);
    cl_program p;
    cl_kernel k = build_rounds(dev, &p);
    cl_mem bar = support_zeroed(dev, 64) /* CK_PLAIN_BARRIER_N_WORDS */, tmp = support_zeroed(dev, N);
    run_rounds(dev, k, bar, tmp, 3, ROUNDS); /* 3 groups: co-resident with 4 PoCL threads */
    clReleaseMemObject(bar);
    clReleaseMemObject(tmp);
    clReleaseKernel(k);
    clReleaseProgram(p);
    ck_device_close(dev);
}

/* The plain barrier keeps no state between barriers but its parity, so one
 * set of zeroed words serves launch after launch of different group counts,
 * also after a launch that ended on an odd number of barriers (3 per round:
 * one round leaves the parity flipped). Each launch must match the CPU. */
static void test_plain_barrier_words_serve_any_later_launch(void **state)
{
    (void)state;
    ck_device *dev = support_open_pocl(path_name);
    cl_program p;
    cl_kernel k = build_rounds(dev, &p);
    cl_mem bar = support_zeroed(dev, 64) /* CK_PLAIN_BARRIER_N_WORDS */, tmp = support_zeroed(dev, N);
    static const struct {
        size_t groups;
        cl_uint rounds;
    } runs[] = {{3, 1}, {2, 1}, {1, 2}, {3, 3}, {2, ROUNDS}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r)
        run_rounds(dev, k, bar, tmp, runs[r].groups, runs[r].rounds);
    clReleaseMemObject(bar);
    clReleaseMemObject(tmp);
    clReleaseKernel(k);
    clReleaseProgram(p);
    ck_device_close(dev);
}

static void test_same_source_through_the_framework(void **state)
{
    for (uint64_t seed = 0; seed < 10; ++seed) {
        ck_context_options o = {.chaos_seed = seed, .timeout_s = 120};
        ck_path_parse(path_name, &o.device.path);
        o.device.device = "Portable Computing Language";
        ck_context *c;
        const char *coop[] = {"rounds"};
        if (ck_context_create(&o, &c) != CK_OK || ck_context_add_file(c, kernel_file, coop, 1) != CK_OK ||
            ck_context_build(c) != CK_OK)
            fail_msg("%s", ck_last_error());
        static uint32_t d[N], want[N];
        init(d);
        init(want);
        reference_rounds(want, ROUNDS);
        ck_buffer data, tmp, bar;
        assert_int_equal(ck_buffer_alloc(c, sizeof d, &data), CK_OK);
        assert_int_equal(ck_buffer_alloc(c, sizeof d, &tmp), CK_OK);
        assert_int_equal(ck_buffer_alloc(c, 8, &bar), CK_OK);
        ck_buffer_write(c, data, 0, d, sizeof d);
        ck_arg a[5] = {ck_arg_buffer(data), ck_arg_buffer(tmp), ck_arg_uint(N), ck_arg_uint(ROUNDS),
                       ck_arg_buffer(bar)};
        ck_launch *l;
        ck_launch_stats st;
        if (ck_launch_kernel(c, "rounds", ck_context_workers(c), a, 5, &l) != CK_OK || ck_wait(l, 60) != CK_OK ||
            ck_launch_get_stats(l, &st) != CK_OK)
            fail_msg("%s", ck_last_error());
        ck_launch_release(l);
        ck_buffer_read(c, data, 0, d, sizeof d);
        int wrong = 0, first = -1;
        for (int i = 0; i < N; ++i)
            if (d[i] != want[i] && wrong++ == 0)
                first = i;
        if (wrong)
            fail_msg("chaos seed %llu: %d of %d values wrong, first at %d (initial groups %u, at most %u, %u kills, "
                     "%u forked)",
                     (unsigned long long)seed, wrong, N, first, st.initial_groups, st.max_active, st.kills,
                     st.forked);
        assert_int_equal(ck_context_destroy(c), CK_OK);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s cl20|cl12 compat_kernels.cl INCLUDE_DIR\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    include_dir = argv[3];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_opencl_build_and_run),
        cmocka_unit_test(test_plain_barrier_words_serve_any_later_launch),
        cmocka_unit_test(test_same_source_through_the_framework),
    };
    char name[64];
    snprintf(name, sizeof name, "plain-compat-%s", path_name);
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
