/* Shutdown that always ends, on PoCL (path argv[1], kernels argv[2]:
 * shutdown_kernels.cl):
 * - ck_context_destroy stops a cooperative kernel of every shape that never
 *   lets go (looping on offer_kill, request_fork, global barriers, resizing
 *   barriers, a barrier in a helper) within its timeout plus a bound, says
 *   what it cut short, and leaves the device usable by the next context;
 * - launches, tasks and launches through the task table cut short by the
 *   abort fail their waits with the reason, in the threads that wait;
 * - calls in flight in other threads (ck_wait, ck_task_wait_all, a
 *   ck_task_spawn waiting for a full table, ck_launch_kernel in a loop) are
 *   woken and waited for: they return errors, and nothing reads freed memory
 *   (the 'sanitize' suite runs this under ASan+UBSan);
 * - a second context built while a megakernel holds every PoCL thread gets
 *   an error within its timeout, and both contexts can then be destroyed. */
#define _GNU_SOURCE
#include "ck.h"
#include "context_support.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

static const char *path_name, *kernel_file;
static const char *const coop[] = {"loop_offer", "loop_fork", "loop_barrier", "loop_resizing", "loop_helper"};
#define N_COOP (sizeof coop / sizeof *coop)
/* The contexts' shutdown timeout: how long destroy waits for running launches. */
#define TIMEOUT_S 2.0
/* What destroy may take beyond it: the abort's own end. */
#define SLACK_S 20.0

static ck_context *open_ctx(int tasks, double shutdown_s)
{
    ck_context_options o = {.timeout_s = 120,
                            .shutdown_timeout_s = shutdown_s,
                            .arena_bytes = 1u << 20,
                            .quiet_warnings = 1,
                            .tasks = tasks};
    return support_open_context(o, path_name, kernel_file, coop, N_COOP);
}

/* A cooperative launch of `name` on every worker, reading *stop. */
static ck_launch *hold(ck_context *c, const char *name, ck_buffer stop)
{
    ck_arg a = ck_arg_buffer(stop);
    ck_launch *l;
    if (ck_launch_kernel(c, name, ck_context_workers(c), &a, 1, &l) != CK_OK)
        fail_msg("%s: %s", name, ck_last_error());
    return l;
}

/* destroy of a context whose cooperative kernel never stops: CK_ERR_TIMEOUT
 * within the bound, naming the launch and saying it was cut short. */
static void expect_destroy_aborts(ck_context *c, const char *name)
{
    double t0 = support_now_s();
    ck_status s = ck_context_destroy(c);
    double took = support_now_s() - t0;
    const char *m = ck_last_error();
    if (s != CK_ERR_TIMEOUT)
        fail_msg("%s: destroy gave %s, expected CK_ERR_TIMEOUT: %s", name, ck_status_name(s), m);
    if (took > TIMEOUT_S + SLACK_S)
        fail_msg("%s: destroy took %.1f s (timeout %.1f s)", name, took, TIMEOUT_S);
    char want[64];
    snprintf(want, sizeof want, "'%s'", name);
    if (!strstr(m, want) || !strstr(m, "aborted") || !strstr(m, "cut short") || strstr(m, "did not stop"))
        fail_msg("%s: destroy's message does not say it aborted and cut short the launch: %s", name, m);
}

/* A context that runs a launch to the end: the device is usable. */
static void expect_device_usable(void)
{
    ck_context *c = open_ctx(0, 30.0);
    ck_buffer n = support_zeroed_buffer(c, 4);
    ck_arg a = ck_arg_buffer(n);
    ck_launch *l;
    assert_int_equal(ck_launch_kernel(c, "count", 5, &a, 1, &l), CK_OK);
    if (ck_wait(l, 30) != CK_OK)
        fail_msg("after the aborts: %s", ck_last_error());
    uint32_t v = 0;
    assert_int_equal(ck_buffer_read(c, n, 0, &v, 4), CK_OK);
    assert_int_equal(v, 5);
    ck_launch_release(l);
    assert_int_equal(ck_context_destroy(c), CK_OK);
}

