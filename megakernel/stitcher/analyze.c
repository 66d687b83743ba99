/* analyze.c: whole-program checks after parsing. Owns the rules on where primitives may
 * appear (cooperative kernels only; global_barrier also in helpers those reach), the
 * restrictions next to fork points (no switch around them, no goto/labels, no conditional
 * preprocessor directives in the kernel), each fork point's outermost enclosing loop, the
 * call graph reachability of global_barrier, and the cooperative-name list. */
#include <string.h>

#include "internal.h"

static const char *prim_name(prim_kind k) {
  switch (k) {
  case PRIM_OFFER_KILL:
    return "offer_kill";
  case PRIM_REQUEST_FORK:
    return "request_fork";
  case PRIM_GLOBAL_BARRIER:
    return "global_barrier";
  case PRIM_RESIZING_BARRIER:
    return "resizing_global_barrier";
  default:
    return "?";
  }
}

static int is_loop(const stmt *s) {
  return s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO;
}

static int check_prims(program *pg, func *fn) {
  for (size_t k = 0; k < fn->prims.n; k++) {
    stmt *st = fn->prims.v[k];
    const char *p = prim_name(st->prim);
    if (!fn->is_kernel) {
      if (st->prim == PRIM_GLOBAL_BARRIER) {
        fn->uses_gb = 1;
        continue;
      }
      return st_error(pg->dg, st->line,
                      "%s() in helper function '%s': offer_kill, "
                      "request_fork and resizing_global_barrier may only be called in the body "
                      "of a cooperative kernel",
                      p, fn->name);
    }
    if (!fn->cooperative)
      return st_error(pg->dg, st->line,
                      "%s() in kernel '%s', which is not cooperative (list it "
                      "among the cooperative kernels)",
                      p, fn->name);
    if (st->prim == PRIM_GLOBAL_BARRIER) fn->uses_gb = 1;
  }
  return 0;
}

static int check_forks(program *pg, func *fn) {
  if (fn->forks.n == 0) return 0;
  fork_point *f0 = fn->forks.v[0];
  const char *p0 = prim_name(f0->st->prim);
  stmt *g = NULL; /* the first goto or label that inline.c did not write */
  for (size_t k = 0; k < fn->gotos.n && !g; k++) {
    stmt *s = fn->gotos.v[k];
    const token *name = &pg->tl.t[s->kind == ST_GOTO ? s->kw + 1 : s->kw];
    if (!pg->inlined || !st_inline_name(name->s)) g = s;
  }
  if (g) {
    return st_error(pg->dg, g->line,
                    "%s in cooperative kernel '%s', which has fork points "
                    "(%s() on line %d): goto and labels cannot be combined with fork points",
                    g->kind == ST_GOTO ? "goto" : "a label", fn->name, p0,
                    st_user_line(pg->dg, f0->st->line, NULL));
  }
  if (fn->cond_pp.n) {
    stmt *d = fn->cond_pp.v[0];
    return st_error(pg->dg, d->line,
                    "conditional preprocessor directive inside cooperative "
                    "kernel '%s', which has fork points (%s() on line %d): move the #if "
                    "outside the kernel",
                    fn->name, p0, st_user_line(pg->dg, f0->st->line, NULL));
  }
  for (size_t k = 0; k < fn->forks.n; k++) {
    fork_point *fp = fn->forks.v[k];
    const char *p = prim_name(fp->st->prim);
    for (stmt *a = fp->st->parent; a; a = a->parent) {
      if (a->kind == ST_SWITCH || a->kind == ST_CASE || a->kind == ST_DEFAULT) {
        stmt *sw = a;
        while (sw->kind != ST_SWITCH && sw->parent) sw = sw->parent;
        return st_error(pg->dg, fp->st->line,
                        "%s() inside a switch statement (line %d) is not "
                        "supported in kernel '%s'; move it out of the switch",
                        p, st_user_line(pg->dg, sw->line, NULL), fn->name);
      }
      if (is_loop(a)) fp->outer_loop = a;
    }
    if (fp->outer_loop && st_vec_push(pg->ar, &fp->outer_loop->peeled, fp))
      return st_error(pg->dg, fp->st->line, "out of memory");
  }
  return 0;
}

/* The definition a call reaches (calls may have been resolved to a prototype). */
static func *definition(program *pg, func *c) {
  symbol *s = st_lookup(pg, pg->fscope, c->name);
  return s && s->kind == SYM_FUNC && s->fn ? s->fn : c;
}

/* Marks reaches_gb on every function that uses global_barrier or calls, transitively, one
 * that does: a walk from those functions along reversed call edges, each function and each
 * call once (no recursion, linear in the size of the call graph). */
static int mark_gb_reach(program *pg) {
  st_vec work = {0};
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    for (size_t m = 0; m < fn->calls.n; m++) {
      func *c = definition(pg, fn->calls.v[m]);
      if (st_vec_push(pg->ar, &c->callers, fn)) return -1;
    }
    if (fn->uses_gb && !fn->reaches_gb) {
      fn->reaches_gb = 1;
      if (st_vec_push(pg->ar, &work, fn)) return -1;
    }
  }
  while (work.n) {
    func *fn = work.v[--work.n];
    for (size_t m = 0; m < fn->callers.n; m++) {
      func *caller = fn->callers.v[m];
      if (caller->reaches_gb) continue;
      caller->reaches_gb = 1;
      if (st_vec_push(pg->ar, &work, caller)) return -1;
    }
  }
  return 0;
}

/* The first function fn calls that uses global_barrier or reaches one that does, or NULL. */
static func *gb_callee(program *pg, func *fn) {
  for (size_t k = 0; k < fn->calls.n; k++) {
    func *c = definition(pg, fn->calls.v[k]);
    if (c->reaches_gb) return c;
  }
  return NULL;
}

int st_analyze(program *pg) {
  for (size_t k = 0; k < pg->funcs.n; k++) {
    func *fn = pg->funcs.v[k];
    if (fn->lb < 0) continue;
    if (check_prims(pg, fn) || check_forks(pg, fn)) return -1;
  }
  if (mark_gb_reach(pg)) return st_error(pg->dg, 1, "out of memory");
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    if (fn->cooperative) continue;
    func *c = gb_callee(pg, fn);
    if (c)
      return st_error(pg->dg, fn->line,
                      "kernel '%s' is not cooperative but calls '%s', which "
                      "uses global_barrier()",
                      fn->name, c->name);
  }
  for (size_t k = 0; k < pg->n_coop; k++) {
    const char *n = pg->coop[k];
    symbol *s = n ? st_lookup(pg, pg->fscope, n) : NULL;
    if (!s || s->kind != SYM_FUNC || s->fn->lb < 0)
      return st_error(pg->dg, 1, "cooperative kernel '%s' is not defined in this program",
                      n ? n : "(null)");
    if (!s->fn->is_kernel)
      return st_error(pg->dg, s->fn->line,
                      "'%s' is listed as a cooperative kernel but is not "
                      "a kernel",
                      n);
  }
  return 0;
}
