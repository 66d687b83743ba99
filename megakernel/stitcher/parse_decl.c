/* parse_decl.c: declarations. Owns the keyword tables, the statement-start test
 * "is this a declaration", splitting a declaration into specifiers and declarators
 * (name, pointer/array, initializer), and the symbol tables of nested scopes. */
#include <string.h>

#include "internal.h"

static const char *const type_keywords[] = {"void",
                                            "char",
                                            "short",
                                            "int",
                                            "long",
                                            "float",
                                            "double",
                                            "signed",
                                            "unsigned",
                                            "bool",
                                            "_Bool",
                                            "half",
                                            "uchar",
                                            "ushort",
                                            "uint",
                                            "ulong",
                                            "size_t",
                                            "ptrdiff_t",
                                            "intptr_t",
                                            "uintptr_t",
                                            "image1d_t",
                                            "image1d_array_t",
                                            "image1d_buffer_t",
                                            "image2d_t",
                                            "image2d_array_t",
                                            "image3d_t",
                                            "image2d_depth_t",
                                            "image2d_array_depth_t",
                                            "image2d_msaa_t",
                                            "image2d_array_msaa_t",
                                            "image2d_msaa_depth_t",
                                            "image2d_array_msaa_depth_t",
                                            "sampler_t",
                                            "event_t",
                                            "queue_t",
                                            "clk_event_t",
                                            "reserve_id_t",
                                            "ndrange_t",
                                            "atomic_int",
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
                                            "memory_order",
                                            "memory_scope",
                                            "cl_mem_fence_flags",
                                            NULL};

static const char *const qualifier_keywords[] =
  {"const",       "volatile",   "restrict",      "__restrict",  "static",       "extern",
   "register",    "auto",       "inline",        "__inline",    "typedef",      "global",
   "__global",    "local",      "__local",       "private",     "__private",    "constant",
   "__constant",  "generic",    "__generic",     "kernel",      "__kernel",     "read_only",
   "__read_only", "write_only", "__write_only",  "read_write",  "__read_write", "transmit",
   "pipe",        "_Noreturn",  "__attribute__", "__attribute", "_Alignas",     NULL};

static int in_list(const char *const *l, const char *s) {
  for (; *l; l++)
    if (strcmp(*l, s) == 0) return 1;
  return 0;
}

int st_vector_type(const char *s, const char **elem, int *n) {
  static const char *const bases[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                      "long", "ulong", "float", "double", "half", NULL};
  for (int b = 0; bases[b]; b++) {
    size_t l = strlen(bases[b]);
    if (strncmp(s, bases[b], l) != 0) continue;
    const char *r = s + l;
    int v = 0;
    if (strcmp(r, "2") == 0) v = 2;
    else if (strcmp(r, "3") == 0) v = 3;
    else if (strcmp(r, "4") == 0) v = 4;
    else if (strcmp(r, "8") == 0) v = 8;
    else if (strcmp(r, "16") == 0) v = 16;
    if (v) {
      if (elem) *elem = bases[b];
      if (n) *n = v;
      return 1;
    }
  }
  return 0;
}

int st_is_type_keyword(const char *s) {
  return in_list(type_keywords, s) || st_vector_type(s, NULL, NULL);
}

int st_is_qualifier_keyword(const char *s) { return in_list(qualifier_keywords, s); }

static int is_tag_keyword(const char *s) {
  return !strcmp(s, "struct") || !strcmp(s, "union") || !strcmp(s, "enum");
}

int st_skip_attribute(program *pg, int i) {
  token *t = pg->tl.t;
  /* __attribute__ ( ( ... ) ) or _Alignas ( ... ) */
  if (t[i + 1].kind == TK_PUNCT && st_tok_is(&t[i + 1], "(") && t[i + 1].match > 0)
    return t[i + 1].match + 1;
  return i + 1;
}

static int is_attr(const token *t) {
  return t->kind == TK_IDENT && (!strcmp(t->s, "__attribute__") || !strcmp(t->s, "__attribute") ||
                                 !strcmp(t->s, "_Alignas"));
}

