/* test_rules.c: the model's rules the stitcher checks (rules.c). For each rule a kernel
 * that breaks it (the diagnostic's position, wording, note and suggested fix) and the
 * correct forms that must stay quiet; transmit variables of nested blocks and for-inits
 * (now legal) and what the stitcher generates for them; and every cooperative kernel of
 * the project (apps/, examples/, tests/) stitched with its cooperative names, without
 * an error (warnings are printed to the log). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "st_test_util.h"

#ifndef SOURCE_ROOT
#define SOURCE_ROOT "."
#endif

#define HAS(r, s) st_assert_has((r).source, s)

/* The warnings of a source that must stitch ("" if none), copied to static storage. */
/* The kernel: a resizing barrier inside a for over `phase`, with a break on it. */
#define PHASE_KERNEL(DECL)                                                                         \
  "kernel void k(global int *o) {\n"                                                               \
  "  for (" DECL " phase = 0; phase < 2; phase++) {\n"                                             \
  "    o[get_global_id(0)] += 1;\n"                                                                \
  "    resizing_global_barrier();\n"                                                               \
  "    if (phase == 1) break;\n"                                                                   \
  "    o[get_global_id(0)] += 2;\n"                                                                \
  "  }\n"                                                                                          \
  "}\n"

static void test_loop_counter_live_across_fork_point(void **st) {
  (void)st;
  const char *m = st_fail(PHASE_KERNEL("int"), "k", NULL);
  /* at the first read after the barrier, with a column, naming variable and fork point */
  st_assert_has(m, "t.cl:5:9: error: 'phase' is read after the resizing_global_barrier() on "
                   "line 4 before it is assigned, but it is not transmit");
  st_assert_has(m, "kernel 'k'");
  st_assert_has(m, "'for (transmit int phase')");
  st_assert_has(m, "recompute it after the fork point");
  /* the note, on its own line, at the fork point */
  st_assert_has(m, "\nt.cl:4:5: note: forked work-groups start after this "
                   "resizing_global_barrier()");
  /* the fix stitches, without warnings */
  assert_string_equal(st_warnings(PHASE_KERNEL("transmit int"), "k"), "");
}

static void test_loop_counter_read_only_by_step(void **st) {
  (void)st;
  /* nothing reads i in the rest of the body: the step and the condition do */
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  for (int i = 0; i < 4; i++) {\n"
                          "    request_fork();\n"
                          "  }\n"
                          "}\n",
                          "k", NULL);
  st_assert_msg(m, 2, "'i' is read after the request_fork() on line 3", NULL);
  /* while and do-while counters declared outside the loop, too */
  m = st_fail("kernel void k(global int *o) {\n"
              "  int n = 0;\n"
              "  do {\n"
              "    resizing_global_barrier();\n"
              "  } while (++n < 3);\n"
              "}\n",
              "k", NULL);
  st_assert_msg(m, 5, "'n' is read after the resizing_global_barrier() on line 4",
                "'transmit int n'", NULL);
}

