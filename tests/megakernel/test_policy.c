/* Unit tests of the scheduling policy (megakernel/ck_policy.cl), compiled
 * for the host: every decision the scheduler and the idle workers take from
 * the counts they read, pinned at its edges. The file is the device's own
 * source; the few OpenCL C names it uses are given their C meaning here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

typedef unsigned int uint;
static uint min(uint a, uint b) { return a < b ? a : b; }
#define CK_TASKS_BUILD 1
#include "ck_sched_layout.h"
#include "ck_messages.h"
#include "ck_policy.cl"

/* An ordinary launch gets one group per worker at once, at most what it asks. */
static void test_wave(void **state)
{
    (void)state;
    assert_int_equal(ck_policy_wave(5, 8), 5);
    assert_int_equal(ck_policy_wave(20, 8), 8);
    assert_int_equal(ck_policy_wave(0, 8), 0);
    assert_int_equal(ck_policy_wave(CK_LAUNCH_MAX_GROUPS, 4223), 4223);
}

/* STARTED goes to the host once the first wave is taken, not before. */
static void test_wave_taken(void **state)
{
    (void)state;
    assert_true(ck_policy_wave_taken(20, 12, 8));  /* 8 taken: the wave */
    assert_false(ck_policy_wave_taken(20, 13, 8)); /* 7 taken */
    assert_true(ck_policy_wave_taken(3, 0, 8));
    assert_false(ck_policy_wave_taken(3, 1, 8));
}

/* One cooperative launch at a time, on idle workers; the first waits for
 * every worker for a bounded number of passes; later ones take what is idle. */
static void test_coop_start(void **state)
{
    (void)state;
    assert_int_equal(ck_policy_coop_start(4, 7, 7, 1, 0, 0), 0);                     /* one is running */
    assert_int_equal(ck_policy_coop_start(4, 0, 7, 0, 3, 99), 0);                    /* nobody idle */
    assert_int_equal(ck_policy_coop_start(4, 3, 7, 0, 0, 10), 0);                    /* the first waits for all 7 */
    assert_int_equal(ck_policy_coop_start(9, 7, 7, 0, 0, 10), 7);                    /* ... and gets them */
    assert_int_equal(ck_policy_coop_start(9, 3, 7, 0, 0, CK_FIRST_START_PASSES), 3); /* waited enough */
    assert_int_equal(ck_policy_coop_start(9, 3, 7, 0, 0, CK_FIRST_START_PASSES - 1u), 0);
    assert_int_equal(ck_policy_coop_start(9, 3, 7, 0, 1, 0), 3); /* a later launch: what is idle */
    assert_int_equal(ck_policy_coop_start(2, 7, 7, 0, 1, 0), 2); /* no more than it asks */
}

/* Task demand is the published groups less the taken, never below zero,
 * across the counters' wrap. */
static void test_task_demand(void **state)
{
    (void)state;
    assert_int_equal(ck_policy_task_demand(10, 4), 6);
    assert_int_equal(ck_policy_task_demand(4, 10), 0); /* the taken count read later ran ahead */
    assert_int_equal(ck_policy_task_demand(3, 0xfffffffeu), 5);
    assert_int_equal(ck_policy_task_demand(0xfffffffeu, 3), 0);
}

/* Groups wanted: launch groups and task groups, up to the workers. */
static void test_demand(void **state)
{
    (void)state;
    assert_int_equal(ck_policy_demand(5, 3, 16), 8);
    assert_int_equal(ck_policy_demand(20, 10, 16), 16);
    assert_int_equal(ck_policy_demand(0, 0, 16), 0);
}

/* Kills cover what idle workers and killed groups on their way back do not. */
static void test_kills_wanted(void **state)
{
    (void)state;
    assert_int_equal(ck_policy_kills_wanted(8, 3, 2), 3);
    assert_int_equal(ck_policy_kills_wanted(5, 3, 2), 0);
    assert_int_equal(ck_policy_kills_wanted(4, 5, 0), 0);
    assert_int_equal(ck_policy_kills_wanted(4, 0, 0), 4);
    assert_int_equal(ck_policy_kills_wanted(0, 0, 0), 0);
}

/* The megakernel stops only with no launch in a slot and every posted task
 * visible and finished. */
static void test_may_stop(void **state)
{
    (void)state;
    assert_true(ck_policy_may_stop(0, 0, 0, 0));
    assert_true(ck_policy_may_stop(0, 5, 5, 5));
    assert_false(ck_policy_may_stop(1, 5, 5, 5));                     /* a launch still holds a slot */
    assert_false(ck_policy_may_stop(0, 6, 5, 5));                     /* a posted task not yet visible */
    assert_false(ck_policy_may_stop(0, 5, 5, 4));                     /* a visible task not finished */
    assert_true(ck_policy_may_stop(0, 4, 5, 5));                      /* the hint read behind the visible count */
    assert_false(ck_policy_may_stop(0, 1, 0xffffffffu, 0xffffffffu)); /* across the wrap */
}

/* One hot cluster per two workers, at least one, at most CK_HOT_MAX. */
static void test_hot_clusters(void **state)
{
    (void)state;
    assert_int_equal(ck_policy_hot_clusters(1), 1);
    assert_int_equal(ck_policy_hot_clusters(2), 1);
    assert_int_equal(ck_policy_hot_clusters(10), 5);
    assert_int_equal(ck_policy_hot_clusters(64), CK_HOT_MAX);
    assert_int_equal(ck_policy_hot_clusters(4223), CK_HOT_MAX);
}

/* Besides the hot workers, every idle worker looks once more groups are
 * wanted than there are clusters. */
static void test_all_look(void **state)
{
    (void)state;
    assert_false(ck_policy_all_look(0, 32));
    assert_false(ck_policy_all_look(32, 32));
    assert_true(ck_policy_all_look(33, 32));
}

/* The back-off doubles from 1 to 255; the poller never waits. */
static void test_backoff(void **state)
{
    (void)state;
    static const uint expect[] = {1, 3, 7, 15, 31, 63, 127, 255, 255};
    uint b = 0;
    for (unsigned i = 0; i < sizeof expect / sizeof expect[0]; ++i) {
        b = ck_policy_backoff(b, 0);
        assert_int_equal(b, expect[i]);
    }
    assert_int_equal(ck_policy_backoff(255, 1), 0);
    assert_int_equal(ck_policy_backoff(3, 5), 0);
}

/* A task scan starts among the newest tickets at an offset that moves with
 * each attempt, and from the oldest for the poller and after four lost
 * races in a row. */
static void test_task_spread(void **state)
{
    (void)state;
    assert_int_equal(ck_policy_task_spread(3, 0, 0), 3);
    assert_int_equal(ck_policy_task_spread(3, 7, 0), 10);
    assert_int_equal(ck_policy_task_spread(3, 15, 0), 0); /* four lost races: from the head */
    assert_int_equal(ck_policy_task_spread(3, 255, 0), 0);
    assert_int_equal(ck_policy_task_spread(3, 1, 1), 0); /* the poller */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wave),        cmocka_unit_test(test_wave_taken),   cmocka_unit_test(test_coop_start),
        cmocka_unit_test(test_task_demand), cmocka_unit_test(test_demand),       cmocka_unit_test(test_kills_wanted),
        cmocka_unit_test(test_may_stop),    cmocka_unit_test(test_hot_clusters), cmocka_unit_test(test_all_look),
        cmocka_unit_test(test_backoff),     cmocka_unit_test(test_task_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
