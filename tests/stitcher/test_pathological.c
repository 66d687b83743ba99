/* test_pathological.c: inputs that once made the stitcher hang, exhaust memory, overflow
 * its stack, crash or misreport. Each input is generated here (nothing large is committed)
 * and stitched in a forked child limited to 2 GB of address space (not under
 * AddressSanitizer, which reserves far more); the child must end with a result or a
 * one-line error naming the problem, in under 20 s and 2 GB (generous bounds: the targets
 * are 2 s and 200 MB). The log shows each case's time and peak resident memory:
 *   pathological <case>: <ok|error>, <s> s, maxrss <MB> MB (<MB> before stitching), ... */
#define _DEFAULT_SOURCE /* wait4 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "stitcher.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define LIMIT_AS ((rlim_t)2 << 30) /* address space of the child */
#define MAX_SECONDS 20.0           /* 10x the 2 s target */
#define MAX_RSS_KB (2L << 20)      /* 2 GB, 10x the 200 MB target */

/* ---- building sources -------------------------------------------------------------- */

typedef struct {
  char *p;
  size_t len, cap;
} buf;

static void put(buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) abort();
  if (b->len + (size_t)n + 1 > b->cap) {
    b->cap = (b->len + (size_t)n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

static void repeat(buf *b, const char *s, int n) {
  for (int i = 0; i < n; i++) put(b, "%s", s);
}

/* ---- running one case -------------------------------------------------------------- */

typedef struct {
  int rc, stitched; /* ck_stitch's answer; 1 when the child got that far */
  double seconds;
  long rss_before_kb;
  size_t in_len, out_len;
  char msg[1024];
} report;

typedef char *(*generator)(void);

/* Stitches gen() in a child and returns what happened; fills *maxrss_kb. */
static report run_child(const char *name, generator gen, const char *const *coop, size_t n_coop,
                        long *maxrss_kb) {
  int fd[2];
  assert_int_equal(pipe(fd), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    if (!UNDER_ASAN) {
      struct rlimit rl = {LIMIT_AS, LIMIT_AS};
      setrlimit(RLIMIT_AS, &rl);
    }
    /* a crash or a hang ends the child (cmocka's handlers would carry on in it) */
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) signal(sigs[k], SIG_DFL);
    alarm(60);
    report r;
    memset(&r, 0, sizeof r);
    char *src = gen();
    r.in_len = strlen(src);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.rss_before_kb = ru.ru_maxrss;
    ck_stitch_input in = {src, "t.cl", coop, n_coop, 0};
    ck_stitch_result out;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    r.rc = ck_stitch(&in, &out, r.msg, sizeof r.msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r.stitched = 1;
    r.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (r.rc == 0) r.out_len = strlen(out.source);
    ck_stitch_result_free(&out);
    free(src);
    ssize_t w = write(fd[1], &r, sizeof r);
    _exit(w == (ssize_t)sizeof r ? 0 : 3);
  }
  close(fd[1]);
  report r;
  memset(&r, 0, sizeof r);
  size_t got = 0;
  while (got < sizeof r) {
    ssize_t n = read(fd[0], (char *)&r + got, sizeof r - got);
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fd[0]);
  int status = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  assert_int_equal(wait4(pid, &status, 0, &ru), pid);
  *maxrss_kb = ru.ru_maxrss;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != sizeof r)
    fail_msg("case %s: the child %s %d (stitched: %s)", name,
             WIFSIGNALED(status) ? "died of signal" : "exited with status",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
             got == sizeof r ? "yes" : "no report");
  printf("pathological %-22s %s, %.3f s, maxrss %.1f MB (%.1f MB before stitching), "
         "input %zu bytes, output %zu bytes%s%s\n",
         name, r.rc ? "error" : "ok", r.seconds, (double)*maxrss_kb / 1024.0,
         (double)r.rss_before_kb / 1024.0, r.in_len, r.out_len, r.rc ? ": " : "",
         r.rc ? r.msg : "");
  fflush(stdout);
  assert_true(r.stitched);
  if (r.seconds >= MAX_SECONDS) fail_msg("case %s took %.1f s", name, r.seconds);
  if (*maxrss_kb >= MAX_RSS_KB) fail_msg("case %s used %ld kB", name, *maxrss_kb);
  /* the output cap: 64 times the input plus 1 MiB */
  assert_true(r.out_len <= 64 * r.in_len + (1u << 20));
  return r;
}

/* Expects success. */
static void expect_ok(const char *name, generator gen, const char *const *coop, size_t n) {
  long rss;
  report r = run_child(name, gen, coop, n, &rss);
  if (r.rc != 0) fail_msg("case %s: the stitcher failed: %s", name, r.msg);
}

/* Expects a one-line error starting with head and containing each NULL-terminated
 * fragment. */
static void expect_error(const char *name, generator gen, const char *const *coop, size_t n,
                         const char *head, ...) {
  long rss;
  report r = run_child(name, gen, coop, n, &rss);
  if (r.rc == 0) fail_msg("case %s: the stitcher accepted it", name);
  if (strchr(r.msg, '\n')) fail_msg("case %s: the message has several lines: %s", name, r.msg);
  if (strncmp(r.msg, head, strlen(head)) != 0)
    fail_msg("case %s: message '%s' does not start with '%s'", name, r.msg, head);
  if (strstr(r.msg, "internal error") || strstr(r.msg, "out of memory"))
    fail_msg("case %s: message '%s' does not name the problem", name, r.msg);
  va_list ap;
  va_start(ap, head);
  const char *f;
  while ((f = va_arg(ap, const char *)) != NULL)
    if (!strstr(r.msg, f)) fail_msg("case %s: message '%s' lacks '%s'", name, r.msg, f);
  va_end(ap);
}

static const char *const K[] = {"k"};

/* ---- the call graph ---------------------------------------------------------------- */

/* A function calling itself twice (the walk was exponential without a memo). */
static char *gen_self_twice(void) {
  buf b = {0};
  put(&b, "int f(int x) { return x > 0 ? f(x - 1) + f(x - 2) : 0; }\n"
          "kernel void k(global int *o) { o[0] = f(3); }\n");
  return b.p;
}

/* 30 helpers, each calling the next twice. */
static char *gen_chain30_twice(void) {
  buf b = {0};
  put(&b, "int h29(int x) { return x + 1; }\n");
  for (int i = 28; i >= 0; i--)
    put(&b, "int h%d(int x) { return h%d(x) + h%d(x + 1); }\n", i, i + 1, i + 1);
  put(&b, "kernel void k(global int *o) { o[0] = h0(1) + h0(2); }\n");
  return b.p;
}

/* 20 000 helpers in a chain, the last one using global_barrier: the walk must see that far
 * (it used to stop at depth 64) without recursing that deep. */
#define CHAIN_LONG 20000
static char *gen_chain_long(void) {
  buf b = {0};
  put(&b, "void h%d(void) { global_barrier(); }\n", CHAIN_LONG - 1);
  for (int i = CHAIN_LONG - 2; i >= 0; i--) put(&b, "void h%d(void) { h%d(); }\n", i, i + 1);
  put(&b, "kernel void k(global int *o) { h0(); }\n");
  return b.p;
}

static void test_call_graph(void **state) {
  (void)state;
  expect_ok("self-calls-twice", gen_self_twice, NULL, 0);
  expect_ok("self-calls-twice-coop", gen_self_twice, K, 1);
  expect_ok("chain-30-twice", gen_chain30_twice, NULL, 0);
  expect_ok("chain-30-twice-coop", gen_chain30_twice, K, 1);
  expect_error("chain-20000", gen_chain_long, NULL, 0,
               "t.cl:20001: error: ", "kernel 'k' is not cooperative but calls 'h0'",
               "global_barrier", NULL);
  expect_ok("chain-20000-coop", gen_chain_long, K, 1);
}

/* ---- the lexer --------------------------------------------------------------------- */

/* 300 KB on one line (columns were found by scanning back: quadratic). */
static char *gen_long_line(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) { o[0] = 0");
  repeat(&b, " + o[1]", 43000);
  put(&b, "; }\n");
  return b.p;
}

/* A #line directive before every statement (each one copied the table of all earlier
 * ones: memory quadratic in their number). */
static char *gen_many_line_directives(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  for (int i = 0; i < 8000; i++)
    put(&b, "#line %d \"f%d.cl\"\n  o[%d] = %d;\n", 10 * i + 5, i % 7, i, i);
  put(&b, "  o[0] = 1\n}\n"); /* a missing ';': the error names the last #line's place */
  return b.p;
}

static char *gen_line_max(void) {
  buf b = {0};
  put(&b, "#line 2147483647\nkernel void k(global int *o) { o[0] = 1; }\n");
  return b.p;
}

static char *gen_line_huge(void) {
  buf b = {0};
  put(&b, "# 99999999999999999999999 \"x.cl\"\nkernel void k(global int *o) { o[0] = 1; }\n");
  return b.p;
}

/* The largest accepted #line; errors after it still have positive line numbers. */
static char *gen_line_limit(void) {
  buf b = {0};
  put(&b, "#line 1073741824\nkernel void k(global int *o) {\n\n  o[0] = 1\n}\n");
  return b.p;
}

static void test_lexer(void **state) {
  (void)state;
  expect_ok("long-line-300KB", gen_long_line, NULL, 0);
  expect_error("line-directives-8000", gen_many_line_directives, NULL, 0,
               "f5.cl:79996:3: error: ", "expected ';'", NULL);
  expect_error("line-2147483647", gen_line_max, NULL, 0, "t.cl:1: error: ", "#line", "2147483647",
               "too large", "1073741824", NULL);
  expect_error("line-overflow", gen_line_huge, NULL, 0, "t.cl:1: error: ", "#line", "too large",
               NULL);
  expect_error("line-1073741824", gen_line_limit, NULL, 0,
               "t.cl:1073741826:3: error: ", "expected ';'", NULL);
}

/* ---- nesting ----------------------------------------------------------------------- */

static char *gen_braces_30000(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  repeat(&b, "{\n", 30000);
  put(&b, "o[0] = 1;\n");
  repeat(&b, "}\n", 30000);
  put(&b, "}\n");
  return b.p;
}

static char *gen_braces_255(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  repeat(&b, "{\n", 255);
  put(&b, "o[0] = 1;\n");
  repeat(&b, "}\n", 255);
  put(&b, "}\n");
  return b.p;
}

static char *gen_ifs_30000(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  repeat(&b, "if (o[1])\n", 30000);
  put(&b, "o[0] = 1;\n}\n");
  return b.p;
}

static char *gen_else_ifs_30000(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n  if (o[0] == 0) o[1] = 0;\n");
  for (int i = 1; i < 30000; i++) put(&b, "  else if (o[0] == %d) o[1] = %d;\n", i, i);
  put(&b, "}\n");
  return b.p;
}

/* Brackets inside expressions need no recursion: no limit. */
static char *gen_parens_30000(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) { o[0] = ");
  repeat(&b, "(", 30000);
  put(&b, "1");
  repeat(&b, ")", 30000);
  put(&b, "; }\n");
  return b.p;
}

/* Braces of an initializer at file scope: skipped as a bracket range, no recursion. */
static char *gen_initializer_braces(void) {
  buf b = {0};
  put(&b, "constant int a[1] = ");
  repeat(&b, "{", 30000);
  put(&b, "1");
  repeat(&b, "}", 30000);
  put(&b, ";\nkernel void k(global int *o) { o[0] = a[0]; }\n");
  return b.p;
}

static void test_nesting(void **state) {
  (void)state;
  expect_error("braces-30000", gen_braces_30000, NULL, 0, "t.cl:258: error: ", "nested more",
               "256 levels", "'k'", "helper function", NULL);
  expect_ok("braces-255", gen_braces_255, NULL, 0);
  expect_error("ifs-30000", gen_ifs_30000, NULL, 0, "t.cl:258: error: ", "256 levels", NULL);
  expect_error("else-ifs-30000", gen_else_ifs_30000, NULL, 0, "t.cl:257: error: ", "256 levels",
               NULL);
  expect_ok("parens-30000", gen_parens_30000, NULL, 0);
  expect_ok("initializer-braces-30000", gen_initializer_braces, NULL, 0);
}

/* ---- output growth around fork points ---------------------------------------------- */

/* 120 nested loops around a fork point, 800 bytes of statements at each level: ~100 KB.
 * The counters are transmit (a forked group needs them: stitcher-rules checks that).
 * Each level's resume code copies the loop of that level: the output grows with the
 * square of the depth, up to the cap. */
static char *gen_loop_depth(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  for (int d = 0; d < 120; d++) {
    put(&b, "for (transmit int i%d = 0; i%d < 2; i%d++) {\n", d, d, d);
    for (int s = 0; s < 50; s++) put(&b, " o[%d] += i%d;\n", s, d);
  }
  put(&b, "resizing_global_barrier();\n");
  repeat(&b, "}\n", 120);
  put(&b, "}\n");
  return b.p;
}

/* 3 000 fork points in one loop: each resume block copies the rest of the loop body. */
static char *gen_many_forks(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n  while (o[0]) {\n");
  repeat(&b, "    resizing_global_barrier();\n    o[1]++;\n", 3000);
  put(&b, "  }\n}\n");
  return b.p;
}

static void test_output_growth(void **state) {
  (void)state;
  long rss;
  report r = run_child("loop-depth-120", gen_loop_depth, K, 1, &rss);
  if (r.rc != 0) { /* within the cap or refused by it */
    assert_non_null(strstr(r.msg, "the stitched source would exceed"));
    assert_null(strchr(r.msg, '\n'));
  }
  expect_error("forks-3000-in-a-loop", gen_many_forks, K, 1, "t.cl:2: error: ", "would exceed",
               "64 times the input", NULL);
}

/* ---- one name declared in many blocks ---------------------------------------------- */

static char *gen_same_local(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  repeat(&b, "  { local int x; x = 1; o[0] += x; }\n", 3000);
  put(&b, "}\n");
  return b.p;
}

static char *gen_same_constant(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  repeat(&b, "  { constant int c = 2; o[0] += c; }\n", 3000);
  put(&b, "}\n");
  return b.p;
}

static void test_repeated_names(void **state) {
  (void)state;
  expect_ok("local-x-3000-blocks", gen_same_local, K, 1);
  expect_ok("constant-c-3000-blocks", gen_same_constant, NULL, 0);
}

/* 5 000 local variables named in 5 000 #define bodies (each word of a macro was compared
 * with every local). */
static char *gen_defines_and_locals(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  for (int i = 0; i < 5000; i++) put(&b, "  local int l%d;\n", i);
  put(&b, "  o[0] = 1;\n}\n");
  for (int i = 0; i < 5000; i++) put(&b, "#define D%d (a + b + c + d + e + f + l%d)\n", i, i);
  return b.p;
}

/* 10 000 kernel prototypes next to 10 000 declarations (each declaration was compared with
 * every function to find the prototypes). */
static char *gen_kernel_prototypes(void) {
  buf b = {0};
  for (int i = 0; i < 10000; i++) put(&b, "kernel void p%d(global int *o);\nint g%d;\n", i, i);
  for (int i = 0; i < 10000; i++) put(&b, "kernel void p%d(global int *o) { o[0] = g%d; }\n", i, i);
  return b.p;
}

#define MANY_KERNELS 20000
static char *gen_many_kernels(void) {
  buf b = {0};
  for (int i = 0; i < MANY_KERNELS; i++)
    put(&b, "kernel void q%d(global int *o) { o[0] = %d; }\n", i, i);
  return b.p;
}

/* 5 000 transmit variables and 5 000 fork points: every fork point copies every variable. */
static char *gen_transmit_forks(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n");
  for (int i = 0; i < 5000; i++) put(&b, "  transmit int t%d = %d;\n", i, i);
  repeat(&b, "  request_fork();\n", 5000);
  put(&b, "  o[0] = t0;\n}\n");
  return b.p;
}

static void test_many_names(void **state) {
  (void)state;
  expect_ok("defines-x-locals-5000", gen_defines_and_locals, K, 1);
  expect_ok("kernel-prototypes-10000", gen_kernel_prototypes, NULL, 0);
  static char names[MANY_KERNELS][16];
  static const char *coop[MANY_KERNELS];
  for (int i = 0; i < MANY_KERNELS; i++) {
    snprintf(names[i], sizeof names[i], "q%d", i);
    coop[i] = names[i];
  }
  expect_ok("cooperative-20000", gen_many_kernels, coop, MANY_KERNELS);
  expect_error("transmit-x-forks-5000", gen_transmit_forks, K, 1, "t.cl:", "would exceed",
               "transmit variable", NULL);
}

/* ---- arguments and names ----------------------------------------------------------- */

static char *gen_small_kernel(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) { o[0] = 1; }\n");
  return b.p;
}

static char *gen_long_name(void) {
  buf b = {0};
  char name[5001];
  memset(name, 'n', 5000);
  name[5000] = 0;
  put(&b,
      "kernel void %s(global int *o) {\n  transmit int t = 1;\n  resizing_global_barrier();\n"
      "  request_fork();\n  o[0] = t;\n}\n",
      name);
  return b.p;
}

static void test_arguments_and_names(void **state) {
  (void)state;
  static const char *const null_first[] = {NULL};
  static const char *const null_second[] = {"k", NULL};
  expect_error("cooperative-NULL", gen_small_kernel, null_first, 1,
               "t.cl:0: error: ", "cooperative[0] is NULL", NULL);
  expect_error("cooperative-k-NULL", gen_small_kernel, null_second, 2,
               "t.cl:0: error: ", "cooperative[1] is NULL", NULL);
  static char name[5001];
  memset(name, 'n', 5000);
  static const char *const long_coop[] = {name};
  expect_ok("kernel-name-5000", gen_long_name, long_coop, 1);
}

static char *gen_half(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n  int half = 2;\n  o[0] = half;\n}\n");
  return b.p;
}

