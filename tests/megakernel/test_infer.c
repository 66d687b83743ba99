/* Transmit inference on PoCL (path argv[1], kernels argv[2]:
 * infer_kernels.cl, chaos seeds argv[3]): cooperative kernels that carry
 * private values across their fork points without declaring them transmit
 * - build with the default transmit_mode (inference), with a note in the
 *   build's warnings for each carried value, and compute the right result
 *   without chaos and under every chaos seed (forks, kills and resizes at
 *   every fork point: a value that did not travel would be garbage in the
 *   forked groups);
 * - fail to build with CK_TRANSMIT_DECLARED, the message listing every
 *   carried value at once, each with its note;
 * - stitch, through ck_stitch's annotated source (what `ckcheck --fix`
 *   writes), to a file that builds with CK_TRANSMIT_DECLARED and computes
 *   the same results (under the first five seeds).
 * forms_inferred calls its helpers in a loop condition, behind || and && and
 * in a return; the count of their calls checks C's short-circuiting. */
#include "ck.h"
#include "../chaos_harness.h"
#include "stitcher.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static const char *path_name, *kernel_file;
static unsigned chaos_seeds = 30;
static char *source;           /* infer_kernels.cl */
static char *annotated;        /* the same with the inferred qualifiers written in */
static char build_error[4096]; /* the last failed build's message */
static const char *const COOP[] = {"rounds_inferred", "tasks_inferred", "helper_inferred", "forms_inferred"};
#define N_COOP 4
/* values the kernels carry undeclared: base, dst, r; scale, slots; step, r; r, tail, extra */
#define CARRIED 10

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    assert_non_null(t);
    assert_int_equal(fread(t, 1, (size_t)n, f), (size_t)n);
    t[n] = 0;
    fclose(f);
    return t;
}

/* A context of `text` with transmit_mode `mode`; NULL when the build fails
 * (the message is then in ck_last_error()). */
static ck_context *open_ctx(const char *text, int mode, uint64_t seed, chaos_harness *h)
{
    ck_context_options o = {.timeout_s = 60,
                            .arena_bytes = 4u << 20,
                            .quiet_warnings = 1,
                            .transmit_mode = mode,
                            .chaos_seed = seed};
    if (ck_path_parse(path_name, &o.device.path) != CK_OK)
        fail_msg("bad path %s", path_name);
    if (seed)
        chaos_harness_begin(h, &o);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *c;
    if (ck_context_create(&o, &c) != CK_OK)
        fail_msg("%s", ck_last_error());
    if (ck_context_add_source(c, "infer_kernels.cl", text, COOP, N_COOP) != CK_OK)
        fail_msg("%s", ck_last_error());
    if (ck_context_build(c) != CK_OK) {
        /* the build's message, kept before destroy can replace it */
        snprintf(build_error, sizeof build_error, "%s", ck_last_error());
        ck_context_destroy(c);
        return NULL;
    }
    return c;
}

static ck_buffer buffer_of(ck_context *c, const uint32_t *words, size_t n)
{
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(c, n * 4, &b), CK_OK);
    assert_int_equal(ck_buffer_write(c, b, 0, words, n * 4), CK_OK);
    return b;
}

static void run_wait(ck_context *c, const char *name, unsigned groups, ck_arg *a, size_t n, ck_launch_stats *st)
{
    ck_launch *l;
    if (ck_launch_kernel(c, name, groups, a, n, &l) != CK_OK || ck_wait(l, 60) != CK_OK)
        fail_msg("%s: %s", name, ck_last_error());
    assert_int_equal(ck_launch_get_stats(l, st), CK_OK);
    ck_launch_release(l);
}

/* Runs the three kernels in c and checks them against the host's results;
 * adds the forks, kills and resizes it saw to *events. Returns the number
 * of wrong words (0: all right). */
