/* Unit tests of the portable atomics layer on PoCL, on the path given as
 * argv[1] ("cl20" or "cl12"), with the kernels of argv[2]. Each operation's
 * return value is checked, then the operations under contention across
 * work-groups. */
#include "clock.h"
#include "program.h"
#include "support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *path_name, *kernel_file;
static ck_device *dev;
static cl_program prog;

static int setup(void **state)
{
    dev = support_open_pocl(path_name);
    char *src = support_read_file(kernel_file);
    ck_status s = ck_program_build(dev, NULL, src, kernel_file, NULL, &prog);
    free(src);
    if (s != CK_OK) {
        fprintf(stderr, "%s\n", ck_last_error());
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    clReleaseProgram(prog);
    ck_device_close(dev);
    return 0;
}

/* Launches kernel `name` on groups x wg work-items with the given buffer and
 * uint arguments (a NULL-terminated mix given as cl_mem* / cl_uint*). */
static void launch(const char *name, size_t groups, size_t wg, int nargs, ...)
{
    cl_kernel k;
    assert_int_equal(ck_kernel_create(prog, name, &k), CK_OK);
    va_list ap;
    va_start(ap, nargs);
    for (int i = 0; i < nargs; ++i) {
        int is_mem = va_arg(ap, int);
        if (is_mem) {
            cl_mem m = va_arg(ap, cl_mem);
            assert_int_equal(clSetKernelArg(k, (cl_uint)i, sizeof m, &m), CL_SUCCESS);
        } else {
            cl_uint v = va_arg(ap, cl_uint);
            assert_int_equal(clSetKernelArg(k, (cl_uint)i, sizeof v, &v), CL_SUCCESS);
        }
    }
    va_end(ap);
    size_t global = groups * wg;
    cl_event ev;
    assert_int_equal(clEnqueueNDRangeKernel(dev->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev), CL_SUCCESS);
    clFlush(dev->queue);
    ck_status s = ck_event_wait(ev, 120.0, name);
    if (s != CK_OK)
        fail_msg("%s", ck_last_error());
    clReleaseEvent(ev);
    clReleaseKernel(k);
}
#define MEM(m) 1, (m)
#define U(v) 0, (cl_uint)(v)

static void test_single_operations(void **state)
{
    cl_mem a = support_zeroed(dev, 2), res = support_zeroed(dev, 22);
    launch("single_ops", 1, 1, 2, MEM(a), MEM(res));
    cl_uint r[22];
    support_read(dev, res, r, 22);
    const cl_uint want[22] = {5,  7,     7,  10, 10, 6,     11,    11,    11, 11, 42,
                              42, 0x12a, 77, 78, 1,  0x12a, 0x12b, 0x12b, 3,  3,  3};
    for (int i = 0; i < 22; ++i)
        if (r[i] != want[i])
            fail_msg("single_ops result %d is %u, expected %u", i, r[i], want[i]);
    clReleaseMemObject(a);
    clReleaseMemObject(res);
}

/* A counter every work-item bumps `iters` times through `kernel`, with the
 * acquire-release form and then the relaxed one: no update may be lost. */
static void check_contended_counter(const char *kernel, size_t groups, size_t wg, cl_uint iters)
{
    for (cl_uint relaxed = 0; relaxed <= 1; ++relaxed) {
        cl_mem c = support_zeroed(dev, 1);
        launch(kernel, groups, wg, 3, MEM(c), U(iters), U(relaxed));
        cl_uint total;
        support_read(dev, c, &total, 1);
        if (total != groups * wg * iters)
            fail_msg("%s (%s): counter %u, expected %zu", kernel, relaxed ? "relaxed" : "acq_rel", total,
                     groups * wg * iters);
        clReleaseMemObject(c);
    }
}

static void test_fetch_add_contention(void **state) { check_contended_counter("contended_add", 32, 32, 200); }

static void test_cas_contention(void **state) { check_contended_counter("contended_cas", 16, 16, 200); }

static void test_exchange_contention(void **state)
{
    const size_t groups = 16, wg = 16;
    const cl_uint per = 64, n = (cl_uint)(groups * wg) * per;
    cl_mem slot = support_zeroed(dev, 1), seen = support_zeroed(dev, n + 1);
    /* The slot starts with the sentinel n, which must come out exactly once. */
    cl_uint sentinel = n;
    clEnqueueWriteBuffer(dev->queue, slot, CL_TRUE, 0, sizeof sentinel, &sentinel, 0, NULL, NULL);
    launch("exchange_tokens", groups, wg, 3, MEM(slot), MEM(seen), U(per));
    cl_uint *cnt = malloc(sizeof(cl_uint) * (n + 1)), last;
    support_read(dev, seen, cnt, n + 1);
    support_read(dev, slot, &last, 1);
    assert_true(last < n);
    for (cl_uint v = 0; v <= n; ++v) {
        cl_uint want = v == last ? 0u : 1u;
        if (cnt[v] != want)
            fail_msg("value %u came out of exchange %u times, expected %u", v, cnt[v], want);
    }
    free(cnt);
    clReleaseMemObject(slot);
    clReleaseMemObject(seen);
}

static void test_release_acquire_message_passing(void **state)
{
    cl_mem flag = support_zeroed(dev, 1), ack = support_zeroed(dev, 1), data = support_zeroed(dev, 16),
           errors = support_zeroed(dev, 2);
    launch("message_passing", 2, 4, 5, MEM(flag), MEM(ack), MEM(data), MEM(errors), U(2000));
    cl_uint e[2];
    support_read(dev, errors, e, 2);
    assert_int_equal(e[1], 0); /* no spin gave up */
    assert_int_equal(e[0], 0); /* no stale data after acquire */
    clReleaseMemObject(flag);
    clReleaseMemObject(ack);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
}

static void test_mutex_across_groups(void **state)
{
    const size_t groups = 4;
    const cl_uint iters = 2000;
    cl_mem lock = support_zeroed(dev, 1), counter = support_zeroed(dev, 1);
    launch("mutex_counter", groups, 8, 3, MEM(lock), MEM(counter), U(iters));
    cl_uint total;
    support_read(dev, counter, &total, 1);
    assert_int_equal(total, groups * iters);
    clReleaseMemObject(lock);
    clReleaseMemObject(counter);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s cl20|cl12 atomics_kernels.cl\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_operations),
        cmocka_unit_test(test_fetch_add_contention),
        cmocka_unit_test(test_cas_contention),
        cmocka_unit_test(test_exchange_contention),
        cmocka_unit_test(test_release_acquire_message_passing),
        cmocka_unit_test(test_mutex_across_groups),
    };
    char name[64];
    snprintf(name, sizeof name, "atomics-%s", path_name);
    return cmocka_run_group_tests_name(name, tests, setup, teardown);
}
