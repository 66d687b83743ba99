/* Tests of ckcheck, the device-free kernel checker (argv[1] is the binary,
 * argv[2] the repository root, argv[3] tests/cooperative_kernels.txt): exit
 * 0 for a clean file (warnings printed, allowed), 1 for stitcher errors, for
 * warnings under --werror and for a launch too big for the runtime, 2 with
 * one line for a bad command line, a missing file, or a FIFO, a folder or
 * a device as the kernel file (within seconds: no blocking open); transmit
 * inference, --transmit declared and --fix; --help
 * and --version;
 * and every kernel file of the project (the list, which must name every .cl
 * file under apps/, examples/ and tests/megakernel/)
 * checks clean with its cooperative kernels. */
#define _DEFAULT_SOURCE /* popen, mkdtemp */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tool_run.h"

static const char *tool, *root, *manifest;
static char tmp[256];
static char out[65536], err[65536];

/* Runs ckcheck with args (shell words); returns its exit status, its stdout
 * in out and its stderr in err. */
static int run(const char *fmt, ...)
{
    char args[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return tool_run(tool, args, out, sizeof out, err, sizeof err);
}

/* Writes `text` to tmp/name; returns the path (static storage, one at a time). */
static const char *write_file(const char *name, const char *text, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
    return path;
}

static const char *write_text(const char *name, const char *text) { return write_file(name, text, strlen(text)); }

static void expect(int want, int got, const char *what)
{
    if (want != got)
        fail_msg("%s: exit status %d (want %d); stderr:\n%s", what, got, want, err);
}

/* A usage error: exit 2 and one line "ckcheck: ...needle...". */
static void expect_usage(const char *args, const char *needle)
{
    int st = run("%s", args);
    if (st != 2 || tool_lines(err) != 1 || strncmp(err, "ckcheck: ", 9) != 0 || !strstr(err, needle))
        fail_msg("ckcheck %s: status %d, stderr '%s' (want 2 and one line 'ckcheck: ...%s...')", args, st, err,
                 needle);
}

static const char *const COOP_KERNEL = "kernel void k(global uint *d, uint n) {\n"
                                       "  transmit uint i = 0;\n"
                                       "  while (i < n) {\n"
                                       "    d[i] += 1;\n"
                                       "    i++;\n"
                                       "    resizing_global_barrier();\n"
                                       "  }\n"
                                       "}\n";

static void test_clean(void **state)
{
    const char *f = write_text("clean.cl", COOP_KERNEL);
    expect(0, run("%s --cooperative k", f), "clean cooperative kernel");
    assert_string_equal(err, "");
    assert_string_equal(out, "");
    /* Options may come before the file, and --werror changes nothing here. */
    expect(0, run("--werror --cooperative k %s", f), "clean kernel, --werror");
    /* Without --cooperative every kernel is ordinary: the fork point is then an error. */
    expect(1, run("%s", f), "primitive in an ordinary kernel");
    if (tool_lines(err) < 1 || !strstr(err, "clean.cl:2:3: error:") || !strstr(err, "not cooperative"))
        fail_msg("want 'clean.cl:2:3: error: ... not cooperative', got:\n%s", err);
}

static void test_errors(void **state)
{
    const char *f = write_text("clean.cl", COOP_KERNEL);
    expect(1, run("%s --cooperative k,nope", f), "unknown cooperative kernel");
    if (!strstr(err, "error:") || !strstr(err, "'nope'") || !strstr(err, "not defined"))
        fail_msg("want an error naming 'nope', got:\n%s", err);
    f = write_text("broken.cl", "kernel void k(global uint *d) {\n  d[0] = (1;\n}\n");
    expect(1, run("%s --cooperative k", f), "syntax error");
    if (!strstr(err, "broken.cl:") || !strstr(err, "error:"))
        fail_msg("want 'broken.cl:LINE: error: ...', got:\n%s", err);
    assert_string_equal(out, "");
}

static void test_warnings_and_werror(void **state)
{
    const char *f = write_text("fence.cl", "kernel void k(global uint *d) {\n"
                                           "  d[0] = 1;\n"
                                           "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                                           "  d[1] = 1;\n"
                                           "  offer_kill();\n"
                                           "}\n");
    expect(0, run("%s --cooperative k", f), "warning without --werror");
    if (tool_lines(err) != 1 || !strstr(err, "fence.cl:3: warning: mem_fence"))
        fail_msg("want one line 'fence.cl:3: warning: mem_fence...', got:\n%s", err);
    expect(1, run("%s --cooperative k --werror", f), "warning with --werror");
    if (!strstr(err, "fence.cl:3: warning:"))
        fail_msg("--werror must still print the warning, got:\n%s", err);
}

/* Transmit inference: the default transmits and notes, --transmit declared
 * lists every error, --fix writes the qualifiers, and its output checks
 * clean under --transmit declared. */
static const char *const CARRIED = "kernel void k(global uint *d, uint n) {\n"
                                   "  uint base = n * 2;\n"
                                   "  for (uint i = 0; i < n; i++) {\n"
                                   "    resizing_global_barrier();\n"
                                   "    if (get_global_id(0) == 0) d[base + i] += 1;\n"
                                   "  }\n"
                                   "}\n";

static void test_transmit_inference(void **state)
{
    const char *f = write_text("carried.cl", CARRIED);
    expect(0, run("%s --cooperative k --werror", f), "inferred transmit (notes are not warnings)");
    if (tool_lines(err) != 2 || !strstr(err, "carried.cl:2:8: note: 'base' is transmitted") ||
        !strstr(err, "carried.cl:3:13: note: 'i' is transmitted"))
        fail_msg("want two notes, at 'base' and 'i', got:\n%s", err);
    assert_string_equal(out, "");
    expect(1, run("%s --cooperative k --transmit declared", f), "carried values, declared mode");
    if (tool_lines(err) != 4 || !strstr(err, "carried.cl:5:34: error: 'base' is read after") ||
        !strstr(err, "carried.cl:5:41: error: 'i' is read after"))
        fail_msg("want both errors with their notes, got:\n%s", err);
    expect(0, run("%s --cooperative k --fix", f), "--fix");
    assert_non_null(strstr(out, "  transmit uint base = n * 2;\n  for (transmit uint i = 0; i < n; i++) {\n"));
    const char *fixed = write_text("fixed.cl", out);
    expect(0, run("%s --cooperative k --transmit declared --werror", fixed), "the fixed file");
    assert_string_equal(err, "");
    /* nothing to infer: --fix writes the file unchanged */
    f = write_text("clean.cl", COOP_KERNEL);
    expect(0, run("%s --cooperative k --fix", f), "--fix of a clean file");
    assert_string_equal(out, COOP_KERNEL);
    /* OpenCL C 2.0 atomics: a note that only the cl20 path builds them */
    f = write_text("a20.cl", "kernel void k(global atomic_int *a) { atomic_fetch_add(a, 1); }\n");
    expect(0, run("%s --werror", f), "OpenCL C 2.0 atomics");
    if (tool_lines(err) != 1 || !strstr(err, "a20.cl:1:22: note: 'atomic_int' is an OpenCL C 2.0 atomic: only the "
                                             "cl20 path builds it"))
        fail_msg("want one note at 'atomic_int', got:\n%s", err);
    expect_usage("x.cl --transmit sometimes", "--transmit");
    expect_usage("x.cl --fix --transmit declared", "--fix");
}

/* ck_context_build refuses a kernel whose arguments exceed a launch packet
 * (28 words); ckcheck reports it at the kernel's line. */
static void test_too_many_arguments(void **state)
{
    char src[4096] = "kernel void big(global ulong *out";
    for (int i = 0; i < 28; ++i)
        snprintf(src + strlen(src), sizeof src - strlen(src), ", ulong a%d", i);
    strcat(src, ") {\n  out[0] = a0;\n}\n");
    const char *f = write_text("big.cl", src);
    expect(1, run("%s", f), "29 argument words");
    if (tool_lines(err) != 1 || !strstr(err, "big.cl:1: error: kernel 'big' has 29 64-bit words"))
        fail_msg("want one line 'big.cl:1: error: kernel 'big' has 29 64-bit words...', got:\n%s", err);
    /* One word fewer fits. */
    char *last = strstr(src, ", ulong a27");
    memmove(last, last + strlen(", ulong a27"), strlen(last + strlen(", ulong a27")) + 1);
    f = write_text("fits.cl", src);
    expect(0, run("%s", f), "28 argument words");
}

static void test_nul_byte(void **state)
{
    static const char text[] = "kernel void k(global uint *d) {\n  d[0] = 1;\n}\n\0garbage {{{";
    const char *f = write_file("nul.cl", text, sizeof text - 1);
    expect(1, run("%s", f), "NUL byte in the file");
    if (tool_lines(err) != 1 || !strstr(err, "NUL byte at offset 46"))
        fail_msg("want one line naming the NUL byte at offset 46, got:\n%s", err);
}

static void test_usage(void **state)
{
    const char *f = write_text("clean.cl", COOP_KERNEL);
    char args[1024];
    expect_usage("", "no kernel file given");
    expect_usage("--cooperative k", "no kernel file given");
    snprintf(args, sizeof args, "%s %s --cooperative k", f, f);
    expect_usage(args, "unexpected argument");
    snprintf(args, sizeof args, "%s --frobnicate", f);
    expect_usage(args, "unknown or ambiguous option '--frobnicate'");
    snprintf(args, sizeof args, "%s -x", f);
    expect_usage(args, "unknown option '-x'");
    snprintf(args, sizeof args, "%s --cooperative", f);
    expect_usage(args, "--cooperative needs a value");
    snprintf(args, sizeof args, "%s --cooperative ''", f);
    expect_usage(args, "empty list");
    snprintf(args, sizeof args, "%s --cooperative k,,j", f);
    expect_usage(args, "empty entry");
    snprintf(args, sizeof args, "%s --cooperative k --cooperative j", f);
    expect_usage(args, "given twice");
    snprintf(args, sizeof args, "%s --werror=yes", f);
    expect_usage(args, "--werror");
}

static void test_missing_file(void **state)
{
    int st = run("%s/no-such-file.cl --cooperative k", tmp);
    if (st != 2 || tool_lines(err) != 1 || !strstr(err, "ckcheck: ") || !strstr(err, "cannot open") ||
        !strstr(err, "no-such-file.cl"))
        fail_msg("missing file: status %d, stderr '%s' (want 2 and one line 'ckcheck: ...cannot open ...')", st,
                 err);
}

/* Runs ckcheck under `timeout 10` (a blocked open shows as status 124). */
static int run_timed(const char *args)
{
    char timed[1200];
    snprintf(timed, sizeof timed, "timeout 10 %s", tool);
    return tool_run(timed, args, out, sizeof out, err, sizeof err);
}

/* A FIFO (no writer: a blocking open would wait forever), a folder and
 * devices as the kernel file: exit 2 and one line within seconds. */
static void test_not_regular_files(void **state)
{
    char fifo[512], args[1200];
    snprintf(fifo, sizeof fifo, "%s/kernel-fifo.cl", tmp);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    static const struct {
        const char *path, *needle;
    } cases[] = {
        {NULL, "is a FIFO, not a regular file"},
        {"", "is a directory, not a regular file"},
        {"/dev/null", "'/dev/null' is a character device, not a regular file"},
        {"/dev/zero", "'/dev/zero' is a character device, not a regular file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const char *path = !cases[i].path ? fifo : !*cases[i].path ? tmp : cases[i].path;
        snprintf(args, sizeof args, "'%s' --cooperative k", path);
        int st = run_timed(args);
        if (st != 2 || tool_lines(err) != 1 || strncmp(err, "ckcheck: ", 9) != 0 || !strstr(err, cases[i].needle))
            fail_msg("ckcheck %s: status %d (124: it blocked), stderr '%s' (want 2 and one line with '%s')", path,
                     st, err, cases[i].needle);
    }
    struct stat s;
    assert_int_equal(stat(fifo, &s), 0);
    assert_true(S_ISFIFO(s.st_mode));
}

static void test_version_help(void **state)
{
    expect(0, run("--version"), "--version");
    unsigned a, b, c;
    if (tool_lines(out) != 1 || sscanf(out, "ckcheck (cooperative kernels) %u.%u.%u", &a, &b, &c) != 3)
        fail_msg("--version: want one line 'ckcheck (cooperative kernels) X.Y.Z', got '%s'", out);
    expect(0, run("--help"), "--help");
    const char *opts[] = {"--cooperative", "--werror", "--version", "--help", "Exit status", "default"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; ++i)
        if (!strstr(out, opts[i]))
            fail_msg("--help does not mention %s:\n%s", opts[i], out);
    assert_string_equal(err, "");
}

/* Adds to `list` (newline-separated) every .cl file under root/dir. */
static void find_cl(const char *dir, char *list, size_t cap)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/%s", root, dir);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char rel[1024];
        snprintf(rel, sizeof rel, "%s/%s", dir, e->d_name);
        snprintf(path, sizeof path, "%s/%s", root, rel);
        struct stat s;
        if (stat(path, &s) != 0)
            continue;
        if (S_ISDIR(s.st_mode))
            find_cl(rel, list, cap);
        else if (strlen(e->d_name) > 3 && !strcmp(e->d_name + strlen(e->d_name) - 3, ".cl"))
            snprintf(list + strlen(list), cap - strlen(list), "%s\n", rel);
    }
    closedir(d);
}

