/* emit.c: the output writer. Writes tokens with their replacement text, keeps the spacing
 * of adjacent tokens, puts preprocessor directives on lines of their own, and keeps the
 * device compiler's idea of file and line in step with the user's source through newlines
 * or #line directives; generated sections get #line directives naming the output itself. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define GEN_FILE "ck_stitched.cl"

void em_init(emitter *e, program *pg) {
  memset(e, 0, sizeof *e);
  e->pg = pg;
  e->cur_line = -1000;
  e->at_bol = 1;
  e->last_tok = -1;
  e->in_gen = 1;
}

static void raw(emitter *e, const char *s, size_t n) {
  if (!n) return;
  sb_put(&e->out, s, n);
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
  sb_printf(&e->out, "#line %d \"", line);
  for (const char *s = file; *s; s++) {
    if (*s == '"' || *s == '\\') sb_put(&e->out, "\\", 1);
    if (*s != '\n') sb_put(&e->out, s, 1);
  }
  sb_puts(&e->out, "\"\n");
  e->out_lines++;
  e->at_bol = 1;
  e->last_tok = -1;
}

void em_sync(emitter *e, int phys) {
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
  for (int i = a; i < b; i++) em_tok(e, i);
}

void em_gen(emitter *e, const char *s) {
  if (!*s) return;
  if (!e->at_bol && !strchr("\n ,;)", s[0])) raw(e, " ", 1);
  raw(e, s, strlen(s));
  e->last_tok = -1;
}

void em_genf(emitter *e, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof buf) {
    e->out.failed = 1;
    return;
  }
  em_gen(e, buf);
}
