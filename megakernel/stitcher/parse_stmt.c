/* parse_stmt.c: recursive-descent parser for the statements of a function body. Builds
 * the syntax tree (blocks, declarations, if/for/while/do/switch, jumps, primitive calls),
 * keeps the nested scopes, and records per function the transmit variables, the hoisted
 * local variables and kernel-scope constants, the primitives and the fork points. */
#include <string.h>

#include "internal.h"

typedef struct {
  program *pg;
  func *fn;
  scope *sc;
  token *t;
  stmt *root;
  int depth; /* statements being parsed inside one another (parse_stmt's recursion) */
} pctx;

static int is_punct(const token *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->s, s) == 0;
}
static int is_kw(const token *t, const char *s) {
  return t->kind == TK_IDENT && strcmp(t->s, s) == 0;
}

static int oom(pctx *c, int i) { return st_error(c->pg->dg, c->t[i].line, "out of memory"); }

static int push_scope(pctx *c) {
  scope *s = st_alloc(c->pg->ar, sizeof *s);
  if (!s) return -1;
  s->up = c->sc;
  c->sc = s;
  return 0;
}
static void pop_scope(pctx *c) { c->sc = c->sc->up; }

static stmt *new_stmt(pctx *c, st_kind k, int t0, stmt *parent) {
  stmt *s = st_alloc(c->pg->ar, sizeof *s);
  if (!s) {
    oom(c, t0);
    return NULL;
  }
  s->kind = k;
  s->t0 = t0;
  s->parent = parent;
  s->line = c->t[t0].line;
  s->kw = t0;
  s->lp = s->rp = s->e0 = s->e1 = s->semi1 = s->semi2 = s->s0 = s->s1 = -1;
  s->else_kw = s->while_kw = s->colon = s->end_semi = -1;
  s->attr0 = s->attr1 = t0;
  return s;
}

/* first ';' at bracket depth 0 in [a, end) */
static int find_semi(pctx *c, int a, int end) {
  for (int i = a; i < end; i++) {
    token *k = &c->t[i];
    if (k->kind == TK_PUNCT && (is_punct(k, "(") || is_punct(k, "[") || is_punct(k, "{"))) {
      i = k->match;
      continue;
    }
    if (is_punct(k, ";")) return i;
  }
  return -1;
}

static int expect(pctx *c, int i, const char *s, const char *what) {
  if (!is_punct(&c->t[i], s) && !is_kw(&c->t[i], s))
    return st_error_at(c->pg->dg, &c->t[i], "expected '%s' %s", s, what);
  return 0;
}

static int resolve(pctx *c, int a, int b) {
  if (c->pg->raw || a < 0 || b <= a) return 0;
  return st_resolve_range(c->pg, c->fn, c->sc, a, b);
}

static int reserved(pctx *c, int i) {
  if (c->pg->raw) return 0;
  if (c->pg->inlined && st_inline_name(c->t[i].s)) return 0;
  if (strncmp(c->t[i].s, "ck_", 3) == 0)
    return st_error_at(c->pg->dg, &c->t[i],
                       "identifier '%s' is reserved: names starting "
                       "with 'ck_' belong to the stitcher",
                       c->t[i].s);
  if (st_is_sync_api(c->t[i].s))
    return st_error_at(c->pg->dg, &c->t[i],
                       "identifier '%s' is reserved: ck_cooperative.h "
                       "defines it (a portable synchronisation call); rename yours",
                       c->t[i].s);
  return 0;
}

/* The field of ck_locals_<kernel>_t for a local variable called name: name, or the first
 * of name_2, name_3, ... not taken. Each name remembers the suffix it reached, so n locals
 * of one name cost O(n) in all. */
static const char *unique_field(pctx *c, const char *name) {
  func *fn = c->fn;
  st_arena *a = c->pg->ar;
  const char *f = name;
  size_t n = (size_t)st_map_get(&fn->field_next, name);
  if (n < 2) n = 2;
  while (st_map_get(&fn->field_names, f)) {
    f = st_fmt(a, "%s_%zu", name, n++);
    if (!f) return NULL;
  }
  if (st_map_put(a, &fn->field_next, name, (void *)n) ||
      st_map_put(a, &fn->field_names, f, (void *)1))
    return NULL;
  return f;
}

