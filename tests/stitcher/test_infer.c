/* test_infer.c: every violation of the rule checks in one stitch, and transmit inference
 * (ck_stitch_input.infer_transmit): which variables it transmits, which it refuses and
 * why, the notes that name each one, and the annotated source, which must stitch without
 * inference to the same program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "st_test_util.h"

static char err[16384];

/* Stitches src (file "t.cl", cooperative kernel "k") with inference on or off. */
static int stitch(const char *src, int infer, ck_stitch_result *r) {
  static const char *const coop[] = {"k"};
  ck_stitch_input in = {.source = src,
                        .file_name = "t.cl",
                        .cooperative = coop,
                        .n_cooperative = 1,
                        .infer_transmit = infer};
  return ck_stitch(&in, r, err, sizeof err);
}

/* A kernel that carries four values across a resizing barrier without transmit. */
#define FOUR                                                                                       \
  "kernel void k(global int *o, int n) {\n"                                                        \
  "  int a = n * 2;\n"                                                                             \
  "  float b = 1.5f;\n"                                                                            \
  "  global int *p = o + 1;\n"                                                                     \
  "  for (int i = 0; i < n; i++) {\n"                                                              \
  "    resizing_global_barrier();\n"                                                               \
  "    if (get_global_id(0) == 0) p[i] = a + (int)b;\n"                                            \
  "  }\n"                                                                                          \
  "}\n"

static void test_every_error_at_once(void **st) {
  (void)st;
  ck_stitch_result r;
  assert_int_equal(stitch(FOUR, 0, &r), -1);
  assert_null(r.source);
  /* four errors, each with the note at the fork point, in the order found */
  assert_int_equal(st_count(err, ": error: "), 4);
  assert_int_equal(st_count(err, "note: forked work-groups start after this "
                                 "resizing_global_barrier()"),
                   4);
  const char *pa = strstr(err, "'a' is read"), *pb = strstr(err, "'b' is read");
  const char *pp = strstr(err, "'p' is read"), *pi = strstr(err, "'i' is read");
  assert_non_null(pa);
  assert_non_null(pb);
  assert_non_null(pp);
  assert_non_null(pi);
  /* in source order: the positions of the reads */
  assert_true(pp < pi && pi < pa && pa < pb);
  st_assert_has(err, "t.cl:7:32: error: 'p' is read after the resizing_global_barrier() on line 6");
  st_assert_has(err, "t.cl:7:34: error: 'i' is read after");
  st_assert_has(err, "'for (transmit int i'");
  /* one line per diagnostic */
  assert_int_equal(st_count(err, "\n"), 7);
}

static void test_errors_capped(void **st) {
  (void)st;
  char src[8192];
  size_t n = (size_t)snprintf(src, sizeof src, "kernel void k(global int *o) {\n");
  for (int v = 0; v < 25; v++)
    n += (size_t)snprintf(src + n, sizeof src - n, "  int v%d = o[%d];\n", v, v);
  n += (size_t)snprintf(src + n, sizeof src - n, "  resizing_global_barrier();\n  o[0] = 0");
  for (int v = 0; v < 25; v++) n += (size_t)snprintf(src + n, sizeof src - n, " + v%d", v);
  snprintf(src + n, sizeof src - n, ";\n}\n");
  ck_stitch_result r;
  assert_int_equal(stitch(src, 0, &r), -1);
  assert_int_equal(st_count(err, ": error: "), 20);
  st_assert_has(err, "t.cl: note: 5 more errors not shown (the first 20 are listed)");
  /* with inference, all 25 travel */
  assert_int_equal(stitch(src, 1, &r), 0);
  assert_int_equal(r.n_inferred, 25);
  assert_int_equal(st_count(r.warnings, ": note: "), 25);
  ck_stitch_result_free(&r);
}

/* Equal once every run of blanks (spaces, tabs) is taken as one space. */
static int same_but_blanks(const char *a, const char *b) {
  for (;;) {
    int ba = *a == ' ' || *a == '\t', bb = *b == ' ' || *b == '\t';
    while (*a == ' ' || *a == '\t') a++;
    while (*b == ' ' || *b == '\t') b++;
    if (ba != bb) return 0;
    if (*a != *b) return 0;
    if (!*a) return 1;
    a++, b++;
  }
}

