/* The task API on PoCL (path argv[1], kernels argv[2], chaos seeds argv[3]):
 * tasks run with their logical ids and arguments, local memory, the most
 * argument words, bursts round the table at a work-group narrower than the
 * poll's words, errors that reserve nothing, four host threads spawning
 * with checks and waits interleaved, a full table (a spawn that times out
 * leaves the table intact, and everything runs once the table drains),
 * tasks and ordinary launches (which go through the table) beside a
 * cooperative kernel, also under chaos seeds, the launch path option, and
 * output there as soon as the host sees it done (each path's signal). */
#include "ck.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static const char *path_name, *kernel_file;
static unsigned chaos_seeds = 2;
static ck_context *ctx;
static unsigned wg;

/* A context with tasks; `group_size` 0 is the default work-group size. */
static ck_context *make_sized(uint64_t seed, int launch_path, unsigned group_size)
{
    ck_context_options o = {.timeout_s = 120,
                            .chaos_seed = seed,
                            .quiet_warnings = 1,
                            .tasks = 1,
                            .launch_path = launch_path,
                            .work_group_size = group_size};
    ck_path_parse(path_name, &o.device.path);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *c;
    if (ck_context_create(&o, &c) != CK_OK)
        fail_msg("%s", ck_last_error());
    const char *coop[] = {"hold", "counter"};
    if (ck_context_add_file(c, kernel_file, coop, 2) != CK_OK || ck_context_build(c) != CK_OK)
        fail_msg("%s", ck_last_error());
    return c;
}

static ck_context *make_with(uint64_t seed, int launch_path) { return make_sized(seed, launch_path, 0); }
static ck_context *make(uint64_t seed) { return make_with(seed, CK_LAUNCH_PATH_AUTO); }

static int setup(void **state)
{
    (void)state;
    ctx = make(0);
    wg = 64;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return !ctx || ck_context_destroy(ctx) == CK_OK ? 0 : -1;
}

static ck_kernel find(ck_context *c, const char *name)
{
    ck_kernel k;
    if (ck_kernel_find(c, name, &k) != CK_OK)
        fail_msg("%s", ck_last_error());
    return k;
}

static ck_task spawn(ck_context *c, ck_kernel k, unsigned groups, const ck_arg *a, size_t n)
{
    ck_task t;
    if (ck_task_spawn(c, k, groups, a, n, 60, &t) != CK_OK)
        fail_msg("%s", ck_last_error());
    return t;
}

static uint32_t stamp_value(uint32_t key, unsigned g, unsigned groups, unsigned lid)
{
    return key ^ (g << 20) ^ (groups << 26) ^ lid;
}

/* A zeroed host array of `words` words and a device buffer holding it. */
static uint32_t *zeroed_pair(ck_context *c, size_t words, ck_buffer *b)
{
    uint32_t *out = calloc(words, 4);
    assert_non_null(out);
    assert_int_equal(ck_buffer_alloc(c, words * 4, b), CK_OK);
    assert_int_equal(ck_buffer_write(c, *b, 0, out, words * 4), CK_OK);
    return out;
}

/* The stamps of n tasks of 1 + i % 4 groups of `width` work-items, task i
 * keyed mul * (i + 1): each group it has wrote its value, the rest zero. */
static void check_stamps(const uint32_t *out, unsigned n, unsigned width, uint32_t mul)
{
    for (unsigned i = 0; i < n; ++i) {
        unsigned groups = 1 + i % 4;
        for (unsigned g = 0; g < 4; ++g)
            for (unsigned l = 0; l < width; ++l) {
                uint32_t got = out[(size_t)i * 4 * width + g * width + l];
                uint32_t want = g < groups ? stamp_value(mul * (i + 1), g, groups, l) : 0u;
                if (got != want)
                    fail_msg("task %u group %u item %u: got %#x, want %#x", i, g, l, got, want);
            }
    }
}

/* 600 tasks of 1..4 groups: every work-item of every task wrote its value
 * (logical group ids, group count and both arguments arrived), and each
 * task's statistics say its group count. */
