/* The register cap's cache (runtime/cap_cache.h), no device: keys that
 * change with every field they cover, the folder from the environment,
 * entries written and read back whole, and every file that is not an
 * entry for this key (garbage, a truncated or longer file, another
 * driver, device, source, options or group size, a folder in the entry's
 * place) ignored with a reason, and a folder that cannot be written
 * refused with one. */
#include "cap_cache.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void key_for(ck_cap_cache_key *k, const char *driver, const char *source, const char *options, size_t wg)
{
    const char *parts[] = {"__kernel void a(void) {}\n", source};
    ck_cap_cache_key_init(k, "NVIDIA H200", driver, parts, 2, options, wg);
}

static ck_cap_cache_entry an_entry(void)
{
    ck_cap_cache_entry e = {.cap = 32,
                            .registers = 32,
                            .stack_bytes = 8,
                            .spill_bytes = 0,
                            .full_occupancy_registers = 32,
                            .note = "auto: capped at 32 registers (40 without a cap), no spill"};
    return e;
}

/* A folder of its own under the test's temporary root for each case. */
static void fresh_dir(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s/coopkernels", root, name); }

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_key_covers_every_field(void **state)
{
    (void)state;
    ck_cap_cache_key a, b;
    key_for(&a, "580.159.04", "src", "-DX", 64);
    key_for(&b, "580.159.04", "src", "-DX", 64);
    assert_memory_equal(&a, &b, sizeof a);
    /* The parts hash as if joined: one part of both texts is the same source. */
    const char *joined[] = {"__kernel void a(void) {}\nsrc"};
    ck_cap_cache_key_init(&b, "NVIDIA H200", "580.159.04", joined, 1, "-DX", 64);
    assert_true(a.source_hash == b.source_hash && a.source_bytes == b.source_bytes);
    char pa[512], pb[512];
    assert_int_equal(ck_cap_cache_path("/c", &a, pa, sizeof pa), 0);
    assert_int_equal(ck_cap_cache_path("/c", &b, pb, sizeof pb), 0);
    assert_string_equal(pa, pb);
    assert_int_equal(strncmp(pa, "/c/cap-", 7), 0);
    assert_int_equal(strlen(pa), strlen("/c/cap-") + 16 + strlen(".txt"));
    /* Each field moves the entry's file. */
    ck_cap_cache_key other[5];
    key_for(&other[0], "580.159.05", "src", "-DX", 64);
    key_for(&other[1], "580.159.04", "srd", "-DX", 64);
    key_for(&other[2], "580.159.04", "src", "-DY", 64);
    key_for(&other[3], "580.159.04", "src", "-DX", 128);
    other[4] = a;
    snprintf(other[4].device, sizeof other[4].device, "NVIDIA H100 80GB HBM3");
    for (int i = 0; i < 5; ++i) {
        char po[512];
        assert_int_equal(ck_cap_cache_path("/c", &other[i], po, sizeof po), 0);
        if (!strcmp(po, pa))
            fail_msg("key %d: a changed field kept the entry's file %s", i, po);
    }
    assert_true(other[1].source_hash != a.source_hash);
    /* A path that does not fit is refused, not cut. */
    assert_int_equal(ck_cap_cache_path("/c", &a, pa, 20), -1);
    /* A NULL part counts as an empty one; newlines in a field become blanks. */
    const char *with_null[] = {"x", NULL};
    const char *plain[] = {"x"};
    ck_cap_cache_key_init(&a, "dev\nice", "d", with_null, 2, "o", 1);
    ck_cap_cache_key_init(&b, "dev ice", "d", plain, 1, "o", 1);
    assert_memory_equal(&a, &b, sizeof a);
}

static void test_dir_from_environment(void **state)
{
    (void)state;
    char buf[512];
    setenv("HOME", "/home/someone", 1);
    setenv("XDG_CACHE_HOME", "/var/cache/u", 1);
    unsetenv("CK_CAP_CACHE");
    assert_string_equal(ck_cap_cache_dir(buf, sizeof buf), "/var/cache/u/coopkernels");
    setenv("CK_CAP_CACHE", "on", 1);
    assert_string_equal(ck_cap_cache_dir(buf, sizeof buf), "/var/cache/u/coopkernels");
    setenv("XDG_CACHE_HOME", "relative/not/allowed", 1);
    assert_string_equal(ck_cap_cache_dir(buf, sizeof buf), "/home/someone/.cache/coopkernels");
    unsetenv("XDG_CACHE_HOME");
    assert_string_equal(ck_cap_cache_dir(buf, sizeof buf), "/home/someone/.cache/coopkernels");
    setenv("CK_CAP_CACHE", "off", 1);
    assert_null(ck_cap_cache_dir(buf, sizeof buf));
    setenv("CK_CAP_CACHE", "0", 1);
    assert_null(ck_cap_cache_dir(buf, sizeof buf));
    unsetenv("CK_CAP_CACHE");
    unsetenv("HOME");
    assert_null(ck_cap_cache_dir(buf, sizeof buf));
    setenv("HOME", "/home/someone", 1);
    assert_null(ck_cap_cache_dir(buf, 8)); /* too small a buffer: no folder, not a cut one */
}

static void test_store_then_load(void **state)
{
    (void)state;
    char dir[512], warn[1024] = "";
    fresh_dir(dir, sizeof dir, "roundtrip"); /* neither the folder nor its parent exists */
    ck_cap_cache_key k;
    key_for(&k, "580.159.04", "src", "-DCK_MEGAKERNEL -DCK_TASKS_BUILD=1", 256);
    ck_cap_cache_entry e = an_entry(), got;
    assert_int_equal(ck_cap_cache_load(dir, &k, &got, warn, sizeof warn), CK_CAP_CACHE_MISS);
    assert_string_equal(warn, "");
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), 0);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(ck_cap_cache_load(dir, &k, &got, warn, sizeof warn), CK_CAP_CACHE_HIT);
    assert_string_equal(warn, "");
    assert_int_equal(got.cap, 32);
    assert_int_equal(got.registers, 32);
    assert_int_equal(got.stack_bytes, 8);
    assert_int_equal(got.spill_bytes, 0);
    assert_int_equal(got.full_occupancy_registers, 32);
    assert_string_equal(got.note, e.note);
    /* A second decision replaces the first; no cap is a decision too. */
    e.cap = 0;
    e.registers = 30;
    snprintf(e.note, sizeof e.note, "auto: 30 registers already let a compute unit hold its most work-items");
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), 0);
    assert_int_equal(ck_cap_cache_load(dir, &k, &got, warn, sizeof warn), CK_CAP_CACHE_HIT);
    assert_int_equal(got.cap, 0);
    assert_int_equal(got.registers, 30);
    /* Another key in the same folder misses. */
    ck_cap_cache_key k2;
    key_for(&k2, "580.159.04", "src", "-DCK_MEGAKERNEL -DCK_TASKS_BUILD=0", 256);
    assert_int_equal(ck_cap_cache_load(dir, &k2, &got, warn, sizeof warn), CK_CAP_CACHE_MISS);
    /* A note with a newline stays on its line. */
    snprintf(e.note, sizeof e.note, "two\nlines");
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), 0);
    assert_int_equal(ck_cap_cache_load(dir, &k, &got, warn, sizeof warn), CK_CAP_CACHE_HIT);
    assert_string_equal(got.note, "two lines");
}

