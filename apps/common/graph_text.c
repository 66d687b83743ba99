/* apps/common/graph_text.c: the helpers the graph readers share (see
 * graph_text.h): error messages, opening and line-by-line reading, number
 * parsing. */
#define _POSIX_C_SOURCE 200809L
#include "graph_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void vformat(char *err, size_t err_len, const char *prefix, const char *fmt, va_list ap)
{
    if (!err || !err_len)
        return;
    int k = snprintf(err, err_len, "%s", prefix);
    if (k < 0 || (size_t)k >= err_len)
        return;
    vsnprintf(err + k, err_len - (size_t)k, fmt, ap);
}

int app_graph_fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vformat(err, err_len, "", fmt, ap);
    va_end(ap);
    return -1;
}

int app_text_open(app_text *t, const char *path, const char *what, char *err, size_t err_len)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->err = err;
    t->err_len = err_len;
    char why[768];
    t->f = ck_file_open_read(path, 0, why, sizeof why);
    if (!t->f)
        return app_graph_fail(err, err_len, "%s: %s", what, why);
    struct stat st;
    if (fstat(fileno(t->f), &st) != 0) {
        int e = errno;
        fclose(t->f);
        t->f = NULL;
        return app_graph_fail(err, err_len, "%s: cannot examine '%s': %s", what, path, strerror(e));
    }
    t->size = (uint64_t)st.st_size;
    if (t->size == 0) {
        fclose(t->f);
        t->f = NULL;
        return app_graph_fail(err, err_len, "%s: empty file (expected a %s)", path, what);
    }
    ck_line_reader_init(&t->lines, t->f);
    return 0;
}

int app_text_next(app_text *t)
{
    errno = 0;
    ssize_t got = ck_line_next(&t->lines);
    if (got < 0) {
        if (t->lines.error)
            return app_graph_fail(t->err, t->err_len, "%s:%ld: read error: %s", t->path, t->lineno + 1,
                                  strerror(errno ? errno : EIO));
        return 0;
    }
    t->line = t->lines.line;
    t->lineno = (long)t->lines.lineno;
    t->len = (size_t)got;
    if (strlen(t->line) != t->len)
        return app_text_fail(t, "NUL byte in the line (a binary file?)");
    return 1;
}

void app_text_close(app_text *t)
{
    if (t->f)
        fclose(t->f);
    ck_line_reader_free(&t->lines);
    t->f = NULL;
    t->line = NULL;
}

int app_text_fail(app_text *t, const char *fmt, ...)
{
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s:%ld: ", t->path, t->lineno);
    va_list ap;
    va_start(ap, fmt);
    vformat(t->err, t->err_len, prefix, fmt, ap);
    va_end(ap);
    return -1;
}

const char *app_skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        ++p;
    return p;
}

int app_is_blank(const char *p) { return *app_skip_blanks(p) == 0; }

int app_parse_uint(const char **p, uint64_t max, uint64_t *out)
{
    const char *s = app_skip_blanks(*p);
    if (*s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    int big = 0;
    while (*s >= '0' && *s <= '9') {
        if (v > (UINT64_MAX - 9) / 10)
            big = 1;
        else
            v = v * 10 + (uint64_t)(*s - '0');
        ++s;
    }
    if (*s && *s != ' ' && *s != '\t')
        return -1;
    if (big || v > max)
        return -2;
    *p = s;
    *out = v;
    return 0;
}

const char *app_text_word(const char *p, char *buf, size_t len)
{
    p = app_skip_blanks(p);
    size_t k = 0;
    int cut = 0;
    for (; *p && *p != ' ' && *p != '\t'; ++p) {
        if (k + 1 < len)
            buf[k++] = *p;
        else
            cut = 1;
    }
    buf[k] = 0;
    if (cut)
        memcpy(buf + len - 4, "...", 4);
    return p;
}

int app_text_weight(app_text *t, const char **p, const char *what, const char *hint, int32_t *w)
{
    char word[64];
    const char *after = app_text_word(*p, word, sizeof word);
    const char *q = word;
    uint64_t v;
    if (app_parse_uint(&q, INT32_MAX, &v) != 0 || *q || v < 1)
        return app_text_fail(t, "%s '%s' is not an integer 1..%d%s", what, word, INT32_MAX, hint);
    *p = after;
    *w = (int32_t)v;
    return 0;
}

int app_nodes_backed(uint64_t nodes, uint64_t size) { return nodes <= size * APP_NODES_PER_BYTE; }
