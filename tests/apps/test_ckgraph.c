/* tests/apps/test_ckgraph.c (owner: apps): the ckgraph command line (argv[1])
 * and graph files through ckrun (argv[2]): bad values, an unknown graph name
 * (the message lists the generators), malformed files and an unwritable
 * output give one line and exit 2 (nothing was done), a write that fails on
 * the way exit 1; FIFOs, folders and devices as the
 * input or the output are refused within seconds and stay as they were
 * (/dev/full is not removed); a write that fails on the way leaves the old
 * file whole; bad weights name their file, line and value; summaries in
 * text and JSON; and a
 * .mtx written from a DIMACS file gives ckrun's BFS the same graph and the
 * same answer (levels, nodes reached) as the DIMACS file, on PoCL. Needs
 * POCL_MAX_PTHREAD_COUNT (8). */
#define _DEFAULT_SOURCE /* mknod, makedev and the S_IF* file types, beside POSIX */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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
    expect_error("--graph ecology-ci --write /nonexistent/dir/g.mtx", 1,
                 /* the write fails on the way */ "cannot write '/nonexistent/dir/g.mtx'");
    char args[600], path[512];
    snprintf(path, sizeof path, "%s/bad.mtx", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", f);
    fclose(f);
    snprintf(args, sizeof args, "--graph '%s'", path);
    expect_error(args, 2, "bad.mtx:3: the size line says 2 entries");
    snprintf(path, sizeof path, "%s/huge.gr", tmpdir);
    f = fopen(path, "w");
    fputs("p sp 1073741824 1\n", f); /* a 19-byte header claiming 2^30 nodes */
    fclose(f);
    snprintf(args, sizeof args, "--graph '%s'", path);
    expect_error(args, 2, "huge.gr:1: the header claims 1073741824 nodes");
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

/* Runs ckgraph under `timeout 10` (a blocked open shows as status 124);
 * `prefix` goes before it (a shell that sets a limit first), or "". */
static int run_timed(const char *prefix, const char *args)
{
    char tool[1024];
    snprintf(tool, sizeof tool, "%s timeout 10 %s", prefix, ckgraph);
    return tool_run(tool, args, out, sizeof out, err, sizeof err);
}

/* `want`: 2 for an input or output refused before any work, 1 for a write
 * that failed on the way (the statuses of cli.h). */
static void expect_timed_error(const char *prefix, const char *args, int want, const char *needle)
{
    int st = run_timed(prefix, args);
    if (st != want || tool_lines(err) != 1 || strncmp(err, "ckgraph: ", 9) != 0 || !strstr(err, needle))
        fail_msg("ckgraph %s: status %d (want %d; 124 is a hang), stderr '%s' (want one line with '%s')", args, st,
                 want, err, needle);
}

static void expect_kind(const char *path, mode_t kind, const char *what)
{
    struct stat st;
    if (lstat(path, &st) != 0 || (st.st_mode & S_IFMT) != kind)
        fail_msg("%s is no longer %s", path, what);
}

static const char *in_tmp(const char *name)
{
    static char path[2][512];
    static int k;
    k ^= 1;
    snprintf(path[k], sizeof path[k], "%s/%s", tmpdir, name);
    return path[k];
}

/* Inputs and outputs that are not regular files: one line, exit 2, within
 * seconds, and the FIFO or device is still there after. */
static void test_not_regular_files(void **state)
{
    (void)state;
    char args[1200];
    const char *names[] = {"in.gr", "in.txt", "in.graph", "in.mtx"};
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
        assert_int_equal(mkfifo(in_tmp(names[i]), 0600), 0);
        snprintf(args, sizeof args, "--graph '%s'", in_tmp(names[i]));
        expect_timed_error("", args, 2, "is a FIFO, not a regular file");
    }
    assert_int_equal(mkdir(in_tmp("dir.gr"), 0700), 0);
    snprintf(args, sizeof args, "--graph '%s'", in_tmp("dir.gr"));
    expect_timed_error("", args, 2, "is a directory, not a regular file");
    expect_timed_error("", "--graph /dev/null", 2, "'/dev/null' is a character device");
    expect_timed_error("", "--graph /dev/zero", 2, "'/dev/zero' is a character device");

    if (geteuid() == 0) { /* a device node of our own first: only it is lost if a failed write removes its target */
        assert_int_equal(mknod(in_tmp("full.gr"), S_IFCHR | 0666, makedev(1, 7)), 0);
        snprintf(args, sizeof args, "--graph grid --scale 4 --write '%s'", in_tmp("full.gr"));
        expect_timed_error("", args, 2, "is a character device, not a regular file");
        expect_kind(in_tmp("full.gr"), S_IFCHR, "a character device");
    }
    expect_timed_error("", "--graph grid --scale 4 --write /dev/full", 2, "'/dev/full' is a character device");
    expect_kind("/dev/full", S_IFCHR, "a character device");
    expect_timed_error("", "--graph grid --scale 4 --format mtx --write /dev/null", 2, "is a character device");
    expect_kind("/dev/null", S_IFCHR, "a character device");
    assert_int_equal(mkfifo(in_tmp("out.gr"), 0600), 0);
    snprintf(args, sizeof args, "--graph grid --scale 4 --write '%s'", in_tmp("out.gr"));
    expect_timed_error("", args, 2, "is a FIFO");
    expect_kind(in_tmp("out.gr"), S_IFIFO, "a FIFO");
    snprintf(args, sizeof args, "--graph grid --scale 4 --write '%s'", tmpdir);
    expect_timed_error("", args, 2, "is a directory");
    expect_kind(tmpdir, S_IFDIR, "a directory");
}

