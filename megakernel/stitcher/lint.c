/* lint.c: warnings about synchronisation between work-groups that is not portable, in
 * the code a cooperative kernel runs (its body and every helper it reaches). Owns two
 * checks: mem_fence/read_mem_fence/write_mem_fence on global memory (NVIDIA's OpenCL
 * compiles them too weakly to order memory between work-groups), and hand-made spin locks
 * (an atomic swap with constant operands inside a loop, or a call inside a loop of a helper
 * that makes one: a try-lock function), whose 1.2 atomics order no other memory. And it
 * finds the first use of OpenCL C 2.0 atomics (types, functions, memory orders and scopes),
 * which only the cl20 path compiles. Both name the portable calls of ck_cooperative.h instead. It also
 * owns the list of those calls' names, which user code may use but not declare. */
#include <string.h>

#include "internal.h"

static const char *const sync_api[] = {"device_fence_acquire",     "device_fence_release",
                                       "device_fence_acq_rel",     "device_load_acquire",
                                       "device_load_acquire_int",  "device_store_release",
                                       "device_store_release_int", "device_atomic_add",
                                       "device_atomic_sub",        "device_atomic_xchg",
                                       "device_atomic_cmpxchg",    "device_mutex_try_lock",
                                       "device_mutex_lock",        "device_mutex_unlock"};

int st_is_sync_api(const char *s) {
  for (size_t i = 0; i < sizeof sync_api / sizeof sync_api[0]; i++)
    if (!strcmp(s, sync_api[i])) return 1;
  return 0;
}

static int is_punct(const token *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->s, s) == 0;
}

static int in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(s, list[i])) return 1;
  return 0;
}

/* Token ranges [t0, t1) of the loops of a statement tree. */
static int collect_loops(program *pg, stmt *s, st_vec *out) {
  if (!s) return 0;
  if ((s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO) && st_vec_push(pg->ar, out, s))
    return -1;
  if (collect_loops(pg, s->init, out) || collect_loops(pg, s->body, out) ||
      collect_loops(pg, s->els, out))
    return -1;
  for (size_t i = 0; i < s->n_items; i++)
    if (collect_loops(pg, s->items[i], out)) return -1;
  return 0;
}

static int inside_loop(const st_vec *loops, int tok) {
  for (size_t i = 0; i < loops->n; i++) {
    const stmt *l = loops->v[i];
    if (tok >= l->t0 && tok < l->t1) return 1;
  }
  return 0;
}

/* A constant operand: an integer literal, optionally negated or parenthesised. */
static int constant_operand(const token *t, int a, int b) {
  while (a < b && (is_punct(&t[a], "(") || is_punct(&t[a], "-") || is_punct(&t[a], "+"))) a++;
  while (b > a && is_punct(&t[b - 1], ")")) b--;
  return b == a + 1 && t[a].kind == TK_NUMBER;
}

/* Does the pointer operand [a, b) name local memory (a local cast, a hoisted local array
 * of the kernel, or a parameter declared local)? */
static int local_operand(program *pg, func *fn, int a, int b) {
  token *t = pg->tl.t;
  for (int i = a; i < b; i++) {
    if (st_tok_is(&t[i], "local") || st_tok_is(&t[i], "__local")) return 1;
    if (t[i].kind != TK_IDENT) continue;
    for (size_t k = 0; k < fn->locals.n; k++) {
      hoisted_local *hl = fn->locals.v[k];
      if (!strcmp(t[hl->dr->name].s, t[i].s)) return 1;
    }
    for (size_t p = 0; p < fn->n_params; p++) {
      param *pm = &fn->params[p];
      if (pm->name < 0 || strcmp(t[pm->name].s, t[i].s)) continue;
      for (int q = pm->t0; q < pm->t1; q++)
        if (st_tok_is(&t[q], "local") || st_tok_is(&t[q], "__local")) return 1;
    }
  }
  return 0;
}

/* "cooperative kernel 'k'" or "'h' (reached from cooperative kernel 'k')". */
static const char *where(program *pg, func *fn, func *kernel) {
  if (fn == kernel) return st_fmt(pg->ar, "cooperative kernel '%s'", fn->name);
  return st_fmt(pg->ar, "'%s' (reached from cooperative kernel '%s')", fn->name, kernel->name);
}

/* The atomic swaps a spin lock is made of, and which of their operands (counted from 0, the
 * pointer) must all be constants for the call to look like one: every value operand of the
 * OpenCL 1.2 forms; the desired value of the OpenCL C 2.0 forms (their expected value is a
 * pointer to a variable). */
static const struct {
  const char *name;
  int first, last; /* operands that must be integer constants */
} swaps[] = {{"atomic_cmpxchg", 1, 2},
             {"atom_cmpxchg", 1, 2},
             {"atomic_xchg", 1, 1},
             {"atom_xchg", 1, 1},
             {"atomic_compare_exchange_strong", 2, 2},
             {"atomic_compare_exchange_weak", 2, 2},
             {"atomic_compare_exchange_strong_explicit", 2, 2},
             {"atomic_compare_exchange_weak_explicit", 2, 2},
             {"atomic_exchange", 1, 1},
             {"atomic_exchange_explicit", 1, 1}};

