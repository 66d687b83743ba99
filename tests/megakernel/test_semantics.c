/* The semantic rules of docs/DESIGN.md §2, checked from inside running
 * cooperative kernels (semantics.cl) on PoCL, on the path of argv[1]:
 * kills take only the highest id and never 0, ids stay contiguous and
 * unique, forked groups get thread 0's transmit values, M only moves at
 * resizing barriers, barriers order memory, a group dropped by one launch
 * never joins the next launch in its slot, gathers take only the groups an
 * ordinary launch needs. Each runs with the scheduler's
 * real choices (ordinary launches force gathers) and under chaos seeds.
 * Every chaos context records its schedule (tests/chaos_harness.h); when a
 * test fails inside one, the seed, the record and a command that reruns just
 * that seed of that test under replay are printed. */
#define _GNU_SOURCE /* realpath */
#include "../chaos_harness.h"
#include "ck.h"

#include <limits.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define BUSY_WORDS (1u << 14) /* words of busy's output buffer */

static const char *path_name, *kernel_file;
static unsigned chaos_seeds = 20;
static char self[PATH_MAX], kernel_abs[PATH_MAX];
static uint64_t only_seed;    /* nonzero: run only the contexts of this chaos seed */
static chaos_harness harness; /* the open chaos context's record               */
static int harness_open;
static const char *test_name; /* the running test, for the replay command      */

/* Contexts to run: all, or only the one seed a replay command names (the
 * non-chaos contexts are skipped then). */
static int wanted(uint64_t seed) { return !only_seed || seed == only_seed; }

typedef struct {
    ck_context *ctx;
    ck_buffer bad, seen, scratch, busy_out, extra;
    const char *busy; /* the ordinary kernel run() launches beside */
} fixture;

static char kernel_dir[PATH_MAX]; /* the folder of semantics.cl and helper_*.cl */

/* Kernels with fork points inside helper functions: each is built alone with
 * helper_common.cl (its ordinary kernel hf_busy stands in for busy). */
static const char *const helper_kernels[] = {"helper_depth2", "helper_two_sites", "helper_tasks"};

static fixture open_ctx_with(uint64_t seed, int naive, int helper);
static fixture open_ctx(uint64_t seed, int naive) { return open_ctx_with(seed, naive, -1); }

/* helper >= 0: builds helper_common.cl and helper_kernels[helper]'s file
 * instead of semantics.cl. */
static fixture open_ctx_with(uint64_t seed, int naive, int helper)
{
    fixture f;
    memset(&f, 0, sizeof f);
    ck_context_options o = {.chaos_seed = seed, .naive_resizing_barrier = naive, .timeout_s = 120};
    if (ck_path_parse(path_name, &o.device.path) != CK_OK)
        fail_msg("bad path %s", path_name);
    if (seed) {
        chaos_harness_begin(&harness, &o);
        harness_open = 1;
    }
    /* PoCL unless CK_DEVICE names another device (the H100 run does). */
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    if (ck_context_create(&o, &f.ctx) != CK_OK)
        fail_msg("%s", ck_last_error());
    const char *coop[] = {"kill_fork_rules", "resizing_rules", "barrier_ordering", "hog", "relaunch_rounds"};
    char common[PATH_MAX + 32], own[PATH_MAX + 32];
    f.busy = "busy";
    if (helper >= 0) {
        snprintf(common, sizeof common, "%s/helper_common.cl", kernel_dir);
        snprintf(own, sizeof own, "%s/%s.cl", kernel_dir, helper_kernels[helper]);
        f.busy = "hf_busy";
        if (ck_context_add_file(f.ctx, common, NULL, 0) != CK_OK ||
            ck_context_add_file(f.ctx, own, &helper_kernels[helper], 1) != CK_OK || ck_context_build(f.ctx) != CK_OK)
            fail_msg("%s", ck_last_error());
    } else if (ck_context_add_file(f.ctx, kernel_file, coop, 5) != CK_OK || ck_context_build(f.ctx) != CK_OK) {
        fail_msg("%s", ck_last_error());
    }
    assert_true(ck_context_workers(f.ctx) >= 3);
    assert_int_equal(ck_buffer_alloc(f.ctx, 16 * 4, &f.bad), CK_OK);
    assert_int_equal(ck_buffer_alloc(f.ctx, 16 * 4, &f.seen), CK_OK);
    assert_int_equal(ck_buffer_alloc(f.ctx, 1 << 16, &f.scratch), CK_OK);
    assert_int_equal(ck_buffer_alloc(f.ctx, BUSY_WORDS * 4, &f.busy_out), CK_OK);
    assert_int_equal(ck_buffer_alloc(f.ctx, 1 << 16, &f.extra), CK_OK);
    return f;
}