static void test_destroy_stops_every_shape(void **state)
{
    for (size_t k = 0; k < N_COOP; ++k) {
        ck_context *c = open_ctx(0, TIMEOUT_S);
        ck_buffer stop = support_zeroed_buffer(c, 16);
        ck_launch *l = hold(c, coop[k], stop);
        usleep(200 * 1000);
        assert_false(ck_launch_done(l));
        expect_destroy_aborts(c, coop[k]);
        /* The launch outlives its context, and says it never finished. */
        assert_int_equal(ck_wait(l, 1.0), CK_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(ck_last_error(), "destroyed before the launch finished"));
        assert_int_equal(ck_launch_release(l), CK_OK);
        print_message("%s: stopped by the abort\n", coop[k]);
    }
    expect_device_usable();
}

typedef struct {
    ck_context *ctx;
    ck_launch *launch;
    ck_task task;
    ck_kernel kernel;
    ck_buffer buf;
    ck_status status;
    char message[2048];
    unsigned calls; /* atomic: the main thread watches the spawner's count */
    int done;
} call;

static void note(call *c, ck_status s)
{
    c->status = s;
    snprintf(c->message, sizeof c->message, "%s", ck_last_error());
    __atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
}

static void *wait_launch(void *arg)
{
    call *c = arg;
    note(c, ck_wait(c->launch, 60.0));
    return NULL;
}

static void *wait_task(void *arg)
{
    call *c = arg;
    note(c, ck_task_wait(c->task, 60.0));
    return NULL;
}

static void *wait_all(void *arg)
{
    call *c = arg;
    note(c, ck_task_wait_all(c->ctx, 60.0));
    return NULL;
}

/* Spawns until a spawn fails: the table fills behind the kernel that holds
 * every worker, and the last spawn waits for an entry until destroy. */
static void *spawn_until_refused(void *arg)
{
    call *c = arg;
    ck_arg a = ck_arg_buffer(c->buf);
    ck_status s;
    ck_task t;
    do {
        s = ck_task_spawn(c->ctx, c->kernel, 1, &a, 1, 60.0, &t);
        __atomic_add_fetch(&c->calls, 1u, __ATOMIC_RELAXED);
    } while (s == CK_OK);
    note(c, s);
    return NULL;
}

/* Launches (through the scheduler: cooperative launches queue behind the
 * running one) until one is refused. */
static void *launch_until_refused(void *arg)
{
    call *c = arg;
    ck_arg a = ck_arg_buffer(c->buf);
    ck_status s;
    do {
        ck_launch *l = NULL;
        s = ck_launch_kernel(c->ctx, "loop_resizing", 1, &a, 1, &l);
        if (s == CK_OK)
            ck_launch_release(l);
        c->calls++;
        usleep(100 * 1000); /* slower than the scheduler takes them: the channel never fills */
    } while (s == CK_OK);
    note(c, s);
    return NULL;
}

static void expect_failed(const call *c, const char *what, const char *word)
{
    if (!c->done)
        fail_msg("%s did not return", what);
    if (c->status == CK_OK)
        fail_msg("%s returned CK_OK for work the abort cut short", what);
    if (word && !strstr(c->message, word))
        fail_msg("%s: '%s' lacks '%s'", what, c->message, word);
}

/* The waits of other threads return errors that say the work was cut
 * short; a spawn waiting for a full table and a loop of launches are
 * refused; destroy waits for all of them and frees nothing under them. */
