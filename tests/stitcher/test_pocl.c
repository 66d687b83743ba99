/* test_pocl.c: compile-and-run tests of stitched code on the OpenCL device (PoCL on CI).
 * For every fork point of every cooperative kernel in cl/resume_kernels.cl: (1) the
 * stitched kernel run normally gives the same trace and data as the original kernel
 * compiled as plain OpenCL; (2) for every recorded visit k of the point, a run resumed
 * there (transmit snapshot and data as of that visit) produces exactly the part of the
 * normal trace after the k-th visit and the same final data. Also kills, logical ids,
 * parameter unpacking and the reducibility check of the generated code. The program is
 * built with -cl-std=CL1.2 and with -cl-std=CL3.0; CL3.0 runs the cheaper kernels (see
 * main). Exits 77 (skip) when there is no OpenCL platform. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_harness.h"
#include "st_test_util.h"

#define WI 8u     /* work-items in the one work-group */
#define MAXT 400u /* trace entries per work-item (CKT_MAXT in the .cl) */
#define TRACE_OFF 4096u
#define CNT_OFF (TRACE_OFF + WI * MAXT * 4u)
#define VALS_OFF 0u
#define N0_OFF 256u
#define N1_OFF 768u
#define HEAD_OFF 1280u
#define OUT_OFF 1536u
#define MARK(p) (0x7F000000 | (p))
#define SLOT (CKT_TX_MAX + CKT_DATA)

static const char *const COOP[] = {"nested_for", "whiles", "switchy", "graph_app", "steal",
                                   "straight",   "deep",   "forinit", "scoped",    "helpers"};

typedef struct {
  char *user; /* cl/resume_kernels.cl */
  ck_stitch_result res;
  clh h;
  int ready;
  cl_program ref; /* the user program as plain OpenCL (reference runs) */
  int resumes;    /* resumed runs checked */
} state;

static state S;
static unsigned char arena_a[CKT_ARENA], arena_b[CKT_ARENA], arena_c[CKT_ARENA];
static unsigned char snaps[CKT_MAX_VISITS * SLOT];
static uint32_t logw[1 + CKT_LOG_MAX];

static const char *SHIM =
  "#define CKT_REFERENCE 1\n"
  "#define transmit\n"
  "#define offer_kill() ((void)0)\n"
  "#define request_fork() ((void)0)\n"
  "#define global_barrier() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)\n"
  "#define resizing_global_barrier() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)\n"
  "#line 1 \"resume_kernels.cl\"\n";

static int setup(const char *std) {
  memset(&S, 0, sizeof S);
  S.user = st_read_test_file("cl/resume_kernels.cl");
  if (!S.user) return -1;
  char err[1024];
  ck_stitch_input in = {S.user, "resume_kernels.cl", COOP, sizeof COOP / sizeof COOP[0], 0};
  if (ck_stitch(&in, &S.res, err, sizeof err)) {
    fprintf(stderr, "stitch failed: %s\n", err);
    return -1;
  }
  if (clh_init(&S.h)) {
    fprintf(stderr, "no OpenCL device\n");
    return -1;
  }
  static char log[65536];
  char opts[64];
  snprintf(opts, sizeof opts, "-cl-std=%s", std);
  if (clh_build(&S.h, S.res.source, opts, log, sizeof log)) {
    fprintf(stderr, "build (%s) failed:\n%s\n", std, log);
    return -1;
  }
  /* the reference program, plain OpenCL */
  const char *parts[2] = {SHIM, S.user};
  cl_int e;
  S.ref = clCreateProgramWithSource(S.h.context, 2, parts, NULL, &e);
  if (e || clBuildProgram(S.ref, 1, &S.h.device, opts, NULL, NULL)) {
    clGetProgramBuildInfo(S.ref, S.h.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "reference build failed:\n%s\n", log);
    return -1;
  }
  S.ready = 1;
  return 0;
}