static void test_straight_line_variables(void **st) {
  (void)st;
  /* read after the fork point before any assignment: error */
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  int a = o[0];\n"
                          "  request_fork();\n"
                          "  o[1] = a;\n"
                          "}\n",
                          "k", NULL);
  st_assert_msg(m, 4, "'a' is read after the request_fork() on line 3", NULL);
  /* assigned on only one branch: error at the read after the if */
  m = st_fail("kernel void k(global int *o) {\n"
              "  int a = 0;\n"
              "  request_fork();\n"
              "  if (o[0]) a = 1;\n"
              "  o[1] = a;\n"
              "}\n",
              "k", NULL);
  st_assert_msg(m, 5, "'a'", NULL);
  /* a compound assignment reads; x = x + 1 reads before it assigns */
  m = st_fail("kernel void k(global int *o) {\n  int a = 0;\n  request_fork();\n  a += 1;\n}\n",
              "k", NULL);
  st_assert_msg(m, 4, "'a'", NULL);
  m = st_fail("kernel void k(global int *o) {\n  int a = 0;\n  request_fork();\n"
              "  a = a + 1;\n}\n",
              "k", NULL);
  st_assert_msg(m, 4, "'a'", NULL);
  /* a pointer's value is read by p[i] = ... and *p = ... */
  m = st_fail("kernel void k(global int *o) {\n  global int *p = o;\n  request_fork();\n"
              "  p[0] = 1;\n}\n",
              "k", NULL);
  st_assert_msg(m, 4, "'p'", NULL);
  m = st_fail("kernel void k(global int *o) {\n  global int *p = o;\n  request_fork();\n"
              "  *p = 1;\n}\n",
              "k", NULL);
  st_assert_msg(m, 4, "'p'", NULL);
  /* nested blocks enclosing the fork point, and the rest after an inner loop */
  m = st_fail("kernel void k(global int *o) {\n"
              "  int t = 3;\n"
              "  if (o[0]) {\n"
              "    float4 v = (float4)(1.0f);\n"
              "    while (o[1]) { resizing_global_barrier(); o[1]--; }\n"
              "    o[2] = (int)v.x + t;\n"
              "  }\n"
              "}\n",
              "k", NULL);
  st_assert_msg(m, 6, "'v'", "'transmit float4 v'", NULL);

  /* quiet: every use after the fork point is preceded by an assignment or declaration */
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  int a = o[0], b;\n"
                                  "  global int *p = o;\n"
                                  "  request_fork();\n"
                                  "  a = o[1]; p = o + 1;\n"
                                  "  if (o[2]) b = 1; else b = 2;\n"
                                  "  int c = a + b;\n"
                                  "  *p = c;\n"
                                  "  for (a = 0; a < 3; a++) o[a] = sizeof(b);\n"
                                  "}\n",
                                  "k"),
                      "");
  /* quiet: the value is used only before the fork point; a loop left only by break */
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  int a = o[0], w;\n"
                                  "  o[1] = a;\n"
                                  "  resizing_global_barrier();\n"
                                  "  while (1) { w = o[2]; if (w) break; }\n"
                                  "  o[3] = w;\n"
                                  "  int arr[4];\n"
                                  "  arr[0] = 1;\n"
                                  "  o[4] = arr[0];\n"
                                  "}\n",
                                  "k"),
                      "");
  /* quiet: arguments, transmit, local and constant variables are not the rule's business */
  assert_string_equal(st_warnings("kernel void k(global int *o, int n) {\n"
                                  "  transmit int t = n;\n"
                                  "  local int l;\n"
                                  "  constant int c = 3;\n"
                                  "  request_fork();\n"
                                  "  if (get_local_id(0) == 0) l = t;\n"
                                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                  "  o[0] = l + c + n + t;\n"
                                  "}\n",
                                  "k"),
                      "");
}

static void test_loop_body_variables(void **st) {
  (void)st;
  /* a body variable declared again each iteration is fresh; one declared outside is not */
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  transmit int i = 0;\n"
                                  "  while (i < 4) {\n"
                                  "    int x = o[i];\n"
                                  "    o[i + 4] = x;\n"
                                  "    resizing_global_barrier();\n"
                                  "    i++;\n"
                                  "  }\n"
                                  "}\n",
                                  "k"),
                      "");
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  transmit int i = 0;\n"
                          "  int sum = 0;\n"
                          "  while (i < 4) {\n"
                          "    sum += o[i];\n"
                          "    resizing_global_barrier();\n"
                          "    i++;\n"
                          "  }\n"
                          "  o[9] = sum;\n"
                          "}\n",
                          "k", NULL);
  /* the next iteration reads sum (line 5) */
  st_assert_msg(m, 5, "'sum'", NULL);
  /* a variable assigned on the continue path and after the loop body alike */
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  transmit int i = 0;\n"
                                  "  int s;\n"
                                  "  for (; i < 4; i++) {\n"
                                  "    request_fork();\n"
                                  "    if (o[i]) { s = 1; continue; }\n"
                                  "    s = 2;\n"
                                  "  }\n"
                                  "}\n",
                                  "k"),
                      "");
  /* a switch without default may run no case */
  m = st_fail("kernel void k(global int *o) {\n"
              "  int s = 0;\n"
              "  request_fork();\n"
              "  switch (o[0]) { case 1: s = 1; break; case 2: s = 2; break; }\n"
              "  o[1] = s;\n"
              "}\n",
              "k", NULL);
  st_assert_msg(m, 5, "'s'", NULL);
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  int s = 0;\n"
                                  "  request_fork();\n"
                                  "  switch (o[0]) { case 1: s = 1; break; default: s = 2; }\n"
                                  "  o[1] = s;\n"
                                  "}\n",
                                  "k"),
                      "");
}

