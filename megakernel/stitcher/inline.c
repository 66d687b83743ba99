/* inline.c: helper functions with fork points. Owns the source-level inlining that runs
 * between parsing and analysis: a helper that calls offer_kill, request_fork or
 * resizing_global_barrier, or calls (transitively) a helper that does, is inlined into
 * every caller, bottom up, and its definition and prototypes are dropped. The result is a
 * new program text (with #line directives that keep the user's files and lines) that the
 * stitcher then stitches from the start, so the existing resume machinery (goto, peeling)
 * resumes inside the inlined copy and continues in its callers. Programs without such
 * helpers are left untouched: their output is the same as without this pass.
 *
 * The inlined copy of a call of h (instance N, counted over the program) is
 *     [R ck_iN_ret;] { transmit P ck_iN_p = (arg); ...  body  [ck_iN_end: ;] } [x = ck_iN_ret;]
 * where h's parameters and body variables are renamed ck_iN_<name>, a parameter that
 * points to private or local memory is replaced by its argument (an array name or
 * '&variable'), `return e;` becomes `{ ck_iN_ret = (e); goto ck_iN_end; }` (the last
 * statement of the body needs no goto), and the call is a statement `h(...);`,
 * `x = h(...);` or `T x = h(...);`; a call anywhere else that an expression may stand is
 * lowered to such a copy before its statement (inline_lower.c). transform_body.c renames
 * the ck_iN_end labels in the copies peeling makes; rules.c follows the gotos. */
#include <stdio.h>
#include <string.h>

#include "inline_internal.h"

static const char *prim_name(prim_kind k) {
  switch (k) {
  case PRIM_OFFER_KILL:
    return "offer_kill";
  case PRIM_REQUEST_FORK:
    return "request_fork";
  case PRIM_RESIZING_BARRIER:
    return "resizing_global_barrier";
  default:
    return "global_barrier";
  }
}

static int is_p(const token *t, const char *s) { return t->kind == TK_PUNCT && !strcmp(t->s, s); }
static int is_id(const token *t, const char *s) { return t->kind == TK_IDENT && !strcmp(t->s, s); }

static func *definition(program *pg, func *c) {
  symbol *s = st_lookup(pg, pg->fscope, c->name);
  return s && s->kind == SYM_FUNC && s->fn ? s->fn : c;
}

func *st_inl_callee(inl *x, int i) {
  token *k = &x->t[i];
  if (k->kind != TK_IDENT || !k->sym || k->sym->kind != SYM_FUNC || !is_p(&x->t[i + 1], "("))
    return NULL;
  if (i > 0 && (is_p(&x->t[i - 1], ".") || is_p(&x->t[i - 1], "->"))) return NULL;
  func *d = definition(x->pg, k->sym->fn);
  return d->inl ? d : NULL;
}

const char *st_inl_why(inl *x, func *fn) {
  return st_fmt(x->pg->ar, "%s() on line %d", prim_name(fn->inl_prim->prim),
                st_user_line(x->pg->dg, fn->inl_prim->line, NULL));
}

/* Marks inl on every helper that has a fork point or offer_kill, or calls one that has:
 * a walk along reversed call edges, each function and call once. */
static int mark(inl *x) {
  program *pg = x->pg;
  st_vec work = {0};
  int any = 0;
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    if (fn->lb < 0) continue;
    for (size_t m = 0; m < fn->calls.n; m++) {
      func *c = definition(pg, fn->calls.v[m]);
      if (st_vec_push(pg->ar, &c->icallers, fn)) return -1;
    }
    if (fn->is_kernel) continue;
    for (size_t m = 0; m < fn->prims.n && !fn->inl; m++) {
      stmt *st = fn->prims.v[m];
      if (st->prim == PRIM_GLOBAL_BARRIER) continue;
      fn->inl = 1;
      fn->inl_prim = st;
      if (st_vec_push(pg->ar, &work, fn)) return -1;
    }
  }
  while (work.n) {
    func *fn = work.v[--work.n];
    any = 1;
    for (size_t m = 0; m < fn->icallers.n; m++) {
      func *c = fn->icallers.v[m];
      if (c->is_kernel || c->inl) continue;
      c->inl = 1;
      c->inl_prim = fn->inl_prim;
      if (st_vec_push(pg->ar, &work, c)) return -1;
    }
  }
  return any;
}

