/* The loop-phase proof on PoCL: loop_phase.cl has a resizing barrier inside a
 * for over `phase` with a break on it. Written with a plain `int phase`, a
 * work-group forked at the barrier would resume with phase unset, and
 * ck_context_build must reject it naming the variable under
 * CK_TRANSMIT_DECLARED, and transmit it with a note under the default
 * transmit inference; with
 * `for (transmit int phase = 0; ...)` (as the file has it) it builds without
 * warnings and gives the right words with the scheduler's own choices and
 * under chaos seeds 1..SEEDS (kills, forks and new M at every barrier), on
 * each path of argv[1]. A failing chaos run keeps its record and prints the
 * command that replays it (tests/chaos_harness.h). Also: the stale-M warning
 * of the rule checks, with its note, is kept by ck_context_build_warnings.
 *
 * Usage: test_loop_phase cl20[,cl12] loop_phase.cl [SEEDS] */
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

#define N_WORDS 6000u

static char self[PATH_MAX], kernel_file[PATH_MAX];
static char *kernel_src;
static unsigned seeds = 30;
static const char *paths[2];
static unsigned total_forked, total_kills, total_resizes; /* over the chaos seeds of a path */

static ck_context *open_ctx_mode(const char *path_name, uint64_t seed, chaos_harness *h, int transmit_mode)
{
    ck_context_options o = {.chaos_seed = seed,
                            .timeout_s = 120,
                            .transmit_mode = transmit_mode,
                            .quiet_warnings = 1};
    if (seed)
        chaos_harness_begin(h, &o);
    if (ck_path_parse(path_name, &o.device.path) != CK_OK)
        fail_msg("bad path %s", path_name);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *ctx;
    if (ck_context_create(&o, &ctx) != CK_OK)
        fail_msg("%s", ck_last_error());
    return ctx;
}

static ck_context *open_ctx(const char *path_name, uint64_t seed, chaos_harness *h)
{
    return open_ctx_mode(path_name, seed, h, CK_TRANSMIT_INFER);
}

/* Builds src; returns the status (the message is in ck_last_error). */
static ck_status build(ck_context *ctx, const char *src)
{
    const char *coop[] = {"loop_phase"};
    ck_status s = ck_context_add_source(ctx, "loop_phase.cl", src, coop, 1);
    return s != CK_OK ? s : ck_context_build(ctx);
}

static void rejected_without_transmit(const char *path_name)
{
    /* the same file with the counter's `transmit` taken away */
    const char *fix = "for (transmit int phase";
    char *broken = malloc(strlen(kernel_src) + 1);
    assert_non_null(broken);
    const char *at = strstr(kernel_src, fix);
    assert_non_null(at);
    size_t head = (size_t)(at - kernel_src);
    memcpy(broken, kernel_src, head);
    strcpy(broken + head, "for (int phase");
    strcat(broken, at + strlen(fix));
    /* the strict form rejects it */
    ck_context *ctx = open_ctx_mode(path_name, 0, NULL, CK_TRANSMIT_DECLARED);
    ck_status s = build(ctx, broken);
    const char *msg = ck_last_error();
    print_message("%s, without transmit: %s\n", path_name, msg);
    assert_int_equal(s, CK_ERR_BUILD);
    assert_non_null(strstr(msg, "loop_phase.cl:16:13: error: 'phase' is read after the "
                                "resizing_global_barrier() on line 15"));
    assert_non_null(strstr(msg, "'for (transmit int phase')"));
    assert_non_null(strstr(msg, "loop_phase.cl:15:9: note: forked work-groups start after this"));
    ck_context_destroy(ctx);
    /* with transmit inference (the default) it builds, and the note names the counter */
    ctx = open_ctx(path_name, 0, NULL);
    if (build(ctx, broken) != CK_OK)
        fail_msg("%s: the file without transmit did not build with inference: %s", path_name, ck_last_error());
    if (!strstr(ck_context_build_warnings(ctx), "note: 'phase' is transmitted to the work-groups forked at the "
                                                "resizing_global_barrier() on line 15"))
        fail_msg("want the inference note for 'phase', got:\n%s", ck_context_build_warnings(ctx));
    ck_context_destroy(ctx);
    free(broken);
}

/* The rule checks' warnings reach the user through the context, with their notes. */
static void warnings_kept(const char *path_name)
{
    const char *src = "kernel void stale(global uint *o)\n"
                      "{\n"
                      "    transmit uint m = get_num_groups(0);\n"
                      "    resizing_global_barrier();\n"
                      "    o[get_global_id(0)] = m;\n"
                      "}\n";
    ck_context_options o = {.timeout_s = 120, .quiet_warnings = 1};
    if (ck_path_parse(path_name, &o.device.path) != CK_OK)
        fail_msg("bad path %s", path_name);
    o.device.device = getenv("CK_DEVICE") ? NULL : "Portable Computing Language";
    ck_context *ctx;
    const char *coop[] = {"stale"};
    if (ck_context_create(&o, &ctx) != CK_OK || ck_context_add_source(ctx, "stale.cl", src, coop, 1) != CK_OK ||
        ck_context_build(ctx) != CK_OK)
        fail_msg("%s", ck_last_error());
    const char *w = ck_context_build_warnings(ctx);
    assert_non_null(strstr(w, "stale.cl:5:27: warning: transmit variable 'm' holds a value computed from "
                              "get_num_groups/get_global_size"));
    assert_non_null(strstr(w, "\nstale.cl:4:5: note: M may change at this resizing_global_barrier()\n"));
    ck_context_destroy(ctx);
}