static void test_stale_m(void **st) {
  (void)st;
  /* a transmitted value of M, read after the fork point: warning with a note */
  const char *w = st_warnings("kernel void k(global int *o) {\n"
                              "  transmit uint m = get_num_groups(0);\n"
                              "  resizing_global_barrier();\n"
                              "  o[0] = m;\n"
                              "}\n",
                              "k");
  st_assert_has(w, "t.cl:4:10: warning: transmit variable 'm' holds a value computed from "
                   "get_num_groups/get_global_size before the resizing_global_barrier() on "
                   "line 3");
  st_assert_has(w, "stale once M changes");
  st_assert_has(w, "\nt.cl:3:3: note: M may change at this resizing_global_barrier()\n");
  assert_int_equal(st_count(w, "warning:"), 1);
  /* through a variable assigned from get_global_size */
  w = st_warnings("kernel void k(global int *o) {\n"
                  "  size_t g = get_global_size(0);\n"
                  "  transmit size_t half_size;\n"
                  "  half_size = g / 2;\n"
                  "  request_fork();\n"
                  "  o[half_size] = 1;\n"
                  "}\n",
                  "k");
  st_assert_has(w, "t.cl:6:5: warning: transmit variable 'half_size'");
  /* a non-transmit snapshot read after the fork point is an error (the first rule) */
  const char *m = st_fail("kernel void k(global int *o) {\n"
                          "  uint m = get_num_groups(0);\n"
                          "  resizing_global_barrier();\n"
                          "  o[0] = m;\n"
                          "}\n",
                          "k", NULL);
  st_assert_msg(m, 4, "'m'", NULL);
  /* quiet: a fresh snapshot after the fork point; reading M twice in one interval */
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  transmit uint m = get_num_groups(0);\n"
                                  "  o[1] = get_num_groups(0) + m;\n"
                                  "  resizing_global_barrier();\n"
                                  "  m = get_num_groups(0);\n"
                                  "  o[0] = m + get_num_groups(0) + get_global_size(0);\n"
                                  "}\n",
                                  "k"),
                      "");
  /* quiet: a transmit variable that M did not compute */
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  transmit uint c = get_group_id(0);\n"
                                  "  resizing_global_barrier();\n"
                                  "  o[0] = c;\n"
                                  "}\n",
                                  "k"),
                      "");
}

