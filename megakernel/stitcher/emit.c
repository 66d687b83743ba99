/* emit.c: the output writer. Writes tokens with their replacement text, keeps the spacing
 * of adjacent tokens, puts preprocessor directives on lines of their own, and keeps the
 * device compiler's idea of file and line in step with the user's source through newlines
 * or #line directives; generated sections get #line directives naming the output itself.
 * It also caps the output's size (ST_OUTPUT_FACTOR times the input plus ST_OUTPUT_SLACK):
 * resume code copies loops, so some inputs would otherwise grow without bound. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define GEN_FILE "ck_stitched.cl"

size_t st_output_cap(const program *pg) {
  size_t n = pg->src_len;
  return n > (SIZE_MAX - ST_OUTPUT_SLACK) / ST_OUTPUT_FACTOR
           ? SIZE_MAX
           : n * ST_OUTPUT_FACTOR + ST_OUTPUT_SLACK;
}

void em_init(emitter *e, program *pg) {
  memset(e, 0, sizeof *e);
  e->pg = pg;
  e->cap = st_output_cap(pg);
  e->cur_line = -1000;
  e->at_bol = 1;
  e->last_tok = -1;
  e->in_gen = 1;
}

int em_over(const emitter *e) { return e->over; }

/* Appends to the output unless that would pass the cap (then marks it over). */
static int put(emitter *e, const char *s, size_t n) {
  if (e->over) return -1;
  if (n > e->cap - e->out.len) {
    e->over = 1;
    e->over_line = e->peel_line ? e->peel_line : e->last_line;
    return -1;
  }
  sb_put(&e->out, s, n);
  return 0;
}

static void raw(emitter *e, const char *s, size_t n) {
  if (!n || put(e, s, n)) return;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n') {
      e->out_lines++;
      e->cur_line++;
    }
  e->at_bol = s[n - 1] == '\n';
}

void em_newline(emitter *e) {
  if (!e->at_bol) raw(e, "\n", 1);
}

/* #line N "file" with the file name's quotes and backslashes escaped */
static void line_directive(emitter *e, int line, const char *file) {
  char num[32];
  snprintf(num, sizeof num, "#line %d \"", line);
  put(e, num, strlen(num));
  for (const char *s = file; *s; s++) {
    if (*s == '"' || *s == '\\') put(e, "\\", 1);
    if (*s != '\n') put(e, s, 1);
  }
  put(e, "\"\n", 2);
  e->out_lines++;
  e->at_bol = 1;
  e->last_tok = -1;
}

void em_sync(emitter *e, int phys) {
  e->last_line = phys;
  const char *file;
  int line = st_user_line(e->pg->dg, phys, &file);
  int same = !e->in_gen && e->cur_file && !strcmp(file, e->cur_file);
  if (same && line == e->cur_line) return;
  if (same && line > e->cur_line && line - e->cur_line <= 4) {
    while (e->cur_line < line) raw(e, "\n", 1);
    e->last_tok = -1;
    return;
  }
  em_newline(e);
  line_directive(e, line, file);
  e->cur_line = line;
  e->cur_file = file;
  e->in_gen = 0;
}

void em_generated_section(emitter *e) {
  em_newline(e);
  int next = e->out_lines + 2; /* the line after the directive, counted from 1 */
  line_directive(e, next, GEN_FILE);
  e->cur_line = next;
  e->cur_file = NULL;
  e->in_gen = 1;
}

void em_tok(emitter *e, int i) {
  token *t = &e->pg->tl.t[i];
  const char *text = t->repl ? t->repl : t->s;
  if (t->kind == TK_PP) {
    em_newline(e);
    em_sync(e, t->line);
    raw(e, text, strlen(text));
    raw(e, "\n", 1);
    e->last_tok = -1;
    return;
  }
  if (t->kind == TK_EOF) return;
  if (!*text) { /* dropped: the next token keeps its spacing relative to this one */
    if (e->last_tok == i - 1) e->last_tok = i;
    return;
  }
  em_sync(e, t->line);
  int adjacent = e->last_tok == i - 1 && i > 0 && e->pg->tl.t[i - 1].end == t->off;
  if (e->at_bol) {
    static const char spaces[] = "                                ";
    raw(e, spaces, t->col < 32 ? (size_t)t->col : 32);
  } else if (!adjacent) {
    raw(e, " ", 1);
  }
  raw(e, text, strlen(text));
  e->last_tok = i;
}

void em_range(emitter *e, int a, int b) {
  for (int i = a; i < b && !e->over; i++) em_tok(e, i);
}

void em_gen(emitter *e, const char *s) {
  if (!*s) return;
  if (!e->at_bol && !strchr("\n ,;)", s[0])) raw(e, " ", 1);
  raw(e, s, strlen(s));
  e->last_tok = -1;
}

void em_genf(emitter *e, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    e->out.failed = 1;
    return;
  }
  if ((size_t)n < sizeof small) {
    em_gen(e, small);
    return;
  }
  /* long names (a kernel's name has no length limit) */
  char *big = malloc((size_t)n + 1);
  if (!big) {
    e->out.failed = 1;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  em_gen(e, big);
  free(big);
}
