/* test_warnings.c: the stitcher's warnings on synchronisation that is not portable in the
 * code cooperative kernels run (mem_fence on global memory, hand-made atomic_cmpxchg spin
 * locks), their absence for the portable calls of ck_cooperative.h and for code that only
 * looks similar, and the work-stealing app: clean as written, warned about once its locks
 * are written with atomic_cmpxchg and mem_fence instead. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "st_test_util.h"

#ifndef APPS_DIR
#define APPS_DIR "."
#endif

/* The warnings of a source that must stitch ("" if none), copied to static storage. */
static void test_mem_fence_in_cooperative_kernel(void **st) {
  (void)st;
  const char *w = st_warnings("kernel void k(global uint *d) {\n"
                              "  d[0] = 1;\n"
                              "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                              "  d[1] = 1;\n"
                              "  offer_kill();\n"
                              "}\n",
                              "k");
  st_assert_has(w, "t.cl:3: warning: mem_fence(CLK_GLOBAL_MEM_FENCE) in cooperative kernel 'k'");
  st_assert_has(w, "device_fence_release()");
  assert_int_equal(st_count(w, "warning:"), 1);
  /* read_mem_fence / write_mem_fence too, with the flags combined */
  w = st_warnings("kernel void k(global uint *d) {\n"
                  "  write_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
                  "  read_mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                  "}\n",
                  "k");
  st_assert_has(w, "t.cl:2: warning: write_mem_fence");
  st_assert_has(w, "t.cl:3: warning: read_mem_fence");
}

static void test_spin_lock_in_helper(void **st) {
  (void)st;
  const char *w = st_warnings("void lock(volatile global uint *m) {\n"
                              "  while (atomic_cmpxchg(m, 0u, 1u) != 0u) {}\n"
                              "}\n"
                              "void unlock(volatile global uint *m) { atomic_xchg(m, 0u); }\n"
                              "void push(global uint *q) { lock(q); q[1] = 2; unlock(q); }\n"
                              "kernel void k(global uint *q) {\n"
                              "  for (int i = 0; i < 4; i++) push(q);\n"
                              "}\n",
                              "k");
  st_assert_has(w, "t.cl:2: warning: atomic_cmpxchg with constant operands in a loop in 'lock' "
                   "(reached from cooperative kernel 'k') looks like a hand-made spin lock");
  st_assert_has(w, "device_mutex_lock()");
  /* the unlock is not in a loop of its own function: no warning for it */
  assert_int_equal(st_count(w, "warning:"), 1);
  /* the lock written as while (1) { if (...) break; } */
  w = st_warnings("kernel void k(global uint *m) {\n"
                  "  if (get_local_id(0) == 0)\n"
                  "    while (1) {\n"
                  "      if (atom_cmpxchg(&m[3], 0, 1) == 0) break;\n"
                  "    }\n"
                  "}\n",
                  "k");
  st_assert_has(w, "t.cl:4: warning: atom_cmpxchg");
}

static void test_no_warning_where_nothing_is_wrong(void **st) {
  (void)st;
  /* the portable calls */
  assert_string_equal(st_warnings("kernel void k(volatile global uint *m, global uint *d) {\n"
                                  "  for (int i = 0; i < 4; i++) {\n"
                                  "    device_mutex_lock(m);\n"
                                  "    d[0]++;\n"
                                  "    device_fence_release();\n"
                                  "    device_mutex_unlock(m);\n"
                                  "  }\n"
                                  "}\n",
                                  "k"),
                      "");
  /* a compare-exchange retry loop (an atomic update), local memory, local fences */
  assert_string_equal(
    st_warnings("kernel void k(global uint *d, local uint *s) {\n"
                "  local uint l[4];\n"
                "  uint old = d[0], seen;\n"
                "  while ((seen = atomic_cmpxchg(d, old, old * 3u)) != old) old = seen;\n"
                "  while (atomic_cmpxchg(&l[1], 0u, 1u)) {}\n"
                "  while (atomic_cmpxchg(s, 0u, 1u)) {}\n"
                "  while (atomic_xchg((local uint *)s, 1u)) {}\n"
                "  mem_fence(CLK_LOCAL_MEM_FENCE);\n"
                "}\n",
                "k"),
    "");
  /* ordinary kernels are not cooperative: the model asks nothing of them */
  assert_string_equal(st_warnings("kernel void c(void) { }\n"
                                  "kernel void o(global uint *m) {\n"
                                  "  while (atomic_cmpxchg(m, 0u, 1u)) {}\n"
                                  "  mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
                                  "}\n",
                                  "c"),
                      "");
}

