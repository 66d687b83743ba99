/* Integration tests of occupancy discovery on PoCL, on the path argv[1].
 * argv[2] is the occupancy the test expects for small work-groups: the
 * PoCL thread pool size ("cores" means the machine's online cores). */
#define _DEFAULT_SOURCE /* unsetenv */
#include "support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static const char *path_name;
static unsigned expected;
static ck_device *dev;

static int setup(void **state)
{
    dev = support_open_pocl(path_name);
    return 0;
}

static int teardown(void **state)
{
    ck_device_close(dev);
    return 0;
}

static ck_occupancy_result discover(size_t wg, size_t launch, unsigned rounds)
{
    ck_occupancy_options o = {.work_group_size = wg,
                              .launch_groups = launch,
                              .barrier_rounds = rounds,
                              .timeout_s = 120};
    ck_occupancy_result r;
    if (ck_occupancy_discover(dev, &o, &r) != CK_OK)
        fail_msg("discovery (wg %zu, launch %zu): %s", wg, launch, ck_last_error());
    return r;
}

static void test_discovers_the_thread_pool(void **state)
{
    ck_occupancy_result r = discover(64, 0, 50);
    assert_int_equal(r.occupancy, expected);
    assert_true(r.launched > expected);
    assert_int_equal(r.barrier_failures, 0);
}

static void test_small_launch_is_fully_resident(void **state)
{
    assert_int_equal(discover(16, 1, 10).occupancy, 1);
    unsigned want = expected < 3 ? expected : 3;
    assert_int_equal(discover(16, want, 10).occupancy, want);
}

static void test_single_work_item_groups(void **state)
{
    assert_int_equal(discover(1, 4096, 10).occupancy, expected);
}

static void test_many_barrier_rounds_order_memory(void **state)
{
    ck_occupancy_result r = discover(32, 0, 300);
    assert_int_equal(r.barrier_failures, 0);
}

/* If discovery over-counted, the barrier would wait for a group that is not
 * running. The overcount hook simulates exactly that: the probe must time
 * out, abort the kernel and leave the device usable. */
static void test_overcount_times_out_and_recovers(void **state)
{
    ck_occupancy_options o = {.work_group_size = 16,
                              .launch_groups = 0,
                              .barrier_rounds = 5,
                              .timeout_s = 3,
                              .overcount = 1};
    ck_occupancy_result r;
    assert_int_equal(ck_occupancy_discover(dev, &o, &r), CK_ERR_TIMEOUT);
    assert_non_null(strstr(ck_last_error(), "not running"));
    assert_int_equal(discover(16, 0, 5).occupancy, expected);
}

static void test_bad_arguments(void **state)
{
    ck_occupancy_result r;
    ck_occupancy_options o = {.work_group_size = 0};
    assert_int_equal(ck_occupancy_discover(dev, &o, &r), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "work-group size 0"));
    o.work_group_size = 64;
    o.launch_groups = CK_LAUNCH_ZERO;
    assert_int_equal(ck_occupancy_discover(dev, &o, &r), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "launch size 0"));
    o.launch_groups = 0;
    o.work_group_size = dev->info.max_work_group_size + 1;
    assert_int_equal(ck_occupancy_discover(dev, &o, &r), CK_ERR_INVALID_ARGUMENT);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s cl20|cl12 N|cores\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    if (!strcmp(argv[2], "cores"))
        unsetenv("POCL_MAX_PTHREAD_COUNT"); /* PoCL's default pool */
    expected = !strcmp(argv[2], "cores") ? (unsigned)sysconf(_SC_NPROCESSORS_ONLN) : (unsigned)atoi(argv[2]);
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_discovers_the_thread_pool),
        cmocka_unit_test(test_small_launch_is_fully_resident),
        cmocka_unit_test(test_single_work_item_groups),
        cmocka_unit_test(test_many_barrier_rounds_order_memory),
        cmocka_unit_test(test_overcount_times_out_and_recovers),
        cmocka_unit_test(test_bad_arguments),
    };
    char name[64];
    snprintf(name, sizeof name, "occupancy-%s-%s", path_name, argv[2]);
    /* With the default pool only the pool-size check matters. */
    size_t n = !strcmp(argv[2], "cores") ? 1 : sizeof all / sizeof all[0];
    return _cmocka_run_group_tests(name, all, n, setup, teardown);
}
