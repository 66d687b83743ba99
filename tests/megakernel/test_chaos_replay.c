/* Proof that a failing chaos run replays. stale_sum (chaos_replay.cl) breaks
 * the snapshot rule on purpose, so its sum is wrong exactly when chaos
 * changes M at its resizing barrier. For each path in argv[1] ("cl20,cl12")
 * the test runs it under chaos seeds 1..50 in one process (a context each),
 * with the harness recording and 1 + seed % 3 ordinary launches before it,
 * stops at the first wrong sum, checks the harness printed a replay command,
 * then replays the record three times in-process with a different number of
 * ordinary launches before it (identical wrong sum, identical record, no
 * divergence) and once through the printed line, run by a shell with an
 * empty environment in a new process (the line must carry every variable
 * the run needs; same sum, no divergence).
 *
 * Run with CK_CHAOS_REPLAY set (the printed command does), it only runs
 * seeds argv[3]..argv[4] once each, with no ordinary launch before,
 * prints each sum and its divergences and exits 1 if a sum is wrong: the
 * failure reproduced.
 *
 * Usage: test_chaos_replay cl20[,cl12] chaos_replay.cl [FIRST LAST] */
#define _GNU_SOURCE /* realpath, popen */
#include "../chaos_harness.h"
#include "ck.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#define N_ELEMS 4096u
#define MAX_SEEDS 50u
#define EXPECTED ((uint32_t)(N_ELEMS * (N_ELEMS + 1u) / 2u)) /* data[i] = i + 1 */

static char self[PATH_MAX], kernel_file[PATH_MAX];

typedef struct {
    uint32_t sum;
    unsigned divergences, initial, max_m, kills, forked;
} run_result;

/* One context with the given seed, record and replay paths; `ordinary`
 * launches of touch, then one launch of stale_sum over all workers. */
static run_result run_once(const char *path_name, uint64_t seed, const char *record, const char *replay,
                           unsigned ordinary)
{
    ck_context_options o = {.chaos_seed = seed, .timeout_s = 120, .quiet_warnings = 1};
    o.chaos_record_path = record;
    o.chaos_replay_path = replay;
    if (ck_path_parse(path_name, &o.device.path) != CK_OK)
        fail_msg("bad path %s", path_name);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *ctx;
    if (ck_context_create(&o, &ctx) != CK_OK)
        fail_msg("%s", ck_last_error());
    const char *coop[] = {"stale_sum"};
    if (ck_context_add_file(ctx, kernel_file, coop, 1) != CK_OK || ck_context_build(ctx) != CK_OK)
        fail_msg("%s", ck_last_error());
    static uint32_t data[N_ELEMS];
    for (uint32_t i = 0; i < N_ELEMS; ++i)
        data[i] = i + 1u;
    uint32_t zero = 0;
    ck_buffer d, s;
    assert_int_equal(ck_buffer_alloc(ctx, sizeof data, &d), CK_OK);
    assert_int_equal(ck_buffer_alloc(ctx, 4, &s), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, d, 0, data, sizeof data), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, s, 0, &zero, 4), CK_OK);
    for (unsigned i = 0; i < ordinary; ++i) {
        ck_arg t = ck_arg_buffer(s);
        ck_launch *tl;
        if (ck_launch_kernel(ctx, "touch", 1, &t, 1, &tl) != CK_OK || ck_wait(tl, 120) != CK_OK)
            fail_msg("touch: %s", ck_last_error());
        ck_launch_release(tl);
    }
    assert_int_equal(ck_buffer_write(ctx, s, 0, &zero, 4), CK_OK);
    ck_arg a[3] = {ck_arg_buffer(d), ck_arg_buffer(s), ck_arg_uint(N_ELEMS)};
    ck_launch *l;
    if (ck_launch_kernel(ctx, "stale_sum", ck_context_workers(ctx), a, 3, &l) != CK_OK || ck_wait(l, 120) != CK_OK)
        fail_msg("stale_sum, seed %llu: %s", (unsigned long long)seed, ck_last_error());
    ck_launch_stats st;
    assert_int_equal(ck_launch_get_stats(l, &st), CK_OK);
    ck_launch_release(l);
    run_result r = {.divergences = st.replay_divergences,
                    .initial = st.initial_groups,
                    .max_m = st.max_active,
                    .kills = st.kills,
                    .forked = st.forked};
    assert_int_equal(ck_buffer_read(ctx, s, 0, &r.sum, 4), CK_OK);
    assert_int_equal(ck_context_destroy(ctx), CK_OK);
    return r;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read %s", path);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *copy = strdup(buf);
    assert_non_null(copy);
    return copy;
}

