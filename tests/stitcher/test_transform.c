/* test_transform.c: unit tests of the stitcher's output on small sources: id and call
 * rewriting in kernels, helpers and macros; comments, strings and line continuations that
 * hold keywords; several kernels, kernel/__kernel, attributes; #line mapping; transmit and
 * locals structs; primitives; resume by goto and by peeling; the dispatcher; and the
 * structural check that no generated goto enters a loop, over many control-flow shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "st_test_util.h"

#define HAS(r, s) st_assert_has((r).source, s)
#define LACKS(r, s) st_assert_lacks((r).source, s)

static void test_ids_and_calls(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("int twice(int x);\n"
        "int gid(void) { return get_global_id(0); }\n"
        "int twice(int x) { return 2 * x + (int)get_group_id(0); }\n"
        "int none() { return get_num_groups(0) + get_global_size(0) + get_local_id(0); }\n"
        "kernel void k(global int *o) {\n"
        "  o[get_global_id(0)] = twice(gid()) + none() + twice(twice(3));\n"
        "  o[0] = get_local_size(0) + get_group_id(1);\n"
        "}\n",
        &r, NULL);
  HAS(r, "int twice(ck_wg_t *ck_ctx, int x);");
  HAS(r, "int gid(ck_wg_t *ck_ctx) { return ck_get_global_id(ck_ctx, 0); }");
  HAS(r, "int twice(ck_wg_t *ck_ctx, int x) { return 2 * x + (int)ck_get_group_id(ck_ctx, 0); }");
  HAS(r, "int none(ck_wg_t *ck_ctx) { return ck_get_num_groups(ck_ctx, 0) + "
         "ck_get_global_size(ck_ctx, 0) + get_local_id(0); }");
  HAS(r, "o[ck_get_global_id(ck_ctx, 0)] = twice(ck_ctx, gid(ck_ctx)) + none(ck_ctx) + "
         "twice(ck_ctx, twice(ck_ctx, 3));");
  HAS(r, "o[0] = get_local_size(0) + ck_get_group_id(ck_ctx, 1);");
  HAS(r, "void ck_kernel_k(ck_wg_t *ck_ctx, uint ck_resume, global const void *ck_tx_in, "
         "local ck_locals_k_t *ck_loc, global int *o)");
  LACKS(r, "kernel void");
  ck_stitch_result_free(&r);
}

static void test_member_names_are_not_rewritten(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("typedef struct { int get_global_id; int f; } S;\n"
        "int f(int x) { return x; }\n"
        "kernel void k(global S *s) { s->f = f(s->get_global_id); s[1].f = s->f; }\n",
        &r, NULL);
  HAS(r, "s->f = f(ck_ctx, s->get_global_id); s[1].f = s->f;");
  ck_stitch_result_free(&r);
}

static void test_get_global_offset_is_zero(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global ulong *o) { o[0] = 3 * get_global_offset(0) + 1; }\n", &r, NULL);
  HAS(r, "o[0] = 3 * ((size_t)0 * (size_t)(0)) + 1;");
  ck_stitch_result_free(&r);
}

static void test_comments_strings_continuations(void **st) {
  (void)st;
  ck_stitch_result r;
  /* a non-cooperative kernel: any real primitive would be rejected */
  st_ok("// offer_kill(); in a comment \\\n"
        "   request_fork(); still the same comment (continued line)\n"
        "/* global_barrier(); transmit int x; */\n"
        "constant char msg[] = \"request_fork(); transmit \\\" offer_kill()\";\n"
        "kernel void k(global int *o) {\n"
        "  char c = '\"'; /* resizing_global_barrier(); */\n"
        "  o[0] = c + msg[0]; // transmit\n"
        "  o[1] = get_glo\\\n"
        "bal_id(0);\n"
        "}\n",
        &r, NULL);
  HAS(r, "constant char msg[] = \"request_fork(); transmit \\\" offer_kill()\";");
  HAS(r, "o[1] = ck_get_global_id");
  HAS(r, "(ck_ctx, 0);\n}");
  LACKS(r, "global_barrier");
  LACKS(r, "ck_request_fork");
  ck_stitch_result_free(&r);
}

