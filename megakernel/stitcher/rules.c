/* rules.c: the model's rules that a compiler can check, on cooperative kernels with fork
 * points. A work-group forked at a fork point starts right after the call with only the
 * kernel's arguments and its transmit variables set, and M (get_num_groups,
 * get_global_size) may change at every fork point. Per fork point, a forward walk over the
 * structured syntax tree follows what a forked group runs (the rest of each enclosing
 * statement, the enclosing loops again through their step and condition, then the rest of
 * the kernel) and tracks which variables in scope at the call have been assigned since:
 *
 *  - error: a variable of the kernel that is not transmit is read before it is assigned
 *    on some path from the fork point (counters of enclosing loops included: their step
 *    and condition read them);
 *  - warning: a transmit variable whose value comes from get_num_groups/get_global_size
 *    (directly, or through variables assigned from them anywhere in the kernel) is read
 *    after a fork point before it is assigned again: stale once M changes.
 *
 * What is checked, and how coarsely (a must-assign analysis; joins take the intersection):
 *  - private variables declared in the kernel body (any block, for-inits), scalars,
 *    vectors, structs and pointers; arguments, transmit variables (for the first rule),
 *    `local` and `constant` variables are not tracked;
 *  - an assignment `x = ...` assigns x; so does `x[...] = ...` or `x.f = ...` when x is an
 *    array, vector or struct (a partial assignment is taken as a whole one), and `&x`
 *    (passing the address may assign it); `p[...] = ...` and `*p = ...` read the pointer p;
 *    `x += ...`, `x++` read x; `sizeof` operands are not reads;
 *  - within one expression between top-level commas, reads count before assignments
 *    (`x = x + 1` reads x); `&&`, `||` and `?:` are not split, so an assignment in their
 *    right operand counts as made;
 *  - a declaration after the fork point starts a new variable (also the re-declaration of
 *    a loop body's variable in the next iteration): not the fork point's business;
 *  - `for (;;)`, `while (1)`, `do ... while (1)` leave only through break;
 *  - macros are not expanded: a variable used only inside a macro's body is not seen;
 *  - conditions are not evaluated: a read that only work-groups which are never forked
 *    reach (`if (get_group_id(0) == 0)`) is still reported; recompute the value or make
 *    it transmit. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
  unsigned char *def; /* def[var_id]: assigned on every path since the fork point */
  int live;           /* 0: no path reaches this point */
} dstate;

typedef struct {
  dstate *brk, *cont;  /* states joined at break / continue of the innermost loop/switch */
  dstate *sw_entry;    /* innermost switch: the state at its case labels */
} jumps;

typedef struct {
  program *pg;
  func *fn;
  token *t;
  fork_point *fp;
  size_t n;              /* fn->n_vars */
  unsigned char *mval;   /* mval[var_id]: holds a value computed from M */
  unsigned char *warned; /* stale-M warning given for this fork point */
  int *pending;          /* assignments of the current expression */
  int failed;            /* out of memory */
  size_t work;           /* statements, tokens and state bytes visited so far */
  int over;              /* work passed WORK_CAP: the kernel is left unchecked */
  struct lstate *labels; /* states at the ck_i<N>_end labels of inlined helpers */
} rctx;

/* The state joined at a label of an inlined helper (its returns jump there). */
typedef struct lstate {
  const char *name;
  dstate st;
  struct lstate *next;
} lstate;

static dstate *label_state(rctx *r, const char *name);

/* Bound on a kernel's checking work (about a second): the walk is repeated per fork point
 * and copies a state per branch, so a huge kernel with many fork points and variables
 * could take long; past the bound it is left unchecked, with a warning. */
#define WORK_CAP ((size_t)300 * 1000 * 1000)

static int charge(rctx *r, size_t units) {
  r->work += units;
  if (r->work > WORK_CAP) r->over = 1;
  return r->over ? -1 : 0;
}

static int is_p(const token *t, const char *s) { return t->kind == TK_PUNCT && !strcmp(t->s, s); }

