/* test_errors.c: every rejection of the stitcher. Each test feeds a source that must be
 * refused and checks that the message is "t.cl:<line>: error: ..." naming the construct,
 * and that no output is produced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "st_test_util.h"

#define MSG(line, ...) st_assert_msg(m, line, __VA_ARGS__, NULL)

static void test_fork_point_in_switch(void **st) {
  (void)st;
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  while (1) {\n"
                          "    switch (o[0]) {\n"
                          "    case 1:\n"
                          "      request_fork();\n"
                          "      break;\n"
                          "    }\n"
                          "  }\n"
                          "}\n",
                          "k", NULL);
  MSG(5, "request_fork()", "switch", "line 3", "'k'");
  m = st_fail("kernel void k(global int *o) {\n"
              "  switch (o[0]) { default: { resizing_global_barrier(); } }\n"
              "}\n",
              "k", NULL);
  MSG(2, "resizing_global_barrier()", "switch");
}

static void test_primitives_in_non_cooperative_kernel(void **st) {
  (void)st;
  static const char *const prims[] = {"offer_kill", "request_fork", "global_barrier",
                                      "resizing_global_barrier"};
  for (size_t i = 0; i < 4; i++) {
    char src[256];
    snprintf(src, sizeof src,
             "kernel void a(void) { }\nkernel void k(global int *o) {\n"
             "  o[0] = 1;\n  %s();\n}\n",
             prims[i]);
    const char *m = st_fail(src, "a", NULL);
    MSG(4, prims[i], "kernel 'k'", "not cooperative");
  }
}

static void test_global_barrier_through_helper_in_non_cooperative_kernel(void **st) {
  (void)st;
  const char *m = st_fail("void sync(void) { global_barrier(); }\n"
                          "void outer(void) { sync(); }\n"
                          "kernel void k(void) { outer(); }\n",
                          NULL);
  MSG(3, "kernel 'k'", "not cooperative", "'outer'", "global_barrier");
}

static void test_goto_and_labels_next_to_fork_points(void **st) {
  (void)st;
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  if (o[0]) goto out;\n"
                          "  request_fork();\n"
                          "out:\n"
                          "  o[1] = 0;\n"
                          "}\n",
                          "k", NULL);
  MSG(2, "goto", "cooperative kernel 'k'", "request_fork() on line 3");
  m = st_fail("kernel void k(global int *o) {\n"
              "  here: o[0]++;\n"
              "  while (o[0]) resizing_global_barrier();\n"
              "}\n",
              "k", NULL);
  MSG(2, "a label", "cooperative kernel 'k'", "resizing_global_barrier() on line 3");
}

static void test_primitive_inside_expressions(void **st) {
  (void)st;
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  for (int i = 0; i < 4; request_fork(), i++) { }\n"
                          "}\n",
                          "k", NULL);
  MSG(2, "request_fork() must be called as a statement", "'request_fork();'");
  m = st_fail("kernel void k(global int *o) {\n"
              "  while (o[0] && resizing_global_barrier()) { }\n"
              "}\n",
              "k", NULL);
  MSG(2, "resizing_global_barrier() must be called as a statement");
  m = st_fail("kernel void k(global int *o) {\n  int x = offer_kill();\n}\n", "k", NULL);
  MSG(2, "offer_kill() must be called as a statement");
  m = st_fail("kernel void k(global int *o) {\n  if (offer_kill()) return;\n}\n", "k", NULL);
  MSG(2, "offer_kill() must be called as a statement");
  m = st_fail("kernel void k(global int *o) {\n  global_barrier(1);\n}\n", "k", NULL);
  MSG(2, "global_barrier() must be called as a statement");
  m = st_fail("kernel void k(global int *o) {\n  (void)request_fork;\n}\n", "k", NULL);
  MSG(2, "request_fork()");
}

static void test_primitive_in_macro(void **st) {
  (void)st;
  const char *m = st_fail("#define YIELD() do { offer_kill(); } while (0)\n"
                          "kernel void k(global int *o) { YIELD(); }\n",
                          "k", NULL);
  MSG(1, "macro 'YIELD'", "offer_kill()", "write it directly in the kernel");
  m = st_fail("kernel void k(global int *o) {\n"
              "#define SYNC \\\n"
              "  resizing_global_barrier()\n"
              "  SYNC;\n"
              "}\n",
              "k", NULL);
  MSG(2, "macro 'SYNC'", "resizing_global_barrier()", "write it directly in the kernel");
  m = st_fail("#define T transmit\nkernel void k(void) { }\n", "k", NULL);
  MSG(1, "macro 'T'", "transmit", "write it directly in the kernel");
}

static void test_transmit_misuse(void **st) {
  (void)st;
  const char *m = st_fail("int h(void) {\n  transmit int x = 0;\n  return x;\n}\n", NULL);
  MSG(2, "transmit", "function 'h'", "body of a cooperative kernel");
  m = st_fail("kernel void k(void) {\n  transmit int x = 0;\n}\n", NULL);
  MSG(2, "transmit", "kernel 'k'", "not cooperative");
  /* nested blocks and for-inits may hold transmit variables (test_rules.c), but the
   * transmit struct is declared in front of the kernel: no types declared inside it */
  m = st_fail("kernel void k(global int *o) {\n  typedef int T;\n  if (o[0]) {\n"
              "    transmit T x;\n  }\n}\n",
              "k", NULL);
  MSG(4, "transmit variable of type 'T'", "declared inside kernel 'k'", "file scope");
  m = st_fail("kernel void k(global int *o) {\n  transmit typedef int T;\n}\n", "k", NULL);
  MSG(2, "'transmit' cannot qualify a typedef");
  m = st_fail("kernel void k(global int *o) {\n  transmit int a[4];\n}\n", "k", NULL);
  MSG(2, "transmit array 'a'", "pointer to global memory");
  m = st_fail("kernel void k(global int *o) {\n  transmit const int c = 1;\n}\n", "k", NULL);
  MSG(2, "transmit variable 'c' cannot be const");
  m =
    st_fail("kernel void k(global int *o) {\n  transmit global int *const p = o;\n}\n", "k", NULL);
  MSG(2, "transmit variable 'p' cannot be const");
  m = st_fail("kernel void k(global int *o) {\n  transmit local int l;\n}\n", "k", NULL);
  MSG(2, "transmit variable cannot be local");
  m = st_fail("kernel void k(global int *o) {\n  int x = 0;\n  o[transmit] = x;\n}\n", "k", NULL);
  MSG(3, "'transmit' can only qualify a variable");
  m = st_fail("kernel void k(transmit int x) { }\n", "k", NULL);
  MSG(1, "'transmit' can only qualify a variable");
  m = st_fail("kernel void k(global int *o) {\n"
              "  transmit int i = 0;\n"
              "  while (i < 3) {\n"
              "    int i = 5;\n"
              "    request_fork();\n"
              "  }\n"
              "}\n",
              "k", NULL);
  MSG(5, "transmit variable 'i' is hidden", "request_fork()");
}

