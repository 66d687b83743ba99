/* stitcher.c: the public entry points. Runs the passes in order (lex, parse, analyze,
 * lint, rules, kernel metadata, emit), copies the results out of the arena into the caller's
 * ck_stitch_result, and frees them. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

static int fill_result(program *pg, char *source, ck_stitch_result *out) {
  out->source = source;
  out->n_kernels = pg->kernels.n;
  if (!pg->kernels.n) return 0;
  out->kernels = calloc(pg->kernels.n, sizeof(ck_stitch_kernel));
  if (!out->kernels) return -1;
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    ck_stitch_kernel *K = &out->kernels[k];
    K->name = dup_str(fn->name);
    if (!K->name) return -1;
    K->line = st_user_line(pg->dg, fn->line, NULL);
    K->cooperative = fn->cooperative;
    K->arg_words = fn->arg_words;
    K->n_fork_points = (unsigned)fn->forks.n;
    K->reqd_wg_size = fn->reqd_wg;
    K->n_params = fn->n_params;
    if (!fn->n_params) continue;
    K->params = calloc(fn->n_params, sizeof(ck_stitch_param));
    if (!K->params) return -1;
    for (size_t i = 0; i < fn->n_params; i++) {
      param *p = &fn->params[i];
      ck_stitch_param *P = &K->params[i];
      P->name = dup_str(pg->tl.t[p->name].s);
      P->type = dup_str(p->type);
      if (!P->name || !P->type) return -1;
      P->kind = p->kind;
      P->size = p->size;
      P->word_offset = p->word_offset;
    }
  }
  return 0;
}

/* Removes the ck_i<N>_ prefixes of inlined helpers' variables from a message. */
static void strip_inline_names(char *s) {
  char *w = s;
  for (const char *r = s; *r;) {
    int boundary = r == s || !(r[-1] == '_' || (r[-1] >= 'a' && r[-1] <= 'z') ||
                               (r[-1] >= 'A' && r[-1] <= 'Z') || (r[-1] >= '0' && r[-1] <= '9'));
    if (boundary && st_inline_name(r)) {
      r += 4;
      while (*r != '_') r++;
      r++;
      continue;
    }
    *w++ = *r++;
  }
  *w = 0;
}

/* The inlined program's #line directives (inline.c writes them wherever the user's
 * lines jump, also inside statements) leave the token list: the lexer has recorded them,
 * and a directive token inside an expression would split it for the passes that look at
 * neighbouring tokens. Bracket matches are renumbered. */
static int drop_line_tokens(program *pg) {
  token *t = pg->tl.t;
  size_t n = pg->tl.n, w = 0;
  int *to = malloc(n * sizeof *to);
  if (!to) return -1;
  for (size_t i = 0; i < n; i++) {
    to[i] = (int)w;
    if (!(t[i].kind == TK_PP && t[i].repl && !*t[i].repl)) w++;
  }
  for (size_t i = 0; i < n; i++) {
    if (t[i].kind == TK_PP && t[i].repl && !*t[i].repl) continue;
    token k = t[i];
    if (k.match >= 0) k.match = to[k.match];
    t[to[i]] = k;
  }
  pg->tl.n = w;
  free(to);
  return 0;
}

/* The caller's deadline hook: nonzero (and the error recorded) when it says stop. */
static int stopped(program *pg) {
  if (!pg->stop || !pg->stop(pg->stop_arg)) return 0;
  st_error(pg->dg, 0, "stitching stopped: %s", pg->stop_reason ? pg->stop_reason : "cancelled");
  return 1;
}

/* The passes. *inlined: set (first pass only) when the program has helpers with fork
 * points: it is then the inlined program, to be stitched again from the start. */
static int run(program *pg, const char *src, char **source, char **inlined) {
  if (stopped(pg) || st_lex(pg->ar, pg->dg, src, &pg->tl)) return -1;
  if (pg->inlined && drop_line_tokens(pg)) return st_error(pg->dg, 0, "out of memory");
  if (stopped(pg) || st_parse_program(pg)) return -1;
  if (inlined) {
    if (stopped(pg) || st_inline(pg, inlined)) return -1;
    if (*inlined) return 0;
  }
  if (stopped(pg) || st_analyze(pg) || stopped(pg) || st_lint(pg)) return -1;
  if (stopped(pg) || st_rules(pg)) return -1;
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    fn->index = (int)k;
    if (stopped(pg) || st_kernel_attributes(pg, fn) || st_kernel_params(pg, fn)) return -1;
  }
  if (stopped(pg)) return -1;
  return st_emit_program(pg, source);
}