static int is_assign_op(const token *t) {
  static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=",
                                    "|=", "^=", NULL};
  if (t->kind != TK_PUNCT) return 0;
  for (int k = 0; ops[k]; k++)
    if (!strcmp(t->s, ops[k])) return 1;
  return 0;
}

/* The body variable token i names in fn, or NULL. Member names after . and -> are not. */
static symbol *body_var(const rctx *r, int i, int a) {
  const token *k = &r->t[i];
  if (k->kind != TK_IDENT || !k->sym || k->sym->owner != r->fn) return NULL;
  if (k->sym->kind != SYM_VAR && k->sym->kind != SYM_TRANSMIT) return NULL;
  if (i > a && (is_p(&r->t[i - 1], ".") || is_p(&r->t[i - 1], "->"))) return NULL;
  return k->sym;
}

/* Index after x's subscripts and member selections (x[..].f[..]); *through_ptr is set when
 * a subscript goes through a pointer (p[...]). */
static int after_selectors(const rctx *r, const symbol *s, int i, int b, int *through_ptr) {
  int j = i + 1;
  *through_ptr = 0;
  while (j < b) {
    if (is_p(&r->t[j], "[")) {
      if (j == i + 1 && s->dr && s->dr->is_ptr && !s->dr->is_array) *through_ptr = 1;
      j = r->t[j].match + 1;
    } else if (is_p(&r->t[j], ".") && j + 1 < b && r->t[j + 1].kind == TK_IDENT) {
      j += 2;
    } else {
      break;
    }
  }
  return j;
}

/* Does token i start an operand (so a '&' or '*' before it is unary)? */
static int unary_before(const rctx *r, int i, int a) {
  if (i - 1 < a) return 0;
  const token *op = &r->t[i - 1];
  if (!is_p(op, "&") && !is_p(op, "*")) return 0;
  if (i - 2 < a) return 1;
  const token *pre = &r->t[i - 2];
  return pre->kind == TK_PUNCT && !is_p(pre, ")") && !is_p(pre, "]") && !is_p(pre, "++") &&
         !is_p(pre, "--");
}

static void join(rctx *r, dstate *into, const dstate *from) {
  if (!from->live) return;
  r->work += r->n;
  if (!into->live) {
    memcpy(into->def, from->def, r->n);
    into->live = 1;
    return;
  }
  for (size_t v = 0; v < r->n; v++) into->def[v] &= from->def[v];
}

static int new_state(rctx *r, dstate *s) {
  s->def = calloc(r->n ? r->n : 1, 1);
  s->live = 0;
  if (!s->def) r->failed = 1;
  return s->def ? 0 : -1;
}

static const char *prim_name(const stmt *s) {
  return s->prim == PRIM_REQUEST_FORK ? "request_fork" : "resizing_global_barrier";
}

/* "transmit int phase": the declaration's specifiers and the name, for the suggestion */
static void decl_text(rctx *r, const symbol *s, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  if (!s->dc || !s->dr) return;
  for (int i = s->dc->s0; i < s->dc->s1; i++) {
    const char *w = r->t[i].s;
    if (r->t[i].kind == TK_PP || n + strlen(w) + 2 >= len) continue;
    memcpy(buf + n, w, strlen(w));
    n += strlen(w);
    buf[n++] = ' ';
  }
  for (int i = s->dr->d0; i <= s->dr->name && i < s->dr->d1; i++) {
    const char *w = r->t[i].s;
    if (n + strlen(w) + 1 >= len) break;
    memcpy(buf + n, w, strlen(w));
    n += strlen(w);
  }
  buf[n] = 0;
}