static int cl20_atomic_name(const char *s);

/* Why a spin lock made of swap `name` is not portable. */
static const char *lock_reason(const char *name) {
  if (cl20_atomic_name(name))
    return "OpenCL C 2.0 atomics order memory, but only the cl20 path has them (NVIDIA's "
           "OpenCL offers the cl12 path alone), and the lock spins without the back-off and "
           "fences the portable mutex has";
  return "the OpenCL 1.2 atomics order no other memory, so what one holder wrote can be seen "
         "stale by the next";
}

/* Is the call at token i (a name followed by its parentheses) an atomic swap with constant
 * operands on memory that is not local? */
static int lock_swap(program *pg, func *fn, int i) {
  token *t = pg->tl.t;
  int k0 = -1;
  for (size_t k = 0; k < sizeof swaps / sizeof swaps[0]; k++)
    if (!strcmp(t[i].s, swaps[k].name)) k0 = (int)k;
  if (k0 < 0) return 0;
  int lp = i + 1, rp = t[lp].match;
  if (rp < 0) return 0;
  /* operands: [lp+1, c0), [c0+1, c1), ... */
  int start = lp + 1, n = 0, constant = 1, ptr_local = 0;
  for (int k = lp + 1; k <= rp; k++) {
    if (k < rp && (is_punct(&t[k], "(") || is_punct(&t[k], "[") || is_punct(&t[k], "{"))) {
      k = t[k].match;
      continue;
    }
    if (k < rp && !is_punct(&t[k], ",")) continue;
    if (n == 0) ptr_local = local_operand(pg, fn, start, k);
    else if (n >= swaps[k0].first && n <= swaps[k0].last && !constant_operand(t, start, k))
      constant = 0;
    n++;
    start = k + 1;
  }
  return n > swaps[k0].last && constant && !ptr_local;
}

/* The first lock-like swap outside a loop whose result is read (a try-lock) that a call of
 * fn performs, in fn or in a
 * function it calls (memoized in fn->lock_tok: 0 not yet known, -1 none, else the token; a
 * recursive call counts as none), or -1. */
static func *definition(program *pg, func *fn);
static int lock_in(program *pg, func *fn, int depth) {
  if (fn->lb < 0) return -1;
  if (fn->lock_tok) return fn->lock_tok;
  if (depth > 64) return -1;
  fn->lock_tok = -1;
  token *t = pg->tl.t;
  st_vec loops = {0};
  if (collect_loops(pg, fn->body, &loops)) return -1;
  for (int i = fn->lb; i < fn->t1; i++) {
    if (t[i].kind != TK_IDENT || !is_punct(&t[i + 1], "(")) continue;
    /* one inside a loop of fn is a spin lock of its own, warned about there; one whose
     * result nobody reads (a statement of its own: an unlock) decides nothing */
    if (lock_swap(pg, fn, i)) {
      int rp = t[i + 1].match;
      int alone =
        i > 0 &&
        (is_punct(&t[i - 1], ";") || is_punct(&t[i - 1], "{") || is_punct(&t[i - 1], "}")) &&
        is_punct(&t[rp + 1], ";");
      if (inside_loop(&loops, i) || alone) continue;
      return fn->lock_tok = i;
    }
    symbol *s = st_lookup(pg, pg->fscope, t[i].s);
    if (s && s->kind == SYM_FUNC && s->fn) {
      func *c = definition(pg, s->fn);
      int at = c != fn ? lock_in(pg, c, depth + 1) : -1;
      if (at > 0) return fn->lock_tok = at;
    }
  }
  return -1;
}

/* Is s an OpenCL C 2.0 atomic type, function, memory order or scope? */
static int cl20_atomic_name(const char *s) {
  static const char *const types[] = {"atomic_int",
                                      "atomic_uint",
                                      "atomic_long",
                                      "atomic_ulong",
                                      "atomic_float",
                                      "atomic_double",
                                      "atomic_intptr_t",
                                      "atomic_uintptr_t",
                                      "atomic_size_t",
                                      "atomic_ptrdiff_t",
                                      "atomic_flag",
                                      "atomic_init",
                                      "atomic_work_item_fence",
                                      "atomic_store",
                                      "atomic_load",
                                      "atomic_exchange",
                                      "atomic_flag_test_and_set",
                                      "atomic_flag_clear"};
  if (in_list(s, types, sizeof types / sizeof types[0])) return 1;
  if (!strncmp(s, "atomic_compare_exchange_", 24) || !strncmp(s, "atomic_fetch_", 13)) return 1;
  size_t n = strlen(s);
  if (n > 9 && !strcmp(s + n - 9, "_explicit") && !strncmp(s, "atomic_", 7)) return 1;
  return !strncmp(s, "memory_order_", 13) || !strncmp(s, "memory_scope_", 13);
}

