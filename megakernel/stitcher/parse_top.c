/* parse_top.c: the file-scope structure of a program. Splits the token list into
 * preprocessor lines, declarations and function definitions/prototypes; records every
 * function (name, kernel or not, parameter list) and declares file-scope typedefs,
 * variables and functions; then parses function bodies and rewrites #define bodies. */
#include <string.h>

#include "internal.h"

static int is_punct(const token *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->s, s) == 0;
}

static int is_attr(const token *t) {
  return t->kind == TK_IDENT && (!strcmp(t->s, "__attribute__") || !strcmp(t->s, "__attribute"));
}

static int is_kernel_kw(const token *t) {
  return t->kind == TK_IDENT && (!strcmp(t->s, "kernel") || !strcmp(t->s, "__kernel"));
}

/* Splits (lp, rp) into parameters. */
static int parse_params(program *pg, func *fn) {
  token *t = pg->tl.t;
  st_vec v = {0};
  int a = fn->lp + 1;
  if (a == fn->rp) return 0;
  if (a + 1 == fn->rp && st_tok_is(&t[a], "void")) {
    fn->void_params = 1;
    return 0;
  }
  while (a < fn->rp) {
    int b = a;
    while (b < fn->rp && !is_punct(&t[b], ",")) {
      if (is_punct(&t[b], "(") || is_punct(&t[b], "[") || is_punct(&t[b], "{")) b = t[b].match;
      b++;
    }
    param *p = st_alloc(pg->ar, sizeof *p);
    if (!p || st_vec_push(pg->ar, &v, p)) return st_error(pg->dg, t[a].line, "out of memory");
    p->t0 = a;
    p->t1 = b;
    p->name = -1;
    for (int j = a; j < b; j++) {
      if (is_attr(&t[j])) {
        j = st_skip_attribute(pg, j) - 1;
        continue;
      }
      if (is_punct(&t[j], "[")) {
        j = t[j].match;
        continue;
      }
      if (t[j].kind == TK_IDENT && !st_is_qualifier_keyword(t[j].s) &&
          !st_is_type_keyword(t[j].s) && strcmp(t[j].s, "struct") && strcmp(t[j].s, "union") &&
          strcmp(t[j].s, "enum"))
        p->name = j;
    }
    /* "T name": the last identifier is the name unless it is the only type word */
    if (p->name >= 0) {
      int words = 0;
      for (int j = a; j < b; j++)
        if (t[j].kind == TK_IDENT && !st_is_qualifier_keyword(t[j].s)) words++;
      if (words < 2) p->name = -1;
    } else if (!pg->raw && st_check_reserved_name(pg, a, b, "parameter")) {
      return -1; /* "int half" */
    }
    a = b < fn->rp ? b + 1 : b;
  }
  fn->n_params = v.n;
  fn->params = st_alloc(pg->ar, (v.n ? v.n : 1) * sizeof(param));
  if (!fn->params) return st_error(pg->dg, t[fn->lp].line, "out of memory");
  for (size_t k = 0; k < v.n; k++) fn->params[k] = *(param *)v.v[k];
  return 0;
}

static func *new_func(program *pg, int t0, int name, int lp) {
  token *t = pg->tl.t;
  func *fn = st_alloc(pg->ar, sizeof *fn);
  if (!fn) return NULL;
  fn->name = t[name].s;
  fn->name_tok = name;
  fn->line = t[name].line;
  fn->t0 = t0;
  fn->lp = lp;
  fn->rp = t[lp].match;
  fn->lb = -1;
  fn->index = -1;
  for (int j = t0; j < name; j++)
    if (is_kernel_kw(&t[j])) fn->is_kernel = 1;
  fn->cooperative = fn->is_kernel && st_map_get(&pg->coop_names, fn->name) != NULL;
  if (parse_params(pg, fn)) return NULL;
  return fn;
}

static int register_func(program *pg, func *fn) {
  if (st_vec_push(pg->ar, &pg->funcs, fn)) return -1;
  symbol *s = st_lookup(pg, pg->fscope, fn->name);
  if (s && s->kind == SYM_FUNC) {
    func *old = s->fn;
    if (old->is_kernel != fn->is_kernel && !pg->raw)
      return st_error(pg->dg, fn->line,
                      "'%s' is declared both as a kernel and as a function "
                      "(line %d)",
                      fn->name, st_user_line(pg->dg, old->line, NULL));
    if (fn->lb >= 0) {
      /* a helper may be defined in several #if branches; a kernel may not */
      if (old->lb >= 0 && fn->is_kernel && !pg->raw)
        return st_error(pg->dg, fn->line, "kernel '%s' is defined twice (first on line %d)",
                        fn->name, st_user_line(pg->dg, old->line, NULL));
      s->fn = fn;
    }
    return 0;
  }
  s = st_declare(pg, pg->fscope, fn->name, SYM_FUNC);
  if (!s) return -1;
  s->fn = fn;
  return 0;
}

