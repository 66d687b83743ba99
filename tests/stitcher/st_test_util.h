/* st_test_util.h: helpers shared by the stitcher tests: running the stitcher on a string
 * with a list of cooperative kernels, asserting on its output or its error message,
 * reading test files, and the structural check that no generated goto enters a loop. */
#ifndef ST_TEST_UTIL_H
#define ST_TEST_UTIL_H

#include <stddef.h>

#include "stitcher.h"

#ifndef STITCHER_TEST_DIR
#define STITCHER_TEST_DIR "."
#endif

/* Stitches src (file name "t.cl") with the NULL-terminated cooperative names; fails the
 * test (with the message) if the stitcher fails. The result is freed by the caller. */
void st_ok(const char *src, ck_stitch_result *r, ...);

/* Stitches src (file name "t.cl") with one cooperative kernel (NULL: none), which must
 * succeed; returns its warnings, "" if none (static storage, one call at a time). */
const char *st_warnings(const char *src, const char *coop);

/* Stitches src expecting failure; returns the message (static storage). */
const char *st_fail(const char *src, ...);

/* Asserts that the message starts with "t.cl:<line>: error: " or "t.cl:<line>:<col>: error: "
 * and contains each of the
 * NULL-terminated fragments. */
void st_assert_msg(const char *msg, int line, ...);

/* Asserts that hay contains / does not contain needle (whitespace-insensitive compare when
 * squash is set: runs of blanks in both count as one space). */
void st_assert_has(const char *hay, const char *needle);
void st_assert_lacks(const char *hay, const char *needle);

/* Number of non-overlapping occurrences of needle in hay. */
int st_count(const char *hay, const char *needle);

/* The line and file the device compiler assigns to the first output line containing
 * needle, following the #line directives of the output; -1 if needle is absent. file gets
 * the name (may be NULL). */
int st_presumed_line(const char *out, const char *needle, char *file, size_t file_len);

/* Reads the whole file at path; NULL on failure. Free with free(). */
char *st_read_file(const char *path);

/* Reads a file under STITCHER_TEST_DIR; NULL on failure. Free with free(). */
char *st_read_test_file(const char *rel);

/* Parses generated source structurally and checks every goto: its target label must not
 * be inside a loop that does not also contain the goto. Also checks that labels are unique
 * per function. Returns the number of gotos checked, or -1 and a message in err. */
int st_check_reducible(const char *generated, char *err, size_t err_len);
/* Fails the test (printing the source) unless st_check_reducible accepts it. */
void st_assert_reducible(const char *generated);

#endif
