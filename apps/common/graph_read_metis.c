/* apps/common/graph_read_metis.c: the METIS graph (.graph) reader (see
 * graph.h: app_read_metis). */
#include "graph.h"
#include "graph_text.h"

#include <string.h>

/* Reads the next line that is not a '%' comment: 1, 0 at the end, -1. */
static int next_content(app_text *t)
{
    int got;
    while ((got = app_text_next(t)) == 1)
        if (*app_skip_blanks(t->line) != '%')
            return 1;
    return got;
}

int app_read_metis(const char *path, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    app_text t;
    if (app_text_open(&t, path, "METIS graph", err, err_len))
        return -1;
    int rc = 0, got;
    /* Header "n m [fmt [ncon]]" (blank lines before it are skipped). */
    while ((got = next_content(&t)) == 1 && app_is_blank(t.line))
        ;
    if (got != 1) {
        if (got == 0)
            app_graph_fail(err, err_len, "%s:%ld: no header line 'n m [fmt [ncon]]'", path, t.lineno);
        app_text_close(&t);
        return -1;
    }
    const char *p = t.line;
    uint64_t n, m, fmt = 0, ncon = 0;
    int rn = app_parse_uint(&p, APP_MAX_NODES, &n);
    int rm = rn ? rn : app_parse_uint(&p, INT32_MAX / 2, &m);
    if (rn || rm || n == 0) {
        rc = app_text_fail(&t, "expected the header 'n m [fmt [ncon]]' with 0 < n <= 2^30 and m <= 2^30-1");
        goto done;
    }
    const char *fmt_text = app_skip_blanks(p);
    if (*fmt_text) {
        size_t digits = strspn(fmt_text, "01");
        if (digits == 0 || digits > 3 || app_parse_uint(&p, 111, &fmt)) {
            rc = app_text_fail(&t, "fmt must be up to three digits 0 or 1 (vertex sizes, vertex weights, edge "
                                   "weights)");
            goto done;
        }
    }
    int has_vsize = fmt / 100 % 10, has_vwgt = fmt / 10 % 10, has_ewgt = fmt % 10;
    if (!app_is_blank(p) && app_parse_uint(&p, 1024, &ncon)) {
        rc = app_text_fail(&t, "ncon must be 0..1024");
        goto done;
    }
    if (!app_is_blank(p)) {
        rc = app_text_fail(&t, "unexpected text after 'n m fmt ncon'");
        goto done;
    }
    if (has_vwgt && ncon == 0)
        ncon = 1;
    if (!has_vwgt)
        ncon = 0;
    /* Each node has a line (1 byte at least) and each of the 2m neighbour
     * entries takes 2 bytes at least ("7 "). */
    if (n > t.size || 4 * m > t.size + 1) {
        rc = app_text_fail(&t, "the header claims %llu nodes and %llu edges, more than a %llu-byte file can hold",
                           (unsigned long long)n, (unsigned long long)m, (unsigned long long)t.size);
        goto done;
    }
    if (app_edges_reserve(out, (size_t)(2 * m))) {
        rc = app_text_fail(&t, "out of memory for %llu edges", (unsigned long long)m);
        goto done;
    }
    out->n = (int32_t)n;
    for (uint64_t u = 0; u < n && !rc; ++u) {
        got = next_content(&t);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got == 0) {
            rc = app_graph_fail(err, err_len, "%s:%ld: the file ends after %llu of the header's %llu node lines",
                                path, t.lineno, (unsigned long long)u, (unsigned long long)n);
            break;
        }
        p = t.line;
        uint64_t skip = (uint64_t)has_vsize + ncon, x;
        for (uint64_t k = 0; k < skip; ++k)
            if (app_parse_uint(&p, UINT64_MAX, &x)) {
                rc = app_text_fail(&t, "expected %llu vertex size/weight value(s) first", (unsigned long long)skip);
                break;
            }
        while (!rc && !app_is_blank(p)) {
            uint64_t v;
            int32_t w = 1;
            int r = app_parse_uint(&p, n, &v);
            if (r || v < 1) {
                rc = app_text_fail(&t, "neighbour must be 1..%llu", (unsigned long long)n);
                break;
            }
            if (has_ewgt && app_is_blank(p)) {
                rc = app_text_fail(&t, "expected an edge weight 1..%d after neighbour %llu", INT32_MAX,
                                   (unsigned long long)v);
                break;
            }
            if (has_ewgt && app_text_weight(&t, &p, "edge weight",
                                            " (fmt xx1: each neighbour is followed by its "
                                            "edge weight)",
                                            &w)) {
                rc = -1;
                break;
            }
            if (out->m == 2 * m) {
                rc = app_text_fail(&t, "more neighbour entries than the header's %llu edges allow (2 per edge)",
                                   (unsigned long long)m);
                break;
            }
            if ((has_ewgt ? app_edges_push_w(out, (int32_t)u, (int32_t)(v - 1), w)
                          : app_edges_push(out, (int32_t)u, (int32_t)(v - 1)))) {
                rc = app_text_fail(&t, "out of memory");
                break;
            }
        }
    }
    while (!rc && (got = next_content(&t)) == 1)
        if (!app_is_blank(t.line))
            rc = app_text_fail(&t, "more node lines than the header's %llu", (unsigned long long)n);
    if (!rc && got < 0)
        rc = -1;
    if (!rc && out->m != 2 * m)
        rc = app_graph_fail(err, err_len,
                            "%s:%ld: the header says %llu edges (%llu neighbour entries), the file has "
                            "%zu entries",
                            path, t.lineno, (unsigned long long)m, (unsigned long long)(2 * m), out->m);
done:
    app_text_close(&t);
    if (rc)
        app_edges_free(out);
    return rc;
}
