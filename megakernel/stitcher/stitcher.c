/* stitcher.c: the public entry points. Runs the passes in order (lex, parse, analyze,
 * lint, rules, kernel metadata, emit), copies the results out of the arena into the caller's
 * ck_stitch_result, and frees them. */
#include <stdio.h>
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
  char *at = NULL;
  const char *name = NULL;
  if (st_find_cl20_atomics(pg, &at, &name)) return -1;
  if (at && (!(out->cl20_atomic_at = dup_str(at)) || !(out->cl20_atomic = dup_str(name))))
    return -1;
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
    char user[256];
    size_t used = boundary ? st_inline_user_name(r, user, sizeof user) : 0;
    if (used) {
      size_t ul = strlen(user);
      memmove(w, user, ul); /* never longer than what it replaces: w stays behind r */
      w += ul;
      r += used;
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
 * points: it is then the inlined program, to be stitched again from the start. Returns 1
 * when the rule check inferred transmit declarations (pg->inferred): the pass is to run
 * again with them (pg->force_tx). */
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
  if (pg->inferred.n) return 1; /* run again with the inferred declarations transmit */
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    fn->index = (int)k;
    if (stopped(pg) || st_kernel_attributes(pg, fn) || st_kernel_params(pg, fn)) return -1;
  }
  if (stopped(pg)) return -1;
  return st_emit_program(pg, source);
}

/* What transmit inference did over the passes: the runs that inferred, their notes, and
 * for the annotated source the inferred declarations of the final pass. */
typedef struct {
  st_arena ar;      /* final_inferred's storage */
  st_arena kept[3]; /* the arenas of the runs that inferred (final_inferred points in) */
  int n_kept;
  st_buf notes;  /* one note line per inferred variable */
  size_t *force; /* offsets in the final pass's source, ascending */
  size_t n_force;
  size_t n_inferred;
  st_vec final_inferred; /* inferred_tx* of the final pass, in pass order */
  char *annotated;       /* the user's source with the inferred qualifiers (malloc) */
} infer_run;