/* ---- call sites ----------------------------------------------------------------------- */

int st_inl_site_call(inl *x, stmt *s) {
  token *t = x->t;
  if (s->kind == ST_EXPR && s->e1 > s->e0) {
    if (st_inl_callee(x, s->e0) && t[s->e0 + 1].match == s->e1 - 1) return s->e0;
    for (int i = s->e0; i < s->e1; i++) {
      if (is_p(&t[i], "(") || is_p(&t[i], "[") || is_p(&t[i], "{")) {
        i = t[i].match;
        continue;
      }
      if (!is_p(&t[i], "=")) continue;
      if (i > s->e0 && i + 2 < s->e1 && st_inl_callee(x, i + 1) && t[i + 2].match == s->e1 - 1)
        return i + 1;
      break;
    }
  }
  if (s->kind == ST_DECL && s->decl->n == 1 && !s->decl->is_typedef) {
    declarator *d = &s->decl->d[0];
    if (d->init0 >= 0 && d->init1 > d->init0 + 1 && st_inl_callee(x, d->init0) &&
        t[d->init0 + 1].match == d->init1 - 1)
      return d->init0;
  }
  return -1;
}

typedef int (*visit_fn)(inl *x, func *fn, stmt *s);

static int walk(inl *x, func *fn, stmt *s, visit_fn f) {
  if (!s) return 0;
  if (f(x, fn, s)) return -1;
  if (walk(x, fn, s->init, f) || walk(x, fn, s->body, f) || walk(x, fn, s->els, f)) return -1;
  for (size_t k = 0; k < s->n_items; k++)
    if (walk(x, fn, s->items[k], f)) return -1;
  return 0;
}

static int note_site(inl *x, func *fn, stmt *s) {
  if (fn->inl && s->kind == ST_RETURN) x->site[s->t0] = s;
  if (fn->inl && s->kind == ST_DECL)
    for (size_t k = 0; k < s->decl->n; k++)
      if (!s->decl->is_typedef) x->ren[s->decl->d[k].name] = 1;
  if (st_lower_site(x, fn, s)) {
    x->site[s->t0] = s;
    x->low[s->t0] = 1;
    return 0;
  }
  if (s->kind != ST_EXPR && s->kind != ST_DECL) return 0;
  if (s->parent && (s->parent->kind == ST_FOR) && s->parent->init == s) return 0;
  int call = st_inl_site_call(x, s);
  if (call >= 0) {
    x->site[s->t0] = s;
    x->acc[call] = 1;
  }
  return 0;
}

/* Every call of a helper with fork points in fn is an accepted statement. */
static int check_calls(inl *x, func *fn) {
  program *pg = x->pg;
  token *t = x->t;
  for (int i = fn->lb; i < fn->t1; i++) {
    func *h = st_inl_callee(x, i);
    if (!h) continue;
    if (fn->is_kernel && !fn->cooperative)
      return st_error_at(pg->dg, &t[i],
                         "kernel '%s' is not cooperative but calls '%s', which "
                         "reaches %s (list it among the cooperative kernels)",
                         fn->name, h->name, st_inl_why(x, h));
    if (!x->acc[i]) {
      return st_error_at(pg->dg, &t[i],
                         "call of '%s' where the stitcher cannot place a copy of it, in "
                         "'%s': '%s' is inlined because it reaches %s, and the stitcher "
                         "inlines calls in statements, initialisers, conditions, loop "
                         "headers, return values and their operands, not in array sizes, "
                         "case labels or attributes; call it in a statement before and use "
                         "its result",
                         h->name, fn->name, h->name, st_inl_why(x, h));
    }
    size_t n = 0;
    int m = t[i + 1].match;
    if (m > i + 2) {
      n = 1;
      for (int j = i + 2; j < m; j++) {
        if (is_p(&t[j], "(") || is_p(&t[j], "[") || is_p(&t[j], "{")) j = t[j].match;
        else if (is_p(&t[j], ",")) n++;
      }
    }
    if (n != h->n_params)
      return st_error_at(pg->dg, &t[i],
                         "call of '%s' with %zu arguments; it has %zu "
                         "parameters",
                         h->name, n, h->n_params);
  }
  return 0;
}