/* Destroys a context that passed its checks (its record is deleted). */
static ck_status close_ctx(fixture *f)
{
    ck_status s = ck_context_destroy(f->ctx);
    if (harness_open) {
        harness_open = 0;
        chaos_harness_end(&harness, 0, "", NULL, 0);
    }
    return s;
}

/* Teardown: a test that failed inside a chaos context keeps its record and
 * prints how to replay just that context. */
static int report_chaos_failure(void **state)
{
    (void)state;
    if (harness_open) {
        harness_open = 0;
        char command[3 * PATH_MAX];
        snprintf(command, sizeof command, "%s %s %s =%llu '%s'", self, path_name, kernel_abs,
                 (unsigned long long)harness.seed, test_name ? test_name : "*");
        chaos_harness_end(&harness, 1, command, NULL, 0);
    }
    return 0;
}

static void zero(fixture *f, ck_buffer b)
{
    static const uint32_t z[1 << 14];
    assert_int_equal(ck_buffer_write(f->ctx, b, 0, z, b.size < sizeof z ? b.size : sizeof z), CK_OK);
}

/* Runs a cooperative launch while `stream` ordinary launches of the given
 * group counts run beside it; returns its stats. */
static ck_launch_stats run(fixture *f, const char *name, const ck_arg *args, size_t n, unsigned stream)
{
    zero(f, f->bad);
    zero(f, f->seen);
    zero(f, f->scratch);
    unsigned W = ck_context_workers(f->ctx);
    ck_launch *l;
    if (ck_launch_kernel(f->ctx, name, W, args, n, &l) != CK_OK)
        fail_msg("%s", ck_last_error());
    const unsigned counts[4] = {1, W / 4 ? W / 4 : 1, W / 2 ? W / 2 : 1, W - 1 ? W - 1 : 1};
    for (unsigned i = 0; i < stream; ++i) {
        ck_arg a[3] = {ck_arg_buffer(f->busy_out), ck_arg_uint(2000), ck_arg_uint(BUSY_WORDS)};
        ck_launch *b;
        if (ck_launch_kernel(f->ctx, f->busy, counts[i % 4], a, 3, &b) != CK_OK || ck_wait(b, 60) != CK_OK)
            fail_msg("ordinary launch %u: %s", i, ck_last_error());
        ck_launch_release(b);
    }
    if (ck_wait(l, 120) != CK_OK)
        fail_msg("%s: %s", name, ck_last_error());
    ck_launch_stats st;
    assert_int_equal(ck_launch_get_stats(l, &st), CK_OK);
    ck_launch_release(l);
    return st;
}

static void read_words(fixture *f, ck_buffer b, uint32_t *w, size_t n)
{
    assert_int_equal(ck_buffer_read(f->ctx, b, 0, w, n * 4), CK_OK);
}

static void check_kill_fork(fixture *f, unsigned stream, unsigned *kills, unsigned *forked_threads)
{
    ck_arg a[4] = {ck_arg_buffer(f->bad), ck_arg_buffer(f->seen), ck_arg_buffer(f->scratch), ck_arg_uint(300)};
    ck_launch_stats st = run(f, "kill_fork_rules", a, 4, stream);
    uint32_t bad[4], seen[4];
    read_words(f, f->bad, bad, 4);
    read_words(f, f->seen, seen, 4);
    if (bad[0] || bad[1] || bad[2])
        fail_msg("kill/fork rules broken: %u live groups with id >= M, %u duplicate ids, %u wrong transmit values",
                 bad[0], bad[1], bad[2]);
    assert_true(seen[0] >= 300);  /* group 0 alone does 300 steps */
    assert_int_equal(seen[1], 1); /* group 0 finished: never killed */
    *kills += st.kills;
    *forked_threads += seen[2];
}

static void test_kill_and_fork_rules(void **state)
{
    unsigned kills = 0, forked = 0;
    fixture f;
    test_name = "test_kill_and_fork_rules";
    if (wanted(0)) {
        f = open_ctx(0, 0);
        check_kill_fork(&f, 8, &kills, &forked); /* real scheduler: gathers for ordinary launches */
        close_ctx(&f);
    }
    for (unsigned seed = 1; seed <= chaos_seeds; ++seed) {
        if (!wanted(seed))
            continue;
        f = open_ctx(seed, 0);
        check_kill_fork(&f, seed % 3, &kills, &forked);
        close_ctx(&f);
    }
    print_message("kills %u, forked threads checked %u\n", kills, forked);
    if (!only_seed) { /* one replayed seed need not kill or fork */
        assert_true(kills > 0);
        assert_true(forked > 0);
    }
}

