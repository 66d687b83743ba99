/* transform_body.c: emits function bodies. Owns the rewriting of statements: primitives
 * (offer_kill, global_barrier, request_fork, resizing_global_barrier with the transmit
 * struct), removal of hoisted declarations, and resumption at fork points: a forward goto
 * from the kernel's start to a label after the call when the call is in no loop, and
 * otherwise a peeled resume block placed before the outermost enclosing loop, which runs
 * the rest of each interrupted iteration and re-enters each loop through its normal entry,
 * so that the control flow stays reducible. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct {
  emitter *e;
  func *fn;
  token *t;
  stmt *loop_pragma; /* "#pragma unroll" etc. held back for the loop emit_peeled emits */
  /* The ck_i<N>_end labels of inlined helpers (inline.c): each copy of such a helper's
   * block that a resume block makes gets its own label, ck_i<N>_end_<copy>; a return's
   * goto names the label of the copy being emitted around it. */
  st_map label_copy; /* label -> 1 + copy number of the block being emitted (0: original) */
  int n_copies;
  int in_copy; /* emitting a resume block */
} bctx;

/* The inline.c label ending block s, or NULL. */
static const char *end_label(const bctx *b, const stmt *s) {
  if (!b->e->pg->inlined || s->kind != ST_BLOCK || !s->n_items) return NULL;
  const stmt *last = s->items[s->n_items - 1];
  if (last->kind != ST_LABEL || !st_inline_name(b->t[last->kw].s)) return NULL;
  return b->t[last->kw].s;
}

/* Enters block s: a copy gets a new number for its label. Returns the value to restore. */
static void *enter_copy(bctx *b, const stmt *s) {
  const char *l = end_label(b, s);
  if (!l) return NULL;
  void *old = st_map_get(&b->label_copy, l);
  size_t v = b->in_copy ? (size_t)++b->n_copies + 1 : 1;
  if (st_map_put(b->e->pg->ar, &b->label_copy, l, (void *)v)) b->e->out.failed = 1;
  return old;
}

static void leave_copy(bctx *b, const stmt *s, void *old) {
  const char *l = end_label(b, s);
  if (l && st_map_put(b->e->pg->ar, &b->label_copy, l, old)) b->e->out.failed = 1;
}

/* Writes an inline.c label name with the number of the copy being emitted. */
static int emit_copy_label(bctx *b, int tok, const char *fmt) {
  const char *l = b->t[tok].s;
  if (!b->e->pg->inlined || !st_inline_name(l)) return 0;
  size_t v = (size_t)st_map_get(&b->label_copy, l);
  if (v < 2) return 0;
  em_sync(b->e, b->t[tok].line);
  em_genf(b->e, fmt, l, (int)(v - 1));
  return 1;
}

static int is_loop(const stmt *s) {
  return s->kind == ST_FOR || s->kind == ST_WHILE || s->kind == ST_DO;
}

/* A pragma that must be followed directly by a loop (clang rejects anything else). */
static int is_loop_pragma(const bctx *b, const stmt *s) {
  if (s->kind != ST_PP) return 0;
  const char *p = b->t[s->t0].s + 1;
  while (*p == ' ' || *p == '\t') p++;
  if (strncmp(p, "pragma", 6) != 0) return 0;
  return strstr(p, "unroll") != NULL || strstr(p, "clang loop") != NULL;
}

/* #define or #undef: the resume code, placed before the loop, must see it too */
static int is_macro_directive(const bctx *b, const stmt *s) {
  if (s->kind != ST_PP) return 0;
  const char *p = b->t[s->t0].s + 1;
  while (*p == ' ' || *p == '\t') p++;
  return !strncmp(p, "define", 6) || !strncmp(p, "undef", 5);
}

/* break/continue targets of the code being emitted; NULL: native */
typedef struct {
  const char *brk, *cont;
} jctx;

static const jctx NATIVE = {NULL, NULL};

static void emit_stmt(bctx *b, stmt *s, jctx j);
static void emit_items(bctx *b, stmt *block, jctx j);

/* A declaration. uninit: declarators without initializers (resume blocks). for_init: the
 * declaration is a for-init, which has no ';' of its own. */