static void test_tasks_run_with_their_ids_and_arguments(void **state)
{
    (void)state;
    enum { N = 600 };
    size_t words = (size_t)N * 4 * wg;
    ck_buffer b;
    uint32_t *out = zeroed_pair(ctx, words, &b);
    ck_kernel k = find(ctx, "stamp");
    ck_task *tasks = calloc(N, sizeof *tasks);
    assert_non_null(tasks);
    for (unsigned i = 0; i < N; ++i) {
        ck_arg a[3] = {ck_arg_buffer(b), ck_arg_uint(i), ck_arg_uint(0x9e3779b9u * (i + 1))};
        tasks[i] = spawn(ctx, k, 1 + i % 4, a, 3);
        if (i)
            assert_true(tasks[i].ticket > tasks[i - 1].ticket);
    }
    for (unsigned i = 0; i < N; ++i) {
        assert_int_equal(ck_task_wait(tasks[i], 60), CK_OK);
        assert_int_equal(ck_task_check(tasks[i]), 1);
    }
    assert_int_equal(ck_buffer_read(ctx, b, 0, out, words * 4), CK_OK);
    check_stamps(out, N, wg, 0x9e3779b9u);
    ck_task_stats st;
    assert_int_equal(ck_task_get_stats(tasks[N - 1], &st), CK_OK);
    assert_int_equal(st.groups, 1 + (N - 1) % 4);
    assert_true(st.total_ms >= 0);
    assert_true(st.exec_ms == -1.0 || st.exec_ms >= 0); /* PoCL has no device clock: -1 */
    free(tasks);
    free(out);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* Bursts at a work-group narrower than the poll round's words (eight
 * work-items read the express line and up to sixteen pairs in turns): 5000
 * tasks of 1..4 groups spawned without a wait, so the poller publishes
 * whole windows from its rounds and the tickets go round the table (4096
 * entries) once; every work-item of every task wrote its value. Its own
 * context: the shared one goes first (on PoCL a running megakernel keeps
 * the device's threads, so a second one could not start beside it). */
static void test_bursts_round_the_table_at_a_narrow_group(void **state)
{
    (void)state;
    enum { N = 5000, G = 8 };
    if (ctx) {
        assert_int_equal(ck_context_destroy(ctx), CK_OK);
        ctx = NULL;
    }
    ck_context *c = make_sized(0, CK_LAUNCH_PATH_AUTO, G);
    size_t words = (size_t)N * 4 * G;
    ck_buffer b;
    uint32_t *out = zeroed_pair(c, words, &b);
    ck_kernel k = find(c, "stamp");
    for (unsigned i = 0; i < N; ++i) {
        ck_arg a[3] = {ck_arg_buffer(b), ck_arg_uint(i), ck_arg_uint(0x85ebca6bu * (i + 1))};
        spawn(c, k, 1 + i % 4, a, 3);
    }
    assert_int_equal(ck_task_wait_all(c, 60), CK_OK);
    assert_int_equal(ck_buffer_read(c, b, 0, out, words * 4), CK_OK);
    check_stamps(out, N, G, 0x85ebca6bu);
    free(out);
    assert_int_equal(ck_buffer_free(c, b), CK_OK);
    assert_int_equal(ck_context_destroy(c), CK_OK);
}

/* A local pointer argument gets its bytes from the pool; too many are
 * refused naming the parameter. The most argument words arrive intact. */
static void test_local_memory_and_most_argument_words(void **state)
{
    (void)state;
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, 64 * 8, &b), CK_OK);
    ck_kernel kl = find(ctx, "with_local");
    ck_arg a[3] = {ck_arg_buffer(b), ck_arg_uint(7), ck_arg_local(wg * 4)};
    assert_int_equal(ck_task_wait(spawn(ctx, kl, 1, a, 3), 60), CK_OK);
    uint32_t s;
    assert_int_equal(ck_buffer_read(ctx, b, 7 * 4, &s, 4), CK_OK);
    assert_int_equal(s, wg * (wg - 1) / 2 + 7 * wg);
    ck_task t;
    a[2] = ck_arg_local((size_t)1 << 20);
    assert_int_equal(ck_task_spawn(ctx, kl, 1, a, 3, 1, &t), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "'tmp'"));

    ck_kernel km = find(ctx, "many_args");
    ck_arg m[28];
    m[0] = ck_arg_buffer(b);
    uint64_t want = 0;
    for (unsigned i = 1; i < 28; ++i) {
        uint64_t v = 0x0123456789abcdefull * i + i;
        m[i] = ck_arg_ulong(v);
        want += (uint64_t)i * v;
    }
    assert_int_equal(ck_task_wait(spawn(ctx, km, 3, m, 28), 60), CK_OK);
    uint64_t got[3];
    assert_int_equal(ck_buffer_read(ctx, b, 0, got, sizeof got), CK_OK);
    for (unsigned g = 0; g < 3; ++g)
        assert_true(got[g] == want);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* A task's express line carries its first 15 argument words (7 arguments
 * of 64-bit slots); the rest sit in the entry's tail. 400 tasks alternating
 * 7 and 8 arguments (the 8th split across the line's end), of one group
 * (the poller may take the line) or two (published and claimed), each with
 * its own values: every group writes what the CPU computes. */
static void test_arguments_around_the_express_line(void **state)
{
    (void)state;
    enum { N = 400 };
    static const uint64_t weight[6] = {1, 3, 5, 7, 11, 13};
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, N * 2 * 8, &b), CK_OK);
    static uint64_t got[N * 2], want[N * 2];
    memset(want, 0, sizeof want);
    assert_int_equal(ck_buffer_write(ctx, b, 0, want, sizeof want), CK_OK);
    ck_kernel k7 = find(ctx, "args7"), k8 = find(ctx, "args8");
    for (unsigned i = 0; i < N; ++i) {
        unsigned eight = i % 2, groups = 1u + (i / 2) % 2;
        ck_arg a[8];
        a[0] = ck_arg_buffer(b);
        a[1] = ck_arg_uint(i);
        uint64_t sum = 0;
        for (unsigned j = 0; j < 4; ++j) {
            uint32_t v = 0x9e3779b9u * (i + 1u) + 0x85ebca6bu * j;
            a[2 + j] = ck_arg_uint(v);
            sum += weight[j] * v;
        }
        for (unsigned j = 4; j < 5u + eight; ++j) {
            uint64_t v = 0xd6e8feb86659fd93ull * (i + 1u) + 0xc2b2ae3d27d4eb4full * j;
            a[2 + j] = ck_arg_ulong(v);
            sum += weight[j] * v;
        }
        for (unsigned g = 0; g < groups; ++g)
            want[i * 2 + g] = sum ^ ((uint64_t)groups << 60);
        spawn(ctx, eight ? k8 : k7, groups, a, 7u + eight);
    }
    assert_int_equal(ck_task_wait_all(ctx, 60), CK_OK);
    assert_int_equal(ck_buffer_read(ctx, b, 0, got, sizeof got), CK_OK);
    for (unsigned i = 0; i < N * 2; ++i)
        if (got[i] != want[i])
            fail_msg("task %u (%u arguments) group %u wrote %#llx, not %#llx", i / 2, 7u + i / 2 % 2, i % 2,
                     (unsigned long long)got[i], (unsigned long long)want[i]);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* Every error is one line, reserves no ticket, and leaves the table usable. */
