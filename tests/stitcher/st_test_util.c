/* st_test_util.c: helpers shared by the stitcher tests (see st_test_util.h). The
 * reducibility check parses generated code with the stitcher's own parser in raw mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"
#include "st_test_util.h"

static int stitch_va(const char *src, ck_stitch_result *r, char *err, size_t len, va_list ap) {
  const char *names[32];
  size_t n = 0;
  const char *s;
  while ((s = va_arg(ap, const char *)) != NULL && n < 32) names[n++] = s;
  ck_stitch_input in = {src, "t.cl", names, n, 0};
  return ck_stitch(&in, r, err, len);
}

void st_ok(const char *src, ck_stitch_result *r, ...) {
  char err[1024];
  va_list ap;
  va_start(ap, r);
  int rc = stitch_va(src, r, err, sizeof err, ap);
  va_end(ap);
  if (rc != 0) fail_msg("stitcher failed: %s\nsource:\n%s", err, src);
}

const char *st_fail(const char *src, ...) {
  static char err[1024];
  ck_stitch_result r;
  va_list ap;
  va_start(ap, src);
  int rc = stitch_va(src, &r, err, sizeof err, ap);
  va_end(ap);
  if (rc == 0) {
    fprintf(stderr, "unexpected success, output:\n%s\n", r.source);
    ck_stitch_result_free(&r);
    fail_msg("stitcher accepted a source it must reject:\n%s", src);
  }
  assert_null(r.source);
  return err;
}

void st_assert_msg(const char *msg, int line, ...) {
  char head[64];
  snprintf(head, sizeof head, "t.cl:%d:", line);
  size_t n = strlen(head);
  const char *rest = msg + n;
  if (strncmp(msg, head, n) == 0) /* an optional column */
    while (*rest >= '0' && *rest <= '9') rest++;
  if (strncmp(msg, head, n) != 0 || (rest > msg + n && *rest++ != ':') ||
      strncmp(rest, " error: ", 8) != 0)
    fail_msg("message '%s' does not start with '%s[col:] error: '", msg, head);
  va_list ap;
  va_start(ap, line);
  const char *f;
  while ((f = va_arg(ap, const char *)) != NULL)
    if (!strstr(msg, f)) fail_msg("message '%s' lacks '%s'", msg, f);
  va_end(ap);
}

static char *squash(const char *s) {
  size_t n = strlen(s);
  char *o = malloc(n + 1), *p = o;
  int sp = 0;
  for (; *s; s++) {
    if (*s == ' ' || *s == '\t' || *s == '\n') {
      sp = 1;
      continue;
    }
    if (sp && p != o) *p++ = ' ';
    sp = 0;
    *p++ = *s;
  }
  *p = 0;
  return o;
}

void st_assert_has(const char *hay, const char *needle) {
  char *h = squash(hay), *n = squash(needle);
  int ok = strstr(h, n) != NULL;
  free(h);
  free(n);
  if (!ok) fail_msg("expected to find:\n%s\nin:\n%s", needle, hay);
}

void st_assert_lacks(const char *hay, const char *needle) {
  char *h = squash(hay), *n = squash(needle);
  int ok = strstr(h, n) == NULL;
  free(h);
  free(n);
  if (!ok) fail_msg("did not expect to find:\n%s\nin:\n%s", needle, hay);
}

int st_count(const char *hay, const char *needle) {
  int n = 0;
  size_t l = strlen(needle);
  for (const char *p = strstr(hay, needle); p; p = strstr(p + l, needle)) n++;
  return n;
}

char *st_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s) s[n] = 0;
  fclose(f);
  return s;
}

char *st_read_test_file(const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", STITCHER_TEST_DIR, rel);
  return st_read_file(path);
}

const char *st_warnings(const char *src, const char *coop) {
  static char buf[8192];
  ck_stitch_result r;
  st_ok(src, &r, coop, NULL);
  snprintf(buf, sizeof buf, "%s", r.warnings ? r.warnings : "");
  ck_stitch_result_free(&r);
  return buf;
}