/* A write that fails on the way (past the file size limit, with SIGXFSZ
 * ignored so the write call fails): one line naming the file, the old
 * contents whole, no temporary file left; the same write without the limit
 * replaces the file. */
static void test_failed_write_keeps_old_file(void **state)
{
    (void)state;
    const char *kept = in_tmp("kept.gr");
    FILE *f = fopen(kept, "w");
    assert_non_null(f);
    fputs("c the old graph\np sp 2 1\na 1 2 1\n", f);
    fclose(f);
    char args[1200];
    snprintf(args, sizeof args, "--graph road-ny-ci --write '%s'", kept);
    expect_timed_error("sh -c 'trap \"\" XFSZ; ulimit -f 4; exec \"$0\" \"$@\"'", args, 1, "File too large");
    if (!strstr(err, "kept.gr") || !strstr(err, "left as it was"))
        fail_msg("want the message to name kept.gr and say it was left as it was: %s", err);
    snprintf(args, sizeof args, "--graph '%s' --json", kept);
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0 || !strstr(out, "\"nodes\": 2,"))
        fail_msg("the old kept.gr is not intact: %s%s", out, err);
    char cmd[600], count[32] = "";
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c tmp-", tmpdir);
    FILE *ls = popen(cmd, "r");
    assert_non_null(ls);
    if (!fgets(count, sizeof count, ls))
        count[0] = 0;
    pclose(ls);
    if (atoi(count) != 0)
        fail_msg("%d temporary file(s) left in %s", atoi(count), tmpdir);
    snprintf(args, sizeof args, "--graph road-ny-ci --write '%s'", kept);
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0)
        fail_msg("ckgraph %s: %s", args, err);
    snprintf(args, sizeof args, "--graph '%s' --json", kept);
    if (tool_run(ckgraph, args, out, sizeof out, err, sizeof err) != 0 || !strstr(out, "\"nodes\": 4096,"))
        fail_msg("kept.gr was not replaced: %s%s", out, err);
}

/* Numbers in graph files: the line and the value in one line, exit 1. */
static void test_bad_numbers_in_files(void **state)
{
    (void)state;
    static const struct {
        const char *name, *text, *needle;
    } cases[] = {
        {"w.txt", "0 1 4\n1 2 -5\n", "w.txt:2: weight (the third column) '-5' is not an integer"},
        {"w2.txt", "0 1 nan\n", "w2.txt:1: weight (the third column) 'nan'"},
        {"w.gr", "p sp 3 1\na 1 2 1e999\n", "w.gr:2: arc weight '1e999'"},
        {"w.graph", "2 1 1\n2 12abc\n1 3\n", "w.graph:2: edge weight '12abc'"},
        {"w.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 inf\n", "w.mtx:3: expected a finite"},
    };
    char args[1200];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        FILE *f = fopen(in_tmp(cases[i].name), "w");
        assert_non_null(f);
        fputs(cases[i].text, f);
        fclose(f);
        snprintf(args, sizeof args, "--graph '%s'", in_tmp(cases[i].name));
        expect_error(args, 2, cases[i].needle);
    }
    /* Command-line numbers: strict, exit 2. */
    expect_error("--graph rmat --scale 14abc", 2, "--scale");
    expect_error("--graph rmat --scale nan", 2, "--scale");
    expect_error("--graph rmat --scale ' 14'", 2, "--scale");
    expect_error("--graph grid --seed 1.5", 2, "--seed");
    expect_error("--graph grid --grid-drop -5", 2, "--grid-drop");
    expect_error("--graph rmat --edge-factor 1e3", 2, "--edge-factor");
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
        cmocka_unit_test(test_bad_command_lines),    cmocka_unit_test(test_summary_and_write),
        cmocka_unit_test(test_not_regular_files),    cmocka_unit_test(test_failed_write_keeps_old_file),
        cmocka_unit_test(test_bad_numbers_in_files), cmocka_unit_test(test_mtx_from_dimacs_same_answer),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
