/* Inputs that come from outside the program, on PoCL (path argv[1]): paths
 * that are not regular files (a FIFO, a device, a directory) are refused
 * with one line before anything could block on them; files are read whole
 * whatever their line lengths; numbers in the environment are parsed
 * strictly; CK_BUILD_OPTIONS may be of any length but may not set the
 * runtime's own macros; a kernel handle made by hand is checked against
 * every limit. Runs in the 'sanitize' suite under ASan+UBSan too. Each test
 * would fail against the runtime before these checks existed: it blocked in
 * fopen, dropped what it could not read, ran with chaos silently off, cut
 * the options, or ran another kernel. */
#define _GNU_SOURCE /* setenv, mkdtemp */
#include "ck.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

static const char *path_name;
static char dir[256]; /* a temporary folder for the files the tests make */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static ck_context_options options(void)
{
    ck_context_options o = {.timeout_s = 60, .arena_bytes = 1u << 20, .quiet_warnings = 1};
    ck_path_parse(path_name, &o.device.path);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    return o;
}

/* ck_context_create with o gives `want` within a few seconds, and a
 * one-line message containing each of the words (NULL-terminated). */
static void expect_create(ck_context_options o, ck_status want, ...)
{
    ck_context *c = NULL;
    double t0 = now_s();
    ck_status s = ck_context_create(&o, &c);
    double took = now_s() - t0;
    const char *m = ck_last_error();
    if (s == CK_OK)
        ck_context_destroy(c);
    if (s != want)
        fail_msg("ck_context_create gave %s, expected %s (message: %s)", ck_status_name(s), ck_status_name(want), m);
    if (took > 5.0)
        fail_msg("ck_context_create took %.1f s (it must not block on the path)", took);
    if (want == CK_OK)
        return;
    if (strchr(m, '\n'))
        fail_msg("the message is not one line: %s", m);
    va_list ap;
    va_start(ap, want);
    for (const char *w; (w = va_arg(ap, const char *));)
        if (!strstr(m, w))
            fail_msg("the message '%s' lacks '%s'", m, w);
    va_end(ap);
}

static const char *make_path(const char *name)
{
    static char p[4][512];
    static int k;
    char *out = p[k++ % 4];
    snprintf(out, 512, "%s/%s", dir, name);
    return out;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_record_path_not_a_file(void **state)
{
    const char *fifo = make_path("record.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    ck_context_options o = options();
    o.chaos_seed = 1;
    o.chaos_record_path = fifo;
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "chaos record", "is a FIFO", NULL);
    o.chaos_record_path = dir;
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "chaos record", "is a directory", NULL);
    unlink(fifo);
}

static void test_replay_path_not_a_file(void **state)
{
    const char *fifo = make_path("replay.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    ck_context_options o = options();
    o.chaos_replay_path = fifo;
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "chaos replay", "is a FIFO", NULL);
    o.chaos_replay_path = "/dev/zero";
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "chaos replay", "character device", NULL);
    o.chaos_replay_path = dir;
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "chaos replay", "is a directory", NULL);
    unlink(fifo);
}

/* A replay file with no decision: empty and comments-only are not records
 * (said so, without reading beyond the end of an empty table); a record
 * header with nothing after it is a valid record of a run that made no
 * decision. */
static void test_replay_without_decisions(void **state)
{
    const char *empty = make_path("empty.txt"), *comments = make_path("comments.txt"), *bare = make_path("bare.txt");
    write_text(empty, "");
    write_text(comments, "# just a comment\n\n# another\n");
    write_text(bare, "# ck chaos record, seed 7: one decision a line, sorted by key\n");
    ck_context_options o = options();
    o.chaos_replay_path = empty;
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "empty", "not a chaos record", NULL);
    o.chaos_replay_path = comments;
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "no record header", NULL);
    o.chaos_replay_path = bare;
    expect_create(o, CK_OK);
    unlink(empty);
    unlink(comments);
    unlink(bare);
}

/* A line far longer than any line buffer: the error after it names the
 * right line and shows that line, not a piece of the long one. */
static void test_replay_long_lines(void **state)
{
    const char *f = make_path("long.txt");
    size_t n = 6000, cap = n + 256;
    char *text = malloc(cap);
    assert_non_null(text);
    int at = snprintf(text, cap, "# ck chaos record, seed 3\n#");
    memset(text + at, 'x', n);
    snprintf(text + at + n, cap - (size_t)at - n, "\nlaunch 1 start: M 2\nthis line is garbage\n");
    write_text(f, text);
    free(text);
    ck_context_options o = options();
    o.chaos_replay_path = f;
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "line 4", "this line is garbage", NULL);
    unlink(f);
}