/* ---- parameters ----------------------------------------------------------------------- */

/* 0: a value (scalar, vector, struct, global or constant pointer); 1: a pointer to private
 * or local memory (substituted); -1: an array parameter in global/constant memory */
static int param_kind(inl *x, param *p) {
  token *t = x->t;
  int ptr = 0, space = 0;
  for (int i = p->t0; i < p->t1; i++) {
    if (is_p(&t[i], "*") || is_p(&t[i], "[")) {
      if (!ptr) ptr = is_p(&t[i], "[") ? 2 : 1;
      continue;
    }
    if (ptr) continue;
    const char *s = t[i].s;
    if (!strcmp(s, "global") || !strcmp(s, "__global") || !strcmp(s, "constant") ||
        !strcmp(s, "__constant"))
      space = 1;
  }
  if (!ptr) return 0;
  if (!space) return 1;
  return ptr == 2 ? -1 : 0;
}

/* Checks of h's parameters that do not depend on the call. */
static int check_params(inl *x, func *h) {
  program *pg = x->pg;
  token *t = x->t;
  for (size_t k = 0; k < h->n_params; k++) {
    param *p = &h->params[k];
    int pk = param_kind(x, p);
    const char *nm = p->name >= 0 ? t[p->name].s : "?";
    if (pk < 0)
      return st_error_at(pg->dg, &t[p->t0],
                         "parameter '%s' of helper '%s' is an array in "
                         "global or constant memory; '%s' is inlined (it reaches %s): write "
                         "the parameter as a pointer",
                         nm, h->name, h->name, st_inl_why(x, h));
    if (pk != 1 || p->name < 0) continue;
    for (int i = h->lb; i < h->t1; i++) {
      if (!t[i].sym || t[i].sym->kind != SYM_PARAM || t[i].sym->pm != p) continue;
      const token *nx = &t[i + 1], *pv = &t[i - 1];
      int assigned = is_p(pv, "++") || is_p(pv, "--") || is_p(nx, "++") || is_p(nx, "--");
      /* '*p = v' assigns what p points to, not p ('a * p = v' is no lvalue) */
      static const char *const ops[] = {"=", "+=", "-=", NULL};
      for (int o = 0; ops[o] && !is_p(pv, "*"); o++) assigned |= is_p(nx, ops[o]);
      if (assigned)
        return st_error_at(pg->dg, &t[i],
                           "parameter '%s' of helper '%s' points to private "
                           "or local memory and is assigned: '%s' is inlined (it reaches %s) "
                           "and such a parameter is replaced by its argument, since another "
                           "work-group cannot read a private or local address; index it "
                           "instead of moving it",
                           nm, h->name, h->name, st_inl_why(x, h));
    }
  }
  return 0;
}

/* ---- emission ------------------------------------------------------------------------- */

/* The name a helper's own variable or parameter `name` gets in copy N: ck_i<N>_<name>,
 * with one more '_' after a name of the form ret, ret_, ret__, ... so that no user name
 * becomes the copy's result variable ck_i<N>_ret (st_inline_user_name undoes it). */
static char *copy_name(inl *x, int n, const char *name) {
  const char *p = name + (strncmp(name, "ret", 3) ? 0 : 3);
  while (p > name && *p == '_') p++;
  int escape = p > name && *p == 0;
  return st_fmt(x->pg->ar, "ck_i%d_%s%s", n, name, escape ? "_" : "");
}