/* The annotated source stitches without inference, to the same program. */
static void check_annotated(const ck_stitch_result *r) {
  assert_non_null(r->annotated);
  ck_stitch_result again;
  if (stitch(r->annotated, 0, &again) != 0)
    fail_msg("the annotated source does not stitch: %s\n%s", err, r->annotated);
  /* the same tokens on the same lines: a qualifier that was written leaves blanks where
   * it stood, an inferred one none */
  if (!same_but_blanks(again.source, r->source))
    fail_msg("the annotated source stitches to another program:\n%s\n---\n%s", again.source,
             r->source);
  assert_null(again.annotated);
  ck_stitch_result_free(&again);
}

static void test_inferred(void **st) {
  (void)st;
  ck_stitch_result r;
  assert_int_equal(stitch(FOUR, 1, &r), 0);
  assert_int_equal(r.n_inferred, 4);
  /* a note at each declaration, naming the variable and the fork point */
  st_assert_has(r.warnings, "t.cl:2:7: note: 'a' is transmitted to the "
                            "work-groups forked at the resizing_global_barrier() on line 6");
  st_assert_has(r.warnings, "t.cl:3:9: note: 'b'");
  st_assert_has(r.warnings, "t.cl:4:15: note: 'p'");
  st_assert_has(r.warnings, "t.cl:5:12: note: 'i'");
  st_assert_has(r.warnings, "declare it 'for (transmit int i' to say so");
  assert_int_equal(st_count(r.warnings, "warning:"), 0);
  /* in source order */
  assert_true(strstr(r.warnings, "'a' is") < strstr(r.warnings, "'b' is") &&
              strstr(r.warnings, "'b' is") < strstr(r.warnings, "'p' is") &&
              strstr(r.warnings, "'p' is") < strstr(r.warnings, "'i' is"));
  /* they are fields of the transmit struct */
  st_assert_has(r.source, "int a;");
  st_assert_has(r.annotated, "  transmit int a = n * 2;\n");
  st_assert_has(r.annotated, "  transmit float b = 1.5f;\n");
  st_assert_has(r.annotated, "  transmit global int *p = o + 1;\n");
  st_assert_has(r.annotated, "  for (transmit int i = 0; i < n; i++) {\n");
  check_annotated(&r);
  ck_stitch_result_free(&r);
  /* what the kernel already declares is not inferred */
  const char *declared = "kernel void k(global int *o, int n) {\n"
                         "  transmit int a = n;\n"
                         "  resizing_global_barrier();\n"
                         "  o[0] = a;\n"
                         "}\n";
  assert_int_equal(stitch(declared, 1, &r), 0);
  assert_int_equal(r.n_inferred, 0);
  assert_null(r.annotated);
  assert_null(r.warnings);
  ck_stitch_result_free(&r);
}

