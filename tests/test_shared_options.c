/* tests/test_shared_options.c: the options the tools share are spelled,
 * ranged, defaulted and answered the same in every tool (README, "The tools'
 * shared options"). argv[1..] are the tools' binaries, each named by its file
 * name (ckinfo, ckbench, ckrun, ckstudy, cktasks, ckgraph, ckcheck); argv's
 * last entry is a scratch folder. For every tool that takes them:
 * --wg-size and its other spelling --wg give the same range and message,
 * --timeout the same range and default, --device a device that does not
 * exist and --wg-size above PoCL's maximum exit 2 with one line before any
 * work; every tool's --help lists the shared options it takes and its exit
 * statuses, --version exits 0 and an unknown option exits 2. Needs PoCL. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tool_run.h"

/* What each tool takes of the shared options, and the arguments it needs
 * besides them to get as far as checking the device. */
typedef struct {
    const char *name;
    const char *base;   /* required arguments; "OUT" is replaced by the scratch folder */
    int device_options; /* --device, --path, --wg-size/--wg, --timeout */
    int device_max;     /* --wg-size above the device's maximum reaches the device check */
    int wg_list;        /* --wg-size takes a list (ckinfo): its messages speak of entries */
} tool_spec;

static const tool_spec specs[] = {
    {"ckinfo", "--round-trips 0", 1, 1, 1},
    {"ckbench", "", 1, 1, 0},
    {"ckrun", "--app bfs --scale 6 --noncoop none --quiet", 1, 1, 0},
    {"ckstudy", "--apps bfs --out OUT --no-plots", 1, 1, 0},
    /* cktasks checks --wg-size against the benchmark's own range first (at
     * most 1024 work-items), below PoCL's maximum. */
    {"cktasks", "--bench des3 --forms ck --quiet", 1, 0, 0},
    {"ckgraph", "--graph grid", 0, 0, 0},
    {"ckcheck", "", 0, 0, 0},
};
#define N_SPECS (sizeof specs / sizeof *specs)

static const char *paths[N_SPECS];
static const char *scratch;
static char out[1 << 16], err[1 << 13];

static const char *base_of(const tool_spec *t)
{
    static char buf[1024];
    const char *at = strstr(t->base, "OUT");
    if (!at)
        return t->base;
    snprintf(buf, sizeof buf, "%.*s'%s/%s'%s", (int)(at - t->base), t->base, scratch, t->name, at + 3);
    return buf;
}

/* Runs the tool with its base arguments and `extra`: exit 2, one line on
 * stderr naming the tool and holding `needle`. Returns the line. */
static const char *expect_refused(size_t i, const char *extra, const char *needle)
{
    char args[2048];
    snprintf(args, sizeof args, "%s %s", base_of(&specs[i]), extra);
    int st = tool_run(paths[i], args, out, sizeof out, err, sizeof err);
    char head[64];
    snprintf(head, sizeof head, "%s: ", specs[i].name);
    if (st != 2 || tool_lines(err) != 1 || strncmp(err, head, strlen(head)) != 0 || !strstr(err, needle))
        fail_msg("%s %s: status %d (want 2), stderr '%s' (want one line '%s...%s...')", specs[i].name, args, st, err,
                 head, needle);
    return err;
}

/* The message after "TOOL: ", so that tools can be compared. */
static void message_of(const char *line, char *buf, size_t len)
{
    const char *colon = strchr(line, ':');
    snprintf(buf, len, "%s", colon ? colon + 2 : line);
}

static void test_wg_size_spellings_and_range(void **state)
{
    (void)state;
    char first[512] = "", msg[512], wg[512];
    const char *first_tool = NULL;
    for (size_t i = 0; i < N_SPECS; ++i) {
        if (!specs[i].device_options)
            continue;
        message_of(expect_refused(i, "--wg-size 0", "1..65536 work-items"), msg, sizeof msg);
        if (strncmp(msg, "--wg-size 0: ", 13) != 0)
            fail_msg("%s: --wg-size 0 gives '%s'", specs[i].name, msg);
        message_of(expect_refused(i, "--wg 0", "1..65536 work-items"), wg, sizeof wg);
        if (strcmp(msg, wg) != 0)
            fail_msg("%s: --wg 0 says '%s', --wg-size 0 says '%s'", specs[i].name, wg, msg);
        expect_refused(i, "--wg-size 65537", "1..65536 work-items");
        if (specs[i].wg_list)
            continue;
        if (!first_tool) {
            snprintf(first, sizeof first, "%s", msg);
            first_tool = specs[i].name;
        } else if (strcmp(first, msg) != 0) {
            fail_msg("%s says '%s' where %s says '%s'", specs[i].name, msg, first_tool, first);
        }
    }
}