static void out_tok(inl *x, int i, const char *text) {
  token *k = &x->t[i];
  if (x->gen) { /* on the current line: no #line directive inside an expression */
    em_gen(&x->e, text ? text : k->s);
    return;
  }
  const char *saved = k->repl;
  k->repl = text;
  em_tok(&x->e, i);
  k->repl = saved;
}

static int emit_site(inl *x, ictx *c, stmt *s);

/* Tokens [a, b) of c->fn (or of a file-scope item, c->fn NULL) with c's renaming and
 * substitutions; sites: calls and returns starting in the range are expanded. */
int st_inl_emit_range(inl *x, ictx *c, int a, int b, int sites) {
  token *t = x->t;
  for (int i = a; i < b && !em_over(&x->e); i++) {
    if (x->sub_end && x->sub_end[i] > i) { /* a lowered call's result, a flag */
      if (*x->sub_txt[i]) {
        if (!x->gen) em_sync(&x->e, t[i].line);
        em_gen(&x->e, x->sub_txt[i]);
      }
      i = x->sub_end[i] - 1;
      continue;
    }
    stmt *s = x->site[i];
    if (sites && s && s->t0 == i && c->fn && i > c->fn->lb && i < c->fn->t1) {
      if (emit_site(x, c, s)) return -1;
      i = s->t1 - 1;
      continue;
    }
    token *k = &t[i];
    if (c->inst && k->kind == TK_IDENT) {
      symbol *sym = k->sym;
      if (sym && sym->kind == SYM_PARAM && sym->pm >= c->fn->params &&
          sym->pm < c->fn->params + c->fn->n_params &&
          !(i > 0 && (is_p(&t[i - 1], ".") || is_p(&t[i - 1], "->")))) {
        size_t pi = (size_t)(sym->pm - c->fn->params);
        if (c->arg0[pi] >= 0) { /* an array's name as it is (a primary expression) */
          int paren = c->arg1[pi] - c->arg0[pi] > 1;
          em_sync(&x->e, k->line);
          if (paren) em_gen(&x->e, "(");
          int saved = x->gen;
          x->gen = 1;
          if (st_inl_emit_range(x, c->up, c->arg0[pi], c->arg1[pi], 0)) return -1;
          x->gen = saved;
          if (paren) em_gen(&x->e, ")");
          continue;
        }
      }
      if (x->ren[i] ||
          (sym && sym->kind == SYM_PARAM && sym->pm >= c->fn->params &&
           sym->pm < c->fn->params + c->fn->n_params) ||
          (sym && sym->owner == c->fn && (sym->kind == SYM_VAR || sym->kind == SYM_TRANSMIT))) {
        if (i > 0 && (is_p(&t[i - 1], ".") || is_p(&t[i - 1], "->"))) {
          out_tok(x, i, NULL);
          continue;
        }
        char *nm = copy_name(x, c->inst, k->s);
        if (!nm) return -1;
        out_tok(x, i, nm);
        continue;
      }
    }
    out_tok(x, i, NULL);
  }
  return 0;
}

static int is_storage(const token *k) {
  static const char *const w[] = {"static", "inline",        "__inline", "__inline__",
                                  "extern", "__kernel_exec", NULL};
  for (int i = 0; w[i]; i++)
    if (is_id(k, w[i])) return 1;
  return 0;
}

/* The return type's tokens are written; returns 1 if it is void. */
static int ret_type(inl *x, func *h, int write) {
  token *t = x->t;
  int words = 0, is_void = 0;
  for (int i = h->t0; i < h->name_tok; i++) {
    if (is_id(&t[i], "__attribute__") || is_id(&t[i], "__attribute")) {
      i = st_skip_attribute(x->pg, i) - 1;
      continue;
    }
    if (is_storage(&t[i])) continue;
    if (is_id(&t[i], "void")) is_void = 1;
    else if (!st_is_qualifier_keyword(t[i].s)) words++;
    if (write) out_tok(x, i, NULL);
  }
  return is_void && !words;
}

