/* The portable synchronisation calls of ck_cooperative.h (sync_kernels.cl):
 * every call's value, mutual exclusion with plain loads and stores under a
 * device_mutex, and release/acquire hand-offs between groups. Each runs as
 * plain OpenCL (the header's backwards-compatibility mode, OpenCL C 1.2 and
 * 3.0 where the device has it) and through the framework under chaos seeds
 * on the path of argv[1]; a lock that waits while the host aborts the
 * megakernel gives up, so the context still shuts down.
 * Device: PoCL, unless CK_DEVICE names another (the H100 run does).
 * Usage: test_sync cl20|cl12 sync_kernels.cl INCLUDE_DIR [chaos-seeds] */
#include "ck.h"
#include "support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define NLOCKS 5u
#define REC 8u     /* SYNC_REC */
#define STRIDE 16u /* SYNC_STRIDE */
#define WORDS 32u  /* relay payload */

static const char *path_name, *kernel_file, *include_dir;
static unsigned chaos_seeds = 10;

static const char *device_name(void) { return getenv("CK_DEVICE") ? NULL : "Portable Computing Language"; }

static const uint32_t single_want[13] = {5, (uint32_t)-3, 5, 9, 7, 11, 12, 12, 1, 0, 0, 1, 1};

/* Work-item 0 of each group does the synchronising: iterations per group. */
static unsigned mutex_iters(unsigned groups) { return groups > 64 ? 20 : 400; }
static unsigned relay_rounds(unsigned groups) { return groups > 64 ? 4 * groups : 600; }

/* Checks the mutex records: every word of record k equals the updates of k,
 * and the updates add up to done. */
static void check_records(const uint32_t *rec, uint32_t done, uint32_t err, const char *where)
{
    uint32_t total = 0;
    for (unsigned k = 0; k < NLOCKS; ++k) {
        for (unsigned j = 1; j < REC; ++j)
            if (rec[k * REC + j] != rec[k * REC])
                fail_msg("%s: record %u is torn: word %u is %u, word 0 is %u", where, k, j, rec[k * REC + j],
                         rec[k * REC]);
        total += rec[k * REC];
    }
    if (err || total != done)
        fail_msg("%s: %u updates recorded of %u made, %u torn reads under the mutex", where, total, done, err);
}

/* ------------------------------------------------------------ plain OpenCL */

typedef struct {
    ck_device *dev;
    cl_program prog;
    unsigned groups;
} plain_fixture;

static cl_mem plain_buffer(plain_fixture *f, size_t words, const uint32_t *init)
{
    cl_int e;
    cl_mem b = clCreateBuffer(f->dev->context, CL_MEM_READ_WRITE, words * 4, NULL, &e);
    assert_non_null(b);
    uint32_t zero = 0;
    if (init)
        assert_int_equal(clEnqueueWriteBuffer(f->dev->queue, b, CL_TRUE, 0, words * 4, init, 0, NULL, NULL),
                         CL_SUCCESS);
    else
        assert_int_equal(clEnqueueFillBuffer(f->dev->queue, b, &zero, 4, 0, words * 4, 0, NULL, NULL), CL_SUCCESS);
    return b;
}

static void plain_read(plain_fixture *f, cl_mem b, uint32_t *out, size_t words)
{
    assert_int_equal(clEnqueueReadBuffer(f->dev->queue, b, CL_TRUE, 0, words * 4, out, 0, NULL, NULL), CL_SUCCESS);
}

static void plain_run(plain_fixture *f, const char *name, cl_mem *bufs, unsigned nbufs, const cl_uint *scalars,
                      const int *scalar_at, unsigned nscalars, unsigned groups)
{
    cl_int e;
    cl_kernel k = clCreateKernel(f->prog, name, &e);
    assert_non_null(k);
    unsigned b = 0, s = 0;
    for (unsigned a = 0; a < nbufs + nscalars; ++a) {
        if (s < nscalars && scalar_at[s] == (int)a)
            assert_int_equal(clSetKernelArg(k, a, sizeof(cl_uint), &scalars[s++]), CL_SUCCESS);
        else
            assert_int_equal(clSetKernelArg(k, a, sizeof(cl_mem), &bufs[b++]), CL_SUCCESS);
    }
    size_t wg = 64, global = (size_t)groups * wg;
    assert_int_equal(clEnqueueNDRangeKernel(f->dev->queue, k, 1, NULL, &global, &wg, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->dev->queue), CL_SUCCESS);
    clReleaseKernel(k);
}

