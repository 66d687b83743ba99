/* tests/apps/test_apps_coop.c (owner: apps): one cooperative application
 * (argv[2]) in the megakernel on PoCL, path argv[1] (cl20 or cl12), against
 * its CPU reference, on every test input of the app (app_test_variants):
 * standalone, multitasked with a matmul stream asking for 1, N/4, N/2 and
 * N-1 groups; on the last input also with the naive resizing barrier; and a
 * corrupted reference must make the check FAIL. Needs
 * POCL_MAX_PTHREAD_COUNT (8). */
#include "apps_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

static ck_path path;

static void run_app(app_kind kind, unsigned variant, int naive)
{
    app_config c = apps_test_config(kind, variant);
    app *a;
    char err[1024];
    if (app_create(&c, &a, err, sizeof err))
        fail_msg("app_create: %s", err);
    ck_context_options o = apps_test_context(path, 0, naive);
    app_session s;
    if (app_session_open(a, &o, 32, 0, &s, err, sizeof err))
        fail_msg("session: %s", err);
    const char *exprs[] = {"1", "N/4", "N/2", "N-1"};
    char why[1200];
    int failures = 0;
    for (int i = -1; i < 4; ++i) {
        if (naive && (i == 0 || i == 1 || i == 3))
            continue; /* naive barriers are slow on a CPU: alone and N/2 only */
        unsigned g = 0;
        if (i >= 0)
            app_parse_group_expr(exprs[i], s.coop_groups, &g);
        app_multitask_result r;
        if (apps_test_run(&s, g, why, sizeof why, &r)) {
            print_error("%s%s, matmul %s: %s\n", app_describe(a), naive ? " (naive barrier)" : "",
                        i < 0 ? "none" : exprs[i], why);
            ++failures;
        } else {
            print_message("%s matmul %s=%u: %.1f ms, %u kills, %u forks, %u matmul launches, PASS\n",
                          app_kind_name(kind), i < 0 ? "none" : exprs[i], g, r.coop_ms, r.coop.kills, r.coop.forked,
                          r.mm_launches);
        }
        app_multitask_result_free(&r);
    }
    /* The check can fail: a corrupted reference is caught. */
    app_corrupt_reference(a);
    app_multitask_result r;
    assert_int_equal(apps_test_run(&s, 0, why, sizeof why, &r), 1);
    assert_int_equal(r.coop_check, 1);
    app_multitask_result_free(&r);
    if (app_session_close(&s, err, sizeof err))
        fail_msg("closing: %s", err);
    app_destroy(a);
    assert_int_equal(failures, 0);
}

static app_kind kind;

static void test_inputs(void **state)
{
    (void)state;
    for (unsigned v = 0; v < app_test_variants(kind); ++v)
        run_app(kind, v, 0);
}

static void test_naive_barrier(void **state)
{
    (void)state;
    run_app(kind, app_test_variants(kind) - 1, 1);
}

int main(int argc, char **argv)
{
    if (argc < 3 || ck_path_parse(argv[1], &path) != CK_OK || path == CK_PATH_AUTO ||
        app_kind_parse(argv[2], &kind)) {
        fprintf(stderr, "usage: %s cl20|cl12 APP (one of: %s)\n", argv[0], app_kind_list());
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs),
        cmocka_unit_test(test_naive_barrier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
