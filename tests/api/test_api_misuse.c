/* API misuse on PoCL (path argv[1]): every bad input the public API can be
 * given by mistake must give the documented status and a one-line message,
 * never a hang, a wrong success or a use of freed memory. Covers timeouts
 * (NaN, infinite, negative, above the limit), sizes near SIZE_MAX, offset
 * overflow, cooperative-list mistakes, stale handles (double release, wait
 * after release, double destroy, double close), register caps, build retries after a
 * failure and the build deadline. Runs in the 'sanitize' suite under
 * ASan+UBSan too, where a use-after-free or leak in these paths fails it. */
#include "ck.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *path_name;
static ck_context *built; /* shared by the tests that need a running megakernel */

static const char kernels[] = "kernel void fill(global uint *x, uint v) { x[get_global_id(0)] = v; }\n"
                              "kernel void with_local(global uint *out, local uint *tmp)\n"
                              "{\n"
                              "    tmp[get_local_id(0)] = 1u;\n"
                              "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                              "    if (get_local_id(0) == 0) out[get_group_id(0)] = tmp[0];\n"
                              "}\n";

/* Stitches (no ck_ identifiers, nothing the stitcher rejects) but does not
 * compile: the device compiler does not know the identifier. */
static const char no_compile[] = "kernel void broken(global uint *x) { x[0] = no_such_variable_here; }\n";

/* The call gave `want`, and ck_last_error() is a non-empty single line
 * containing `word` (so it is this call's message, not an older one). */
#define EXPECT(call, want, word) expect_status((call), (want), (word), #call, __LINE__)
static void expect_status(ck_status got, ck_status want, const char *word, const char *text, int line)
{
    const char *m = ck_last_error();
    if (got != want)
        fail_msg("line %d: %s gave %s, expected %s (message: %s)", line, text, ck_status_name(got),
                 ck_status_name(want), m);
    if (want == CK_OK)
        return;
    if (!*m || strchr(m, '\n') || !strstr(m, word))
        fail_msg("line %d: %s: message '%s' is not one line containing '%s'", line, text, m, word);
}

/* CK_ERR_BUILD carries the device compiler's log after its first line: that
 * line must be a sentence of its own, and `word` must be in the log. */
#define EXPECT_BUILD_LOG(call, word) expect_build_log((call), (word), #call, __LINE__)
static void expect_build_log(ck_status got, const char *word, const char *text, int line)
{
    const char *m = ck_last_error();
    const char *nl = strchr(m, '\n');
    if (got != CK_ERR_BUILD)
        fail_msg("line %d: %s gave %s, expected CK_ERR_BUILD (message: %s)", line, text, ck_status_name(got), m);
    if (!nl || nl == m || !strstr(nl, word))
        fail_msg("line %d: %s: message '%s' is not a first line and a log containing '%s'", line, text, m, word);
}

static ck_context_options options(void)
{
    ck_context_options o = {.timeout_s = 120, .arena_bytes = 1u << 20};
    ck_path_parse(path_name, &o.device.path);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    return o;
}

static ck_context *unbuilt(void)
{
    ck_context_options o = options();
    ck_context *c = NULL;
    if (ck_context_create(&o, &c) != CK_OK)
        fail_msg("%s", ck_last_error());
    return c;
}

static int setup(void **state)
{
    built = unbuilt();
    if (ck_context_add_source(built, "misuse.cl", kernels, NULL, 0) != CK_OK || ck_context_build(built) != CK_OK) {
        fprintf(stderr, "%s\n", ck_last_error());
        return -1;
    }
    return 0;
}

static int teardown(void **state) { return ck_context_destroy(built) == CK_OK ? 0 : -1; }

static ck_launch *launch_fill(ck_buffer b)
{
    ck_arg a[] = {ck_arg_buffer(b), ck_arg_uint(7)};
    ck_launch *l = NULL;
    if (ck_launch_kernel(built, "fill", 1, a, 2, &l) != CK_OK)
        fail_msg("%s", ck_last_error());
    return l;
}

