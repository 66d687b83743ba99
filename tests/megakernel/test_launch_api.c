/* The launch API on PoCL (path argv[1]): argument checking with messages
 * that name the parameter, buffers, local arguments, many ordinary launches
 * in flight beside a cooperative one, stitcher rejections surfacing through
 * ck_context_build with file and line, and statistics. With "table" as
 * argv[3] the contexts have tasks, so every ordinary launch goes through the
 * task table (ck_context_options.launch_path) and the same rules are
 * checked on that path. */
#include "ck.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *path_name, *kernel_file;
static ck_context *ctx;
static int table; /* ordinary launches through the task table */

static ck_context *make(const char *file, const char *src, const char *const *coop, size_t n)
{
    ck_context_options o = {.timeout_s = 120, .tasks = table};
    ck_path_parse(path_name, &o.device.path);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *c;
    if (ck_context_create(&o, &c) != CK_OK)
        fail_msg("%s", ck_last_error());
    ck_status s = src ? ck_context_add_source(c, file, src, coop, n) : ck_context_add_file(c, file, coop, n);
    assert_int_equal(s, CK_OK);
    return c;
}

static int setup(void **state)
{
    const char *coop[] = {"counter"};
    ctx = make(kernel_file, NULL, coop, 1);
    if (ck_context_build(ctx) != CK_OK) {
        fprintf(stderr, "%s\n", ck_last_error());
        return -1;
    }
    return 0;
}

static int teardown(void **state) { return ck_context_destroy(ctx) == CK_OK ? 0 : -1; }

static void run_ok(const char *name, unsigned groups, const ck_arg *a, size_t n)
{
    ck_launch *l;
    if (ck_launch_kernel(ctx, name, groups, a, n, &l) != CK_OK || ck_wait(l, 60) != CK_OK)
        fail_msg("%s: %s", name, ck_last_error());
    ck_launch_release(l);
}

static void test_scalar_and_buffer_arguments(void **state)
{
    enum { N = 5000 };
    static float x[N], y[N];
    for (int i = 0; i < N; ++i)
        x[i] = (float)i;
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, sizeof x, &b), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, b, 0, x, sizeof x), CK_OK);
    ck_arg a[3] = {ck_arg_buffer(b), ck_arg_float(2.5f), ck_arg_uint(N)};
    run_ok("scale", 3, a, 3);
    assert_int_equal(ck_buffer_read(ctx, b, 0, y, sizeof y), CK_OK);
    for (int i = 0; i < N; ++i)
        if (y[i] != 2.5f * (float)i)
            fail_msg("x[%d] = %f, expected %f", i, y[i], 2.5f * (float)i);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* A launch with the most argument words (28) runs with every word intact,
 * in several groups and waves (the words sit next to the launch's claim
 * word in the scheduler state; an overlap would lose or duplicate groups). */
static void test_most_argument_words(void **state)
{
    unsigned G = ck_context_workers(ctx) * 2 + 1;
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, G * 64 * 8, &b), CK_OK);
    ck_arg a[28];
    a[0] = ck_arg_buffer(b);
    uint64_t want = 0;
    for (int i = 1; i < 28; ++i) {
        uint64_t v = 0x0101010101010101ull * (uint64_t)i + ((uint64_t)i << 40);
        a[i] = ck_arg_ulong(v);
        want += (uint64_t)i * v;
    }
    for (int rep = 0; rep < 3; ++rep) {
        run_ok("many_args", G, a, 28);
        uint64_t *v = malloc(G * 64 * 8);
        assert_int_equal(ck_buffer_read(ctx, b, 0, v, G * 64 * 8), CK_OK);
        for (unsigned i = 0; i < G * 64; ++i)
            if (v[i] != want + i / 64)
                fail_msg("work-item %u: %llu, expected %llu", i, (unsigned long long)v[i],
                         (unsigned long long)(want + i / 64));
        free(v);
    }
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* ck_launch_done polls without blocking: 0 while a launch runs, 1 once it
 * finished, and then ck_wait returns at once. */
