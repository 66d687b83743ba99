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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
  unsigned char *def; /* def[var_id]: assigned on every path since the fork point */
  int live;           /* 0: no path reaches this point */
} dstate;

typedef struct {
  dstate *brk, *cont; /* states joined at break / continue of the innermost loop/switch */
  dstate *sw_entry;   /* innermost switch: the state at its case labels */
} jumps;

typedef struct {
  program *pg;
  func *fn;
  token *t;
  fork_point *fp;
  size_t n;              /* fn->n_vars */
  unsigned char *mval;   /* mval[var_id]: holds a value computed from M */
  unsigned char *vval;   /* vval[var_id]: its value may differ between work-items or groups */
  unsigned char *warned; /* stale-M warning given for this fork point */
  unsigned char *done;   /* done[var_id]: reported or inferred (once per kernel) */
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
  static const char *const ops[] = {"=",   "+=",  "-=", "*=", "/=", "%=",
                                    "<<=", ">>=", "&=", "|=", "^=", NULL};
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

/* Does pointer variable s point to global or constant memory (its specifiers or declarator say so)? */
static int points_to_global(const rctx *r, const symbol *s) {
  for (int i = s->dc->s0; i < s->dc->s1; i++) {
    const char *w = r->t[i].s;
    if (!strcmp(w, "global") || !strcmp(w, "__global") || !strcmp(w, "constant") ||
        !strcmp(w, "__constant"))
      return 1;
  }
  for (int i = s->dr->d0; i < s->dr->name; i++) {
    const char *w = r->t[i].s;
    if (!strcmp(w, "global") || !strcmp(w, "__global")) return 1;
  }
  return 0;
}

/* Why variable s, read after a fork point before it is assigned, cannot travel as transmit
 * (buf gets the sentence), or NULL when it can: its declaration takes the qualifier, and
 * its value is the same in every work-item of the group and does not depend on which
 * group holds it or on M (a forked group gets work-item 0's value of the forking group). */
static const char *untransmittable(rctx *r, const symbol *s, char *buf, size_t len) {
  const decl *dc = s->dc;
  const declarator *dr = s->dr;
  if (!dc || !dr) return "its declaration is not one the stitcher can qualify";
  /* the result of an inlined helper (inline.c's ck_i<N>_ret): read before it is assigned
   * only when a path leaves the helper without a return */
  if (r->pg->inlined && st_inline_name(s->name)) {
    const char *p = s->name + 4;
    while (*p >= '0' && *p <= '9') p++;
    if (!strcmp(p, "_ret"))
      return "it holds the result of an inlined helper, and a path through the helper ends "
             "without a return: end every path of the helper with a return";
  }
  for (size_t k = 0; k < dc->n; k++) {
    const declarator *o = &dc->d[k];
    int cnst = dc->is_const && !o->is_ptr;
    for (int j = o->d0; j < o->name; j++)
      if (!strcmp(r->t[j].s, "const")) cnst = 1;
    const char *other = r->t[o->name].s;
    if (o->is_array) {
      if (o == dr)
        return "it is an array, and transmit carries no arrays: keep it in global "
               "memory, or recompute it after the fork point";
      snprintf(buf, len,
               "it is declared together with the array '%s', and transmit would "
               "qualify both: declare it in a declaration of its own",
               other);
      return buf;
    }
    if (cnst) {
      if (o == dr)
        return "it is const, and a transmit variable is assigned when a group "
               "joins: drop the const, or recompute it after the fork point";
      snprintf(buf, len,
               "it is declared together with the const '%s', and transmit would "
               "qualify both: declare it in a declaration of its own",
               other);
      return buf;
    }
  }
  if (dc->is_typedef || dc->is_local) return "its declaration is not a private variable's";
  for (int j = dc->s0; j < dc->s1; j++) {
    symbol *ts = r->t[j].kind == TK_IDENT ? r->t[j].sym : NULL;
    if (ts && ts->kind == SYM_TYPEDEF && ts->owner) {
      snprintf(buf, len,
               "its type '%s' is declared inside the kernel, and the transmitted "
               "values' struct is declared in front of it: declare the type at file scope",
               r->t[j].s);
      return buf;
    }
  }
  if (dr->is_ptr && !points_to_global(r, s))
    return "it points to private or local memory, which a group forked onto another worker "
           "does not share: keep the data in global memory, or recompute it after the fork "
           "point";
  if (r->mval[s->var_id])
    return "its value is computed from get_num_groups/get_global_size, which change at the "
           "fork point: read them again after it";
  if (r->vval[s->var_id])
    return "its value may differ between the work-items of a group or between groups (it is "
           "computed from a work-item or group id, an atomic operation, or under a condition "
           "that is), and a forked group gets work-item 0's value of the forking group: "
           "recompute it after the fork point";
  return NULL;
}

/* A read of s at token i with state d: a variable that is not transmit and not assigned
 * on some path from the fork point is listed as an error, or, with inference on and a
 * value that can travel, recorded to be transmitted (once per variable and kernel). */
static int read_var(rctx *r, symbol *s, int i, const dstate *d) {
  if (d->def[s->var_id]) return 0;
  program *pg = r->pg;
  stmt *fs = r->fp->st;
  int fline = st_user_line(pg->dg, fs->line, NULL);
  if (s->kind == SYM_VAR) {
    if (r->done[s->var_id]) return 0;
    r->done[s->var_id] = 1;
    char spec[160], why_buf[320];
    decl_text(r, s, spec, sizeof spec);
    const char *why = untransmittable(r, s, why_buf, sizeof why_buf);
    int dline = s->dr ? st_user_line(pg->dg, r->t[s->dr->name].line, NULL) : 0;
    if (pg->infer && !why) {
      inferred_tx *x = st_alloc(pg->ar, sizeof *x);
      if (!x || st_vec_push(pg->ar, &pg->inferred, x)) return -1;
      x->off = r->t[s->dc->t0].off;
      x->name = s->name;
      x->decl_tok = s->dr->name;
      x->note =
        st_fmt(pg->ar,
               "'%s' is transmitted to the work-groups forked at the %s() on "
               "line %d, which read it before they assign it (kernel '%s'; transmit "
               "inferred: declare it '%stransmit %s' to say so)",
               s->name, prim_name(fs), fline, r->fn->name, s->for_init ? "for (" : "", spec);
      if (!x->note) return -1;
      return 0;
    }
    if (why && pg->infer)
      st_error_list_at(pg->dg, &r->t[i],
                       "'%s' is read after the %s() on line %d before it is "
                       "assigned, but it is not transmit, and it cannot be transmitted: %s "
                       "(kernel '%s')",
                       s->name, prim_name(fs), fline, why, r->fn->name);
    else
      st_error_list_at(pg->dg, &r->t[i],
                       "'%s' is read after the %s() on line %d before it is "
                       "assigned, but it is not transmit: a work-group forked there starts with "
                       "only the kernel's arguments and transmit variables set (kernel '%s'); "
                       "declare it transmit where it is declared on line %d ('%stransmit %s') "
                       "or recompute it after the fork point",
                       s->name, prim_name(fs), fline, r->fn->name, dline,
                       s->for_init ? "for (" : "", spec);
    st_note_list(pg->dg, &r->t[fs->t0], "forked work-groups start after this %s()", prim_name(fs));
    return 0;
  }
  if (s->kind == SYM_TRANSMIT && r->mval[s->var_id] && !r->warned[s->var_id]) {
    r->warned[s->var_id] = 1;
    st_warn_at(pg->dg, &r->t[i],
               "transmit variable '%s' holds a value computed from "
               "get_num_groups/get_global_size before the %s() on line %d and is read after "
               "it (kernel '%s'): stale once M changes there; read them again after the "
               "fork point",
               s->name, prim_name(fs), fline, r->fn->name);
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
      stmt again = {.kind = par->kind == ST_DO ? ST_WHILE : par->kind,
                    .e0 = par->e0,
                    .e1 = par->e1,
                    .s0 = par->s0,
                    .s1 = par->s1,
                    .body = par->body};
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

/* ---- values computed from M, and values that vary ---------------------------------- */

/* Builtins whose value differs between work-items or groups: the ids, the sub-group
 * functions (a value per sub-group), the scans (a value per work-item), and atomic
 * operations, OpenCL's and ck_cooperative.h's (each work-item gets its own old value). */
static int varying_builtin(const char *w) {
  static const char *const ids[] = {"get_global_id",          "get_local_id",
                                    "get_group_id",           "get_global_linear_id",
                                    "get_local_linear_id",    "get_sub_group_id",
                                    "get_sub_group_local_id", "get_sub_group_size",
                                    "device_mutex_try_lock",  NULL};
  for (int k = 0; ids[k]; k++)
    if (!strcmp(w, ids[k])) return 1;
  return !strncmp(w, "atomic_", 7) || !strncmp(w, "atom_", 5) || !strncmp(w, "work_item_", 10) ||
         !strncmp(w, "sub_group_", 10) || !strncmp(w, "work_group_scan_", 16) ||
         !strncmp(w, "device_atomic_", 14);
}

/* Does function fn (a definition the kernel calls) return or write values that vary: does
 * it mention a varying builtin, or call a function that does? (Memoized in fn->varies:
 * 1 no, 2 yes, 3 being looked at: a recursive call counts as no.) */
static int func_varies(rctx *r, func *fn, int depth) {
  if (!fn || fn->lb < 0) return 0;
  if (fn->varies) return fn->varies == 2;
  if (depth > 64) return 1;
  fn->varies = 3;
  int v = 0;
  for (int i = fn->lb; i < fn->t1 && !v; i++) {
    const token *k = &r->t[i];
    if (k->kind != TK_IDENT) continue;
    if (!k->sym && varying_builtin(k->s)) v = 1;
    else if (k->sym && k->sym->kind == SYM_FUNC && k->sym->fn != fn)
      v = func_varies(r, k->sym->fn, depth + 1);
  }
  fn->varies = v ? 2 : 1;
  return v;
}

static int mentions_m(const rctx *r, int a, int b) {
  for (int i = a; i < b; i++) {
    const token *k = &r->t[i];
    if (k->kind != TK_IDENT) continue;
    if ((!strcmp(k->s, "get_num_groups") || !strcmp(k->s, "get_global_size")) && !k->sym) return 1;
    symbol *s = body_var(r, i, a);
    if (s && r->mval[s->var_id]) return 1;
  }
  return 0;
}

static int mentions_v(rctx *r, int a, int b) {
  if (a < 0 || b <= a) return 0;
  for (int i = a; i < b; i++) {
    const token *k = &r->t[i];
    if (k->kind != TK_IDENT) continue;
    if (!k->sym && varying_builtin(k->s)) return 1;
    if (k->sym && k->sym->kind == SYM_FUNC && func_varies(r, k->sym->fn, 0)) return 1;
    symbol *s = body_var(r, i, a);
    if (s && r->vval[s->var_id]) return 1;
  }
  return 0;
}

/* Marks the variables that an expression assigns from M, and those it assigns from a
 * varying value or under a varying condition (ctl); *changed when one is new. An
 * assignment counts as from M (varying) when its expression between top-level commas
 * mentions M (a varying value): coarser than its right-hand side, and linear in the
 * expression's length. Passing &x to a varying call counts as assigning x. */
static void m_expr(rctx *r, int a, int b, int ctl, int *changed) {
  if (a < 0 || b <= a || charge(r, 3 * (size_t)(b - a))) return;
  for (int i = a; i < b;) {
    int e = i;
    while (e < b && !is_p(&r->t[e], ",")) {
      if (is_p(&r->t[e], "(") || is_p(&r->t[e], "[") || is_p(&r->t[e], "{")) e = r->t[e].match;
      e++;
    }
    if (e > b) e = b;
    int m = mentions_m(r, i, e), v = ctl || mentions_v(r, i, e);
    if (m || v)
      for (int k = i; k < e; k++) {
        symbol *s = body_var(r, k, i);
        if (!s) continue;
        int through_ptr;
        int j = after_selectors(r, s, k, e, &through_ptr);
        int assigns = j < e && is_assign_op(&r->t[j]) && !through_ptr;
        int addr = unary_before(r, k, i) && is_p(&r->t[k - 1], "&");
        if (m && assigns && !r->mval[s->var_id]) r->mval[s->var_id] = 1, *changed = 1;
        if (v && (assigns || addr || (j < e && (is_p(&r->t[j], "++") || is_p(&r->t[j], "--")))) &&
            !r->vval[s->var_id])
          r->vval[s->var_id] = 1, *changed = 1;
      }
    i = e + 1;
  }
}

static void m_decl(rctx *r, decl *dc, int ctl, int *changed) {
  for (size_t k = 0; k < dc->n; k++) {
    symbol *s = dc->d[k].sym;
    if (!s || s->owner != r->fn || (s->kind != SYM_VAR && s->kind != SYM_TRANSMIT)) continue;
    if (dc->d[k].init0 < 0) continue;
    m_expr(r, dc->d[k].init0, dc->d[k].init1, ctl, changed);
    if (!r->mval[s->var_id] && mentions_m(r, dc->d[k].init0, dc->d[k].init1))
      r->mval[s->var_id] = 1, *changed = 1;
    if (!r->vval[s->var_id] && (ctl || mentions_v(r, dc->d[k].init0, dc->d[k].init1)))
      r->vval[s->var_id] = 1, *changed = 1;
  }
}

/* Does a loop body leave its loop, or the kernel, under a condition that varies (so that
 * the loop may run a different number of times in different work-items)? under: a varying
 * condition encloses s; inner: s is inside a loop or switch nested in the body (its break
 * leaves that one). */
static int varying_exit(rctx *r, stmt *s, int under, int inner) {
  if (!s || charge(r, 1)) return 0;
  switch (s->kind) {
  case ST_BREAK:
  case ST_CONTINUE:
    return under && !inner;
  case ST_RETURN:
  case ST_GOTO:
    return under;
  default:
    break;
  }
  int u = under, in = inner;
  if (s->kind == ST_IF || s->kind == ST_SWITCH || s->kind == ST_FOR || s->kind == ST_WHILE ||
      s->kind == ST_DO)
    u = under || mentions_v(r, s->e0, s->e1);
  if (s->kind == ST_SWITCH || s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO) in = 1;
  if (varying_exit(r, s->body, u, in) || varying_exit(r, s->els, u, in)) return 1;
  for (size_t k = 0; k < s->n_items; k++)
    if (varying_exit(r, s->items[k], u, in)) return 1;
  return 0;
}

static void m_walk(rctx *r, stmt *s, int ctl, int *changed) {
  if (!s || charge(r, 1)) return;
  int inner = ctl;
  if (s->kind == ST_IF || s->kind == ST_SWITCH) inner = ctl || mentions_v(r, s->e0, s->e1);
  else if (s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO)
    inner = ctl || mentions_v(r, s->e0, s->e1) || varying_exit(r, s->body, 0, 0);
  if (s->kind == ST_DECL) m_decl(r, s->decl, ctl, changed);
  else if (s->kind == ST_EXPR) m_expr(r, s->e0, s->e1, ctl, changed);
  else if (s->kind != ST_BLOCK) m_expr(r, s->e0, s->e1, inner, changed);
  if (s->kind == ST_FOR) m_expr(r, s->s0, s->s1, inner, changed);
  if (s->init) m_walk(r, s->init, ctl, changed); /* runs once, before the condition */
  for (size_t k = 0; k < s->n_items; k++) m_walk(r, s->items[k], ctl, changed);
  m_walk(r, s->body, inner, changed);
  m_walk(r, s->els, inner, changed);
}

/* ---- snapshots of M taken before an offer_kill or request_fork ------------------------ */

/* Fills at[i - base] with the body variable whose declarator's name is token i, for the
 * declarations in statement s or below (declared names carry no symbol of their own). */
static void declared_names(const stmt *s, symbol **at, int base) {
  if (!s) return;
  for (size_t k = 0; s->kind == ST_DECL && k < s->decl->n; k++) {
    symbol *v = s->decl->d[k].sym;
    if (v && (v->kind == SYM_VAR || v->kind == SYM_TRANSMIT)) at[s->decl->d[k].name - base] = v;
  }
  declared_names(s->init, at, base);
  declared_names(s->body, at, base);
  declared_names(s->els, at, base);
  for (size_t k = 0; k < s->n_items; k++) declared_names(s->items[k], at, base);
}

/* Is token i a read of s (not the target of a plain assignment)? */
static int reads_at(const rctx *r, const symbol *s, int i, int a, int b) {
  symbol *v = body_var(r, i, a);
  if (v != s) return 0;
  int through_ptr;
  int j = after_selectors(r, v, i, b, &through_ptr);
  return !(j < b && is_p(&r->t[j], "=") && !through_ptr);
}

/* Does token range [a, b) hold a global barrier (either form)? */
static int barrier_between(const rctx *r, int a, int b) {
  for (int i = a; i < b; i++)
    if (r->t[i].kind == TK_IDENT && !r->t[i].sym &&
        (!strcmp(r->t[i].s, "global_barrier") || !strcmp(r->t[i].s, "resizing_global_barrier")))
      return 1;
  return 0;
}

/* The model's rule for kernels that call offer_kill or request_fork themselves: every group
 * takes its snapshot of M before any group can reach those calls (a global barrier in
 * between), or groups that read M after another group's kill was accepted see another M and
 * split the work differently. Warns, once per variable, about a variable computed from M
 * that is assigned before such a call with no global barrier between (in token order) and
 * read after it (later in the kernel, or again in a loop around the call). */
static void check_snapshots(rctx *r) {
  program *pg = r->pg;
  func *fn = r->fn;
  int b = fn->t1;
  symbol **names = NULL;
  for (size_t k = 0; k < fn->prims.n && !r->over; k++) {
    stmt *c = fn->prims.v[k];
    if (c->prim != PRIM_OFFER_KILL && c->prim != PRIM_REQUEST_FORK) continue;
    int pc = c->t0;
    /* each call scans the body before it, and for each snapshot what follows: bounded by
     * the kernel's checking work like the fork points' walks */
    if (charge(r, 4 * (size_t)(b - fn->lb))) break;
    if (!names) {
      names = calloc((size_t)(b - fn->lb) + 1, sizeof *names);
      if (!names) {
        r->failed = 1;
        return;
      }
      declared_names(fn->body, names, fn->lb);
    }
    for (int i = fn->lb; i < pc; i++) {
      /* an assignment to s at i, or the initialised declaration of s there (declared
       * names carry no symbol: their declarator does) */
      symbol *s = body_var(r, i, fn->lb);
      int assigns = 0;
      if (s) {
        int through_ptr;
        int j = after_selectors(r, s, i, b, &through_ptr);
        assigns = j < b && is_assign_op(&r->t[j]) && !through_ptr;
      } else {
        s = names[i - fn->lb];
        assigns = s && s->dr->init0 >= 0;
      }
      if (!assigns || !r->mval[s->var_id] || r->warned[s->var_id]) continue;
      if (charge(r, (size_t)(b - fn->lb)) || barrier_between(r, i, pc)) continue;
      /* a read after the call before a new snapshot (in token order) ... */
      int read = -1;
      for (int q = c->t1; q < b && read < 0; q++) {
        if (body_var(r, q, fn->lb) != s) continue;
        if (reads_at(r, s, q, fn->lb, b)) read = q;
        else break; /* assigned again first */
      }
      /* ... or, in a loop around the call, a read that the next iteration makes before it
       * assigns s again (s declared outside the loop) */
      int decl_at = s->dr ? s->dr->name : fn->lb;
      for (stmt *l = c->parent; l && read < 0; l = l->parent) {
        if (l->kind != ST_FOR && l->kind != ST_WHILE && l->kind != ST_DO) continue;
        if (decl_at >= l->t0) break; /* declared in this loop: a new variable each time */
        int end = i < l->t0 ? l->t1 : i;
        for (int q = l->t0; q < end && read < 0; q++)
          if (reads_at(r, s, q, fn->lb, b)) read = q;
      }
      if (read < 0) continue;
      r->warned[s->var_id] = 1;
      const char *prim = c->prim == PRIM_OFFER_KILL ? "offer_kill" : "request_fork";
      st_warn_at(pg->dg, &r->t[i],
                 "'%s' takes a snapshot of get_num_groups/get_global_size "
                 "before the %s() on line %d with no global_barrier() between, and it is read "
                 "after that call on line %d (kernel '%s'): a group that takes its snapshot "
                 "after another group's %s() changed M sees another M, and the groups split "
                 "the work differently; put a global_barrier() between the snapshot and the "
                 "first %s()",
                 s->name, prim, st_user_line(pg->dg, c->line, NULL),
                 st_user_line(pg->dg, r->t[read].line, NULL), fn->name, prim, prim);
      st_note_warn(pg->dg, &r->t[c->t0], "M may change at this %s()", prim);
    }
  }
  free(names);
}

static int check_kernel(program *pg, func *fn) {
  rctx r = {.pg = pg, .fn = fn, .t = pg->tl.t, .n = (size_t)fn->n_vars};
  size_t n = r.n ? r.n : 1;
  r.mval = calloc(n, 1);
  r.vval = calloc(n, 1);
  r.warned = calloc(n, 1);
  r.done = calloc(n, 1);
  r.pending = calloc(n, sizeof(int));
  int rc = -1;
  if (!r.mval || !r.vval || !r.warned || !r.done || !r.pending) goto out;
  /* a variable is computed from M if any assignment to it is: a few passes reach the
   * variables assigned through chains of others (bounded, so a long chain may be missed) */
  int changed = 1;
  for (int pass = 0; changed && pass < 16 && !r.over; pass++) {
    changed = 0;
    m_walk(&r, fn->body, 0, &changed);
  }
  rc = 0;
  check_snapshots(&r);
  if (r.failed) rc = -1;
  memset(r.warned, 0, n);
  for (size_t k = 0; k < fn->forks.n && rc == 0 && !r.over && !r.failed; k++) {
    r.fp = fn->forks.v[k];
    rc = check_fork(&r);
  }
  if (r.over) {
    st_warn(pg->dg, fn->line,
            "kernel '%s' is too large for the stitcher's rule checks (%zu "
            "fork points, %d variables): variables live across its fork points were not "
            "checked",
            fn->name, fn->forks.n, fn->n_vars);
    rc = 0;
  }
out:
  if (rc && !pg->dg->failed) st_error(pg->dg, fn->line, "out of memory");
  free(r.mval);
  free(r.vval);
  free(r.warned);
  free(r.done);
  free(r.pending);
  return rc;
}

int st_rules(program *pg) {
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    if (!fn->cooperative || !fn->prims.n || !fn->body) continue;
    if (check_kernel(pg, fn)) return -1;
  }
  return st_errors_end(pg->dg);
}
