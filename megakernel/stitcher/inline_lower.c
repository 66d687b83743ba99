/* inline_lower.c: calls of helpers with fork points where an expression stands. Owns the
 * lowering of a statement whose expression (an initialiser, an operand, a condition, a
 * loop header, a return value) calls a helper that inline.c inlines, other than the three
 * statement forms inline.c writes directly: each such call becomes a copy of the helper
 * written before the statement, and the statement reads the copy's result variable
 * ck_iN_ret where the call stood. The copies come in an order that C allows:
 *
 *   - operands that C leaves unsequenced (those of +, of a call's arguments, of '='):
 *     left to right, each call after the calls in its own arguments;
 *   - a && b, a || b: b's copies run only when a lets b be evaluated; a flag ck_i0_testK holds
 *     the outcome and stands for the whole operation;
 *   - a, b: a is evaluated first, as a statement of its own;
 *   - the branches of ?: and the operand of sizeof are not evaluated by every evaluation
 *     of their expression, so a call there is an error that says how to write it.
 *
 * Conditions move into the loop's body, so a copy (and its fork points) runs once per
 * test, as the call did:
 *
 *   while (c) S             ->  while (1) { <copies of c> if (!(c')) break; S }
 *   do S while (c);         ->  { int ck_i0_testK = 0; for (;; ck_i0_testK = 1) {
 *                                   if (ck_i0_testK) { <copies of c> if (!(c')) break; } S } }
 *   for (i; c; s) S         ->  { i' for (;; s) { <copies of c> if (!(c')) break; S } }
 *   with a call in s        ->  { i' int ck_i0_testK = 0; for (;; ck_i0_testK = 1) {
 *                                   if (ck_i0_testK) { <copies of s> s'; } <c as above> S } }
 *   if (c) S else T         ->  { <copies of c> if (c') S else T }   (and switch alike)
 *
 * `continue` in S reaches the test (and the step) as in C, `break` leaves the loop. A
 * stand-in (a result or a flag) that a later call's copy separates from its read, as the
 * first result in h(a) + h(b), is declared transmit: a group forked in the later copy
 * needs it, so, like every value a forked group reads, it must be the same in every
 * work-item of the group. The other stand-ins are assigned before every read that follows
 * a fork point, so the rule checks never ask for them. Their names are in the ck_i<N>_
 * family of inline.c's copies (instance 0, which no copy has), the names the second pass
 * accepts. A statement with none of these calls is written exactly as before. */
#include <string.h>

#include "inline_internal.h"

static int is_p(const token *t, const char *s) { return t->kind == TK_PUNCT && !strcmp(t->s, s); }
static int is_id(const token *t, const char *s) { return t->kind == TK_IDENT && !strcmp(t->s, s); }

static int opens(const token *t) { return is_p(t, "(") || is_p(t, "[") || is_p(t, "{"); }

static int is_assign(const token *t) {
  static const char *const ops[] = {"=",  "+=", "-=", "*=",  "/=",  "%=",
                                    "&=", "|=", "^=", "<<=", ">>=", NULL};
  for (int k = 0; ops[k]; k++)
    if (is_p(t, ops[k])) return 1;
  return 0;
}

/* The first token in [a, b) that calls a helper with fork points, or -1. */
static int first_call(inl *x, int a, int b) {
  for (int i = a; i < b; i++)
    if (st_inl_callee(x, i)) return i;
  return -1;
}

/* Tokens [a, b) are written as text (the residual expression's stand-ins). */
static void stand_in(inl *x, int a, int b, const char *text) {
  x->sub_end[a] = b;
  x->sub_txt[a] = text;
}

/* Writes [a, b) as the lowering left it, then forgets its stand-ins. */
static int residual(inl *x, ictx *c, int a, int b) {
  int r = st_inl_emit_range(x, c, a, b, 0);
  for (int i = a; i < b; i++) x->sub_end[i] = 0;
  return r;
}

static const char *flag_name(inl *x, int k) { return st_fmt(x->pg->ar, "ck_i0_test%d", k); }

static int not_evaluated(inl *x, ictx *c, int call, const char *where, const char *instead) {
  func *h = st_inl_callee(x, call);
  return st_error_at(x->pg->dg, &x->t[call],
                     "call of '%s' in %s in '%s': '%s' is inlined because it reaches %s, and "
                     "the stitcher places the copy before the statement, which would run it "
                     "when C does not; %s",
                     h->name, where, c->fn ? c->fn->name : "?", h->name, st_inl_why(x, h), instead);
}

static int lower(inl *x, ictx *c, int a, int b, int list);