static void test_launch_done_polls(void **state)
{
    enum { N = 1 << 16 };
    assert_int_equal(ck_launch_done(NULL), 0);
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, N * 4, &b), CK_OK);
    ck_arg a[3] = {ck_arg_buffer(b), ck_arg_float(1.5f), ck_arg_uint(N)};
    ck_launch *l[8];
    for (int i = 0; i < 8; ++i)
        assert_int_equal(ck_launch_kernel(ctx, "scale", 2, a, 3, &l[i]), CK_OK);
    /* The last one queues behind seven others: it cannot be done yet. */
    assert_int_equal(ck_launch_done(l[7]), 0);
    int done = 0;
    for (unsigned polls = 0; done < 8 && polls < 60000000u; ++polls) {
        done = 0;
        for (int i = 0; i < 8; ++i)
            done += ck_launch_done(l[i]) != 0;
    }
    assert_int_equal(done, 8);
    for (int i = 0; i < 8; ++i) {
        assert_int_equal(ck_wait(l[i], 0.001), CK_OK);
        ck_launch_release(l[i]);
    }
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

static void test_logical_ids_of_ordinary_launch(void **state)
{
    /* More groups than workers: they run in waves, ids 0..G-1 each once. */
    unsigned G = ck_context_workers(ctx) * 3 + 1;
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, G * 64 * 4, &b), CK_OK);
    ck_arg a[1] = {ck_arg_buffer(b)};
    run_ok("ids", G, a, 1);
    uint32_t *v = malloc(G * 64 * 4);
    assert_int_equal(ck_buffer_read(ctx, b, 0, v, G * 64 * 4), CK_OK);
    for (unsigned i = 0; i < G * 64; ++i)
        if (v[i] != (i / 64) * 1000u + G)
            fail_msg("work-item %u saw group/num_groups %u, expected %u", i, v[i], (i / 64) * 1000u + G);
    free(v);
    ck_buffer_free(ctx, b);
}

static void test_local_pointer_argument(void **state)
{
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, 4 * 4, &b), CK_OK);
    ck_arg a[2] = {ck_arg_buffer(b), ck_arg_local(64 * 4)};
    run_ok("with_local", 4, a, 2);
    uint32_t v[4];
    ck_buffer_read(ctx, b, 0, v, sizeof v);
    for (int g = 0; g < 4; ++g)
        assert_int_equal(v[g], 64 * 65 / 2);
    ck_buffer_free(ctx, b);
}

static void test_argument_errors_name_the_parameter(void **state)
{
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, 64, &b), CK_OK);
    ck_launch *l;
    ck_arg wrong_count[1] = {ck_arg_buffer(b)};
    assert_int_equal(ck_launch_kernel(ctx, "scale", 1, wrong_count, 1, &l), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "takes 3 arguments"));
    /* A context built without ck_context_options.tasks has no task API. */
    ck_kernel k;
    if (!table) {
        assert_int_equal(ck_kernel_find(ctx, "scale", &k), CK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(ck_last_error(), "built without tasks"));
    }
    ck_arg wrong_kind[3] = {ck_arg_float(1), ck_arg_float(1), ck_arg_uint(1)};
    assert_int_equal(ck_launch_kernel(ctx, "scale", 1, wrong_kind, 3, &l), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "'global float * x'"));
    ck_arg wrong_size[3] = {ck_arg_buffer(b), ck_arg_long(1), ck_arg_uint(1)};
    assert_int_equal(ck_launch_kernel(ctx, "scale", 1, wrong_size, 3, &l), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "is 4 bytes, 8 given"));
    ck_arg ok[3] = {ck_arg_buffer(b), ck_arg_float(1), ck_arg_uint(1)};
    assert_int_equal(ck_launch_kernel(ctx, "nosuch", 1, ok, 3, &l), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "no kernel named 'nosuch'"));
    assert_int_equal(ck_launch_kernel(ctx, "scale", 0, ok, 3, &l), CK_ERR_INVALID_ARGUMENT);
    ck_arg big_local[2] = {ck_arg_buffer(b), ck_arg_local(1 << 20)};
    assert_int_equal(ck_launch_kernel(ctx, "with_local", 1, big_local, 2, &l), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "local_pool_bytes"));
    ck_buffer_free(ctx, b);
    assert_int_equal(ck_buffer_free(ctx, b), CK_ERR_INVALID_ARGUMENT); /* twice */
    char buf[8];
    assert_int_equal(ck_buffer_read(ctx, b, 0, buf, 8), CK_ERR_INVALID_ARGUMENT);
}