static void test_transmit_in_nested_scopes(void **st) {
  (void)st;
  ck_stitch_result r;
  /* the fix: the for-init's transmit counter is a field, saved and restored */
  st_ok(PHASE_KERNEL("transmit int"), &r, "k", NULL);
  HAS(r, "int phase;"); /* the transmit struct's field */
  HAS(r, "ck_tx.phase = phase;");
  HAS(r, "phase = ck_txp->phase;");
  HAS(r, "{ int phase = 0;\nck_res_1: ;"); /* the for-init, hoisted in front of the label */
  ck_stitch_result_free(&r);
  /* sibling blocks declaring the same name: two fields, each saved at its own fork point;
   * one outside any loop (restored after the call) */
  st_ok("kernel void k(global int *o) {\n"
        "  if (o[0]) { transmit int x = 1; request_fork(); o[1] = x; }\n"
        "  else { transmit float x = 2.0f; resizing_global_barrier(); o[2] = (int)x; }\n"
        "  { transmit int4 v = (int4)(3); request_fork(); o[3] = v.y; }\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "int x; float ck_tx1_x; int4 v;");
  HAS(r, "ck_tx.x = x; if (ck_request_fork(ck_ctx, 1u");
  HAS(r, "ck_tx.ck_tx1_x = x; if (ck_resizing_global_barrier(ck_ctx, 2u");
  HAS(r, "x = ck_txp->x; }");
  HAS(r, "x = ck_txp->ck_tx1_x; }");
  HAS(r, "v = ck_txp->v; }");
  ck_stitch_result_free(&r);
  /* inner loops' for-init counters, restored after they are declared again */
  st_ok("kernel void k(global int *o) {\n"
        "  for (transmit int i = 0; i < 2; i++)\n"
        "    for (transmit int j = 0; j < 2; j++) {\n"
        "      request_fork();\n"
        "      o[i * 2 + j]++;\n"
        "    }\n"
        "}\n",
        &r, "k", NULL);
  HAS(r, "int j; { { global const ck_tx_k_t *ck_txp = (global const ck_tx_k_t *)ck_tx_in; "
         "i = ck_txp->i; j = ck_txp->j; }");
  ck_stitch_result_free(&r);
}

/* A kernel too large to check in about a second stitches, unchecked, with a warning:
 * 3000 fork points over 3000 variables. */
static void test_work_bound(void **st) {
  (void)st;
  enum { N = 3000 };
  size_t cap = (size_t)N * 128 + 64;
  char *src = malloc(cap);
  assert_non_null(src);
  size_t n = (size_t)snprintf(src, cap, "kernel void k(global int *o) {\n");
  for (int i = 0; i < N; i++) n += (size_t)snprintf(src + n, cap - n, "  int v%d = o[%d];\n", i, i);
  for (int i = 0; i < N; i++)
    n += (size_t)snprintf(src + n, cap - n,
                          "  if (o[%d]) { request_fork(); v%d = 1; o[%d] = v%d; }\n", i, i, i, i);
  snprintf(src + n, cap - n, "}\n");
  const char *w = st_warnings(src, "k");
  free(src);
  st_assert_has(w, "t.cl:1: warning: kernel 'k' is too large for the stitcher's rule checks "
                   "(3000 fork points, 3000 variables)");
}

/* ---- every cooperative kernel of the project --------------------------------------- */

/* The project's kernel files and their cooperative kernels come from
 * tests/cooperative_kernels.txt (shared with the ckcheck test: one file a line, its
 * path, then its cooperative kernels comma-separated or '-'), plus the stitcher
 * tests' own resume kernels, which ckcheck refuses (a kernel with more argument words
 * than a launch carries) but the stitcher stitches. */
typedef struct {
  char file[256];       /* relative to the source root */
  char names[512];      /* storage of the names */
  const char *coop[16]; /* its cooperative kernels */
  size_t n;
} project_kernels;

static project_kernels PROJECT[64];
static size_t n_project;

static void add_project(const char *file, const char *list) {
  if (n_project == sizeof PROJECT / sizeof PROJECT[0]) fail_msg("too many kernel files");
  project_kernels *p = &PROJECT[n_project++];
  snprintf(p->file, sizeof p->file, "%s", file);
  snprintf(p->names, sizeof p->names, "%s", strcmp(list, "-") ? list : "");
  p->n = 0;
  for (char *tok = strtok(p->names, ","); tok && p->n < 16; tok = strtok(NULL, ","))
    p->coop[p->n++] = tok;
}

static void load_project(void) {
  if (n_project) return;
  char path[4096], line[1024];
  snprintf(path, sizeof path, "%s/tests/cooperative_kernels.txt", SOURCE_ROOT);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot open %s", path);
  while (fgets(line, sizeof line, f)) {
    char file[256], list[512];
    if (line[0] == '#' || sscanf(line, "%255s %511s", file, list) != 2) continue;
    add_project(file, list);
  }
  fclose(f);
  add_project("tests/stitcher/cl/resume_kernels.cl",
              "nested_for,whiles,switchy,graph_app,steal,straight,deep,forinit,scoped,helpers");
}

/* .cl files that are not stitched: plain OpenCL with a macro parameter type, and the
 * stitcher tests' stand-in prelude and postlude */
static const char *const NOT_STITCHED[] = {"tests/atomics_kernels.cl",
                                           "tests/stitcher/test_prelude.cl",
                                           "tests/stitcher/test_postlude.cl"};

static int listed(const char *rel) {
  for (size_t k = 0; k < n_project; k++)
    if (!strcmp(PROJECT[k].file, rel)) return 1;
  for (size_t k = 0; k < sizeof NOT_STITCHED / sizeof NOT_STITCHED[0]; k++)
    if (!strcmp(NOT_STITCHED[k], rel)) return 1;
  return 0;
}

/* Fails the test for a .cl file under dir (relative) that the tables above miss. */
static void all_listed(const char *rel_dir, int *found) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", SOURCE_ROOT, rel_dir);
  DIR *d = opendir(path);
  if (!d) fail_msg("cannot open %s", path);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char rel[4096];
    snprintf(rel, sizeof rel, "%s/%s", rel_dir, e->d_name);
    size_t n = strlen(e->d_name);
    if (n > 3 && !strcmp(e->d_name + n - 3, ".cl")) {
      if (!listed(rel))
        fail_msg("%s is not in tests/cooperative_kernels.txt (or test_rules.c's own list)", rel);
      ++*found;
      continue;
    }
    char sub[8192];
    snprintf(sub, sizeof sub, "%s/%s", SOURCE_ROOT, rel);
    DIR *probe = opendir(sub);
    if (probe) {
      closedir(probe);
      all_listed(rel, found);
    }
  }
  closedir(d);
}