int ck_stitch(const ck_stitch_input *in, ck_stitch_result *out, char *err, size_t err_len) {
  return ck_stitch_until(in, out, err, err_len, NULL, NULL, NULL);
}

int ck_stitch_until(const ck_stitch_input *in, ck_stitch_result *out, char *err, size_t err_len,
                    int (*stop)(void *stop_arg), void *stop_arg, const char *reason) {
  if (err && err_len) err[0] = 0;
  if (out) memset(out, 0, sizeof *out);
  const char *file = in && in->file_name ? in->file_name : "<input>";
  st_diag dg = {.err = err, .err_len = err_len, .file = file};
  if (!in || !out || !in->source) return st_error(&dg, 0, "ck_stitch: NULL argument");
  if (in->n_cooperative && !in->cooperative)
    return st_error(&dg, 0, "ck_stitch: n_cooperative is %zu but cooperative is NULL",
                    in->n_cooperative);
  for (size_t k = 0; k < in->n_cooperative; k++)
    if (!in->cooperative[k])
      return st_error(&dg, 0, "ck_stitch: cooperative[%zu] is NULL (%zu names given): pass "
                      "the name of a kernel there", k, in->n_cooperative);
  size_t len = strlen(in->source);
  if (len >= ST_MAX_SOURCE)
    return st_error(&dg, 0, "ck_stitch: the source is %zu bytes; the stitcher accepts sources "
                    "under %zu bytes", len, ST_MAX_SOURCE);
  st_arena ar = {0};
  program pg;
  memset(&pg, 0, sizeof pg);
  pg.ar = &ar;
  pg.dg = &dg;
  pg.file = file;
  pg.coop = in->cooperative;
  pg.n_coop = in->n_cooperative;
  pg.stop = stop;
  pg.stop_arg = stop_arg;
  pg.stop_reason = reason;
  pg.src_len = len;
  char *source = NULL, *inlined = NULL;
  int r = run(&pg, in->source, &source, &inlined);
  st_arena ar2 = {0};
  program pg2;
  program *fin = &pg;
  if (r == 0 && inlined) {
    /* helpers with fork points were inlined: stitch the new text, whose #line directives
     * name the user's files and lines; the output cap stays that of the user's input */
    memset(&pg2, 0, sizeof pg2);
    pg2 = (program){.ar = &ar2, .dg = &dg, .file = file, .coop = in->cooperative,
                    .n_coop = in->n_cooperative, .stop = stop, .stop_arg = stop_arg,
                    .stop_reason = reason, .src_len = len, .inlined = 1};
    dg.n_marks = 0;
    fin = &pg2;
    r = run(&pg2, inlined, &source, NULL);
    if (r && !dg.failed && ar2.failed) st_error(&dg, 0, "out of memory");
    sb_free(&(st_buf){.p = inlined});
  }
  if (r == 0 && dg.warnings.failed) {
    free(source);
    r = st_error(&dg, 0, "out of memory");
  } else if (r == 0 && (fill_result(fin, source, out) ||
                        (dg.warnings.len && !(out->warnings = dup_str(dg.warnings.p))))) {
    ck_stitch_result_free(out);
    r = st_error(&dg, 0, "out of memory");
  } else if (r != 0) {
    free(source);
    if (!dg.failed) st_error(&dg, 0, ar.failed ? "out of memory" : "internal error");
  }
  if (fin == &pg2) { /* messages name the user's variables, not their inlined copies */
    if (err && err_len) strip_inline_names(err);
    if (out->warnings) strip_inline_names(out->warnings);
  }
  sb_free(&dg.warnings);
  st_arena_free(&ar2);
  st_arena_free(&ar);
  return r ? -1 : 0;
}

void ck_stitch_result_free(ck_stitch_result *r) {
  if (!r) return;
  free(r->source);
  for (size_t k = 0; k < r->n_kernels && r->kernels; k++) {
    ck_stitch_kernel *K = &r->kernels[k];
    free(K->name);
    for (size_t i = 0; i < K->n_params && K->params; i++) {
      free(K->params[i].name);
      free(K->params[i].type);
    }
    free(K->params);
  }
  free(r->kernels);
  free(r->warnings);
  memset(r, 0, sizeof *r);
}

int ck_stitch_find_kernel(const ck_stitch_result *r, const char *name) {
  if (!r || !name) return -1;
  for (size_t k = 0; k < r->n_kernels; k++)
    if (r->kernels[k].name && strcmp(r->kernels[k].name, name) == 0) return (int)k;
  return -1;
}