static unsigned check_kernels(ck_context *c, unsigned *events)
{
    enum { N = 3000, ROUNDS = 6, TASKS = 400, WEIGHT = 4 };
    static uint32_t data[N], got[N], out[2], slots[TASKS];
    unsigned W = ck_context_workers(c), wrong = 0;
    ck_launch_stats st;
    /* rounds_inferred: data[i] + sum over r of (r + n/2) */
    for (unsigned i = 0; i < N; ++i)
        data[i] = i * 7u;
    out[0] = out[1] = 0;
    ck_buffer bd = buffer_of(c, data, N), bo = buffer_of(c, out, 2);
    ck_arg a[4] = {ck_arg_buffer(bd), ck_arg_buffer(bo), ck_arg_uint(N), ck_arg_uint(ROUNDS)};
    run_wait(c, "rounds_inferred", W, a, 4, &st);
    *events += st.forked + st.kills + st.resizes;
    assert_int_equal(ck_buffer_read(c, bd, 0, got, sizeof got), CK_OK);
    assert_int_equal(ck_buffer_read(c, bo, 0, out, sizeof out), CK_OK);
    for (unsigned i = 0; i < N; ++i)
        wrong += got[i] != i * 7u + ROUNDS * (ROUNDS - 1) / 2 + ROUNDS * (N / 2);
    wrong += out[1] != ROUNDS + N / 2;
    /* tasks_inferred: each slot gets weight + 1 once */
    uint32_t zero = 0;
    memset(slots, 0, sizeof slots);
    ck_buffer bs = buffer_of(c, slots, TASKS), bc = buffer_of(c, &zero, 1);
    ck_arg t[4] = {ck_arg_buffer(bs), ck_arg_buffer(bc), ck_arg_uint(TASKS), ck_arg_uint(WEIGHT)};
    run_wait(c, "tasks_inferred", W, t, 4, &st);
    *events += st.forked + st.kills + st.resizes;
    assert_int_equal(ck_buffer_read(c, bs, 0, slots, sizeof slots), CK_OK);
    for (unsigned i = 0; i < TASKS; ++i)
        wrong += slots[i] != WEIGHT + 1;
    /* helper_inferred: round r adds r + 1 */
    for (unsigned i = 0; i < N; ++i)
        data[i] = i;
    ck_buffer bh = buffer_of(c, data, N);
    ck_arg h[3] = {ck_arg_buffer(bh), ck_arg_uint(N), ck_arg_uint(ROUNDS)};
    run_wait(c, "helper_inferred", W, h, 3, &st);
    *events += st.forked + st.kills + st.resizes;
    assert_int_equal(ck_buffer_read(c, bh, 0, got, sizeof got), CK_OK);
    for (unsigned i = 0; i < N; ++i)
        wrong += got[i] != i + ROUNDS * (ROUNDS + 1) / 2;
    /* forms_inferred: round r adds r + n % 5; the while calls round_due
     * rounds + 1 times; the && and || call next_due in the odd rounds that
     * are not multiples of 3 and add 1 in the rounds not multiples of 3
     * where r is even or the call says a next round is due */
    uint32_t calls = 0, want_calls = ROUNDS + 1, extra = 0;
    for (unsigned r = 0; r < ROUNDS; ++r) {
        unsigned called = r % 3 != 0 && r % 2 != 0;
        want_calls += called;
        extra += r % 3 != 0 && (r % 2 == 0 || r + 1 < ROUNDS);
    }
    for (unsigned i = 0; i < N; ++i)
        data[i] = 3 * i;
    ck_buffer bf = buffer_of(c, data, N), bn = buffer_of(c, &calls, 1);
    ck_arg f[4] = {ck_arg_buffer(bf), ck_arg_buffer(bn), ck_arg_uint(N), ck_arg_uint(ROUNDS)};
    run_wait(c, "forms_inferred", W, f, 4, &st);
    *events += st.forked + st.kills + st.resizes;
    assert_int_equal(ck_buffer_read(c, bf, 0, got, sizeof got), CK_OK);
    assert_int_equal(ck_buffer_read(c, bn, 0, &calls, 4), CK_OK);
    for (unsigned i = 0; i < N; ++i)
        wrong += got[i] != 3 * i + ROUNDS * (ROUNDS - 1) / 2 + ROUNDS * (N % 5) + extra;
    if (calls != want_calls) {
        print_message("forms_inferred: round_due called %u times, want %u\n", (unsigned)calls, (unsigned)want_calls);
        wrong += 1;
    }
    return wrong;
}