static void test_macros(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("int h(int v) { return v + 1; }\n"
        "int z(void) { return 0; }\n"
        "#define GID get_global_id(0)\n"
        "#define H(x) h(x) + z()\n"
        "#define P(h) (h)  /* a parameter named like the helper */\n"
        "#define TILE(i) tile[(i)]\n"
        "#define CALLS_NOTHING(a) a.h(1)\n"
        "#define OFF get_global_offset( 0 )\n"
        "#define N 16\n"
        "kernel void k(global int *o) {\n"
        "  local int tile[N];\n"
        "  TILE(0) = GID + H(2) + P(3);\n"
        "  o[0] = TILE(0) + OFF;\n"
        "}\n",
        &r, NULL);
  HAS(r, "#define GID ck_get_global_id(ck_ctx, 0)");
  HAS(r, "#define H(x) h(ck_ctx, x) + z(ck_ctx)");
  HAS(r, "#define P(h) (h)");
  HAS(r, "#define TILE(i) (ck_loc->tile)[(i)]");
  HAS(r, "#define CALLS_NOTHING(a) a.h(1)");
  HAS(r, "#define OFF ((size_t)0 * (size_t)( 0 ))");
  HAS(r, "#define N 16");
  HAS(r, "int tile[N];\n#line 21 \"ck_stitched.cl\"\n} ck_locals_k_t;");
  ck_stitch_result_free(&r);
}

static void test_kernel_spellings_and_attributes(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void a(__global int *p) {}\n"
        "kernel void __attribute__((vec_type_hint(float4))) b(global float *p) {}\n"
        "__kernel void c(__global int *p) __attribute__((work_group_size_hint(8,1,1))) {}\n"
        "kernel void d(void) {}\n",
        &r, NULL);
  assert_int_equal(r.n_kernels, 4);
  HAS(r, "void ck_kernel_a(ck_wg_t *ck_ctx, uint ck_resume, global const void *ck_tx_in, "
         "local ck_locals_a_t *ck_loc, __global int *p)");
  HAS(r, "local ck_locals_b_t *ck_loc, global float *p)");
  HAS(r, "local ck_locals_c_t *ck_loc, __global int *p) {}");
  HAS(r, "local ck_locals_d_t *ck_loc) {}");
  LACKS(r, "__attribute__");
  LACKS(r, "__kernel");
  HAS(r, "#define CK_N_KERNELS 4");
  HAS(
    r,
    "case 3u: {\n  ck_ctx->m_known = 0u;\n  ck_kernel_d(ck_ctx, ck_resume, ck_tx_in, &ck_locals->d);");
  assert_int_equal(r.kernels[0].reqd_wg_size, 64);
  assert_int_equal(r.kernels[1].reqd_wg_size, 0);
  ck_stitch_result_free(&r);
}

static void test_line_directives(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("/* line 1 */\n"
        "int helper(int x) {\n"
        "  return x * 3; /* line 3 */\n"
        "}\n"
        "\n"
        "\n"
        "\n"
        "\n"
        "\n"
        "\n"
        "kernel void k(global int *o) { /* line 11 */\n"
        "  transmit int t = 0;\n"
        "  for (transmit int i = 0; i < 4; i++) {\n"
        "    o[i] = helper(i) + t; /* line 14 */\n"
        "    request_fork();\n"
        "    o[i + 8] = t++; /* line 16 */\n"
        "  }\n"
        "  o[99] = 1; /* line 18 */\n"
        "}\n",
        &r, "k", NULL);
  char f[256];
  assert_int_equal(st_presumed_line(r.source, "return x * 3;", f, sizeof f), 3);
  assert_string_equal(f, "t.cl");
  assert_int_equal(st_presumed_line(r.source, "void ck_kernel_k(", f, sizeof f), 11);
  assert_int_equal(st_presumed_line(r.source, "o[i] = helper(ck_ctx, i) + t;", f, sizeof f), 14);
  /* the first copy of line 16 is in the resume block, still line 16 */
  assert_int_equal(st_presumed_line(r.source, "o[i + 8] = t++;", f, sizeof f), 16);
  assert_int_equal(st_presumed_line(r.source, "o[99] = 1;", f, sizeof f), 18);
  assert_string_equal(f, "t.cl");
  assert_int_equal(st_presumed_line(r.source, "void ck_dispatch(", f, sizeof f) > 0, 1);
  assert_string_equal(f, "ck_stitched.cl");
  ck_stitch_result_free(&r);
}

