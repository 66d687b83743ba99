/* lexer.c: turns OpenCL C source into tokens. Owns line splicing (backslash-newline),
 * comments, string and character literals, preprocessor directives (one token each, with
 * continuation lines joined and comments blanked) and bracket matching. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
  char *s;   /* spliced source */
  int *line; /* line of each spliced character */
  size_t n;
} spliced;

static int splice(st_arena *a, const char *src, spliced *sp) {
  size_t n = strlen(src);
  sp->s = st_alloc(a, n + 1);
  sp->line = st_alloc(a, (n + 1) * sizeof(int));
  if (!sp->s || !sp->line) return -1;
  int line = 1;
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    if (src[i] == '\\' && src[i + 1] == '\n') {
      i++;
      line++;
      continue;
    }
    if (src[i] == '\\' && src[i + 1] == '\r' && src[i + 2] == '\n') {
      i += 2;
      line++;
      continue;
    }
    sp->s[j] = src[i];
    sp->line[j] = line;
    j++;
    if (src[i] == '\n') line++;
  }
  sp->s[j] = 0;
  sp->line[j] = line;
  sp->n = j;
  return 0;
}

static const char *const puncts3[] = {">>=", "<<=", "...", NULL};
static const char *const puncts2[] = {"->", "++", "--", "<<", ">>", "<=", ">=",
                                      "==", "!=", "&&", "||", "*=", "/=", "%=",
                                      "+=", "-=", "&=", "^=", "|=", "##", NULL};

int st_tok_is(const token *t, const char *s) { return strcmp(t->s, s) == 0; }

static int push_tok(st_arena *a, st_vec *v, tok_kind k, const char *text, size_t len, int line,
                    size_t off, size_t end) {
  token *t = st_alloc(a, sizeof *t);
  if (!t) return -1;
  t->kind = k;
  t->s = st_strndup(a, text, len);
  if (!t->s) return -1;
  t->line = line;
  t->col = 0;
  t->off = off;
  t->end = end;
  t->match = -1;
  return st_vec_push(a, v, t);
}

/* Skips a string or character literal starting at i (the quote); returns the index after
 * it, or (size_t)-1 if it is not terminated on its line. */
static size_t skip_literal(const spliced *sp, size_t i) {
  char q = sp->s[i++];
  while (i < sp->n && sp->s[i] != q) {
    if (sp->s[i] == '\n') return (size_t)-1;
    if (sp->s[i] == '\\' && i + 1 < sp->n) i++;
    i++;
  }
  return i < sp->n ? i + 1 : (size_t)-1;
}

/* "#line N" / "#line N "file"" / "# N "file"": remember where it moves line numbers (the
 * directive itself is dropped; the output carries its own #line directives). */
static int line_directive(st_arena *a, st_diag *d, token *t, int phys) {
  const char *p = t->s + 1;
  while (*p == ' ' || *p == '\t') p++;
  if (!strncmp(p, "line", 4) && (p[4] == ' ' || p[4] == '\t')) p += 4;
  else if (!isdigit((unsigned char)*p)) return 0;
  while (*p == ' ' || *p == '\t') p++;
  if (!isdigit((unsigned char)*p)) return 0;
  const char *digits = p;
  long n = strtol(p, (char **)&p, 10); /* LONG_MAX on overflow */
  if (n > ST_MAX_LINE)
    return st_error(d, t->line,
                    "#line number %.*s is too large: the stitcher accepts line "
                    "numbers up to %d",
                    (int)(p - digits > 40 ? 40 : p - digits), digits, ST_MAX_LINE);
  while (*p == ' ' || *p == '\t') p++;
  const char *file = d->n_marks ? d->marks[d->n_marks - 1].file : d->file;
  if (*p == '"') {
    const char *e = ++p;
    while (*e && *e != '"') e += (*e == '\\' && e[1]) ? 2 : 1;
    char *f = st_strndup(a, p, (size_t)(e - p));
    if (!f) return -1;
    /* undo the escapes of \\ and \" */
    char *o = f;
    for (const char *q = f; *q; q++) {
      if (*q == '\\' && (q[1] == '\\' || q[1] == '"')) q++;
      *o++ = *q;
    }
    *o = 0;
    file = f;
  }
  if (d->n_marks == d->cap_marks) { /* grow by doubling: linear in the directives */
    size_t cap = d->cap_marks ? 2 * d->cap_marks : 16;
    st_line_mark *m = st_alloc(a, cap * sizeof *m);
    if (!m) return -1;
    if (d->n_marks) memcpy(m, d->marks, d->n_marks * sizeof *m);
    d->marks = m;
    d->cap_marks = cap;
  }
  d->marks[d->n_marks++] = (st_line_mark){phys, (int)n, file};
  t->repl = "";
  return 0;
}