static void check_resizing(fixture *f, unsigned stream, unsigned *resizes)
{
    ck_arg a[5] = {ck_arg_buffer(f->bad), ck_arg_buffer(f->seen), ck_arg_buffer(f->scratch), ck_arg_uint(60),
                   ck_arg_uint(4096)};
    ck_launch_stats st = run(f, "resizing_rules", a, 5, stream);
    uint32_t bad[4], seen[4];
    read_words(f, f->bad, bad, 4);
    read_words(f, f->seen, seen, 4);
    if (bad[0] || bad[1] || bad[2] || bad[3])
        fail_msg("resizing rules broken: %u ids >= M, %u stale reads after a barrier, %u changes of M inside an "
                 "interval, %u changes across a plain barrier",
                 bad[0], bad[1], bad[2], bad[3]);
    assert_int_equal(seen[1], 60);
    *resizes += st.resizes;
}

static void resizing_suite(int naive)
{
    unsigned resizes = 0;
    fixture f;
    test_name = naive ? "test_resizing_rules_naive_form" : "test_resizing_rules_query_form";
    if (wanted(0)) {
        f = open_ctx(0, naive);
        check_resizing(&f, 8, &resizes);
        close_ctx(&f);
    }
    for (unsigned seed = 1; seed <= chaos_seeds; ++seed) {
        if (!wanted(100 + seed))
            continue;
        f = open_ctx(100 + seed, naive);
        check_resizing(&f, seed % 3, &resizes);
        close_ctx(&f);
    }
    print_message("resizes %u\n", resizes);
    assert_true(resizes > 0 || only_seed);
}

static void test_resizing_rules_query_form(void **state) { resizing_suite(0); }
static void test_resizing_rules_naive_form(void **state) { resizing_suite(1); }

static void test_barrier_orders_memory(void **state)
{
    test_name = "test_barrier_orders_memory";
    for (unsigned seed = 0; seed <= 3; ++seed) {
        if (!wanted(seed))
            continue;
        fixture f = open_ctx(seed, 0);
        ck_arg a[4] = {ck_arg_buffer(f.bad), ck_arg_buffer(f.seen), ck_arg_buffer(f.scratch), ck_arg_uint(300)};
        run(&f, "barrier_ordering", a, 4, 0); /* it never yields: no ordinary launch beside it */
        uint32_t bad, seen;
        read_words(&f, f.bad, &bad, 1);
        read_words(&f, f.seen, &seen, 1);
        assert_int_equal(bad, 0);
        assert_int_equal(seen, 300);
        close_ctx(&f);
    }
}

/* After a relaunch_rounds launch (counts in f->scratch, M' in f->extra):
 * every round counted exactly M' groups. Writes the first mismatch to why. */
static void check_rounds(fixture *f, unsigned rounds, const char *where, char *why, size_t why_len)
{
    static uint32_t count[1u << 14], mprime[1u << 14];
    read_words(f, f->scratch, count, rounds);
    read_words(f, f->extra, mprime, rounds);
    for (unsigned r = 0; r < rounds && !why[0]; ++r)
        if (mprime[r] == 0 || count[r] != mprime[r])
            snprintf(why, why_len,
                     "%s, round %u: %u groups counted themselves after a barrier that released M' = %u", where, r,
                     count[r], mprime[r]);
}

/* Back-to-back launches of one cooperative kernel in one context, under
 * chaos: a group dropped at a barrier may see the release only after its
 * launch has finished and the next launch is using the same slot, possibly at
 * the same barrier sequence number. It must leave, not join the new launch
 * (found as a rare hang of the BFS chaos runs). The window is a matter of
 * thread scheduling, so this test catches a broken rule often, not always. */