symbol *st_lookup(program *pg, scope *sc, const char *name) {
  for (; sc; sc = sc->up) {
    symbol *s = st_map_get(&sc->names, name);
    if (s) return s;
  }
  (void)pg;
  return NULL;
}

symbol *st_declare(program *pg, scope *sc, const char *name, sym_kind kind) {
  symbol *s = st_alloc(pg->ar, sizeof *s);
  if (!s || st_map_put(pg->ar, &sc->names, name, s)) return NULL;
  s->name = name;
  s->kind = kind;
  return s;
}

static int is_punct(const token *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->s, s) == 0;
}

int st_is_decl_start(program *pg, scope *sc, int i) {
  token *t = pg->tl.t;
  if (t[i].kind != TK_IDENT) return 0;
  const char *s = t[i].s;
  if (is_tag_keyword(s) || st_is_type_keyword(s)) return 1;
  if (st_is_qualifier_keyword(s)) return !is_attr(&t[i]);
  if (!strcmp(s, "sizeof") || !strcmp(s, "return")) return 0;
  symbol *sym = st_lookup(pg, sc, s);
  if (sym) return sym->kind == SYM_TYPEDEF;
  /* An unknown identifier (a macro standing for a type, say): "T x" or "T *x =" */
  if (t[i + 1].kind == TK_IDENT) return 1;
  if (is_punct(&t[i + 1], "*") && t[i + 2].kind == TK_IDENT) {
    token *n = &t[i + 3];
    return is_punct(n, "=") || is_punct(n, ";") || is_punct(n, ",") || is_punct(n, "[") ||
           is_punct(n, ")");
  }
  return 0;
}

/* Index of the first token in [a, b) at bracket depth 0 equal to punct s, or b. */
static int find_depth0(program *pg, int a, int b, const char *s) {
  token *t = pg->tl.t;
  for (int i = a; i < b; i++) {
    if (t[i].kind == TK_PUNCT &&
        (is_punct(&t[i], "(") || is_punct(&t[i], "[") || is_punct(&t[i], "{"))) {
      i = t[i].match;
      continue;
    }
    if (is_punct(&t[i], s)) return i;
  }
  return b;
}

/* Words that combine with other type words in C ("unsigned long int"). */
static int c_type_word(const char *s) {
  static const char *const w[] = {"char",   "short",    "int",    "long",
                                  "signed", "unsigned", "double", NULL};
  return in_list(w, s);
}

/* A declaration [i0, b) whose name is missing because the user's name is a type name or a
 * keyword ("int half = 1"): records an error naming it and returns -1; else 0. */
static int reserved_name(program *pg, int i0, int b) {
  return st_check_reserved_name(pg, i0, b, "variable");
}

int st_check_reserved_name(program *pg, int i0, int b, const char *what) {
  token *t = pg->tl.t;
  int j = b - 1;
  while (j > i0 && t[j].kind != TK_IDENT) j--;
  if (j <= i0 || t[j].kind != TK_IDENT) return 0;
  int type = st_is_type_keyword(t[j].s);
  if (!type && (!st_is_qualifier_keyword(t[j].s) || is_attr(&t[j]))) return 0;
  if (!strcmp(what, "parameter") && (!type || c_type_word(t[j].s)))
    return 0; /* "int const", "unsigned int": an unnamed parameter */
  /* some other word before it must already have said the type */
  int typed = 0;
  for (int k = i0; k < j; k++)
    if (t[k].kind == TK_IDENT && !st_is_qualifier_keyword(t[k].s)) typed = 1;
  if (!typed) return 0;
  if (type)
    return st_error(pg->dg, t[j].line,
                    "'%s' is an OpenCL C type name and cannot be a %s "
                    "name; rename the %s",
                    t[j].s, what, what);
  return st_error(pg->dg, t[j].line,
                  "'%s' is an OpenCL C keyword (a qualifier or address "
                  "space) and cannot be a %s name; rename the %s",
                  t[j].s, what, what);
}