static void test_line_directive_file_name_escaped(void **st) {
  (void)st;
  ck_stitch_result r;
  char err[256];
  ck_stitch_input in = {"kernel void k(void) {}\n", "dir\\my \"file\".cl", NULL, 0, 0};
  assert_int_equal(ck_stitch(&in, &r, err, sizeof err), 0);
  HAS(r, "#line 1 \"dir\\\\my \\\"file\\\".cl\"");
  ck_stitch_result_free(&r);
}

/* Sources joined with #line directives (as the runtime does with several files) keep
 * their own names and numbers, in the output and in metadata. */
static void test_user_line_directives(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("#line 1 \"a.cl\"\n"
        "int helper(int x) {\n"
        "  return x + 1; /* a.cl 2 */\n"
        "}\n"
        "#line 10 \"dir/b.cl\"\n"
        "kernel void k(global int *o) { /* b.cl 10 */\n"
        "  o[0] = helper(2); /* b.cl 11 */\n"
        "}\n"
        "# 40 \"c \\\"q\\\".cl\"\n"
        "kernel void z(void) { /* c 40 */ }\n",
        &r, NULL);
  char f[256];
  assert_int_equal(st_presumed_line(r.source, "return x + 1;", f, sizeof f), 2);
  assert_string_equal(f, "a.cl");
  assert_int_equal(st_presumed_line(r.source, "o[0] = helper(ck_ctx, 2);", f, sizeof f), 11);
  assert_string_equal(f, "dir/b.cl");
  assert_int_equal(r.kernels[0].line, 10);
  assert_int_equal(r.kernels[1].line, 40);
  assert_int_equal(st_presumed_line(r.source, "void ck_kernel_z(", f, sizeof f), 40);
  assert_string_equal(f, "c \"q\".cl");
  LACKS(r, "#line 1 \"a.cl\"\n#line");
  ck_stitch_result_free(&r);
  const char *m = st_fail("#line 1 \"a.cl\"\nkernel void k(void) { }\n#line 7 \"b.cl\"\n"
                          "kernel void q(global int *o) {\n  o[0] = 1\n}\n",
                          NULL);
  assert_string_equal(m, "b.cl:8:3: error: expected ';' after this statement");
}

static void test_transmit_struct(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("typedef struct { int size; } nodes;\n"
        "kernel void g(global nodes *n0, global nodes *n1) {\n"
        "  transmit int level = 0, other;\n"
        "  transmit global nodes *in_nodes = n0;\n"
        "  transmit float4 v;\n"
        "  int plain = 2;\n"
        "  resizing_global_barrier();\n"
        "}\n"
        "kernel void h(void) { }\n",
        &r, "g", "h", NULL);
  HAS(r, "typedef struct {");
  HAS(r, "int level; int other;");
  HAS(r, "global nodes *in_nodes;");
  HAS(r, "float4 v;");
  HAS(r, "} ck_tx_g_t;");
  HAS(r, "int level = 0, other;");
  HAS(r, "global nodes *in_nodes = n0;");
  LACKS(r, "transmit");
  HAS(r, "ck_tx_g_t ck_tx; ck_tx.level = level; ck_tx.other = other; ck_tx.in_nodes = in_nodes; "
         "ck_tx.v = v; if (ck_resizing_global_barrier(ck_ctx, 1u, &ck_tx, (uint)sizeof(ck_tx))) "
         "return; }");
  HAS(r, "typedef struct { uint ck_unused;");
  HAS(r, "} ck_tx_h_t;");
  HAS(r, "typedef union {\n  ck_tx_g_t g;\n  ck_tx_h_t h;\n  uint ck_none;\n} ck_tx_any_t;");
  ck_stitch_result_free(&r);
}

static void test_transmit_only_in_scope_is_saved(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o) {\n"
        "  transmit int a = 1;\n"
        "  request_fork();\n"
        "  transmit int b = a;\n"
        "  request_fork();\n"
        "  o[0] = a + b;\n"
        "}\n",
        &r, "k", NULL);
  HAS(
    r,
    "{ ck_tx_k_t ck_tx; ck_tx.a = a; if (ck_request_fork(ck_ctx, 1u, &ck_tx, (uint)sizeof(ck_tx))) return; }"
    " ck_res_1: if (ck_resume == 1u) { { global const ck_tx_k_t *ck_txp = "
    "(global const ck_tx_k_t *)ck_tx_in; a = ck_txp->a; } } }");
  HAS(r, "ck_tx.a = a; ck_tx.b = b; if (ck_request_fork(ck_ctx, 2u,");
  HAS(r, "a = ck_txp->a; b = ck_txp->b;");
  ck_stitch_result_free(&r);
}