/* lower() for a range whose residual is written right after: the stand-ins it makes are
 * read at b, so only a call before b separates them from their read. */
static int lower_read(inl *x, ictx *c, int a, int b, int list) {
  int saved = x->read_at;
  x->read_at = b;
  int r = lower(x, c, a, b, list);
  x->read_at = saved;
  return r;
}

/* [a, b) split at its top-level commas. list: the commas separate arguments or
 * initialisers (each part lowered, in order); otherwise they are comma operators: the
 * parts before the last one that calls a helper become statements of their own, in order,
 * and drop out of the residual expression. Returns 1 when [a, b) has no top-level comma. */
static int lower_commas(inl *x, ictx *c, int a, int b, int list) {
  token *t = x->t;
  int commas = 0, last = a;
  for (int p = a, i = a; i <= b; i++) {
    if (i < b && opens(&t[i])) {
      i = t[i].match;
      continue;
    }
    if (i < b && !is_p(&t[i], ",")) continue;
    commas += i < b;
    if (first_call(x, p, i) >= 0) last = p;
    p = i + 1;
  }
  if (!commas) return 1;
  for (int p = a, i = a; i <= b; i++) {
    if (i < b && opens(&t[i])) {
      i = t[i].match;
      continue;
    }
    if (i < b && !is_p(&t[i], ",")) continue;
    if ((!list && p < last ? lower_read : lower)(x, c, p, i, 0)) return -1;
    if (!list && p < last) {
      em_gen(&x->e, "(void)(");
      if (residual(x, c, p, i)) return -1;
      em_gen(&x->e, ");");
    }
    p = i + 1;
  }
  if (!list && last > a) stand_in(x, a, last, "");
  return 0;
}

/* The last top-level token of [a, b) that is the punctuator op, or -1. */
static int last_top(inl *x, int a, int b, const char *op) {
  int at = -1;
  for (int i = a; i < b; i++) {
    if (opens(&x->t[i])) i = x->t[i].match;
    else if (is_p(&x->t[i], op)) at = i;
  }
  return at;
}

/* a && b, a || b (op at token op): b's copies inside `if (flag)`. The flag is transmit
 * when a later call's fork point comes before its read. */
static int lower_logical(inl *x, ictx *c, int a, int op, int b) {
  emitter *e = &x->e;
  if (first_call(x, op + 1, b) < 0) return lower(x, c, a, op, 0);
  int k = ++x->n_low, tx = first_call(x, b, x->read_at) >= 0;
  const char *flag = flag_name(x, k);
  if (!flag || lower_read(x, c, a, op, 0)) return -1;
  em_genf(e, "%sint %s = (", tx ? "transmit " : "", flag);
  if (residual(x, c, a, op)) return -1;
  em_genf(e, ") != 0; if (%s%s) {", is_p(&x->t[op], "||") ? "!" : "", flag);
  if (lower_read(x, c, op + 1, b, 0)) return -1;
  em_genf(e, "%s = (", flag);
  if (residual(x, c, op + 1, b)) return -1;
  em_gen(e, ") != 0; }");
  stand_in(x, a, b, flag);
  return 0;
}

/* Writes, before the statement, the copies of the helpers that [a, b) calls, in an order C
 * allows, and leaves stand-ins for their results (see the file's comment); list: [a, b)
 * is a list of arguments or initialisers. Returns -1 after reporting an error. */