static void infer_run_free(infer_run *ir) {
  sb_free(&ir->notes);
  free(ir->force);
  free(ir->annotated);
  st_arena_free(&ir->ar);
  for (int k = 0; k < ir->n_kept; k++) st_arena_free(&ir->kept[k]);
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* Inferred variables in source order of their declared names (files by name). */
static int cmp_inferred(const void *a, const void *b) {
  const inferred_tx *x = *(inferred_tx *const *)a, *y = *(inferred_tx *const *)b;
  int f = strcmp(x->file, y->file);
  if (f) return f;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return x->col < y->col ? -1 : x->col > y->col;
}

/* Runs a pass; when its rule check infers transmit declarations, runs it again (on a fresh
 * program over the same source, so the same offsets) with them, until none is new (at most
 * a few times: a second run finds none, since inferred variables are transmit then). */
static int run_inferring(program *pg, const char *src, char **source, char **inlined,
                         infer_run *ir) {
  program first = *pg;
  int r = run(pg, src, source, inlined);
  for (int again = 0; r == 1; again++) {
    if (again == 3)
      return st_error(pg->dg, 0,
                      "internal error: transmit inference does not "
                      "settle");
    size_t n = ir->n_force + pg->inferred.n;
    size_t *f = realloc(ir->force, n * sizeof *f);
    if (!f) return st_error(pg->dg, 0, "out of memory");
    ir->force = f;
    for (size_t k = 0; k < pg->inferred.n; k++) {
      inferred_tx *x = pg->inferred.v[k];
      x->line = st_user_line(pg->dg, pg->tl.t[x->decl_tok].line, &x->file);
      x->col = pg->tl.t[x->decl_tok].col;
    }
    qsort(pg->inferred.v, pg->inferred.n, sizeof *pg->inferred.v, cmp_inferred);
    for (size_t k = 0; k < pg->inferred.n; k++) {
      inferred_tx *x = pg->inferred.v[k];
      f[ir->n_force++] = x->off;
      st_note_line(pg->dg, &ir->notes, &pg->tl.t[x->decl_tok], x->note);
      ir->n_inferred++;
    }
    qsort(f, ir->n_force, sizeof *f, cmp_size);
    /* the inferring run's arena stays alive (final_inferred points into it) */
    ir->kept[ir->n_kept++] = *pg->ar;
    for (size_t k = 0; k < pg->inferred.n; k++)
      if (st_vec_push(&ir->ar, &ir->final_inferred, pg->inferred.v[k]))
        return st_error(pg->dg, 0, "out of memory");
    *pg->ar = (st_arena){0};
    st_diag *dg = pg->dg;
    dg->warnings.len = 0;
    if (dg->warnings.p) dg->warnings.p[0] = 0;
    dg->n_marks = 0;
    *pg = first;
    pg->force_tx = ir->force;
    pg->n_force_tx = ir->n_force;
    r = run(pg, src, source, inlined);
  }
  return r;
}

/* Offset in raw text src of offset off of its spliced form (backslash-newlines removed). */
static size_t raw_offset(const char *src, size_t off) {
  size_t i = 0, s = 0;
  while (src[i]) {
    if (src[i] == '\\' && src[i + 1] == '\n') {
      i += 2;
      continue;
    }
    if (src[i] == '\\' && src[i + 1] == '\r' && src[i + 2] == '\n') {
      i += 3;
      continue;
    }
    if (s == off) return i;
    i++, s++;
  }
  return i;
}

/* The declarations in pass 1's statement s (or below) of a variable called name on
 * presumed line line of file: counts them in *n and leaves the offset of the first one's
 * first token in *at. */
static void find_decl(program *pg, const st_diag *d1, stmt *s, const char *name, int line,
                      const char *file, size_t *at, size_t *n) {
  if (!s) return;
  for (size_t k = 0; s->kind == ST_DECL && k < s->decl->n; k++) {
    const token *t = &pg->tl.t[s->decl->d[k].name];
    const char *f = NULL;
    if (!strcmp(t->s, name) && st_user_line(d1, t->line, &f) == line && !strcmp(f, file)) {
      if (!(*n)++) *at = pg->tl.t[s->decl->t0].off;
    }
  }
  find_decl(pg, d1, s->init, name, line, file, at, n);
  find_decl(pg, d1, s->body, name, line, file, at, n);
  find_decl(pg, d1, s->els, name, line, file, at, n);
  for (size_t k = 0; k < s->n_items; k++) find_decl(pg, d1, s->items[k], name, line, file, at, n);
}

/* ir->annotated: the user's source with "transmit " in front of every inferred
 * declaration; left NULL, with a note, when one of them cannot be found there. The
 * final pass is pass 1 (pg2 NULL: its offsets are the user's) or the inlined program
 * pg2, whose declarations are found again in pass 1 by the variable's own name
 * (without the ck_i<N>_ prefix) and its presumed line. */
static int annotate(program *pg1, program *pg2, const char *src, infer_run *ir,
                    const st_line_mark *marks1, size_t n_marks1, st_diag *dg) {
  size_t n = ir->final_inferred.n, m = 0, unplaced = 0;
  size_t *at = malloc((n ? n : 1) * sizeof *at);
  if (!at) return -1;
  st_diag d1 = *dg;
  d1.marks = (st_line_mark *)marks1;
  d1.n_marks = marks1 ? n_marks1 : 0;
  for (size_t k = 0; k < n; k++) {
    inferred_tx *x = ir->final_inferred.v[k];
    if (!pg2) {
      at[m++] = raw_offset(src, x->off);
      continue;
    }
    const char *name = x->name, *file = NULL;
    char user[256];
    if (st_inline_user_name(name, user, sizeof user)) name = user;
    int line = st_user_line(dg, pg2->tl.t[x->decl_tok].line, &file);
    size_t o = 0, found = 0;
    for (size_t f = 0; f < pg1->funcs.n; f++)
      find_decl(pg1, &d1, ((func *)pg1->funcs.v[f])->body, name, line, file, &o, &found);
    if (found == 1) {
      at[m++] = raw_offset(src, o);
      continue;
    }
    /* A declaration the inlined program has but the user's source does not show
     * where its line says (a macro that expands to one, a line the parse read
     * otherwise), or shows more than once on that line (the inlined program keeps
     * lines, not columns, so which one is meant is not known): no source with
     * "transmit " written in would surely stitch, so none is given, and the note says
     * why. */
    char msg[512];
    snprintf(msg, sizeof msg,
             "the declaration of '%s' cannot be written into the source with 'transmit' (%s "
             "line %d of the user's text), so no annotated source is given; declare it "
             "transmit by hand",
             name, found ? "it is declared more than once on" : "it is not found on", line);
    st_note_line(pg2->dg, &ir->notes, &pg2->tl.t[x->decl_tok], msg);
    unplaced++;
  }
  if (unplaced) {
    free(at);
    return 0;
  }
  qsort(at, m, sizeof *at, cmp_size);
  st_buf b = {0};
  size_t from = 0;
  for (size_t k = 0; k < m; k++) {
    if (k && at[k] == at[k - 1]) continue; /* two variables of one declaration */
    sb_put(&b, src + from, at[k] - from);
    sb_puts(&b, "transmit ");
    from = at[k];
  }
  sb_puts(&b, src + from);
  free(at);
  if (b.failed) {
    sb_free(&b);
    return -1;
  }
  ir->annotated = b.p;
  return 0;
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
      return st_error(&dg, 0,
                      "ck_stitch: cooperative[%zu] is NULL (%zu names given): pass "
                      "the name of a kernel there",
                      k, in->n_cooperative);
  size_t len = strlen(in->source);
  if (len >= ST_MAX_SOURCE)
    return st_error(&dg, 0,
                    "ck_stitch: the source is %zu bytes; the stitcher accepts sources "
                    "under %zu bytes",
                    len, ST_MAX_SOURCE);
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
  pg.infer = in->infer_transmit;
  char *source = NULL, *inlined = NULL;
  infer_run ir = {0};
  int r = run_inferring(&pg, in->source, &source, &inlined, &ir);
  st_arena ar2 = {0};
  program pg2;
  program *fin = &pg;
  st_line_mark *marks1 = NULL; /* the user's #line marks, for the annotated source */
  size_t n_marks1 = dg.n_marks;
  if (r == 0 && inlined) {
    /* helpers with fork points were inlined: stitch the new text, whose #line directives
     * name the user's files and lines; the output cap stays that of the user's input */
    if (n_marks1 && in->infer_transmit) {
      marks1 = malloc(n_marks1 * sizeof *marks1);
      if (marks1) memcpy(marks1, dg.marks, n_marks1 * sizeof *marks1);
      else r = st_error(&dg, 0, "out of memory");
    }
    memset(&pg2, 0, sizeof pg2);
    pg2 = (program){.ar = &ar2,
                    .dg = &dg,
                    .file = file,
                    .coop = in->cooperative,
                    .n_coop = in->n_cooperative,
                    .stop = stop,
                    .stop_arg = stop_arg,
                    .stop_reason = reason,
                    .src_len = len,
                    .inlined = 1,
                    .infer = in->infer_transmit};
    dg.n_marks = 0;
    fin = &pg2;
    if (r == 0) r = run_inferring(&pg2, inlined, &source, NULL, &ir);
    if (r && !dg.failed && ar2.failed) st_error(&dg, 0, "out of memory");
  }
  if (r == 0 && ir.n_inferred &&
      annotate(&pg, fin == &pg2 ? &pg2 : NULL, in->source, &ir, marks1, n_marks1, &dg))
    r = st_error(&dg, 0, "out of memory");
  if (r == 0 && ir.notes.len) sb_put(&dg.warnings, ir.notes.p, ir.notes.len);
  if (r == 0 && (dg.warnings.failed || ir.notes.failed)) {
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
  if (r == 0) {
    out->annotated = ir.annotated;
    out->n_inferred = ir.n_inferred;
    ir.annotated = NULL;
  }
  if (fin == &pg2) { /* messages name the user's variables, not their inlined copies */
    if (err && err_len) strip_inline_names(err);
    if (out->warnings) strip_inline_names(out->warnings);
  }
  sb_free(&(st_buf){.p = inlined});
  infer_run_free(&ir);
  free(marks1);
  st_listed_free(&dg);
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
  free(r->annotated);
  free(r->cl20_atomic);
  free(r->cl20_atomic_at);
  memset(r, 0, sizeof *r);
}

int ck_stitch_find_kernel(const ck_stitch_result *r, const char *name) {
  if (!r || !name) return -1;
  for (size_t k = 0; k < r->n_kernels; k++)
    if (r->kernels[k].name && strcmp(r->kernels[k].name, name) == 0) return (int)k;
  return -1;
}
