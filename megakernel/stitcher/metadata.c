/* metadata.c: what the host needs to launch a kernel. Classifies each kernel parameter
 * (scalar/vector, global, constant or local pointer), sizes it, assigns its 64-bit words in
 * the launch packet, builds the normalised type text and the dispatcher's cast type, and
 * reads the kernel's attributes (reqd_work_group_size) and return type. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
  const char *w[96];
  int n;
} words;

static int is_punct(const token *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->s, s) == 0;
}
static int is_attr(const token *t) {
  return t->kind == TK_IDENT && (!strcmp(t->s, "__attribute__") || !strcmp(t->s, "__attribute"));
}

static const char *norm_space(const char *s) {
  if (!strcmp(s, "__global")) return "global";
  if (!strcmp(s, "__constant")) return "constant";
  if (!strcmp(s, "__local")) return "local";
  if (!strcmp(s, "__private")) return "private";
  return s;
}

static void add(words *w, const char *s) {
  if (w->n < 96) w->w[w->n++] = s;
}

/* Type words of tokens [a, b) without name `skip` and attributes; arrays become "*".
 * Typedef names are expanded when expand is set. */
static int collect(program *pg, int a, int b, int skip, int expand, words *w, int depth) {
  token *t = pg->tl.t;
  for (int i = a; i < b; i++) {
    if (i == skip) continue;
    if (is_attr(&t[i])) {
      i = st_skip_attribute(pg, i) - 1;
      continue;
    }
    if (is_punct(&t[i], "[")) {
      add(w, "*");
      i = t[i].match;
      continue;
    }
    if (t[i].kind == TK_PP || st_tok_is(&t[i], "typedef")) continue;
    if (is_punct(&t[i], "{")) { /* struct/union/enum body */
      i = t[i].match;
      continue;
    }
    if (expand && t[i].kind == TK_IDENT) {
      symbol *s = st_lookup(pg, pg->fscope, t[i].s);
      if (s && s->kind == SYM_TYPEDEF && s->dc && depth < 8) {
        decl *dc = s->dc;
        /* specifiers without 'typedef', then the declarator without the name */
        if (collect(pg, dc->s0, dc->s1, -1, 1, w, depth + 1)) return -1;
        if (collect(pg, s->dr->d0, s->dr->d1, s->dr->name, 1, w, depth + 1)) return -1;
        continue;
      }
    }
    add(w, norm_space(t[i].s));
  }
  return 0;
}

static char *join(program *pg, const words *w, int drop_cv, int const_to_global) {
  st_buf b = {0};
  for (int i = 0; i < w->n; i++) {
    const char *s = w->w[i];
    if (drop_cv && (!strcmp(s, "const") || !strcmp(s, "volatile"))) continue;
    if (const_to_global && !strcmp(s, "constant")) s = "global const";
    if (b.len && !(!strcmp(s, "*") && b.p[b.len - 1] == '*')) sb_puts(&b, " ");
    sb_puts(&b, s);
  }
  char *r = b.failed ? NULL : st_strdup(pg->ar, b.p ? b.p : "");
  sb_free(&b);
  return r;
}

static int has(const words *w, const char *s) {
  for (int i = 0; i < w->n; i++)
    if (!strcmp(w->w[i], s)) return 1;
  return 0;
}