static void emit_decl(bctx *b, decl *dc, int uninit, int for_init) {
  emitter *e = b->e;
  int hoisted = 0;
  for (size_t k = 0; k < dc->n; k++) hoisted += dc->d[k].hoisted;
  if ((!uninit && !hoisted) || dc->is_typedef || dc->n == 0) {
    em_range(e, dc->t0, dc->t1);
    if (uninit && for_init) em_gen(e, ";");
    return;
  }
  if ((size_t)hoisted == dc->n) return;
  em_range(e, dc->s0, dc->s1);
  int first = 1;
  for (size_t k = 0; k < dc->n; k++) {
    declarator *d = &dc->d[k];
    if (d->hoisted) continue;
    if (!first) em_gen(e, ",");
    first = 0;
    if (!uninit || d->incomplete_array) em_range(e, d->d0, d->init0 >= 0 ? d->init1 : d->d1);
    else em_range(e, d->d0, d->d1);
  }
  if (uninit || !for_init) em_gen(e, ";");
}

static void emit_restore(bctx *b, fork_point *fp) {
  if (fp->tx.n == 0) return;
  em_genf(b->e, "{ global const ck_tx_%s_t *ck_txp = (global const ck_tx_%s_t *)ck_tx_in;",
          b->fn->name, b->fn->name);
  for (size_t k = 0; k < fp->tx.n; k++) {
    tvar *tv = fp->tx.v[k];
    em_genf(b->e, "%s = ck_txp->%s;", tv->name, tv->field);
  }
  em_gen(b->e, "}");
}

/* Whether a bare `return;` can leave b's function: a kernel, or a helper declared void
 * (not a pointer to void). */
static int returns_void(const bctx *b) {
  if (b->fn->is_kernel) return 1;
  int is_void = 0;
  for (int i = b->fn->t0; i < b->fn->name_tok; i++) {
    if (st_tok_is(&b->t[i], "*")) return 0;
    if (st_tok_is(&b->t[i], "void")) is_void = 1;
  }
  return is_void;
}

static void emit_prim(bctx *b, stmt *s) {
  emitter *e = b->e;
  em_sync(e, s->line);
  switch (s->prim) {
  case PRIM_OFFER_KILL:
    em_gen(e, "{ if (ck_offer_kill(ck_ctx)) return; }");
    return;
  case PRIM_GLOBAL_BARRIER:
    /* A barrier that returns nonzero was cut short by an abort: the group leaves where a
     * bare return can take it; a helper with a value carries on to the next primitive. */
    em_gen(e, returns_void(b) ? "{ if (ck_global_barrier(ck_ctx)) return; }"
                              : "ck_global_barrier(ck_ctx);");
    return;
  default:
    break;
  }
  fork_point *fp = s->fork;
  int p = fp->index;
  if (!fp->outer_loop) em_gen(e, "{");
  em_genf(e, "{ ck_tx_%s_t ck_tx;", b->fn->name);
  for (size_t k = 0; k < fp->tx.n; k++) {
    tvar *tv = fp->tx.v[k];
    em_genf(e, "ck_tx.%s = %s;", tv->field, tv->name);
  }
  if (s->prim == PRIM_REQUEST_FORK)
    em_genf(e, "if (ck_request_fork(ck_ctx, %du, &ck_tx, (uint)sizeof(ck_tx))) return; }", p);
  else
    em_genf(e,
            "if (ck_resizing_global_barrier(ck_ctx, %du, &ck_tx, (uint)sizeof(ck_tx))) "
            "return; }",
            p);
  if (!fp->outer_loop) {
    /* not in a loop: the resumed work-group jumps here from the kernel's start */
    em_genf(e, "ck_res_%d: if (ck_resume == %du) {", p, p);
    emit_restore(b, fp);
    em_gen(e, "} }");
  }
}

/* A loop. with_init: emit a for-loop's init; again: the loop entered again after an
 * iteration (for without init, do-while as while). */
static void emit_loop(bctx *b, stmt *s, int with_init, int again) {
  emitter *e = b->e;
  em_range(e, s->attr0, s->attr1);
  switch (s->kind) {
  case ST_FOR:
    em_tok(e, s->kw);
    em_tok(e, s->lp);
    if (with_init && s->init) {
      if (s->init->kind == ST_DECL) emit_decl(b, s->init->decl, 0, 1);
      else em_range(e, s->init->e0, s->init->e1);
    }
    em_tok(e, s->semi1);
    em_range(e, s->e0, s->e1);
    em_tok(e, s->semi2);
    em_range(e, s->s0, s->s1);
    em_tok(e, s->rp);
    emit_stmt(b, s->body, NATIVE);
    break;
  case ST_WHILE:
    em_range(e, s->kw, s->rp + 1);
    emit_stmt(b, s->body, NATIVE);
    break;
  case ST_DO:
    if (again) {
      em_sync(e, b->t[s->while_kw].line);
      em_gen(e, "while");
      em_range(e, s->lp, s->rp + 1);
      emit_stmt(b, s->body, NATIVE);
    } else {
      em_tok(e, s->kw);
      emit_stmt(b, s->body, NATIVE);
      em_range(e, s->while_kw, s->end_semi + 1);
    }
    break;
  default:
    break;
  }
}

