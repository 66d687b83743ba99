/* apps/common/graph_read_mtx.c: the Matrix Market (.mtx) reader (see
 * graph.h: app_read_mtx). */
#include "file_io.h"
#include "graph.h"
#include "graph_text.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Next whitespace-separated word of p into w (at most len-1 chars). */
static const char *word(const char *p, char *w, size_t len)
{
    p = app_skip_blanks(p);
    size_t k = 0;
    while (*p && *p != ' ' && *p != '\t') {
        if (k + 1 < len)
            w[k++] = *p;
        ++p;
    }
    w[k] = 0;
    return p;
}

/* The value word at *p as a weight: positive values rounded (at least 1),
 * non-positive ones 1. The whole word must be one number: an integer for
 * the integer field (no overflow), a finite real for the real field; the
 * weight must stay below 2^31. -1 (t's message set, quoting the word)
 * otherwise. */
static int value_weight(app_text *t, const char **p, int integer, int32_t *w)
{
    char text[64];
    const char *after = app_text_word(*p, text, sizeof text);
    double v = 0;
    int bad;
    if (integer) {
        int64_t i = 0;
        bad = ck_parse_i64(text, INT64_MIN, INT64_MAX, &i, NULL, 0);
        v = (double)i;
    } else {
        bad = ck_parse_double(text, -DBL_MAX, DBL_MAX, &v, NULL, 0);
    }
    double r = v <= 0 ? 1 : floor(v + 0.5);
    if (!text[0] || bad || r > INT32_MAX)
        return app_text_fail(t, "expected a finite %s value below 2^31 after 'i j'%s%s%s",
                             integer ? "integer" : "real", text[0] ? ", not '" : "", text, text[0] ? "'" : "");
    *p = after;
    *w = r < 1 ? 1 : (int32_t)r;
    return 0;
}

int app_read_mtx(const char *path, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    app_text t;
    if (app_text_open(&t, path, "Matrix Market file", err, err_len))
        return -1;
    int rc = 0, got = app_text_next(&t);
    char w[5][32];
    const char *p = got == 1 ? t.line : "";
    for (int i = 0; i < 5; ++i)
        p = word(p, w[i], sizeof w[i]);
    if (got < 0) {
        rc = -1;
        goto done;
    }
    if (strcmp(w[0], "%%MatrixMarket") != 0 || strcasecmp(w[1], "matrix") != 0) {
        rc = app_text_fail(&t, "expected the banner '%%%%MatrixMarket matrix coordinate pattern|integer|real "
                               "general|symmetric'");
        goto done;
    }
    if (strcasecmp(w[2], "coordinate") != 0) {
        rc = app_text_fail(&t, "only 'coordinate' matrices are graphs (not '%s')", w[2]);
        goto done;
    }
    int pattern = !strcasecmp(w[3], "pattern"), integer = !strcasecmp(w[3], "integer");
    if (!pattern && !integer && strcasecmp(w[3], "real") != 0) {
        rc = app_text_fail(&t, "field must be pattern, integer or real (not '%s')", w[3]);
        goto done;
    }
    int symmetric = !strcasecmp(w[4], "symmetric");
    if (!symmetric && strcasecmp(w[4], "general") != 0) {
        rc = app_text_fail(&t, "symmetry must be general or symmetric (not '%s')", w[4]);
        goto done;
    }
    /* Size line "rows cols nnz" after '%' comments and blank lines. */
    while ((got = app_text_next(&t)) == 1) {
        p = app_skip_blanks(t.line);
        if (*p != '%' && *p)
            break;
    }
    if (got <= 0) {
        if (got == 0)
            rc = app_graph_fail(err, err_len, "%s:%ld: no size line 'rows cols nnz'", path, t.lineno);
        else
            rc = -1;
        goto done;
    }
    uint64_t rows, cols, nnz;
    int r1 = app_parse_uint(&p, APP_MAX_NODES, &rows);
    int r2 = r1 ? r1 : app_parse_uint(&p, APP_MAX_NODES, &cols);
    int r3 = r2 ? r2 : app_parse_uint(&p, INT32_MAX, &nnz);
    if (r1 || r2 || r3 || rows == 0 || !app_is_blank(p)) {
        rc = app_text_fail(&t, "expected the size line 'rows cols nnz' with 0 < rows = cols <= 2^30, nnz <= 2^31-1");
        goto done;
    }
    if (rows != cols) {
        rc = app_text_fail(&t, "a graph needs a square matrix (this one is %llu x %llu)", (unsigned long long)rows,
                           (unsigned long long)cols);
        goto done;
    }
    /* Each entry line takes 4 bytes at least ("1 2\n"). */
    if (!app_nodes_backed(rows, t.size) || nnz > (t.size + 1) / 4) {
        rc =
            app_text_fail(&t, "the size line claims %llu rows and %llu entries, more than a %llu-byte file can hold",
                          (unsigned long long)rows, (unsigned long long)nnz, (unsigned long long)t.size);
        goto done;
    }
    if (app_edges_reserve(out, (size_t)nnz * (symmetric ? 2 : 1))) {
        rc = app_text_fail(&t, "out of memory for %llu entries", (unsigned long long)nnz);
        goto done;
    }
    out->n = (int32_t)rows;
    uint64_t seen = 0;
    while (!rc && (got = app_text_next(&t)) == 1) {
        p = app_skip_blanks(t.line);
        if (*p == '%' || *p == 0)
            continue;
        uint64_t i, j;
        int32_t wt = 1;
        int ri = app_parse_uint(&p, rows, &i);
        int rj = ri ? ri : app_parse_uint(&p, rows, &j);
        if (ri || rj || i < 1 || j < 1) {
            rc = app_text_fail(&t, "expected an entry 'i j%s' with ids 1..%llu", pattern ? "" : " value",
                               (unsigned long long)rows);
            break;
        }
        if (!pattern && value_weight(&t, &p, integer, &wt)) {
            rc = -1;
            break;
        }
        if (!app_is_blank(p)) {
            rc = app_text_fail(&t, "unexpected text after the entry");
            break;
        }
        if (seen == nnz) {
            rc = app_text_fail(&t, "more entries than the size line's %llu", (unsigned long long)nnz);
            break;
        }
        ++seen;
        int32_t u = (int32_t)(i - 1), v = (int32_t)(j - 1);
        int bad = pattern ? app_edges_push(out, u, v) : app_edges_push_w(out, u, v, wt);
        if (!bad && symmetric && u != v)
            bad = pattern ? app_edges_push(out, v, u) : app_edges_push_w(out, v, u, wt);
        if (bad)
            rc = app_text_fail(&t, "out of memory");
    }
    if (!rc && got < 0)
        rc = -1;
    if (!rc && seen != nnz)
        rc = app_graph_fail(err, err_len, "%s:%ld: the size line says %llu entries, the file ends after %llu", path,
                            t.lineno, (unsigned long long)nnz, (unsigned long long)seen);
done:
    app_text_close(&t);
    if (rc)
        app_edges_free(out);
    return rc;
}