static void test_environment_numbers_strict(void **state)
{
    ck_context_options o = options();
    setenv("CK_CHAOS_SEED", "abc", 1);
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "CK_CHAOS_SEED", "'abc'", NULL);
    setenv("CK_CHAOS_SEED", "12x", 1);
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "CK_CHAOS_SEED", "'12x'", NULL);
    setenv("CK_CHAOS_SEED", "-3", 1);
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "CK_CHAOS_SEED", NULL);
    unsetenv("CK_CHAOS_SEED");
    setenv("CK_CHECK", "yes", 1);
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "CK_CHECK", NULL);
    setenv("CK_CHECK", "2", 1);
    expect_create(o, CK_ERR_INVALID_ARGUMENT, "CK_CHECK", NULL);
    unsetenv("CK_CHECK");
}

static ck_status build_with(const char *source, const char *build_options, ck_context **out)
{
    ck_context_options o = options();
    setenv("CK_BUILD_OPTIONS", build_options, 1);
    ck_context *c = NULL;
    ck_status s = ck_context_create(&o, &c);
    if (s == CK_OK)
        s = ck_context_add_source(c, "inputs.cl", source, NULL, 0);
    if (s == CK_OK)
        s = ck_context_build(c);
    unsetenv("CK_BUILD_OPTIONS");
    char keep[1024];
    snprintf(keep, sizeof keep, "%s", ck_last_error());
    if (s != CK_OK || !out) {
        ck_context_destroy(c);
        c = NULL;
    }
    if (out)
        *out = c;
    if (s != CK_OK)
        fprintf(stderr, "(build: %s)\n", keep);
    return s;
}

/* Options of any length reach the compiler whole: the kernel compiles only
 * if the last of 400 macros is defined. */
static void test_build_options_any_length(void **state)
{
    size_t cap = 400 * 32;
    char *opts = malloc(cap);
    assert_non_null(opts);
    size_t at = 0;
    for (int i = 0; i < 400; ++i)
        at += (size_t)snprintf(opts + at, cap - at, " -DUSER_OPTION_%d=%d", i, i);
    assert_true(at > 433 * 4);
    const char *src = "#if USER_OPTION_399 != 399\n#error the build options were cut\n#endif\n"
                      "kernel void fill(global uint *x) { x[get_global_id(0)] = USER_OPTION_399; }\n";
    ck_context *c;
    assert_int_equal(build_with(src, opts, &c), CK_OK);
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(c, 64 * 4, &b), CK_OK);
    ck_arg a = ck_arg_buffer(b);
    ck_launch *l;
    assert_int_equal(ck_launch_kernel(c, "fill", 1, &a, 1, &l), CK_OK);
    assert_int_equal(ck_wait(l, 60), CK_OK);
    uint32_t v = 0;
    assert_int_equal(ck_buffer_read(c, b, 0, &v, 4), CK_OK);
    assert_int_equal(v, 399);
    ck_launch_release(l);
    assert_int_equal(ck_context_destroy(c), CK_OK);
    free(opts);
}

/* The runtime's own macros stay the runtime's: with -DCK_TASKS_BUILD=0 a
 * context with tasks would take spawns that never run. */
