/* tests/apps/test_apps_chaos.c (owner: apps): one cooperative application
 * (argv[1]: bfs or ws) under chaos mode, where the runtime makes every legal
 * scheduling choice at random, for chaos seeds argv[3]..argv[4] on path
 * argv[2]. Each seed gets its own context (the seed is a context option),
 * runs the kernel standalone and then multitasked with a matmul stream whose
 * group count cycles through 1, N/4, N/2, N-1, and checks both results
 * against the CPU reference; BFS alternates R-MAT and grid inputs. All seeds
 * run; the failing ones are listed. Where they made no kill or no fork,
 * further seeds run until both have happened (at most EXTRA_SEEDS more).
 * Needs POCL_MAX_PTHREAD_COUNT (8).
 * Each seed records its schedule (tests/chaos_harness.h): a failing seed
 * prints the record's path and the command line that replays it. */
#define _GNU_SOURCE /* realpath */
#include "apps_test_util.h"
#include "../chaos_harness.h"

#include <limits.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

static app_kind kind;
static ck_path path;
static unsigned first_seed, last_seed;
static char self[PATH_MAX];
static const char *app_arg, *path_arg;

/* Seeds run after the last one, at most, while the seeds given have not yet
 * made chaos kill and fork (see test_chaos_seeds). */
#define EXTRA_SEEDS 100u

static void test_chaos_seeds(void **state)
{
    app *inputs[2];
    char err[1024], why[1200];
    for (unsigned v = 0; v < 2; ++v) {
        app_config c = apps_test_config(kind, v);
        if (app_create(&c, &inputs[v], err, sizeof err))
            fail_msg("app_create: %s", err);
    }
    const char *exprs[] = {"1", "N/4", "N/2", "N-1"};
    unsigned failures = 0, kills = 0, forks = 0;
    char failed[512] = "";
    /* Chaos mode must actually exercise kills and forks (a replay makes only
     * the recorded choices). In applications whose groups offer to be
     * killed only while work is left (game, octree), how many kills a seed
     * makes depends on the host's timing: 12 to 69 in 50 seeds on a quiet
     * 2-core machine, none on a loaded one (measured). So where the seeds
     * given made none, further seeds run (each checked like the others)
     * until both have happened, at most EXTRA_SEEDS of them. */
    int replay = getenv("CK_CHAOS_REPLAY") != NULL;
    unsigned end = last_seed;
    for (unsigned seed = first_seed; seed <= end; ++seed) {
        app *a = inputs[seed % 2 % app_test_variants(kind)];
        ck_context_options o = apps_test_context(path, seed, 0);
        chaos_harness h;
        chaos_harness_begin(&h, &o);
        app_session s;
        int bad = 0;
        if (app_session_open(a, &o, 32, 0, &s, err, sizeof err)) {
            snprintf(why, sizeof why, "session: %s", err);
            bad = 1;
        } else {
            unsigned g;
            app_parse_group_expr(exprs[seed % 4], s.coop_groups, &g);
            for (int mm = 0; mm < 2 && !bad; ++mm) {
                app_multitask_result r;
                if (apps_test_run(&s, mm ? g : 0, why, sizeof why, &r)) {
                    bad = 1;
                } else {
                    kills += r.coop.kills;
                    forks += r.coop.forked;
                }
                app_multitask_result_free(&r);
            }
            if (app_session_close(&s, err, sizeof err) && !bad) {
                snprintf(why, sizeof why, "closing: %s", err);
                bad = 1;
            }
        }
        char command[PATH_MAX + 64];
        snprintf(command, sizeof command, "%s %s %s %u %u", self, app_arg, path_arg, seed, seed);
        chaos_harness_end(&h, bad, command, NULL, 0);
        if (bad) {
            print_error("chaos seed %u (%s): %s\n", seed, app_describe(a), why);
            size_t len = strlen(failed);
            snprintf(failed + len, sizeof failed - len, " %u", seed);
            ++failures;
        }
        if (seed == end && !replay && (kills == 0 || forks == 0) && end < last_seed + EXTRA_SEEDS)
            ++end;
    }
    print_message("%s on %s: chaos seeds %u..%u: %u failed; %u kills and %u forked groups in all\n",
                  app_kind_name(kind), ck_path_name(path), first_seed, end, failures, kills, forks);
    for (unsigned v = 0; v < 2; ++v)
        app_destroy(inputs[v]);
    if (failures)
        fail_msg("%u chaos seeds failed:%s", failures, failed);
    if (!replay && (kills == 0 || forks == 0))
        fail_msg("chaos seeds %u..%u made %u kills and %u forks: chaos mode must make both", first_seed, end, kills,
                 forks);
}

int main(int argc, char **argv)
{
    if (argc < 5 || app_kind_parse(argv[1], &kind) || ck_path_parse(argv[2], &path) != CK_OK ||
        path == CK_PATH_AUTO || (first_seed = (unsigned)atoi(argv[3])) == 0 ||
        (last_seed = (unsigned)atoi(argv[4])) < first_seed) {
        fprintf(stderr, "usage: %s APP cl20|cl12 FIRST_SEED LAST_SEED (seeds >= 1)\n", argv[0]);
        return 2;
    }
    if (!realpath(argv[0], self))
        snprintf(self, sizeof self, "%s", argv[0]);
    app_arg = argv[1];
    path_arg = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chaos_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