static void relaunch_suite(int naive)
{
    enum { ROUNDS = 4, LAUNCHES = 150 };
    unsigned resizes = 0;
    char why[4096] = "";
    test_name = naive ? "test_relaunch_naive_form" : "test_relaunch_query_form";
    for (unsigned seed = 1; seed <= 3 && !why[0]; ++seed) {
        if (!wanted(300 + seed + 10 * (unsigned)naive))
            continue;
        fixture f = open_ctx(300 + seed + 10 * (unsigned)naive, naive);
        unsigned W = ck_context_workers(f.ctx);
        for (unsigned i = 0; i < LAUNCHES && !why[0]; ++i) {
            zero(&f, f.scratch);
            zero(&f, f.extra);
            ck_arg a[3] = {ck_arg_buffer(f.scratch), ck_arg_buffer(f.extra), ck_arg_uint(ROUNDS)};
            ck_launch *l;
            if (ck_launch_kernel(f.ctx, "relaunch_rounds", W, a, 3, &l) != CK_OK) {
                snprintf(why, sizeof why, "seed %u, launch %u: %s", seed, i, ck_last_error());
                break;
            }
            ck_launch_stats st;
            if (ck_wait(l, 60) != CK_OK || ck_launch_get_stats(l, &st) != CK_OK) {
                snprintf(why, sizeof why, "seed %u, launch %u: %s", seed, i, ck_last_error());
                ck_launch_release(l);
                break;
            }
            resizes += st.resizes;
            ck_launch_release(l);
            char where[64];
            snprintf(where, sizeof where, "seed %u, launch %u", seed, i);
            check_rounds(&f, ROUNDS, where, why, sizeof why);
        }
        /* Destroy before failing: a megakernel left running would hold every
         * PoCL thread and starve the tests after this one. A failing seed
         * keeps its record open for the teardown's replay command. */
        if (why[0]) {
            ck_context_destroy(f.ctx);
        } else if (close_ctx(&f) != CK_OK) {
            snprintf(why, sizeof why, "destroy: %s", ck_last_error());
        }
    }
    if (why[0])
        fail_msg("%s", why);
    print_message("resizes %u\n", resizes);
    assert_true(resizes > 0 || only_seed);
}

static void test_relaunch_query_form(void **state) { relaunch_suite(0); }
static void test_relaunch_naive_form(void **state) { relaunch_suite(1); }

/* The non-functional contract: the scheduler takes back only the groups an
 * ordinary launch needs. A cooperative kernel that passes resizing barriers
 * back to back reaches its next barrier before the groups dropped at the
 * last one are back on the free list; counting those as still missing would
 * take them twice (all but one group where half were asked for). */
static void test_gathers_take_only_what_is_needed(void **state)
{
    enum { ROUNDS = 2000, TRIALS = 24 };
    fixture f = open_ctx(0, 0);
    unsigned W = ck_context_workers(f.ctx), kills = 0;
    char why[4096] = "";
    for (unsigned t = 0; t < TRIALS && !why[0]; ++t) {
        zero(&f, f.scratch);
        zero(&f, f.extra);
        ck_arg a[3] = {ck_arg_buffer(f.scratch), ck_arg_buffer(f.extra), ck_arg_uint(ROUNDS)};
        ck_launch *l, *b;
        if (ck_launch_kernel(f.ctx, "relaunch_rounds", W, a, 3, &l) != CK_OK) {
            snprintf(why, sizeof why, "trial %u: %s", t, ck_last_error());
            break;
        }
        unsigned need = t % 2 ? W - 1 : 1;
        ck_arg ba[3] = {ck_arg_buffer(f.busy_out), ck_arg_uint(200), ck_arg_uint(BUSY_WORDS)};
        if (ck_launch_kernel(f.ctx, "busy", need, ba, 3, &b) == CK_OK) {
            if (ck_wait(b, 60) != CK_OK)
                snprintf(why, sizeof why, "trial %u, ordinary launch: %s", t, ck_last_error());
            ck_launch_release(b);
        } else {
            snprintf(why, sizeof why, "trial %u, ordinary launch: %s", t, ck_last_error());
        }
        ck_launch_stats st;
        if (ck_wait(l, 120) != CK_OK || ck_launch_get_stats(l, &st) != CK_OK) {
            if (!why[0])
                snprintf(why, sizeof why, "trial %u: %s", t, ck_last_error());
        } else if (st.kills > need && !why[0]) {
            snprintf(why, sizeof why, "trial %u: the scheduler took %u groups back for an ordinary launch of %u", t,
                     st.kills, need);
        } else {
            kills += st.kills;
        }
        ck_launch_release(l);
        char where[32];
        snprintf(where, sizeof where, "trial %u", t);
        check_rounds(&f, ROUNDS, where, why, sizeof why);
    }
    /* Destroy before failing (see relaunch_suite). */
    if (close_ctx(&f) != CK_OK && !why[0])
        snprintf(why, sizeof why, "destroy: %s", ck_last_error());
    if (why[0])
        fail_msg("%s", why);
    print_message("kills %u over %u gathers\n", kills, TRIALS);
    assert_true(kills > 0);
}