static void test_cooperative_list(void **st) {
  (void)st;
  const char *m = st_fail("kernel void k(void) { }\n", "k", "nope", NULL);
  MSG(1, "cooperative kernel 'nope' is not defined");
  m = st_fail("int h(int x) { return x; }\nkernel void k(void) { }\n", "h", NULL);
  MSG(1, "'h' is listed as a cooperative kernel but is not a kernel");
  m = st_fail("kernel void k(void);\n", "k", NULL);
  MSG(1, "cooperative kernel 'k' is not defined");
}

static void test_unsupported_parameters(void **st) {
  (void)st;
  const char *m;
  m = st_fail("typedef struct { int a; } S;\nkernel void k(S s) { }\n", NULL);
  MSG(2, "parameter 's' of kernel 'k'", "struct by value", "pointer to global memory");
  m = st_fail("kernel void k(int a,\n  union { int i; float f; } u) { }\n", NULL);
  MSG(2, "parameter 'u'", "union by value");
  m = st_fail("kernel void k(read_only image2d_t img) { }\n", NULL);
  MSG(1, "parameter 'img'", "images, samplers, pipes and events");
  m = st_fail("kernel void k(sampler_t s) { }\n", NULL);
  MSG(1, "parameter 's'", "images, samplers");
  m = st_fail("kernel void k(int *p) { }\n", NULL);
  MSG(1, "pointer parameter 'p'", "global, constant or local memory");
  m = st_fail("kernel void k(private int *p) { }\n", NULL);
  MSG(1, "pointer parameter 'p'", "global, constant or local memory");
  m = st_fail("kernel void k(global int *global *pp) { }\n", NULL);
  MSG(1, "parameter 'pp'", "pointers to pointers");
  m = st_fail("#define REAL float\nkernel void k(REAL x) { }\n", NULL);
  MSG(2, "parameter 'x'", "type 'REAL'", "cannot size");
  m = st_fail("typedef struct { int a; } S;\ntypedef S T;\nkernel void k(T t) { }\n", NULL);
  MSG(3, "parameter 't'", "struct by value");
  m = st_fail("typedef constant int *cptr;\nkernel void k(cptr p) { }\n", NULL);
  MSG(2, "parameter 'p'", "constant pointer given through a typedef");
  m = st_fail("kernel void k(global int *) { }\n", NULL);
  MSG(1, "parameter 1 of kernel 'k' has no name");
}