static int setup12(void **st) {
  (void)st;
  return setup("CL1.2");
}
static int setup30(void **st) {
  (void)st;
  return setup("CL3.0");
}
static int teardown(void **st) {
  (void)st;
  fprintf(stderr, "  [%d resumed runs checked]\n", S.resumes);
  if (S.ref) clReleaseProgram(S.ref);
  clh_free(&S.h);
  ck_stitch_result_free(&S.res);
  free(S.user);
  memset(&S, 0, sizeof S);
  return 0;
}

static const ck_stitch_kernel *kern(const char *name, int *idx) {
  int k = ck_stitch_find_kernel(&S.res, name);
  assert_true(k >= 0);
  if (idx) *idx = k;
  return &S.res.kernels[k];
}

/* ---- scenarios: arguments and initial data of each kernel ------------------------- */

typedef void (*packer)(const ck_stitch_kernel *k, uint64_t *w, unsigned char *arena);

static void pack_trace(const ck_stitch_kernel *k, uint64_t *w) {
  clh_set_ptr(k, w, "trace", TRACE_OFF);
  clh_set_ptr(k, w, "cnt", CNT_OFF);
}
static void set_int(const ck_stitch_kernel *k, uint64_t *w, const char *n, int v) {
  clh_set_scalar(k, w, n, &v, sizeof v);
}

static void pack_nested_for(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "n", 4);
  set_int(k, w, "m", 5);
}
static void pack_whiles(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "n", 5);
}
static void pack_switchy(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "n", 14);
}
static void pack_graph(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  pack_trace(k, w);
  clh_set_ptr(k, w, "vals", VALS_OFF);
  clh_set_ptr(k, w, "n0", N0_OFF);
  clh_set_ptr(k, w, "n1", N1_OFF);
  int32_t n0[65] = {12};
  for (int i = 0; i < 12; i++) n0[1 + i] = i * 5 + 1;
  memcpy(a + N0_OFF, n0, sizeof n0);
}
static void pack_steal(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  clh_set_ptr(k, w, "head", HEAD_OFF);
  clh_set_ptr(k, w, "out", OUT_OFF);
  set_int(k, w, "ntasks", 9);
}
static void pack_straight(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "x", 3);
}
static void pack_deep(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "n", 3);
}
static void pack_forinit(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "n", 5);
}
static void pack_helpers(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "n", 3);
}
static void pack_scoped(const ck_stitch_kernel *k, uint64_t *w, unsigned char *a) {
  (void)a;
  pack_trace(k, w);
  set_int(k, w, "n", 4);
}

/* ---- runs -------------------------------------------------------------------------- */

static void prepare(const ck_stitch_kernel *k, packer pk, uint64_t *w, unsigned char *arena) {
  memset(w, 0, CKT_MAX_WORDS * 8);
  memset(arena, 0, CKT_ARENA);
  pk(k, w, arena);
}

static void run(int idx, clh_run_cfg *c, const uint64_t *w, const ck_stitch_kernel *k,
                const unsigned char *in, unsigned char *out, unsigned char *snap, uint32_t *log) {
  c->kernel = (uint32_t)idx;
  if (!c->local_size) c->local_size = WI;
  if (!c->num_groups) c->num_groups = 1;
  int e = clh_run(&S.h, c, w, k->arg_words, in, out, snap, log);
  if (e) fail_msg("clh_run(%s): %d", k->name, e);
}