/* A cooperative kernel that never yields: an ordinary launch must time out
 * with a message naming it, and everything completes once it is let go. */
static void test_kernel_that_does_not_yield(void **state)
{
    fixture f = open_ctx(0, 0);
    zero(&f, f.scratch);
    unsigned W = ck_context_workers(f.ctx);
    ck_arg a[2] = {ck_arg_buffer(f.scratch), ck_arg_buffer(f.bad)};
    ck_launch *hog, *b;
    assert_int_equal(ck_launch_kernel(f.ctx, "hog", W, a, 2, &hog), CK_OK);
    ck_arg ba[3] = {ck_arg_buffer(f.busy_out), ck_arg_uint(10), ck_arg_uint(BUSY_WORDS)};
    assert_int_equal(ck_launch_kernel(f.ctx, "busy", W, ba, 3, &b), CK_OK);
    /* The message says what the device's memory has: until the scheduler
     * has taken 'busy' from the channel and asked 'hog' for its workers (on
     * a loaded 2-core machine that can take over a second) it says so;
     * after that it must name the holder. */
    const char *m = "";
    for (int tries = 0; tries < 20 && !strstr(m, "does not yield"); ++tries) {
        assert_int_equal(ck_wait(b, 1.0), CK_ERR_TIMEOUT);
        m = ck_last_error();
        if (!strstr(m, "does not yield") && !strstr(m, "has not taken its launch message") &&
            !strstr(m, "no kill asked yet"))
            break;
    }
    if (!strstr(m, "'hog'") || !strstr(m, "does not yield") || !strstr(m, "scheduler (read from device memory)"))
        fail_msg("timeout message does not name the kernel that does not yield:\n%s", m);
    uint32_t one = 1;
    assert_int_equal(ck_buffer_write(f.ctx, f.scratch, 0, &one, 4), CK_OK);
    if (ck_wait(b, 60) != CK_OK || ck_wait(hog, 60) != CK_OK)
        fail_msg("%s", ck_last_error());
    ck_launch_release(b);
    ck_launch_release(hog);
    assert_int_equal(close_ctx(&f), CK_OK);
}

/* ---- fork points inside helper functions (helper_forks.cl) ---------------- */

typedef struct {
    unsigned forked, kills, resizes, runs;
} helper_totals;

static void add_stats(helper_totals *t, const ck_launch_stats *st)
{
    t->forked += st->forked;
    t->kills += st->kills;
    t->resizes += st->resizes;
    t->runs++;
}

/* helper_depth2 (kind 0) or helper_two_sites (kind 1): resizing barriers in a
 * helper, reached two calls deep inside a loop, or from three call sites. */
static void check_helper_barriers(fixture *f, int kind, unsigned stream, helper_totals *t)
{
    const unsigned rounds = kind ? 8 : 12, width = 4096;
    ck_arg a[5] = {ck_arg_buffer(f->bad), ck_arg_buffer(f->seen), ck_arg_buffer(f->scratch), ck_arg_uint(rounds),
                   ck_arg_uint(width)};
    ck_launch_stats st = run(f, kind ? "helper_two_sites" : "helper_depth2", a, 5, stream);
    uint32_t bad[4], seen[4];
    read_words(f, f->bad, bad, 4);
    read_words(f, f->seen, seen, 4);
    if (bad[0] || bad[1])
        fail_msg("%s: %u and %u wrong words or transmit values after barriers inside a helper",
                 kind ? "helper_two_sites" : "helper_depth2", bad[0], bad[1]);
    assert_int_equal(seen[1], rounds); /* group 0 finished every round */
    assert_true(seen[0] >= rounds);
    add_stats(t, &st);
}

/* helper_tasks: offer_kill and request_fork inside get_task(); every task
 * done exactly once. */