static void test_sync_api_names_are_reserved(void **st) {
  (void)st;
  const char *m =
    st_fail("void device_mutex_lock(global uint *m) { }\nkernel void k(void) { }\n", "k", NULL);
  st_assert_msg(m, 1, "'device_mutex_lock' is reserved", "ck_cooperative.h", NULL);
  m =
    st_fail("kernel void k(global uint *d) {\n  uint device_load_acquire = d[0];\n}\n", "k", NULL);
  st_assert_msg(m, 2, "'device_load_acquire' is reserved", NULL);
}

/* ws.cl as the apps hand it to the runtime (app_read_kernel, apps/common/paths.h): its line
 * including common/ws_pool.cl, the queues it shares with octree.cl and game.cl, replaced by
 * that file's text; with room for growth. */
static char *read_ws(void) {
  static const char inc[] = "#include \"common/ws_pool.cl\"\n";
  char *ws = st_read_file(APPS_DIR "/workstealing/ws.cl");
  char *pool = st_read_file(APPS_DIR "/common/ws_pool.cl");
  assert_non_null(ws);
  assert_non_null(pool);
  char *at = strstr(ws, inc);
  assert_non_null(at);
  char *s = calloc(1, strlen(ws) + strlen(pool) + 4096);
  assert_non_null(s);
  memcpy(s, ws, (size_t)(at - ws));
  strcat(s, pool);
  strcat(s, at + strlen(inc));
  free(ws);
  free(pool);
  return s;
}

/* Replaces every `from` in s (room for growth is there) by `to`; returns the count. */
static int replace_all(char *s, const char *from, const char *to) {
  int n = 0;
  size_t lf = strlen(from), lt = strlen(to);
  for (char *p = strstr(s, from); p; p = strstr(p + lt, from), n++) {
    memmove(p + lt, p + lf, strlen(p + lf) + 1);
    memcpy(p, to, lt);
  }
  return n;
}

/* A lock written as a try-lock helper, called in a loop: warned at the call, naming the
 * helper, in the OpenCL 1.2 and 2.0 forms and through a second helper; an unlock (a swap
 * whose result nobody reads), a retry loop with variable operands and the portable mutex
 * are not. */