/* The original kernel as plain OpenCL, arguments taken from the same packet words. */
static void run_reference(const ck_stitch_kernel *k, const uint64_t *w, const unsigned char *in,
                          unsigned char *out) {
  cl_int e;
  cl_kernel kr = clCreateKernel(S.ref, k->name, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem arena = clCreateBuffer(S.h.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, CKT_ARENA,
                                (void *)in, &e);
  assert_int_equal(e, CL_SUCCESS);
  cl_mem subs[16];
  int n_subs = 0;
  for (size_t i = 0; i < k->n_params; i++) {
    const ck_stitch_param *p = &k->params[i];
    if (p->kind == CK_PARAM_SCALAR) {
      e = clSetKernelArg(kr, (cl_uint)i, p->size, w + p->word_offset);
    } else if (p->kind == CK_PARAM_LOCAL_PTR) {
      e = clSetKernelArg(kr, (cl_uint)i, w[p->word_offset], NULL);
    } else {
      cl_buffer_region r = {w[p->word_offset], CKT_ARENA - w[p->word_offset]};
      subs[n_subs] = clCreateSubBuffer(arena, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
      assert_int_equal(e, CL_SUCCESS);
      e = clSetKernelArg(kr, (cl_uint)i, sizeof(cl_mem), &subs[n_subs++]);
    }
    assert_int_equal(e, CL_SUCCESS);
  }
  size_t g = WI;
  assert_int_equal(clEnqueueNDRangeKernel(S.h.queue, kr, 1, NULL, &g, &g, 0, NULL, NULL), 0);
  assert_int_equal(clEnqueueReadBuffer(S.h.queue, arena, CL_TRUE, 0, CKT_ARENA, out, 0, NULL, NULL),
                   0);
  for (int i = 0; i < n_subs; i++) clReleaseMemObject(subs[i]);
  clReleaseMemObject(arena);
  clReleaseKernel(kr);
}

static const int32_t *trace_of(const unsigned char *arena, unsigned wi, uint32_t *n) {
  uint32_t c;
  memcpy(&c, arena + CNT_OFF + 4 * wi, 4);
  assert_true(c <= MAXT); /* the trace did not overflow */
  *n = c;
  return (const int32_t *)(arena + TRACE_OFF + (size_t)wi * MAXT * 4);
}

static void assert_same_run(const char *what, const unsigned char *a, const unsigned char *b) {
  for (unsigned wi = 0; wi < WI; wi++) {
    uint32_t na, nb;
    const int32_t *ta = trace_of(a, wi, &na), *tb = trace_of(b, wi, &nb);
    if (na != nb || memcmp(ta, tb, na * 4))
      fail_msg("%s: traces of work-item %u differ (%u vs %u entries)", what, wi, na, nb);
  }
  if (memcmp(a, b, CKT_DATA)) fail_msg("%s: data differ", what);
}

/* index just after the v-th MARK(p) in t[0..n), or -1 */
static int after_mark(const int32_t *t, uint32_t n, int p, unsigned v) {
  unsigned seen = 0;
  for (uint32_t i = 0; i < n; i++)
    if (t[i] == MARK(p) && ++seen == v) return (int)i + 1;
  return -1;
}

static void check_kernel(const char *name, packer pk) {
  assert_true(S.ready);
  int idx;
  const ck_stitch_kernel *k = kern(name, &idx);
  assert_true(k->cooperative);
  assert_true(k->n_fork_points >= 1);
  uint64_t w[CKT_MAX_WORDS];
  static unsigned char init[CKT_ARENA], ref[CKT_ARENA];
  prepare(k, pk, w, init);
  run_reference(k, w, init, ref);
  for (unsigned p = 1; p <= k->n_fork_points; p++) {
    clh_run_cfg c = {0};
    c.snap_point = p;
    run(idx, &c, w, k, init, arena_a, snaps, logw);
    char what[128];
    snprintf(what, sizeof what, "%s: normal run vs plain OpenCL", name);
    assert_same_run(what, arena_a, ref);
    unsigned visits = 0;
    for (uint32_t i = 0; i < logw[0] && i < CKT_LOG_MAX; i++) visits += logw[1 + i] == p;
    if (visits == 0) fail_msg("%s: fork point %u is never reached by the test", name, p);
    uint32_t n0;
    const int32_t *t0 = trace_of(arena_a, 0, &n0);
    int marks = 0;
    for (uint32_t i = 0; i < n0; i++) marks += t0[i] == MARK((int)p);
    assert_int_equal(marks, visits);
    unsigned upto = visits < CKT_MAX_VISITS ? visits : CKT_MAX_VISITS;
    for (unsigned v = 1; v <= upto; v++) {
      const unsigned char *slot = snaps + (size_t)(v - 1) * SLOT;
      memcpy(arena_b, init, CKT_ARENA);
      memcpy(arena_b, slot + CKT_TX_MAX, CKT_DATA);          /* data as of the visit */
      memset(arena_b + TRACE_OFF, 0, CKT_ARENA - TRACE_OFF); /* empty traces */
      clh_run_cfg r = {0};
      r.resume = p;
      r.tx_in = slot;
      run(idx, &r, w, k, arena_b, arena_c, NULL, NULL);
      for (unsigned wi = 0; wi < WI; wi++) {
        uint32_t nf, nr;
        const int32_t *tf = trace_of(arena_a, wi, &nf), *tr = trace_of(arena_c, wi, &nr);
        int from = after_mark(tf, nf, (int)p, v);
        assert_true(from >= 0);
        uint32_t want = nf - (uint32_t)from;
        if (nr != want || memcmp(tr, tf + from, want * 4)) {
          uint32_t i = 0;
          while (i < nr && i < want && tr[i] == tf[from + i]) i++;
          fail_msg("%s: resumed at point %u, visit %u: work-item %u's trace differs at entry "
                   "%u (got %d, want %d; %u vs %u entries)",
                   name, p, v, wi, i, i < nr ? tr[i] : -1, i < want ? tf[from + i] : -1, nr, want);
        }
      }
      if (memcmp(arena_c, arena_a, CKT_DATA))
        fail_msg("%s: resumed at point %u, visit %u: final data differ", name, p, v);
      S.resumes++;
    }
  }
}

static void test_resume_nested_for(void **st) {
  (void)st;
  check_kernel("nested_for", pack_nested_for);
}
static void test_resume_whiles(void **st) {
  (void)st;
  check_kernel("whiles", pack_whiles);
}
static void test_resume_switch(void **st) {
  (void)st;
  check_kernel("switchy", pack_switchy);
}
static void test_resume_graph_figure4(void **st) {
  (void)st;
  check_kernel("graph_app", pack_graph);
}
static void test_resume_work_stealing(void **st) {
  (void)st;
  check_kernel("steal", pack_steal);
}
static void test_resume_straight(void **st) {
  (void)st;
  check_kernel("straight", pack_straight);
}
static void test_resume_deep(void **st) {
  (void)st;
  check_kernel("deep", pack_deep);
}
static void test_resume_forinit(void **st) {
  (void)st;
  check_kernel("forinit", pack_forinit);
}
/* fork points inside helpers: every visit of each of the three */
static void test_resume_helpers(void **st) {
  (void)st;
  check_kernel("helpers", pack_helpers);
}
static void test_resume_scoped(void **st) {
  (void)st;
  check_kernel("scoped", pack_scoped);
}

/* A kill at offer_kill / at a resizing barrier ends the work-group right there. */
static void check_kill(const char *name, packer pk, uint32_t kill_point, int mark, unsigned at) {
  int idx;
  const ck_stitch_kernel *k = kern(name, &idx);
  uint64_t w[CKT_MAX_WORDS];
  static unsigned char init[CKT_ARENA];
  prepare(k, pk, w, init);
  clh_run_cfg c = {0};
  run(idx, &c, w, k, init, arena_a, NULL, NULL);
  c.kill_point = kill_point;
  c.kill_visit = at;
  run(idx, &c, w, k, init, arena_b, NULL, NULL);
  for (unsigned wi = 0; wi < WI; wi++) {
    uint32_t nf, nk;
    const int32_t *tf = trace_of(arena_a, wi, &nf), *tk = trace_of(arena_b, wi, &nk);
    int upto = after_mark(tf, nf, mark, at);
    assert_true(upto > 0);
    assert_int_equal(nk, (uint32_t)upto);
    assert_memory_equal(tk, tf, nk * 4);
  }
}

static void test_kill(void **st) {
  (void)st;
  assert_true(S.ready);
  check_kill("steal", pack_steal, 0, 50, 1);
  check_kill("steal", pack_steal, 0, 50, 4);
  check_kill("forinit", pack_forinit, 1, 1, 2);
  check_kill("graph_app", pack_graph, 2, 2, 3);
}

/* Logical ids reach kernels and helpers; get_global_offset is 0. */
static void test_ids(void **st) {
  (void)st;
  assert_true(S.ready);
  int idx;
  const ck_stitch_kernel *k = kern("ids", &idx);
  assert_false(k->cooperative);
  uint64_t w[CKT_MAX_WORDS] = {0};
  pack_trace(k, w);
  clh_set_ptr(k, w, "out", OUT_OFF);
  memset(arena_a, 0, CKT_ARENA);
  clh_run_cfg c = {0};
  c.group_id = 3;
  c.num_groups = 5;
  run(idx, &c, w, k, arena_a, arena_b, NULL, NULL);
  const uint64_t *o = (const uint64_t *)(arena_b + OUT_OFF);
  for (unsigned l = 0; l < WI; l++) {
    assert_int_equal(o[l * 6 + 0], 3 * WI + l);
    assert_int_equal(o[l * 6 + 1], 3);
    assert_int_equal(o[l * 6 + 2], 5);
    assert_int_equal(o[l * 6 + 3], 5 * WI);
    assert_int_equal(o[l * 6 + 4], 77);
    assert_int_equal(o[l * 6 + 5], (3 * WI + l) * 1000 + 5);
  }
  /* the work-stealing kernel stores its logical group id with each task */
  k = kern("steal", &idx);
  static unsigned char init[CKT_ARENA];
  prepare(k, pack_steal, w, init);
  run(idx, &c, w, k, init, arena_b, NULL, NULL);
  const int32_t *so = (const int32_t *)(arena_b + OUT_OFF);
  for (int t = 0; t < 9; t++) assert_int_equal(so[t * (int)WI + 1], t * 7 + 3);
}

/* Every parameter kind and size is unpacked from the packet as the host packed it. */
static void test_args(void **st) {
  (void)st;
  assert_true(S.ready);
  int idx;
  const ck_stitch_kernel *k = kern("args", &idx);
  assert_int_equal(k->reqd_wg_size, 8);
  uint64_t w[CKT_MAX_WORDS] = {0};
  memset(arena_a, 0, CKT_ARENA);
  clh_set_ptr(k, w, "out", OUT_OFF);
  int8_t c = -5;
  uint8_t uc = 200;
  int16_t s = -1234;
  uint16_t us = 60000;
  int32_t i = -100000;
  uint32_t ui = 4000000000u;
  int64_t l = -5000000000LL;
  uint64_t ul = 0xFEDCBA9876543210ULL;
  float f = 1.5f, r = -2.25f, v3[4] = {0.5f, 1.5f, 2.5f, 0.0f},
        v8[8] = {0, 0, 0, 0, 0, 0, 0, 7.75f};
  double d = 3.125;
  uint64_t sz = 123456789012ULL;
  int32_t v2[2] = {-7, 9}, v4[4] = {1, 2, 3, -44};
  uint8_t v16[16];
  for (int j = 0; j < 16; j++) v16[j] = (uint8_t)(j * 10);
  clh_set_scalar(k, w, "c", &c, 1);
  clh_set_scalar(k, w, "uc", &uc, 1);
  clh_set_scalar(k, w, "s", &s, 2);
  clh_set_scalar(k, w, "us", &us, 2);
  clh_set_scalar(k, w, "i", &i, 4);
  clh_set_scalar(k, w, "ui", &ui, 4);
  clh_set_scalar(k, w, "l", &l, 8);
  clh_set_scalar(k, w, "ul", &ul, 8);
  clh_set_scalar(k, w, "f", &f, 4);
  clh_set_scalar(k, w, "d", &d, 8);
  clh_set_scalar(k, w, "r", &r, 4);
  clh_set_scalar(k, w, "sz", &sz, 8);
  clh_set_scalar(k, w, "v2", v2, 8);
  clh_set_scalar(k, w, "v3", v3, 16);
  clh_set_scalar(k, w, "v4", v4, 16);
  clh_set_scalar(k, w, "v8", v8, 32);
  clh_set_scalar(k, w, "v16", v16, 16);
  int32_t cdata[2] = {40, 2};
  memcpy(arena_a + 3584, cdata, sizeof cdata);
  clh_set_ptr(k, w, "cp", 3584);
  clh_set_local(k, w, "lp", 8 * 4 + 4); /* 36 bytes: the next region starts at 48 */
  int32_t pod = 31337;
  memcpy(arena_a + 3600, &pod, 4);
  clh_set_ptr(k, w, "gp", 3600);
  clh_set_local(k, w, "lp2", 16);
  clh_set_null(k, w, "nul");
  clh_run_cfg cf = {0};
  run(idx, &cf, w, k, arena_a, arena_b, NULL, NULL);
  uint64_t o[32];
  memcpy(o, arena_b + OUT_OFF, sizeof o);
  int n = 0;
  uint32_t bits;
  uint64_t bits64;
  assert_int_equal((int64_t)o[n++], -5);
  assert_int_equal(o[n++], 200);
  assert_int_equal((int64_t)o[n++], -1234);
  assert_int_equal(o[n++], 60000);
  assert_int_equal((int64_t)o[n++], -100000);
  assert_int_equal(o[n++], 4000000000u);
  assert_int_equal((int64_t)o[n++], -5000000000LL);
  assert_int_equal(o[n++], 0xFEDCBA9876543210ULL);
  memcpy(&bits, &f, 4);
  assert_int_equal(o[n++], bits);
  memcpy(&bits64, &d, 8);
  assert_int_equal(o[n++], bits64);
  memcpy(&bits, &r, 4);
  assert_int_equal(o[n++], bits);
  assert_int_equal(o[n++], 123456789012ULL);
  assert_int_equal((int64_t)o[n++], -7);
  assert_int_equal((int64_t)o[n++], 9);
  for (int j = 0; j < 3; j++) {
    memcpy(&bits, &v3[j], 4);
    assert_int_equal(o[n++], bits);
  }
  assert_int_equal((int64_t)o[n++], -44);
  memcpy(&bits, &v8[7], 4);
  assert_int_equal(o[n++], bits);
  assert_int_equal(o[n++], 150);
  assert_int_equal(o[n++], 42);
  assert_int_equal(o[n++], 48);
  assert_int_equal(o[n++], 31337);
  assert_int_equal(o[n++], 1);
  assert_int_equal(o[n++], 7 * 3 + 8 + 2000);
}

static void test_generated_is_reducible(void **st) {
  (void)st;
  assert_true(S.ready);
  char err[256];
  int n = st_check_reducible(S.res.source, err, sizeof err);
  if (n < 0) fail_msg("%s", err);
  assert_true(n > 20);
}

/* CL1.2 runs everything. CL3.0 builds the whole program (the language rules are what
 * differ between the two) and runs the cheaper kernels: PoCL's per-kernel work-group
 * compile, the slow part, does not depend on the language version. */
#define TESTS_CHEAP                                                                                \
  cmocka_unit_test(test_generated_is_reducible), cmocka_unit_test(test_args),                      \
    cmocka_unit_test(test_ids), cmocka_unit_test(test_resume_graph_figure4),                       \
    cmocka_unit_test(test_resume_work_stealing), cmocka_unit_test(test_resume_straight),           \
    cmocka_unit_test(test_resume_forinit), cmocka_unit_test(test_resume_scoped),                   \
    cmocka_unit_test(test_resume_switch), cmocka_unit_test(test_resume_helpers),                   \
    cmocka_unit_test(test_kill)

int main(void) {
  cl_uint n_platforms = 0;
  if (clGetPlatformIDs(0, NULL, &n_platforms) != CL_SUCCESS || n_platforms == 0) {
    fprintf(stderr, "no OpenCL platform: skipping\n");
    return 77; /* meson: skipped */
  }
  const struct CMUnitTest cl12[] = {TESTS_CHEAP, cmocka_unit_test(test_resume_nested_for),
                                    cmocka_unit_test(test_resume_whiles),
                                    cmocka_unit_test(test_resume_deep)};
  const struct CMUnitTest cl30[] = {TESTS_CHEAP};
  int f = 0;
  f += _cmocka_run_group_tests("stitcher-pocl-CL1.2", cl12, sizeof cl12 / sizeof cl12[0], setup12,
                               teardown);
  f += _cmocka_run_group_tests("stitcher-pocl-CL3.0", cl30, sizeof cl30 / sizeof cl30[0], setup30,
                               teardown);
  return f;
}