static void check_helper_tasks(fixture *f, unsigned stream, helper_totals *t)
{
    enum { TASKS = 3000 };
    static uint32_t done[TASKS];
    zero(f, f->extra);
    ck_arg a[5] = {ck_arg_buffer(f->bad), ck_arg_buffer(f->seen), ck_arg_buffer(f->extra), ck_arg_buffer(f->scratch),
                   ck_arg_int(TASKS)};
    ck_launch_stats st = run(f, "helper_tasks", a, 5, stream);
    uint32_t bad[4], seen[4];
    read_words(f, f->bad, bad, 4);
    read_words(f, f->seen, seen, 4);
    read_words(f, f->scratch, done, TASKS);
    if (bad[0])
        fail_msg("helper_tasks: %u threads saw another task than their group's", bad[0]);
    for (unsigned i = 0; i < TASKS; ++i)
        if (done[i] != 1)
            fail_msg("helper_tasks: task %u done %u times", i, done[i]);
    assert_int_equal(seen[0], TASKS);
    add_stats(t, &st);
}

static void helper_suite(int which)
{
    static const char *const names[] = {"test_helper_barrier_two_calls_deep", "test_helper_two_call_sites",
                                        "test_helper_get_task"};
    helper_totals t = {0};
    fixture f;
    test_name = names[which];
    /* A loaded machine can schedule every seed without a fork (the chaos
     * stream decides against a busy host's timing), so while none has
     * forked the suite goes on with further seeds, up to four times as many:
     * the assertion below is about the helpers, not about one seed range. */
    unsigned last = chaos_seeds;
    for (unsigned seed = 0; seed <= last; ++seed) {
        uint64_t s = seed ? 500 + 100 * (unsigned)which + seed : 0;
        if (!wanted(s))
            continue;
        f = open_ctx_with(s, 0, which);
        unsigned stream = seed ? seed % 3 : 8; /* no seed: the real scheduler, gathers */
        if (which == 2)
            check_helper_tasks(&f, stream, &t);
        else
            check_helper_barriers(&f, which, stream, &t);
        close_ctx(&f);
        if (seed == last && t.forked == 0 && !only_seed && last < 4 * chaos_seeds)
            ++last;
    }
    print_message("%u runs: forked %u, kills %u, resizes %u\n", t.runs, t.forked, t.kills, t.resizes);
    if (!only_seed && chaos_seeds >= 5) /* forked groups did resume inside the helpers */
        assert_true(t.forked > 0);
}

static void test_helper_barrier_two_calls_deep(void **state) { helper_suite(0); }
static void test_helper_two_call_sites(void **state) { helper_suite(1); }
static void test_helper_get_task(void **state) { helper_suite(2); }

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s cl20|cl12 semantics.cl [chaos-seeds|=SEED [test-name-pattern]]\n", argv[0]);
        return 2;
    }
    path_name = argv[1];
    kernel_file = argv[2];
    if (!realpath(argv[0], self))
        snprintf(self, sizeof self, "%s", argv[0]);
    if (!realpath(kernel_file, kernel_abs))
        snprintf(kernel_abs, sizeof kernel_abs, "%s", kernel_file);
    snprintf(kernel_dir, sizeof kernel_dir, "%s", kernel_abs);
    if (strrchr(kernel_dir, '/'))
        *strrchr(kernel_dir, '/') = 0;
    else
        snprintf(kernel_dir, sizeof kernel_dir, ".");
    if (argc > 3 && argv[3][0] == '=') { /* "=SEED": only that chaos context (replay commands) */
        only_seed = strtoull(argv[3] + 1, NULL, 0);
        chaos_seeds = 1000;
    } else if (argc > 3) {
        chaos_seeds = (unsigned)atoi(argv[3]);
    }
    if (argc > 4)
        cmocka_set_test_filter(argv[4]); /* e.g. "test_relaunch*" */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_kill_and_fork_rules, report_chaos_failure),
        cmocka_unit_test_teardown(test_resizing_rules_query_form, report_chaos_failure),
        cmocka_unit_test_teardown(test_resizing_rules_naive_form, report_chaos_failure),
        cmocka_unit_test_teardown(test_barrier_orders_memory, report_chaos_failure),
        cmocka_unit_test_teardown(test_relaunch_query_form, report_chaos_failure),
        cmocka_unit_test_teardown(test_relaunch_naive_form, report_chaos_failure),
        cmocka_unit_test_teardown(test_gathers_take_only_what_is_needed, report_chaos_failure),
        cmocka_unit_test_teardown(test_kernel_that_does_not_yield, report_chaos_failure),
        cmocka_unit_test_teardown(test_helper_barrier_two_calls_deep, report_chaos_failure),
        cmocka_unit_test_teardown(test_helper_two_call_sites, report_chaos_failure),
        cmocka_unit_test_teardown(test_helper_get_task, report_chaos_failure),
    };
    char name[64];
    snprintf(name, sizeof name, "semantics-%s", path_name);
    return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
