/* tests/apps/test_graph_formats.c (owner: apps): the graph file readers and
 * writers of apps/common and the named generators: every reader on
 * hand-written good files; malformed files of every kind (empty, truncated,
 * counts that lie, ids out of range, huge claimed sizes, 100 kB lines) give
 * -1 with one line naming the file and the line (byte offset for Galois
 * binary) and leave nothing allocated; FIFOs, folders and devices are
 * refused by every reader, and by the kernel-file reader app_read_file,
 * without blocking (an alarm ends a hung test);
 * weights that are negative, zero, not finite, too big or followed by
 * other text are errors quoting the value at its exact line, also after a
 * line longer than 4096 characters; the writer refuses FIFOs, folders and
 * devices (/dev/full stays), and a write that fails leaves the old file
 * whole; generate -> write in each format -> read back gives the same CSR;
 * the look-alike generators are deterministic and have their documented
 * sizes. */
#define _DEFAULT_SOURCE /* mknod, makedev and the S_IF* file types, beside POSIX */
#include "graph.h"
#include "graph_input.h"
#include "paths.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

static char tmpdir[256];

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_graph_formats: a read or write blocked for 10 s (a FIFO opened blocking?)\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(3);
    _exit(3);
}

static int setup(void **state)
{
    (void)state;
    signal(SIGALRM, on_alarm);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ck_graph_formats_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static const char *write_bytes(const char *name, const void *data, size_t len)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    return path;
}

static const char *write_text(const char *name, const char *text) { return write_bytes(name, text, strlen(text)); }

/* A Galois v1 file from its header values and arrays. */
typedef struct {
    unsigned char b[4096];
    size_t len;
} blob;

static void put64(blob *x, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        x->b[x->len++] = (unsigned char)(v >> (8 * i));
}

static void put32(blob *x, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        x->b[x->len++] = (unsigned char)(v >> (8 * i));
}

/* The 4-node graph 0->1 (w 5), 0->2 (w 7), 2->3 (w 9) as Galois binary. */
static blob galois_good(void)
{
    blob x = {.len = 0};
    put64(&x, 1), put64(&x, 4), put64(&x, 4), put64(&x, 3);
    put64(&x, 2), put64(&x, 2), put64(&x, 3), put64(&x, 3);
    put32(&x, 1), put32(&x, 2), put32(&x, 3), put32(&x, 0);
    put32(&x, 5), put32(&x, 7), put32(&x, 9);
    return x;
}

static void expect_edge(const app_edges *e, size_t k, int32_t u, int32_t v, int32_t w)
{
    if (e->src[k] != u || e->dst[k] != v || (w && (!e->w || e->w[k] != w)))
        fail_msg("edge %zu: (%d, %d, %d), want (%d, %d, %d)", k, e->src[k], e->dst[k], e->w ? e->w[k] : 0, u, v, w);
}