int st_inl_emit_copy(inl *x, ictx *c, int call, int line, int tx_ret, int *is_void_out) {
  token *t = x->t;
  emitter *e = &x->e;
  func *h = definition(x->pg, t[call].sym->fn);
  int N = ++x->n_inst;
  int *a0 = st_alloc(x->pg->ar, (h->n_params + 1) * 2 * sizeof(int));
  if (!a0) return -1;
  ictx sub = {h, N, c, a0, a0 + h->n_params + 1, 0};
  int is_void = ret_type(x, h, 0);
  *is_void_out = is_void;
  if (!is_void) {
    int g = x->gen;
    x->gen = 1; /* on the call's line */
    if (tx_ret) em_gen(e, "transmit");
    ret_type(x, h, 1);
    x->gen = g;
    em_genf(e, "ck_i%d_ret;", N);
  }
  em_gen(e, "{");
  em_sync(e, line); /* the parameters are set on the call's line */
  int saved_gen = x->gen;
  x->gen = 1;
  int a = call + 2, m = t[call + 1].match;
  for (size_t k = 0; k < h->n_params; k++) {
    int b = a;
    while (b < m && !is_p(&t[b], ",")) {
      if (is_p(&t[b], "(") || is_p(&t[b], "[") || is_p(&t[b], "{")) b = t[b].match;
      b++;
    }
    param *p = &h->params[k];
    sub.arg0[k] = -1;
    if (param_kind(x, p) == 1 && p->name >= 0) {
      int ok = (b == a + 1 && t[a].kind == TK_IDENT) ||
               (b == a + 2 && is_p(&t[a], "&") && t[a + 1].kind == TK_IDENT);
      if (!ok)
        return st_error_at(x->pg->dg, &t[a],
                           "argument %zu of '%s' must be an array's name "
                           "or '&variable': parameter '%s' points to private or local memory, "
                           "which another work-group cannot read, so when '%s' is inlined (it "
                           "reaches %s) the argument replaces the parameter",
                           k + 1, h->name, t[p->name].s, h->name, st_inl_why(x, h));
      sub.arg0[k] = a;
      sub.arg1[k] = b;
    } else if (p->name < 0) {
      em_gen(e, "(void)(");
      if (st_inl_emit_range(x, c, a, b, 0)) return -1;
      em_gen(e, ");");
    } else {
      int is_ptr = 0, last_star = -1;
      for (int i = p->t0; i < p->t1; i++)
        if (is_p(&t[i], "*")) is_ptr = 1, last_star = i;
      em_gen(e, "transmit");
      for (int i = p->t0; i < p->t1; i++) {
        if ((is_id(&t[i], "const") || is_id(&t[i], "__const")) && (!is_ptr || i > last_star))
          continue;
        if (i == p->name) {
          char *nm = copy_name(x, N, t[i].s);
          if (!nm) return -1;
          out_tok(x, i, nm);
        } else {
          out_tok(x, i, NULL);
        }
      }
      em_gen(e, "= (");
      if (st_inl_emit_range(x, c, a, b, 0)) return -1;
      em_gen(e, ");");
    }
    a = b + 1;
  }
  x->gen = saved_gen;
  if (st_inl_emit_range(x, &sub, h->body->t0 + 1, h->body->t1 - 1, 1)) return -1;
  if (sub.need_end) em_genf(e, "ck_i%d_end: ;", N);
  em_gen(e, "}");
  return N;
}

/* An accepted call: h(...); x = h(...); T x = h(...); */
static int emit_call(inl *x, ictx *c, stmt *s, int call) {
  emitter *e = &x->e;
  int is_decl = s->kind == ST_DECL, is_void;
  em_sync(e, s->line);
  if (!is_decl) em_gen(e, "{"); /* h(...); and x = h(...); may be the body of an if */
  int N = st_inl_emit_copy(x, c, call, s->line, 0, &is_void);
  if (N < 0) return -1;
  if (s->kind == ST_EXPR && call != s->e0) { /* x = h(...); */
    if (st_inl_emit_range(x, c, s->e0, call, 0)) return -1;
    em_genf(e, "ck_i%d_ret;", N);
  } else if (is_decl) { /* T x = h(...); */
    declarator *d = &s->decl->d[0];
    if (st_inl_emit_range(x, c, s->t0, d->init0, 0)) return -1;
    em_genf(e, "ck_i%d_ret", N);
    if (st_inl_emit_range(x, c, d->init1, s->t1, 0)) return -1;
  }
  if (!is_decl) em_gen(e, "}");
  return 0;
}