static void test_context_timeouts_refused(void **state)
{
    const double bad[] = {NAN, INFINITY, -INFINITY, -1.0, -1e-9, CK_MAX_TIMEOUT_S * 1.0001, 1e300};
    const char *word[] = {"NaN", "infinite", "infinite", "negative", "negative", "limit", "limit"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ck_context_options o = options();
        o.timeout_s = bad[i];
        ck_context *c = (ck_context *)&o; /* must be set to NULL */
        EXPECT(ck_context_create(&o, &c), CK_ERR_INVALID_ARGUMENT, word[i]);
        assert_null(c);
    }
}

static void test_wait_timeouts_refused(void **state)
{
    ck_buffer b;
    EXPECT(ck_buffer_alloc(built, 256, &b), CK_OK, "");
    ck_launch *l = launch_fill(b);
    EXPECT(ck_wait(l, NAN), CK_ERR_INVALID_ARGUMENT, "NaN");
    EXPECT(ck_wait(l, INFINITY), CK_ERR_INVALID_ARGUMENT, "infinite");
    EXPECT(ck_wait(l, -5), CK_ERR_INVALID_ARGUMENT, "negative");
    EXPECT(ck_wait(l, 1e12), CK_ERR_INVALID_ARGUMENT, "limit");
    /* The longest allowed timeout: its deadline must convert without overflow
     * (the launch finishes long before). */
    EXPECT(ck_wait(l, CK_MAX_TIMEOUT_S), CK_OK, "");
    EXPECT(ck_launch_release(l), CK_OK, "");
    EXPECT(ck_buffer_free(built, b), CK_OK, "");
}

static void test_occupancy_timeouts_refused(void **state)
{
    ck_device_options d = options().device;
    ck_device *dev;
    EXPECT(ck_device_open(&d, &dev), CK_OK, "");
    ck_occupancy_options o = {.work_group_size = 64, .timeout_s = NAN};
    ck_occupancy_result r;
    EXPECT(ck_occupancy_discover(dev, &o, &r), CK_ERR_INVALID_ARGUMENT, "NaN");
    o.timeout_s = INFINITY;
    EXPECT(ck_occupancy_discover(dev, &o, &r), CK_ERR_INVALID_ARGUMENT, "infinite");
    o.timeout_s = -2;
    EXPECT(ck_occupancy_discover(dev, &o, &r), CK_ERR_INVALID_ARGUMENT, "negative");
    ck_latency_result lr;
    EXPECT(ck_channel_latency(dev, CK_MAX_ROUND_TRIPS + 1, &lr), CK_ERR_INVALID_ARGUMENT, "round trips");
    EXPECT(ck_channel_latency(dev, 0xffffffffu, &lr), CK_ERR_INVALID_ARGUMENT, "round trips");
    EXPECT(ck_device_close(dev), CK_OK, "");
    /* Closed twice; then used after close. */
    EXPECT(ck_device_close(dev), CK_ERR_INVALID_ARGUMENT, "already closed");
    assert_null(ck_device_get_info(dev));
    o.timeout_s = 1;
    EXPECT(ck_occupancy_discover(dev, &o, &r), CK_ERR_INVALID_ARGUMENT, "already closed");
}