/* Loads k from dir expecting IGNORED with `why` in the warning, and no
 * decision left in the entry. */
static void expect_ignored(const char *dir, const ck_cap_cache_key *k, const char *why)
{
    char warn[1024] = "";
    ck_cap_cache_entry got;
    assert_int_equal(ck_cap_cache_load(dir, k, &got, warn, sizeof warn), CK_CAP_CACHE_IGNORED);
    if (!strstr(warn, why))
        fail_msg("warning '%s' does not say '%s'", warn, why);
    assert_int_equal(got.cap, 0);
    assert_int_equal(got.registers, 0);
}

static void test_bad_entries_ignored(void **state)
{
    (void)state;
    char dir[512], path[1024], warn[1024];
    fresh_dir(dir, sizeof dir, "bad");
    ck_cap_cache_key k;
    key_for(&k, "580.159.04", "src", "-DX", 64);
    ck_cap_cache_entry e = an_entry(), got;
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), 0);
    assert_int_equal(ck_cap_cache_path(dir, &k, path, sizeof path), 0);
    char good[8192];
    snprintf(good, sizeof good, "%s", read_all(path));

    write_file(path, "garbage\n\x01\x02 not an entry\n");
    expect_ignored(dir, &k, "not an entry of this library's format");
    write_file(path, "");
    expect_ignored(dir, &k, "not an entry");
    /* Truncated after its fifth line. */
    char cut[8400];
    snprintf(cut, sizeof cut, "%s", good);
    char *at = cut;
    for (int i = 0; i < 5 && at; ++i)
        at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL;
    assert_non_null(at);
    *at = '\0';
    write_file(path, cut);
    expect_ignored(dir, &k, "not an entry");
    /* One line more than an entry has. */
    snprintf(cut, sizeof cut, "%sextra 1\n", good);
    write_file(path, cut);
    expect_ignored(dir, &k, "not an entry");
    /* A number that is not one, and a cap no compiler takes. */
    snprintf(cut, sizeof cut, "%s", good);
    char *cap = strstr(cut, "\ncap 32\n");
    assert_non_null(cap);
    memcpy(cap, "\ncap xx\n", 8);
    write_file(path, cut);
    expect_ignored(dir, &k, "not an entry");
    /* Each field of the key that differs: the file of another key copied here. */
    struct {
        const char *driver, *source, *options;
        size_t wg;
        const char *device, *why;
    } foreign[] = {
        {"575.51.03", "src", "-DX", 64, "NVIDIA H200", "another driver"},
        {"580.159.04", "other source", "-DX", 64, "NVIDIA H200", "another megakernel source"},
        {"580.159.04", "src", "-DY", 64, "NVIDIA H200", "another build options"},
        {"580.159.04", "src", "-DX", 1024, "NVIDIA H200", "another work-group size"},
        {"580.159.04", "src", "-DX", 64, "NVIDIA H100 80GB HBM3", "another device"},
    };
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; ++i) {
        ck_cap_cache_key f;
        const char *parts[] = {"__kernel void a(void) {}\n", foreign[i].source};
        ck_cap_cache_key_init(&f, foreign[i].device, foreign[i].driver, parts, 2, foreign[i].options, foreign[i].wg);
        char fdir[512], fpath[1024];
        fresh_dir(fdir, sizeof fdir, "foreign");
        assert_int_equal(ck_cap_cache_store(fdir, &f, &e, warn, sizeof warn), 0);
        assert_int_equal(ck_cap_cache_path(fdir, &f, fpath, sizeof fpath), 0);
        write_file(path, read_all(fpath));
        expect_ignored(dir, &k, foreign[i].why);
    }
    /* The next decision replaces what was ignored. */
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), 0);
    assert_int_equal(ck_cap_cache_load(dir, &k, &got, warn, sizeof warn), CK_CAP_CACHE_HIT);
    /* A folder where the entry's file would be. */
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    expect_ignored(dir, &k, "not a regular file");
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), -1);
    assert_non_null(strstr(warn, "not kept"));
    assert_int_equal(rmdir(path), 0);
}

