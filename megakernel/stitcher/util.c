/* util.c: the stitcher's memory arena, growable string buffer, pointer vector and the
 * diagnostics: "file:line: error: sentence", and at a token "file:line:col: error|warning:
 * sentence" with an optional "file:line:col: note: sentence" line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct st_arena_block {
  st_arena_block *next;
  size_t used, cap;
  max_align_t data[];
};

#define ARENA_BLOCK (64 * 1024)

void *st_alloc(st_arena *a, size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (n == 0) n = sizeof(max_align_t);
  st_arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    b = malloc(sizeof(st_arena_block) + cap);
    if (!b) {
      a->failed = 1;
      return NULL;
    }
    b->cap = cap;
    b->used = 0;
    b->next = a->head;
    a->head = b;
  }
  void *p = (char *)b->data + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *st_strndup(st_arena *a, const char *s, size_t n) {
  char *p = st_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *st_strdup(st_arena *a, const char *s) { return st_strndup(a, s, strlen(s)); }

char *st_fmt(st_arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *p = st_alloc(a, (size_t)n + 1);
  if (!p) return NULL;
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void st_arena_free(st_arena *a) {
  st_arena_block *b = a->head;
  while (b) {
    st_arena_block *n = b->next;
    free(b);
    b = n;
  }
  a->head = NULL;
}

void sb_put(st_buf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

void sb_puts(st_buf *b, const char *s) { sb_put(b, s, strlen(s)); }

void sb_printf(st_buf *b, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->failed = 1;
    return;
  }
  if ((size_t)n < sizeof small) {
    sb_put(b, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) {
    b->failed = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb_put(b, big, (size_t)n);
  free(big);
}

void sb_free(st_buf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

int st_user_line(const st_diag *d, int phys, const char **file) {
  /* the last mark before phys (marks are in order of phys): binary search */
  size_t lo = 0, hi = d->n_marks;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (d->marks[mid].phys < phys) lo = mid + 1;
    else hi = mid;
  }
  const st_line_mark *m = lo ? &d->marks[lo - 1] : NULL;
  if (file) *file = m ? m->file : d->file;
  return m ? m->line + (phys - m->phys - 1) : phys;
}

int st_error(st_diag *d, int line, const char *fmt, ...) {
  if (d->failed) return -1;
  d->failed = 1;
  if (!d->err || d->err_len == 0) return -1;
  const char *file = d->file;
  if (line > 0) line = st_user_line(d, line, &file);
  int n = snprintf(d->err, d->err_len, "%s:%d: error: ", file, line);
  if (n < 0 || (size_t)n >= d->err_len) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->err + n, d->err_len - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

void st_warn(st_diag *d, int line, const char *fmt, ...) {
  const char *file = d->file;
  if (line > 0) line = st_user_line(d, line, &file);
  sb_printf(&d->warnings, "%s:%d: warning: ", file, line);
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *msg = n < 0 ? NULL : malloc((size_t)n + 1);
  if (!msg) {
    d->warnings.failed = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb_puts(&d->warnings, msg);
  sb_puts(&d->warnings, "\n");
  free(msg);
}

int st_vec_push(st_arena *a, st_vec *v, void *item) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 8;
    void **nv = st_alloc(a, cap * sizeof(void *));
    if (!nv) return -1;
    if (v->n) memcpy(nv, v->v, v->n * sizeof(void *));
    v->v = nv;
    v->cap = cap;
  }
  v->v[v->n++] = item;
  return 0;
}

static size_t hash_str(const char *s) {
  size_t h = 1469598103934665603u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

void *st_map_get(const st_map *m, const char *key) {
  if (!m->cap) return NULL;
  for (size_t i = hash_str(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (!m->keys[i]) return NULL;
    if (!strcmp(m->keys[i], key)) return m->vals[i];
  }
}

static void map_insert(st_map *m, const char *key, void *val) {
  size_t i = hash_str(key) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], key)) i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) m->n++;
  m->keys[i] = key;
  m->vals[i] = val;
}

int st_map_put(st_arena *a, st_map *m, const char *key, void *val) {
  if (2 * (m->n + 1) > m->cap) {
    st_map g = {0};
    g.cap = m->cap ? 2 * m->cap : 16;
    g.keys = st_alloc(a, g.cap * sizeof *g.keys);
    g.vals = st_alloc(a, g.cap * sizeof *g.vals);
    if (!g.keys || !g.vals) return -1;
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) map_insert(&g, m->keys[i], m->vals[i]);
    *m = g;
  }
  map_insert(m, key, val);
  return 0;
}

/* "file:line:col: " of token t into buf */
static void where(const st_diag *d, const token *t, char *buf, size_t len) {
  const char *file = d->file;
  int line = t->line > 0 ? st_user_line(d, t->line, &file) : t->line;
  snprintf(buf, len, "%s:%d:%d: ", file, line, t->col + 1);
}