static char *read_rel(const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%.255s", SOURCE_ROOT, rel); /* names are under 256 bytes */
  return st_read_file(path);
}

static void test_project_kernels_have_no_errors(void **st) {
  (void)st;
  int found = 0;
  load_project();
  all_listed("apps", &found);
  all_listed("examples", &found);
  all_listed("tests", &found);
  assert_true(n_project >= 14 && found >= (int)n_project);
  for (size_t k = 0; k < n_project; k++) {
    const project_kernels *p = &PROJECT[k];
    char *src = read_rel(p->file);
    if (!src) fail_msg("cannot read %s/%s", SOURCE_ROOT, p->file);
    /* with transmit inference, as ck_context_build stitches by default; only the file
     * written to need it infers anything */
    ck_stitch_input in = {src, p->file, p->coop, p->n, 1};
    ck_stitch_result r;
    char err[16384];
    int rc = ck_stitch(&in, &r, err, sizeof err);
    free(src);
    if (rc != 0) fail_msg("%s: %s", p->file, err);
    printf("%s: %s\n%s", p->file, r.warnings ? "warnings:" : "clean", r.warnings ? r.warnings : "");
    /* the kernel that breaks the snapshot rule on purpose is warned about */
    if (!strcmp(p->file, "tests/megakernel/chaos_replay.cl"))
      st_assert_has(r.warnings ? r.warnings : "", "transmit variable 'groups' holds a value "
                                                  "computed from get_num_groups");
    if ((r.n_inferred != 0) != !strcmp(p->file, "tests/megakernel/infer_kernels.cl"))
      fail_msg("%s: %zu variables inferred transmit", p->file, r.n_inferred);
    ck_stitch_result_free(&r);
  }
}