static void test_huge_buffers_refused(void **state)
{
    ck_buffer b = {0, 0};
    const size_t sizes[] = {SIZE_MAX,       SIZE_MAX - 1,        SIZE_MAX - 15,         SIZE_MAX - 255,
                            SIZE_MAX - 256, (SIZE_MAX >> 1) + 1, (size_t)(1u << 20) + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        EXPECT(ck_buffer_alloc(built, sizes[i], &b), CK_ERR_NO_MEMORY, "larger than the whole arena");
    /* The arena is untouched: two real buffers do not alias. */
    ck_buffer x, y;
    EXPECT(ck_buffer_alloc(built, 1000, &x), CK_OK, "");
    EXPECT(ck_buffer_alloc(built, 1000, &y), CK_OK, "");
    assert_true(x.offset + x.size <= y.offset || y.offset + y.size <= x.offset);
    EXPECT(ck_buffer_free(built, x), CK_OK, "");
    EXPECT(ck_buffer_free(built, y), CK_OK, "");
    /* A context whose arena could not be represented. */
    ck_context_options o = options();
    o.arena_bytes = SIZE_MAX;
    ck_context *c = NULL;
    EXPECT(ck_context_create(&o, &c), CK_ERR_INVALID_ARGUMENT, "arena_bytes");
    assert_null(c);
}

static void test_offset_overflow_refused(void **state)
{
    ck_buffer b;
    EXPECT(ck_buffer_alloc(built, 4096, &b), CK_OK, "");
    char data[64] = {0};
    EXPECT(ck_buffer_write(built, b, SIZE_MAX, data, 2), CK_ERR_INVALID_ARGUMENT, "outside");
    EXPECT(ck_buffer_write(built, b, 16, data, SIZE_MAX - 8), CK_ERR_INVALID_ARGUMENT, "outside");
    EXPECT(ck_buffer_read(built, b, SIZE_MAX - 1, data, 4), CK_ERR_INVALID_ARGUMENT, "outside");
    EXPECT(ck_buffer_read(built, b, 4090, data, 8), CK_ERR_INVALID_ARGUMENT, "outside");
    /* Forged buffers whose offset + size wraps around. */
    ck_buffer f1 = {UINT64_MAX - 10, 64}, f2 = {b.offset, SIZE_MAX}, f3 = {b.offset + 256, SIZE_MAX - 100};
    EXPECT(ck_buffer_write(built, f1, 0, data, 8), CK_ERR_INVALID_ARGUMENT, "not a live buffer");
    EXPECT(ck_buffer_write(built, f2, 8192, data, 8), CK_ERR_INVALID_ARGUMENT, "not a live buffer");
    EXPECT(ck_buffer_read(built, f3, 0, data, 8), CK_ERR_INVALID_ARGUMENT, "not a live buffer");
    EXPECT(ck_buffer_free(built, f2), CK_ERR_INVALID_ARGUMENT, "not a live buffer");
    /* The real range still works. */
    EXPECT(ck_buffer_write(built, b, 4032, data, 64), CK_OK, "");
    EXPECT(ck_buffer_free(built, b), CK_OK, "");
}

static void test_argument_sizes_refused(void **state)
{
    ck_buffer b;
    EXPECT(ck_buffer_alloc(built, 4096, &b), CK_OK, "");
    ck_launch *l = NULL;
    ck_arg a[] = {ck_arg_buffer(b), ck_arg_local(SIZE_MAX)};
    EXPECT(ck_launch_kernel(built, "with_local", 1, a, 2, &l), CK_ERR_INVALID_ARGUMENT, "local memory");
    a[1] = ck_arg_local(SIZE_MAX - 7);
    EXPECT(ck_launch_kernel(built, "with_local", 1, a, 2, &l), CK_ERR_INVALID_ARGUMENT, "local memory");
    uint32_t v = 1;
    ck_arg s[] = {ck_arg_buffer(b), ck_arg_scalar(&v, SIZE_MAX)};
    EXPECT(ck_launch_kernel(built, "fill", 1, s, 2, &l), CK_ERR_INVALID_ARGUMENT, "bytes");
    ck_arg far[] = {ck_arg_buffer((ck_buffer){UINT64_MAX - 3, 16}), ck_arg_uint(1)};
    EXPECT(ck_launch_kernel(built, "fill", 1, far, 2, &l), CK_ERR_INVALID_ARGUMENT, "not a buffer");
    assert_null(l);
    EXPECT(ck_buffer_free(built, b), CK_OK, "");
}

static void test_cooperative_list_mistakes(void **state)
{
    ck_context *c = unbuilt();
    const char *with_null[] = {"fill", NULL};
    EXPECT(ck_context_add_source(c, "a.cl", kernels, with_null, 2), CK_ERR_INVALID_ARGUMENT, "name 1 of 2 is NULL");
    EXPECT(ck_context_add_source(c, "a.cl", kernels, NULL, 3), CK_ERR_INVALID_ARGUMENT, "list is NULL");
    const char *empty[] = {""};
    EXPECT(ck_context_add_source(c, "a.cl", kernels, empty, 1), CK_ERR_INVALID_ARGUMENT, "name 0 of 1 is empty");
    EXPECT(ck_context_add_source(c, "", kernels, NULL, 0), CK_ERR_INVALID_ARGUMENT, "file_name is empty");
    EXPECT(ck_context_add_source(c, "a.cl", NULL, NULL, 0), CK_ERR_INVALID_ARGUMENT, "source must not be NULL");
    EXPECT(ck_context_add_file(c, NULL, NULL, 0), CK_ERR_INVALID_ARGUMENT, "path");
    EXPECT(ck_context_add_file(c, "", NULL, 0), CK_ERR_INVALID_ARGUMENT, "path");
    /* A NULL file name is allowed (messages say "<source>"). */
    EXPECT(ck_context_add_source(c, NULL, kernels, NULL, 0), CK_OK, "");
    EXPECT(ck_context_destroy(c), CK_OK, "");
}

static void test_launch_stale_handles(void **state)
{
    ck_buffer b;
    EXPECT(ck_buffer_alloc(built, 256, &b), CK_OK, "");
    ck_launch *l = launch_fill(b);
    EXPECT(ck_wait(l, 60), CK_OK, "");
    ck_launch_stats st;
    EXPECT(ck_launch_get_stats(l, &st), CK_OK, "");
    EXPECT(ck_launch_release(l), CK_OK, "");
    /* Every use after release is refused without reading the freed handle. */
    EXPECT(ck_launch_release(l), CK_ERR_INVALID_ARGUMENT, "already released");
    EXPECT(ck_wait(l, 1), CK_ERR_INVALID_ARGUMENT, "already released");
    EXPECT(ck_launch_get_stats(l, &st), CK_ERR_INVALID_ARGUMENT, "already released");
    assert_int_equal(ck_launch_done(l), 1);
    /* Released before it finished: the runtime frees it when it ends. */
    ck_launch *early = launch_fill(b);
    EXPECT(ck_launch_release(early), CK_OK, "");
    EXPECT(ck_wait(early, 1), CK_ERR_INVALID_ARGUMENT, "already released");
    /* Something that never was a launch. */
    int junk = 0;
    EXPECT(ck_wait((ck_launch *)&junk, 1), CK_ERR_INVALID_ARGUMENT, "not a live launch");
    EXPECT(ck_launch_release((ck_launch *)&junk), CK_ERR_INVALID_ARGUMENT, "not a live launch");
    EXPECT(ck_wait(NULL, 1), CK_ERR_INVALID_ARGUMENT, "NULL");
    EXPECT(ck_launch_release(NULL), CK_OK, "");
    /* A launch used as a context, and the reverse. */
    ck_launch *other = launch_fill(b);
    EXPECT(ck_buffer_alloc((ck_context *)other, 16, &b), CK_ERR_INVALID_ARGUMENT, "not a live context");
    EXPECT(ck_wait((ck_launch *)built, 1), CK_ERR_INVALID_ARGUMENT, "not a live launch");
    EXPECT(ck_wait(other, 60), CK_OK, "");
    EXPECT(ck_launch_release(other), CK_OK, "");
    EXPECT(ck_buffer_free(built, b), CK_OK, "");
}

static void test_context_destroyed_twice(void **state)
{
    ck_context *c = unbuilt();
    EXPECT(ck_context_destroy(c), CK_OK, "");
    EXPECT(ck_context_destroy(c), CK_ERR_INVALID_ARGUMENT, "already destroyed");
    EXPECT(ck_context_add_source(c, "a.cl", kernels, NULL, 0), CK_ERR_INVALID_ARGUMENT, "already destroyed");
    EXPECT(ck_context_build(c), CK_ERR_INVALID_ARGUMENT, "already destroyed");
    ck_buffer b;
    EXPECT(ck_buffer_alloc(c, 16, &b), CK_ERR_INVALID_ARGUMENT, "already destroyed");
    ck_launch *l;
    EXPECT(ck_launch_kernel(c, "fill", 1, NULL, 0, &l), CK_ERR_INVALID_ARGUMENT, "already destroyed");
    assert_int_equal(ck_context_workers(c), 0);
    assert_null(ck_context_device_info(c));
    assert_string_equal(ck_context_build_warnings(c), "");
    EXPECT(ck_context_destroy(NULL), CK_OK, "");
}

/* The active-group trace: refused when off, with NULL n_out, after destroy. */
static void test_trace_misuse(void **state)
{
    (void)state;
    ck_trace_sample buf[4];
    size_t n = 7;
    EXPECT(ck_context_take_trace(built, buf, 4, &n, NULL), CK_ERR_INVALID_ARGUMENT, "tracing is off");
    ck_context_options o = options();
    o.trace_active_groups = 1;
    ck_context *c = NULL;
    EXPECT(ck_context_create(&o, &c), CK_OK, "");
    EXPECT(ck_context_take_trace(c, buf, 4, NULL, NULL), CK_ERR_INVALID_ARGUMENT, "n_out is NULL");
    EXPECT(ck_context_take_trace(c, NULL, 4, &n, NULL), CK_ERR_INVALID_ARGUMENT, "out is NULL");
    size_t dropped = 9;
    EXPECT(ck_context_take_trace(c, NULL, 0, &n, &dropped), CK_OK, "");
    assert_int_equal(n, 0);
    assert_int_equal(dropped, 0);
    EXPECT(ck_context_destroy(c), CK_OK, "");
    EXPECT(ck_context_take_trace(c, buf, 4, &n, NULL), CK_ERR_INVALID_ARGUMENT, "already destroyed");
}

/* ck_context_create refuses options o with a message naming `what`, and
 * clears its out pointer. */
static void expect_refused(ck_context_options o, const char *what)
{
    ck_context *c = (ck_context *)&o;
    EXPECT(ck_context_create(&o, &c), CK_ERR_INVALID_ARGUMENT, what);
    assert_null(c);
}

/* A launch path that is no CK_LAUNCH_PATH_ value is refused, naming it. */
static void test_launch_path_misuse(void **state)
{
    (void)state;
    const int bad[] = {-1, 2, 99};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ck_context_options o = options();
        o.launch_path = bad[i];
        expect_refused(o, "launch_path");
    }
}