/* Many ordinary launches in flight at once beside a cooperative one that
 * must give groups back: all finish, results right, gather times recorded. */
static void test_many_launches_beside_a_cooperative_kernel(void **state)
{
    unsigned W = ck_context_workers(ctx);
    enum { TOTAL = 20000, K = 24 };
    ck_buffer next, done, out[K];
    assert_int_equal(ck_buffer_alloc(ctx, 4, &next), CK_OK);
    assert_int_equal(ck_buffer_alloc(ctx, TOTAL * 4, &done), CK_OK);
    static uint32_t z[TOTAL];
    memset(z, 0, sizeof z);
    ck_buffer_write(ctx, next, 0, z, 4);
    ck_buffer_write(ctx, done, 0, z, sizeof z);
    ck_arg ca[3] = {ck_arg_buffer(next), ck_arg_buffer(done), ck_arg_uint(TOTAL)};
    ck_launch *coop, *l[K];
    assert_int_equal(ck_launch_kernel(ctx, "counter", W, ca, 3, &coop), CK_OK);
    for (int k = 0; k < K; ++k) {
        unsigned g = 1 + (unsigned)k % W;
        assert_int_equal(ck_buffer_alloc(ctx, g * 64 * 4, &out[k]), CK_OK);
        ck_arg a[1] = {ck_arg_buffer(out[k])};
        if (ck_launch_kernel(ctx, "ids", g, a, 1, &l[k]) != CK_OK)
            fail_msg("%s", ck_last_error());
    }
    for (int k = 0; k < K; ++k) {
        if (ck_wait(l[k], 60) != CK_OK)
            fail_msg("launch %d: %s", k, ck_last_error());
        unsigned g = 1 + (unsigned)k % W;
        uint32_t v[64 * 64];
        ck_buffer_read(ctx, out[k], 0, v, g * 64 * 4);
        for (unsigned i = 0; i < g * 64; ++i)
            assert_int_equal(v[i], (i / 64) * 1000u + g);
        ck_launch_stats st;
        assert_int_equal(ck_launch_get_stats(l[k], &st), CK_OK);
        if (table) /* a task's times: no gather time; no device time without a device clock (PoCL) */
            assert_true(st.gather_ms == -1.0 && (st.exec_ms == -1.0 || st.exec_ms >= 0) && st.total_ms >= 0);
        else
            assert_true(st.gather_ms >= 0 && st.exec_ms >= 0 && st.total_ms >= st.exec_ms);
        assert_int_equal(st.groups, g);
        ck_launch_release(l[k]);
    }
    if (ck_wait(coop, 60) != CK_OK)
        fail_msg("%s", ck_last_error());
    ck_buffer_read(ctx, done, 0, z, sizeof z);
    for (int i = 0; i < TOTAL; ++i)
        if (z[i] != 1)
            fail_msg("work unit %d done %u times", i, z[i]);
    ck_launch_stats st;
    assert_int_equal(ck_launch_get_stats(coop, &st), CK_OK);
    print_message("cooperative: initial %u, max %u, kills %u, forked %u\n", st.initial_groups, st.max_active,
                  st.kills, st.forked);
    ck_launch_release(coop);
}

/* Which path an ordinary launch took: through the task table it takes a
 * ticket (tasks spawned around it are two tickets apart), and a
 * cooperative launch never does; without tasks there is no table. */