static void test_values_that_cannot_travel(void **st) {
  (void)st;
  static const struct {
    const char *decl, *use, *why;
  } cases[] = {
    {"int g = get_group_id(0);", "o[g] = 1;",
     "may differ between the work-items of a group or between groups"},
    {"int l = get_local_id(0) + 1;", "o[l] = 1;", "may differ between the work-items"},
    {"int t = atomic_inc(o);", "o[t] = 1;", "an atomic operation"},
    {"int m = get_num_groups(0);", "o[0] = m;", "computed from get_num_groups/get_global_size"},
    {"uint d = device_atomic_add((global uint *)o, 1u);", "o[d] = 1;", "may differ between"},
    {"int sc = work_group_scan_inclusive_add(o[0]);", "o[0] = sc;", "may differ between"},
    {"int sg = sub_group_reduce_add(o[0]);", "o[0] = sg;", "may differ between"},
    {"int s = 0; if (get_local_id(0) == 0) s = 1;", "o[0] = s;", "under a condition that is"},
    {"int arr[4] = {0};", "o[0] = arr[1];", "it is an array"},
    {"int x = 1; int *q = &x;", "o[0] = *q;", "points to private or local memory"},
    {"const int c = o[1];", "o[0] = c;", "it is const"},
    {"int u = 1, w[2];", "o[0] = u;", "declared together with the array 'w'"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char src[1024];
    snprintf(src, sizeof src, "kernel void k(global int *o) {\n  %s\n  request_fork();\n  %s\n}\n",
             cases[k].decl, cases[k].use);
    ck_stitch_result r;
    if (stitch(src, 1, &r) == 0) fail_msg("inferred what cannot travel:\n%s", src);
    st_assert_has(err, "it cannot be transmitted: ");
    if (!strstr(err, cases[k].why)) fail_msg("case %zu: '%s' lacks '%s'", k, err, cases[k].why);
    st_assert_has(err, "note: forked work-groups start after this request_fork()");
  }
}

static void test_uniform_values_travel(void **st) {
  (void)st;
  ck_stitch_result r;
  /* a loop counter whose body holds a condition on the id, but no exit under it */
  const char *src = "kernel void k(global int *o, int n) {\n"
                    "  int acc = o[0];\n"
                    "  for (int i = 0; i < n; i++) {\n"
                    "    if (get_local_id(0) == 0) o[i] = acc;\n"
                    "    acc += 2;\n"
                    "    request_fork();\n"
                    "  }\n"
                    "}\n";
  assert_int_equal(stitch(src, 1, &r), 0);
  assert_int_equal(r.n_inferred, 2);
  check_annotated(&r);
  ck_stitch_result_free(&r);
  /* the same loop with a break under that condition: the counter varies */
  const char *brk = "kernel void k(global int *o, int n) {\n"
                    "  for (int i = 0; i < n; i++) {\n"
                    "    if (get_local_id(0) == i) break;\n"
                    "    request_fork();\n"
                    "  }\n"
                    "}\n";
  assert_int_equal(stitch(brk, 1, &r), -1);
  st_assert_has(err, "'i' is read after the request_fork() on line 4");
  st_assert_has(err, "may differ between the work-items");
  /* a helper that reads an id makes its result vary; one that does not, not */
  const char *helpers = "int scaled(int v) { return v * 3; }\n"
                        "int mine(void) { return (int)get_global_id(0); }\n"
                        "kernel void k(global int *o, int n) {\n"
                        "  int s = scaled(n);\n"
                        "  int g = mine();\n"
                        "  request_fork();\n"
                        "  o[0] = s + g;\n"
                        "}\n";
  assert_int_equal(stitch(helpers, 1, &r), -1);
  assert_int_equal(st_count(err, ": error: "), 1);
  st_assert_has(err, "'g' is read after");
}

static void test_mixed_errors_and_inference(void **st) {
  (void)st;
  ck_stitch_result r;
  const char *src = "kernel void k(global int *o, int n) {\n"
                    "  int a = n + 1;\n"
                    "  int g = get_group_id(0);\n"
                    "  resizing_global_barrier();\n"
                    "  o[g] = a;\n"
                    "}\n";
  /* the stitch fails on the one that cannot travel, and lists only it */
  assert_int_equal(stitch(src, 1, &r), -1);
  assert_int_equal(st_count(err, ": error: "), 1);
  st_assert_has(err, "t.cl:5:5: error: 'g' is read after");
}

static void test_inferred_in_inlined_helper(void **st) {
  (void)st;
  ck_stitch_result r;
  const char *src = "void step(global int *o, int n) {\n"
                    "  int base = n * 4;\n"
                    "  resizing_global_barrier();\n"
                    "  o[base] = 1;\n"
                    "}\n"
                    "kernel void k(global int *o, int n) {\n"
                    "  int rounds = n;\n"
                    "  for (int r = 0; r < rounds; r++) step(o, r);\n"
                    "}\n";
  assert_int_equal(stitch(src, 0, &r), -1);
  assert_int_equal(st_count(err, ": error: "), 3);
  /* the messages name the user's variables, not their inlined copies */
  st_assert_has(err, "'base' is read after");
  st_assert_lacks(err, "ck_i");
  assert_int_equal(stitch(src, 1, &r), 0);
  assert_int_equal(r.n_inferred, 3);
  st_assert_has(r.annotated, "  transmit int base = n * 4;\n");
  st_assert_has(r.annotated, "  transmit int rounds = n;\n");
  st_assert_has(r.annotated, "  for (transmit int r = 0; r < rounds; r++) step(o, r);\n");
  st_assert_lacks(r.warnings, "ck_i");
  check_annotated(&r);
  ck_stitch_result_free(&r);
}

/* A helper's result that a path leaves unassigned (no return at its end) is not a variable
 * of the user's: it is not inferred (the annotated source could not declare it). */
static void test_helper_result_not_inferred(void **st) {
  (void)st;
  ck_stitch_result r;
  const char *src = "int get(global int *next) {\n"
                    "  request_fork();\n"
                    "  int t = atomic_inc(next);\n"
                    "  if (t < 0) return -1;\n"
                    "}\n"
                    "kernel void k(global int *next, global int *o) {\n"
                    "  int v = get(next);\n"
                    "  o[0] = v;\n"
                    "}\n";
  assert_int_equal(stitch(src, 1, &r), -1);
  st_assert_has(err, "'ret' is read after the request_fork() on line 2");
  st_assert_has(err, "it holds the result of an inlined helper, and a path through the helper "
                     "ends without a return");
}

/* The inlined program keeps the user's lines, not columns: a helper's variable declared
 * twice on one line (the second in an inner block, the one a forked group reads) cannot be
 * told from the other, so no annotated source is given, and a note says so instead of
 * qualifying the first. */
static void test_annotation_ambiguous_on_a_line(void **st) {
  (void)st;
  ck_stitch_result r;
  const char *src =
    "int h(global int *o, int v) {\n"
    "  int w = v; o[2] = w; { int w = v + 1; resizing_global_barrier(); o[1] = w; }\n"
    "  return 0;\n"
    "}\n"
    "kernel void k(global int *o, int n) {\n"
    "  int a;\n"
    "  a = h(o, n);\n"
    "  o[0] = a;\n"
    "}\n";
  assert_int_equal(stitch(src, 1, &r), 0);
  assert_int_equal(r.n_inferred, 1);
  assert_null(r.annotated);
  st_assert_has(r.warnings, "t.cl:2:");
  st_assert_has(r.warnings, "the declaration of 'w' cannot be written into the source with "
                            "'transmit' (it is declared more than once on line 2");
  ck_stitch_result_free(&r);
}

static void test_annotation_positions(void **st) {
  (void)st;
  ck_stitch_result r;
  /* two variables of one declaration: one qualifier; a spliced line before it */
  const char *src = "#define TWICE(x) \\\n  ((x) * 2)\n"
                    "kernel void k(global int *o, int n) {\n"
                    "  int a = TWICE(n), b = n;\n"
                    "  request_fork();\n"
                    "  o[0] = a + b;\n"
                    "}\n";
  assert_int_equal(stitch(src, 1, &r), 0);
  assert_int_equal(r.n_inferred, 2);
  st_assert_has(r.annotated, "#define TWICE(x) \\\n  ((x) * 2)\n");
  st_assert_has(r.annotated, "  transmit int a = TWICE(n), b = n;\n");
  assert_int_equal(st_count(r.annotated, "transmit"), 1);
  check_annotated(&r);
  ck_stitch_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_error_at_once),
    cmocka_unit_test(test_errors_capped),
    cmocka_unit_test(test_inferred),
    cmocka_unit_test(test_values_that_cannot_travel),
    cmocka_unit_test(test_uniform_values_travel),
    cmocka_unit_test(test_mixed_errors_and_inference),
    cmocka_unit_test(test_inferred_in_inlined_helper),
    cmocka_unit_test(test_annotation_positions),
    cmocka_unit_test(test_annotation_ambiguous_on_a_line),
    cmocka_unit_test(test_helper_result_not_inferred),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