static void test_locals_hoisted(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("typedef struct { float x; } P;\n"
        "kernel void k(global int *o, local int *arg) {\n"
        "  local int a[4], b;\n"
        "  __local P p;\n"
        "  local int *ptr = a;\n"
        "  b = a[1] + sizeof(a);\n"
        "  { local float a[2]; a[0] = 1.0f; p.x = a[0]; }\n"
        "  for (int i = 0; i < 2; i++) { local int c; c = i; o[i] = c + a[0] + b + ptr[0]; }\n"
        "}\n"
        "kernel void none(void) { }\n",
        &r, NULL);
  HAS(r, "int a[4]; int b;");
  HAS(r, "P p;");
  HAS(r, "float a_2[2];");
  HAS(r, "int c;\n#line 18 \"ck_stitched.cl\"\n} ck_locals_k_t;");
  HAS(r, "} ck_locals_k_t;");
  HAS(r, "local int *ptr = (ck_loc->a);");
  HAS(r, "(ck_loc->b) = (ck_loc->a)[1] + sizeof((ck_loc->a));");
  HAS(r, "{ (ck_loc->a_2)[0] = 1.0f; (ck_loc->p).x = (ck_loc->a_2)[0]; }");
  HAS(r, "{ (ck_loc->c) = i; o[i] = (ck_loc->c) + (ck_loc->a)[0] + (ck_loc->b) + ptr[0]; }");
  HAS(r, "typedef struct { uchar ck_unused;");
  HAS(r, "typedef union {\n  ck_locals_k_t k;\n  ck_locals_none_t none;\n  uchar ck_none;\n} "
         "ck_locals_t;");
  ck_stitch_result_free(&r);
}

static void test_kernel_constants_hoisted(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("constant int lut[2] = {1, 2};\n"
        "kernel void k(global int *o) {\n"
        "  constant int tab[3] = {7, 8, 9};\n"
        "  constant int lut[1] = {5};\n"
        "  constant int *p = tab;\n"
        "  o[0] = tab[1] + lut[0] + p[0];\n"
        "}\n",
        &r, NULL);
  HAS(r, "constant int tab[3] = {7, 8, 9};");
  HAS(r, "constant int ck_c1_k_lut[1] = {5};");
  HAS(r, "constant int *p = tab;");
  HAS(r, "o[0] = tab[1] + ck_c1_k_lut[0] + p[0];");
  ck_stitch_result_free(&r);
}

static void test_primitives(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("void sync(void) { global_barrier(); }\n"
        "int count(global int *o) { global_barrier(); return o[3]; }\n"
        "kernel void k(global int *o) {\n"
        "  if (o[0]) offer_kill(); else o[1] = 1;\n"
        "  global_barrier();\n"
        "  sync();\n"
        "  o[4] = count(o);\n"
        "  while (o[2]) { offer_kill(); o[2]--; }\n"
        "}\n",
        &r, "k", NULL);
  /* A barrier cut short by an abort leaves the function where a bare return can: the
   * kernel and void helpers; a helper with a value carries on to the next primitive. */
  HAS(r, "void sync(ck_wg_t *ck_ctx) { { if (ck_global_barrier(ck_ctx)) return; } }");
  HAS(r, "{ ck_global_barrier(ck_ctx); return o[3]; }");
  HAS(r, "if (o[0]) { if (ck_offer_kill(ck_ctx)) return; } else o[1] = 1;");
  HAS(r, "{ if (ck_global_barrier(ck_ctx)) return; } sync(ck_ctx);");
  HAS(r, "sync(ck_ctx);");
  HAS(r, "while (o[2]) { { if (ck_offer_kill(ck_ctx)) return; } o[2]--; }");
  assert_int_equal(r.kernels[0].n_fork_points, 0);
  LACKS(r, "goto");
  ck_stitch_result_free(&r);
}