/* The register cap: bad values refused (option and CK_REGISTER_CAP), the
 * resources refused before a build and with a NULL out. */
static void test_register_cap_misuse(void **state)
{
    (void)state;
    const unsigned bad[] = {1u, 15u, 256u, 100000u};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ck_context_options o = options();
        o.register_cap = bad[i];
        expect_refused(o, "register_cap");
    }
    const int bad_cache[] = {-1, 2, 7};
    for (size_t i = 0; i < sizeof bad_cache / sizeof bad_cache[0]; ++i) {
        ck_context_options o = options();
        o.register_cap_cache = bad_cache[i];
        expect_refused(o, "register_cap_cache");
    }
    const char *bad_env[] = {"lots", "8", "-32", "32x", "1000"};
    for (size_t i = 0; i < sizeof bad_env / sizeof bad_env[0]; ++i) {
        setenv("CK_REGISTER_CAP", bad_env[i], 1);
        expect_refused(options(), "CK_REGISTER_CAP");
    }
    unsetenv("CK_REGISTER_CAP");
    ck_megakernel_resources r;
    EXPECT(ck_context_megakernel_resources(built, NULL), CK_ERR_INVALID_ARGUMENT, "out must not be NULL");
    ck_context *c = unbuilt();
    EXPECT(ck_context_megakernel_resources(c, &r), CK_ERR_INVALID_ARGUMENT, "not built");
    EXPECT(ck_context_destroy(c), CK_OK, "");
    EXPECT(ck_context_megakernel_resources(c, &r), CK_ERR_INVALID_ARGUMENT, "already destroyed");
    /* The shared context asked for nothing, which is auto: where the
     * compiler takes no cap (PoCL) auto has nothing to decide, so no note
     * and no cap; elsewhere the note says what auto decided. */
    EXPECT(ck_context_megakernel_resources(built, &r), CK_OK, "");
    if (strncmp(r.note, "auto", 4) != 0) {
        assert_int_equal(r.register_cap, 0);
        assert_string_equal(r.note, "");
    }
}