static int scalar_size(param *p, const words *w, const char **bad) {
  int nchar = 0, nshort = 0, nint = 0, nlong = 0, nsign = 0, other = 0;
  size_t sz = 0;
  *bad = NULL;
  for (int i = 0; i < w->n; i++) {
    const char *s = w->w[i];
    const char *elem;
    int vn;
    if (st_is_qualifier_keyword(s)) continue;
    if (!strcmp(s, "char")) nchar++;
    else if (!strcmp(s, "short")) nshort++;
    else if (!strcmp(s, "int")) nint++;
    else if (!strcmp(s, "long")) nlong++;
    else if (!strcmp(s, "signed") || !strcmp(s, "unsigned")) nsign++;
    else if (!strcmp(s, "bool") || !strcmp(s, "_Bool")) sz = 1, p->is_bool = 1, other++;
    else if (!strcmp(s, "uchar")) sz = 1, other++;
    else if (!strcmp(s, "ushort") || !strcmp(s, "half")) sz = 2, other++;
    else if (!strcmp(s, "uint") || !strcmp(s, "float")) sz = 4, other++;
    else if (!strcmp(s, "ulong") || !strcmp(s, "double") || !strcmp(s, "size_t") ||
             !strcmp(s, "ptrdiff_t") || !strcmp(s, "intptr_t") || !strcmp(s, "uintptr_t"))
      sz = 8, other++;
    else if (st_vector_type(s, &elem, &vn)) {
      words e = {{elem}, 1};
      param tmp;
      const char *b2;
      memset(&tmp, 0, sizeof tmp);
      size_t es = (size_t)scalar_size(&tmp, &e, &b2);
      sz = es * (size_t)(vn == 3 ? 4 : vn);
      p->is_vector = 1;
      p->vec_n = vn;
      p->vec_elem = elem;
      other++;
    } else {
      *bad = s;
      return 0;
    }
  }
  if (other > 1 || (other && (nchar || nshort || nint || nlong || nsign))) {
    *bad = "";
    return 0;
  }
  if (other) return (int)sz;
  if (nchar) return 1;
  if (nshort) return 2;
  if (nlong) return 8;
  if (nint || nsign) return 4;
  *bad = "";
  return 0;
}

int st_kernel_params(program *pg, func *fn) {
  token *t = pg->tl.t;
  size_t word = 0;
  for (size_t k = 0; k < fn->n_params; k++) {
    param *p = &fn->params[k];
    if (p->name < 0)
      return st_error(pg->dg, t[p->t0].line, "parameter %zu of kernel '%s' has no name", k + 1,
                      fn->name);
    const char *pn = t[p->name].s;
    words orig = {{0}, 0}, ex = {{0}, 0};
    if (collect(pg, p->t0, p->t1, p->name, 0, &orig, 0) ||
        collect(pg, p->t0, p->t1, p->name, 1, &ex, 0))
      return -1;
    p->type = join(pg, &orig, 0, 0);
    if (!p->type) return st_error(pg->dg, t[p->t0].line, "out of memory");
    static const char *const unsupported[] = {"sampler_t",   "pipe",         "event_t",
                                              "queue_t",     "clk_event_t",  "reserve_id_t",
                                              "read_only",   "write_only",   "read_write",
                                              "__read_only", "__write_only", "__read_write",
                                              NULL};
    for (int i = 0; i < ex.n; i++) {
      int bad = !strncmp(ex.w[i], "image", 5) && strstr(ex.w[i], "_t");
      for (int u = 0; unsupported[u]; u++)
        if (!strcmp(ex.w[i], unsupported[u])) bad = 1;
      if (bad)
        return st_error(pg->dg, t[p->name].line,
                        "parameter '%s' of kernel '%s' has type '%s': "
                        "images, samplers, pipes and events cannot be passed to stitched "
                        "kernels",
                        pn, fn->name, p->type);
    }
    int stars = 0, first_star = ex.n;
    for (int i = 0; i < ex.n; i++)
      if (!strcmp(ex.w[i], "*")) {
        if (!stars) first_star = i;
        stars++;
      }
    if (stars > 1)
      return st_error(pg->dg, t[p->name].line,
                      "parameter '%s' of kernel '%s' has type '%s': "
                      "pointers to pointers cannot be kernel parameters",
                      pn, fn->name, p->type);
    if (stars == 1) {
      const char *space = NULL;
      for (int i = 0; i < first_star; i++) {
        const char *s = ex.w[i];
        if (!strcmp(s, "global") || !strcmp(s, "constant") || !strcmp(s, "local") ||
            !strcmp(s, "private"))
          space = s;
      }
      if (!space || !strcmp(space, "private"))
        return st_error(pg->dg, t[p->name].line,
                        "pointer parameter '%s' of kernel '%s' must "
                        "point to global, constant or local memory",
                        pn, fn->name);
      p->kind = !strcmp(space, "global")     ? CK_PARAM_GLOBAL_PTR
                : !strcmp(space, "constant") ? CK_PARAM_CONSTANT_PTR
                                             : CK_PARAM_LOCAL_PTR;
      p->size = 8;
      if (p->kind == CK_PARAM_CONSTANT_PTR) {
        if (!has(&orig, "constant"))
          return st_error(pg->dg, t[p->name].line,
                          "parameter '%s' of kernel '%s': a constant "
                          "pointer given through a typedef is not supported; write 'constant "
                          "T *' in the parameter list",
                          pn, fn->name);
        /* the arena is global memory: the kernel gets a global const pointer */
        for (int i = p->t0; i < p->t1; i++)
          if (st_tok_is(&t[i], "constant") || st_tok_is(&t[i], "__constant"))
            t[i].repl = "global const";
      }
      p->cast_type = join(pg, &orig, 0, 1);
    } else {
      for (int i = 0; i < ex.n; i++)
        if (!strcmp(ex.w[i], "struct") || !strcmp(ex.w[i], "union"))
          return st_error(pg->dg, t[p->name].line,
                          "parameter '%s' of kernel '%s' passes a "
                          "%s by value (type '%s'); pass a pointer to global memory instead",
                          pn, fn->name, ex.w[i], p->type);
      const char *bad;
      int sz;
      if (has(&ex, "enum")) {
        sz = 4;
        bad = NULL;
      } else {
        sz = scalar_size(p, &ex, &bad);
      }
      if (has(&ex, "void") || bad || sz == 0)
        return st_error(pg->dg, t[p->name].line,
                        "parameter '%s' of kernel '%s' has type '%s', "
                        "which the stitcher cannot size: only scalars, vectors and pointers "
                        "(or typedefs of them declared in this file) can be kernel parameters",
                        pn, fn->name, p->type);
      p->kind = CK_PARAM_SCALAR;
      p->size = (size_t)sz;
      p->cast_type = join(pg, &orig, 1, 0);
    }
    if (!p->cast_type) return st_error(pg->dg, t[p->t0].line, "out of memory");
    p->word_offset = word;
    word += (p->size + 7) / 8;
  }
  fn->arg_words = word;
  return 0;
}