static int lint_function(program *pg, func *fn, func *kernel) {
  static const char *const fences[] = {"mem_fence", "read_mem_fence", "write_mem_fence"};
  token *t = pg->tl.t;
  st_vec loops = {0};
  if (collect_loops(pg, fn->body, &loops)) return -1;
  for (int i = fn->lb; i < fn->t1; i++) {
    if (t[i].kind != TK_IDENT || !is_punct(&t[i + 1], "(")) continue;
    int lp = i + 1, rp = t[lp].match;
    if (rp < 0) continue;
    if (in_list(t[i].s, fences, 3)) {
      int global = 0;
      for (int k = lp + 1; k < rp; k++) global |= st_tok_is(&t[k], "CLK_GLOBAL_MEM_FENCE");
      if (global)
        st_warn(pg->dg, t[i].line,
                "%s(CLK_GLOBAL_MEM_FENCE) in %s does not order global memory "
                "between work-groups on every device (NVIDIA's OpenCL compiles it too weakly); "
                "use device_fence_acquire(), device_fence_release() or device_fence_acq_rel() "
                "from ck_cooperative.h, or device_load_acquire/device_store_release/"
                "device_mutex_lock",
                t[i].s, where(pg, fn, kernel));
      continue;
    }
    if (!inside_loop(&loops, i)) continue;
    if (lock_swap(pg, fn, i)) {
      st_warn(pg->dg, t[i].line,
              "%s with constant operands in a loop in %s looks like a "
              "hand-made spin lock: %s; use device_mutex_lock() and device_mutex_unlock() from "
              "ck_cooperative.h",
              t[i].s, where(pg, fn, kernel), lock_reason(t[i].s));
      continue;
    }
    /* a helper that makes such a swap, called in a loop: the same lock, written as a
     * try-lock function */
    symbol *cs = st_lookup(pg, pg->fscope, t[i].s);
    func *callee = cs && cs->kind == SYM_FUNC && cs->fn ? definition(pg, cs->fn) : NULL;
    int at = callee && callee != fn ? lock_in(pg, callee, 0) : -1;
    if (at > 0)
      st_warn_at(pg->dg, &t[i],
                 "'%s', called in a loop in %s, makes an %s with constant "
                 "operands (line %d): a hand-made spin lock; %s; use device_mutex_lock() and "
                 "device_mutex_unlock() from ck_cooperative.h",
                 t[i].s, where(pg, fn, kernel), t[at].s, st_user_line(pg->dg, t[at].line, NULL),
                 lock_reason(t[at].s));
  }
  return 0;
}

/* The definition of fn, if there is one. */
static func *definition(program *pg, func *fn) {
  symbol *s = st_lookup(pg, pg->fscope, fn->name);
  return s && s->kind == SYM_FUNC && s->fn ? s->fn : fn;
}

/* Lints kernel and every function it reaches that no earlier kernel reached, each once, in
 * depth-first preorder. The walk keeps its own stack (no recursion, however long the call
 * chain). */
static int lint_reachable(program *pg, func *kernel) {
  st_vec stack = {0}, next = {0}; /* a function, and the index of its next call to follow */
  func *fn = definition(pg, kernel);
  if (fn->lb < 0 || fn->linted) return 0;
  fn->linted = 1;
  if (lint_function(pg, fn, kernel) || st_vec_push(pg->ar, &stack, fn) ||
      st_vec_push(pg->ar, &next, (void *)0))
    return -1;
  while (stack.n) {
    func *top = stack.v[stack.n - 1];
    size_t i = (size_t)next.v[next.n - 1];
    if (i == top->calls.n) {
      stack.n--;
      next.n--;
      continue;
    }
    next.v[next.n - 1] = (void *)(i + 1);
    func *c = definition(pg, top->calls.v[i]);
    if (c->lb < 0 || c->linted) continue;
    c->linted = 1;
    if (lint_function(pg, c, kernel) || st_vec_push(pg->ar, &stack, c) ||
        st_vec_push(pg->ar, &next, (void *)0))
      return -1;
  }
  return 0;
}

int st_find_cl20_atomics(program *pg, char **where_out, const char **name_out) {
  *where_out = NULL;
  *name_out = NULL;
  token *t = pg->tl.t;
  for (size_t i = 0; i < pg->tl.n; i++) {
    if (t[i].kind != TK_IDENT || !cl20_atomic_name(t[i].s)) continue;
    const char *file = NULL;
    int line = st_user_line(pg->dg, t[i].line, &file);
    char *w = st_fmt(pg->ar, "%s:%d:%d", file, line, t[i].col + 1);
    if (!w) return -1;
    *where_out = w;
    *name_out = t[i].s;
    return 0;
  }
  return 0;
}

int st_lint(program *pg) {
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    if (fn->cooperative && lint_reachable(pg, fn))
      return st_error(pg->dg, fn->line, "out of memory");
  }
  return 0;
}