/* The field of a transmit variable in ck_tx_<kernel>_t: its name, or ck_tx<N>_<name> (N:
 * its index; user code cannot declare ck_ names) when an earlier one has the same name. */
static const char *unique_tx_field(pctx *c, const char *name) {
  for (size_t k = 0; k < c->fn->tvars.n; k++)
    if (!strcmp(((tvar *)c->fn->tvars.v[k])->name, name))
      return st_fmt(c->pg->ar, "ck_tx%zu_%s", c->fn->tvars.n, name);
  return name;
}

/* The file-scope name of a hoisted kernel constant: its own name unless a file-scope
 * symbol or another hoisted constant has it. */
static const char *unique_const(pctx *c, const char *name) {
  program *pg = c->pg;
  const char *f = name;
  if (st_lookup(pg, pg->fscope, name) || st_map_get(&pg->const_names, name))
    f = st_fmt(pg->ar, "ck_c%d_%s_%s", (int)c->fn->consts.n, c->fn->name, name);
  if (!f || st_map_put(pg->ar, &pg->const_names, f, (void *)1)) return NULL;
  return f;
}

/* Was the declaration whose first token is at offset off inferred transmit? */
static int forced_transmit(const program *pg, size_t off) {
  size_t lo = 0, hi = pg->n_force_tx;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (pg->force_tx[mid] == off) return 1;
    if (pg->force_tx[mid] < off) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/* A declaration statement (or for-init) [i, semi); st->decl gets the parse. */
static int handle_decl(pctx *c, stmt *st, int i, int semi, int for_init) {
  program *pg = c->pg;
  token *t = c->t;
  func *fn = c->fn;
  decl *dc = st_alloc(pg->ar, sizeof *dc);
  if (!dc) return oom(c, i);
  if (st_parse_decl(pg, c->sc, i, semi, dc)) return -1;
  dc->t0 = i;
  dc->t1 = for_init ? semi : semi + 1;
  st->decl = dc;
  const char *fname = fn->name;
  if (!pg->raw && !dc->is_transmit && fn->is_kernel && forced_transmit(pg, t[i].off)) {
    dc->is_transmit = 1; /* inferred: transmit as if the user had written it */
    dc->transmit_tok = -1;
  }
  int tt = dc->transmit_tok >= 0 ? dc->transmit_tok : i; /* where its errors point */
  /* transmit in a helper: allowed if the helper is inlined (inline.c decides) */
  int tx = !pg->raw && dc->is_transmit && fn->is_kernel;
  if (!pg->raw && dc->is_transmit && !fn->is_kernel && !fn->tx_tok) fn->tx_tok = dc->transmit_tok;
  if (tx) {
    if (!fn->cooperative)
      return st_error_at(pg->dg, &t[tt],
                         "transmit variable in kernel '%s', "
                         "which is not cooperative",
                         fname);
    if (dc->is_typedef)
      return st_error_at(pg->dg, &t[tt],
                         "'transmit' cannot qualify a typedef "
                         "(kernel '%s'); put it on the variable",
                         fname);
    if (dc->is_local)
      return st_error_at(pg->dg, &t[tt],
                         "a transmit variable cannot be local "
                         "(kernel '%s')",
                         fname);
    if (dc->n == 0)
      return st_error_at(pg->dg, &t[tt],
                         "transmit declaration declares no "
                         "variable (kernel '%s')",
                         fname);
    /* the transmit struct is declared in front of the kernel: its field types must be
     * visible there */
    for (int j = dc->s0; j < dc->s1; j++) {
      symbol *ts = t[j].kind == TK_IDENT ? st_lookup(pg, c->sc, t[j].s) : NULL;
      if (ts && ts->kind == SYM_TYPEDEF && ts->owner)
        return st_error_at(pg->dg, &t[j],
                           "transmit variable of type '%s', a typedef declared "
                           "inside kernel '%s': declare the type at file scope",
                           t[j].s, fname);
    }
    if (dc->transmit_tok >= 0) t[dc->transmit_tok].repl = "";
  }
  for (size_t k = 0; k < dc->n; k++) {
    declarator *d = &dc->d[k];
    const char *name = t[d->name].s;
    if (reserved(c, d->name)) return -1;
    if (resolve(c, d->d0, d->name) || resolve(c, d->name + 1, d->d1)) return -1;
    sym_kind kind = dc->is_typedef ? SYM_TYPEDEF : SYM_VAR;
    const char *field = NULL;
    tvar *tv = NULL;
    if (tx) {
      if (d->is_array)
        return st_error_at(pg->dg, &t[d->name],
                           "transmit array '%s' is not supported "
                           "(kernel '%s'): transmit a pointer to global memory instead",
                           name, fname);
      int cnst = dc->is_const && !d->is_ptr;
      for (int j = d->d0; j < d->name; j++)
        if (is_kw(&t[j], "const")) cnst = 1;
      if (cnst)
        return st_error_at(pg->dg, &t[d->name],
                           "transmit variable '%s' cannot be const: it "
                           "is assigned when a work-group joins at a fork point (kernel '%s')",
                           name, fname);
      tv = st_alloc(pg->ar, sizeof *tv);
      if (!tv) return oom(c, i);
      tv->name = name;
      tv->field = unique_tx_field(c, name);
      tv->dc = dc;
      tv->dr = d;
      if (!tv->field || st_vec_push(pg->ar, &fn->tvars, tv)) return oom(c, i);
      kind = SYM_TRANSMIT;
    } else if (!pg->raw && dc->is_local && !d->is_ptr && !dc->is_typedef) {
      if (!fn->is_kernel)
        return st_error_at(pg->dg, &t[d->name],
                           "local variable '%s' in function '%s': "
                           "OpenCL allows local variables only in kernels; declare it in the "
                           "kernel and pass a local pointer",
                           name, fname);
      if (d->init0 >= 0)
        return st_error_at(pg->dg, &t[d->name],
                           "local variable '%s' cannot have an "
                           "initializer (kernel '%s')",
                           name, fname);
      hoisted_local *hl = st_alloc(pg->ar, sizeof *hl);
      if (!hl) return oom(c, i);
      hl->name = unique_field(c, name);
      hl->dc = dc;
      hl->dr = d;
      if (!hl->name || st_vec_push(pg->ar, &fn->locals, hl)) return oom(c, i);
      field = st_fmt(pg->ar, "(ck_loc->%s)", hl->name);
      if (!field) return oom(c, i);
      d->hoisted = 1;
      kind = SYM_LOCAL;
    } else if (!pg->raw && dc->is_constant && !d->is_ptr && !dc->is_typedef && fn->is_kernel) {
      hoisted_const *hc = st_alloc(pg->ar, sizeof *hc);
      if (!hc) return oom(c, i);
      hc->name = unique_const(c, name);
      hc->dc = dc;
      hc->dr = d;
      if (!hc->name || st_vec_push(pg->ar, &fn->consts, hc)) return oom(c, i);
      if (strcmp(hc->name, name) != 0) t[d->name].repl = hc->name;
      field = hc->name;
      d->hoisted = 1;
      kind = SYM_CONST;
    }
    symbol *s = st_declare(pg, c->sc, name, kind);
    if (!s) return oom(c, i);
    s->tv = tv;
    if (tv) tv->sym = s;
    s->owner = fn;
    s->dc = dc;
    s->dr = d;
    s->for_init = for_init;
    if (kind == SYM_VAR || kind == SYM_TRANSMIT || kind == SYM_LOCAL) s->var_id = fn->n_vars++;
    if (kind == SYM_LOCAL || (kind == SYM_CONST && strcmp(field, name) != 0)) s->field = field;
    d->sym = s;
    if (resolve(c, d->init0, d->init1)) return -1;
  }
  return 0;
}

static stmt *parse_stmt(pctx *c, int *pi, int end, stmt *parent);

static stmt *parse_block(pctx *c, int i, stmt *parent) {
  stmt *st = new_stmt(c, ST_BLOCK, i, parent);
  if (!st) return NULL;
  int rb = c->t[i].match;
  st->t1 = rb + 1;
  if (!c->root) c->root = st;
  if (push_scope(c)) {
    oom(c, i);
    return NULL;
  }
  st_vec items = {0};
  int k = i + 1;
  while (k < rb) {
    stmt *it = parse_stmt(c, &k, rb, st);
    if (!it || st_vec_push(c->pg->ar, &items, it)) {
      if (it) oom(c, k);
      return NULL;
    }
    st->items = (stmt **)items.v;
    st->n_items = items.n;
  }
  st->items = (stmt **)items.v;
  st->n_items = items.n;
  pop_scope(c);
  return st;
}

static int is_cond_directive(const char *s) {
  s++; /* '#' */
  while (*s == ' ' || *s == '\t') s++;
  return !strncmp(s, "if", 2) || !strncmp(s, "elif", 4) || !strncmp(s, "else", 4) ||
         !strncmp(s, "endif", 5);
}

/* Each fork point copies every transmit variable in scope ("ck_tx.v = v;"): forks times
 * variables. Stops (with the output cap's error) once that alone passes the cap, before
 * the lists of variables per fork point use more memory than the output could. */
static int tx_over_cap(pctx *c, const tvar *tv, int i) {
  program *pg = c->pg;
  pg->tx_bytes += 2 * strlen(tv->name) + 10;
  if (pg->tx_bytes <= st_output_cap(pg)) return 0;
  return st_error(pg->dg, c->t[i].line,
                  "the stitched source would exceed %zu bytes (%d times "
                  "the input plus 1 MiB), the stitcher's output cap: every fork point copies "
                  "every transmit variable in scope, and kernel '%s' has %zu fork points so "
                  "far and %zu transmit variables; transmit a pointer to a struct in global "
                  "memory instead",
                  st_output_cap(pg), ST_OUTPUT_FACTOR, c->fn->name, c->fn->forks.n, c->fn->tvars.n);
}

/* Is symbol s declared in scope sc or one enclosing it? (Each scope maps a name to the
 * latest symbol declared with it there.) */
static int in_scope(const scope *sc, const symbol *s) {
  for (; sc; sc = sc->up)
    if (st_map_get(&sc->names, s->name) == s) return 1;
  return 0;
}

static stmt *parse_prim_or_expr(pctx *c, int i, int semi, stmt *parent) {
  token *t = c->t;
  prim_kind pk;
  if (!c->pg->raw && semi == i + 3 && t[i].kind == TK_IDENT && st_is_primitive(t[i].s, &pk) &&
      is_punct(&t[i + 1], "(") && is_punct(&t[i + 2], ")")) {
    stmt *st = new_stmt(c, ST_PRIM, i, parent);
    if (!st) return NULL;
    st->t1 = semi + 1;
    st->end_semi = semi;
    st->prim = pk;
    func *fn = c->fn;
    if (st_vec_push(c->pg->ar, &fn->prims, st)) {
      oom(c, i);
      return NULL;
    }
    if ((pk == PRIM_REQUEST_FORK || pk == PRIM_RESIZING_BARRIER) && fn->is_kernel &&
        fn->cooperative) {
      fork_point *fp = st_alloc(c->pg->ar, sizeof *fp);
      if (!fp || st_vec_push(c->pg->ar, &fn->forks, fp)) {
        oom(c, i);
        return NULL;
      }
      fp->index = (int)fn->forks.n;
      fp->st = st;
      st->fork = fp;
      for (size_t k = 0; k < fn->tvars.n; k++) {
        tvar *tv = fn->tvars.v[k];
        symbol *s = st_lookup(c->pg, c->sc, tv->name);
        if (s != tv->sym && !in_scope(c->sc, tv->sym)) continue; /* out of scope here */
        if (s == tv->sym) {
          if (st_vec_push(c->pg->ar, &fp->tx, tv)) {
            oom(c, i);
            return NULL;
          }
          if (tx_over_cap(c, tv, i)) return NULL;
        } else {
          st_error_at(c->pg->dg, &t[i],
                      "transmit variable '%s' is hidden by another "
                      "declaration of '%s' at this %s() (kernel '%s'); rename one of them",
                      tv->name, tv->name, t[i].s, fn->name);
          return NULL;
        }
      }
    }
    return st;
  }
  stmt *st = new_stmt(c, ST_EXPR, i, parent);
  if (!st) return NULL;
  st->t1 = semi + 1;
  st->e0 = i;
  st->e1 = semi;
  st->end_semi = semi;
  if (resolve(c, i, semi)) return NULL;
  return st;
}

static stmt *parse_loop(pctx *c, int i, int end, stmt *parent, int attr0) {
  token *t = c->t;
  stmt *st = NULL;
  int k;
  if (is_kw(&t[i], "for")) {
    st = new_stmt(c, ST_FOR, i, parent);
    if (!st || expect(c, i + 1, "(", "after 'for'")) return NULL;
    st->lp = i + 1;
    st->rp = t[i + 1].match;
    if (push_scope(c)) return NULL;
    int a = i + 2;
    int s1 = find_semi(c, a, st->rp);
    if (s1 < 0) {
      st_error_at(c->pg->dg, &t[i], "expected ';' in 'for' header");
      return NULL;
    }
    st->semi1 = s1;
    if (s1 > a) {
      if (st_is_decl_start(c->pg, c->sc, a)) {
        st->init = new_stmt(c, ST_DECL, a, st);
        if (!st->init || handle_decl(c, st->init, a, s1, 1)) return NULL;
      } else {
        st->init = new_stmt(c, ST_EXPR, a, st);
        if (!st->init) return NULL;
        st->init->e0 = a;
        st->init->e1 = s1;
        if (resolve(c, a, s1)) return NULL;
      }
      st->init->t1 = s1;
    }
    int s2 = find_semi(c, s1 + 1, st->rp);
    if (s2 < 0) {
      st_error_at(c->pg->dg, &t[i], "expected a second ';' in 'for' header");
      return NULL;
    }
    st->semi2 = s2;
    st->e0 = s1 + 1;
    st->e1 = s2;
    st->s0 = s2 + 1;
    st->s1 = st->rp;
    if (resolve(c, st->e0, st->e1) || resolve(c, st->s0, st->s1)) return NULL;
    k = st->rp + 1;
    st->body = parse_stmt(c, &k, end, st);
    if (!st->body) return NULL;
    pop_scope(c);
  } else if (is_kw(&t[i], "while")) {
    st = new_stmt(c, ST_WHILE, i, parent);
    if (!st || expect(c, i + 1, "(", "after 'while'")) return NULL;
    st->lp = i + 1;
    st->rp = t[i + 1].match;
    st->e0 = st->lp + 1;
    st->e1 = st->rp;
    if (resolve(c, st->e0, st->e1)) return NULL;
    k = st->rp + 1;
    st->body = parse_stmt(c, &k, end, st);
    if (!st->body) return NULL;
  } else {
    st = new_stmt(c, ST_DO, i, parent);
    if (!st) return NULL;
    k = i + 1;
    st->body = parse_stmt(c, &k, end, st);
    if (!st->body) return NULL;
    if (k >= end || !is_kw(&t[k], "while")) {
      st_error(c->pg->dg, t[k].line,
               "'do' without 'while': expected "
               "'while' and a condition after the body of the 'do' on line %d",
               st_user_line(c->pg->dg, t[i].line, NULL));
      return NULL;
    }
    if (expect(c, k + 1, "(", "after 'while'")) return NULL;
    st->while_kw = k;
    st->lp = k + 1;
    st->rp = t[k + 1].match;
    st->e0 = st->lp + 1;
    st->e1 = st->rp;
    if (resolve(c, st->e0, st->e1)) return NULL;
    k = st->rp + 1;
    if (expect(c, k, ";", "after 'do ... while (...)'")) return NULL;
    st->end_semi = k;
    k++;
  }
  st->attr0 = attr0;
  st->attr1 = i;
  st->t0 = attr0;
  st->t1 = k;
  return st;
}

static stmt *parse_stmt_at(pctx *c, int *pi, int end, stmt *parent);

/* One statement; refuses to nest deeper than ST_MAX_NESTING, which bounds the recursion of
 * this parser and of every later pass that walks the tree. */
static stmt *parse_stmt(pctx *c, int *pi, int end, stmt *parent) {
  if (c->depth >= ST_MAX_NESTING) {
    st_error(c->pg->dg, c->t[*pi].line,
             "statements nested more than %d levels deep in "
             "function '%s' (each block, if, else-if, loop, switch and label counts one): the "
             "stitcher's nesting limit; move the inner code into a helper function",
             ST_MAX_NESTING, c->fn->name);
    return NULL;
  }
  c->depth++;
  stmt *st = parse_stmt_at(c, pi, end, parent);
  c->depth--;
  return st;
}

static stmt *parse_stmt_at(pctx *c, int *pi, int end, stmt *parent) {
  token *t = c->t;
  program *pg = c->pg;
  int i = *pi;
  stmt *st = NULL;
  if (i >= end) {
    st_error_at(pg->dg, &t[i], "expected a statement before '%s'", t[i].s);
    return NULL;
  }
  token *k = &t[i];
  if (k->kind == TK_PP) {
    st = new_stmt(c, ST_PP, i, parent);
    if (!st) return NULL;
    st->t1 = i + 1;
    if (is_cond_directive(k->s) && st_vec_push(pg->ar, &c->fn->cond_pp, st)) return NULL;
  } else if (is_punct(k, "{")) {
    st = parse_block(c, i, parent);
  } else if (is_punct(k, ";")) {
    st = new_stmt(c, ST_EMPTY, i, parent);
    if (st) st->t1 = i + 1;
  } else if (is_kw(k, "if")) {
    st = new_stmt(c, ST_IF, i, parent);
    if (!st || expect(c, i + 1, "(", "after 'if'")) return NULL;
    st->lp = i + 1;
    st->rp = t[i + 1].match;
    st->e0 = st->lp + 1;
    st->e1 = st->rp;
    if (resolve(c, st->e0, st->e1)) return NULL;
    int m = st->rp + 1;
    st->body = parse_stmt(c, &m, end, st);
    if (!st->body) return NULL;
    if (m < end && is_kw(&t[m], "else")) {
      st->else_kw = m;
      m++;
      st->els = parse_stmt(c, &m, end, st);
      if (!st->els) return NULL;
    }
    st->t1 = m;
  } else if (is_kw(k, "for") || is_kw(k, "while") || is_kw(k, "do")) {
    st = parse_loop(c, i, end, parent, i);
  } else if ((is_kw(k, "__attribute__") || is_kw(k, "__attribute")) &&
             (is_kw(&t[st_skip_attribute(pg, i)], "for") ||
              is_kw(&t[st_skip_attribute(pg, i)], "while") ||
              is_kw(&t[st_skip_attribute(pg, i)], "do"))) {
    int m = i;
    while (is_kw(&t[m], "__attribute__") || is_kw(&t[m], "__attribute"))
      m = st_skip_attribute(pg, m);
    st = parse_loop(c, m, end, parent, i);
  } else if (is_kw(k, "switch")) {
    st = new_stmt(c, ST_SWITCH, i, parent);
    if (!st || expect(c, i + 1, "(", "after 'switch'")) return NULL;
    st->lp = i + 1;
    st->rp = t[i + 1].match;
    st->e0 = st->lp + 1;
    st->e1 = st->rp;
    if (resolve(c, st->e0, st->e1)) return NULL;
    int m = st->rp + 1;
    st->body = parse_stmt(c, &m, end, st);
    if (!st->body) return NULL;
    st->t1 = m;
  } else if (is_kw(k, "case") || is_kw(k, "default")) {
    st = new_stmt(c, is_kw(k, "case") ? ST_CASE : ST_DEFAULT, i, parent);
    if (!st) return NULL;
    int m = i + 1, q = 0;
    for (; m < end; m++) {
      if (is_punct(&t[m], "(") || is_punct(&t[m], "[") || is_punct(&t[m], "{")) {
        m = t[m].match;
        continue;
      }
      if (is_punct(&t[m], "?")) q++;
      if (is_punct(&t[m], ":")) {
        if (q == 0) break;
        q--;
      }
    }
    if (m >= end) {
      st_error_at(pg->dg, k, "expected ':' after '%s'", k->s);
      return NULL;
    }
    st->colon = m;
    st->e0 = i + 1;
    st->e1 = m;
    if (resolve(c, st->e0, st->e1)) return NULL;
    m++;
    st->body = parse_stmt(c, &m, end, st);
    if (!st->body) return NULL;
    st->t1 = m;
  } else if (is_kw(k, "break") || is_kw(k, "continue")) {
    st = new_stmt(c, is_kw(k, "break") ? ST_BREAK : ST_CONTINUE, i, parent);
    if (!st || expect(c, i + 1, ";", is_kw(k, "break") ? "after 'break'" : "after 'continue'"))
      return NULL;
    st->end_semi = i + 1;
    st->t1 = i + 2;
  } else if (is_kw(k, "return")) {
    st = new_stmt(c, ST_RETURN, i, parent);
    int semi = find_semi(c, i + 1, end);
    if (!st) return NULL;
    if (semi < 0) {
      st_error_at(pg->dg, k, "expected ';' after 'return'");
      return NULL;
    }
    st->e0 = i + 1;
    st->e1 = semi;
    st->end_semi = semi;
    st->t1 = semi + 1;
    if (resolve(c, st->e0, st->e1)) return NULL;
  } else if (is_kw(k, "goto")) {
    st = new_stmt(c, ST_GOTO, i, parent);
    if (!st) return NULL;
    if (t[i + 1].kind != TK_IDENT || expect(c, i + 2, ";", "after 'goto label'")) {
      st_error_at(pg->dg, k, "expected a label after 'goto'");
      return NULL;
    }
    st->e0 = i + 1;
    st->e1 = i + 2;
    st->end_semi = i + 2;
    st->t1 = i + 3;
    if (st_vec_push(pg->ar, &c->fn->gotos, st)) return NULL;
  } else if (k->kind == TK_IDENT && is_punct(&t[i + 1], ":") && !st_is_type_keyword(k->s) &&
             !st_is_qualifier_keyword(k->s)) {
    st = new_stmt(c, ST_LABEL, i, parent);
    if (!st) return NULL;
    st->colon = i + 1;
    int m = i + 2;
    if (m < end) {
      st->body = parse_stmt(c, &m, end, st);
      if (!st->body) return NULL;
    }
    st->t1 = m;
    if (st_vec_push(pg->ar, &c->fn->gotos, st)) return NULL;
  } else if (is_kw(k, "else")) {
    st_error_at(pg->dg, k, "'else' without a matching 'if'");
    return NULL;
  } else {
    int semi = find_semi(c, i, end);
    if (semi < 0) {
      st_error_at(pg->dg, k, "expected ';' after this statement");
      return NULL;
    }
    if (st_is_decl_start(pg, c->sc, i)) {
      st = new_stmt(c, ST_DECL, i, parent);
      if (!st) return NULL;
      st->t1 = semi + 1;
      st->end_semi = semi;
      if (handle_decl(c, st, i, semi, 0)) return NULL;
    } else {
      st = parse_prim_or_expr(c, i, semi, parent);
    }
  }
  if (!st) return NULL;
  *pi = st->t1;
  return st;
}

int st_parse_body(program *pg, func *fn, scope *file_scope) {
  pctx c = {pg, fn, file_scope, pg->tl.t, NULL, 0};
  if (push_scope(&c)) return oom(&c, fn->lp);
  if (!pg->raw && reserved(&c, fn->name_tok)) return -1;
  for (size_t k = 0; k < fn->n_params; k++) {
    param *p = &fn->params[k];
    for (int i = p->t0; i < p->t1 && !pg->raw; i++)
      if (st_tok_is(&c.t[i], "transmit"))
        return st_error_at(pg->dg, &c.t[i],
                           "'transmit' can only qualify a variable declared "
                           "in the body of a cooperative kernel (found in the parameters of '%s')",
                           fn->name);
    if (p->name < 0) continue;
    if (reserved(&c, p->name)) return -1;
    symbol *s = st_declare(pg, c.sc, c.t[p->name].s, SYM_PARAM);
    if (!s) return oom(&c, p->name);
    s->pm = p;
  }
  fn->body = parse_block(&c, fn->lb, NULL);
  if (!fn->body) return -1;
  return 0;
}