static void test_constant_parameter_to_constant_helper(void **st) {
  (void)st;
  const char *m = st_fail("float f(int i, constant float *w) { return w[i]; }\n"
                          "kernel void k(global float *o, __constant float *w) {\n"
                          "  o[0] = f(1, w);\n"
                          "}\n",
                          NULL);
  MSG(3, "kernel 'k' passes its constant parameter 'w' to 'f'", "parameter 2", "global const");
  ck_stitch_result r;
  st_ok("float f(int i, global const float *w) { return w[i]; }\n"
        "constant float tab[2] = {1, 2};\n"
        "float g(constant float *t) { return t[0]; }\n"
        "kernel void k(global float *o, constant float *w) { o[0] = f(1, w) + g(tab); }\n",
        &r, NULL);
  ck_stitch_result_free(&r);
}

static void test_local_variables(void **st) {
  (void)st;
  const char *m = st_fail("void h(void) {\n  local int buf[4];\n}\n", NULL);
  MSG(2, "local variable 'buf'", "function 'h'", "pass a local pointer");
  m = st_fail("kernel void k(void) {\n  local int x = 3;\n}\n", NULL);
  MSG(2, "local variable 'x' cannot have an initializer");
}

static void test_kernel_shape(void **st) {
  (void)st;
  const char *m = st_fail("kernel int k(void) { return 0; }\n", NULL);
  MSG(1, "kernel 'k' must return void");
  m = st_fail("#define WG 64\nkernel __attribute__((reqd_work_group_size(WG, 1, 1))) void k() {}\n",
              NULL);
  MSG(2, "reqd_work_group_size", "integer literals");
  m = st_fail("kernel __attribute__((reqd_work_group_size(8, 8, 1))) void k() {}\n", NULL);
  MSG(1, "reqd_work_group_size(8,8,1)", "one-dimensional");
  m = st_fail("kernel void a(void) { }\nkernel void b(void) {\n  a();\n}\n", NULL);
  MSG(3, "'b' calls kernel 'a'");
  m = st_fail("kernel void a(void) { }\nkernel void a(void) { }\n", NULL);
  MSG(2, "kernel 'a' is defined twice");
  m = st_fail("int a(void);\nkernel void a(void) { }\n", NULL);
  MSG(2, "'a' is declared both as a kernel and as a function");
}

static void test_unsupported_builtins_and_reserved_names(void **st) {
  (void)st;
  const char *m =
    st_fail("kernel void k(global int *o) {\n  o[get_global_linear_id()] = 1;\n}\n", NULL);
  MSG(2, "get_global_linear_id()", "not supported");
  m = st_fail("kernel void k(global int *o) {\n  int ck_x = 0;\n}\n", NULL);
  MSG(2, "identifier 'ck_x' is reserved");
  m = st_fail("kernel void k(global int *ck_o) { }\n", NULL);
  MSG(1, "identifier 'ck_o' is reserved");
  m = st_fail("int ck_helper(void) { return 0; }\n", NULL);
  MSG(1, "identifier 'ck_helper' is reserved");
  m = st_fail("constant int ck_table[1] = {0};\n", NULL);
  MSG(1, "identifier 'ck_table' is reserved");
  m = st_fail("kernel void k(global int *o) {\n  o[0] = ck_get_group_id(ck_ctx, 0);\n}\n", NULL);
  MSG(2, "identifier 'ck_ctx' is reserved", "the stitcher generates it");
  m = st_fail("kernel void k(global int *o) {\n  o[0] = 1;\n  ck_kernel_k(0);\n}\n", NULL);
  MSG(3, "identifier 'ck_kernel_k' is reserved");
  /* the runtime's prelude functions may be used */
  ck_stitch_result r;
  st_ok(
    "kernel void k(volatile global uint *o) { ck_store_relaxed(o, ck_load_relaxed(o) + 1u); }\n",
    &r, NULL);
  st_assert_has(r.source, "ck_store_relaxed(o, ck_load_relaxed(o) + 1u);");
  ck_stitch_result_free(&r);
}

