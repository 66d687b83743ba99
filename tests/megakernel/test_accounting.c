/* The checking build (ck_context_options.accounting_checks) on PoCL (path
 * argv[1], kernels argv[2]: accounting_kernels.cl): a clean run of ordinary
 * and cooperative launches under chaos reports nothing, and each of three
 * deliberate breaks of the accounting, made by a kernel that writes one of
 * the scheduler's counts, is reported as the rule it breaks, with a later
 * wait failing CK_ERR_CHECK_FAILED:
 * - one idle unit too many: "more workers counted idle than there are";
 * - a promised ticket that was never written: "taken before it was written";
 * - an idle unit lost: at rest "not every worker was counted idle".
 * The test finds the counts where the runtime puts the scheduler state: the
 * runtime region right after the user's arena_bytes (rounded to 4096), one
 * 256-byte line for the discovery poll, then ck_sched_layout.h's words. */
#define _GNU_SOURCE /* usleep */
#include "ck.h"
#include "context_support.h"
#include "ck_sched_layout.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define ARENA (1u << 20)
#define SCHED_OFF (ARENA + 256u) /* context.c: runtime_off + CK_ARENA_ALIGN */

static const char *path_name, *kernel_file;

static ck_context *open_checked(uint64_t chaos)
{
    ck_context_options o = {.timeout_s = 60,
                            .arena_bytes = ARENA,
                            .quiet_warnings = 1,
                            .accounting_checks = 1,
                            .chaos_seed = chaos};
    const char *coop[] = {"forks"};
    return support_open_context(o, path_name, kernel_file, coop, 1);
}

static ck_status launch_wait(ck_context *c, const char *name, unsigned groups, ck_arg *a, size_t n)
{
    ck_launch *l;
    ck_status s = ck_launch_kernel(c, name, groups, a, n, &l);
    if (s != CK_OK)
        return s;
    s = ck_wait(l, 30);
    ck_launch_release(l);
    return s;
}

static void test_clean_run_reports_nothing(void **state)
{
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        ck_context *c = open_checked(seed);
        ck_buffer n = support_zeroed_buffer(c, 4), rounds = support_zeroed_buffer(c, 4);
        ck_arg a = ck_arg_buffer(n);
        for (int i = 0; i < 20; ++i)
            assert_int_equal(launch_wait(c, "count", 1 + i % 7, &a, 1), CK_OK);
        ck_arg f[2] = {ck_arg_buffer(rounds), ck_arg_uint(40)};
        if (launch_wait(c, "forks", ck_context_workers(c), f, 2) != CK_OK)
            fail_msg("seed %llu: %s", (unsigned long long)seed, ck_last_error());
        uint32_t v = 0;
        assert_int_equal(ck_buffer_read(c, rounds, 0, &v, 4), CK_OK);
        assert_int_equal(v, 40);
        /* Longer than the host's 10 ms look and the rest rule's passes. */
        usleep(300 * 1000);
        assert_int_equal(launch_wait(c, "count", 1, &a, 1), CK_OK);
        assert_int_equal(ck_context_destroy(c), CK_OK);
    }
}

/* Adds `by` to the scheduler's word `word` through `shift`, then waits
 * (ck_task_wait_all: a wait with nothing to wait for, which launches
 * nothing and so leaves the megakernel at rest) until a wait fails or
 * `within` seconds pass: it must fail with CK_ERR_CHECK_FAILED naming
 * `rule`. */
static void expect_report(uint32_t word, uint32_t by, const char *rule, double within)
{
    ck_context *c = open_checked(0);
    ck_buffer b = support_zeroed_buffer(c, 4);
    uint32_t past = (SCHED_OFF + word * 4u - (uint32_t)b.offset) / 4u;
    ck_arg a[3] = {ck_arg_buffer(b), ck_arg_uint(past), ck_arg_uint(by)};
    ck_status s = launch_wait(c, "shift", 1, a, 3);
    double t0 = support_now_s();
    while (s == CK_OK && support_now_s() - t0 < within) {
        usleep(50 * 1000);
        s = ck_task_wait_all(c, 1.0);
    }
    const char *m = ck_last_error();
    if (s != CK_ERR_CHECK_FAILED || !strstr(m, "accounting check failed") || !strstr(m, rule))
        fail_msg("after the break of '%s': %s, '%s'", rule, ck_status_name(s), m);
    print_message("reported: %.200s\n", m);
    /* The context still shuts down (what it reports after the break does
     * not matter here). */
    ck_context_destroy(c);
}

static void test_idle_unit_too_many(void **state)
{
    expect_report((uint32_t)(offsetof(ck_sched, idle) / 4u), 1000u,
                  "more workers counted idle than there are workers", 20.0);
}

static void test_promise_without_ticket(void **state)
{
    expect_report((uint32_t)(offsetof(ck_sched, promised) / 4u), 1u, "a fork ticket was taken before it was written",
                  20.0);
}

static void test_idle_unit_lost(void **state)
{
    expect_report((uint32_t)(offsetof(ck_sched, idle) / 4u), 0xffffffffu,
                  "at rest, not every worker was counted idle", 60.0);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s cl20|cl12 accounting_kernels.cl\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    unsetenv("CK_CHECK");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_clean_run_reports_nothing, support_close_contexts),
        cmocka_unit_test_teardown(test_idle_unit_too_many, support_close_contexts),
        cmocka_unit_test_teardown(test_promise_without_ticket, support_close_contexts),
        cmocka_unit_test_teardown(test_idle_unit_lost, support_close_contexts),
    };
    char name[64];
    snprintf(name, sizeof name, "accounting-%s", path_name);
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