static int lower(inl *x, ictx *c, int a, int b, int list) {
  token *t = x->t;
  if (first_call(x, a, b) < 0) return 0;
  int r = lower_commas(x, c, a, b, list);
  if (r <= 0) return r;
  for (int i = a; i < b; i++) { /* '=' and its kin: the operands are unsequenced */
    if (opens(&t[i])) i = t[i].match;
    else if (is_assign(&t[i])) return lower(x, c, a, i, 0) || lower(x, c, i + 1, b, 0) ? -1 : 0;
  }
  int q = -1;
  for (int i = a; i < b && q < 0; i++) { /* the first top-level '?': the outermost ?: */
    if (opens(&t[i])) i = t[i].match;
    else if (is_p(&t[i], "?")) q = i;
  }
  if (q >= 0) {
    int k = first_call(x, q + 1, b);
    if (k >= 0)
      return not_evaluated(x, c, k, "a branch of '?:'",
                           "write the choice with if/else, or call it before the '?:' "
                           "into a variable");
    return lower(x, c, a, q, 0);
  }
  int op = last_top(x, a, b, "||");
  if (op < 0) op = last_top(x, a, b, "&&");
  if (op >= 0) return lower_logical(x, c, a, op, b);
  for (int i = a; i < b; i++) {
    if (st_inl_callee(x, i)) {
      int m = t[i + 1].match, is_void, tx = first_call(x, m + 1, x->read_at) >= 0;
      if (lower_read(x, c, i + 2, m, 1)) return -1; /* the arguments are read at the copy */
      int n = st_inl_emit_copy(x, c, i, t[i].line, tx, &is_void);
      if (n < 0) return -1;
      for (int j = i + 2; j < m; j++) x->sub_end[j] = 0; /* written into the copy */
      const char *ret = is_void ? "((void)0)" : st_fmt(x->pg->ar, "ck_i%d_ret", n);
      if (!ret) return -1;
      stand_in(x, i, m + 1, ret);
      i = m;
      continue;
    }
    if ((is_id(&t[i], "sizeof") || is_id(&t[i], "vec_step")) && i + 1 < b && opens(&t[i + 1])) {
      int k = first_call(x, i + 2, t[i + 1].match);
      if (k >= 0)
        return not_evaluated(x, c, k, "the operand of sizeof or vec_step",
                             "take the size of the result's type instead");
    }
    if (!opens(&t[i])) continue;
    int m = t[i].match;
    int args = is_p(&t[i], "{") || (is_p(&t[i], "(") && i > a && t[i - 1].kind == TK_IDENT);
    if (lower(x, c, i + 1, m, args)) return -1;
    i = m;
  }
  return 0;
}

/* ---- which statements are lowered ------------------------------------------------------ */

static int count_calls(inl *x, int a, int b, int mark) {
  int n = 0;
  for (int i = a; a >= 0 && i < b; i++) {
    if (!st_inl_callee(x, i)) continue;
    n++;
    if (mark) x->acc[i] = 1;
  }
  return n;
}

static int decl_calls(inl *x, const decl *d, int mark) {
  int n = 0;
  for (size_t k = 0; !d->is_typedef && k < d->n; k++)
    if (d->d[k].init0 >= 0) n += count_calls(x, d->d[k].init0, d->d[k].init1, mark);
  return n;
}

/* Calls in s's own expressions (not in the statements it contains). */
static int own_calls(inl *x, stmt *s, int mark) {
  switch (s->kind) {
  case ST_DECL:
    return decl_calls(x, s->decl, mark);
  case ST_EXPR:
  case ST_RETURN:
  case ST_IF:
  case ST_SWITCH:
  case ST_WHILE:
  case ST_DO:
    return count_calls(x, s->e0, s->e1, mark);
  case ST_FOR: {
    int n = count_calls(x, s->e0, s->e1, mark) + count_calls(x, s->s0, s->s1, mark);
    if (s->init && s->init->kind == ST_DECL) n += decl_calls(x, s->init->decl, mark);
    else if (s->init) n += count_calls(x, s->init->e0, s->init->e1, mark);
    return n;
  }
  default:
    return 0;
  }
}

int st_lower_site(inl *x, func *fn, stmt *s) {
  (void)fn;
  if (s->parent && s->parent->kind == ST_FOR && s->parent->init == s) return 0; /* the for's */
  int n = own_calls(x, s, 0);
  if (!n) return 0;
  if (n == 1 && (s->kind == ST_EXPR || s->kind == ST_DECL) && st_inl_site_call(x, s) >= 0)
    return 0; /* a form inline.c writes directly */
  own_calls(x, s, 1);
  return 1;
}

/* ---- writing the lowered statement ----------------------------------------------------- */

/* The first token of [a, b) naming one of the declarators d->d[from..], or -1. */
static int names_later(inl *x, decl *d, size_t from, int a, int b) {
  for (int i = a; i < b; i++) {
    if (x->t[i].kind != TK_IDENT) continue;
    if (i > a && (is_p(&x->t[i - 1], ".") || is_p(&x->t[i - 1], "->"))) continue;
    for (size_t k = from; k < d->n; k++)
      if (!strcmp(x->t[i].s, x->t[d->d[k].name].s)) return i;
  }
  return -1;
}

/* A declaration (for_init: a for's, without its ';'). With several declarators it stays
 * one declaration, so that transmit, declared or inferred, qualifies all of them as the
 * user's declaration does: the declarators before the first that calls a helper keep
 * their initialisers; from that one on, each initialiser becomes an assignment after the
 * declaration, its copies first, in declarator order:
 *
 *   T a = e, b = h(a), c = f;  ->  T a = e, b, c; <copies> b = ck_iN_ret; c = f;
 *
 * Those initialisers then see the whole group declared, so one that names a later
 * declarator (which C's scope would not show it yet), a const and an array with an
 * initialiser (neither can be assigned) are errors. */