/* The kernels of text in mode under no chaos and chaos seeds 1..seeds. */
static void run_under_chaos(const char *text, int mode, const char *what, unsigned seeds)
{
    unsigned events = 0;
    for (unsigned seed = 0; seed <= seeds; ++seed) {
        chaos_harness h = {0};
        ck_context *c = open_ctx(text, mode, seed, &h);
        if (!c)
            fail_msg("%s: build failed: %s", what, build_error);
        unsigned wrong = check_kernels(c, &events);
        assert_int_equal(ck_context_destroy(c), CK_OK);
        if (seed) {
            char command[512];
            snprintf(command, sizeof command, "tests/megakernel/test_infer %s %s (seed %u)", path_name, kernel_file,
                     seed);
            chaos_harness_end(&h, wrong != 0, command, NULL, 0);
        }
        if (wrong)
            fail_msg("%s: %u wrong words under chaos seed %u", what, wrong, seed);
    }
    print_message("%s: %u seeds and one run without chaos right; %u forks, kills and resizes\n", what, seeds,
                  events);
    if (seeds >= 3) /* the carried values did reach forked groups */
        assert_true(events > 0);
}

static void test_inferred_runs_right(void **state)
{
    (void)state;
    chaos_harness h = {0};
    ck_context *c = open_ctx(source, CK_TRANSMIT_INFER, 0, &h);
    if (!c)
        fail_msg("build with inference failed: %s", build_error);
    const char *w = ck_context_build_warnings(c);
    unsigned notes = 0;
    for (const char *p = w; (p = strstr(p, ": note: ")) != NULL; ++p)
        ++notes;
    if (notes != CARRIED || !strstr(w, "infer_kernels.cl:10:10: note: 'base' is transmitted") ||
        !strstr(w, "infer_kernels.cl:50:10: note: 'step' is transmitted") || strstr(w, "warning:"))
        fail_msg("want %d notes, one per carried value, and no warning; got:\n%s", CARRIED, w);
    assert_int_equal(ck_context_destroy(c), CK_OK);
    run_under_chaos(source, CK_TRANSMIT_INFER, "inferred", chaos_seeds);
}

static void test_declared_lists_every_error(void **state)
{
    (void)state;
    chaos_harness h = {0};
    if (open_ctx(source, CK_TRANSMIT_DECLARED, 0, &h))
        fail_msg("a kernel that carries undeclared values built with CK_TRANSMIT_DECLARED");
    const char *m = ck_last_error();
    unsigned errors = 0, notes = 0;
    for (const char *p = m; (p = strstr(p, ": error: ")) != NULL; ++p)
        ++errors;
    for (const char *p = m; (p = strstr(p, ": note: forked work-groups start after")) != NULL; ++p)
        ++notes;
    if (errors != CARRIED || notes != CARRIED || !strstr(m, "'slots' is read after the request_fork() on line 40"))
        fail_msg("want %d errors, each with its note; got:\n%s", CARRIED, m);
}

static void test_annotated_source_runs_right(void **state)
{
    (void)state;
    if (!strstr(annotated, "transmit uint base = n / 2;") || !strstr(annotated, "for (transmit uint r = 0;") ||
        !strstr(annotated, "transmit uint step = add / 2;") ||
        !strstr(annotated, "transmit uint r = 0, tail = n % 5, extra = 0;"))
        fail_msg("annotated source lacks the qualifiers:\n%s", annotated);
    /* the same program as the inferred one (test_stitcher_infer compares them): a few seeds */
    run_under_chaos(annotated, CK_TRANSMIT_DECLARED, "annotated", chaos_seeds < 5 ? chaos_seeds : 5);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s cl20|cl12 infer_kernels.cl [chaos-seeds]\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    if (argc > 3)
        chaos_seeds = (unsigned)strtoul(argv[3], NULL, 10);
    source = read_text(kernel_file);
    ck_stitch_input in = {.source = source,
                          .file_name = "infer_kernels.cl",
                          .cooperative = COOP,
                          .n_cooperative = N_COOP,
                          .infer_transmit = 1};
    ck_stitch_result r;
    static char err[16384];
    if (ck_stitch(&in, &r, err, sizeof err) != 0 || !r.annotated) {
        fprintf(stderr, "stitching with inference failed or inferred nothing: %s\n", err);
        return 1;
    }
    annotated = r.annotated;
    r.annotated = NULL;
    ck_stitch_result_free(&r);
    char name[64];
    snprintf(name, sizeof name, "infer-%s", path_name);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inferred_runs_right),
        cmocka_unit_test(test_declared_lists_every_error),
        cmocka_unit_test(test_annotated_source_runs_right),
    };
    int rc = cmocka_run_group_tests_name(name, tests, NULL, NULL);
    free(annotated);
    free(source);
    return rc;
}