/* On PoCL, whose compiler takes no cap, a cap asked for builds without one
 * and says so. Builds its own megakernels, so it runs after the shared one
 * has ended (two running megakernels share PoCL's threads, and the second
 * would wait for co-resident groups). */
/* CK_REGISTER_CAP as the device allows: a compiler without a register cap
 * (PoCL) builds without one, says so for a number and says nothing for
 * auto (it had nothing to decide); NVIDIA's builds under the cap asked for
 * (40) or, for auto, says what it decided (itself, or from the cap cache)
 * and reports the registers (auto rebuilds past the driver's cache for the
 * report). */
static void test_register_cap_as_the_device_allows(void **state)
{
    (void)state;
    ck_megakernel_resources r;
    const char *asks[] = {"auto", "40"};
    for (size_t i = 0; i < 2; ++i) {
        setenv("CK_REGISTER_CAP", asks[i], 1);
        ck_context *d = unbuilt();
        unsetenv("CK_REGISTER_CAP");
        EXPECT(ck_context_add_source(d, "misuse.cl", kernels, NULL, 0), CK_OK, "");
        EXPECT(ck_context_build(d), CK_OK, "");
        EXPECT(ck_context_megakernel_resources(d, &r), CK_OK, "");
        if (i == 0 && !r.note[0]) {
            assert_int_equal(r.known, 0);
            assert_int_equal(r.register_cap, 0);
        } else if (strstr(r.note, "takes no register cap")) {
            if (i == 0)
                fail_msg("CK_REGISTER_CAP=auto on a compiler without a cap: note '%s' (auto has nothing to say)",
                         r.note);
            assert_int_equal(r.known, 0);
            assert_int_equal(r.register_cap, 0);
        } else if (i == 0) {
            if (strncmp(r.note, "auto", 4) != 0 || !r.known)
                fail_msg("CK_REGISTER_CAP=auto: note '%s', registers %s", r.note, r.known ? "known" : "unknown");
            /* None, or the full-occupancy count or a step of 8 above it,
             * with no spill and the registers within the cap. */
            if (r.register_cap != 0 && (r.register_cap < r.full_occupancy_registers ||
                                        (r.register_cap - r.full_occupancy_registers) % 8u != 0 || r.spill_bytes ||
                                        r.registers > r.register_cap))
                fail_msg("CK_REGISTER_CAP=auto capped at %u (full occupancy at %u; %u registers, %u bytes spilled)",
                         r.register_cap, r.full_occupancy_registers, r.registers, r.spill_bytes);
        } else {
            assert_int_equal(r.register_cap, 40);
            if (!strstr(r.note, "capped at 40 registers"))
                fail_msg("CK_REGISTER_CAP=40: note '%s' does not say the cap", r.note);
            if (r.known && r.registers > 40)
                fail_msg("CK_REGISTER_CAP=40: the compiler reports %u registers", r.registers);
        }
        EXPECT(ck_context_destroy(d), CK_OK, "");
    }
    /* CK_REGISTER_CAP_NONE wins over the environment: no cap and no note
     * (a cap from the variable would say it was asked for, or that the
     * compiler takes none). */
    setenv("CK_REGISTER_CAP", "40", 1);
    ck_context_options o = options();
    o.register_cap = CK_REGISTER_CAP_NONE;
    ck_context *d = NULL;
    EXPECT(ck_context_create(&o, &d), CK_OK, "");
    unsetenv("CK_REGISTER_CAP");
    EXPECT(ck_context_add_source(d, "misuse.cl", kernels, NULL, 0), CK_OK, "");
    EXPECT(ck_context_build(d), CK_OK, "");
    EXPECT(ck_context_megakernel_resources(d, &r), CK_OK, "");
    assert_int_equal(r.register_cap, 0);
    if (strstr(r.note, "capped") || strstr(r.note, "takes no register cap"))
        fail_msg("CK_REGISTER_CAP_NONE with CK_REGISTER_CAP=40: note '%s'", r.note);
    EXPECT(ck_context_destroy(d), CK_OK, "");
}

