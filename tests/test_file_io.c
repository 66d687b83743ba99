/* tests/test_file_io.c: unit tests of runtime/file_io.h, no device. Reading
 * refuses FIFOs, directories and devices at once (a FIFO without a writer
 * must not block: an alarm ends a hung test); the writability check names
 * what it refuses and never opens; a written file appears whole or not at
 * all (abort, a write past RLIMIT_FSIZE, a rename that fails: the old
 * contents stay and no temporary file is left), keeps its mode and writes
 * through a symbolic link to the file it names; lines of any length keep
 * their numbers; the strict number parsers on empty, blank, signed, hex,
 * overflowing and out-of-range text. */
#define _DEFAULT_SOURCE /* mkdtemp, symlink */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "file_io.h"

static char dir[256];

static const char *in_dir(const char *name)
{
    static char path[2][512];
    static int k;
    k ^= 1;
    snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
    return path[k];
}

static void write_raw(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The whole file as a string (static storage). */
static const char *contents(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Entries of the test folder whose name holds ".tmp-" (temporary files left behind). */
static int temporaries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, ".tmp-") != NULL;
    closedir(d);
    return n;
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_file_io: a call blocked for 10 s (a FIFO opened without O_NONBLOCK?)\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(3);
    _exit(3);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ck_file_io_XXXXXX");
    signal(SIGALRM, on_alarm);
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* ck_file_open_read refuses `path` with a one-line message holding `needle`. */
static void expect_refused(const char *path, const char *needle)
{
    char err[512] = "";
    alarm(10);
    FILE *f = ck_file_open_read(path, 0, err, sizeof err);
    alarm(0);
    if (f) {
        fclose(f);
        fail_msg("%s: opened for reading, want it refused (%s)", path, needle);
    }
    if (!strstr(err, needle) || strchr(err, '\n'))
        fail_msg("%s: message '%s' is not one line with '%s'", path, err, needle);
}

static void test_open_read(void **state)
{
    (void)state;
    const char *p = in_dir("a.txt");
    write_raw(p, "hello\n");
    char err[512];
    FILE *f = ck_file_open_read(p, 0, err, sizeof err);
    assert_non_null(f);
    char buf[16] = "";
    assert_non_null(fgets(buf, sizeof buf, f));
    assert_string_equal(buf, "hello\n");
    fclose(f);
    /* Binary mode reads the same bytes; the stream blocks again (a plain read to the end). */
    f = ck_file_open_read(p, 1, err, sizeof err);
    assert_non_null(f);
    assert_int_equal(fcntl(fileno(f), F_GETFL) & O_NONBLOCK, 0);
    assert_int_equal(fread(buf, 1, sizeof buf, f), 6);
    fclose(f);
    /* A symbolic link to a regular file is read. */
    assert_int_equal(symlink(p, in_dir("link.txt")), 0);
    f = ck_file_open_read(in_dir("link.txt"), 0, err, sizeof err);
    assert_non_null(f);
    fclose(f);

    expect_refused(in_dir("missing.txt"), "cannot open");
    expect_refused(in_dir("missing.txt"), "No such file or directory");
    expect_refused(in_dir("missing.txt"), "missing.txt");
    assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
    expect_refused(in_dir("fifo"), "is a FIFO, not a regular file");
    expect_refused(in_dir("fifo"), in_dir("fifo"));
    assert_int_equal(symlink(in_dir("fifo"), in_dir("fifo-link")), 0);
    expect_refused(in_dir("fifo-link"), "is a FIFO");
    expect_refused(dir, "is a directory, not a regular file");
    expect_refused("/dev/null", "'/dev/null' is a character device, not a regular file");
    expect_refused("/dev/zero", "is a character device");
    expect_refused("", "an empty file name");
    /* No message buffer: still refused, nothing written anywhere. */
    assert_null(ck_file_open_read(dir, 0, NULL, 0));
    assert_null(ck_file_open_read(NULL, 0, err, sizeof err));
}

static void expect_not_writable(const char *path, const char *needle)
{
    char err[512] = "";
    if (ck_file_check_writable(path, err, sizeof err) != -1)
        fail_msg("%s: found writable, want it refused (%s)", path, needle);
    if (!strstr(err, needle) || strchr(err, '\n'))
        fail_msg("%s: message '%s' is not one line with '%s'", path, err, needle);
}

static void test_check_writable(void **state)
{
    (void)state;
    char err[512];
    assert_int_equal(ck_file_check_writable(in_dir("new.txt"), err, sizeof err), 0);
    assert_int_equal(access(in_dir("new.txt"), F_OK), -1); /* never created */
    write_raw(in_dir("old.txt"), "x");
    assert_int_equal(ck_file_check_writable(in_dir("old.txt"), err, sizeof err), 0);
    assert_int_equal(symlink(in_dir("old.txt"), in_dir("to-old")), 0);
    assert_int_equal(ck_file_check_writable(in_dir("to-old"), err, sizeof err), 0);
    /* A folder that does not exist: nothing to refuse yet (creating the file fails later). */
    assert_int_equal(ck_file_check_writable(in_dir("no/such/x"), err, sizeof err), 0);

    assert_int_equal(mkfifo(in_dir("wfifo"), 0600), 0);
    alarm(10);
    expect_not_writable(in_dir("wfifo"), "is a FIFO, not a regular file: refusing to write it");
    alarm(0);
    expect_not_writable(dir, "is a directory");
    expect_not_writable("/dev/full", "'/dev/full' is a character device");
    expect_not_writable("/dev/null", "is a character device");
    assert_int_equal(symlink("/dev/full", in_dir("to-full")), 0);
    expect_not_writable(in_dir("to-full"), "is a character device");
    expect_not_writable(in_dir("old.txt/below"), "cannot examine");
    expect_not_writable("", "an empty file name");
    struct stat st;
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void test_writer_new_and_replace(void **state)
{
    (void)state;
    char err[512];
    ck_file_writer w;
    const char *p = in_dir("out.txt");
    assert_int_equal(ck_file_writer_open(&w, p, 0, err, sizeof err), 0);
    fputs("first\n", w.f);
    /* Nothing at the target until the commit. */
    assert_int_equal(access(p, F_OK), -1);
    assert_int_equal(temporaries(), 1);
    assert_int_equal(ck_file_writer_commit(&w, err, sizeof err), 0);
    assert_string_equal(contents(p), "first\n");
    assert_int_equal(temporaries(), 0);
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0666 & ~mask);
    /* Replacing keeps the old file's mode. */
    assert_int_equal(chmod(p, 0640), 0);
    assert_int_equal(ck_file_writer_open(&w, p, 1, err, sizeof err), 0);
    fputs("second\n", w.f);
    assert_string_equal(contents(p), "first\n");
    assert_int_equal(ck_file_writer_commit(&w, err, sizeof err), 0);
    assert_string_equal(contents(p), "second\n");
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    /* Through a symbolic link: the file it names gets the contents, the link stays. */
    assert_int_equal(symlink(p, in_dir("out-link")), 0);
    assert_int_equal(ck_file_writer_open(&w, in_dir("out-link"), 0, err, sizeof err), 0);
    fputs("third\n", w.f);
    assert_int_equal(ck_file_writer_commit(&w, err, sizeof err), 0);
    assert_int_equal(lstat(in_dir("out-link"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(contents(p), "third\n");
    /* Abort: the target as it was, no temporary file. */
    assert_int_equal(ck_file_writer_open(&w, p, 0, err, sizeof err), 0);
    fputs("never\n", w.f);
    ck_file_writer_abort(&w);
    assert_string_equal(contents(p), "third\n");
    assert_int_equal(temporaries(), 0);
    assert_null(w.f);
    /* A writer that never opened: commit says so, abort does nothing. */
    ck_file_writer none;
    memset(&none, 0, sizeof none);
    assert_int_equal(ck_file_writer_commit(&none, err, sizeof err), -1);
    assert_non_null(strstr(err, "no file is being written"));
    ck_file_writer_abort(&none);
}

static void expect_open_refused(const char *path, const char *needle)
{
    char err[512] = "";
    ck_file_writer w;
    alarm(10);
    int rc = ck_file_writer_open(&w, path, 0, err, sizeof err);
    alarm(0);
    if (rc != -1)
        fail_msg("%s: opened for writing, want it refused (%s)", path, needle);
    if (!strstr(err, needle) || strchr(err, '\n'))
        fail_msg("%s: message '%s' is not one line with '%s'", path, err, needle);
    assert_null(w.f);
    ck_file_writer_abort(&w); /* harmless after a failed open */
}

static void test_writer_refuses(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(in_dir("ofifo"), 0600), 0);
    expect_open_refused(in_dir("ofifo"), "is a FIFO");
    expect_open_refused("/dev/full", "is a character device");
    expect_open_refused("/dev/null", "is a character device");
    expect_open_refused(dir, "is a directory");
    expect_open_refused(in_dir("no-such-folder/x.txt"), "no-such-folder/x.txt");
    expect_open_refused(in_dir("no-such-folder/x.txt"), "No such file or directory");
    struct stat st;
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(stat(in_dir("ofifo"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(temporaries(), 0);
}

/* A write that fails on the way (the file size limit, which binds root too)
 * and a rename that fails (the target became a folder): the error names the
 * file, the old contents stay and no temporary file is left. */
static void test_writer_failures(void **state)
{
    (void)state;
    char err[512];
    ck_file_writer w;
    const char *p = in_dir("kept.txt");
    write_raw(p, "old contents\n");
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    struct rlimit small = {.rlim_cur = 4096, .rlim_max = old.rlim_max};
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(ck_file_writer_open(&w, p, 0, err, sizeof err), 0);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    for (int i = 0; i < 2000; ++i)
        fputs("0123456789012345678901234567890123456789\n", w.f);
    int rc = ck_file_writer_commit(&w, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(rc, -1);
    if (!strstr(err, "kept.txt") || !strstr(err, "failed") || strchr(err, '\n'))
        fail_msg("write past the size limit: message '%s' (want one line naming kept.txt and 'failed')", err);
    assert_string_equal(contents(p), "old contents\n");
    assert_int_equal(temporaries(), 0);

    const char *q = in_dir("became-dir");
    write_raw(q, "x");
    assert_int_equal(ck_file_writer_open(&w, q, 0, err, sizeof err), 0);
    fputs("new\n", w.f);
    assert_int_equal(unlink(q), 0);
    assert_int_equal(mkdir(q, 0700), 0);
    write_raw(in_dir("became-dir/inside"), "keep me");
    assert_int_equal(ck_file_writer_commit(&w, err, sizeof err), -1);
    if (!strstr(err, "became-dir") || strchr(err, '\n'))
        fail_msg("failed rename: message '%s' (want one line naming became-dir)", err);
    assert_string_equal(contents(in_dir("became-dir/inside")), "keep me");
    assert_int_equal(temporaries(), 0);
}

static void test_line_reader(void **state)
{
    (void)state;
    /* Line 2 is 10 000 characters, line 3 ends in CRLF, line 4 is empty, the
     * last has no newline. */
    static char text[12000];
    size_t k = (size_t)snprintf(text, sizeof text, "one\n");
    memset(text + k, 'y', 10000);
    k += 10000;
    k += (size_t)snprintf(text + k, sizeof text - k, "\nthree\r\n\nlast");
    const char *p = in_dir("lines.txt");
    write_raw(p, text);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    ck_line_reader r;
    ck_line_reader_init(&r, f);
    assert_int_equal(ck_line_next(&r), 3);
    assert_string_equal(r.line, "one");
    assert_int_equal(r.lineno, 1);
    assert_int_equal(ck_line_next(&r), 10000);
    assert_int_equal(strlen(r.line), 10000);
    assert_int_equal(r.lineno, 2);
    assert_int_equal(ck_line_next(&r), 5);
    assert_string_equal(r.line, "three");
    assert_int_equal(ck_line_next(&r), 0);
    assert_int_equal(r.lineno, 4);
    assert_int_equal(ck_line_next(&r), 4);
    assert_string_equal(r.line, "last");
    assert_int_equal(r.lineno, 5);
    assert_int_equal(ck_line_next(&r), -1);
    assert_int_equal(r.error, 0);
    assert_int_equal(r.lineno, 5);
    ck_line_reader_free(&r);
    assert_null(r.line);
    fclose(f);
    /* An empty file: the end at once. */
    write_raw(p, "");
    f = fopen(p, "r");
    ck_line_reader_init(&r, f);
    assert_int_equal(ck_line_next(&r), -1);
    assert_int_equal(r.error, 0);
    assert_int_equal(r.lineno, 0);
    ck_line_reader_free(&r);
    fclose(f);
    /* A read error (a folder read as a file): -1 with the error set. */
    int fd = open(dir, O_RDONLY);
    assert_true(fd >= 0);
    f = fdopen(fd, "r");
    assert_non_null(f);
    ck_line_reader_init(&r, f);
    assert_int_equal(ck_line_next(&r), -1);
    assert_int_not_equal(r.error, 0);
    ck_line_reader_free(&r);
    fclose(f);
}

typedef struct {
    const char *text;
    uint64_t lo, hi;
    int ok;
    uint64_t want;
    const char *needle; /* in the message when refused */
} u64_case;

static void test_parse_u64(void **state)
{
    (void)state;
    static const u64_case cases[] = {
        {"0", 0, 10, 1, 0, NULL},
        {"42", 0, 100, 1, 42, NULL},
        {"  7 ", 0, 10, 1, 7, NULL},
        {"\t9\n", 0, 10, 1, 9, NULL},
        {"0x10", 0, 100, 1, 16, NULL},
        {"0XfF", 0, 1000, 1, 255, NULL},
        {"007", 0, 10, 1, 7, NULL},
        {"18446744073709551615", 0, UINT64_MAX, 1, UINT64_MAX, NULL},
        {"18446744073709551616", 0, UINT64_MAX, 0, 0, "is above 18446744073709551615"},
        {"0x1ffffffffffffffff", 0, UINT64_MAX, 0, 0, "is above"},
        {"", 0, 10, 0, 0, "is not a whole number"},
        {"   ", 0, 10, 0, 0, "is not a whole number"},
        {"+3", 0, 10, 0, 0, "'+3' is not a whole number"},
        {"-0", 0, 10, 0, 0, "'-0' is below 0"},
        {"-5", 0, 10, 0, 0, "'-5' is below 0"},
        {"abc", 0, 10, 0, 0, "'abc' is not a whole number"},
        {"12abc", 0, 100, 0, 0, "'12abc' is not a whole number"},
        {"1 2", 0, 100, 0, 0, "is not a whole number"},
        {"1.5", 0, 100, 0, 0, "is not a whole number"},
        {"1e3", 0, 10000, 0, 0, "is not a whole number"},
        {"0x", 0, 10, 0, 0, "is not a whole number"},
        {"nan", 0, 10, 0, 0, "is not a whole number"},
        {"11", 0, 10, 0, 0, "'11' is above 10"},
        {"4", 5, 10, 0, 0, "'4' is below 5"},
        {"5", 5, 10, 1, 5, NULL},
        {"10", 5, 10, 1, 10, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const u64_case *c = &cases[i];
        uint64_t v = 12345;
        char err[256] = "";
        int rc = ck_parse_u64(c->text, c->lo, c->hi, &v, err, sizeof err);
        if (c->ok && (rc != 0 || v != c->want))
            fail_msg("ck_parse_u64('%s', %llu..%llu): rc %d, %llu, '%s' (want %llu)", c->text,
                     (unsigned long long)c->lo, (unsigned long long)c->hi, rc, (unsigned long long)v, err,
                     (unsigned long long)c->want);
        if (!c->ok && (rc != -1 || v != 12345 || !strstr(err, c->needle)))
            fail_msg("ck_parse_u64('%s'): rc %d, message '%s' (want -1, '%s', the output untouched)", c->text, rc,
                     err, c->needle);
    }
    uint64_t v;
    assert_int_equal(ck_parse_u64(NULL, 0, 1, &v, NULL, 0), -1);
    assert_int_equal(ck_parse_u64("x", 0, 1, &v, NULL, 0), -1);
}

typedef struct {
    const char *text;
    int64_t lo, hi;
    int ok;
    int64_t want;
    const char *needle;
} i64_case;

static void test_parse_i64(void **state)
{
    (void)state;
    static const i64_case cases[] = {
        {"0", -10, 10, 1, 0, NULL},
        {"-0", -10, 10, 1, 0, NULL},
        {"+3", -10, 10, 1, 3, NULL},
        {" -5 ", -10, 10, 1, -5, NULL},
        {"9223372036854775807", INT64_MIN, INT64_MAX, 1, INT64_MAX, NULL},
        {"-9223372036854775808", INT64_MIN, INT64_MAX, 1, INT64_MIN, NULL},
        {"9223372036854775808", INT64_MIN, INT64_MAX, 0, 0, "is above 9223372036854775807"},
        {"-9223372036854775809", INT64_MIN, INT64_MAX, 0, 0, "is below -9223372036854775808"},
        {"99999999999999999999999", INT64_MIN, INT64_MAX, 0, 0, "is above"},
        {"", -10, 10, 0, 0, "is not a whole number"},
        {"  ", -10, 10, 0, 0, "is not a whole number"},
        {"-", -10, 10, 0, 0, "is not a whole number"},
        {"- 5", -10, 10, 0, 0, "is not a whole number"},
        {"+-5", -10, 10, 0, 0, "is not a whole number"},
        {"0x10", 0, 100, 0, 0, "'0x10' is not a whole number"},
        {"12abc", 0, 100, 0, 0, "is not a whole number"},
        {"1.0", 0, 100, 0, 0, "is not a whole number"},
        {"inf", 0, 100, 0, 0, "is not a whole number"},
        {"-11", -10, 10, 0, 0, "'-11' is below -10"},
        {"11", -10, 10, 0, 0, "'11' is above 10"},
        {"-1", 0, 10, 0, 0, "'-1' is below 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const i64_case *c = &cases[i];
        int64_t v = 12345;
        char err[256] = "";
        int rc = ck_parse_i64(c->text, c->lo, c->hi, &v, err, sizeof err);
        if (c->ok && (rc != 0 || v != c->want))
            fail_msg("ck_parse_i64('%s'): rc %d, %lld, '%s' (want %lld)", c->text, rc, (long long)v, err,
                     (long long)c->want);
        if (!c->ok && (rc != -1 || v != 12345 || !strstr(err, c->needle)))
            fail_msg("ck_parse_i64('%s'): rc %d, message '%s' (want -1, '%s', the output untouched)", c->text, rc,
                     err, c->needle);
    }
    int64_t v;
    assert_int_equal(ck_parse_i64(NULL, 0, 1, &v, NULL, 0), -1);
}

typedef struct {
    const char *text;
    double lo, hi;
    int ok;
    double want;
    const char *needle;
} dbl_case;

static void test_parse_double(void **state)
{
    (void)state;
    static const dbl_case cases[] = {
        {"0", 0, 1, 1, 0, NULL},
        {"-0", 0, 1, 1, 0, NULL},
        {"1.5", 0, 10, 1, 1.5, NULL},
        {" 2 ", 0, 10, 1, 2, NULL},
        {"+3", 0, 10, 1, 3, NULL},
        {"-2.5", -10, 10, 1, -2.5, NULL},
        {"1e3", 0, 1e4, 1, 1000, NULL},
        {"1e308", 0, 1.7e308, 1, 1e308, NULL},
        {"nan", -1e9, 1e9, 0, 0, "'nan' is not a finite number"},
        {"-nan", -1e9, 1e9, 0, 0, "is not a finite number"},
        {"NAN", -1e9, 1e9, 0, 0, "is not a finite number"},
        {"inf", -1e9, 1e9, 0, 0, "is not a finite number"},
        {"-inf", -1e9, 1e9, 0, 0, "is not a finite number"},
        {"infinity", -1e9, 1e9, 0, 0, "is not a finite number"},
        {"1e999", -1e9, 1e9, 0, 0, "'1e999' is not a finite number"},
        {"-1e999", -1e9, 1e9, 0, 0, "is not a finite number"},
        {"", 0, 1, 0, 0, "is not a number"},
        {"   ", 0, 1, 0, 0, "is not a number"},
        {"12abc", 0, 100, 0, 0, "'12abc' is not a number"},
        {"1.5.2", 0, 100, 0, 0, "is not a number"},
        {"1 2", 0, 100, 0, 0, "is not a number"},
        {"abc", 0, 100, 0, 0, "is not a number"},
        {"-1", 0, 100, 0, 0, "'-1' is below 0"},
        {"100.5", 0, 100, 0, 0, "'100.5' is above 100"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const dbl_case *c = &cases[i];
        double v = 12345;
        char err[256] = "";
        int rc = ck_parse_double(c->text, c->lo, c->hi, &v, err, sizeof err);
        if (c->ok && (rc != 0 || v != c->want))
            fail_msg("ck_parse_double('%s'): rc %d, %g, '%s' (want %g)", c->text, rc, v, err, c->want);
        if (!c->ok && (rc != -1 || v != 12345 || !strstr(err, c->needle)))
            fail_msg("ck_parse_double('%s'): rc %d, message '%s' (want -1, '%s', the output untouched)", c->text, rc,
                     err, c->needle);
    }
    double v;
    assert_int_equal(ck_parse_double(NULL, 0, 1, &v, NULL, 0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_read),
        cmocka_unit_test(test_check_writable),
        cmocka_unit_test(test_writer_new_and_replace),
        cmocka_unit_test(test_writer_refuses),
        cmocka_unit_test(test_writer_failures),
        cmocka_unit_test(test_line_reader),
        cmocka_unit_test(test_parse_u64),
        cmocka_unit_test(test_parse_i64),
        cmocka_unit_test(test_parse_double),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