static void test_launch_path_of_ordinary_and_cooperative_launches(void **state)
{
    if (!table) {
        ck_kernel k;
        assert_int_equal(ck_kernel_find(ctx, "ids", &k), CK_ERR_INVALID_ARGUMENT);
        return;
    }
    ck_kernel k;
    assert_int_equal(ck_kernel_find(ctx, "ids", &k), CK_OK);
    ck_buffer b, next, done;
    uint32_t z[64] = {0};
    assert_int_equal(ck_buffer_alloc(ctx, 64 * 4, &b), CK_OK);
    assert_int_equal(ck_buffer_alloc(ctx, 4, &next), CK_OK);
    assert_int_equal(ck_buffer_alloc(ctx, 64 * 4, &done), CK_OK);
    ck_buffer_write(ctx, next, 0, z, 4);
    ck_buffer_write(ctx, done, 0, z, sizeof z);
    ck_arg a[1] = {ck_arg_buffer(b)};
    ck_arg ca[3] = {ck_arg_buffer(next), ck_arg_buffer(done), ck_arg_uint(64)};
    ck_task t0, t1, t2;
    ck_launch *l, *coop;
    assert_int_equal(ck_task_spawn(ctx, k, 1, a, 1, 60, &t0), CK_OK);
    assert_int_equal(ck_launch_kernel(ctx, "ids", 1, a, 1, &l), CK_OK);
    assert_int_equal(ck_task_spawn(ctx, k, 1, a, 1, 60, &t1), CK_OK);
    assert_int_equal(t1.ticket, t0.ticket + 2);
    assert_int_equal(ck_launch_kernel(ctx, "counter", 2, ca, 3, &coop), CK_OK);
    assert_int_equal(ck_task_spawn(ctx, k, 1, a, 1, 60, &t2), CK_OK);
    assert_int_equal(t2.ticket, t1.ticket + 1);
    assert_int_equal(ck_wait(l, 60), CK_OK);
    assert_int_equal(ck_wait(coop, 60), CK_OK);
    assert_int_equal(ck_task_wait_all(ctx, 60), CK_OK);
    ck_launch_release(l);
    ck_launch_release(coop);
    ck_buffer_read(ctx, done, 0, z, sizeof z);
    for (int i = 0; i < 64; ++i)
        assert_int_equal(z[i], 1);
    ck_buffer_free(ctx, b);
    ck_buffer_free(ctx, next);
    ck_buffer_free(ctx, done);
}

static void expect_rejection(const char *src, const char *const *coop, size_t n, const char *line_tag,
                             const char *words)
{
    ck_context *c = make("bad.cl", src, coop, n);
    assert_int_equal(ck_context_build(c), CK_ERR_BUILD);
    const char *m = ck_last_error();
    if (!strstr(m, line_tag) || !strstr(m, words))
        fail_msg("rejection message lacks '%s' or '%s': %s", line_tag, words, m);
    ck_context_destroy(c);
}

static void test_stitcher_rejections_name_file_and_line(void **state)
{
    const char *coop[] = {"k"};
    expect_rejection("kernel void k(global int *a) {\n  switch (a[0]) {\n  case 0:\n    request_fork();\n  }\n}\n",
                     coop, 1, "bad.cl:4", "switch");
    expect_rejection("kernel void k(global int *a) {\n  offer_kill();\n}\n", NULL, 0, "bad.cl:2", "offer_kill");
    expect_rejection("kernel void k(global int *a) {\n  transmit int x[4];\n  request_fork();\n}\n", coop, 1,
                     "bad.cl:2", "transmit");
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "table") != 0)) {
        fprintf(stderr, "usage: %s cl20|cl12 launch_kernels.cl [table]\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    table = argc == 4;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_and_buffer_arguments),
        cmocka_unit_test(test_logical_ids_of_ordinary_launch),
        cmocka_unit_test(test_launch_done_polls),
        cmocka_unit_test(test_local_pointer_argument),
        cmocka_unit_test(test_argument_errors_name_the_parameter),
        cmocka_unit_test(test_most_argument_words),
        cmocka_unit_test(test_many_launches_beside_a_cooperative_kernel),
        cmocka_unit_test(test_launch_path_of_ordinary_and_cooperative_launches),
        cmocka_unit_test(test_stitcher_rejections_name_file_and_line),
    };
    char name[64];
    snprintf(name, sizeof name, "launch-api-%s%s", table ? "table-" : "", path_name);
    return cmocka_run_group_tests_name(name, tests, setup, teardown);
}