static void test_unwritable_folder(void **state)
{
    (void)state;
    char dir[512], warn[1024];
    ck_cap_cache_key k;
    key_for(&k, "580.159.04", "src", "-DX", 64);
    ck_cap_cache_entry e = an_entry(), got;
    /* The folder's path is a file. */
    snprintf(dir, sizeof dir, "%s/a-file", root);
    write_file(dir, "x");
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), -1);
    assert_non_null(strstr(warn, "is not a folder"));
    expect_ignored(dir, &k, "unusable");
    /* Its parent is a file. */
    snprintf(dir, sizeof dir, "%s/a-file/coopkernels", root);
    assert_int_equal(ck_cap_cache_store(dir, &k, &e, warn, sizeof warn), -1);
    assert_non_null(strstr(warn, "cannot make"));
    /* A folder without write permission (root writes anyway: then the
     * store succeeds, which is what a root process gets). */
    snprintf(dir, sizeof dir, "%s/readonly", root);
    assert_int_equal(mkdir(dir, 0500), 0);
    int r = ck_cap_cache_store(dir, &k, &e, warn, sizeof warn);
    if (geteuid() != 0) {
        assert_int_equal(r, -1);
        assert_non_null(strstr(warn, "not kept"));
        assert_int_equal(ck_cap_cache_load(dir, &k, &got, warn, sizeof warn), CK_CAP_CACHE_MISS);
    } else {
        assert_int_equal(r, 0);
    }
}

int main(void)
{
    snprintf(root, sizeof root, "%s/ck-cap-cache-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_covers_every_field), cmocka_unit_test(test_dir_from_environment),
        cmocka_unit_test(test_store_then_load),        cmocka_unit_test(test_bad_entries_ignored),
        cmocka_unit_test(test_unwritable_folder),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", root, root);
    if (system(cmd) != 0)
        fprintf(stderr, "test_cap_cache: could not remove %s\n", root);
    return failed;
}