static void test_conditional_directive_next_to_fork_points(void **st) {
  (void)st;
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  while (o[0]) {\n"
                          "#ifdef FAST\n"
                          "    o[1]++;\n"
                          "#endif\n"
                          "    request_fork();\n"
                          "  }\n"
                          "}\n",
                          "k", NULL);
  MSG(3, "conditional preprocessor directive", "kernel 'k'", "request_fork() on line 6");
}

static void test_lexical_and_syntax_errors(void **st) {
  (void)st;
  const char *m = st_fail("kernel void k(void) {\n /* never closed\n}\n", NULL);
  MSG(2, "unterminated comment");
  m = st_fail("constant char s[] = \"abc;\nkernel void k(void) { }\n", NULL);
  MSG(1, "unterminated string literal");
  m = st_fail("kernel void k(void) {\n  if (1) {\n}\n", NULL);
  MSG(1, "'{' is never closed");
  m = st_fail("kernel void k(void) {\n  int x = (1 + 2];\n}\n", NULL);
  MSG(2, "']' does not match the '('");
  m = st_fail("kernel void k(global int *o) {\n  o[0] = 1\n}\n", NULL);
  MSG(2, "expected ';'");
  m = st_fail("kernel void k(global int *o) {\n  else o[0] = 1;\n}\n", NULL);
  MSG(2, "'else' without a matching 'if'");
  m = st_fail("kernel void k(global int *o) {\n  do o[0]++; until (o[0]);\n}\n", NULL);
  MSG(2, "expected 'while'");
  m = st_fail("int x = 3\n", NULL);
  MSG(1, "does not end");
}

static void test_bad_arguments(void **st) {
  (void)st;
  ck_stitch_result r;
  char err[128];
  assert_int_equal(ck_stitch(NULL, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "<input>:0: error: ck_stitch: NULL argument"));
  ck_stitch_input in = {NULL, "f.cl", NULL, 0, 0};
  assert_int_equal(ck_stitch(&in, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "f.cl:0: error:"));
  in.source = "kernel void k(void) { }";
  in.n_cooperative = 2;
  assert_int_equal(ck_stitch(&in, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "n_cooperative is 2 but cooperative is NULL"));
  assert_int_equal(ck_stitch(&in, NULL, NULL, 0), -1);
  /* a tiny buffer gets a truncated, terminated message */
  char small[8];
  in.n_cooperative = 0;
  in.source = "kernel int k(void) { return 0; }";
  assert_int_equal(ck_stitch(&in, &r, small, sizeof small), -1);
  assert_int_equal(strlen(small), 7);
  assert_null(r.source);
  assert_int_equal(r.n_kernels, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fork_point_in_switch),
    cmocka_unit_test(test_primitives_in_non_cooperative_kernel),
    cmocka_unit_test(test_global_barrier_through_helper_in_non_cooperative_kernel),
    cmocka_unit_test(test_goto_and_labels_next_to_fork_points),
    cmocka_unit_test(test_primitive_inside_expressions),
    cmocka_unit_test(test_primitive_in_macro),
    cmocka_unit_test(test_transmit_misuse),
    cmocka_unit_test(test_cooperative_list),
    cmocka_unit_test(test_unsupported_parameters),
    cmocka_unit_test(test_constant_parameter_to_constant_helper),
    cmocka_unit_test(test_local_variables),
    cmocka_unit_test(test_kernel_shape),
    cmocka_unit_test(test_unsupported_builtins_and_reserved_names),
    cmocka_unit_test(test_conditional_directive_next_to_fork_points),
    cmocka_unit_test(test_lexical_and_syntax_errors),
    cmocka_unit_test(test_bad_arguments),
  };
  return cmocka_run_group_tests_name("stitcher-errors", tests, NULL, NULL);
}