/* A read of s at token i with state d. */
static int read_var(rctx *r, symbol *s, int i, const dstate *d) {
  if (d->def[s->var_id]) return 0;
  program *pg = r->pg;
  stmt *fs = r->fp->st;
  int fline = st_user_line(pg->dg, fs->line, NULL);
  if (s->kind == SYM_VAR) {
    char spec[160];
    decl_text(r, s, spec, sizeof spec);
    st_error_at(pg->dg, &r->t[i], "'%s' is read after the %s() on line %d before it is "
                "assigned, but it is not transmit: a work-group forked there starts with only "
                "the kernel's arguments and transmit variables set (kernel '%s'); declare it "
                "transmit where it is declared on line %d ('%stransmit %s') or recompute it "
                "after the fork point", s->name, prim_name(fs), fline, r->fn->name,
                st_user_line(pg->dg, r->t[s->dr->name].line, NULL),
                s->for_init ? "for (" : "", spec);
    st_note_error(pg->dg, &r->t[fs->t0], "forked work-groups start after this %s()",
                  prim_name(fs));
    return -1;
  }
  if (s->kind == SYM_TRANSMIT && r->mval[s->var_id] && !r->warned[s->var_id]) {
    r->warned[s->var_id] = 1;
    st_warn_at(pg->dg, &r->t[i], "transmit variable '%s' holds a value computed from "
               "get_num_groups/get_global_size before the %s() on line %d and is read after "
               "it (kernel '%s'): stale once M changes there; read them again after the "
               "fork point", s->name, prim_name(fs), fline, r->fn->name);
    st_note_warn(pg->dg, &r->t[fs->t0], "M may change at this %s()", prim_name(fs));
  }
  return 0;
}

/* One expression between top-level commas: reads, then assignments. */
static int subexpr(rctx *r, int a, int b, dstate *d) {
  size_t np = 0;
  for (int i = a; i < b; i++) {
    if (r->t[i].kind == TK_IDENT && !strcmp(r->t[i].s, "sizeof") && i + 1 < b &&
        is_p(&r->t[i + 1], "(")) {
      i = r->t[i + 1].match;
      continue;
    }
    symbol *s = body_var(r, i, a);
    if (!s) continue;
    int through_ptr;
    int j = after_selectors(r, s, i, b, &through_ptr);
    int deref = unary_before(r, i, a) && is_p(&r->t[i - 1], "*");
    int addr = unary_before(r, i, a) && is_p(&r->t[i - 1], "&");
    int assigns = addr || (j < b && is_p(&r->t[j], "=") && !through_ptr && !deref);
    if (assigns) {
      if (np < r->n) r->pending[np++] = s->var_id;
    } else if (read_var(r, s, i, d)) {
      return -1;
    }
  }
  for (size_t k = 0; k < np; k++) d->def[r->pending[k]] = 1;
  return 0;
}

static int expr(rctx *r, int a, int b, dstate *d) {
  if (!d->live || a < 0 || b <= a) return 0;
  if (charge(r, (size_t)(b - a))) return -1;
  int i = a;
  while (i < b) {
    int e = i;
    while (e < b && !is_p(&r->t[e], ",")) {
      if (is_p(&r->t[e], "(") || is_p(&r->t[e], "[") || is_p(&r->t[e], "{")) e = r->t[e].match;
      e++;
    }
    if (e > b) e = b;
    if (subexpr(r, i, e, d)) return -1;
    i = e + 1;
  }
  return 0;
}

static int decl_stmt(rctx *r, decl *dc, dstate *d) {
  for (size_t k = 0; k < dc->n && d->live; k++) {
    declarator *dr = &dc->d[k];
    if (dr->init0 >= 0 && expr(r, dr->init0, dr->init1, d)) return -1;
    symbol *s = dr->sym;
    if (s && s->owner == r->fn && (s->kind == SYM_VAR || s->kind == SYM_TRANSMIT))
      d->def[s->var_id] = 1; /* a new variable: whatever it holds is not the fork's doing */
  }
  return 0;
}

/* Condition that is always true: empty, a nonzero integer literal, or true. */
static int always_true(const rctx *r, int a, int b) {
  if (a < 0 || b <= a) return 1;
  if (b != a + 1) return 0;
  const token *k = &r->t[a];
  if (k->kind == TK_IDENT) return !strcmp(k->s, "true");
  if (k->kind != TK_NUMBER) return 0;
  for (const char *p = k->s; *p; p++)
    if (*p >= '1' && *p <= '9') return 1;
  return 0;
}