static void replay_path_test(const char *path_name)
{
    for (uint64_t seed = 1; seed <= MAX_SEEDS; ++seed) {
        ck_context_options o = {.chaos_seed = seed};
        chaos_harness h;
        assert_int_equal(chaos_harness_begin(&h, &o), 0);
        run_result r = run_once(path_name, seed, h.path, NULL, 1u + (unsigned)(seed % 3u));
        int wrong = r.sum != EXPECTED;
        char command[3 * PATH_MAX], msg[4096] = "";
        snprintf(command, sizeof command, "%s %s %s %llu %llu", self, path_name, kernel_file,
                 (unsigned long long)seed, (unsigned long long)seed);
        chaos_harness_end(&h, wrong, command, msg, sizeof msg);
        if (!wrong)
            continue;
        print_message("%s: seed %llu gives sum %u, not %u (initial M %u, largest M %u, %u kills, %u forked)\n",
                      path_name, (unsigned long long)seed, r.sum, EXPECTED, r.initial, r.max_m, r.kills, r.forked);
        char want[4 * PATH_MAX];
        snprintf(want, sizeof want, "CK_CHAOS_REPLAY=%s CK_CHAOS_SEED=%llu %s", h.path, (unsigned long long)seed,
                 command);
        if (!strstr(msg, want))
            fail_msg("the harness did not print the replay command; it printed:\n%s", msg);
        char *record = slurp(h.path);
        if (!strstr(record, "barrier epoch"))
            fail_msg("the record has no resizing barrier decision:\n%s", record);
        for (int rep = 0; rep < 3; ++rep) {
            char again[PATH_MAX];
            snprintf(again, sizeof again, "%s.replay%d", h.path, rep);
            run_result p = run_once(path_name, seed, again, h.path, (unsigned)rep + 4u);
            char *record2 = slurp(again);
            remove(again);
            if (p.sum != r.sum || p.divergences || strcmp(record, record2) != 0)
                fail_msg("replay %d of seed %llu: sum %u (recorded run %u), %u divergences; record:\n%s\nrecorded "
                         "run's record:\n%s",
                         rep, (unsigned long long)seed, p.sum, r.sum, p.divergences, record2, record);
            free(record2);
        }
        /* The printed line itself, as a user would paste it into a new
         * shell: an empty environment but PATH, so every variable the run
         * needs (POCL_MAX_PTHREAD_COUNT: the worker count) must be on it. */
        const char *line = strstr(msg, "replay it with:\n  ");
        assert_non_null(line);
        line += strlen("replay it with:\n  ");
        char script[PATH_MAX + 16];
        snprintf(script, sizeof script, "%s.sh", h.path);
        FILE *sh = fopen(script, "w");
        assert_non_null(sh);
        fprintf(sh, "%.*s\n", (int)strcspn(line, "\n"), line);
        fclose(sh);
        char run[2 * PATH_MAX + 64];
        snprintf(run, sizeof run, "env -i PATH='%s' sh '%s' 2>&1", getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin",
                 script);
        FILE *child = popen(run, "r");
        assert_non_null(child);
        char out[8192];
        size_t n = fread(out, 1, sizeof out - 1, child);
        out[n] = 0;
        int status = pclose(child);
        remove(script);
        char expect[128], calm[128];
        snprintf(expect, sizeof expect, "chaos seed %llu: sum %u\n", (unsigned long long)seed, r.sum);
        snprintf(calm, sizeof calm, "(expected %u; 0 replayed choices diverged)", EXPECTED);
        if (!strstr(out, expect) || !strstr(out, calm) || !WIFEXITED(status) || WEXITSTATUS(status) != 1)
            fail_msg("the printed line (%.*s) did not reproduce sum %u with no divergence in a new process (status "
                     "%d):\n%s",
                     (int)strcspn(line, "\n"), line, r.sum, status, out);
        print_message("%s: the record replayed 3 times in-process and once through the printed line in a new "
                      "process, each with sum %u and no divergence\n",
                      path_name, r.sum);
        free(record);
        remove(h.path);
        return;
    }
    fail_msg("no chaos seed of 1..%u changed M at the resizing barrier: chaos does not exercise it", MAX_SEEDS);
}

static const char *paths[2];

static void test_replay_first(void **state) { replay_path_test(paths[0]); }
static void test_replay_second(void **state) { replay_path_test(paths[1]); }

int main(int argc, char **argv)
{
    if (argc < 3 || !realpath(argv[0], self) || !realpath(argv[2], kernel_file)) {
        fprintf(stderr, "usage: %s cl20[,cl12] chaos_replay.cl [FIRST LAST]\n", argv[0]);
        return 2;
    }
    static char list[64];
    snprintf(list, sizeof list, "%s", argv[1]);
    paths[0] = strtok(list, ",");
    paths[1] = strtok(NULL, ",");
    if (getenv("CK_CHAOS_REPLAY") && *getenv("CK_CHAOS_REPLAY")) {
        /* Replay mode: run the given seeds once each. */
        unsigned first = argc > 4 ? (unsigned)atoi(argv[3]) : 1, last = argc > 4 ? (unsigned)atoi(argv[4]) : 1;
        int wrong = 0;
        for (unsigned seed = first; seed <= last; ++seed) {
            ck_context_options o = {.chaos_seed = seed};
            chaos_harness h;
            chaos_harness_begin(&h, &o);
            run_result r = run_once(paths[0], seed, h.path[0] ? h.path : NULL, NULL, 0);
            printf("stale_sum on %s, chaos seed %u: sum %u\n", paths[0], seed, r.sum);
            printf("(expected %u; %u replayed choices diverged)\n", EXPECTED, r.divergences);
            chaos_harness_end(&h, 0, "", NULL, 0); /* the replayed record is the one to keep */
            wrong |= r.sum != EXPECTED;
        }
        return wrong;
    }
    const struct CMUnitTest one[] = {cmocka_unit_test(test_replay_first)};
    const struct CMUnitTest two[] = {cmocka_unit_test(test_replay_first), cmocka_unit_test(test_replay_second)};
    return paths[1] ? cmocka_run_group_tests(two, NULL, NULL) : cmocka_run_group_tests(one, NULL, NULL);
}