int st_error_at(st_diag *d, const token *t, const char *fmt, ...) {
  if (d->failed) return -1;
  d->failed = 1;
  d->error_noted = 0;
  if (!d->err || d->err_len == 0) return -1;
  char head[512];
  where(d, t, head, sizeof head);
  int n = snprintf(d->err, d->err_len, "%serror: ", head);
  if (n < 0 || (size_t)n >= d->err_len) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->err + n, d->err_len - (size_t)n, fmt, ap);
  va_end(ap);
  d->error_noted = 1;
  return -1;
}

void st_note_error(st_diag *d, const token *t, const char *fmt, ...) {
  if (!d->error_noted || !d->err) return;
  d->error_noted = 0;
  size_t n = strlen(d->err);
  if (n + 1 >= d->err_len) return;
  char head[512];
  where(d, t, head, sizeof head);
  int m = snprintf(d->err + n, d->err_len - n, "\n%snote: ", head);
  if (m < 0 || (size_t)m >= d->err_len - n) return;
  n += (size_t)m;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->err + n, d->err_len - n, fmt, ap);
  va_end(ap);
}

/* Appends "<lead>file:line:col: <kind>: <message><tail>" at token t to b. */
static void diag_line(st_diag *d, st_buf *b, const token *t, const char *lead, const char *kind,
                      const char *tail, const char *fmt, va_list ap) {
  char head[512], msg[1536];
  where(d, t, head, sizeof head);
  vsnprintf(msg, sizeof msg, fmt, ap);
  sb_printf(b, "%s%s%s: %s%s", lead, head, kind, msg, tail);
}

static void warn_line(st_diag *d, const token *t, const char *kind, const char *fmt, va_list ap) {
  diag_line(d, &d->warnings, t, "", kind, "\n", fmt, ap);
}

void st_warn_at(st_diag *d, const token *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  warn_line(d, t, "warning", fmt, ap);
  va_end(ap);
}

void st_note_warn(st_diag *d, const token *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  warn_line(d, t, "note", fmt, ap);
  va_end(ap);
}

/* ---- listed errors: the checks that go on after an error ---------------------------- */

struct st_listed {
  int line, col, seq; /* the error's physical position; the order it was found in */
  st_buf text;        /* "file:line:col: error: ...", then "\nfile:line:col: note: ..." */
};

void st_error_list_at(st_diag *d, const token *t, const char *fmt, ...) {
  if (d->list_failed) return;
  if ((size_t)d->n_listed == d->cap_listed) {
    size_t cap = d->cap_listed ? 2 * d->cap_listed : 16;
    struct st_listed *l = realloc(d->listed, cap * sizeof *l);
    if (!l) {
      d->list_failed = 1;
      return;
    }
    d->listed = l;
    d->cap_listed = cap;
  }
  struct st_listed *e = &d->listed[d->n_listed];
  *e = (struct st_listed){.line = t->line, .col = t->col, .seq = d->n_listed};
  d->n_listed++;
  va_list ap;
  va_start(ap, fmt);
  diag_line(d, &e->text, t, "", "error", "", fmt, ap);
  va_end(ap);
  if (e->text.failed) d->list_failed = 1;
}

void st_note_list(st_diag *d, const token *t, const char *fmt, ...) {
  if (d->list_failed || !d->n_listed) return;
  st_buf *b = &d->listed[d->n_listed - 1].text;
  va_list ap;
  va_start(ap, fmt);
  diag_line(d, b, t, "\n", "note", "", fmt, ap);
  va_end(ap);
  if (b->failed) d->list_failed = 1;
}

static int cmp_listed(const void *pa, const void *pb) {
  const struct st_listed *a = pa, *b = pb;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  if (a->col != b->col) return a->col < b->col ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int st_errors_end(st_diag *d) {
  if (d->failed) return -1;
  if (!d->n_listed && !d->list_failed) return 0;
  d->failed = 1;
  if (!d->err || !d->err_len) return -1;
  if (d->list_failed) {
    snprintf(d->err, d->err_len, "%s:0: error: out of memory", d->file);
    return -1;
  }
  qsort(d->listed, (size_t)d->n_listed, sizeof *d->listed, cmp_listed);
  st_buf all = {0};
  int shown = d->n_listed < ST_MAX_ERRORS ? d->n_listed : ST_MAX_ERRORS;
  for (int k = 0; k < shown; k++) sb_printf(&all, "%s%s", k ? "\n" : "", d->listed[k].text.p);
  if (d->n_listed > shown)
    sb_printf(&all, "\n%s: note: %d more errors not shown (the first %d are listed)", d->file,
              d->n_listed - shown, shown);
  if (all.failed) snprintf(d->err, d->err_len, "%s:0: error: out of memory", d->file);
  else snprintf(d->err, d->err_len, "%s", all.p);
  sb_free(&all);
  return -1;
}

void st_listed_free(st_diag *d) {
  for (int k = 0; k < d->n_listed; k++) sb_free(&d->listed[k].text);
  free(d->listed);
  d->listed = NULL;
  d->n_listed = 0;
  d->cap_listed = 0;
}

static void note_line_v(st_diag *d, st_buf *b, const token *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_line(d, b, t, "", "note", "\n", fmt, ap);
  va_end(ap);
}

void st_note_line(st_diag *d, st_buf *b, const token *t, const char *msg) {
  note_line_v(d, b, t, "%s", msg);
}