static int walk(rctx *r, stmt *s, dstate *d, jumps *j);

/* A loop entered at its condition (for, while) or at its body (do) with state d; on
 * return d is the state after the loop. One pass suffices: assignments only add to the
 * state, so a later iteration starts from a superset of the first one's state. */
static int loop_from_top(rctx *r, stmt *s, dstate *d) {
  int rc = -1;
  dstate brk, cont;
  if (new_state(r, &brk) || new_state(r, &cont)) goto out;
  jumps lj = {&brk, &cont, NULL};
  int forever = always_true(r, s->e0, s->e1);
  if (s->kind != ST_DO) {
    if (expr(r, s->e0, s->e1, d)) goto out;
    if (!forever) join(r, &brk, d);
  }
  if (walk(r, s->body, d, &lj)) goto out;
  join(r, d, &cont);
  if (s->kind == ST_FOR && expr(r, s->s0, s->s1, d)) goto out;
  if (s->kind == ST_DO) {
    if (expr(r, s->e0, s->e1, d)) goto out;
    if (!forever) join(r, &brk, d);
  }
  memcpy(d->def, brk.def, r->n);
  d->live = brk.live;
  rc = 0;
out:
  free(brk.def);
  free(cont.def);
  return rc;
}

static int walk(rctx *r, stmt *s, dstate *d, jumps *j) {
  if (r->failed || charge(r, 1 + r->n / 64)) return -1;
  if (s->kind == ST_LABEL && r->pg->inlined && st_inline_name(r->t[s->kw].s)) {
    dstate *at = label_state(r, r->t[s->kw].s); /* the returns of an inlined helper */
    if (!at) return -1;
    join(r, d, at);
  }
  if (!d->live) return 0;
  switch (s->kind) {
  case ST_BLOCK:
    for (size_t k = 0; k < s->n_items; k++)
      if (walk(r, s->items[k], d, j)) return -1;
    return 0;
  case ST_DECL:
    return decl_stmt(r, s->decl, d);
  case ST_EXPR:
    return expr(r, s->e0, s->e1, d);
  case ST_IF: {
    if (expr(r, s->e0, s->e1, d)) return -1;
    dstate other;
    if (new_state(r, &other)) return -1;
    memcpy(other.def, d->def, r->n);
    other.live = d->live;
    r->work += r->n;
    int rc = walk(r, s->body, d, j);
    if (!rc && s->els) rc = walk(r, s->els, &other, j);
    if (!rc) join(r, d, &other);
    free(other.def);
    return rc;
  }
  case ST_FOR:
    if (s->init && s->init->kind == ST_DECL && decl_stmt(r, s->init->decl, d)) return -1;
    if (s->init && s->init->kind == ST_EXPR && expr(r, s->init->e0, s->init->e1, d)) return -1;
    return loop_from_top(r, s, d);
  case ST_WHILE:
  case ST_DO:
    return loop_from_top(r, s, d);
  case ST_SWITCH: {
    if (expr(r, s->e0, s->e1, d)) return -1;
    dstate entry, brk;
    int rc = -1;
    entry.def = NULL;
    if (new_state(r, &entry) || new_state(r, &brk)) goto sw_out;
    join(r, &entry, d);
    jumps sj = {&brk, j ? j->cont : NULL, &entry};
    d->live = 0; /* only the case labels are entered */
    if (walk(r, s->body, d, &sj)) goto sw_out;
    join(r, d, &brk);
    /* without a default label the switch may run no statement */
    int has_default = 0;
    if (s->body->kind == ST_BLOCK)
      for (size_t k = 0; k < s->body->n_items; k++)
        has_default |= s->body->items[k]->kind == ST_DEFAULT;
    if (!has_default) join(r, d, &entry);
    rc = 0;
  sw_out:
    free(entry.def);
    free(brk.def);
    return rc;
  }
  case ST_CASE:
  case ST_DEFAULT:
    if (j && j->sw_entry) join(r, d, j->sw_entry);
    return s->body ? walk(r, s->body, d, j) : 0;
  case ST_LABEL:
    return s->body ? walk(r, s->body, d, j) : 0;
  case ST_BREAK:
  case ST_CONTINUE: {
    dstate *to = j ? (s->kind == ST_BREAK ? j->brk : j->cont) : NULL;
    if (to) join(r, to, d);
    d->live = 0;
    return 0;
  }
  case ST_RETURN:
    if (expr(r, s->e0, s->e1, d)) return -1;
    d->live = 0;
    return 0;
  case ST_GOTO: /* only inline.c's returns of inlined helpers next to fork points */
    if (r->pg->inlined && st_inline_name(r->t[s->kw + 1].s)) {
      dstate *at = label_state(r, r->t[s->kw + 1].s);
      if (!at) return -1;
      join(r, at, d);
      d->live = 0;
    }
    return 0;
  case ST_PP:
  case ST_EMPTY:
  case ST_PRIM:
    return 0;
  }
  return 0;
}