/* Rule 2 of DESIGN.md section 2.8: a snapshot of M taken before an offer_kill or
 * request_fork without a global barrier between, and used after it. */
#define SUM_KERNEL(BETWEEN)                                                                        \
  "kernel void k(global const int *in, global int *out, int n) {\n"                                \
  "  int gid = get_global_id(0);\n"                                                                \
  "  int gsz = get_global_size(0);\n" BETWEEN "  int acc = 0;\n"                                   \
  "  for (int i = gid; i < n; i += gsz) acc += in[i];\n"                                           \
  "  atomic_add(out, acc);\n"                                                                      \
  "  offer_kill();\n"                                                                              \
  "  if (get_global_id(0) == 0) out[1] = gsz;\n"                                                   \
  "}\n"

static void test_snapshot_before_offer_kill(void **st) {
  (void)st;
  /* the ids taken, then the kill offered, then the work split by the snapshot */
  const char *w = st_warnings("kernel void k(global const int *in, global int *out, int n) {\n"
                              "  int gid = get_global_id(0);\n"
                              "  int gsz = get_global_size(0);\n"
                              "  offer_kill();\n"
                              "  int acc = 0;\n"
                              "  for (int i = gid; i < n; i += gsz) acc += in[i];\n"
                              "  atomic_add(out, acc);\n"
                              "}\n",
                              "k");
  st_assert_has(w, "t.cl:3:7: warning: 'gsz' takes a snapshot of get_num_groups/get_global_size "
                   "before the offer_kill() on line 4 with no global_barrier() between, and it is "
                   "read after that call on line 6 (kernel 'k')");
  st_assert_has(w, "\nt.cl:4:3: note: M may change at this offer_kill()");
  assert_int_equal(st_count(w, "warning:"), 1); /* gid does not change with M */
  /* the same kernel with the snapshot, the work and the kill in the model's order: the work
   * between them, with a barrier after the snapshot */
  assert_string_equal(st_warnings(SUM_KERNEL("  global_barrier();\n"), "k"), "");
  /* without that barrier, the read after the kill is reported */
  w = st_warnings(SUM_KERNEL(""), "k");
  st_assert_has(w, "'gsz' takes a snapshot");
  st_assert_has(w, "read after that call on line 8");
  /* a snapshot taken again after the call is a new one: nothing to report */
  assert_string_equal(st_warnings("kernel void k(global int *o) {\n"
                                  "  int m = get_num_groups(0);\n"
                                  "  o[get_group_id(0)] = m;\n"
                                  "  request_fork();\n"
                                  "  m = get_num_groups(0);\n"
                                  "  o[get_group_id(0)] += m;\n"
                                  "}\n",
                                  "k"),
                      "");
  /* in a loop, the next iteration's read of a snapshot taken before the loop */
  w = st_warnings("kernel void k(global int *o, int rounds) {\n"
                  "  int m = get_num_groups(0);\n"
                  "  for (int r = 0; r < rounds; r++) {\n"
                  "    o[get_group_id(0) + r * m] = 1;\n"
                  "    offer_kill();\n"
                  "  }\n"
                  "}\n",
                  "k");
  st_assert_has(w, "t.cl:2:7: warning: 'm' takes a snapshot");
  st_assert_has(w, "read after that call on line 4");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_loop_counter_live_across_fork_point),
    cmocka_unit_test(test_loop_counter_read_only_by_step),
    cmocka_unit_test(test_straight_line_variables),
    cmocka_unit_test(test_loop_body_variables),
    cmocka_unit_test(test_stale_m),
    cmocka_unit_test(test_transmit_in_nested_scopes),
    cmocka_unit_test(test_work_bound),
    cmocka_unit_test(test_snapshot_before_offer_kill),
    cmocka_unit_test(test_project_kernels_have_no_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