static void test_errors_reserve_nothing(void **state)
{
    (void)state;
    ck_buffer b;
    uint32_t c = 0;
    assert_int_equal(ck_buffer_alloc(ctx, 4096, &b), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, b, 0, &c, 4), CK_OK);
    ck_kernel k = find(ctx, "bump"), other;
    ck_task t;
    ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(0)};
    ck_task first = spawn(ctx, k, 1, a, 2);

    assert_int_equal(ck_kernel_find(ctx, "nope", &other), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "no kernel named 'nope'"));
    assert_int_equal(ck_kernel_find(ctx, "counter", &other), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "cooperative"));
    ck_kernel forged = {.ctx = NULL, .index = k.index};
    assert_int_equal(ck_task_spawn(ctx, forged, 1, a, 2, 1, &t), CK_ERR_INVALID_ARGUMENT);
    assert_int_equal(ck_task_spawn(ctx, k, 0, a, 2, 1, &t), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "group count 0"));
    assert_int_equal(ck_task_spawn(ctx, k, 65536, a, 2, 1, &t), CK_ERR_INVALID_ARGUMENT);
    assert_int_equal(ck_task_spawn(ctx, k, 1, a, 1, 1, &t), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "takes 2 arguments, 1 given"));
    ck_arg wrong[2] = {ck_arg_uint(1), ck_arg_uint(0)};
    assert_int_equal(ck_task_spawn(ctx, k, 1, wrong, 2, 1, &t), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "count')"));
    assert_int_equal(ck_task_spawn(ctx, k, 1, a, 2, -1, &t), CK_ERR_INVALID_ARGUMENT);
    assert_int_equal(ck_task_spawn(ctx, k, 1, NULL, 2, 1, &t), CK_ERR_INVALID_ARGUMENT);
    for (const char *m = ck_last_error(); *m; ++m)
        assert_true(*m != '\n');
    ck_task never = {.ctx = ctx, .ticket = first.ticket + 1000000};
    assert_int_equal(ck_task_wait(never, 1), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "never spawned"));
    assert_int_equal(ck_task_check(never), 1);

    ck_task next = spawn(ctx, k, 1, a, 2);
    assert_true(next.ticket == first.ticket + 1); /* nothing was reserved in between */
    assert_int_equal(ck_task_wait_all(ctx, 60), CK_OK);
    assert_int_equal(ck_buffer_read(ctx, b, 0, &c, 4), CK_OK);
    assert_int_equal(c, 2);
    ck_task_stats st;
    assert_int_equal(ck_task_get_stats(next, NULL), CK_ERR_INVALID_ARGUMENT);
    assert_int_equal(ck_task_get_stats(next, &st), CK_OK);
    assert_int_equal(st.groups, 1);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* Four host threads spawn at once, each checking and waiting on its own
 * tasks in between; every task runs exactly once. */
enum { THREADS = 4, PER_THREAD = 1500 };
typedef struct {
    ck_kernel k;
    ck_buffer b;
    unsigned id;
    int failed;
    char msg[256];
} spawner;