static void emit_step(bctx *b, stmt *s) {
  if (s->kind == ST_FOR && s->s1 > s->s0) {
    em_range(b->e, s->s0, s->s1);
    em_gen(b->e, ";");
  }
}

/* The rest of path[k] after the fork point path[n-1] completes, run in the scope that
 * encloses path[k]; break/continue that leave path[k] go to j. */
static void emit_rest(bctx *b, fork_point *fp, stmt **path, size_t k, size_t n, jctx j) {
  emitter *e = b->e;
  if (em_over(e)) return;
  stmt *node = path[k];
  if (k == n - 1) {
    emit_restore(b, fp);
    return;
  }
  stmt *next = path[k + 1];
  switch (node->kind) {
  case ST_BLOCK: {
    size_t idx = 0;
    while (node->items[idx] != next) idx++;
    void *old = enter_copy(b, node);
    em_gen(e, "{");
    for (size_t m = 0; m < idx; m++) {
      stmt *it = node->items[m];
      if (it->kind == ST_DECL) emit_decl(b, it->decl, 1, 0);
      else if (is_macro_directive(b, it)) em_tok(e, it->t0); /* the copy comes first */
    }
    emit_rest(b, fp, path, k + 1, n, j);
    for (size_t m = idx + 1; m < node->n_items; m++) emit_stmt(b, node->items[m], j);
    em_gen(e, "}");
    leave_copy(b, node, old);
    break;
  }
  case ST_FOR:
  case ST_WHILE:
  case ST_DO: {
    char brk[48], cont[48];
    snprintf(brk, sizeof brk, "ck_p%d_b%zu", fp->index, k + 1);
    snprintf(cont, sizeof cont, "ck_p%d_c%zu", fp->index, k + 1);
    em_gen(e, "{");
    if (node->kind == ST_FOR && node->init && node->init->kind == ST_DECL)
      emit_decl(b, node->init->decl, 1, 1);
    emit_rest(b, fp, path, k + 1, n, (jctx){brk, cont});
    em_genf(e, "%s: ;", cont);
    emit_step(b, node);
    emit_loop(b, node, 0, 1);
    em_genf(e, "} %s: ;", brk);
    break;
  }
  default: /* if, label: the rest of the branch taken is the rest of the statement */
    emit_rest(b, fp, path, k + 1, n, j);
    break;
  }
}

/* The outermost loop L of one or more fork points. The resume blocks and L sit in a
 * two-pass wrapper loop: pass 0 (resumed work-groups only) runs the resume block of the
 * fork point, pass 1 enters L through its normal entry. Reached by a forward goto from the
 * kernel's start, the wrapper is entered through its own header, so the control flow
 * stays reducible; and because the resume code rejoins L only through the wrapper's back
 * edge, PoCL's barrier tail replication does not copy L once per barrier of the resume
 * code (measured: 24 s -> 2 s of PoCL compile time for a three-deep loop nest). */
static void emit_peeled(bctx *b, stmt *L) {
  emitter *e = b->e;
  int saved_peel = e->peel_line;
  if (!saved_peel) e->peel_line = L->line; /* names the loop if the output cap is reached */
  em_sync(e, L->line);
  em_gen(e, "{");
  if (L->kind == ST_FOR && L->init) {
    if (L->init->kind == ST_DECL) emit_decl(b, L->init->decl, 0, 1);
    else em_range(e, L->init->e0, L->init->e1);
    em_gen(e, ";");
  }
  em_gen(e, "\n");
  for (size_t f = 0; f < L->peeled.n; f++)
    em_genf(e, "ck_res_%d: ;", ((fork_point *)L->peeled.v[f])->index);
  fork_point *f0 = L->peeled.v[0];
  em_genf(e, "\nfor (uint ck_pass%d = (", f0->index);
  for (size_t f = 0; f < L->peeled.n; f++)
    em_genf(e, "%sck_resume == %du", f ? " || " : "", ((fork_point *)L->peeled.v[f])->index);
  em_genf(e, ") ? 0u : 1u; ck_pass%d < 2u; ck_pass%d++) {\nif (ck_pass%d == 0u) {", f0->index,
          f0->index, f0->index);
  for (size_t f = 0; f < L->peeled.n; f++) {
    fork_point *fp = L->peeled.v[f];
    int p = fp->index;
    size_t n = 0;
    for (stmt *s = fp->st; s != L; s = s->parent) n++;
    stmt **path = st_alloc(e->pg->ar, n * sizeof(stmt *));
    if (!path) {
      e->out.failed = 1;
      return;
    }
    size_t k = n;
    for (stmt *s = fp->st; s != L; s = s->parent) path[--k] = s;
    char brk[48], cont[48];
    snprintf(brk, sizeof brk, "ck_p%d_b0", p);
    snprintf(cont, sizeof cont, "ck_p%d_c0", p);
    b->in_copy = 1;
    em_genf(e, "\n%sif (ck_resume == %du) {", f ? "else " : "", p);
    emit_rest(b, fp, path, 0, n, (jctx){brk, cont});
    em_genf(e, "%s: ;", cont);
    emit_step(b, L);
    if (L->kind == ST_DO) {
      em_gen(e, "if (!(");
      em_range(e, L->e0, L->e1);
      em_genf(e, ")) goto %s;", brk);
    }
    em_gen(e, "}");
    b->in_copy = 0;
    if (em_over(e)) break;
  }
  b->in_copy = 0;
  e->peel_line = saved_peel;
  em_gen(e, "\n} else {\n");
  if (b->loop_pragma) em_tok(e, b->loop_pragma->t0);
  b->loop_pragma = NULL;
  emit_loop(b, L, 0, 0);
  em_gen(e, "} }");
  for (size_t f = 0; f < L->peeled.n; f++)
    em_genf(e, "ck_p%d_b0: ;", ((fork_point *)L->peeled.v[f])->index);
  em_gen(e, "}");
}