static int parse_uint(const token *t, size_t *v) {
  if (t->kind != TK_NUMBER) return -1;
  char *end;
  unsigned long long x = strtoull(t->s, &end, 0);
  while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') end++;
  if (*end) return -1;
  *v = (size_t)x;
  return 0;
}

static int scan_attributes(program *pg, func *fn, int a, int b) {
  token *t = pg->tl.t;
  for (int i = a; i < b; i++) {
    if (!st_tok_is(&t[i], "reqd_work_group_size")) continue;
    size_t x, y, z;
    int lp = i + 1;
    if (!is_punct(&t[lp], "(") || t[lp].match != lp + 6 || parse_uint(&t[lp + 1], &x) ||
        !is_punct(&t[lp + 2], ",") || parse_uint(&t[lp + 3], &y) || !is_punct(&t[lp + 4], ",") ||
        parse_uint(&t[lp + 5], &z))
      return st_error(pg->dg, t[i].line,
                      "reqd_work_group_size of kernel '%s' must be three "
                      "integer literals (the stitcher does not expand macros)",
                      fn->name);
    if (y != 1 || z != 1 || x == 0)
      return st_error(pg->dg, t[i].line,
                      "reqd_work_group_size(%zu,%zu,%zu) of kernel '%s': "
                      "stitched kernels support only one-dimensional work-groups, (X,1,1)",
                      x, y, z, fn->name);
    fn->reqd_wg = x;
  }
  return 0;
}

int st_kernel_attributes(program *pg, func *fn) {
  token *t = pg->tl.t;
  if (scan_attributes(pg, fn, fn->t0, fn->name_tok) || scan_attributes(pg, fn, fn->rp + 1, fn->lb))
    return -1;
  int n_void = 0, other = -1;
  for (int i = fn->t0; i < fn->name_tok; i++) {
    if (is_attr(&t[i])) {
      i = st_skip_attribute(pg, i) - 1;
      continue;
    }
    if (t[i].kind == TK_PP) continue;
    const char *s = t[i].s;
    if (!strcmp(s, "kernel") || !strcmp(s, "__kernel") || !strcmp(s, "inline") ||
        !strcmp(s, "static"))
      continue;
    if (!strcmp(s, "void")) n_void++;
    else if (other < 0) other = i;
  }
  if (n_void != 1 || other >= 0)
    return st_error(pg->dg, fn->line, "kernel '%s' must return void", fn->name);
  return 0;
}