static int lex_directive(st_arena *a, st_diag *d, const spliced *sp, size_t *pi, st_vec *v) {
  size_t i = *pi, start = i;
  st_buf b = {0};
  while (i < sp->n && sp->s[i] != '\n') {
    char c = sp->s[i];
    if (c == '/' && sp->s[i + 1] == '*') {
      size_t j = i + 2;
      while (j < sp->n && !(sp->s[j] == '*' && sp->s[j + 1] == '/')) j++;
      if (j >= sp->n) {
        sb_free(&b);
        return st_error(d, sp->line[i], "unterminated comment");
      }
      sb_put(&b, " ", 1);
      i = j + 2;
      continue;
    }
    if (c == '/' && sp->s[i + 1] == '/') {
      while (i < sp->n && sp->s[i] != '\n') i++;
      break;
    }
    if (c == '"' || c == '\'') {
      size_t j = skip_literal(sp, i);
      if (j == (size_t)-1) { /* e.g. #error don't: keep the rest of the line */
        j = i;
        while (j < sp->n && sp->s[j] != '\n') j++;
      }
      sb_put(&b, sp->s + i, j - i);
      i = j;
      continue;
    }
    sb_put(&b, &c, 1);
    i++;
  }
  if (b.failed) {
    sb_free(&b);
    return -1;
  }
  size_t len = b.len;
  while (len > 0 && isspace((unsigned char)b.p[len - 1])) len--;
  int r = push_tok(a, v, TK_PP, b.p, len, sp->line[start], start, i);
  sb_free(&b);
  *pi = i;
  if (r == 0) r = line_directive(a, d, v->v[v->n - 1], sp->line[i < sp->n ? i : sp->n]);
  return r;
}

int st_lex(st_arena *a, st_diag *d, const char *src, token_list *out) {
  spliced sp;
  if (splice(a, src, &sp)) return st_error(d, 1, "out of memory");
  st_vec v = {0};
  size_t i = 0;
  int bol = 1;
  while (i < sp.n) {
    char c = sp.s[i];
    int line = sp.line[i];
    if (c == '\n') {
      bol = 1;
      i++;
      continue;
    }
    if (isspace((unsigned char)c)) {
      i++;
      continue;
    }
    if (c == '/' && sp.s[i + 1] == '*') {
      size_t j = i + 2;
      while (j < sp.n && !(sp.s[j] == '*' && sp.s[j + 1] == '/')) j++;
      if (j >= sp.n) return st_error(d, line, "unterminated comment");
      i = j + 2;
      continue;
    }
    if (c == '/' && sp.s[i + 1] == '/') {
      while (i < sp.n && sp.s[i] != '\n') i++;
      continue;
    }
    if (c == '#' && bol) {
      if (lex_directive(a, d, &sp, &i, &v))
        return d->failed ? -1 : st_error(d, line, "out of memory");
      continue;
    }
    bol = 0;
    size_t j = i;
    tok_kind k;
    if (isalpha((unsigned char)c) || c == '_') {
      while (j < sp.n && (isalnum((unsigned char)sp.s[j]) || sp.s[j] == '_')) j++;
      k = TK_IDENT;
    } else if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)sp.s[i + 1]))) {
      j++;
      while (j < sp.n) {
        char x = sp.s[j];
        if ((x == '+' || x == '-') && strchr("eEpP", sp.s[j - 1])) {
          j++;
          continue;
        }
        if (isalnum((unsigned char)x) || x == '_' || x == '.') {
          j++;
          continue;
        }
        break;
      }
      k = TK_NUMBER;
    } else if (c == '"' || c == '\'') {
      j = skip_literal(&sp, i);
      if (j == (size_t)-1)
        return st_error(d, line, "unterminated %s literal", c == '"' ? "string" : "character");
      k = c == '"' ? TK_STRING : TK_CHAR;
    } else {
      k = TK_PUNCT;
      j = i + 1;
      for (int m = 0; puncts3[m]; m++)
        if (strncmp(sp.s + i, puncts3[m], 3) == 0) j = i + 3;
      if (j == i + 1)
        for (int m = 0; puncts2[m]; m++)
          if (strncmp(sp.s + i, puncts2[m], 2) == 0) j = i + 2;
    }
    if (push_tok(a, &v, k, sp.s + i, j - i, line, i, j)) return st_error(d, line, "out of memory");
    i = j;
  }
  if (push_tok(a, &v, TK_EOF, "", 0, sp.line[sp.n], sp.n, sp.n))
    return st_error(d, 1, "out of memory");

  out->n = v.n;
  out->t = st_alloc(a, v.n * sizeof(token));
  if (!out->t) return st_error(d, 1, "out of memory");
  size_t bol_off = 0, scan = 0; /* start of the current line; scanned up to here */
  for (size_t k = 0; k < v.n; k++) {
    token *t = &out->t[k];
    *t = *(token *)v.v[k];
    for (; scan < t->off; scan++) /* tokens are in order: one pass over the source */
      if (sp.s[scan] == '\n') bol_off = scan + 1;
    size_t col = t->off - bol_off;
    t->col = col > 1000000 ? 1000000 : (int)col;
  }

  /* bracket matching */
  int *stack = st_alloc(a, (v.n + 1) * sizeof(int));
  if (!stack) return st_error(d, 1, "out of memory");
  int sp_top = 0;
  for (size_t k = 0; k < out->n; k++) {
    token *t = &out->t[k];
    if (t->kind != TK_PUNCT) continue;
    char ch = t->s[0];
    if (t->s[1]) continue;
    if (ch == '(' || ch == '[' || ch == '{') {
      stack[sp_top++] = (int)k;
    } else if (ch == ')' || ch == ']' || ch == '}') {
      char want = ch == ')' ? '(' : ch == ']' ? '[' : '{';
      if (sp_top == 0) return st_error(d, t->line, "unbalanced '%c'", ch);
      token *o = &out->t[stack[sp_top - 1]];
      if (o->s[0] != want)
        return st_error(d, t->line, "'%c' does not match the '%c' on line %d", ch, o->s[0],
                        st_user_line(d, o->line, NULL));
      o->match = (int)k;
      t->match = stack[--sp_top];
    }
  }
  if (sp_top) {
    token *o = &out->t[stack[sp_top - 1]];
    return st_error(d, o->line, "'%c' is never closed", o->s[0]);
  }
  return 0;
}