static int lower_decl(inl *x, ictx *c, stmt *s, int for_init) {
  decl *d = s->decl;
  if (d->n == 1) {
    declarator *dr = &d->d[0];
    if (lower_read(x, c, dr->init0, dr->init1, 0) || st_inl_emit_range(x, c, s->t0, dr->init0, 0) ||
        residual(x, c, dr->init0, dr->init1))
      return -1;
    if (for_init) em_gen(&x->e, ";");
    return for_init ? 0 : st_inl_emit_range(x, c, dr->init1, s->t1, 0);
  }
  size_t first = 0;
  while (first < d->n &&
         (d->d[first].init0 < 0 || first_call(x, d->d[first].init0, d->d[first].init1) < 0))
    first++;
  int call = first_call(x, s->t0, s->t1);
  func *h = st_inl_callee(x, call);
  const char *fn = c->fn ? c->fn->name : "?";
  for (size_t k = 0; k < d->n; k++) {
    declarator *o = &d->d[k];
    /* a type written where a declarator stands is not C; the declarator is written on
     * its own after the split, where it would be read as one */
    for (int j = o->d0; j < o->d1; j++)
      if (is_p(&x->t[j], "{") || is_id(&x->t[j], "enum") || is_id(&x->t[j], "struct") ||
          is_id(&x->t[j], "union"))
        return st_error_at(x->pg->dg, &x->t[j],
                           "'%s' where a declarator of the declaration stands, in '%s': "
                           "expected a variable's name",
                           x->t[j].s, fn);
    if (k < first || o->init0 < 0) continue;
    const char *name = x->t[o->name].s;
    int cnst = d->is_const && !o->is_ptr;
    for (int j = o->d0; j < o->name; j++)
      if (!strcmp(x->t[j].s, "const")) cnst = 1;
    if (cnst || o->is_array)
      return st_error_at(x->pg->dg, &x->t[o->name],
                         "'%s' is initialised in a declaration that calls '%s' before it, in "
                         "'%s': '%s' is inlined because it reaches %s, and the stitcher "
                         "assigns such initialisers after the declaration, which %s cannot "
                         "take; declare '%s' in a declaration of its own",
                         name, h->name, fn, h->name, st_inl_why(x, h),
                         o->is_array ? "an array" : "a const", name);
    int later = names_later(x, d, k + 1, o->init0, o->init1);
    if (later >= 0)
      return st_error_at(x->pg->dg, &x->t[later],
                         "the initialiser of '%s' names '%s', which the same declaration "
                         "declares after it, in '%s': the declaration calls '%s', which the "
                         "stitcher inlines, and it declares the whole group before the "
                         "initialisers run; rename one of them",
                         name, x->t[later].s, fn, h->name);
  }
  /* the declaration: specifiers, then the declarators, initialised up to the first call */
  if (st_inl_emit_range(x, c, d->s0, d->s1, 0)) return -1;
  for (size_t k = 0; k < d->n; k++) {
    declarator *o = &d->d[k];
    if (k) em_gen(&x->e, ",");
    if (k < first && o->init0 >= 0) {
      if (st_inl_emit_range(x, c, o->d0, o->init1, 0)) return -1;
    } else if (st_inl_emit_range(x, c, o->d0, o->d1, 0)) {
      return -1;
    }
  }
  em_gen(&x->e, ";");
  /* then the later initialisers, in order, each after its copies */
  for (size_t k = first; k < d->n; k++) {
    declarator *o = &d->d[k];
    if (o->init0 < 0) continue;
    if (lower_read(x, c, o->init0, o->init1, 0) || st_inl_emit_range(x, c, o->name, o->name + 1, 0))
      return -1;
    em_gen(&x->e, "=");
    if (residual(x, c, o->init0, o->init1)) return -1;
    em_gen(&x->e, ";");
  }
  return 0;
}

/* `if (!(c')) break;` after c's copies; nothing for an empty condition. */
static int test_or_break(inl *x, ictx *c, int a, int b) {
  if (b <= a) return 0;
  if (lower_read(x, c, a, b, 0)) return -1;
  em_gen(&x->e, "if (!(");
  if (residual(x, c, a, b)) return -1;
  em_gen(&x->e, ")) break;");
  return 0;
}