static void test_build_options_runtime_macros_refused(void **state)
{
    const char *src = "kernel void fill(global uint *x) { x[get_global_id(0)] = 1u; }\n";
    const char *bad[] = {"-DCK_TASKS_BUILD=0", "-O2 -UCK_CHAOS_BUILD", "-D CK_LOCAL_POOL_BYTES=4"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        ck_status s = build_with(src, bad[i], NULL);
        const char *m = ck_last_error();
        if (s != CK_ERR_INVALID_ARGUMENT || !strstr(m, "CK_BUILD_OPTIONS") || !strstr(m, "runtime's own"))
            fail_msg("CK_BUILD_OPTIONS='%s' gave %s: %s", bad[i], ck_status_name(s), m);
    }
    /* A user macro that merely contains CK_ is the user's. */
    assert_int_equal(build_with(src, "-DMY_CK_FLAG=1 -D USER_CK=2", NULL), CK_OK);
    /* The header's author switches are the author's; a name that only
     * starts like one is not. */
    assert_int_equal(build_with(src, "-DCK_PLAIN_BARRIER_FENCED -D CK_PLAIN_BARRIER_FENCED=1", NULL), CK_OK);
    ck_status s = build_with(src, "-DCK_PLAIN_BARRIER_FENCEDX", NULL);
    assert_int_equal(s, CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "runtime's own"));
    /* The hand-written lock exists only for NVIDIA's compiler (on the 1.2
     * path): there the build succeeds, elsewhere it fails and says why. */
    ck_context *c = NULL;
    s = build_with(src, "-DCK_MUTEX_HANDWRITTEN_PTX", &c);
    if (s == CK_OK) {
        const ck_device_info *info = ck_context_device_info(c);
        assert_non_null(info);
        if (!strstr(info->platform_name, "NVIDIA") || info->path != CK_PATH_CL12)
            fail_msg("-DCK_MUTEX_HANDWRITTEN_PTX built on '%s', which has no inline PTX", info->platform_name);
        assert_int_equal(ck_context_destroy(c), CK_OK);
    } else {
        assert_int_equal(s, CK_ERR_BUILD);
        assert_non_null(strstr(ck_last_error(), "CK_MUTEX_HANDWRITTEN_PTX needs NVIDIA"));
    }
}

/* A ck_kernel handle made by hand with an index the task descriptor cannot
 * hold (515 of 520 kernels: it would wrap onto kernel 3) is refused, and
 * no kernel runs. */
static void test_kernel_handle_beyond_the_task_limit(void **state)
{
    size_t cap = 520 * 96;
    char *src = malloc(cap);
    assert_non_null(src);
    size_t at = 0;
    for (unsigned i = 0; i < 520; ++i)
        at += (size_t)snprintf(src + at, cap - at,
                               "kernel void k%u(global uint *o) { if (get_global_id(0) == 0) "
                               "o[0] = %uu; }\n",
                               i, i);
    ck_context_options o = options();
    o.tasks = 1;
    ck_context *c;
    assert_int_equal(ck_context_create(&o, &c), CK_OK);
    assert_int_equal(ck_context_add_source(c, "many.cl", src, NULL, 0), CK_OK);
    free(src);
    assert_int_equal(ck_context_build(c), CK_OK);
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(c, 4, &b), CK_OK);
    uint32_t none = 0xffffffffu, v = 0;
    assert_int_equal(ck_buffer_write(c, b, 0, &none, 4), CK_OK);
    ck_kernel found;
    assert_int_equal(ck_kernel_find(c, "k515", &found), CK_ERR_INVALID_ARGUMENT);
    ck_kernel forged = {c, 515};
    ck_arg a = ck_arg_buffer(b);
    ck_task t;
    assert_int_equal(ck_task_spawn(c, forged, 1, &a, 1, 0, &t), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "515"));
    /* A real task after it, so that anything the refused spawn left would
     * have run first. */
    assert_int_equal(ck_kernel_find(c, "k7", &found), CK_OK);
    assert_int_equal(ck_task_spawn(c, found, 1, &a, 1, 0, &t), CK_OK);
    assert_int_equal(ck_task_wait(t, 60), CK_OK);
    assert_int_equal(ck_buffer_read(c, b, 0, &v, 4), CK_OK);
    assert_int_equal(v, 7);
    assert_int_equal(ck_context_destroy(c), CK_OK);
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "cl20") && strcmp(argv[1], "cl12"))) {
        fprintf(stderr, "usage: %s cl20|cl12\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ck-inputs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    unsetenv("CK_CHAOS_SEED");
    unsetenv("CK_CHECK");
    unsetenv("CK_BUILD_OPTIONS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_path_not_a_file),
        cmocka_unit_test(test_replay_path_not_a_file),
        cmocka_unit_test(test_replay_without_decisions),
        cmocka_unit_test(test_replay_long_lines),
        cmocka_unit_test(test_environment_numbers_strict),
        cmocka_unit_test(test_build_options_any_length),
        cmocka_unit_test(test_build_options_runtime_macros_refused),
        cmocka_unit_test(test_kernel_handle_beyond_the_task_limit),
    };
    char name[64];
    snprintf(name, sizeof name, "inputs-%s", path_name);
    int failed = cmocka_run_group_tests_name(name, tests, NULL, NULL);
    rmdir(dir);
    return failed;
}