static void plain_suite(const char *std)
{
    plain_fixture f = {0};
    ck_device_options o = {.device = device_name()};
    assert_int_equal(ck_path_parse(path_name, &o.path), CK_OK);
    if (ck_device_open(&o, &f.dev) != CK_OK)
        fail_msg("%s", ck_last_error());
    /* Co-resident groups of a plain kernel, less one for safety margin. */
    ck_occupancy_options oo = {.work_group_size = 64};
    ck_occupancy_result occ;
    if (ck_occupancy_discover(f.dev, &oo, &occ) != CK_OK)
        fail_msg("%s", ck_last_error());
    f.groups = occ.occupancy > 2 ? occ.occupancy - 1 : 1;
    char *src = support_read_file(kernel_file);
    cl_int e;
    const char *parts[1] = {src};
    f.prog = clCreateProgramWithSource(f.dev->context, 1, parts, NULL, &e);
    char opts[1024];
    /* Only what a kernel author passes: the standard and the include path. */
    snprintf(opts, sizeof opts, "-cl-std=%s -I %s", std, include_dir);
    if (clBuildProgram(f.prog, 1, &f.dev->device, opts, NULL, NULL) != CL_SUCCESS) {
        static char log[16384];
        clGetProgramBuildInfo(f.prog, f.dev->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("plain build with '%s' failed: %s", opts, log);
    }
    free(src);

    /* The header's own choice of atomics and fences, from the compiler alone. */
    uint32_t config;
    cl_mem bconf = plain_buffer(&f, 1, NULL);
    plain_run(&f, "sync_config", &bconf, 1, NULL, NULL, 0, 1);
    plain_read(&f, bconf, &config, 1);
    clReleaseMemObject(bconf);
    const ck_device_info *info = ck_device_get_info(f.dev);
    printf("# plain %s on %s: ck_atomics.h chose the %s path%s\n", std, info->device_name,
           config & 1 ? "2.0" : "1.2", config & 2 ? " with PTX fences" : "");
    if (strstr(info->platform_name, "NVIDIA") && !(config & 2))
        fail_msg("plain %s on NVIDIA: ck_atomics.h did not choose PTX fences (is __NV_CL_C_VERSION gone?)", std);
    if (!strcmp(std, "CL1.2") && (config & 1))
        fail_msg("plain CL1.2 build chose the 2.0 atomics path");

    uint32_t res[13], w[4];
    cl_mem bw = plain_buffer(&f, 4, NULL), bres = plain_buffer(&f, 13, NULL);
    cl_mem b1[2] = {bw, bres};
    plain_run(&f, "sync_single", b1, 2, NULL, NULL, 0, 1);
    plain_read(&f, bres, res, 13);
    plain_read(&f, bw, w, 4);
    assert_memory_equal(res, single_want, sizeof res);

    unsigned iters = mutex_iters(f.groups);
    cl_mem locks = plain_buffer(&f, NLOCKS * STRIDE, NULL), rec = plain_buffer(&f, NLOCKS * REC, NULL);
    cl_mem err = plain_buffer(&f, 1, NULL), done = plain_buffer(&f, 1, NULL);
    cl_mem b2[4] = {locks, rec, err, done};
    cl_uint s2[2] = {NLOCKS, iters};
    int at2[2] = {2, 3};
    plain_run(&f, "sync_mutex", b2, 4, s2, at2, 2, f.groups);
    uint32_t r[NLOCKS * REC], ne, nd;
    plain_read(&f, rec, r, NLOCKS * REC);
    plain_read(&f, err, &ne, 1);
    plain_read(&f, done, &nd, 1);
    char where[96];
    snprintf(where, sizeof where, "plain %s, %u groups", std, f.groups);
    assert_int_equal(nd, f.groups * iters);
    check_records(r, nd, ne, where);

    unsigned rounds = relay_rounds(f.groups);
    cl_mem turn = plain_buffer(&f, 1, NULL), payload = plain_buffer(&f, WORDS, NULL),
           err2 = plain_buffer(&f, 1, NULL);
    cl_mem b3[3] = {turn, payload, err2};
    cl_uint s3[2] = {WORDS, rounds};
    int at3[2] = {2, 3};
    plain_run(&f, "sync_relay", b3, 3, s3, at3, 2, f.groups);
    uint32_t t, e2, pl[WORDS];
    plain_read(&f, turn, &t, 1);
    plain_read(&f, err2, &e2, 1);
    plain_read(&f, payload, pl, WORDS);
    if (t != rounds || e2)
        fail_msg("%s relay: turn %u of %u, %u stale payloads", where, t, rounds, e2);
    for (unsigned j = 0; j < WORDS; ++j)
        assert_int_equal(pl[j], rounds);
    printf("# %s: mutex %u updates, relay %u rounds: correct\n", where, nd, rounds);

    cl_mem all[] = {bw, bres, locks, rec, err, done, turn, payload, err2};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; ++i)
        clReleaseMemObject(all[i]);
    clReleaseProgram(f.prog);
    ck_device_close(f.dev);
}