int st_parse_decl(program *pg, scope *sc, int i0, int end, decl *out) {
  token *t = pg->tl.t;
  memset(out, 0, sizeof *out);
  out->transmit_tok = out->local_tok = -1;
  out->s0 = i0;
  int i = i0, seen_type = 0;
  while (i < end) {
    token *k = &t[i];
    if (k->kind == TK_PP) {
      i++;
      continue;
    }
    if (k->kind != TK_IDENT) break;
    const char *s = k->s;
    if (is_attr(k)) {
      i = st_skip_attribute(pg, i);
      continue;
    }
    if (is_tag_keyword(s)) {
      i++;
      if (i < end && t[i].kind == TK_IDENT) i++;
      if (i < end && is_punct(&t[i], "{")) i = t[i].match + 1;
      seen_type = 1;
      continue;
    }
    if (st_is_qualifier_keyword(s)) {
      if (!strcmp(s, "typedef")) out->is_typedef = 1;
      else if (!strcmp(s, "transmit")) out->is_transmit = 1, out->transmit_tok = i;
      else if (!strcmp(s, "local") || !strcmp(s, "__local")) out->is_local = 1, out->local_tok = i;
      else if (!strcmp(s, "constant") || !strcmp(s, "__constant")) out->is_constant = 1;
      else if (!strcmp(s, "const")) out->is_const = 1;
      i++;
      continue;
    }
    if (st_is_type_keyword(s)) {
      seen_type = 1;
      i++;
      continue;
    }
    if (!seen_type) {
      seen_type = 1; /* a typedef name, or an unknown identifier used as one */
      i++;
      continue;
    }
    break;
  }
  out->s1 = i;

  /* declarators */
  st_vec v = {0};
  while (i < end) {
    int b = find_depth0(pg, i, end, ",");
    declarator *d = st_alloc(pg->ar, sizeof *d);
    if (!d || st_vec_push(pg->ar, &v, d)) return st_error(pg->dg, t[i].line, "out of memory");
    d->d0 = i;
    int eq = find_depth0(pg, i, b, "=");
    d->d1 = eq;
    d->init0 = d->init1 = -1;
    if (eq < b) {
      d->init0 = eq + 1;
      d->init1 = b;
    }
    d->name = -1;
    for (int j = i; j < d->d1; j++) {
      token *k = &t[j];
      if (is_punct(k, "*")) {
        d->is_ptr = 1;
        continue;
      }
      if (is_attr(k)) {
        j = st_skip_attribute(pg, j) - 1;
        continue;
      }
      if (k->kind == TK_IDENT && !st_is_qualifier_keyword(k->s) && !st_is_type_keyword(k->s)) {
        d->name = j;
        break;
      }
      if (is_punct(k, "(")) continue;
      if (k->kind == TK_IDENT) continue;
      break;
    }
    if (d->name < 0) {
      if (reserved_name(pg, i0, d->d1)) return -1;
      return st_error(pg->dg, t[i].line, "cannot find the name declared by '%s'", t[i].s);
    }
    for (int j = d->name + 1; j < d->d1; j++) {
      if (is_punct(&t[j], ")")) continue;
      if (is_punct(&t[j], "[")) {
        d->is_array = 1;
        if (t[j].match == j + 1) d->incomplete_array = 1;
      } else if (is_punct(&t[j], "(")) {
        d->is_func = 1;
      }
      break;
    }
    i = b < end ? b + 1 : end;
  }
  if (v.n == 0 && out->s1 > i0 + 1 && t[out->s1 - 1].kind == TK_IDENT &&
      st_is_type_keyword(t[out->s1 - 1].s) && !c_type_word(t[out->s1 - 1].s) &&
      reserved_name(pg, i0, out->s1))
    return -1; /* "int half;" */
  out->n = v.n;
  out->d = st_alloc(pg->ar, (v.n ? v.n : 1) * sizeof(declarator));
  if (!out->d) return st_error(pg->dg, t[i0].line, "out of memory");
  for (size_t k = 0; k < v.n; k++) out->d[k] = *(declarator *)v.v[k];
  return 0;
}