static void test_good_files(void **state)
{
    (void)state;
    app_edges e;
    char err[512];
    /* Galois binary, picked by content for .gr. */
    blob g = galois_good();
    const char *p = write_bytes("bin.gr", g.b, g.len);
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(e.n, 4);
    assert_int_equal(e.m, 3);
    expect_edge(&e, 0, 0, 1, 5);
    expect_edge(&e, 1, 0, 2, 7);
    expect_edge(&e, 2, 2, 3, 9);
    app_edges_free(&e);
    /* METIS: comments, an empty line for an isolated node, edge weights. */
    p = write_text("w.graph", "% comment\n4 2 1\n2 3\n1 3\n\n% inside\n\n");
    assert_int_equal(app_read_graph(p, &e, err, sizeof err), -1); /* 2 edges need 4 entries, 2 given */
    p = write_text("w.graph", "% comment\n4 2 001\n2 3 3 4\n1 3\n\n1 4\n");
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(e.n, 4);
    assert_int_equal(e.m, 4);
    expect_edge(&e, 0, 0, 1, 3);
    expect_edge(&e, 1, 0, 2, 4);
    expect_edge(&e, 3, 3, 0, 4);
    app_edges_free(&e);
    /* METIS with vertex sizes and two vertex weights per node (fmt 110). */
    p = write_text("v.graph", "3 2 110 2\n9 1 1 2 3\n9 1 1 1\n9 1 1 1\n");
    if (app_read_metis(p, &e, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(e.m, 4);
    assert_null(e.w);
    expect_edge(&e, 1, 0, 2, 0);
    app_edges_free(&e);
    /* Matrix Market: pattern general, integer symmetric, real with a
     * negative value (weight 1) and a rounded one. */
    p = write_text("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 2\n1 2\n3 1\n");
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(e.n, 3);
    assert_int_equal(e.m, 2);
    assert_null(e.w);
    expect_edge(&e, 1, 2, 0, 0);
    app_edges_free(&e);
    p = write_text("s.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 6\n3 3 1\n3 2 -4\n");
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(e.m, 5); /* 2 off-diagonal entries twice, the diagonal once */
    expect_edge(&e, 0, 1, 0, 6);
    expect_edge(&e, 1, 0, 1, 6);
    expect_edge(&e, 3, 2, 1, 1);
    app_edges_free(&e);
    p = write_text("r.MTX", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 2.6\n2 1 0.2\n");
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    expect_edge(&e, 0, 0, 1, 3);
    expect_edge(&e, 1, 1, 0, 1);
    app_edges_free(&e);
    /* Edge list: weights when every line has one; comments; long comment. */
    char *longline = malloc(100 * 1024 + 64);
    memset(longline, 'x', 100 * 1024);
    strcpy(longline, "# ");
    longline[2] = 'x';
    strcpy(longline + 100 * 1024, "\n0 1 4\n1 2 6\n");
    p = write_text("w.txt", longline);
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(e.m, 2);
    expect_edge(&e, 1, 1, 2, 6);
    app_edges_free(&e);
    /* A METIS node line of 100 kB (25 000 neighbours). */
    size_t cap = 25000 * 8 + 64, k = 0;
    char *big = malloc(cap);
    k += (size_t)snprintf(big + k, cap - k, "25001 25000\n");
    for (int i = 2; i <= 25001; ++i)
        k += (size_t)snprintf(big + k, cap - k, i > 2 ? " %d" : "%d", i);
    big[k++] = '\n';
    for (int i = 2; i <= 25001; ++i)
        k += (size_t)snprintf(big + k, cap - k, "1\n");
    big[k] = 0;
    assert_true(strlen(big) > 100000);
    p = write_text("star.graph", big);
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(e.m, 50000);
    app_edges_free(&e);
    free(big);
    free(longline);
}

typedef struct {
    const char *file, *text; /* text NULL: the bytes of the Galois case */
    const char *needle;      /* besides the file name */
} bad_case;

/* Checks a failing read: -1, one line, the file's path and the needle,
 * nothing left allocated. */
static void expect_bad(const char *path, const char *needle)
{
    app_edges e;
    char err[1024];
    memset(&e, 0x5a, sizeof e);
    if (app_read_graph(path, &e, err, sizeof err) != -1)
        fail_msg("%s: read without error", path);
    if (!strstr(err, path) || !strstr(err, needle) || strchr(err, '\n'))
        fail_msg("%s: message '%s' lacks the path or '%s' or is not one line", path, err, needle);
    assert_null(e.src);
    assert_null(e.dst);
    assert_null(e.w);
    assert_int_equal(e.m, 0);
}

static void test_malformed_text_files(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        /* empty files */
        {"e.gr", "", "empty"},
        {"e.graph", "", "empty"},
        {"e.mtx", "", "empty"},
        {"e.txt", "", "empty"},
        {"c.txt", "# only a comment\n", ":1: no edges"},
        /* DIMACS */
        {"d1.gr", "p sp 3 2\na 1 2 1\n", ":2: the header says 2 arcs"},
        {"d2.gr", "p sp 3 1\na 1 4 1\n", ":2: "},
        {"d3.gr", "p sp 3 1\na 0 2 1\n", ":2: "},
        {"d4.gr", "p sp 1073741824 1\na 1 2 1\n", ":1: the header claims 1073741824 nodes"},
        {"d5.gr", "p sp 3 100000000\na 1 2 1\n", ":1: the header claims"},
        {"d6.gr", "p sp 3 1\na 1 2 0\n", ":2: "},
        {"d7.gr", "p sp 3 1\na 1 2 1\na 2 3 1\n", ":3: more arcs"},
        {"d8.gr", "p sp 3 1\na 1 2\n", ":2: "},
        {"d9.gr", "p sp 3 1\na 1 2 99999999999\n", ":2: "},
        {"d10.gr", "c x\np sp 3 1\nzzz\n", ":3: unknown line"},
        /* METIS */
        {"m1.graph", "3 2\n2\n1 3\n", ":3: the file ends after 2"},
        {"m2.graph", "3 2\n2\n1 3\n4\n", ":4: neighbour must be 1..3"},
        {"m3.graph", "3 5\n2\n1 3\n2\n", ":1: the header claims"},
        {"m4.graph", "1073741824 1\n2\n", ":1: the header claims"},
        {"m5.graph", "3 1\n2\n1\n\n2\n", ":5: more node lines"},
        {"m6.graph", "3 2 1\n2 5 3\n1 5\n", ":2: expected an edge weight"},
        {"m7.graph", "3 2 7\n", ":1: fmt"},
        {"m8.graph", "x y\n", ":1: expected the header"},
        {"m9.graph", "3 2\n2 3\n1\n1\n2\n", "more"},
        /* Matrix Market */
        {"x1.mtx", "3 3 1\n1 2\n", ":1: expected the banner"},
        {"x2.mtx", "%%MatrixMarket matrix array real general\n2 2\n", ":1: only 'coordinate'"},
        {"x3.mtx", "%%MatrixMarket matrix coordinate complex general\n", ":1: field"},
        {"x4.mtx", "%%MatrixMarket matrix coordinate pattern hermitian\n", ":1: symmetry"},
        {"x5.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 2\n", ":2: a graph needs a square"},
        {"x6.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", ":3: the size line says 2"},
        {"x7.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 4\n", ":3: expected an entry"},
        {"x8.mtx", "%%MatrixMarket matrix coordinate pattern general\n1073741824 1073741824 1\n1 2\n",
         ":2: the size line claims"},
        {"x9.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n", ":3: expected a finite"},
        {"x10.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n", ":4: more entries"},
        {"x11.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2\n", ":3: expected a finite"},
        {"x12.mtx", "%%MatrixMarket matrix coordinate pattern general\n", ":1: no size line"},
        /* edge lists */
        {"l1.txt", "0 1\n1 x\n", ":2: expected 'u v [w]'"},
        {"l2.txt", "0 -1\n", ":1: expected"},
        {"l3.txt", "0 1073741824\n", ":1: node id above"},
        {"l4.txt", "0 1000000000\n", ":1: node id 1000000000 means"},
        {"l5.el", "0 1\n2\n", ":2: expected"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
        expect_bad(write_text(cases[i].file, cases[i].text), cases[i].needle);
    /* A 100 kB line of garbage: its line is named. */
    char *garbage = malloc(100 * 1024 + 32);
    strcpy(garbage, "p sp 3 1\n");
    memset(garbage + 9, 'q', 100 * 1024);
    strcpy(garbage + 9 + 100 * 1024, "\n");
    expect_bad(write_text("long.gr", garbage), ":2: unknown line");
    garbage[0] = '0', garbage[1] = ' ', garbage[2] = '7', garbage[3] = '7';
    memset(garbage + 4, '7', 100 * 1024);
    expect_bad(write_text("long.txt", garbage), ":1: expected");
    free(garbage);
    /* Binary data in a text format. */
    expect_bad(write_bytes("nul.txt", "0 1\n1\0002\n", 8), ":2: NUL byte");
    expect_bad("/nonexistent/dir/g.mtx", "cannot open");
}

static void test_malformed_galois_files(void **state)
{
    (void)state;
    blob good = galois_good(), x;
    /* Header fields. */
    x = good, x.b[0] = 2;
    expect_bad(write_bytes("v2.gr", x.b, x.len), "byte 0: version must be 1");
    x = good, x.b[8] = 8;
    expect_bad(write_bytes("es.gr", x.b, x.len), "byte 8: edge data");
    x = good, x.b[16] = 0, x.b[16 + 3] = 0x40; /* 2^30 nodes */
    x.len = 32;
    expect_bad(write_bytes("huge.gr", x.b, x.len), "need");
    x = good, x.b[16 + 4] = 1; /* 2^32 + 4 nodes */
    expect_bad(write_bytes("huge2.gr", x.b, x.len), "byte 16: node count");
    x = good, x.b[24 + 5] = 1;
    expect_bad(write_bytes("edges.gr", x.b, x.len), "byte 24: edge count");
    /* Sizes. */
    expect_bad(write_bytes("short.gr", good.b, 19), "byte 19: file ends inside the 32-byte");
    expect_bad(write_bytes("trunc.gr", good.b, good.len - 1), "truncated");
    x = good, x.len += 8;
    expect_bad(write_bytes("trail.gr", x.b, x.len), "trailing bytes");
    /* Contents. */
    x = good, x.b[32 + 8] = 1; /* node 1 ends at 1 < node 0's 2 */
    expect_bad(write_bytes("idx.gr", x.b, x.len), "byte 40: out-index 1 of node 1");
    x = good, x.b[32 + 16] = 2, x.b[32 + 24] = 2; /* last out-index 2, not 3 */
    expect_bad(write_bytes("last.gr", x.b, x.len), "the last out-index is 2");
    x = good, x.b[64 + 4] = 9;
    expect_bad(write_bytes("dst.gr", x.b, x.len), "byte 68: destination 9");
    x = good, x.b[80] = 0;
    expect_bad(write_bytes("w0.gr", x.b, x.len), "byte 80: weight 0");
}

typedef int (*reader_fn)(const char *, app_edges *, char *, size_t);

/* A reader refuses path within seconds with one line naming it and `needle`. */
static void expect_refused(reader_fn read, const char *name, const char *path, const char *needle)
{
    app_edges e;
    char err[1024] = "";
    memset(&e, 0x5a, sizeof e);
    alarm(10);
    int rc = read(path, &e, err, sizeof err);
    alarm(0);
    if (rc != -1)
        fail_msg("%s(%s): read without error", name, path);
    if (!strstr(err, path) || !strstr(err, needle) || strchr(err, '\n'))
        fail_msg("%s(%s): message '%s' lacks the path or '%s' or is not one line", name, path, err, needle);
    assert_null(e.src);
    assert_null(e.w);
}

static void test_not_regular_inputs(void **state)
{
    (void)state;
    static const struct {
        reader_fn read;
        const char *name, *ext;
    } readers[] = {
        {app_read_graph, "app_read_graph", "gr"},
        {app_read_graph, "app_read_graph", "txt"},
        {app_read_graph, "app_read_graph", "graph"},
        {app_read_graph, "app_read_graph", "mtx"},
        {app_read_edge_list, "app_read_edge_list", "el"},
        {app_read_dimacs, "app_read_dimacs", "gr"},
        {app_read_galois, "app_read_galois", "gr"},
        {app_read_metis, "app_read_metis", "graph"},
        {app_read_mtx, "app_read_mtx", "mtx"},
    };
    for (size_t i = 0; i < sizeof readers / sizeof *readers; ++i) {
        char name[64];
        snprintf(name, sizeof name, "fifo%zu.%s", i, readers[i].ext);
        const char *fifo = tmp_path(name);
        assert_int_equal(mkfifo(fifo, 0600), 0);
        expect_refused(readers[i].read, readers[i].name, fifo, "is a FIFO, not a regular file");
        snprintf(name, sizeof name, "dir%zu.%s", i, readers[i].ext);
        const char *dir = tmp_path(name);
        assert_int_equal(mkdir(dir, 0700), 0);
        expect_refused(readers[i].read, readers[i].name, dir, "is a directory, not a regular file");
        expect_refused(readers[i].read, readers[i].name, "/dev/null", "is a character device");
        expect_refused(readers[i].read, readers[i].name, "/dev/zero", "is a character device");
    }
    /* The kernel-file reader of the same library (paths.h). */
    char kerr[1024] = "";
    alarm(10);
    char *src = app_read_file(tmp_path("fifo0.gr"), kerr, sizeof kerr);
    alarm(0);
    assert_null(src);
    if (!strstr(kerr, "is a FIFO, not a regular file") || !strstr(kerr, "--kernels") || strchr(kerr, '\n'))
        fail_msg("app_read_file on a FIFO: message '%s'", kerr);
    assert_null(app_read_file("/dev/zero", kerr, sizeof kerr));
    assert_non_null(strstr(kerr, "is a character device"));
    /* Through the input layer, as ckrun and ckgraph load a file. */
    app_graph_spec s = {.name = tmp_path("fifo0.gr")};
    app_csr g;
    char what[256], err[1024];
    alarm(10);
    assert_int_equal(app_graph_load(&s, &g, what, sizeof what, err, sizeof err), -1);
    alarm(0);
    assert_non_null(strstr(err, "is a FIFO"));
}

/* A failing read whose message holds the line (":N:") and the quoted value. */
static void expect_bad_value(const char *file, const char *text, long line, const char *value)
{
    char where[32], quoted[128];
    snprintf(where, sizeof where, ":%ld: ", line);
    snprintf(quoted, sizeof quoted, "'%s'", value);
    const char *path = write_text(file, text);
    expect_bad(path, where);
    app_edges e;
    char err[1024];
    assert_int_equal(app_read_graph(path, &e, err, sizeof err), -1);
    if (!strstr(err, quoted))
        fail_msg("%s: message '%s' does not quote the value %s", path, err, quoted);
}

static void test_bad_weights(void **state)
{
    (void)state;
    static const char *const bad[] = {"-5", "nan", "inf", "1e999", "12abc", "0", "2147483648", "1.5", "-0"};
    char text[512], file[64];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        snprintf(file, sizeof file, "bw%zu.txt", i);
        snprintf(text, sizeof text, "# c\n0 1 3\n1 2 %s\n", bad[i]);
        expect_bad_value(file, text, 3, bad[i]);
        snprintf(file, sizeof file, "bw%zu.gr", i);
        snprintf(text, sizeof text, "c x\np sp 3 2\na 1 2 3\na 2 3 %s\n", bad[i]);
        expect_bad_value(file, text, 4, bad[i]);
        snprintf(file, sizeof file, "bw%zu.graph", i);
        snprintf(text, sizeof text, "%% c\n3 1 1\n2 %s\n1 %s\n\n", bad[i], bad[i]);
        expect_bad_value(file, text, 3, bad[i]);
    }
    /* Matrix Market values: any finite number is a weight (<= 0 gives 1), so
     * only what is not a finite number, does not fit or has text after it is bad. */
    static const struct {
        const char *field, *value;
    } mtx[] = {
        {"real", "nan"},
        {"real", "inf"},
        {"real", "-inf"},
        {"real", "1e999"},
        {"real", "12abc"},
        {"real", "3e9"},
        {"real", "1,5"},
        {"integer", "nan"},
        {"integer", "1.5"},
        {"integer", "12abc"},
        {"integer", "1e3"},
        {"integer", "99999999999999999999"},
        {"integer", "-99999999999999999999"},
        {"integer", "2147483648"},
    };
    for (size_t i = 0; i < sizeof mtx / sizeof *mtx; ++i) {
        snprintf(file, sizeof file, "bw%zu.mtx", i);
        snprintf(text, sizeof text, "%%%%MatrixMarket matrix coordinate %s general\n%% c\n3 3 2\n1 2 4\n2 3 %s\n",
                 mtx[i].field, mtx[i].value);
        expect_bad_value(file, text, 5, mtx[i].value);
    }
    /* Good values of every format still read. */
    app_edges e;
    char err[512];
    const char *p =
        write_text("gw.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 -5\n2 3 +7\n");
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    expect_edge(&e, 0, 0, 1, 1);
    expect_edge(&e, 1, 1, 2, 7);
    app_edges_free(&e);
    p = write_text("gw.txt", "0 1 2147483647\n1 2 1 1500000000\n");
    if (app_read_graph(p, &e, err, sizeof err))
        fail_msg("%s", err);
    expect_edge(&e, 0, 0, 1, INT32_MAX);
    expect_edge(&e, 1, 1, 2, 1); /* columns after the weight (a timestamp) are ignored */
    app_edges_free(&e);
}

/* A line longer than any fixed buffer (5000 characters) before a bad line:
 * the bad line's number is exact in every text format. */
static void test_long_line_then_bad_line(void **state)
{
    (void)state;
    size_t cap = 16384;
    char *text = malloc(cap), *pad = malloc(5001);
    assert_non_null(text);
    assert_non_null(pad);
    memset(pad, 'x', 5000);
    pad[5000] = 0;
    snprintf(text, cap, "# %s\n0 1 2\n%% %s\n1 2 9q\n", pad, pad);
    expect_bad_value("ll.txt", text, 4, "9q");
    snprintf(text, cap, "c %s\np sp 3 2\nc %s\na 1 2 1\na 2 3 nan\n", pad, pad);
    expect_bad_value("ll.gr", text, 5, "nan");
    snprintf(text, cap, "%% %s\n3 1 1\n%% %s\n2 -5\n1 4\n\n", pad, pad);
    expect_bad_value("ll.graph", text, 4, "-5");
    snprintf(text, cap, "%%%%MatrixMarket matrix coordinate real general\n%% %s\n3 3 2\n%% %s\n1 2 1\n2 3 inf\n",
             pad, pad);
    expect_bad_value("ll.mtx", text, 6, "inf");
    /* A long line of neighbours (1-based ids, 1500 of them: 6000+ characters) in METIS, then a bad one. */
    size_t k = (size_t)snprintf(text, cap, "1502 1501\n");
    for (int v = 2; v <= 1502; ++v)
        k += (size_t)snprintf(text + k, cap - k, v > 2 ? " %d" : "%d", v);
    k += (size_t)snprintf(text + k, cap - k, "\n1 x\n");
    assert_true(k > 5000);
    expect_bad(write_text("ll2.graph", text), ":3: neighbour must be");
    free(pad);
    free(text);
}

/* A write that must not happen: -1 with one line naming the file and `needle`. */
static void expect_write_refused(const char *path, const app_csr *g, const char *needle)
{
    char err[1024] = "";
    alarm(10);
    int rc = app_write_graph(path, APP_FMT_DIMACS, g, err, sizeof err);
    alarm(0);
    if (rc != -1)
        fail_msg("%s: written, want it refused", path);
    if (!strstr(err, path) || !strstr(err, needle) || strchr(err, '\n'))
        fail_msg("%s: message '%s' lacks the path or '%s' or is not one line", path, err, needle);
}

static void expect_char_device(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISCHR(st.st_mode))
        fail_msg("%s is no longer a character device", path);
}

static void test_write_targets(void **state)
{
    (void)state;
    app_graph_spec s = {.name = "road-ny-ci", .seed = 1};
    app_csr g;
    char err[1024], what[256];
    assert_int_equal(app_graph_load(&s, &g, what, sizeof what, err, sizeof err), 0);
    /* A device node of our own first (/dev/full's numbers): a writer that
     * removes what it failed to write removes only this one. */
    if (geteuid() == 0) {
        const char *node = tmp_path("full-node.gr");
        assert_int_equal(mknod(node, S_IFCHR | 0666, makedev(1, 7)), 0);
        expect_write_refused(node, &g, "is a character device");
        expect_char_device(node);
    }
    expect_write_refused("/dev/full", &g, "is a character device");
    expect_char_device("/dev/full");
    assert_int_equal(symlink("/dev/full", tmp_path("to-full.gr")), 0);
    expect_write_refused(tmp_path("to-full.gr"), &g, "is a character device");
    expect_char_device("/dev/full");
    expect_write_refused("/dev/null", &g, "is a character device");
    const char *fifo = tmp_path("out-fifo.gr");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect_write_refused(fifo, &g, "is a FIFO");
    struct stat st;
    assert_int_equal(stat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(mkdir(tmp_path("out-dir.gr"), 0700), 0);
    expect_write_refused(tmp_path("out-dir.gr"), &g, "is a directory");
    expect_write_refused(tmp_path("no-such-folder/g.gr"), &g, "No such file or directory");
    /* A write that fails on the way (past the file size limit, which binds
     * root too): the old file stays whole, no temporary file is left. */
    const char *kept = write_text("kept.gr", "c the old graph\np sp 2 1\na 1 2 1\n");
    struct rlimit old, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 2048;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = app_write_graph(kept, APP_FMT_DIMACS, &g, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(rc, -1);
    if (!strstr(err, "kept.gr") || !strstr(err, "File too large") || strchr(err, '\n'))
        fail_msg("failed write: message '%s' (want one line naming kept.gr and 'File too large')", err);
    app_edges e;
    assert_int_equal(app_read_graph(kept, &e, err, sizeof err), 0);
    assert_int_equal(e.n, 2);
    app_edges_free(&e);
    char cmd[600], out[64] = "";
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c tmp-", tmpdir);
    FILE *ls = popen(cmd, "r");
    assert_non_null(ls);
    if (!fgets(out, sizeof out, ls))
        out[0] = 0;
    pclose(ls);
    if (atoi(out) != 0)
        fail_msg("%s temporary file(s) left in %s", out, tmpdir);
    /* The same file written normally replaces it. */
    assert_int_equal(app_write_graph(kept, APP_FMT_DIMACS, &g, err, sizeof err), 0);
    assert_int_equal(app_read_graph(kept, &e, err, sizeof err), 0);
    assert_int_equal(e.n, g.n);
    app_edges_free(&e);
    app_csr_free(&g);
}

static int same_csr(const app_csr *a, const app_csr *b, int weights)
{
    if (a->n != b->n || a->m != b->m || memcmp(a->row, b->row, ((size_t)a->n + 1) * sizeof *a->row) ||
        memcmp(a->col, b->col, (size_t)a->m * sizeof *a->col))
        return 0;
    if (!weights)
        return 1;
    for (int32_t k = 0; k < a->m; ++k)
        if ((a->w ? a->w[k] : 1) != (b->w ? b->w[k] : 1))
            return 0;
    return 1;
}

static void test_round_trips(void **state)
{
    (void)state;
    const char *names[] = {"road-ny-ci", "rmat20-ci", "circuit-ci", "bc-1k-ci"};
    static const char *ext[] = {[APP_FMT_EDGES] = "txt",
                                [APP_FMT_DIMACS] = "gr",
                                [APP_FMT_GALOIS] = "gr",
                                [APP_FMT_METIS] = "graph",
                                [APP_FMT_MTX] = "mtx"};
    char err[512], what[256];
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
        app_graph_spec s = {.name = names[i], .seed = 3};
        app_csr g;
        if (app_graph_load(&s, &g, what, sizeof what, err, sizeof err))
            fail_msg("%s", err);
        for (int f = APP_FMT_EDGES; f <= APP_FMT_MTX; ++f) {
            char file[64];
            snprintf(file, sizeof file, "rt_%zu_%s.%s", i, app_graph_format_name((app_graph_format)f), ext[f]);
            const char *p = tmp_path(file);
            if (app_write_graph(p, (app_graph_format)f, &g, err, sizeof err))
                fail_msg("%s", err);
            app_edges e;
            app_csr h;
            if (app_read_graph(p, &e, err, sizeof err))
                fail_msg("%s as %s: %s", names[i], app_graph_format_name((app_graph_format)f), err);
            if (f == APP_FMT_EDGES && e.n < g.n) { /* isolated nodes past the last id are not in an edge list */
                for (int32_t v = e.n; v < g.n; ++v)
                    assert_int_equal(g.row[v + 1] - g.row[v], 0);
                e.n = g.n;
            }
            assert_int_equal(app_csr_build(&e, 1, &h, err, sizeof err), 0);
            app_edges_free(&e);
            if (!same_csr(&g, &h, 1))
                fail_msg("%s written as %s and read back differs", names[i],
                         app_graph_format_name((app_graph_format)f));
            /* Only DIMACS adds weights (1) to an unweighted graph. */
            if (f != APP_FMT_DIMACS)
                assert_true((g.w == NULL) == (h.w == NULL));
            app_csr_free(&h);
        }
        app_csr_free(&g);
    }
    /* METIS refuses a directed graph; an unwritable path is an error. */
    app_edges e;
    memset(&e, 0, sizeof e);
    e.n = 3;
    app_edges_push(&e, 0, 1);
    app_csr d;
    assert_int_equal(app_csr_build(&e, 0, &d, err, sizeof err), 0);
    app_edges_free(&e);
    assert_int_equal(app_write_graph(tmp_path("d.graph"), APP_FMT_METIS, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "symmetric"));
    assert_int_equal(access(tmp_path("d.graph"), F_OK), -1);
    assert_int_equal(app_write_graph("/nonexistent/dir/x.mtx", APP_FMT_MTX, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/dir/x.mtx"));
    /* A directed graph survives as general Matrix Market. */
    assert_int_equal(app_write_graph(tmp_path("d.mtx"), APP_FMT_MTX, &d, err, sizeof err), 0);
    assert_int_equal(app_read_graph(tmp_path("d.mtx"), &e, err, sizeof err), 0);
    assert_int_equal(e.m, 1);
    app_edges_free(&e);
    app_csr_free(&d);
}

/* The look-alikes at CI size: deterministic, seeded, with the documented
 * node counts and shape; the paper sizes through app_graph_spec_edges. */
static void test_named_generators(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int32_t nodes;
        int32_t edges; /* undirected edges after dedup; 0: not fixed */
        int weighted;
    } ci[] = {
        {"ecology-ci", 4096, 2 * 64 * 63, 0},
        {"circuit-ci", 4096, 0, 0},
        {"road-ny-ci", 4096, 5685, 1},
        {"road-nw-ci", 4096, 4815, 1},
        {"road-w-ci", 4096, 4987, 1},
        {"rmat20-ci", 4096, 0, 0},
        {"rmat22-ci", 4096, 0, 0},
        {"bc-1k-ci", 256, 4096, 0},
        {"bc-2k-ci", 256, 8192, 0},
    };
    char err[512], what[256];
    for (size_t i = 0; i < sizeof ci / sizeof *ci; ++i) {
        assert_true(app_graph_is_generated(ci[i].name));
        assert_non_null(strstr(app_graph_generators(), ci[i].name));
        app_graph_spec s = {.name = ci[i].name, .seed = 1};
        app_csr a, b, c;
        assert_int_equal(app_graph_load(&s, &a, what, sizeof what, err, sizeof err), 0);
        assert_int_equal(app_graph_load(&s, &b, what, sizeof what, err, sizeof err), 0);
        s.seed = 2;
        assert_int_equal(app_graph_load(&s, &c, what, sizeof what, err, sizeof err), 0);
        if (a.n != ci[i].nodes || (ci[i].edges && a.m != 2 * ci[i].edges) || (a.w != NULL) != ci[i].weighted)
            fail_msg("%s: %d nodes, %d arcs, weighted %d", ci[i].name, a.n, a.m, a.w != NULL);
        assert_true(same_csr(&a, &b, 1));
        if (strcmp(ci[i].name, "ecology-ci") != 0) /* the full grid has nothing random */
            assert_false(same_csr(&a, &c, 1));
        app_csr_free(&a);
        app_csr_free(&b);
        app_csr_free(&c);
    }
    static const struct {
        const char *name;
        double edges;
    } paper[] = {{"ecology", 1998000}, {"road-ny", 366923},  {"road-nw", 1420104},
                 {"road-w", 7624073},  {"rmat20", 16777216}, {"rmat22", 67108864},
                 {"bc-1k", 65536},     {"bc-2k", 524288},    {"circuit", 2.0 * 1585478 + 1585}};
    for (size_t i = 0; i < sizeof paper / sizeof *paper; ++i) {
        app_graph_spec s = {.name = paper[i].name};
        assert_true(app_graph_is_generated(paper[i].name));
        if (app_graph_spec_edges(&s) != paper[i].edges)
            fail_msg("%s: %.0f edges, want %.0f", paper[i].name, app_graph_spec_edges(&s), paper[i].edges);
    }
    /* road-ny at full size is quick: exact counts, connected. */
    app_edges e;
    assert_int_equal(app_gen_road(264346, 366923, 1, &e, err, sizeof err), 0);
    assert_int_equal(e.n, 264346);
    assert_int_equal(e.m, 366923);
    app_edges_free(&e);
    assert_int_equal(app_gen_road(100, 500, 1, &e, err, sizeof err), -1);
    assert_int_equal(app_gen_uniform(10, 40, 1, &e, err, sizeof err), -1);
    assert_int_equal(app_gen_circuit(1, 0, 0, 1, &e, err, sizeof err), -1);
    /* An unknown name is neither generated nor a file. */
    assert_false(app_graph_is_generated("road-xx"));
    app_graph_spec s = {.name = "road-xx"};
    app_csr g;
    assert_int_equal(app_graph_load(&s, &g, what, sizeof what, err, sizeof err), -1);
    assert_non_null(strstr(err, "neither a generator"));
    assert_non_null(strstr(err, "road-ny"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_files),
        cmocka_unit_test(test_malformed_text_files),
        cmocka_unit_test(test_malformed_galois_files),
        cmocka_unit_test(test_not_regular_inputs),
        cmocka_unit_test(test_bad_weights),
        cmocka_unit_test(test_long_line_then_bad_line),
        cmocka_unit_test(test_write_targets),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_named_generators),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
