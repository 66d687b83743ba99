/* test_metadata.c: the launch metadata of ck_stitch: kernel order, names, lines,
 * cooperative flags, fork point counts, reqd_work_group_size, and for each parameter its
 * kind, normalised type, size and word offset in the launch packet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "st_test_util.h"

static void check_param(const ck_stitch_kernel *k, size_t i, const char *name, const char *type,
                        ck_param_kind kind, size_t size, size_t word) {
  assert_true(i < k->n_params);
  const ck_stitch_param *p = &k->params[i];
  assert_string_equal(p->name, name);
  assert_string_equal(p->type, type);
  assert_int_equal(p->kind, kind);
  assert_int_equal(p->size, size);
  assert_int_equal(p->word_offset, word);
}

static void test_scalar_and_vector_sizes(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "typedef float real;\n"
        "typedef real real2;\n"
        "typedef uint4 u4;\n"
        "enum mode { A, B };\n"
        "kernel void k(char c, uchar uc, bool b, short s, ushort us, half h, int i, uint ui,\n"
        "              float f, long l, ulong ul, double d, size_t sz, ptrdiff_t pd,\n"
        "              intptr_t ip, uintptr_t up, unsigned char uch, signed char sch,\n"
        "              unsigned int uin, long int li, unsigned long long ull, real re,\n"
        "              real2 re2, u4 v, float3 f3, char2 c2, short3 s3, double16 d16,\n"
        "              const int ci, enum mode m, int8 i8, uchar16 u16, half4 h4) { }\n",
        &r, NULL);
  const ck_stitch_kernel *k = &r.kernels[0];
  assert_int_equal(k->n_params, 33);
  size_t w = 0;
  struct {
    const char *name, *type;
    size_t size;
  } want[] = {{"c", "char", 1},
              {"uc", "uchar", 1},
              {"b", "bool", 1},
              {"s", "short", 2},
              {"us", "ushort", 2},
              {"h", "half", 2},
              {"i", "int", 4},
              {"ui", "uint", 4},
              {"f", "float", 4},
              {"l", "long", 8},
              {"ul", "ulong", 8},
              {"d", "double", 8},
              {"sz", "size_t", 8},
              {"pd", "ptrdiff_t", 8},
              {"ip", "intptr_t", 8},
              {"up", "uintptr_t", 8},
              {"uch", "unsigned char", 1},
              {"sch", "signed char", 1},
              {"uin", "unsigned int", 4},
              {"li", "long int", 8},
              {"ull", "unsigned long long", 8},
              {"re", "real", 4},
              {"re2", "real2", 4},
              {"v", "u4", 16},
              {"f3", "float3", 16},
              {"c2", "char2", 2},
              {"s3", "short3", 8},
              {"d16", "double16", 128},
              {"ci", "const int", 4},
              {"m", "enum mode", 4},
              {"i8", "int8", 32},
              {"u16", "uchar16", 16},
              {"h4", "half4", 8}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    check_param(k, i, want[i].name, want[i].type, CK_PARAM_SCALAR, want[i].size, w);
    w += (want[i].size + 7) / 8;
  }
  assert_int_equal(k->arg_words, w);
  ck_stitch_result_free(&r);
}

static void test_pointer_kinds(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("typedef struct { int a; } S;\n"
        "typedef global int *gptr;\n"
        "kernel void k(__global float *a, global const S *restrict s, __constant int *c,\n"
        "              constant float4 *c4, __local uint *l, local S *ls, global int arr[],\n"
        "              gptr gp, global void *vp, int tail) { }\n",
        &r, NULL);
  const ck_stitch_kernel *k = &r.kernels[0];
  check_param(k, 0, "a", "global float *", CK_PARAM_GLOBAL_PTR, 8, 0);
  check_param(k, 1, "s", "global const S * restrict", CK_PARAM_GLOBAL_PTR, 8, 1);
  check_param(k, 2, "c", "constant int *", CK_PARAM_CONSTANT_PTR, 8, 2);
  check_param(k, 3, "c4", "constant float4 *", CK_PARAM_CONSTANT_PTR, 8, 3);
  check_param(k, 4, "l", "local uint *", CK_PARAM_LOCAL_PTR, 8, 4);
  check_param(k, 5, "ls", "local S *", CK_PARAM_LOCAL_PTR, 8, 5);
  check_param(k, 6, "arr", "global int *", CK_PARAM_GLOBAL_PTR, 8, 6);
  check_param(k, 7, "gp", "gptr", CK_PARAM_GLOBAL_PTR, 8, 7);
  check_param(k, 8, "vp", "global void *", CK_PARAM_GLOBAL_PTR, 8, 8);
  check_param(k, 9, "tail", "int", CK_PARAM_SCALAR, 4, 9);
  assert_int_equal(k->arg_words, 10);
  ck_stitch_result_free(&r);
}

static void test_kernels_in_order_with_flags(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("int helper(int x) { return x; }\n"
        "\n"
        "kernel void first(void) { }\n"
        "__kernel __attribute__((reqd_work_group_size(128,1,1)))\n"
        "void second(global int *o) {\n"
        "  transmit int i = 0;\n"
        "  while (i < 3) { offer_kill(); request_fork(); global_barrier(); i++; }\n"
        "  resizing_global_barrier();\n"
        "}\n"
        "kernel void third(int n) __attribute__((reqd_work_group_size(0x20, 1, 1))) { }\n",
        &r, "second", NULL);
  assert_int_equal(r.n_kernels, 3);
  assert_string_equal(r.kernels[0].name, "first");
  assert_int_equal(r.kernels[0].line, 3);
  assert_false(r.kernels[0].cooperative);
  assert_int_equal(r.kernels[0].n_params, 0);
  assert_null(r.kernels[0].params);
  assert_int_equal(r.kernels[0].arg_words, 0);
  assert_int_equal(r.kernels[0].n_fork_points, 0);
  assert_int_equal(r.kernels[0].reqd_wg_size, 0);
  assert_string_equal(r.kernels[1].name, "second");
  assert_int_equal(r.kernels[1].line, 5);
  assert_true(r.kernels[1].cooperative);
  assert_int_equal(r.kernels[1].n_fork_points, 2);
  assert_int_equal(r.kernels[1].reqd_wg_size, 128);
  assert_string_equal(r.kernels[2].name, "third");
  assert_int_equal(r.kernels[2].reqd_wg_size, 32);
  assert_int_equal(r.kernels[2].arg_words, 1);
  assert_int_equal(ck_stitch_find_kernel(&r, "third"), 2);
  assert_int_equal(ck_stitch_find_kernel(&r, "first"), 0);
  assert_int_equal(ck_stitch_find_kernel(&r, "helper"), -1);
  assert_int_equal(ck_stitch_find_kernel(&r, NULL), -1);
  assert_int_equal(ck_stitch_find_kernel(NULL, "first"), -1);
  st_assert_has(r.source, "case 1u: {");
  st_assert_has(r.source, "ck_kernel_second(ck_ctx, ck_resume, ck_tx_in, &ck_locals->second, "
                          "ck_a0);");
  ck_stitch_result_free(&r);
  assert_null(r.kernels);
  assert_int_equal(r.n_kernels, 0);
}

static void test_fork_points_counted_in_source_order(void **st) {
  (void)st;
  ck_stitch_result r;
  st_ok("kernel void k(global int *o) {\n"
        "  transmit int i = 0;\n"
        "  request_fork();\n"
        "  for (; i < 3; i++) {\n"
        "    if (o[i]) resizing_global_barrier(); else request_fork();\n"
        "    offer_kill();\n"
        "  }\n"
        "  resizing_global_barrier();\n"
        "}\n",
        &r, "k", NULL);
  assert_int_equal(r.kernels[0].n_fork_points, 4);
  st_assert_has(r.source, "ck_request_fork(ck_ctx, 1u,");
  st_assert_has(r.source, "ck_resizing_global_barrier(ck_ctx, 2u,");
  st_assert_has(r.source, "ck_request_fork(ck_ctx, 3u,");
  st_assert_has(r.source, "ck_resizing_global_barrier(ck_ctx, 4u,");
  ck_stitch_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_scalar_and_vector_sizes),
    cmocka_unit_test(test_pointer_kinds),
    cmocka_unit_test(test_kernels_in_order_with_flags),
    cmocka_unit_test(test_fork_points_counted_in_source_order),
  };
  return cmocka_run_group_tests_name("stitcher-metadata", tests, NULL, NULL);
}