int st_presumed_line(const char *out, const char *needle, char *file, size_t file_len) {
  int line = 1;
  char cur[256] = "";
  for (const char *p = out; *p;) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    int l, used = 0;
    if (n > 6 && !strncmp(p, "#line ", 6) && sscanf(p, "#line %d \"%n", &l, &used) == 1 && used) {
      line = l;
      size_t k = 0;
      for (const char *q = p + used; *q && *q != '"' && k + 1 < sizeof cur; q++) {
        if (*q == '\\' && q[1]) q++;
        cur[k++] = *q;
      }
      cur[k] = 0;
    } else {
      char *buf = malloc(n + 1);
      memcpy(buf, p, n);
      buf[n] = 0;
      int hit = strstr(buf, needle) != NULL;
      free(buf);
      if (hit) {
        if (file) snprintf(file, file_len, "%s", cur);
        return line;
      }
      line++;
    }
    if (!e) break;
    p = e + 1;
  }
  return -1;
}

/* ---- reducibility check ----------------------------------------------------------- */

typedef struct {
  const char *name;
  stmt *st;
} named;

typedef struct {
  named labels[512], gotos[512];
  int nl, ng;
} jumps;

static void collect(program *pg, stmt *s, jumps *j) {
  if (!s) return;
  if (s->kind == ST_LABEL && j->nl < 512) j->labels[j->nl++] = (named){pg->tl.t[s->kw].s, s};
  if (s->kind == ST_GOTO && j->ng < 512) j->gotos[j->ng++] = (named){pg->tl.t[s->e0].s, s};
  for (size_t k = 0; k < s->n_items; k++) collect(pg, s->items[k], j);
  if (s->init) collect(pg, s->init, j);
  collect(pg, s->body, j);
  collect(pg, s->els, j);
}

static int inside(stmt *s, stmt *loop) {
  for (stmt *a = s->parent; a; a = a->parent)
    if (a == loop) return 1;
  return 0;
}

int st_check_reducible(const char *generated, char *err, size_t err_len) {
  st_arena ar = {0};
  st_diag dg = {.err = err, .err_len = err_len, .file = "generated"};
  program pg;
  memset(&pg, 0, sizeof pg);
  pg.ar = &ar;
  pg.dg = &dg;
  pg.file = "generated";
  pg.raw = 1;
  int checked = -1;
  if (st_lex(&ar, &dg, generated, &pg.tl) || st_parse_program(&pg)) goto out;
  checked = 0;
  for (size_t f = 0; f < pg.funcs.n; f++) {
    func *fn = pg.funcs.v[f];
    if (!fn->body) continue;
    static jumps j;
    j.nl = j.ng = 0;
    collect(&pg, fn->body, &j);
    for (int a = 0; a < j.nl; a++)
      for (int b = a + 1; b < j.nl; b++)
        if (!strcmp(j.labels[a].name, j.labels[b].name)) {
          snprintf(err, err_len, "label %s defined twice in %s", j.labels[a].name, fn->name);
          checked = -1;
          goto out;
        }
    for (int g = 0; g < j.ng; g++) {
      stmt *target = NULL;
      for (int a = 0; a < j.nl; a++)
        if (!strcmp(j.labels[a].name, j.gotos[g].name)) target = j.labels[a].st;
      if (!target) {
        snprintf(err, err_len, "goto %s in %s has no label", j.gotos[g].name, fn->name);
        checked = -1;
        goto out;
      }
      for (stmt *l = target->parent; l; l = l->parent) {
        if (l->kind != ST_FOR && l->kind != ST_WHILE && l->kind != ST_DO) continue;
        if (!inside(j.gotos[g].st, l)) {
          snprintf(err, err_len, "goto %s (line %d) in %s enters the loop on line %d",
                   j.gotos[g].name, j.gotos[g].st->line, fn->name, l->line);
          checked = -1;
          goto out;
        }
      }
      checked++;
    }
  }
out:
  st_arena_free(&ar);
  return checked;
}

void st_assert_reducible(const char *generated) {
  char err[512];
  if (st_check_reducible(generated, err, sizeof err) < 0) fail_msg("%s\n%s", err, generated);
}