static void *spawner_main(void *p)
{
    spawner *sp = p;
    ck_task window[16];
    unsigned n = 0;
    for (unsigned i = 0; i < PER_THREAD; ++i) {
        ck_arg a[2] = {ck_arg_buffer(sp->b), ck_arg_uint(sp->id * PER_THREAD + i)};
        ck_task t;
        if (ck_task_spawn(ctx, sp->k, 1, a, 2, 60, &t) != CK_OK) {
            sp->failed = 1;
            snprintf(sp->msg, sizeof sp->msg, "spawn: %s", ck_last_error());
            return NULL;
        }
        window[n++] = t;
        if (i % 3 == 0) { /* checks interleaved: keep the unfinished ones */
            unsigned keep = 0;
            for (unsigned j = 0; j < n; ++j)
                if (!ck_task_check(window[j]))
                    window[keep++] = window[j];
            n = keep;
        }
        if (n == 16) {
            for (unsigned j = 0; j < n; ++j)
                if (ck_task_wait(window[j], 60) != CK_OK) {
                    sp->failed = 1;
                    snprintf(sp->msg, sizeof sp->msg, "wait: %s", ck_last_error());
                    return NULL;
                }
            n = 0;
        }
    }
    for (unsigned j = 0; j < n; ++j)
        if (ck_task_wait(window[j], 60) != CK_OK) {
            sp->failed = 1;
            snprintf(sp->msg, sizeof sp->msg, "wait: %s", ck_last_error());
        }
    return NULL;
}

static void test_four_threads_spawn_check_and_wait(void **state)
{
    (void)state;
    ck_buffer b;
    size_t bytes = THREADS * PER_THREAD * 4;
    assert_int_equal(ck_buffer_alloc(ctx, bytes, &b), CK_OK);
    uint32_t *count = calloc(THREADS * PER_THREAD, 4);
    assert_non_null(count);
    assert_int_equal(ck_buffer_write(ctx, b, 0, count, bytes), CK_OK);
    spawner sp[THREADS];
    pthread_t th[THREADS];
    for (unsigned i = 0; i < THREADS; ++i) {
        sp[i] = (spawner){.k = find(ctx, "bump"), .b = b, .id = i};
        assert_int_equal(pthread_create(&th[i], NULL, spawner_main, &sp[i]), 0);
    }
    for (unsigned i = 0; i < THREADS; ++i)
        pthread_join(th[i], NULL);
    for (unsigned i = 0; i < THREADS; ++i)
        if (sp[i].failed)
            fail_msg("thread %u: %s", i, sp[i].msg);
    assert_int_equal(ck_task_wait_all(ctx, 60), CK_OK);
    assert_int_equal(ck_buffer_read(ctx, b, 0, count, bytes), CK_OK);
    for (unsigned i = 0; i < THREADS * PER_THREAD; ++i)
        if (count[i] != 1)
            fail_msg("slot %u ran %u times", i, count[i]);
    free(count);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* A cooperative kernel that never yields holds every worker: the table
 * fills, the next spawn times out with a one-line message and takes no
 * ticket; once the kernel ends, every task runs once, and the spawn that
 * failed succeeds with the ticket it would have had. The kernel may start
 * with fewer groups than workers (a worker still on its way back from the
 * previous test's tasks is not idle yet: about one run in 130 on PoCL), so
 * it forks onto the others, and tasks are spawned only once it holds them
 * all: otherwise a free worker keeps emptying the table and it never stays
 * full. Before it, tasks of one group each waited for in turn, so that the
 * poller takes each alone (the express path, where it takes its idle unit
 * without waiting for the count): an idle count they left short keeps the
 * kernel below every worker, and the wait for all of them below fails
 * (checked: a path that took two units failed this test on PoCL). */
static void test_full_table_times_out_and_stays_intact(void **state)
{
    (void)state;
    unsigned n = CK_TASK_TABLE_ENTRIES, workers = ck_context_workers(ctx);
    ck_buffer flag, b, present;
    uint32_t zero = 0, one = 1;
    ck_kernel bump = find(ctx, "bump");
    assert_int_equal(ck_buffer_alloc(ctx, 4, &b), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, b, 0, &zero, 4), CK_OK);
    for (unsigned i = 0; i < 32; ++i) {
        ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(0)};
        ck_task t1 = spawn(ctx, bump, 1, a, 2);
        if (ck_task_wait(t1, 60) != CK_OK)
            fail_msg("task %u alone: %s", i, ck_last_error());
    }
    uint32_t ran = 0;
    assert_int_equal(ck_buffer_read(ctx, b, 0, &ran, 4), CK_OK);
    assert_int_equal(ran, 32);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
    assert_int_equal(ck_buffer_alloc(ctx, 4, &flag), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, flag, 0, &zero, 4), CK_OK);
    assert_int_equal(ck_buffer_alloc(ctx, (n + 1) * 4, &b), CK_OK);
    uint32_t *count = calloc(n + 1, 4), *seen = calloc(workers, 4);
    assert_non_null(count);
    assert_non_null(seen);
    assert_int_equal(ck_buffer_write(ctx, b, 0, count, (n + 1) * 4), CK_OK);
    assert_int_equal(ck_buffer_alloc(ctx, workers * 4, &present), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, present, 0, seen, workers * 4), CK_OK);
    ck_arg fa[2] = {ck_arg_buffer(flag), ck_arg_buffer(present)};
    ck_launch *hold;
    assert_int_equal(ck_launch_kernel(ctx, "hold", workers, fa, 2, &hold), CK_OK);
    unsigned held = 0;
    for (double t0 = now_s(); held < workers && now_s() - t0 < 60;) {
        assert_int_equal(ck_buffer_read(ctx, present, 0, seen, workers * 4), CK_OK);
        held = 0;
        for (unsigned i = 0; i < workers; ++i)
            held += seen[i] != 0;
    }
    if (held < workers)
        fail_msg("the holding kernel has %u of %u workers after 60 s", held, workers);
    free(seen);
    ck_kernel k = find(ctx, "bump");
    ck_task first = {0}, t;
    for (unsigned i = 0; i < n; ++i) {
        ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(i)};
        t = spawn(ctx, k, 1, a, 2);
        if (i == 0)
            first = t;
    }
    ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(n)};
    /* The hold may not have all workers yet: some early tasks may run, which
     * frees their entries, so spawn until one times out (at most n more). */
    ck_status s = CK_OK;
    unsigned extra = 0;
    for (; extra <= n && (s = ck_task_spawn(ctx, k, 1, a, 2, 0.5, &t)) == CK_OK; ++extra)
        ;
    assert_int_equal(s, CK_ERR_TIMEOUT);
    assert_non_null(strstr(ck_last_error(), "stayed full"));
    assert_null(strchr(ck_last_error(), '\n'));
    assert_int_equal(ck_buffer_write(ctx, flag, 0, &one, 4), CK_OK);
    assert_int_equal(ck_wait(hold, 60), CK_OK);
    ck_launch_release(hold);
    ck_task last = spawn(ctx, k, 1, a, 2);
    assert_true(last.ticket == first.ticket + n + extra); /* the failed spawn took no ticket */
    assert_int_equal(ck_task_wait_all(ctx, 60), CK_OK);
    assert_int_equal(ck_buffer_read(ctx, b, 0, count, (n + 1) * 4), CK_OK);
    for (unsigned i = 0; i < n; ++i)
        if (count[i] != 1)
            fail_msg("task %u ran %u times", i, count[i]);
    assert_int_equal(count[n], extra + 1);
    free(count);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
    assert_int_equal(ck_buffer_free(ctx, flag), CK_OK);
    assert_int_equal(ck_buffer_free(ctx, present), CK_OK);
}