static void test_plain_opencl_c_1_2(void **state) { plain_suite("CL1.2"); }

static void test_plain_opencl_c_3_0(void **state)
{
    ck_device_options o = {.device = device_name()};
    ck_device *dev;
    assert_int_equal(ck_path_parse(path_name, &o.path), CK_OK);
    if (ck_device_open(&o, &dev) != CK_OK)
        fail_msg("%s", ck_last_error());
    int has3 = ck_device_get_info(dev)->c_version_major >= 3;
    ck_device_close(dev);
    if (!has3)
        skip(); /* NVIDIA: OpenCL C 1.2 only */
    plain_suite("CL3.0");
}

/* ---------------------------------------------------------- the framework */

static ck_context *open_ctx(uint64_t seed, double timeout_s)
{
    ck_context_options o = {.chaos_seed = seed, .timeout_s = timeout_s};
    if (ck_path_parse(path_name, &o.device.path) != CK_OK)
        fail_msg("bad path %s", path_name);
    o.device.device = device_name();
    ck_context *c;
    const char *coop[] = {"sync_single", "sync_mutex", "sync_relay", "sync_lock_forever"};
    if (ck_context_create(&o, &c) != CK_OK || ck_context_add_file(c, kernel_file, coop, 4) != CK_OK ||
        ck_context_build(c) != CK_OK)
        fail_msg("%s", ck_last_error());
    if (strlen(ck_context_build_warnings(c)))
        fail_msg("the portable calls drew warnings:\n%s", ck_context_build_warnings(c));
    return c;
}

static ck_buffer zeroed(ck_context *c, size_t words)
{
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(c, words * 4, &b), CK_OK);
    uint32_t *z = calloc(words, 4);
    assert_int_equal(ck_buffer_write(c, b, 0, z, words * 4), CK_OK);
    free(z);
    return b;
}

static void launch(ck_context *c, const char *name, unsigned groups, const ck_arg *a, size_t n)
{
    ck_launch *l;
    if (ck_launch_kernel(c, name, groups, a, n, &l) != CK_OK || ck_wait(l, 120) != CK_OK)
        fail_msg("%s: %s", name, ck_last_error());
    ck_launch_release(l);
}

