/* resolve.c: identifier rewriting. Inside expression ranges of function bodies it maps
 * get_group_id/get_num_groups/get_global_id/get_global_size to the ck_ versions with the
 * context argument, adds ck_ctx to calls of user functions, redirects hoisted local
 * variables to (ck_loc->field), and rejects primitives used inside expressions. It applies
 * the same rewriting to the bodies of #define directives and rejects primitives there. */
#include <ctype.h>
#include <string.h>

#include "internal.h"

static const struct {
  const char *name;
  prim_kind k;
} prims[] = {{"offer_kill", PRIM_OFFER_KILL},
             {"request_fork", PRIM_REQUEST_FORK},
             {"global_barrier", PRIM_GLOBAL_BARRIER},
             {"resizing_global_barrier", PRIM_RESIZING_BARRIER}};

static const struct {
  const char *from, *to;
} id_funcs[] = {{"get_group_id", "ck_get_group_id"},
                {"get_num_groups", "ck_get_num_groups"},
                {"get_global_id", "ck_get_global_id"},
                {"get_global_size", "ck_get_global_size"}};

/* Names the generated code binds where user code could see them. Other ck_ names may be
 * used (the runtime's prelude functions, e.g. its portable atomics); none may be declared. */
static int generated_name(const char *s) {
  static const char *const exact[] = {"ck_ctx",      "ck_loc", "ck_resume",   "ck_tx_in",
                                      "ck_tx",       "ck_txp", "ck_dispatch", "ck_locals_t",
                                      "ck_tx_any_t", "ck_wg_t"};
  static const char *const prefix[] = {"ck_pass", "ck_kernel_", "ck_locals_", "ck_tx_"};
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
    if (!strcmp(s, exact[i])) return 1;
  for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
    if (!strncmp(s, prefix[i], strlen(prefix[i]))) return 1;
  return 0;
}

int st_is_primitive(const char *s, prim_kind *k) {
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
    if (!strcmp(s, prims[i].name)) {
      if (k) *k = prims[i].k;
      return 1;
    }
  return 0;
}

static const char *id_func(const char *s) {
  for (size_t i = 0; i < sizeof id_funcs / sizeof id_funcs[0]; i++)
    if (!strcmp(s, id_funcs[i].from)) return id_funcs[i].to;
  return NULL;
}

static int unsupported_id(const char *s) {
  return !strcmp(s, "get_global_linear_id") || !strcmp(s, "get_group_linear_id") ||
         !strcmp(s, "get_enqueued_num_groups");
}

static int is_punct(const token *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->s, s) == 0;
}

/* Does parameter p (tokens of fn) point to constant memory? */
static int constant_pointer(const token *t, const param *p) {
  int cnst = 0;
  for (int i = p->t0; i < p->t1; i++) {
    if (st_tok_is(&t[i], "constant") || st_tok_is(&t[i], "__constant")) cnst = 1;
    if (is_punct(&t[i], "*") || is_punct(&t[i], "[")) return cnst;
  }
  return 0;
}

/* A kernel's constant pointer parameter arrives as a global const pointer in stitched code
 * (the arena is global memory), so it cannot be passed where a helper expects constant. */
static int check_constant_args(program *pg, func *fn, scope *sc, int lp, func *callee) {
  token *t = pg->tl.t;
  if (!fn->is_kernel) return 0;
  symbol *cs = st_lookup(pg, pg->fscope, callee->name);
  if (cs && cs->fn) callee = cs->fn;
  int rp = t[lp].match;
  size_t arg = 0;
  for (int a = lp + 1; a < rp; arg++) {
    int b = a;
    while (b < rp && !is_punct(&t[b], ",")) {
      if (is_punct(&t[b], "(") || is_punct(&t[b], "[") || is_punct(&t[b], "{")) b = t[b].match;
      b++;
    }
    if (b == a + 1 && t[a].kind == TK_IDENT && arg < callee->n_params) {
      symbol *s = st_lookup(pg, sc, t[a].s);
      if (s && s->kind == SYM_PARAM && s->pm && constant_pointer(t, s->pm) &&
          constant_pointer(t, &callee->params[arg]))
        return st_error_at(
          pg->dg, &t[a],
          "kernel '%s' passes its constant parameter '%s' to "
          "'%s', whose parameter %zu is declared constant: stitched kernels receive "
          "constant pointer parameters as global const pointers, so declare that "
          "parameter 'global const'",
          fn->name, t[a].s, callee->name, arg + 1);
    }
    a = b + 1;
  }
  return 0;
}

