/* apps/common/graph_text.c: the helpers the graph readers share (see
 * graph_text.h): error messages, line-by-line reading, number parsing. */
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
    t->f = fopen(path, "r");
    if (!t->f)
        return app_graph_fail(err, err_len, "cannot open %s '%s': %s", what, path, strerror(errno));
    struct stat st;
    if (fstat(fileno(t->f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(t->f);
        t->f = NULL;
        return app_graph_fail(err, err_len, "%s: not a regular file (%s)", path, what);
    }
    t->size = (uint64_t)st.st_size;
    if (t->size == 0) {
        fclose(t->f);
        t->f = NULL;
        return app_graph_fail(err, err_len, "%s: empty file (expected a %s)", path, what);
    }
    return 0;
}

int app_text_next(app_text *t)
{
    errno = 0;
    ssize_t got = getline(&t->line, &t->cap, t->f);
    if (got < 0) {
        if (ferror(t->f))
            return app_graph_fail(t->err, t->err_len, "%s:%ld: read error: %s", t->path, t->lineno + 1,
                                  strerror(errno ? errno : EIO));
        return 0;
    }
    t->lineno++;
    size_t len = (size_t)got;
    if (strlen(t->line) != len)
        return app_text_fail(t, "NUL byte in the line (a binary file?)");
    while (len && (t->line[len - 1] == '\n' || t->line[len - 1] == '\r'))
        t->line[--len] = 0;
    t->len = len;
    return 1;
}

void app_text_close(app_text *t)
{
    if (t->f)
        fclose(t->f);
    free(t->line);
    t->f = NULL;
    t->line = NULL;
    t->cap = 0;
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

int app_nodes_backed(uint64_t nodes, uint64_t size) { return nodes <= size * APP_NODES_PER_BYTE; }
