/* test_inline.c: fork points inside helper functions. The stitcher inlines
 * every helper that reaches offer_kill, request_fork or resizing_global_barrier: the
 * accepted forms (calls as statements, any depth, from loops, two call sites, returns,
 * transmit in helpers, substituted private/local pointers) stitch, keep the user's lines
 * and give reducible code with unique labels; each new rejection fires once with its
 * file:line and reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "st_test_util.h"

#define MSG(line, ...) st_assert_msg(m, line, __VA_ARGS__, NULL)
#define HAS(r, s) st_assert_has((r).source, s)
#define LACKS(r, s) st_assert_lacks((r).source, s)

/* ---- accepted forms ----------------------------------------------------------------- */

static void test_three_call_forms_and_returns(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("int h(global int *o, int v) {\n"         /* 1 */
        "  transmit int w = v + 1;\n"             /* 2 */
        "  request_fork();\n"                     /* 3 */
        "  if (w < 0) return -1;\n"               /* 4 */
        "  o[0] = w;\n"                           /* 5 */
        "  return w;\n"                           /* 6 */
        "}\n"                                     /* 7 */
        "kernel void k(global int *o, int n) {\n" /* 8 */
        "  h(o, 1);\n"                            /* 9 */
        "  transmit int a = h(o, n);\n"           /* 10 */
        "  a = h(o, a);\n"                        /* 11 */
        "  if (a) h(o, 2);\n"                     /* 12 */
        "  o[1] = a;\n"                           /* 13 */
        "}\n",
        &r, "k", NULL);
  assert_int_equal(r.kernels[0].n_fork_points, 4);
  /* parameters become transmit locals of each copy, evaluated once, in order */
  HAS(r, "int ck_i2_v = (");
  HAS(r, "ck_tx.ck_i2_v = ck_i2_v;");
  HAS(r, "ck_tx.ck_i3_w = ck_i3_w;");
  HAS(r, "int a = ck_i2_ret");
  HAS(r, "a = ck_i3_ret;");
  /* a return in the middle jumps to the end of its copy; the last one needs no jump */
  HAS(r, "{ ck_i1_ret = ( -1); goto ck_i1_end; }");
  HAS(r, "ck_i1_ret = ( ck_i1_w); ck_i1_end: ; }");
  LACKS(r, "int h(");
  /* the helper's lines are kept: the fork point of the first copy is on line 3 */
  assert_int_equal(st_presumed_line(r.source, "ck_request_fork(ck_ctx, 1u", NULL, 0), 3);
  assert_int_equal(st_presumed_line(r.source, "int a = ck_i2_ret", NULL, 0), 10);
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_depth_two_in_loop_is_peeled_with_unique_labels(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("int inner(global int *o, int v) {\n"
        "  for (transmit int j = 0; j < v; j++) {\n"
        "    if (o[j] < 0) return j;\n"
        "    resizing_global_barrier();\n"
        "  }\n"
        "  return -1;\n"
        "}\n"
        "void outer(global int *o, int n) {\n"
        "  for (transmit int i = 0; i < n; i++) {\n"
        "    int r = inner(o, i);\n"
        "    if (r >= 0) return;\n"
        "    resizing_global_barrier();\n"
        "  }\n"
        "}\n"
        "kernel void k(global int *o, int n) {\n"
        "  transmit int t = 0;\n"
        "  while (t < 3) {\n"
        "    outer(o, n);\n"
        "    t++;\n"
        "  }\n"
        "}\n",
        &r, "k", NULL);
  assert_int_equal(r.kernels[0].n_fork_points, 2);
  /* the copies peeling makes of the inlined blocks have labels of their own */
  HAS(r, "ck_i2_end_2:");
  HAS(r, "goto ck_i2_end_2;");
  HAS(r, "ck_i1_end_1:");
  HAS(r, "goto ck_i1_end_1;");
  HAS(r, "ck_i2_end:");
  /* no goto enters a loop, and every label is unique (st_check_reducible checks both) */
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_private_and_local_pointers_are_substituted(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("int pick(local int *slot, int *acc) {\n"
        "  request_fork();\n"
        "  acc[0] = slot[0];\n"
        "  return acc[0];\n"
        "}\n"
        "kernel void k(global int *o) {\n"
        "  local int s[4];\n"
        "  int a[2];\n"
        "  int x = 0;\n"
        "  a[0] = 0; s[0] = 1; barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  int v = pick(s, a);\n"
        "  v = pick(s, &x);\n"
        "  o[0] = v;\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "(ck_loc->s)[0]");
  HAS(r, "a [0] =");
  HAS(r, "( & x) [0] =");
  LACKS(r, "ck_i1_slot");
  ck_stitch_result_free(&r);
}

static void test_names_cannot_capture_the_callers(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("void h(global int *o, int i) {\n"
        "  transmit int x = i * 2;\n"
        "  resizing_global_barrier();\n"
        "  o[x] = i;\n"
        "}\n"
        "kernel void k(global int *o) {\n"
        "  transmit int x = 5, i = 7;\n"
        "  h(o, x + i);\n"
        "  o[0] = x + i;\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "int ck_i1_i");
  HAS(r, "x + i);");
  HAS(r, "int ck_i1_x = ck_i1_i * 2;");
  HAS(r, "ck_i1_o[ck_i1_x] = ck_i1_i;");
  HAS(r, "o[0] = x + i;");
  ck_stitch_result_free(&r);
}

static void test_programs_without_helper_fork_points_are_unchanged(void **st) {
  (void)st;
  /* a helper with only global_barrier is not inlined, and such a program's output has
   * no trace of the inliner (the inliner would drop comments and start with #line) */
  ck_stitch_result r;
  st_ok("void sync(void) { global_barrier(); }\n"
        "kernel void k(global int *o) { /* note */ sync(); o[0] = 1; }\n",
        &r, "k", NULL);
  HAS(r, "void sync(ck_wg_t *ck_ctx");
  LACKS(r, "ck_i1");
  ck_stitch_result_free(&r);
}

/* A helper's own variable or parameter named like the copy's result (ret, ret_, ...) gets
 * a name of its own: the result variable ck_i<N>_ret is declared once and holds the
 * return value, and messages name the user's variable as written. */
static void test_helper_names_like_the_result(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("int h(global int *o, int ret_) {\n"      /* 1 */
        "  transmit int ret = ret_ * 2;\n"        /* 2 */
        "  request_fork();\n"                     /* 3 */
        "  o[0] = ret;\n"                         /* 4 */
        "  return ret + 1;\n"                     /* 5 */
        "}\n"                                     /* 6 */
        "kernel void k(global int *o, int n) {\n" /* 7 */
        "  transmit int a = h(o, n);\n"           /* 8 */
        "  o[1] = a;\n"                           /* 9 */
        "}\n",
        &r, "k", NULL);
  HAS(r, "int ck_i1_ret__ = (");               /* the parameter ret_ */
  HAS(r, "int ck_i1_ret_ = ck_i1_ret__ * 2;"); /* the local ret */
  HAS(r, "ck_i1_ret = ( ck_i1_ret_ + 1);");    /* the result */
  assert_int_equal(st_count(r.source, "int ck_i1_ret;"), 1);
  LACKS(r, "int ck_i1_ret =");
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
  const char *m = st_fail("int h(global int *o) {\n"
                          "  int ret = o[1];\n"
                          "  request_fork();\n"
                          "  return ret;\n"
                          "}\n"
                          "kernel void k(global int *o) { transmit int a = h(o); o[0] = a; }\n",
                          "k", NULL);
  MSG(4, "'ret' is read after the request_fork() on line 3", "not transmit");
  if (strstr(m, "ret_")) fail_msg("the escaped name in: %s", m);
}

static void test_rule_checks_cover_helpers(void **st) {
  (void)st;
  /* a helper variable read after its fork point, not transmit: named without the
   * inliner's prefix, at the helper's line */
  const char *m = st_fail("void h(global int *o) {\n"
                          "  int y = o[1];\n"
                          "  request_fork();\n"
                          "  o[0] = y;\n"
                          "}\n"
                          "kernel void k(global int *o) { h(o); }\n",
                          "k", NULL);
  MSG(4, "'y' is read after the request_fork() on line 3", "not transmit");
  if (strstr(m, "ck_i")) fail_msg("inliner names in: %s", m);
  /* the caller's variables too: the rest of the caller runs after the helper returns */
  m = st_fail("void h(void) { resizing_global_barrier(); }\n"
              "kernel void k(global int *o) {\n"
              "  int z = o[2];\n"
              "  h();\n"
              "  o[0] = z;\n"
              "}\n",
              "k", NULL);
  MSG(5, "'z' is read after the resizing_global_barrier() on line 1");
  /* a return's value is assigned on every path to it: no error */
  ck_stitch_result r;
  st_ok("int h(global int *o) {\n"
        "  request_fork();\n"
        "  if (o[0]) return 1;\n"
        "  return 2;\n"
        "}\n"
        "kernel void k(global int *o) { int v = h(o); o[1] = v; }\n",
        &r, "k", NULL);
  ck_stitch_result_free(&r);
}

static void test_stale_m_through_a_parameter_warns(void **st) {
  (void)st;
  const char *w = st_warnings("void h(global uint *o, uint m) {\n"
                              "  resizing_global_barrier();\n"
                              "  o[0] = m;\n"
                              "}\n"
                              "kernel void k(global uint *o) {\n"
                              "  uint m = get_num_groups(0);\n"
                              "  h(o, m);\n"
                              "}\n",
                              "k");
  st_assert_has(w, "t.cl:3:");
  st_assert_has(w, "transmit variable 'm' holds a value computed from get_num_groups");
  st_assert_lacks(w, "ck_i");
}

/* ---- rejections ---------------------------------------------------------------------- */

static const char *const H = "int h(global int *o) { request_fork(); return o[0]; }\n";

static const char *with_h(const char *kernel) {
  static char buf[1024];
  snprintf(buf, sizeof buf, "%s%s", H, kernel);
  return buf;
}

/* The output without its #line directives (the lowered forms move between lines). */
static char *without_lines(const char *src) {
  char *o = malloc(strlen(src) + 1), *p = o;
  assert_non_null(o);
  for (const char *l = src; *l;) {
    const char *e = strchr(l, '\n');
    size_t n = e ? (size_t)(e - l) + 1 : strlen(l);
    if (strncmp(l, "#line ", 6)) {
      memcpy(p, l, n);
      p += n;
    }
    l += n;
  }
  *p = 0;
  return o;
}

#define PLAIN_HAS(s) st_assert_has(plain, s)

/* Calls where an expression stands are lowered: each becomes a copy before its statement,
 * the statement reads the copy's result, and C's order and short-circuiting are kept. */
static void test_calls_where_expressions_stand_are_lowered(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok(with_h("kernel void k(global int *o, int n) {\n"           /* 2 */
               "  transmit int t = n;\n"                           /* 3 */
               "  o[1] = 1 + h(o) * h(o + 1);\n"                   /* 4 */
               "  while (t > 0 && h(o)) t--;\n"                    /* 5 */
               "  do { t++; } while (h(o) || t < 2);\n"            /* 6 */
               "  for (t = h(o); t < h(o); t += h(o)) o[t] = 0;\n" /* 7 */
               "  if (h(o) > 1) o[2] = 2; else o[2] = 3;\n"        /* 8 */
               "  t = (o[3]++, h(o));\n"                           /* 9 */
               "  transmit int a = 1, b = h(o) + a;\n"             /* 10 */
               "  o[4] = b;\n"                                     /* 11 */
               "}\n"),
        &r, "k", NULL);
  assert_int_equal(r.kernels[0].n_fork_points, 10);
  LACKS(r, "h(o");
  char *plain = without_lines(r.source);
  /* operands: left to right; the first result crosses the second call's fork point, so
   * it is transmitted, the second is read before any */
  PLAIN_HAS("o[1] = 1 + ck_i1_ret * ck_i2_ret; }");
  PLAIN_HAS("ck_tx.ck_i1_ret = ck_i1_ret;");
  LACKS(r, "ck_tx.ck_i2_ret");
  /* &&: the right operand's copy only when the left one holds; the test is in the body */
  PLAIN_HAS("while (1) { int ck_i0_test1 = ( t > 0) != 0; if (ck_i0_test1) { int ck_i3_ret;");
  PLAIN_HAS("ck_i0_test1 = ( ck_i3_ret) != 0; } if (!( ck_i0_test1)) break; t--; }");
  /* do-while: the test after the body, reached by continue too; || needs no flag here */
  PLAIN_HAS("{ int ck_i0_test2 = 0;");
  PLAIN_HAS("for (;; ck_i0_test2 = 1) { if (ck_i0_test2) { int ck_i4_ret;");
  PLAIN_HAS("if (!( ck_i4_ret || t < 2)) break; } { t++; } }");
  /* for: init before the loop, step at the top of every pass but the first, then the test */
  PLAIN_HAS("t = ck_i5_ret; int ck_i0_test3 = 0;");
  PLAIN_HAS("for (;; ck_i0_test3 = 1) { if (ck_i0_test3) { int ck_i6_ret;");
  PLAIN_HAS("t += ck_i6_ret; } int ck_i7_ret;");
  PLAIN_HAS("if (!( t < ck_i7_ret)) break; o[t] = 0; }");
  /* if; a comma expression's left part runs first, as a statement */
  PLAIN_HAS("if ( ck_i8_ret > 1) o[2] = 2; else o[2] = 3; }");
  PLAIN_HAS("{ (void)( o[3]++); int ck_i9_ret;");
  PLAIN_HAS("t = ( ck_i9_ret ); }");
  /* one declaration still, so transmit qualifies the group; the later initialiser becomes
   * an assignment after its copy */
  PLAIN_HAS("int a = 1, b; int ck_i10_ret;");
  PLAIN_HAS("b = ck_i10_ret + a;");
  /* each copy keeps the helper's lines, the residual statement the caller's */
  assert_int_equal(st_presumed_line(r.source, "ck_request_fork(ck_ctx, 3u", NULL, 0), 1);
  assert_int_equal(st_presumed_line(r.source, "o[1] = 1 + ck_i1_ret", NULL, 0), 4);
  assert_int_equal(st_presumed_line(r.source, "b = ck_i10_ret", NULL, 0), 10);
  st_assert_reducible(r.source);
  free(plain);
  ck_stitch_result_free(&r);
}

/* A helper's return of another helper's result, a for-init declaration, nested calls in
 * arguments, a short-circuit whose flag crosses a later call, and a kernel's return. */
static void test_returns_arguments_and_flags_are_lowered(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok(with_h("int g(global int *o) {\n"                                        /* 2 */
               "  return h(o) + 1;\n"                                            /* 3 */
               "}\n"                                                             /* 4 */
               "kernel void k(global int *o, int n) {\n"                         /* 5 */
               "  for (transmit int i = g(o); i < n; i++) o[i] = h(h(o) + o);\n" /* 6 */
               "  transmit int z = (n > 1 && h(o)) + h(o);\n"                    /* 7 */
               "  if (z) return (void)h(o);\n"                                   /* 8 */
               "  o[0] = z;\n"                                                   /* 9 */
               "}\n"),
        &r, "k", NULL);
  assert_int_equal(r.kernels[0].n_fork_points, 6);
  LACKS(r, "h(o");
  LACKS(r, "g(o");
  char *plain = without_lines(r.source);
  /* return h(o) + 1; as the helper's last statement: no jump */
  PLAIN_HAS("{ int ck_i2_ret;");
  PLAIN_HAS("ck_i1_ret = ( ck_i2_ret + 1); }");
  PLAIN_HAS("int i = ck_i1_ret;");
  PLAIN_HAS("for ( ; i < n; i++) { int ck_i3_ret;");
  /* h(h(o) + o): the inner copy first, its result read by the outer copy's parameter */
  PLAIN_HAS("global int * ck_i4_o = ( ck_i3_ret + o);");
  PLAIN_HAS("o[i] = ck_i4_ret; }");
  /* the flag of && is read after the second call's fork point: transmitted */
  PLAIN_HAS("int ck_i0_test1 = ( n > 1) != 0; if (ck_i0_test1) {");
  PLAIN_HAS("ck_tx.ck_i0_test1 = ck_i0_test1;");
  PLAIN_HAS("int z = ( ck_i0_test1 ) + ck_i6_ret ;");
  /* a kernel's return of a void value */
  PLAIN_HAS("if (z) { int ck_i7_ret;");
  PLAIN_HAS("(void)( (void) ck_i7_ret); return; }");
  st_assert_reducible(r.source);
  free(plain);
  ck_stitch_result_free(&r);
}

static void test_calls_not_always_evaluated_rejected(void **st) {
  (void)st;
  const char *m =
    st_fail(with_h("kernel void k(global int *o) {\n  int a = o[0] ? h(o) : 0;\n}\n"), "k", NULL);
  MSG(3, "call of 'h' in a branch of '?:' in 'k'", "request_fork() on line 1",
      "write the choice with if/else");
  m = st_fail(with_h("kernel void k(global int *o) {\n  o[0] = 1 + (o[1] ? 2 : h(o));\n}\n"), "k",
              NULL);
  MSG(3, "a branch of '?:'");
  m = st_fail(with_h("kernel void k(global int *o) {\n  o[0] = sizeof(h(o));\n}\n"), "k", NULL);
  MSG(3, "the operand of sizeof", "take the size of the result's type instead");
  m = st_fail(with_h("kernel void k(global int *o) {\n  switch (o[0]) { case h(o): break; }\n}\n"),
              "k", NULL);
  MSG(3, "call of 'h' where the stitcher cannot place a copy of it, in 'k'", "case labels");
}

/* A declaration with several declarators that calls a helper stays one declaration (so
 * transmit, declared or inferred, qualifies the group as written); the initialisers from
 * the first call on become assignments after it, so those that cannot be assigned, or that
 * would see a later declarator instead of an outer name, are errors. */
static void test_declarations_with_calls_stay_one(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok(
    with_h(
      "kernel void k(global int *o) {\n  int a = h(o), l[4];\n  l[0] = a;\n  o[0] = l[0];\n}\n"),
    &r, "k", NULL);
  char *plain = without_lines(r.source);
  PLAIN_HAS("int a, l[4]; int ck_i1_ret;");
  PLAIN_HAS("a = ck_i1_ret;");
  free(plain);
  ck_stitch_result_free(&r);
  const char *m =
    st_fail(with_h(
              "kernel void k(global int *o) {\n  int a = h(o), l[2] = {1, 2};\n  o[0] = a;\n}\n"),
            "k", NULL);
  MSG(3, "'l' is initialised in a declaration that calls 'h' before it, in 'k'", "an array",
      "declare 'l' in a declaration of its own");
  m = st_fail(with_h("kernel void k(global int *o) {\n  const int a = h(o), b = a + 1;\n}\n"), "k",
              NULL);
  MSG(3, "'a' is initialised in a declaration that calls 'h'", "a const");
  m = st_fail(with_h("kernel void k(global int *o, int b) {\n  int a = h(o) + b, b = 2;\n}\n"), "k",
              NULL);
  MSG(3, "the initialiser of 'a' names 'b', which the same declaration declares after it");
  m =
    st_fail(with_h("kernel void k(global int *o) {\n  int a = h(o), enum { A };\n}\n"), "k", NULL);
  MSG(3, "'enum' where a declarator of the declaration stands, in 'k'");
}

static void test_recursion_rejected(void **st) {
  (void)st;
  const char *m = st_fail("void h(global int *o, int n) {\n"
                          "  request_fork();\n"
                          "  if (n) h(o, n - 1);\n"
                          "}\n"
                          "kernel void k(global int *o) { h(o, 3); }\n",
                          "k", NULL);
  MSG(3, "'h' is called recursively", "recursion");
  m = st_fail("void b(void);\n"
              "void a(void) { offer_kill(); b(); }\n"
              "void b(void) { a(); }\n"
              "kernel void k(void) { a(); }\n",
              "k", NULL);
  MSG(3, "'a' is called recursively");
}

static void test_chain_deeper_than_limit_rejected(void **st) {
  (void)st;
  char src[2048];
  size_t n = (size_t)snprintf(src, sizeof src, "void h0(void) { request_fork(); }\n");
  for (int i = 1; i <= 8; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, "void h%d(void) { h%d(); }\n", i, i - 1);
  snprintf(src + n, sizeof src - n, "kernel void k(void) { h8(); }\n");
  const char *m = st_fail(src, "k", NULL);
  MSG(2, "call of 'h0'", "more than 8 deep", "kernel 'k'");
  /* eight deep is fine */
  n = (size_t)snprintf(src, sizeof src, "void h0(void) { request_fork(); }\n");
  for (int i = 1; i <= 7; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, "void h%d(void) { h%d(); }\n", i, i - 1);
  snprintf(src + n, sizeof src - n, "kernel void k(void) { h7(); }\n");
  ck_stitch_result r;
  st_ok(src, &r, "k", NULL);
  ck_stitch_result_free(&r);
}

/* 4^7 copies of h0 pass the output cap: stopped there, in about no time */
static void test_inlining_respects_the_output_cap(void **st) {
  (void)st;
  size_t cap = 4096, n = 0;
  char *src = malloc(cap);
  assert_non_null(src);
  n += (size_t)snprintf(src + n, cap - n, "void h0(global int *o) { request_fork();");
  for (int i = 0; i < 100; i++) n += (size_t)snprintf(src + n, cap - n, " o[%d] = %d;", i, i);
  n += (size_t)snprintf(src + n, cap - n, " }\n");
  for (int i = 1; i <= 7; i++)
    n += (size_t)snprintf(src + n, cap - n,
                          "void h%d(global int *o) { h%d(o); h%d(o); h%d(o); "
                          "h%d(o); }\n",
                          i, i - 1, i - 1, i - 1, i - 1);
  snprintf(src + n, cap - n, "kernel void k(global int *o) { h7(o); }\n");
  const char *m = st_fail(src, "k", NULL);
  free(src);
  if (!strstr(m, "inlining the helpers with fork points would make the program larger than"))
    fail_msg("%s", m);
}

static void test_macro_naming_helper_rejected(void **st) {
  (void)st;
  const char *m =
    st_fail(with_h("#define GET(o) h(o)\nkernel void k(global int *o) { int a = GET(o); }\n"), "k",
            NULL);
  MSG(2, "a macro names 'h'", "does not expand macros");
  /* a macro used in an inlined helper may not name the helper's own names... */
  m = st_fail("#define AT(i) o[base + (i)]\n"
              "void h(global int *o, int base) {\n  request_fork();\n  AT(1) = 2;\n}\n"
              "kernel void k(global int *o) { h(o, 1); }\n",
              "k", NULL);
  MSG(4, "macro 'AT' names 'o' of helper 'h'", "as an argument");
  /* ...but may take them as arguments */
  ck_stitch_result r;
  st_ok("#define AT(p, i) p[i]\n"
        "void h(global int *o, int base) {\n  request_fork();\n  AT(o, base) = 2;\n}\n"
        "kernel void k(global int *o) { h(o, 1); }\n",
        &r, "k", NULL);
  ck_stitch_result_free(&r);
}

static void test_pointer_arguments_rejected(void **st) {
  (void)st;
  const char *m = st_fail("void h(int *p) { request_fork(); p[0] = 1; }\n"
                          "kernel void k(void) {\n  int a[4];\n  h(a + 1);\n}\n",
                          "k", NULL);
  MSG(4, "argument 1 of 'h' must be an array's name or '&variable'", "private or local");
  m = st_fail("void h(local int *p) { request_fork(); p++; p[0] = 1; }\n"
              "kernel void k(void) { local int a[4]; h(a); }\n",
              "k", NULL);
  MSG(1, "parameter 'p' of helper 'h'", "is assigned");
  m = st_fail("void h(int *p) { request_fork(); *p++ = 1; }\n"
              "kernel void k(void) { int a[4]; h(a); }\n",
              "k", NULL);
  MSG(1, "parameter 'p' of helper 'h'", "is assigned");
  /* '*p = v' assigns through p: accepted, and p becomes (&x) */
  ck_stitch_result r;
  st_ok("void h(int *p) {\n  request_fork();\n  *p = *p + 1;\n  *p += 2;\n}\n"
        "kernel void k(global int *o) {\n  transmit int x = 0;\n  h(&x);\n  o[0] = x;\n}\n",
        &r, "k", NULL);
  HAS(r, "* ( & x) = * ( & x) + 1;");
  ck_stitch_result_free(&r);
  m = st_fail("void h(global int p[]) { request_fork(); p[0] = 1; }\n"
              "kernel void k(global int *o) { h(o); }\n",
              "k", NULL);
  MSG(1, "parameter 'p' of helper 'h' is an array", "as a pointer");
}

static void test_transmit_in_plain_helper_rejected(void **st) {
  (void)st;
  const char *m = st_fail("void h(global int *o) {\n  transmit int x = 1;\n  o[0] = x;\n}\n"
                          "kernel void k(global int *o) { h(o); }\n",
                          "k", NULL);
  MSG(2, "transmit variable in function 'h'", "helper function with fork points");
}

static void test_helper_defined_twice_rejected(void **st) {
  (void)st;
  const char *m = st_fail("#ifdef A\nvoid h(void) { request_fork(); }\n#else\n"
                          "void h(void) { resizing_global_barrier(); }\n#endif\n"
                          "kernel void k(void) { h(); }\n",
                          "k", NULL);
  MSG(4, "helper 'h' with fork points", "defined twice (line 2)");
  /* the other definition has no fork point: it would be kept as an ordinary function */
  m = st_fail("#ifdef A\nvoid h(void) { request_fork(); }\n#else\n"
              "void h(void) { }\n#endif\n"
              "kernel void k(void) { h(); }\n",
              "k", NULL);
  MSG(4, "helper 'h' with fork points", "defined twice (line 2)");
  /* the fuzzer's case: a recursive helper reached only from a twice-defined one, no kernel;
   * inlining it would never end */
  m = st_fail("void f(global int *o, int n) { request_fork(); if (n) f(o, n - 1); }\n"
              "void g(global int *o) { offer_kill(); f(o, 1); }\n"
              "void g(global int *o) { o[0] = 1; }\n",
              "k", NULL);
  MSG(3, "helper 'g' with fork points", "defined twice (line 2)");
}

static void test_non_cooperative_kernel_reaching_helper_rejected(void **st) {
  (void)st;
  const char *m = st_fail(with_h("kernel void a(void) { }\n"
                                 "kernel void k(global int *o) { int v = h(o); }\n"),
                          "a", NULL);
  MSG(3, "kernel 'k' is not cooperative but calls 'h'", "request_fork() on line 1");
}

static void test_goto_in_inlined_helper_rejected(void **st) {
  (void)st;
  const char *m = st_fail("void h(global int *o) {\n  request_fork();\n  goto out;\n"
                          "  o[0] = 1;\nout:\n  o[1] = 2;\n}\n"
                          "kernel void k(global int *o) { h(o); }\n",
                          "k", NULL);
  MSG(3, "goto in cooperative kernel 'k'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_three_call_forms_and_returns),
    cmocka_unit_test(test_helper_names_like_the_result),
    cmocka_unit_test(test_depth_two_in_loop_is_peeled_with_unique_labels),
    cmocka_unit_test(test_private_and_local_pointers_are_substituted),
    cmocka_unit_test(test_names_cannot_capture_the_callers),
    cmocka_unit_test(test_programs_without_helper_fork_points_are_unchanged),
    cmocka_unit_test(test_rule_checks_cover_helpers),
    cmocka_unit_test(test_stale_m_through_a_parameter_warns),
    cmocka_unit_test(test_calls_where_expressions_stand_are_lowered),
    cmocka_unit_test(test_returns_arguments_and_flags_are_lowered),
    cmocka_unit_test(test_calls_not_always_evaluated_rejected),
    cmocka_unit_test(test_declarations_with_calls_stay_one),
    cmocka_unit_test(test_recursion_rejected),
    cmocka_unit_test(test_chain_deeper_than_limit_rejected),
    cmocka_unit_test(test_inlining_respects_the_output_cap),
    cmocka_unit_test(test_macro_naming_helper_rejected),
    cmocka_unit_test(test_pointer_arguments_rejected),
    cmocka_unit_test(test_transmit_in_plain_helper_rejected),
    cmocka_unit_test(test_helper_defined_twice_rejected),
    cmocka_unit_test(test_non_cooperative_kernel_reaching_helper_rejected),
    cmocka_unit_test(test_goto_in_inlined_helper_rejected),
  };
  return cmocka_run_group_tests_name("stitcher-inline", tests, NULL, NULL);
}