/* Tasks beside a cooperative kernel that yields at offer_kill: both finish
 * with every unit counted once; with chaos seeds in contexts of their own. */
static ck_launch *run_beside_counter(ck_context *c)
{
    enum { TOTAL = 20000, TASKS = 400, LAUNCHES = 8 };
    ck_buffer nb, db, cb, lb;
    uint32_t zero = 0;
    uint32_t *done = calloc(TOTAL, 4);
    assert_non_null(done);
    assert_int_equal(ck_buffer_alloc(c, 4, &nb), CK_OK);
    assert_int_equal(ck_buffer_alloc(c, TOTAL * 4, &db), CK_OK);
    assert_int_equal(ck_buffer_alloc(c, TASKS * 4, &cb), CK_OK);
    assert_int_equal(ck_buffer_write(c, nb, 0, &zero, 4), CK_OK);
    assert_int_equal(ck_buffer_write(c, db, 0, done, TOTAL * 4), CK_OK);
    assert_int_equal(ck_buffer_write(c, cb, 0, done, TASKS * 4), CK_OK);
    assert_int_equal(ck_buffer_alloc(c, LAUNCHES * 4, &lb), CK_OK);
    assert_int_equal(ck_buffer_write(c, lb, 0, done, LAUNCHES * 4), CK_OK);
    ck_arg ca[3] = {ck_arg_buffer(nb), ck_arg_buffer(db), ck_arg_uint(TOTAL)};
    ck_launch *l;
    assert_int_equal(ck_launch_kernel(c, "counter", ck_context_workers(c), ca, 3, &l), CK_OK);
    ck_kernel k = find(c, "bump");
    ck_launch *ol[LAUNCHES];
    for (unsigned i = 0; i < TASKS; ++i) {
        ck_arg a[2] = {ck_arg_buffer(cb), ck_arg_uint(i)};
        spawn(c, k, 1 + i % 2, a, 2);
        if (i % (TASKS / LAUNCHES) == 0) { /* ordinary launches among the tasks */
            unsigned j = i / (TASKS / LAUNCHES);
            ck_arg la[2] = {ck_arg_buffer(lb), ck_arg_uint(j)};
            if (ck_launch_kernel(c, "bump", 1 + j % 3, la, 2, &ol[j]) != CK_OK)
                fail_msg("%s", ck_last_error());
        }
    }
    if (ck_task_wait_all(c, 120) != CK_OK || ck_wait(l, 120) != CK_OK)
        fail_msg("%s", ck_last_error());
    ck_launch_release(l);
    for (unsigned j = 0; j < LAUNCHES; ++j) {
        if (ck_wait(ol[j], 120) != CK_OK)
            fail_msg("launch %u: %s", j, ck_last_error());
        if (j + 1 < LAUNCHES)
            ck_launch_release(ol[j]);
    }
    assert_int_equal(ck_buffer_read(c, lb, 0, done, LAUNCHES * 4), CK_OK);
    for (unsigned j = 0; j < LAUNCHES; ++j)
        if (done[j] != 1 + j % 3)
            fail_msg("launch %u: %u groups ran, want %u", j, done[j], 1 + j % 3);
    assert_int_equal(ck_buffer_read(c, db, 0, done, TOTAL * 4), CK_OK);
    for (unsigned i = 0; i < TOTAL; ++i)
        if (done[i] != 1)
            fail_msg("unit %u counted %u times", i, done[i]);
    assert_int_equal(ck_buffer_read(c, cb, 0, done, TASKS * 4), CK_OK);
    for (unsigned i = 0; i < TASKS; ++i)
        if (done[i] != 1 + i % 2)
            fail_msg("task %u: %u groups ran, want %u", i, done[i], 1 + i % 2);
    free(done);
    return ol[LAUNCHES - 1]; /* finished, not released */
}