static void test_wg_size_above_the_device(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_SPECS; ++i)
        if (specs[i].device_max)
            expect_refused(i, "--device 'Portable Computing Language' --wg-size 16384",
                           "--wg-size 16384: above the device's maximum; allowed: 1..");
}

static void test_unknown_device(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_SPECS; ++i)
        if (specs[i].device_options)
            expect_refused(i, "--device nosuchdevice", "nosuchdevice");
}

static void test_timeout_range(void **state)
{
    (void)state;
    const char *bad[] = {"0", "-1", "nan", "inf", "86401"};
    for (size_t i = 0; i < N_SPECS; ++i) {
        if (!specs[i].device_options)
            continue;
        for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
            char extra[64];
            snprintf(extra, sizeof extra, "--timeout %s", bad[k]);
            expect_refused(i, extra, extra);
        }
        expect_refused(i, "--path cl99", "--path cl99");
    }
}

/* --help lists the shared options with the shared default timeout and the
 * exit statuses; --version exits 0; an unknown option exits 2. */
static void test_help_version_unknown(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_SPECS; ++i) {
        const char *name = specs[i].name;
        if (tool_run(paths[i], "--help", out, sizeof out, err, sizeof err) != 0)
            fail_msg("%s --help: nonzero status", name);
        const char *want[] = {"--version", "--help", "Exit status: 0"};
        for (size_t k = 0; k < sizeof want / sizeof *want; ++k)
            if (!strstr(out, want[k]))
                fail_msg("%s --help does not say '%s':\n%s", name, want[k], out);
        if (!strstr(out, "2 bad command line") && !strstr(out, "2 nothing was"))
            fail_msg("%s --help does not say what exit status 2 means:\n%s", name, out);
        if (specs[i].device_options) {
            const char *dev[] = {"--device", "--path", "--wg-size", "also --wg", "--timeout", "(default 120)"};
            for (size_t k = 0; k < sizeof dev / sizeof *dev; ++k)
                if (!strstr(out, dev[k]))
                    fail_msg("%s --help does not say '%s':\n%s", name, dev[k], out);
        }
        if (tool_run(paths[i], "--version", out, sizeof out, err, sizeof err) != 0 || !strstr(out, name))
            fail_msg("%s --version: nonzero status or no name: '%s'", name, out);
        expect_refused(i, "--frobnicate", "--frobnicate");
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int main(int argc, char **argv)
{
    if (argc != (int)N_SPECS + 2) {
        fprintf(stderr, "usage: %s CKINFO CKBENCH CKRUN CKSTUDY CKTASKS CKGRAPH CKCHECK SCRATCH\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < N_SPECS; ++i) {
        if (strcmp(base_name(argv[i + 1]), specs[i].name) != 0) {
            fprintf(stderr, "%s: argument %zu is '%s', want the tool %s\n", argv[0], i + 1, argv[i + 1],
                    specs[i].name);
            return 2;
        }
        paths[i] = argv[i + 1];
    }
    scratch = argv[argc - 1];
    char mk[1100];
    snprintf(mk, sizeof mk, "rm -rf '%s' && mkdir -p '%s'", scratch, scratch);
    if (system(mk) != 0) {
        fprintf(stderr, "%s: cannot make the scratch folder %s\n", argv[0], scratch);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wg_size_spellings_and_range),
        cmocka_unit_test(test_wg_size_above_the_device),
        cmocka_unit_test(test_unknown_device),
        cmocka_unit_test(test_timeout_range),
        cmocka_unit_test(test_help_version_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