static int lower_for(inl *x, ictx *c, stmt *s) {
  emitter *e = &x->e;
  em_gen(e, "{");
  if (s->init && s->init->kind == ST_DECL) {
    if (lower_decl(x, c, s->init, 1)) return -1;
  } else if (s->init) {
    if (lower_read(x, c, s->init->e0, s->init->e1, 0) || residual(x, c, s->init->e0, s->init->e1))
      return -1;
    em_gen(e, ";");
  }
  int in_test = first_call(x, s->e0, s->e1) >= 0, in_step = first_call(x, s->s0, s->s1) >= 0;
  if (!in_test && !in_step) { /* only the init called: the loop stays as it was */
    if (st_inl_emit_range(x, c, s->attr0, s->attr1, 0)) return -1;
    em_gen(e, "for (");
    if (st_inl_emit_range(x, c, s->semi1, s->t1, 1)) return -1;
    em_gen(e, "}");
    return 0;
  }
  const char *flag = NULL;
  if (in_step) {
    flag = flag_name(x, ++x->n_low);
    if (!flag) return -1;
    em_genf(e, "int %s = 0;", flag);
  }
  if (st_inl_emit_range(x, c, s->attr0, s->attr1, 0)) return -1;
  if (in_step) {
    em_genf(e, "for (;; %s = 1) { if (%s) {", flag, flag);
    if (lower_read(x, c, s->s0, s->s1, 0) || residual(x, c, s->s0, s->s1)) return -1;
    em_gen(e, "; }");
  } else {
    em_gen(e, "for (;;");
    if (st_inl_emit_range(x, c, s->s0, s->s1, 0)) return -1;
    em_gen(e, ") {");
  }
  if (test_or_break(x, c, s->e0, s->e1) || st_inl_emit_range(x, c, s->body->t0, s->body->t1, 1))
    return -1;
  em_gen(e, "} }");
  return 0;
}

static int lower_return(inl *x, ictx *c, stmt *s) {
  emitter *e = &x->e;
  em_gen(e, "{");
  if (lower_read(x, c, s->e0, s->e1, 0)) return -1;
  if (!c->inst) { /* a kernel's return: its value is void */
    em_gen(e, "(void)(");
    if (residual(x, c, s->e0, s->e1)) return -1;
    em_gen(e, "); return; }");
    return 0;
  }
  stmt *body = c->fn->body;
  int last = body->n_items && body->items[body->n_items - 1] == s;
  em_genf(e, "ck_i%d_ret = (", c->inst);
  if (residual(x, c, s->e0, s->e1)) return -1;
  em_gen(e, ");");
  if (!last) {
    em_genf(e, "goto ck_i%d_end;", c->inst);
    c->need_end = 1;
  }
  em_gen(e, "}");
  return 0;
}

int st_lower_emit(inl *x, ictx *c, stmt *s) {
  emitter *e = &x->e;
  em_sync(e, s->line);
  switch (s->kind) {
  case ST_DECL:
    return lower_decl(x, c, s, 0);
  case ST_EXPR:
    em_gen(e, "{");
    if (lower_read(x, c, s->e0, s->e1, 0) || residual(x, c, s->e0, s->e1)) return -1;
    em_gen(e, "; }");
    return 0;
  case ST_RETURN:
    return lower_return(x, c, s);
  case ST_IF:
  case ST_SWITCH:
    em_gen(e, "{");
    if (lower_read(x, c, s->e0, s->e1, 0) || st_inl_emit_range(x, c, s->t0, s->e0, 0) ||
        residual(x, c, s->e0, s->e1) || st_inl_emit_range(x, c, s->e1, s->t1, 1))
      return -1;
    em_gen(e, "}");
    return 0;
  case ST_WHILE:
    if (st_inl_emit_range(x, c, s->attr0, s->attr1, 0)) return -1;
    em_gen(e, "while (1) {");
    if (test_or_break(x, c, s->e0, s->e1) || st_inl_emit_range(x, c, s->body->t0, s->body->t1, 1))
      return -1;
    em_gen(e, "}");
    return 0;
  case ST_DO: {
    const char *flag = flag_name(x, ++x->n_low);
    if (!flag) return -1;
    em_genf(e, "{ int %s = 0;", flag);
    if (st_inl_emit_range(x, c, s->attr0, s->attr1, 0)) return -1;
    em_genf(e, "for (;; %s = 1) { if (%s) {", flag, flag);
    if (test_or_break(x, c, s->e0, s->e1)) return -1;
    em_gen(e, "}");
    if (st_inl_emit_range(x, c, s->body->t0, s->body->t1, 1)) return -1;
    em_gen(e, "} }");
    return 0;
  }
  case ST_FOR:
    return lower_for(x, c, s);
  default:
    return st_error_at(x->pg->dg, &x->t[s->t0], "internal error: no lowering for this statement");
  }
}