int st_resolve_range(program *pg, func *fn, scope *sc, int a, int b) {
  token *t = pg->tl.t;
  for (int i = a; i < b; i++) {
    token *k = &t[i];
    if (k->kind != TK_IDENT) continue;
    if (i > 0 && (is_punct(&t[i - 1], ".") || is_punct(&t[i - 1], "->"))) continue;
    const char *s = k->s;
    int call = is_punct(&t[i + 1], "(");
    int empty = call && t[i + 1].match == i + 2;
    if (generated_name(s))
      return st_error_at(pg->dg, k,
                         "identifier '%s' is reserved: the stitcher generates it "
                         "(names starting with 'ck_' belong to the stitcher and the runtime)",
                         s);
    if (st_is_primitive(s, NULL))
      return st_error_at(pg->dg, k,
                         "%s() must be called as a statement of its own, "
                         "'%s();' (found inside an expression or a loop header in '%s')",
                         s, s, fn->name);
    if (!strcmp(s, "transmit"))
      return st_error_at(pg->dg, k,
                         "'transmit' can only qualify a variable declared in the "
                         "body of a cooperative kernel (found in '%s')",
                         fn->name);
    symbol *sym = st_lookup(pg, sc, s);
    k->sym = sym;
    if (!sym && call && id_func(s)) {
      k->repl = id_func(s);
      t[i + 1].repl = empty ? "(ck_ctx" : "(ck_ctx, ";
      continue;
    }
    if (!sym && call && !strcmp(s, "get_global_offset")) {
      /* work-groups of a stitched kernel have no global offset */
      k->repl = "((size_t)0 * (size_t)";
      t[t[i + 1].match].repl = "))";
      continue;
    }
    if (!sym && call && unsupported_id(s))
      return st_error_at(pg->dg, k,
                         "%s() is not supported in stitched kernels (in '%s'); "
                         "use get_global_id/get_group_id",
                         s, fn->name);
    if (!sym) continue;
    if (sym->kind == SYM_LOCAL || (sym->kind == SYM_CONST && sym->field)) {
      k->repl = sym->field;
    } else if (sym->kind == SYM_FUNC && call) {
      if (sym->fn->is_kernel)
        return st_error_at(pg->dg, k,
                           "'%s' calls kernel '%s': calling a kernel from "
                           "another function is not supported by the stitcher",
                           fn->name, s);
      t[i + 1].repl = empty ? "(ck_ctx" : "(ck_ctx, ";
      if (check_constant_args(pg, fn, sc, i + 1, sym->fn)) return -1;
      if (st_vec_push(pg->ar, &fn->calls, sym->fn))
        return st_error(pg->dg, k->line, "out of memory");
    }
  }
  return 0;
}

/* ---- #define bodies --------------------------------------------------------------- */

static int is_id0(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_id(char c) { return isalnum((unsigned char)c) || c == '_'; }

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') p++;
  return p;
}

static const char *skip_literal(const char *p) {
  char q = *p++;
  while (*p && *p != q) {
    if (*p == '\\' && p[1]) p++;
    p++;
  }
  return *p ? p + 1 : p;
}

/* position of the ')' matching the '(' at p, or NULL */
static const char *match_paren(const char *p) {
  int depth = 0;
  for (; *p; p++) {
    if (*p == '"' || *p == '\'') {
      p = skip_literal(p) - 1;
      continue;
    }
    if (*p == '(') depth++;
    if (*p == ')' && --depth == 0) return p;
  }
  return NULL;
}

static int word_in(const char *w, size_t n, const char *const *list, size_t cnt) {
  for (size_t i = 0; i < cnt; i++)
    if (strlen(list[i]) == n && !strncmp(list[i], w, n)) return 1;
  return 0;
}

/* A name some kernel gives a hoisted local variable; dup: the first kernel that declares a
 * local of that name more than once (its fields are renamed), NULL if none. */
typedef struct {
  func *dup;
} macro_local;

/* Fills pg->macro_locals from every kernel's hoisted locals (once). */
static int index_macro_locals(program *pg) {
  if (pg->macro_locals_ready) return 0;
  pg->macro_locals_ready = 1;
  for (size_t f = 0; f < pg->kernels.n; f++) {
    func *fn = pg->kernels.v[f];
    for (size_t m = 0; m < fn->locals.n; m++) {
      hoisted_local *hl = fn->locals.v[m];
      const char *orig = pg->tl.t[hl->dr->name].s;
      macro_local *ml = st_map_get(&pg->macro_locals, orig);
      if (!ml) {
        ml = st_alloc(pg->ar, sizeof *ml);
        if (!ml || st_map_put(pg->ar, &pg->macro_locals, orig, ml)) return -1;
      }
      if (strcmp(hl->name, orig) != 0 && !ml->dup) ml->dup = fn;
    }
  }
  return 0;
}

/* The replacement for an identifier (word) naming a hoisted local variable in some
 * kernel. */