static void test_tasks_beside_a_cooperative_kernel(void **state)
{
    (void)state;
    ck_launch_release(run_beside_counter(ctx));
}

/* A launch through the table keeps its statistics after its entry was
 * reused, and one that nobody waited for before the reuse still reads as
 * done, without an error. */
/* 1 if the device stamps a task's groups (exec_ms known), as NVIDIA does. */
static int device_has_clock(ck_context *c)
{
    ck_kernel k = find(c, "bump");
    ck_buffer b;
    uint32_t z[4] = {0};
    assert_int_equal(ck_buffer_alloc(c, sizeof z, &b), CK_OK);
    assert_int_equal(ck_buffer_write(c, b, 0, z, sizeof z), CK_OK);
    ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(3)};
    ck_task t = spawn(c, k, 1, a, 2);
    assert_int_equal(ck_task_wait(t, 60), CK_OK);
    ck_task_stats st;
    assert_int_equal(ck_task_get_stats(t, &st), CK_OK);
    assert_int_equal(ck_buffer_free(c, b), CK_OK);
    return st.exec_ms >= 0;
}

/* A launch through the table keeps its statistics after its entry is
 * reused: ck_wait leaves them in the entry, and the spawn that takes the
 * entry copies them out first (on a device with a clock, exec_ms is known
 * only if that copy happened). */
static void test_launch_statistics_outlive_the_table_entry(void **state)
{
    (void)state;
    int clock = device_has_clock(ctx);
    ck_buffer b;
    uint32_t z[4] = {0};
    assert_int_equal(ck_buffer_alloc(ctx, sizeof z, &b), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, b, 0, z, sizeof z), CK_OK);
    ck_arg a0[2] = {ck_arg_buffer(b), ck_arg_uint(0)}, a1[2] = {ck_arg_buffer(b), ck_arg_uint(1)};
    ck_launch *seen, *unseen;
    assert_int_equal(ck_launch_kernel(ctx, "bump", 2, a0, 2, &seen), CK_OK);
    assert_int_equal(ck_wait(seen, 60), CK_OK);
    assert_int_equal(ck_launch_kernel(ctx, "bump", 3, a1, 2, &unseen), CK_OK);
    ck_kernel k = find(ctx, "bump");
    ck_arg a2[2] = {ck_arg_buffer(b), ck_arg_uint(2)};
    for (unsigned i = 0; i < CK_TASK_TABLE_ENTRIES + 1; ++i)
        spawn(ctx, k, 1, a2, 2);
    assert_int_equal(ck_task_wait_all(ctx, 60), CK_OK);
    assert_int_equal(ck_launch_done(unseen), 1);
    assert_int_equal(ck_wait(unseen, 60), CK_OK);
    ck_launch_stats st;
    assert_int_equal(ck_launch_get_stats(seen, &st), CK_OK);
    assert_int_equal(st.groups, 2);
    assert_true(st.total_ms > 0 && st.gather_ms == -1.0);
    if (clock)
        assert_true(st.exec_ms >= 0 && st.queue_ms >= 0 && st.exec_ms <= st.total_ms);
    else
        assert_true(st.exec_ms == -1.0 && st.queue_ms == -1.0);
    assert_int_equal(ck_launch_get_stats(unseen, &st), CK_OK);
    assert_int_equal(st.groups, 3);
    assert_true(st.total_ms > 0 && st.gather_ms == -1.0);
    assert_true(clock ? st.exec_ms >= 0 && st.queue_ms >= 0 : st.exec_ms == -1.0 && st.queue_ms == -1.0);
    assert_int_equal(ck_buffer_read(ctx, b, 0, z, sizeof z), CK_OK);
    assert_int_equal(z[0], 2);
    assert_int_equal(z[1], 3);
    assert_int_equal(z[2], CK_TASK_TABLE_ENTRIES + 1);
    ck_launch_release(seen);
    ck_launch_release(unseen);
    assert_int_equal(ck_buffer_free(ctx, b), CK_OK);
}

/* The copy of a launch's statistics races with the spawns that reuse its
 * entry and with its release: one thread launches, keeps every fourth
 * launch unreleased for a while, reads statistics and releases, while
 * another spawns tasks without pause, so that entries turn over under it. */