static int is_loop(const stmt *s) {
  return s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO;
}

/* What a work-group forked at fp runs: from right after the call to the kernel's end.
 * brk/cont collect the jumps of the nearest loop above the current position. */
static int check_fork(rctx *r) {
  int rc = -1;
  dstate d = {NULL, 1}, brk = {NULL, 0}, cont = {NULL, 0};
  if (new_state(r, &d) || new_state(r, &brk) || new_state(r, &cont)) goto out;
  d.live = 1;
  memset(r->warned, 0, r->n ? r->n : 1);
  jumps lj = {&brk, &cont, NULL};
  /* (the returns of inlined helpers jump forward: a dead state revives at their label) */
  for (stmt *cur = r->fp->st; cur->parent && (d.live || r->labels); cur = cur->parent) {
    stmt *par = cur->parent;
    if (par->kind == ST_BLOCK) {
      stmt *up = par->parent;
      while (up && !is_loop(up)) up = up->parent;
      size_t k = 0;
      while (par->items[k] != cur) k++;
      for (k++; k < par->n_items; k++)
        if (walk(r, par->items[k], &d, up ? &lj : NULL)) goto out;
    } else if (is_loop(par) && cur == par->body) {
      /* the interrupted iteration ends: step (or do-while condition), then the loop again */
      join(r, &d, &cont);
      if (par->kind == ST_FOR && expr(r, par->s0, par->s1, &d)) goto out;
      stmt again = {.kind = par->kind == ST_DO ? ST_WHILE : par->kind, .e0 = par->e0,
                    .e1 = par->e1, .s0 = par->s0, .s1 = par->s1, .body = par->body};
      if (loop_from_top(r, &again, &d)) goto out;
      join(r, &d, &brk);
      brk.live = cont.live = 0; /* the next loop up starts with no jumps */
    }
    /* if, label, case: the rest of the branch taken is the rest of the statement */
  }
  rc = 0;
out:
  free(d.def);
  free(brk.def);
  free(cont.def);
  while (r->labels) {
    lstate *l = r->labels;
    r->labels = l->next;
    free(l->st.def);
    free(l);
  }
  return rc;
}

static dstate *label_state(rctx *r, const char *name) {
  for (lstate *l = r->labels; l; l = l->next)
    if (!strcmp(l->name, name)) return &l->st;
  lstate *l = calloc(1, sizeof *l);
  if (!l || new_state(r, &l->st)) {
    free(l);
    r->failed = 1;
    return NULL;
  }
  l->name = name;
  l->next = r->labels;
  r->labels = l;
  return &l->st;
}

/* ---- values computed from M ---------------------------------------------------------- */

static int mentions_m(const rctx *r, int a, int b) {
  for (int i = a; i < b; i++) {
    const token *k = &r->t[i];
    if (k->kind != TK_IDENT) continue;
    if ((!strcmp(k->s, "get_num_groups") || !strcmp(k->s, "get_global_size")) && !k->sym)
      return 1;
    symbol *s = body_var(r, i, a);
    if (s && r->mval[s->var_id]) return 1;
  }
  return 0;
}