static char *gen_uint(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n  int a = 1,\n  uint;\n  o[0] = a;\n}\n");
  return b.p;
}

static char *gen_float4_decl(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n  float float4;\n}\n");
  return b.p;
}

static char *gen_global_var(void) {
  buf b = {0};
  put(&b, "constant int x = 1;\nconstant int global = 2;\n");
  return b.p;
}

static char *gen_half_param(void) {
  buf b = {0};
  put(&b, "int f(unsigned int, int const, float4);\n"
          "kernel void k(global int *o,\n               int half) { o[0] = 1; }\n");
  return b.p;
}

static char *gen_unnamed_params(void) {
  buf b = {0};
  put(&b, "int f(unsigned int, int const, float4);\n"
          "kernel void k(global int *o) { o[0] = 1; }\n");
  return b.p;
}

static void test_type_names_as_variables(void **state) {
  (void)state;
  expect_error("variable-half", gen_half, NULL, 0, "t.cl:2: error: ", "'half'",
               "OpenCL C type name", "cannot be a variable name", NULL);
  expect_error("variable-uint", gen_uint, NULL, 0, "t.cl:3: error: ", "'uint'",
               "OpenCL C type name", NULL);
  expect_error("variable-float4", gen_float4_decl, NULL, 0, "t.cl:2: error: ", "'float4'",
               "OpenCL C type name", NULL);
  expect_error("variable-global", gen_global_var, NULL, 0, "t.cl:2: error: ", "'global'", "keyword",
               NULL);
  expect_error("parameter-half", gen_half_param, NULL, 0, "t.cl:3: error: ", "'half'",
               "OpenCL C type name", "cannot be a parameter name", NULL);
  expect_ok("unnamed-parameters", gen_unnamed_params, NULL, 0);
}