static void test_build_retry_after_compile_failure(void **state)
{
    ck_context *c = unbuilt();
    EXPECT(ck_context_add_source(c, "broken.cl", no_compile, NULL, 0), CK_OK, "");
    EXPECT_BUILD_LOG(ck_context_build(c), "no_such_variable_here");
    /* The retry starts from a clean state (the first stitch result is
     * released, which the sanitizer run checks) and fails the same way. */
    EXPECT_BUILD_LOG(ck_context_build(c), "no_such_variable_here");
    EXPECT(ck_context_destroy(c), CK_OK, "");
}

static void test_build_deadline_covers_stitching(void **state)
{
    ck_context_options o = options();
    o.timeout_s = 1e-9; /* passes before the stitcher's first pass */
    ck_context *c = NULL;
    EXPECT(ck_context_create(&o, &c), CK_OK, "");
    EXPECT(ck_context_add_source(c, "misuse.cl", kernels, NULL, 0), CK_OK, "");
    EXPECT(ck_context_build(c), CK_ERR_TIMEOUT, "stitching stopped");
    EXPECT(ck_context_build(c), CK_ERR_TIMEOUT, "stitching stopped");
    EXPECT(ck_context_destroy(c), CK_OK, "");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s cl20|cl12\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_context_timeouts_refused),
        cmocka_unit_test(test_wait_timeouts_refused),
        cmocka_unit_test(test_occupancy_timeouts_refused),
        cmocka_unit_test(test_huge_buffers_refused),
        cmocka_unit_test(test_offset_overflow_refused),
        cmocka_unit_test(test_argument_sizes_refused),
        cmocka_unit_test(test_cooperative_list_mistakes),
        cmocka_unit_test(test_launch_stale_handles),
        cmocka_unit_test(test_context_destroyed_twice),
        cmocka_unit_test(test_trace_misuse),
        cmocka_unit_test(test_register_cap_misuse),
        cmocka_unit_test(test_launch_path_misuse),
        cmocka_unit_test(test_build_retry_after_compile_failure),
        cmocka_unit_test(test_build_deadline_covers_stitching),
    };
    const struct CMUnitTest alone[] = {
        cmocka_unit_test(test_register_cap_as_the_device_allows),
    };
    char name[64];
    snprintf(name, sizeof name, "api-misuse-%s", path_name);
    int failed = cmocka_run_group_tests_name(name, tests, setup, teardown);
    snprintf(name, sizeof name, "api-misuse-%s-own-megakernel", path_name);
    return failed + cmocka_run_group_tests_name(name, alone, NULL, NULL);
}