static void test_destroy_while_calls_in_flight(void **state)
{
    ck_context *c = open_ctx(1, TIMEOUT_S);
    ck_buffer stop = support_zeroed_buffer(c, 16), n = support_zeroed_buffer(c, 4);
    ck_launch *hog = hold(c, "loop_barrier", stop);
    /* Until it runs on every worker: a task spawned before could still find
     * an idle worker and finish. */
    uint32_t running = 0;
    for (double t0 = support_now_s(); running != ck_context_workers(c) && support_now_s() - t0 < 60.0;) {
        usleep(10 * 1000);
        assert_int_equal(ck_buffer_read(c, stop, 8, &running, 4), CK_OK);
    }
    assert_int_equal(running, ck_context_workers(c));
    call w = {.ctx = c, .launch = hog}, t = {.ctx = c}, all = {.ctx = c}, tl = {.ctx = c}, sp = {.ctx = c, .buf = n},
         ln = {.ctx = c, .buf = n};
    assert_int_equal(ck_kernel_find(c, "count", &t.kernel), CK_OK);
    sp.kernel = t.kernel;
    ck_arg a = ck_arg_buffer(n);
    assert_int_equal(ck_task_spawn(c, t.kernel, 2, &a, 1, 0, &t.task), CK_OK);
    assert_int_equal(ck_launch_kernel(c, "count", 3, &a, 1, &tl.launch), CK_OK); /* through the task table */
    pthread_t th[6];
    assert_int_equal(pthread_create(&th[0], NULL, wait_launch, &w), 0);
    assert_int_equal(pthread_create(&th[1], NULL, wait_task, &t), 0);
    assert_int_equal(pthread_create(&th[2], NULL, wait_all, &all), 0);
    assert_int_equal(pthread_create(&th[3], NULL, wait_launch, &tl), 0);
    assert_int_equal(pthread_create(&th[4], NULL, spawn_until_refused, &sp), 0);
    assert_int_equal(pthread_create(&th[5], NULL, launch_until_refused, &ln), 0);
    /* Until the spawner has filled the table and waits for an entry. */
    for (int i = 0; i < 200 && __atomic_load_n(&sp.calls, __ATOMIC_RELAXED) < CK_TASK_TABLE_ENTRIES; ++i)
        usleep(10 * 1000);
    usleep(100 * 1000);
    expect_destroy_aborts(c, "loop_barrier");
    for (int i = 0; i < 6; ++i)
        pthread_join(th[i], NULL);
    expect_failed(&w, "ck_wait of the cooperative launch", "aborted");
    expect_failed(&t, "ck_task_wait", "aborted");
    expect_failed(&all, "ck_task_wait_all", "aborted");
    expect_failed(&tl, "ck_wait of a launch through the task table", "aborted");
    expect_failed(&sp, "ck_task_spawn into the full table", NULL);
    expect_failed(&ln, "ck_launch_kernel", NULL);
    print_message("after %u spawns and %u launches: %s / %s\n", sp.calls, ln.calls, sp.message, ln.message);
    ck_launch_release(hog);
    ck_launch_release(tl.launch);
    expect_device_usable();
}

/* A megakernel on every compute unit: another context's build returns
 * within its timeout instead of blocking in a wait on the device. On PoCL,
 * whose threads a group holds until it ends, it must be an error; a GPU
 * that time-slices contexts may run both. */
static void test_second_megakernel_on_a_busy_device(void **state)
{
    ck_context *a = open_ctx(0, 60.0);
    ck_buffer stop = support_zeroed_buffer(a, 16);
    ck_launch *hog = hold(a, "loop_barrier", stop);
    usleep(200 * 1000);
    ck_context_options o = {.timeout_s = 3.0, .quiet_warnings = 1};
    ck_path_parse(path_name, &o.device.path);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *b;
    assert_int_equal(ck_context_create(&o, &b), CK_OK);
    assert_int_equal(ck_context_add_file(b, kernel_file, coop, N_COOP), CK_OK);
    double t0 = support_now_s();
    ck_status s = ck_context_build(b);
    double took = support_now_s() - t0;
    print_message("second build: %s after %.1f s: %s\n", ck_status_name(s), took, s == CK_OK ? "" : ck_last_error());
    const ck_device_info *info = ck_context_device_info(a);
    if (info && info->is_cpu)
        assert_int_not_equal(s, CK_OK);
    if (took > o.timeout_s + 5.0)
        fail_msg("the second build took %.1f s with a timeout of %.1f s", took, o.timeout_s);
    /* Only stop[0]: the kernel's group 0 copies it to stop[1] between two
     * barriers, so that every group leaves the loop at the same iteration. */
    uint32_t one = 1;
    assert_int_equal(ck_buffer_write(a, stop, 0, &one, sizeof one), CK_OK);
    if (ck_wait(hog, 120) != CK_OK)
        fail_msg("the first context's kernel, let go: %s", ck_last_error());
    ck_launch_release(hog);
    assert_int_equal(ck_context_destroy(a), CK_OK);
    ck_context_destroy(b); /* its megakernel never ran; what it leaves is its own business */
    expect_device_usable();
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s cl20|cl12 shutdown_kernels.cl\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_destroy_stops_every_shape, support_close_contexts),
        cmocka_unit_test_teardown(test_destroy_while_calls_in_flight, support_close_contexts),
        cmocka_unit_test_teardown(test_second_megakernel_on_a_busy_device, support_close_contexts),
    };
    char name[64];
    snprintf(name, sizeof name, "shutdown-%s", path_name);
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