static void test_framework_under_chaos(void **state)
{
    for (uint64_t seed = 0; seed < chaos_seeds; ++seed) {
        ck_context *c = open_ctx(seed, 120);
        unsigned W = ck_context_workers(c);
        char where[96];
        snprintf(where, sizeof where, "framework %s, chaos seed %llu, %u workers", path_name,
                 (unsigned long long)seed, W);

        ck_buffer w = zeroed(c, 4), res = zeroed(c, 13);
        ck_arg a1[2] = {ck_arg_buffer(w), ck_arg_buffer(res)};
        launch(c, "sync_single", 1, a1, 2);
        uint32_t got[13];
        assert_int_equal(ck_buffer_read(c, res, 0, got, sizeof got), CK_OK);
        assert_memory_equal(got, single_want, sizeof got);

        unsigned iters = mutex_iters(W);
        ck_buffer locks = zeroed(c, NLOCKS * STRIDE), rec = zeroed(c, NLOCKS * REC), err = zeroed(c, 1),
                  done = zeroed(c, 1);
        ck_arg a2[6] = {ck_arg_buffer(locks), ck_arg_buffer(rec), ck_arg_uint(NLOCKS),
                        ck_arg_uint(iters),   ck_arg_buffer(err), ck_arg_buffer(done)};
        launch(c, "sync_mutex", W, a2, 6);
        uint32_t r[NLOCKS * REC], ne, nd;
        assert_int_equal(ck_buffer_read(c, rec, 0, r, sizeof r), CK_OK);
        assert_int_equal(ck_buffer_read(c, err, 0, &ne, 4), CK_OK);
        assert_int_equal(ck_buffer_read(c, done, 0, &nd, 4), CK_OK);
        if (nd == 0 || nd % iters)
            fail_msg("%s: %u updates is not a whole number of groups of %u", where, nd, iters);
        check_records(r, nd, ne, where);

        unsigned rounds = relay_rounds(W);
        ck_buffer turn = zeroed(c, 1), payload = zeroed(c, WORDS), err2 = zeroed(c, 1);
        ck_arg a3[5] = {ck_arg_buffer(turn), ck_arg_buffer(payload), ck_arg_uint(WORDS), ck_arg_uint(rounds),
                        ck_arg_buffer(err2)};
        launch(c, "sync_relay", W, a3, 5);
        uint32_t t, e2;
        assert_int_equal(ck_buffer_read(c, turn, 0, &t, 4), CK_OK);
        assert_int_equal(ck_buffer_read(c, err2, 0, &e2, 4), CK_OK);
        if (t != rounds || e2)
            fail_msg("%s relay: turn %u of %u, %u stale payloads", where, t, rounds, e2);
        printf("# %s: mutex %u updates, relay %u rounds: correct\n", where, nd, rounds);
        assert_int_equal(ck_context_destroy(c), CK_OK);
    }
}

/* A device_mutex_lock nobody releases: the wait times out, and shutting the
 * context down aborts the megakernel, which the waiting lock notices. */
static void test_waiting_lock_gives_up_on_abort(void **state)
{
    ck_context *c = open_ctx(0, 3.0);
    uint32_t one = 1;
    ck_buffer lock = zeroed(c, 1);
    assert_int_equal(ck_buffer_write(c, lock, 0, &one, 4), CK_OK);
    ck_arg a[1] = {ck_arg_buffer(lock)};
    ck_launch *l;
    assert_int_equal(ck_launch_kernel(c, "sync_lock_forever", 2, a, 1, &l), CK_OK);
    assert_int_equal(ck_wait(l, 0.5), CK_ERR_TIMEOUT);
    ck_launch_release(l);
    /* Aborted, and the megakernel stopped: without the lock giving up it would
     * say "did not stop even after abort" (after 30 s). */
    assert_int_equal(ck_context_destroy(c), CK_ERR_TIMEOUT);
    if (strstr(ck_last_error(), "did not stop"))
        fail_msg("the waiting lock kept the megakernel running: %s", ck_last_error());
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s cl20|cl12 sync_kernels.cl INCLUDE_DIR [chaos-seeds]\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    include_dir = argv[3];
    if (argc > 4)
        chaos_seeds = (unsigned)atoi(argv[4]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_opencl_c_1_2),
        cmocka_unit_test(test_plain_opencl_c_3_0),
        cmocka_unit_test(test_framework_under_chaos),
        cmocka_unit_test(test_waiting_lock_gives_up_on_abort),
    };
    char name[64];
    snprintf(name, sizeof name, "sync-%s", path_name);
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