static void test_project_kernels(void **state)
{
    FILE *m = fopen(manifest, "r");
    assert_non_null(m);
    static char listed[65536];
    listed[0] = 0;
    char line[2048];
    int checked = 0;
    while (fgets(line, sizeof line, m)) {
        char file[1024], names[1024];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%1023s %1023s", file, names) != 2)
            fail_msg("%s: bad line '%s' (want: PATH NAMES or PATH -)", manifest, line);
        snprintf(listed + strlen(listed), sizeof listed - strlen(listed), "%s\n", file);
        int st = strcmp(names, "-") ? run("%s/%s --cooperative %s", root, file, names) : run("%s/%s", root, file);
        if (st != 0 || strstr(err, "error:"))
            fail_msg("ckcheck %s (cooperative: %s): status %d (want 0), stderr:\n%s", file, names, st, err);
        ++checked;
    }
    fclose(m);
    print_message("%d kernel files check clean\n", checked);
    static char found[65536];
    found[0] = 0;
    const char *dirs[] = {"apps", "examples", "tests/megakernel"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; ++i)
        find_cl(dirs[i], found, sizeof found);
    assert_true(strlen(found) > 0);
    for (char *p = found, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
        *nl = 0;
        char want[1100];
        snprintf(want, sizeof want, "%.1000s\n", p);
        int at_start = strncmp(listed, want, strlen(want)) == 0;
        char mid[1104];
        snprintf(mid, sizeof mid, "\n%.1100s", want);
        if (!at_start && !strstr(listed, mid))
            fail_msg("%s is not in %s: add it with its cooperative kernels", p, manifest);
    }
}

static int setup(void **state)
{
    snprintf(tmp, sizeof tmp, "/tmp/ckcheck-test-XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_ckcheck CKCHECK REPO_ROOT COOPERATIVE_KERNELS_TXT\n");
        return 2;
    }
    tool = argv[1];
    root = argv[2];
    manifest = argv[3];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_warnings_and_werror),
        cmocka_unit_test(test_too_many_arguments),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_not_regular_files),
        cmocka_unit_test(test_version_help),
        cmocka_unit_test(test_transmit_inference),
        cmocka_unit_test(test_project_kernels),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