static int emit_site(inl *x, ictx *c, stmt *s) {
  emitter *e = &x->e;
  if (x->low[s->t0]) return st_lower_emit(x, c, s);
  if (s->kind != ST_RETURN) return emit_call(x, c, s, st_inl_site_call(x, s));
  stmt *body = c->fn->body;
  int last = body->n_items && body->items[body->n_items - 1] == s;
  em_sync(e, s->line);
  if (s->e1 > s->e0) {
    if (!last) em_gen(e, "{");
    em_genf(e, "ck_i%d_ret = (", c->inst);
    if (st_inl_emit_range(x, c, s->e0, s->e1, 0)) return -1;
    em_gen(e, ");");
    if (!last) em_genf(e, "goto ck_i%d_end; }", c->inst);
  } else if (!last) {
    em_genf(e, "goto ck_i%d_end;", c->inst);
  }
  if (!last) c->need_end = 1;
  return 0;
}

/* ---- chains: recursion and depth ------------------------------------------------------ */

static int chain(inl *x, func *fn, int depth, func *root, int at) {
  program *pg = x->pg;
  token *t = x->t;
  if (fn->inl_busy)
    return st_error_at(pg->dg, &t[at],
                       "'%s' is called recursively through a helper with "
                       "fork points ('%s' reaches %s): the stitcher inlines such helpers, so a "
                       "fork point cannot be reached through recursion",
                       fn->name, fn->name, st_inl_why(x, fn));
  if (fn->inl_height) {
    if (depth + fn->inl_height - 1 > ST_MAX_INLINE_DEPTH) goto deep;
    return 0;
  }
  if (depth > ST_MAX_INLINE_DEPTH) goto deep;
  fn->inl_busy = 1;
  int h = 1;
  for (int i = fn->lb; i < fn->t1; i++) {
    func *g = st_inl_callee(x, i);
    if (!g) continue;
    if (chain(x, g, depth + 1, root, i)) return -1;
    if (g->inl_height + 1 > h) h = g->inl_height + 1;
  }
  fn->inl_busy = 0;
  fn->inl_height = h;
  return 0;
deep:
  return st_error_at(pg->dg, &t[at],
                     "call of '%s' nests helpers with fork points more than "
                     "%d deep (from %s '%s'): the stitcher inlines them and allows at most "
                     "%d nested helpers with fork points; merge some of them",
                     fn->name, ST_MAX_INLINE_DEPTH, root->is_kernel ? "kernel" : "function",
                     root->name, ST_MAX_INLINE_DEPTH);
}

