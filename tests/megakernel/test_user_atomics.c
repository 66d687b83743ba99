/* A user's kernels written with OpenCL C 2.0 atomics (atomic_uint,
 * atomic_fetch_add_explicit, atomic_compare_exchange_strong) on PoCL (path
 * argv[1]): on the cl20 path they build through the framework and count
 * right, an ordinary kernel and a cooperative one beside a resizing barrier;
 * on the cl12 path the build fails at once, naming the first such atomic
 * with its position, the path and the portable calls to use instead. */
#include "ck.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *path_name;

static const char *const SOURCE =
    "kernel void count(global atomic_uint *c, uint per_item)\n"
    "{\n"
    "    for (uint i = 0; i < per_item; i++)\n"
    "        atomic_fetch_add_explicit(c, 1u, memory_order_relaxed, memory_scope_device);\n"
    "}\n"
    "kernel void rounds(global atomic_uint *c, global uint *maxima, uint n_rounds)\n"
    "{\n"
    "    for (uint r = 0; r < n_rounds; r++) {\n"
    "        if (get_local_id(0) == 0) {\n"
    "            uint seen = atomic_load(&c[1]);\n"
    "            uint want = get_group_id(0);\n"
    "            while (seen < want && !atomic_compare_exchange_strong(&c[1], &seen, want))\n"
    "                ;\n"
    "            atomic_fetch_add(&c[0], 1u);\n"
    "        }\n"
    "        resizing_global_barrier();\n"
    "    }\n"
    "    if (get_global_id(0) == 0)\n"
    "        maxima[0] = atomic_load(&c[1]);\n"
    "}\n";

static ck_context *open_ctx(ck_path path)
{
    ck_context_options o = {.timeout_s = 60, .arena_bytes = 1u << 20, .quiet_warnings = 1};
    o.device.path = path;
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *c;
    if (ck_context_create(&o, &c) != CK_OK)
        fail_msg("%s", ck_last_error());
    const char *coop[] = {"rounds"};
    if (ck_context_add_source(c, "atomics20.cl", SOURCE, coop, 1) != CK_OK)
        fail_msg("%s", ck_last_error());
    return c;
}

static void test_by_path(void **state)
{
    (void)state;
    ck_path path;
    assert_int_equal(ck_path_parse(path_name, &path), CK_OK);
    ck_context *c = open_ctx(path);
    ck_status s = ck_context_build(c);
    if (path == CK_PATH_CL12) {
        const char *m = ck_last_error();
        assert_int_equal(s, CK_ERR_BUILD);
        if (!strstr(m, "atomics20.cl:1:26: error: 'atomic_uint' is an OpenCL C 2.0 atomic, and this context runs "
                       "the cl12 path") ||
            !strstr(m, "device_atomic_add") || !strstr(m, "device_mutex_lock") || !strstr(m, "cl20 path"))
            fail_msg("want the first 2.0 atomic, the path and the portable calls named; got:\n%s", m);
        assert_int_equal(ck_context_destroy(c), CK_OK);
        return;
    }
    if (s != CK_OK)
        fail_msg("cl20 build of OpenCL C 2.0 atomics failed: %s", ck_last_error());
    unsigned W = ck_context_workers(c);
    uint32_t zero[2] = {0, 0}, got[2], maxima = 0;
    ck_buffer b, m;
    assert_int_equal(ck_buffer_alloc(c, 8, &b), CK_OK);
    assert_int_equal(ck_buffer_alloc(c, 4, &m), CK_OK);
    assert_int_equal(ck_buffer_write(c, b, 0, zero, 8), CK_OK);
    ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(10)};
    ck_launch *l;
    assert_int_equal(ck_launch_kernel(c, "count", 3, a, 2, &l), CK_OK);
    if (ck_wait(l, 60) != CK_OK)
        fail_msg("%s", ck_last_error());
    ck_launch_release(l);
    assert_int_equal(ck_buffer_read(c, b, 0, got, 8), CK_OK);
    size_t wg = 64; /* the default work-group size */
    assert_int_equal(got[0], 3 * wg * 10);
    assert_int_equal(ck_buffer_write(c, b, 0, zero, 8), CK_OK);
    ck_arg r[3] = {ck_arg_buffer(b), ck_arg_buffer(m), ck_arg_uint(5)};
    assert_int_equal(ck_launch_kernel(c, "rounds", W, r, 3, &l), CK_OK);
    if (ck_wait(l, 60) != CK_OK)
        fail_msg("%s", ck_last_error());
    ck_launch_stats st;
    assert_int_equal(ck_launch_get_stats(l, &st), CK_OK);
    ck_launch_release(l);
    assert_int_equal(ck_buffer_read(c, b, 0, got, 8), CK_OK);
    assert_int_equal(ck_buffer_read(c, m, 0, &maxima, 4), CK_OK);
    /* without chaos every round runs on all W groups: W increments a round, and the
     * largest group id seen is W - 1 */
    assert_int_equal(got[0], 5 * W);
    assert_int_equal(maxima, W - 1);
    assert_int_equal(ck_context_destroy(c), CK_OK);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s cl20|cl12\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    char name[64];
    snprintf(name, sizeof name, "user-atomics-%s", path_name);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_by_path)};
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