/* Marks the variables that an expression assigns from M; *changed when one is new. An
 * assignment counts as from M when its expression between top-level commas mentions M
 * (coarser than its right-hand side, and linear in the expression's length). */
static void m_expr(rctx *r, int a, int b, int *changed) {
  if (a < 0 || b <= a || charge(r, 2 * (size_t)(b - a))) return;
  for (int i = a; i < b;) {
    int e = i;
    while (e < b && !is_p(&r->t[e], ",")) {
      if (is_p(&r->t[e], "(") || is_p(&r->t[e], "[") || is_p(&r->t[e], "{")) e = r->t[e].match;
      e++;
    }
    if (e > b) e = b;
    if (mentions_m(r, i, e))
      for (int k = i; k < e; k++) {
        symbol *s = body_var(r, k, i);
        if (!s || r->mval[s->var_id]) continue;
        int through_ptr;
        int j = after_selectors(r, s, k, e, &through_ptr);
        if (j < e && is_assign_op(&r->t[j]) && !through_ptr) r->mval[s->var_id] = 1, *changed = 1;
      }
    i = e + 1;
  }
}

static void m_decl(rctx *r, decl *dc, int *changed) {
  for (size_t k = 0; k < dc->n; k++) {
    symbol *s = dc->d[k].sym;
    if (!s || s->owner != r->fn || (s->kind != SYM_VAR && s->kind != SYM_TRANSMIT)) continue;
    if (dc->d[k].init0 < 0) continue;
    m_expr(r, dc->d[k].init0, dc->d[k].init1, changed);
    if (!r->mval[s->var_id] && mentions_m(r, dc->d[k].init0, dc->d[k].init1))
      r->mval[s->var_id] = 1, *changed = 1;
  }
}

static void m_walk(rctx *r, stmt *s, int *changed) {
  if (!s || charge(r, 1)) return;
  if (s->kind == ST_DECL) m_decl(r, s->decl, changed);
  else if (s->kind == ST_EXPR) m_expr(r, s->e0, s->e1, changed);
  else if (s->kind != ST_BLOCK) m_expr(r, s->e0, s->e1, changed);
  if (s->kind == ST_FOR) m_expr(r, s->s0, s->s1, changed);
  if (s->init) m_walk(r, s->init, changed);
  for (size_t k = 0; k < s->n_items; k++) m_walk(r, s->items[k], changed);
  m_walk(r, s->body, changed);
  m_walk(r, s->els, changed);
}

static int check_kernel(program *pg, func *fn) {
  rctx r = {pg, fn, pg->tl.t, NULL, (size_t)fn->n_vars, NULL, NULL, NULL, 0, 0, 0, NULL};
  size_t n = r.n ? r.n : 1;
  r.mval = calloc(n, 1);
  r.warned = calloc(n, 1);
  r.pending = calloc(n, sizeof(int));
  int rc = -1;
  if (!r.mval || !r.warned || !r.pending) goto out;
  /* a variable is computed from M if any assignment to it is: a few passes reach the
   * variables assigned through chains of others (bounded, so a long chain may be missed) */
  int changed = 1;
  for (int pass = 0; changed && pass < 16 && !r.over; pass++) {
    changed = 0;
    m_walk(&r, fn->body, &changed);
  }
  rc = 0;
  for (size_t k = 0; k < fn->forks.n && rc == 0 && !r.over; k++) {
    r.fp = fn->forks.v[k];
    rc = check_fork(&r);
  }
  if (r.over) {
    st_warn(pg->dg, fn->line, "kernel '%s' is too large for the stitcher's rule checks (%zu "
            "fork points, %d variables): variables live across its fork points were not "
            "checked", fn->name, fn->forks.n, fn->n_vars);
    rc = 0;
  }
out:
  if (rc && !pg->dg->failed) st_error(pg->dg, fn->line, "out of memory");
  free(r.mval);
  free(r.warned);
  free(r.pending);
  return rc;
}

int st_rules(program *pg) {
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    if (!fn->cooperative || !fn->forks.n || !fn->body) continue;
    if (check_kernel(pg, fn)) return -1;
  }
  return 0;
}