static void emit_items(bctx *b, stmt *block, jctx j) {
  for (size_t k = 0; k < block->n_items && !em_over(b->e); k++) {
    stmt *next = k + 1 < block->n_items ? block->items[k + 1] : NULL;
    if (next && is_loop(next) && next->peeled.n && is_loop_pragma(b, block->items[k]))
      b->loop_pragma = block->items[k]; /* emit_peeled puts it back in front of the loop */
    else emit_stmt(b, block->items[k], j);
  }
}

static void emit_stmt(bctx *b, stmt *s, jctx j) {
  emitter *e = b->e;
  if (em_over(e)) return;
  switch (s->kind) {
  case ST_PP:
  case ST_EMPTY:
  case ST_EXPR:
  case ST_RETURN:
    em_range(e, s->t0, s->t1);
    break;
  case ST_GOTO:
    if (!emit_copy_label(b, s->kw + 1, "goto %s_%d;")) em_range(e, s->t0, s->t1);
    break;
  case ST_BLOCK: {
    void *old = enter_copy(b, s);
    em_tok(e, s->t0);
    emit_items(b, s, j);
    em_tok(e, s->t1 - 1);
    leave_copy(b, s, old);
    break;
  }
  case ST_DECL:
    emit_decl(b, s->decl, 0, 0);
    break;
  case ST_BREAK:
  case ST_CONTINUE: {
    const char *to = s->kind == ST_BREAK ? j.brk : j.cont;
    if (to) {
      em_sync(e, s->line);
      em_genf(e, "goto %s;", to);
    } else {
      em_range(e, s->t0, s->t1);
    }
    break;
  }
  case ST_LABEL:
  case ST_CASE:
  case ST_DEFAULT:
    if (s->kind != ST_LABEL || !emit_copy_label(b, s->kw, "%s_%d:"))
      em_range(e, s->kw, s->colon + 1);
    if (s->body) emit_stmt(b, s->body, j);
    break;
  case ST_IF:
    em_range(e, s->kw, s->rp + 1);
    emit_stmt(b, s->body, j);
    if (s->els) {
      em_tok(e, s->else_kw);
      emit_stmt(b, s->els, j);
    }
    break;
  case ST_SWITCH:
    em_range(e, s->kw, s->rp + 1);
    emit_stmt(b, s->body, (jctx){NULL, j.cont});
    break;
  case ST_FOR:
  case ST_WHILE:
  case ST_DO:
    if (s->peeled.n) emit_peeled(b, s);
    else emit_loop(b, s, 1, 0);
    break;
  case ST_PRIM:
    emit_prim(b, s);
    break;
  }
}

void st_emit_body(emitter *e, func *fn) {
  bctx b = {e, fn, e->pg->tl.t, NULL, {0}, 0, 0};
  stmt *body = fn->body;
  em_tok(e, body->t0);
  for (size_t k = 0; k < fn->forks.n; k++) {
    int p = ((fork_point *)fn->forks.v[k])->index;
    em_genf(e, "if (ck_resume == %du) goto ck_res_%d;", p, p);
  }
  emit_items(&b, body, NATIVE);
  em_tok(e, body->t1 - 1);
}