static int is_idc(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The text after "define" and the blanks that follow it when token tk is a #define
 * directive; NULL for any other token. */
static const char *define_directive(const token *tk) {
  if (tk->kind != TK_PP) return NULL;
  const char *p = tk->s + 1;
  while (*p == ' ' || *p == '\t') p++;
  if (strncmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t')) return NULL;
  p += 6;
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* Helpers with fork points in #define bodies: the stitcher cannot inline through macros. */
static int check_macros(inl *x) {
  program *pg = x->pg;
  token *t = x->t;
  for (size_t k = 0; k < pg->tl.n; k++) {
    const char *p = define_directive(&t[k]);
    if (!p) continue;
    for (size_t f = 0; f < pg->funcs.n; f++) {
      func *fn = pg->funcs.v[f];
      if (!fn->inl || fn->lb < 0) continue;
      size_t n = strlen(fn->name);
      for (const char *q = strstr(p, fn->name); q; q = strstr(q + 1, fn->name)) {
        if ((q > p && is_idc(q[-1])) || is_idc(q[n])) continue;
        return st_error_at(pg->dg, &t[k],
                           "a macro names '%s', a helper with fork points (it "
                           "reaches %s): the stitcher inlines such helpers and does not expand "
                           "macros; call '%s' directly",
                           fn->name, st_inl_why(x, fn), fn->name);
      }
    }
  }
  return 0;
}

/* Does the #define text p (after "define") name identifier id outside its own parameter
 * list? (A macro parameter of the same name is the macro's own.) */
static int define_names(const char *p, const char *id) {
  while (*p == ' ' || *p == '\t') p++;
  const char *body = p;
  while (is_idc(*body)) body++;
  size_t n = strlen(id);
  if (*body == '(') { /* function-like: skip the parameters, unless id is one of them */
    const char *close = strchr(body, ')');
    if (!close) return 0;
    for (const char *q = body; q < close; q++)
      if (!strncmp(q, id, n) && !is_idc(q[-1]) && !is_idc(q[n])) return 0;
    body = close + 1;
  }
  for (const char *q = strstr(body, id); q; q = strstr(q + 1, id))
    if (!is_idc(q[-1]) && !is_idc(q[n])) return 1;
  return 0;
}

/* A macro used in an inlined helper that names the helper's own parameters or variables
 * would keep the old names after renaming: rejected. */
static int check_macro_uses(inl *x, func *h) {
  program *pg = x->pg;
  token *t = x->t;
  for (size_t k = 0; k < pg->tl.n; k++) {
    const char *p = define_directive(&t[k]);
    if (!p) continue;
    const char *e = p;
    while (is_idc(*e)) e++;
    size_t mlen = (size_t)(e - p);
    if (!mlen) continue;
    for (int i = h->lb; i < h->t1; i++) {
      if (t[i].kind != TK_IDENT || strlen(t[i].s) != mlen || strncmp(t[i].s, p, mlen)) continue;
      for (int j = h->lp; j < h->t1; j++) {
        if (!x->ren[j]) continue;
        if (define_names(p, t[j].s))
          return st_error_at(pg->dg, &t[i],
                             "macro '%s' names '%s' of helper '%s', which is "
                             "inlined (it reaches %s): the stitcher renames the helper's "
                             "parameters and variables and does not expand macros; pass '%s' "
                             "to the macro as an argument",
                             t[i].s, t[j].s, h->name, st_inl_why(x, h), t[j].s);
      }
      break;
    }
  }
  return 0;
}

int st_inline(program *pg, char **src) {
  *src = NULL;
  inl x = {0};
  x.pg = pg;
  x.t = pg->tl.t;
  int any = mark(&x);
  if (any < 0) return st_error(pg->dg, 1, "out of memory");
  for (size_t k = 0; k < pg->funcs.n; k++) { /* transmit only where it will be in a kernel */
    func *fn = pg->funcs.v[k];
    if (fn->tx_tok && !fn->inl)
      return st_error_at(pg->dg, &x.t[fn->tx_tok],
                         "transmit variable in function '%s': "
                         "transmit is only allowed in the body of a cooperative kernel or of a "
                         "helper function with fork points",
                         fn->name);
  }
  if (!any) return 0;
  x.ren = st_alloc(pg->ar, pg->tl.n);
  x.site = st_alloc(pg->ar, pg->tl.n * sizeof(stmt *));
  x.acc = st_alloc(pg->ar, pg->tl.n);
  x.low = st_alloc(pg->ar, pg->tl.n);
  x.sub_end = st_alloc(pg->ar, pg->tl.n * sizeof(int));
  x.sub_txt = st_alloc(pg->ar, pg->tl.n * sizeof(const char *));
  if (!x.ren || !x.site || !x.acc || !x.low || !x.sub_end || !x.sub_txt)
    return st_error(pg->dg, 1, "out of memory");
  /* A helper with fork points has one definition: with two, calls reach one of them while
   * the other would be emitted as an ordinary function, its calls inlined unchecked. */
  st_map defs = {0};
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    if (fn->lb < 0) continue;
    func *other = st_map_get(&defs, fn->name);
    if (other && (fn->inl || other->inl)) {
      func *h = fn->inl ? fn : other;
      return st_error(pg->dg, fn->line,
                      "helper '%s' with fork points (it reaches %s) is "
                      "defined twice (line %d): the stitcher inlines such helpers and does "
                      "not evaluate #if; define it once",
                      fn->name, st_inl_why(&x, h), st_user_line(pg->dg, other->line, NULL));
    }
    if (!other && st_map_put(pg->ar, &defs, fn->name, fn))
      return st_error(pg->dg, 1, "out of memory");
  }
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    if (fn->lb < 0 || !(fn->inl || fn->is_kernel)) continue;
    if (fn->inl) {
      for (size_t m = 0; m < fn->n_params; m++)
        if (fn->params[m].name >= 0) x.ren[fn->params[m].name] = 1;
      if (check_params(&x, fn)) return -1;
    }
    if (walk(&x, fn, fn->body, note_site)) return -1;
  }
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    if (fn->lb < 0 || !(fn->inl || fn->is_kernel)) continue;
    if (check_calls(&x, fn)) return -1;
  }
  /* Recursion and depth from every function the new program keeps (the kernels, as helpers
   * with fork points are left out and ordinary functions cannot call them): emission below
   * inlines only what this bounded. */
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    if (fn->lb < 0 || fn->inl) continue;
    for (int i = fn->lb; i < fn->t1; i++) {
      func *g = st_inl_callee(&x, i);
      if (g && chain(&x, g, 1, fn, i)) return -1;
    }
  }
  if (check_macros(&x)) return -1;
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    if (fn->lb >= 0 && fn->inl && check_macro_uses(&x, fn)) return -1;
  }
  /* the new program: every item in order, inlined helpers and their prototypes left out */
  em_init(&x.e, pg);
  ictx top = {NULL, 0, NULL, NULL, NULL, 0};
  for (size_t k = 0; k < pg->n_items; k++) {
    top_item *it = &pg->items[k];
    if (it->kind == TOP_FUNC && it->fn && definition(pg, it->fn)->inl) continue;
    top.fn = it->kind == TOP_FUNC ? it->fn : NULL;
    if (st_inl_emit_range(&x, &top, it->t0, it->t1, 1)) {
      sb_free(&x.e.out); /* the error is reported; the partial program goes */
      return -1;
    }
    if (em_over(&x.e)) break;
  }
  em_newline(&x.e);
  if (x.e.over) {
    sb_free(&x.e.out);
    return st_error(pg->dg, x.e.over_line,
                    "inlining the helpers with fork points would make "
                    "the program larger than %zu bytes (64 times the input plus 1 MiB), the "
                    "stitcher's output cap: fewer calls of them, or smaller helpers",
                    x.e.cap);
  }
  if (x.e.out.failed || pg->ar->failed) {
    sb_free(&x.e.out);
    return st_error(pg->dg, 1, "out of memory");
  }
  *src = x.e.out.p;
  return 0;
}

size_t st_inline_user_name(const char *s, char *out, size_t n) {
  if (!st_inline_name(s)) return 0;
  const char *u = s + 4;
  while (*u != '_') u++;
  u++;
  size_t len = 0;
  while ((u[len] >= 'a' && u[len] <= 'z') || (u[len] >= 'A' && u[len] <= 'Z') ||
         (u[len] >= '0' && u[len] <= '9') || u[len] == '_')
    len++;
  int escaped = len > 3 && !strncmp(u, "ret", 3) && strspn(u + 3, "_") >= len - 3;
  size_t keep = escaped ? len - 1 : len;
  if (keep >= n) return 0;
  memcpy(out, u, keep);
  out[keep] = 0;
  return (size_t)(u - s) + len;
}

int st_inline_name(const char *s) {
  if (strncmp(s, "ck_i", 4) || s[4] < '0' || s[4] > '9') return 0;
  s += 4;
  while (*s >= '0' && *s <= '9') s++;
  return *s == '_';
}