static char *gen_do_no_while(void) {
  buf b = {0};
  put(&b, "kernel void k(global int *o) {\n  do\n    o[0]++;\n}\n");
  return b.p;
}

static char *gen_do_no_while_nested(void) {
  buf b = {0};
  put(&b,
      "kernel void k(global int *o) {\n  if (o[1]) {\n    do { o[0]++; }\n  }\n  o[2] = 0;\n}\n");
  return b.p;
}

static void test_do_without_while(void **state) {
  (void)state;
  expect_error("do-without-while", gen_do_no_while, NULL, 0,
               "t.cl:4: error: ", "'do' without 'while'", "line 2", NULL);
  expect_error("do-without-while-nested", gen_do_no_while_nested, NULL, 0,
               "t.cl:4: error: ", "'do' without 'while'", "line 3", NULL);
}

int main(void) {
  if (UNDER_ASAN) printf("pathological: AddressSanitizer build: no address-space limit\n");
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_call_graph),
    cmocka_unit_test(test_lexer),
    cmocka_unit_test(test_nesting),
    cmocka_unit_test(test_output_growth),
    cmocka_unit_test(test_repeated_names),
    cmocka_unit_test(test_many_names),
    cmocka_unit_test(test_arguments_and_names),
    cmocka_unit_test(test_type_names_as_variables),
    cmocka_unit_test(test_do_without_while),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