static void test_try_lock_helper_in_loop(void **st) {
  (void)st;
  const char *w = st_warnings("bool try_lock(global volatile int *l) {\n"
                              "  return atomic_cmpxchg(l, 0, 1) == 0;\n"
                              "}\n"
                              "void unlock(global volatile int *l) { atomic_xchg(l, 0); }\n"
                              "kernel void k(global volatile int *locks, global int *d) {\n"
                              "  int q = get_group_id(0) % 4;\n"
                              "  while (!try_lock(&locks[q])) ;\n"
                              "  d[q] += 1;\n"
                              "  unlock(&locks[q]);\n"
                              "  offer_kill();\n"
                              "}\n",
                              "k");
  st_assert_has(w, "t.cl:7:11: warning: 'try_lock', called in a loop in cooperative kernel 'k', "
                   "makes an atomic_cmpxchg with constant operands (line 2): a hand-made spin "
                   "lock");
  st_assert_has(w, "device_mutex_lock()");
  assert_int_equal(st_count(w, "warning:"), 1);
  /* OpenCL C 2.0 atomics, and the try-lock one helper further down */
  w = st_warnings("bool cas(global atomic_int *l) {\n"
                  "  int expected = 0;\n"
                  "  return atomic_compare_exchange_strong(l, &expected, 1);\n"
                  "}\n"
                  "bool acquire(global atomic_int *l) { return cas(l); }\n"
                  "kernel void k(global atomic_int *l, global int *d) {\n"
                  "  for (int tries = 0; ; tries++)\n"
                  "    if (acquire(l)) break;\n"
                  "  d[0] += 1;\n"
                  "  atomic_store(l, 0);\n"
                  "  offer_kill();\n"
                  "}\n",
                  "k");
  st_assert_has(w, "t.cl:8:9: warning: 'acquire', called in a loop in cooperative kernel 'k', "
                   "makes an atomic_compare_exchange_strong with constant operands (line 3)");
  assert_int_equal(st_count(w, "warning:"), 1);
  /* a retry loop that adds (variable operands) and the portable mutex: nothing */
  assert_string_equal(st_warnings("uint add_once(global volatile uint *p, uint v) {\n"
                                  "  uint old = *p;\n"
                                  "  return atomic_cmpxchg(p, old, old + v);\n"
                                  "}\n"
                                  "kernel void k(global volatile uint *p) {\n"
                                  "  for (int i = 0; i < 4; i++) add_once(p, 2u);\n"
                                  "  offer_kill();\n"
                                  "}\n",
                                  "k"),
                      "");
  assert_string_equal(st_warnings("kernel void k(global uint *locks, global int *d) {\n"
                                  "  int q = get_group_id(0) % 4;\n"
                                  "  for (int i = 0; i < 2; i++) {\n"
                                  "    device_mutex_lock(&locks[q]);\n"
                                  "    d[q] += 1;\n"
                                  "    device_mutex_unlock(&locks[q]);\n"
                                  "  }\n"
                                  "  offer_kill();\n"
                                  "}\n",
                                  "k"),
                      "");
}

static void test_work_stealing_app(void **st) {
  (void)st;
  char *src = read_ws();
  assert_string_equal(st_warnings(src, "ws_coop"), "");
  /* The same kernel with its locks written as the user wrote them. */
  assert_int_equal(replace_all(src, "device_mutex_lock(&m[WS_POOL_LOCK]);",
                               "while (atomic_cmpxchg(&m[WS_POOL_LOCK], 0u, 1u) != 0u) {} "
                               "mem_fence(CLK_GLOBAL_MEM_FENCE);"),
                   2);
  assert_int_equal(
    replace_all(src, "device_mutex_unlock(&m[WS_POOL_LOCK]);",
                "mem_fence(CLK_GLOBAL_MEM_FENCE); atomic_xchg(&m[WS_POOL_LOCK], 0u);"),
    2);
  const char *w = st_warnings(src, "ws_coop");
  st_assert_has(w, "in 'ws_pool_push' (reached from cooperative kernel 'ws_coop') looks like a "
                   "hand-made spin lock");
  st_assert_has(w, "in 'ws_pool_pop_or_steal' (reached from cooperative kernel 'ws_coop') "
                   "looks like a hand-made spin lock");
  assert_int_equal(st_count(w, "warning: mem_fence(CLK_GLOBAL_MEM_FENCE)"), 4);
  free(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mem_fence_in_cooperative_kernel),
    cmocka_unit_test(test_spin_lock_in_helper),
    cmocka_unit_test(test_try_lock_helper_in_loop),
    cmocka_unit_test(test_no_warning_where_nothing_is_wrong),
    cmocka_unit_test(test_sync_api_names_are_reserved),
    cmocka_unit_test(test_work_stealing_app),
  };
  return cmocka_run_group_tests_name("stitcher-warnings", tests, NULL, NULL);
}
