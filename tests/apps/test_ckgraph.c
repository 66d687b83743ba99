/* tests/apps/test_ckgraph.c (owner: apps): the ckgraph command line (argv[1])
 * and graph files through ckrun (argv[2]): bad values, an unknown graph name
 * (the message lists the generators), malformed files and an unwritable
 * output give one line and exit 2 or 1; summaries in text and JSON; and a
 * .mtx written from a DIMACS file gives ckrun's BFS the same graph and the
 * same answer (levels, nodes reached) as the DIMACS file, on PoCL. Needs
 * POCL_MAX_PTHREAD_COUNT (8). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tool_run.h"

static const char *ckgraph, *ckrun;
static char tmpdir[256];
static char out[1 << 16], err[1 << 14];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ck_ckgraph_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void expect_error(const char *args, int status, const char *needle)
{
    int st = tool_run(ckgraph, args, out, sizeof out, err, sizeof err);
    if (st != status || tool_lines(err) != 1 || !strstr(err, needle))
        fail_msg("ckgraph %s: status %d (want %d), stderr '%s' (want one line with '%s')", args, st, status, err,
                 needle);
}

static void test_bad_command_lines(void **state)
{
    (void)state;
    expect_error("", 2, "--graph NAME|FILE is required");
    expect_error("--graph road-xx", 2, "road-ny-ci");
    expect_error("--graph road-xx", 2, "neither a generator nor an existing file");
    expect_error("--graph rmat --scale 0", 2, "--scale");
    expect_error("--graph rmat --scale 29", 2, "1..28");
    expect_error("--graph rmat --scale 28 --edge-factor 64", 2, "edges");
    expect_error("--graph grid --grid-drop 91", 2, "0..90");
    expect_error("--graph grid --seed -1", 2, "--seed");
    expect_error("--graph grid --format xml --write a.xml", 2, "unknown format");
    expect_error("--graph grid --format mtx", 2, "--format needs --write");
    expect_error("--graph grid --frobnicate", 2, "frobnicate");
    expect_error("--graph grid extra", 2, "extra");
    expect_error("--graph ecology-ci --write /nonexistent/dir/g.mtx", 1, "cannot write '/nonexistent/dir/g.mtx'");
    char args[600], path[512];
    snprintf(path, sizeof path, "%s/bad.mtx", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", f);
    fclose(f);
    snprintf(args, sizeof args, "--graph '%s'", path);
    expect_error(args, 1, "bad.mtx:3: the size line says 2 entries");
    snprintf(path, sizeof path, "%s/huge.gr", tmpdir);
    f = fopen(path, "w");
    fputs("p sp 1073741824 1\n", f); /* a 19-byte header claiming 2^30 nodes */
    fclose(f);
    snprintf(args, sizeof args, "--graph '%s'", path);
    expect_error(args, 1, "huge.gr:1: the header claims 1073741824 nodes");
    assert_int_equal(tool_run(ckgraph, "--help", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "--write FILE"));
    assert_non_null(strstr(out, "bc-2k-ci"));
    assert_int_equal(tool_run(ckgraph, "--version", out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "ckgraph"));
}

static void test_summary_and_write(void **state)
{
    (void)state;
    char args[600];
    snprintf(args, sizeof args, "--graph road-ny-ci --json --write '%s/r.graph'", tmpdir);
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0)
        fail_msg("ckgraph %s: %s", args, err);
    assert_non_null(strstr(out, "\"nodes\": 4096"));
    assert_non_null(strstr(out, "\"edges\": 5685"));
    assert_non_null(strstr(out, "\"weighted\": true"));
    assert_non_null(strstr(out, "\"components\": 1,"));
    assert_non_null(strstr(out, "\"format\": \"metis\""));
    /* Read back: the same summary. */
    snprintf(args, sizeof args, "--graph '%s/r.graph' --format galois --write '%s/r.gr'", tmpdir, tmpdir);
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0)
        fail_msg("ckgraph %s: %s", args, err);
    assert_non_null(strstr(out, "edges       5685 undirected"));
    assert_non_null(strstr(out, "components  1 (largest 4096 nodes)"));
    snprintf(args, sizeof args, "--graph '%s/r.gr'", tmpdir); /* Galois binary, found by content */
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0)
        fail_msg("ckgraph %s: %s", args, err);
    assert_non_null(strstr(out, "edges       5685 undirected"));
}

/* The part of ckrun's JSON "input" line after the input's name. */
static void bfs_answer(const char *graph, char *answer, size_t len)
{
    char args[800];
    snprintf(args, sizeof args,
             "--app bfs --graph '%s' --noncoop none --json --quiet --path cl20 "
             "--device 'Portable Computing Language'",
             graph);
    int st = tool_run(ckrun, args, out, sizeof out, err, sizeof err);
    if (st != 0 || !strstr(out, "\"pass\": true"))
        fail_msg("ckrun %s: status %d\n%s%s", args, st, out, err);
    const char *in = strstr(out, "\"input\": \"");
    assert_non_null(in);
    const char *colon = strstr(in, ": ");
    colon = colon ? strstr(colon + 2, ": ") : NULL;
    assert_non_null(colon);
    const char *end = strchr(colon, '"');
    snprintf(answer, len, "%.*s", (int)(end - colon), colon);
}

static void test_mtx_from_dimacs_same_answer(void **state)
{
    (void)state;
    char args[1200], gr[512], mtx[512], a[512], b[512];
    snprintf(gr, sizeof gr, "%s/road.gr", tmpdir);
    snprintf(mtx, sizeof mtx, "%s/road.mtx", tmpdir);
    snprintf(args, sizeof args, "--graph rmat20-ci --seed 5 --write '%s'", gr);
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0)
        fail_msg("ckgraph %s: %s", args, err);
    snprintf(args, sizeof args, "--graph '%s' --write '%s'", gr, mtx);
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0)
        fail_msg("ckgraph %s: %s", args, err);
    bfs_answer(gr, a, sizeof a);
    bfs_answer(mtx, b, sizeof b);
    if (strcmp(a, b) != 0)
        fail_msg("DIMACS '%s' and Matrix Market '%s' differ", a, b);
    assert_non_null(strstr(a, "4096 nodes"));
    assert_non_null(strstr(a, "reached"));
    assert_non_null(strstr(a, "levels"));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s CKGRAPH CKRUN\n", argv[0]);
        return 2;
    }
    ckgraph = argv[1];
    ckrun = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_command_lines),
        cmocka_unit_test(test_summary_and_write),
        cmocka_unit_test(test_mtx_from_dimacs_same_answer),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