typedef struct {
    ck_kernel k;
    ck_buffer b;
    unsigned n;
    volatile int stop;
} churn;

static void *churn_main(void *p)
{
    churn *c = p;
    ck_arg a[2] = {ck_arg_buffer(c->b), ck_arg_uint(1)};
    while (!c->stop) {
        ck_task t;
        if (ck_task_spawn(ctx, c->k, 1, a, 2, 60, &t) != CK_OK)
            return "spawn failed";
        /* At most 256 in flight: the launches between them stay quick. */
        if (__atomic_add_fetch(&c->n, 1u, __ATOMIC_RELAXED) % 256 == 0 && ck_task_wait(t, 60) != CK_OK)
            return "wait failed";
    }
    return NULL;
}

static void test_statistics_copy_races_with_reuse_and_release(void **state)
{
    (void)state;
    enum { LAUNCHES = 1500, KEPT = 64 };
    churn c;
    memset(&c, 0, sizeof c);
    c.k = find(ctx, "bump");
    uint32_t z[4] = {0};
    assert_int_equal(ck_buffer_alloc(ctx, sizeof z, &c.b), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, c.b, 0, z, sizeof z), CK_OK);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, churn_main, &c), 0);
    ck_arg a[2] = {ck_arg_buffer(c.b), ck_arg_uint(0)};
    ck_launch *kept[KEPT] = {0};
    /* Until the spawns have turned every entry over a few times. */
    double deadline = now_s() + 120;
    unsigned launched = 0;
    for (unsigned i = 0; i < LAUNCHES || __atomic_load_n(&c.n, __ATOMIC_RELAXED) < 3u * CK_TASK_TABLE_ENTRIES; ++i) {
        assert_true(now_s() < deadline);
        launched++;
        ck_launch *l;
        assert_int_equal(ck_launch_kernel(ctx, "bump", 1, a, 2, &l), CK_OK);
        if (i % 3 == 0) /* released before it is done: its entry must forget it */
            assert_int_equal(ck_launch_release(l), CK_OK);
        else if (i % 4 == 0) { /* kept: later spawns reuse its entry and copy */
            unsigned s = (i / 4) % KEPT;
            if (kept[s]) {
                ck_launch_stats st;
                assert_int_equal(ck_wait(kept[s], 60), CK_OK);
                assert_int_equal(ck_launch_get_stats(kept[s], &st), CK_OK);
                assert_true(st.total_ms > 0 && st.groups == 1);
                assert_int_equal(ck_launch_release(kept[s]), CK_OK);
            }
            kept[s] = l;
        } else {
            ck_launch_stats st;
            assert_int_equal(ck_wait(l, 60), CK_OK);
            assert_int_equal(ck_launch_get_stats(l, &st), CK_OK);
            assert_true(st.total_ms > 0 && st.groups == 1);
            assert_int_equal(ck_launch_release(l), CK_OK);
        }
    }
    c.stop = 1;
    void *why = NULL;
    pthread_join(th, &why);
    assert_null(why);
    for (unsigned s = 0; s < KEPT; ++s)
        if (kept[s]) {
            ck_launch_stats st;
            assert_int_equal(ck_wait(kept[s], 60), CK_OK);
            assert_int_equal(ck_launch_get_stats(kept[s], &st), CK_OK);
            assert_true(st.total_ms > 0);
            assert_int_equal(ck_launch_release(kept[s]), CK_OK);
        }
    assert_int_equal(ck_task_wait_all(ctx, 60), CK_OK);
    assert_int_equal(ck_buffer_read(ctx, c.b, 0, z, sizeof z), CK_OK);
    assert_int_equal(z[0], launched);
    assert_int_equal(z[1], c.n);
    assert_int_equal(ck_buffer_free(ctx, c.b), CK_OK);
}

/* Last: the shared context goes first (one megakernel per device at a time). */
static void test_tasks_beside_a_cooperative_kernel_under_chaos(void **state)
{
    (void)state;
    assert_int_equal(ck_context_destroy(ctx), CK_OK);
    ctx = NULL;
    for (unsigned i = 0; i < chaos_seeds; ++i) {
        /* The last seed sends its launches to the scheduler as messages. */
        int by_message = chaos_seeds > 1 && i == chaos_seeds - 1;
        ck_context *c =
            make_with(0x7a5c0000u + i * 7919u, by_message ? CK_LAUNCH_PATH_SCHEDULER : CK_LAUNCH_PATH_AUTO);
        ck_kernel k = find(c, "bump");
        ck_buffer b;
        assert_int_equal(ck_buffer_alloc(c, 4, &b), CK_OK);
        ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(0)};
        ck_task t0, t1;
        ck_launch *one;
        assert_int_equal(ck_task_spawn(c, k, 1, a, 2, 60, &t0), CK_OK);
        assert_int_equal(ck_launch_kernel(c, "bump", 1, a, 2, &one), CK_OK);
        assert_int_equal(ck_task_spawn(c, k, 1, a, 2, 60, &t1), CK_OK);
        assert_int_equal(t1.ticket, t0.ticket + (by_message ? 1 : 2)); /* a ticket only through the table */
        assert_int_equal(ck_wait(one, 60), CK_OK);
        ck_launch_release(one);
        ck_launch *kept = run_beside_counter(c);
        assert_int_equal(ck_context_destroy(c), CK_OK);
        /* A finished launch outlives its context's destruction. */
        assert_int_equal(ck_launch_done(kept), 1);
        assert_int_equal(ck_wait(kept, 1), CK_OK);
        assert_int_equal(ck_launch_release(kept), CK_OK);
    }
}