static void test_resume_without_loop(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o, int x) {\n"
        "  transmit int a = x;\n"
        "  if (x > 0) { int y = 2; a += y; request_fork(); o[a] = 2 * a; }\n"
        "  resizing_global_barrier();\n"
        "  o[0] = a;\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "{ if (ck_resume == 1u) goto ck_res_1; if (ck_resume == 2u) goto ck_res_2;");
  HAS(
    r,
    "if (ck_request_fork(ck_ctx, 1u, &ck_tx, (uint)sizeof(ck_tx))) return; } ck_res_1: if (ck_resume == "
    "1u) {");
  HAS(r, "if (ck_resizing_global_barrier(ck_ctx, 2u, &ck_tx, (uint)sizeof(ck_tx))) return; } "
         "ck_res_2: if (ck_resume == 2u) {");
  assert_int_equal(r.kernels[0].n_fork_points, 2);
  assert_int_equal(st_count(r.source, "ck_res_1:"), 1);
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_peeling_shape(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o, int n) {\n"
        "  transmit int i;\n"
        "  for (i = 0; i < n; i++) {\n"
        "    transmit int before = o[i];\n"
        "    request_fork();\n"
        "    if (before < 0) continue;\n"
        "    if (before > 9) break;\n"
        "    o[i] = before;\n"
        "  }\n"
        "  o[n] = 0;\n"
        "}\n",
        &r, "k", NULL);
  /* init, then the resume label before the two-pass wrapper */
  HAS(r, "{ i = 0;\nck_res_1: ;\nfor (uint ck_pass1 = ( ck_resume == 1u) ? 0u : 1u; ck_pass1 < "
         "2u; ck_pass1++) {\nif (ck_pass1 == 0u) {\nif (ck_resume == 1u) {");
  /* the rest of the iteration: the declaration before the fork point, uninitialised, then
   * the transmit variables restored, the nested block's one included */
  HAS(r, "int before;");
  HAS(r, "i = ck_txp->i; before = ck_txp->before; }");
  assert_int_equal(st_count(r.source, "int before;"), 2); /* the struct's field too */
  HAS(r, "if (before < 0) goto ck_p1_c0;");
  HAS(r, "if (before > 9) goto ck_p1_b0;");
  HAS(r, "ck_p1_c0: ;");
  HAS(r, "i++; }\n} else {");
  /* the loop, entered normally, without its init */
  HAS(r, "for ( ; i < n; i++) {");
  HAS(r, "if (before < 0) continue;");
  HAS(r, "if (before > 9) break;");
  HAS(r, "} } ck_p1_b0: ; }");
  assert_int_equal(st_count(r.source, "int before = o[i];"), 1);
  HAS(r, "ck_tx.i = i; ck_tx.before = before;");
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_peeling_nested_copies_contain_other_points(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o, int n) {\n"
        "  transmit int i = 0, j = 0;\n"
        "  while (i < n) {\n"
        "    for (j = 0; j < n; j++) {\n"
        "      request_fork();\n"
        "      barrier(CLK_LOCAL_MEM_FENCE);\n"
        "      resizing_global_barrier();\n"
        "    }\n"
        "    do { offer_kill(); request_fork(); } while (o[i]-- > 0);\n"
        "    i++;\n"
        "  }\n"
        "}\n",
        &r, "k", NULL);
  assert_int_equal(r.kernels[0].n_fork_points, 3);
  /* three resume blocks, mutually exclusive, before one wrapper */
  HAS(r, "ck_res_1: ; ck_res_2: ; ck_res_3: ;");
  HAS(r, "( ck_resume == 1u || ck_resume == 2u || ck_resume == 3u) ? 0u : 1u");
  HAS(r, "\nif (ck_resume == 1u) {");
  HAS(r, "\nelse if (ck_resume == 2u) {");
  HAS(r, "\nelse if (ck_resume == 3u) {");
  /* the copies hold the fork points in normal form, never their labels */
  assert_int_equal(st_count(r.source, "ck_res_1:"), 1);
  assert_true(st_count(r.source, "ck_request_fork(ck_ctx, 1u") >= 3);
  assert_true(st_count(r.source, "ck_resizing_global_barrier(ck_ctx, 2u") >= 3);
  /* do-while re-entered as while after a resumed iteration */
  HAS(r, "while (o[i]-- > 0) { { if (ck_offer_kill(ck_ctx)) return; }");
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_peeling_do_while_outermost(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o) {\n"
        "  transmit int i = 0;\n"
        "  do { request_fork(); if (o[i]) continue; i++; } while (i < 4);\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "if (o[i]) goto ck_p1_c0; i++; } ck_p1_c0: ; if (!( i < 4)) goto ck_p1_b0; }");
  HAS(r, "do { { ck_tx_k_t ck_tx; ck_tx.i = i; if (ck_request_fork(");
  HAS(r, "} while (i < 4); } } ck_p1_b0: ; }");
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_peeling_continue_in_switch(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o) {\n"
        "  transmit int i = 0;\n"
        "  for (; i < 8; i++) {\n"
        "    request_fork();\n"
        "    switch (o[i]) { case 0: continue; case 1: break; default: for (;;) { break; } }\n"
        "    while (o[i]) { if (o[i] == 3) break; o[i]--; continue; }\n"
        "    o[i] = 1;\n"
        "  }\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "switch (o[i]) { case 0: goto ck_p1_c0; case 1: break; default: for (;;) { break; } }");
  HAS(r, "while (o[i]) { if (o[i] == 3) break; o[i]--; continue; }");
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_peeling_return_and_declarations(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("typedef int I;\n"
        "kernel void k(global int *o) {\n"
        "  transmit int i = 0;\n"
        "  while (1) {\n"
        "    typedef float F;\n"
        "#define SCALE 3\n"
        "    I a = o[0] * SCALE, b[2] = {1, 2}, c[] = {3};\n"
        "    local int lt[4];\n"
        "    struct S { int q; } s = {4};\n"
        "    for (transmit int m = 0, q = a; m < 3; m++) {\n"
        "      F f = (F)m;\n"
        "      resizing_global_barrier();\n"
        "      f = (F)q;\n"
        "      if (f > 1.0f) return;\n"
        "      s.q = m; b[0] = q; c[0] = 2;\n"
        "      lt[m] = s.q + b[0] + c[0] + q;\n"
        "    }\n"
        "    i++;\n"
        "  }\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "typedef float F;");
  assert_int_equal(st_count(r.source, "#define SCALE 3"), 2);
  HAS(r, "I a, b[2], c[] = {3};");
  HAS(r, "struct S { int q; } s;");
  HAS(r, "int m, q;");
  HAS(r, "F f;");
  HAS(r, "if (f > 1.0f) return;");
  HAS(r, "(ck_loc->lt)[m] = s.q + b[0] + c[0] + q;");
  st_assert_reducible(r.source);
  ck_stitch_result_free(&r);
}

static void test_loop_pragma_stays_in_front_of_peeled_loop(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("#ifdef FAST\nint h(int x) { return x; }\n#else\nint h(int x) { return -x; }\n#endif\n"
        "kernel void k(global int *o) {\n"
        "  transmit int i;\n"
        "#pragma unroll 2\n"
        "  for (i = 0; i < 4; i++) { request_fork(); o[i] = h(i); }\n"
        "#pragma unroll\n"
        "  for (int j = 0; j < 4; j++) o[j]++;\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "} else {\n#line 8 \"t.cl\"\n#pragma unroll 2\n  for ( ; i < 4; i++)");
  HAS(r, "#pragma unroll\n  for (int j = 0; j < 4; j++) o[j]++;");
  assert_int_equal(st_count(r.source, "#pragma unroll"), 2);
  ck_stitch_result_free(&r);
}

static void test_labels_unique_and_reducible_many_shapes(void **st) {
  (void)st;
  static const char *const srcs[] = {
    "kernel void k(global int *o) { transmit int i = 0; for (; i < 3; i++) for (transmit int j = 0; j < 3;"
    " j++) for (transmit int l = 0; l < 3; l++) { if (l == j) continue; request_fork(); if (l) break; } }",
    "kernel void k(global int *o) { transmit int i = 0; while (i < 3) { if (o[i]) { request_fork();"
    " } else { resizing_global_barrier(); } i++; } request_fork(); while (o[0]) { "
    "request_fork(); } }",
    "kernel void k(global int *o) { transmit int i = 0; do { do { request_fork(); if (o[i]) "
    "break; } while (o[1]); if (o[2]) continue; request_fork(); } while (++i < 4); }",
    "kernel void k(global int *o) { transmit int i = 0; for (;;) { { { request_fork(); } } "
    "if (o[i++]) break; } for (;;) request_fork(); }",
    "kernel void k(global int *o) { transmit int i = 0; if (o[0]) for (i = 0; i < 2; i++) "
    "request_fork(); else while (o[1]) { request_fork(); break; } }",
  };
  for (size_t k = 0; k < sizeof srcs / sizeof srcs[0]; k++) {
    ck_stitch_result r;
    st_ok(srcs[k], &r, "k", NULL);
    st_assert_reducible(r.source);
    ck_stitch_result_free(&r);
  }
}

static void test_reducibility_check_detects_jump_into_loop(void **st) {
  (void)st;
  char err[256];
  const char *bad = "void f(int r) { if (r) goto in; for (int i = 0; i < 3; i++) { in: ; } }";
  assert_int_equal(st_check_reducible(bad, err, sizeof err), -1);
  assert_non_null(strstr(err, "enters the loop"));
  const char *dup = "void f(int r) { a: ; a: ; }";
  assert_int_equal(st_check_reducible(dup, err, sizeof err), -1);
  const char *ok = "void f(int r) { for (;;) { if (r) goto out; } out: ; }";
  assert_int_equal(st_check_reducible(ok, err, sizeof err), 1);
}

/* A group may keep the M its last barrier returned only in a kernel whose M changes
 * nowhere else: one that calls offer_kill or request_fork (itself or through an inlined
 * helper) must read M every time, since another group's kill or fork moves it. */
static void test_dispatcher_m_known(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok(
    "void help(void) { offer_kill(); }\n"
    "kernel void barriers(global int *p) { while (p[0]) { p[1] = get_global_size(0); "
    "resizing_global_barrier(); global_barrier(); } }\n"
    "kernel void kills(global int *p) { while (p[0]) { p[1] = get_global_size(0); global_barrier(); "
    "offer_kill(); } }\n"
    "kernel void forks(global int *p) { request_fork(); p[1] = get_global_size(0); }\n"
    "kernel void via_helper(global int *p) { help(); p[1] = get_global_size(0); }\n"
    "kernel void plain(global int *p) { p[0] = get_global_size(0); }\n",
    &r, "barriers", "kills", "forks", "via_helper", NULL);
  HAS(r, "ck_ctx->m_known = 0u;\n  ck_kernel_barriers(");
  HAS(r, "ck_ctx->m_known = CK_M_LIVE;\n  ck_kernel_kills(");
  HAS(r, "ck_ctx->m_known = CK_M_LIVE;\n  ck_kernel_forks(");
  HAS(r, "ck_ctx->m_known = CK_M_LIVE;\n  ck_kernel_via_helper(");
  HAS(r, "ck_ctx->m_known = 0u;\n  ck_kernel_plain(");
  ck_stitch_result_free(&r);
}

static void test_dispatcher(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok(
    "typedef float real;\n"
    "kernel void k(global int *g, constant float *c, local int *l1, real x, float4 v,\n"
    "              bool b, local uchar *l2, __global const int * restrict gr, global int a[]) {}\n",
    &r, NULL);
  HAS(r, "void ck_dispatch(ck_wg_t *ck_ctx, uint ck_kernel, uint ck_resume, global const void "
         "*ck_tx_in,");
  HAS(r, "global uchar *ck_arena, global const ulong *ck_args,");
  HAS(r, "local uchar *ck_local_pool, local ck_locals_t *ck_locals)");
  HAS(r, "case 0u: {\n  ulong ck_lo = 0;");
  HAS(r, "global int * ck_a0 = (ck_args[0] == ~0UL) ? (global int *)0 : (global int *)(ck_arena "
         "+ ck_args[0]);");
  HAS(r, "global const float * ck_a1 = (ck_args[1] == ~0UL) ? (global const float *)0 : "
         "(global const float *)(ck_arena + ck_args[1]);");
  HAS(r, "local int * ck_a2 = (local int *)(ck_local_pool + ck_lo);\n  ck_lo += (ck_args[2] + "
         "15UL) & ~(ulong)15;");
  HAS(r, "real ck_a3 = *(global const real *)(ck_args + 3);");
  HAS(r, "float4 ck_a4 = vload4(0, (global const float *)(ck_args + 4));");
  HAS(r, "bool ck_a5 = *(global const uchar *)(ck_args + 6) != 0;");
  HAS(r, "local uchar * ck_a6 = (local uchar *)(ck_local_pool + ck_lo);");
  HAS(r, "global const int * restrict ck_a7 =");
  HAS(r, "global int * ck_a8 =");
  HAS(r, "ck_kernel_k(ck_ctx, ck_resume, ck_tx_in, &ck_locals->k, ck_a0, ck_a1, ck_a2, ck_a3, "
         "ck_a4, ck_a5, ck_a6, ck_a7, ck_a8);");
  /* a constant pointer parameter arrives as a global const pointer */
  HAS(r, "local ck_locals_k_t *ck_loc, global int *g, global const float *c,");
  HAS(r, "#define CK_STITCHED 1");
  HAS(r, "#ifdef CK_TX_MAX_BYTES");
  ck_stitch_result_free(&r);
}

static void test_prototypes_and_file_scope(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "#ifdef FAST\n"
        "#define SCALE 2\n"
        "#else\n"
        "#define SCALE 1\n"
        "#endif\n"
        "kernel void k(global int *o);\n"
        "int h(int), g(void);\n"
        "constant int table[2] = {1, 2};\n"
        "typedef struct node { struct node *next; int v; } node_t;\n"
        "enum color { RED, GREEN };\n"
        "int h(int x) { return x * SCALE + table[0] + g(); }\n"
        "int g(void) { return GREEN; }\n"
        "kernel void k(global int *o) { o[0] = h(1); }\n",
        &r, NULL);
  LACKS(r, "void k(");
  HAS(r, "int h(ck_wg_t *ck_ctx, int), g(ck_wg_t *ck_ctx);");
  HAS(r, "#ifdef FAST\n#define SCALE 2\n#else\n#define SCALE 1\n#endif");
  HAS(r, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
  HAS(r, "typedef struct node { struct node *next; int v; } node_t;");
  HAS(r, "int g(ck_wg_t *ck_ctx) { return GREEN; }");
  HAS(r, "o[0] = h(ck_ctx, 1);");
  ck_stitch_result_free(&r);
}

static void test_goto_allowed_without_fork_points(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o) { if (o[0]) goto done; offer_kill(); o[1] = 2; done: ; }\n"
        "kernel void n(global int *o) { again: if (o[0]--) goto again; switch (o[1]) { case 1: "
        "o[2] = 3; break; default: ; } }\n",
        &r, "k", NULL);
  HAS(r, "if (o[0]) goto done;");
  HAS(r, "again: if (o[0]--) goto again;");
  ck_stitch_result_free(&r);
}

static void test_empty_program_and_helpers_only(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("", &r, NULL);
  assert_int_equal(r.n_kernels, 0);
  HAS(r, "#define CK_N_KERNELS 0");
  HAS(r, "default:\n  break;");
  ck_stitch_result_free(&r);
  ck_stitch_result_free(&r); /* freeing twice is harmless */
  st_ok("int f(int x) { return x; }\n", &r, NULL);
  HAS(r, "int f(ck_wg_t *ck_ctx, int x) { return x; }");
  ck_stitch_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ids_and_calls),
    cmocka_unit_test(test_member_names_are_not_rewritten),
    cmocka_unit_test(test_get_global_offset_is_zero),
    cmocka_unit_test(test_comments_strings_continuations),
    cmocka_unit_test(test_macros),
    cmocka_unit_test(test_kernel_spellings_and_attributes),
    cmocka_unit_test(test_line_directives),
    cmocka_unit_test(test_line_directive_file_name_escaped),
    cmocka_unit_test(test_user_line_directives),
    cmocka_unit_test(test_transmit_struct),
    cmocka_unit_test(test_transmit_only_in_scope_is_saved),
    cmocka_unit_test(test_locals_hoisted),
    cmocka_unit_test(test_kernel_constants_hoisted),
    cmocka_unit_test(test_primitives),
    cmocka_unit_test(test_resume_without_loop),
    cmocka_unit_test(test_peeling_shape),
    cmocka_unit_test(test_peeling_nested_copies_contain_other_points),
    cmocka_unit_test(test_peeling_do_while_outermost),
    cmocka_unit_test(test_peeling_continue_in_switch),
    cmocka_unit_test(test_peeling_return_and_declarations),
    cmocka_unit_test(test_loop_pragma_stays_in_front_of_peeled_loop),
    cmocka_unit_test(test_labels_unique_and_reducible_many_shapes),
    cmocka_unit_test(test_reducibility_check_detects_jump_into_loop),
    cmocka_unit_test(test_dispatcher),
    cmocka_unit_test(test_dispatcher_m_known),
    cmocka_unit_test(test_prototypes_and_file_scope),
    cmocka_unit_test(test_goto_allowed_without_fork_points),
    cmocka_unit_test(test_empty_program_and_helpers_only),
  };
  return cmocka_run_group_tests_name("stitcher-transform", tests, NULL, NULL);
}