/* One launch over all workers; fails the test on a wrong word. */
static void run_seed(const char *path_name, uint64_t seed)
{
    chaos_harness h;
    ck_context *ctx = open_ctx(path_name, seed, &h);
    if (build(ctx, kernel_src) != CK_OK)
        fail_msg("%s", ck_last_error());
    assert_string_equal(ck_context_build_warnings(ctx), "");
    static uint32_t d[N_WORDS];
    for (uint32_t i = 0; i < N_WORDS; ++i)
        d[i] = i * 7u + 1u;
    ck_buffer b;
    assert_int_equal(ck_buffer_alloc(ctx, sizeof d, &b), CK_OK);
    assert_int_equal(ck_buffer_write(ctx, b, 0, d, sizeof d), CK_OK);
    ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(N_WORDS)};
    ck_launch *l;
    if (ck_launch_kernel(ctx, "loop_phase", ck_context_workers(ctx), a, 2, &l) != CK_OK || ck_wait(l, 120) != CK_OK)
        fail_msg("%s, seed %llu: %s", path_name, (unsigned long long)seed, ck_last_error());
    ck_launch_stats st;
    assert_int_equal(ck_launch_get_stats(l, &st), CK_OK);
    ck_launch_release(l);
    assert_int_equal(ck_buffer_read(ctx, b, 0, d, sizeof d), CK_OK);
    unsigned wrong = 0, first = 0;
    for (uint32_t i = 0; i < N_WORDS; ++i)
        if (d[i] != 9u * (i * 7u + 1u) + 35u && wrong++ == 0)
            first = i;
    if (seed) {
        total_forked += st.forked;
        total_kills += st.kills;
        total_resizes += st.resizes;
        char command[3 * PATH_MAX];
        snprintf(command, sizeof command, "%s %s %s", self, path_name, kernel_file);
        chaos_harness_end(&h, wrong != 0, command, NULL, 0);
    }
    if (wrong)
        fail_msg("%s, chaos seed %llu: %u wrong words, the first d[%u] = %u, not %u (M from %u to %u, %u kills, "
                 "%u forked, %u resizes)",
                 path_name, (unsigned long long)seed, wrong, first, d[first], 9u * (first * 7u + 1u) + 35u,
                 st.initial_groups, st.max_active, st.kills, st.forked, st.resizes);
    assert_int_equal(ck_context_destroy(ctx), CK_OK);
}

static void path_test(const char *path_name)
{
    rejected_without_transmit(path_name);
    warnings_kept(path_name);
    total_forked = total_kills = total_resizes = 0;
    for (uint64_t seed = 0; seed <= seeds; ++seed)
        run_seed(path_name, seed);
    print_message("%s: right under the scheduler's choices and chaos seeds 1..%u (%u groups forked, %u kills, "
                  "%u resizes in all)\n",
                  path_name, seeds, total_forked, total_kills, total_resizes);
    /* the point of the test: groups did resume after the barrier inside the loop */
    if (seeds >= 10)
        assert_true(total_forked > 0);
}

static void test_first_path(void **state)
{
    (void)state;
    path_test(paths[0]);
}
static void test_second_path(void **state)
{
    (void)state;
    path_test(paths[1]);
}

int main(int argc, char **argv)
{
    if (argc < 3 || !realpath(argv[0], self) || !realpath(argv[2], kernel_file)) {
        fprintf(stderr, "usage: %s cl20[,cl12] loop_phase.cl [SEEDS]\n", argv[0]);
        return 2;
    }
    if (argc > 3)
        seeds = (unsigned)atoi(argv[3]);
    FILE *f = fopen(kernel_file, "rb");
    static char buf[1 << 16];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    if (!n) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], kernel_file);
        return 2;
    }
    buf[n] = 0;
    kernel_src = buf;
    static char list[64];
    snprintf(list, sizeof list, "%s", argv[1]);
    paths[0] = strtok(list, ",");
    paths[1] = strtok(NULL, ",");
    const struct CMUnitTest one[] = {cmocka_unit_test(test_first_path)};
    const struct CMUnitTest two[] = {cmocka_unit_test(test_first_path), cmocka_unit_test(test_second_path)};
    return paths[1] ? cmocka_run_group_tests(two, NULL, NULL) : cmocka_run_group_tests(one, NULL, NULL);
}