/* What a task or launch wrote is there once the host sees it done: a relay
 * of rounds, each sent only after the host saw the one before done and
 * read the whole buffer, each checking on the device that the one before
 * wrote every word (a done signal that overtook the output fails either
 * check). Through tasks, launches through the table and launches as
 * messages (each path has its own done signal); a task's device times
 * come with its done state too: on a device with a clock every round
 * reports them, on one without none does. */
enum { RELAY_GROUPS = 3, RELAY_SHARE = 2048, RELAY_ROUNDS = 300 };

static void relay_round(ck_context *c, int by_task, ck_buffer b, ck_buffer stale, uint32_t round, int *timed)
{
    ck_arg a[4] = {ck_arg_buffer(b), ck_arg_uint(RELAY_SHARE), ck_arg_uint(round), ck_arg_buffer(stale)};
    if (by_task) {
        ck_task t = spawn(c, find(c, "relay"), RELAY_GROUPS, a, 4);
        ck_task_stats st;
        if (ck_task_wait(t, 60) != CK_OK || ck_task_get_stats(t, &st) != CK_OK)
            fail_msg("relay round %u: %s", round, ck_last_error());
        *timed += st.exec_ms >= 0;
    } else {
        ck_launch *l;
        if (ck_launch_kernel(c, "relay", RELAY_GROUPS, a, 4, &l) != CK_OK || ck_wait(l, 60) != CK_OK)
            fail_msg("relay round %u: %s", round, ck_last_error());
        ck_launch_release(l);
    }
}

static void relay(ck_context *c, int by_task)
{
    ck_buffer b, stale;
    uint32_t *got = zeroed_pair(c, RELAY_GROUPS * RELAY_SHARE, &b);
    free(zeroed_pair(c, 1, &stale));
    int timed = 0;
    for (uint32_t r = 1; r <= RELAY_ROUNDS; ++r) {
        relay_round(c, by_task, b, stale, r, &timed);
        assert_int_equal(ck_buffer_read(c, b, 0, got, RELAY_GROUPS * RELAY_SHARE * 4), CK_OK);
        for (unsigned i = 0; i < RELAY_GROUPS * RELAY_SHARE; ++i)
            if (got[i] != r)
                fail_msg("%s, round %u: word %u holds %u once the host saw it done", by_task ? "tasks" : "launches",
                         r, i, got[i]);
    }
    uint32_t bad;
    assert_int_equal(ck_buffer_read(c, stale, 0, &bad, 4), CK_OK);
    if (bad)
        fail_msg("%s: %u words were stale when the next round read them", by_task ? "tasks" : "launches", bad);
    if (by_task && timed != 0 && timed != RELAY_ROUNDS)
        fail_msg("tasks: %d of %d rounds had their device times when the host saw them done", timed, RELAY_ROUNDS);
    free(got);
}

/* After the tests that destroy the shared context. */
static void test_output_is_there_when_done(void **state)
{
    (void)state;
    ck_context *c = make(0);
    relay(c, 1);
    relay(c, 0); /* through the table */
    assert_int_equal(ck_context_destroy(c), CK_OK);
    c = make_with(0, CK_LAUNCH_PATH_SCHEDULER);
    relay(c, 0);
    assert_int_equal(ck_context_destroy(c), CK_OK);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s cl20|cl12 task_kernels.cl [chaos seeds]\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    if (argc > 3)
        chaos_seeds = (unsigned)strtoul(argv[3], NULL, 10);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tasks_run_with_their_ids_and_arguments),
        cmocka_unit_test(test_local_memory_and_most_argument_words),
        cmocka_unit_test(test_arguments_around_the_express_line),
        cmocka_unit_test(test_errors_reserve_nothing),
        cmocka_unit_test(test_four_threads_spawn_check_and_wait),
        cmocka_unit_test(test_full_table_times_out_and_stays_intact),
        cmocka_unit_test(test_tasks_beside_a_cooperative_kernel),
        cmocka_unit_test(test_launch_statistics_outlive_the_table_entry),
        cmocka_unit_test(test_statistics_copy_races_with_reuse_and_release),
        cmocka_unit_test(test_tasks_beside_a_cooperative_kernel_under_chaos),
        cmocka_unit_test(test_bursts_round_the_table_at_a_narrow_group),
        cmocka_unit_test(test_output_is_there_when_done),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