/* A file-scope declaration [i, semi): declare its names, record prototypes. */
static int top_declaration(program *pg, int i, int semi, st_vec *cands) {
  token *t = pg->tl.t;
  decl *dc = st_alloc(pg->ar, sizeof *dc);
  if (!dc) return st_error(pg->dg, t[i].line, "out of memory");
  if (st_parse_decl(pg, pg->fscope, i, semi, dc)) return -1;
  for (size_t k = 0; k < dc->n; k++) {
    declarator *d = &dc->d[k];
    const char *name = t[d->name].s;
    if (d->is_func && !dc->is_typedef) continue; /* handled below */
    if (!pg->raw && !strncmp(name, "ck_", 3))
      return st_error(pg->dg, t[d->name].line,
                      "identifier '%s' is reserved: names starting "
                      "with 'ck_' belong to the stitcher",
                      name);
    if (!pg->raw && st_is_sync_api(name))
      return st_error(pg->dg, t[d->name].line,
                      "identifier '%s' is reserved: ck_cooperative.h "
                      "defines it (a portable synchronisation call); rename yours",
                      name);
    symbol *s = st_declare(pg, pg->fscope, name, dc->is_typedef ? SYM_TYPEDEF : SYM_VAR);
    if (!s) return -1;
    s->dc = dc;
    s->dr = d;
  }
  if (dc->is_typedef) return 0;
  for (size_t k = 0; k < cands->n; k += 2) {
    int name = (int)(size_t)cands->v[k], lp = (int)(size_t)cands->v[k + 1];
    func *fn = new_func(pg, i, name, lp);
    if (!fn || register_func(pg, fn)) return -1;
  }
  return 0;
}

int st_parse_program(program *pg) {
  token *t = pg->tl.t;
  pg->fscope = st_alloc(pg->ar, sizeof(scope));
  if (!pg->fscope) return st_error(pg->dg, 1, "out of memory");
  for (size_t k = 0; k < pg->n_coop; k++)
    if (st_map_put(pg->ar, &pg->coop_names, pg->coop[k], (void *)1))
      return st_error(pg->dg, 1, "out of memory");
  st_vec items = {0};
  int i = 0;
  while (t[i].kind != TK_EOF) {
    top_item *it = st_alloc(pg->ar, sizeof *it);
    if (!it || st_vec_push(pg->ar, &items, it)) return st_error(pg->dg, t[i].line, "out of memory");
    it->t0 = i;
    if (t[i].kind == TK_PP) {
      it->kind = TOP_PP;
      it->t1 = i + 1;
      i++;
      continue;
    }
    if (is_punct(&t[i], ";")) {
      it->kind = TOP_EMPTY;
      it->t1 = i + 1;
      i++;
      continue;
    }
    /* scan one declaration or function definition */
    st_vec cands = {0}; /* pairs (name token, '(' token) of function declarators */
    int eq_seen = 0, seg_cand = 0, j = i, done = 0;
    while (!done) {
      token *k = &t[j];
      if (k->kind == TK_EOF)
        return st_error(pg->dg, t[i].line, "this declaration does not end (missing ';'?)");
      if (is_attr(k)) {
        j = st_skip_attribute(pg, j);
        continue;
      }
      if (is_punct(k, "(")) {
        if (!seg_cand && !eq_seen && j > i && t[j - 1].kind == TK_IDENT &&
            !st_is_qualifier_keyword(t[j - 1].s) && !st_is_type_keyword(t[j - 1].s) && j - 1 > i) {
          if (st_vec_push(pg->ar, &cands, (void *)(size_t)(j - 1)) ||
              st_vec_push(pg->ar, &cands, (void *)(size_t)j))
            return st_error(pg->dg, k->line, "out of memory");
          seg_cand = 1;
        }
        j = k->match + 1;
        continue;
      }
      if (is_punct(k, "[")) {
        j = k->match + 1;
        continue;
      }
      if (is_punct(k, "{")) {
        /* a function body follows "name ( params ) [attributes]" */
        int body = 0;
        if (cands.n == 2 && !eq_seen) {
          int rp = t[(int)(size_t)cands.v[1]].match, m = rp + 1;
          while (m < j && is_attr(&t[m])) m = st_skip_attribute(pg, m);
          body = m == j;
        }
        if (body) {
          func *fn = new_func(pg, i, (int)(size_t)cands.v[0], (int)(size_t)cands.v[1]);
          if (!fn) return -1;
          fn->lb = j;
          fn->t1 = k->match + 1;
          if (register_func(pg, fn)) return -1;
          if (fn->is_kernel && st_vec_push(pg->ar, &pg->kernels, fn))
            return st_error(pg->dg, k->line, "out of memory");
          it->kind = TOP_FUNC;
          it->fn = fn;
          it->t1 = fn->t1;
          i = it->t1;
          done = 1;
          continue;
        }
        j = k->match + 1;
        continue;
      }
      if (is_punct(k, ",")) {
        eq_seen = 0;
        seg_cand = 0;
      } else if (is_punct(k, "=")) {
        eq_seen = 1;
      } else if (is_punct(k, ";")) {
        if (top_declaration(pg, i, j, &cands)) return -1;
        it->kind = TOP_DECL;
        it->t1 = j + 1;
        i = j + 1;
        done = 1;
        continue;
      } else if (is_punct(k, "}") || is_punct(k, ")") || is_punct(k, "]")) {
        return st_error(pg->dg, k->line, "unexpected '%s' at file scope", k->s);
      }
      j++;
    }
  }
  pg->n_items = items.n;
  pg->items = st_alloc(pg->ar, (items.n ? items.n : 1) * sizeof(top_item));
  if (!pg->items) return st_error(pg->dg, 1, "out of memory");
  for (size_t k = 0; k < items.n; k++) pg->items[k] = *(top_item *)items.v[k];

  /* function bodies */
  for (size_t k = 0; k < pg->n_items; k++)
    if (pg->items[k].kind == TOP_FUNC && st_parse_body(pg, pg->items[k].fn, pg->fscope)) return -1;
  if (pg->raw) return 0;
  /* #define bodies, after the bodies so hoisted local names are known */
  for (size_t k = 0; k < pg->tl.n; k++)
    if (t[k].kind == TK_PP && st_rewrite_define(pg, &t[k])) return -1;
  return 0;
}