static int local_in_macro(program *pg, token *t, const char *macro, const char *word,
                          const char **out) {
  *out = NULL;
  if (index_macro_locals(pg)) return st_error(pg->dg, t->line, "out of memory");
  macro_local *ml = st_map_get(&pg->macro_locals, word);
  if (!ml) return 0;
  if (ml->dup)
    return st_error(pg->dg, t->line,
                    "macro '%s' names local variable '%s', which kernel "
                    "'%s' declares more than once; give the local variables distinct names",
                    macro, word, ml->dup->name);
  *out = st_fmt(pg->ar, "(ck_loc->%s)", word);
  if (!*out) return st_error(pg->dg, t->line, "out of memory");
  return 0;
}

int st_rewrite_define(program *pg, token *t) {
  const char *p = skip_ws(t->s + 1);
  if (strncmp(p, "define", 6) != 0 || is_id(p[6])) return 0;
  p = skip_ws(p + 6);
  const char *name0 = p;
  while (is_id(*p)) p++;
  char *macro = st_strndup(pg->ar, name0, (size_t)(p - name0));
  if (!macro) return st_error(pg->dg, t->line, "out of memory");
  const char *params[64];
  size_t n_params = 0;
  if (*p == '(') {
    while (*p && *p != ')') {
      p++;
      p = skip_ws(p);
      const char *w = p;
      while (is_id(*p)) p++;
      if (p > w && n_params < 64) params[n_params++] = st_strndup(pg->ar, w, (size_t)(p - w));
      p = skip_ws(p);
      if (*p == '.') p += strspn(p, ".");
      p = skip_ws(p);
    }
    if (*p == ')') p++;
  }
  st_buf b = {0};
  sb_put(&b, t->s, (size_t)(p - t->s));
  int changed = 0;
  const char *close_repl = NULL; /* pending get_global_offset closing paren */
  while (*p) {
    if (close_repl && p == close_repl) {
      sb_puts(&b, "))");
      close_repl = NULL;
      p++;
      continue;
    }
    if (*p == '"' || *p == '\'') {
      const char *e = skip_literal(p);
      sb_put(&b, p, (size_t)(e - p));
      p = e;
      continue;
    }
    if (isdigit((unsigned char)*p)) {
      const char *e = p;
      while (is_id(*e) || *e == '.') e++;
      sb_put(&b, p, (size_t)(e - p));
      p = e;
      continue;
    }
    if (!is_id0(*p)) {
      sb_put(&b, p, 1);
      p++;
      continue;
    }
    const char *w = p;
    while (is_id(*p)) p++;
    size_t n = (size_t)(p - w);
    const char *prev = w;
    while (prev > t->s && (prev[-1] == ' ' || prev[-1] == '\t')) prev--;
    int member =
      (prev > t->s && prev[-1] == '.') || (prev - t->s >= 2 && prev[-1] == '>' && prev[-2] == '-');
    char *word = st_strndup(pg->ar, w, n);
    if (!word) {
      sb_free(&b);
      return st_error(pg->dg, t->line, "out of memory");
    }
    const char *after = skip_ws(p);
    int call = *after == '(';
    int empty = call && *skip_ws(after + 1) == ')';
    if (member || word_in(w, n, params, n_params)) {
      sb_put(&b, w, n);
      continue;
    }
    if (st_is_primitive(word, NULL) || !strcmp(word, "transmit")) {
      sb_free(&b);
      return st_error(pg->dg, t->line,
                      "macro '%s' uses %s%s: the stitcher does not expand "
                      "macros, so %s cannot appear in a #define body; write it directly in "
                      "the kernel",
                      macro, word, strcmp(word, "transmit") ? "()" : "", word);
    }
    const char *local = NULL;
    if (local_in_macro(pg, t, macro, word, &local)) {
      sb_free(&b);
      return -1;
    }
    symbol *sym = st_lookup(pg, pg->fscope, word);
    if (call && id_func(word)) {
      sb_puts(&b, id_func(word));
      sb_puts(&b, empty ? "(ck_ctx" : "(ck_ctx, ");
      p = after + 1;
      changed = 1;
    } else if (call && !strcmp(word, "get_global_offset")) {
      close_repl = match_paren(after);
      if (!close_repl) {
        sb_put(&b, w, n);
        continue;
      }
      sb_puts(&b, "((size_t)0 * (size_t)(");
      p = after + 1;
      changed = 1;
    } else if (call && sym && sym->kind == SYM_FUNC && !sym->fn->is_kernel) {
      sb_put(&b, w, n);
      sb_puts(&b, empty ? "(ck_ctx" : "(ck_ctx, ");
      p = after + 1;
      changed = 1;
    } else if (local && !sym) {
      sb_puts(&b, local);
      changed = 1;
    } else {
      sb_put(&b, w, n);
    }
  }
  if (b.failed) {
    sb_free(&b);
    return st_error(pg->dg, t->line, "out of memory");
  }
  if (changed) {
    t->repl = st_strndup(pg->ar, b.p, b.len);
    if (!t->repl) {
      sb_free(&b);
      return st_error(pg->dg, t->line, "out of memory");
    }
  }
  sb_free(&b);
  return 0;
}
