/* apps/common/graph_read_dimacs.c: the DIMACS shortest-path (.gr text)
 * reader (see graph.h: app_read_dimacs). */
#include "graph.h"
#include "graph_text.h"

#include <string.h>

int app_read_dimacs(const char *path, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    app_text t;
    if (app_text_open(&t, path, "DIMACS graph", err, err_len))
        return -1;
    uint64_t n = 0, m = 0;
    int have_p = 0, rc = 0, got;
    while ((got = app_text_next(&t)) == 1) {
        const char *p = app_skip_blanks(t.line);
        if (*p == 'c' || *p == 0)
            continue;
        if (*p == 'p') {
            if (have_p) {
                rc = app_text_fail(&t, "second 'p' line");
                break;
            }
            p = app_skip_blanks(p + 1);
            if (strncmp(p, "sp", 2) != 0 || (p[2] != ' ' && p[2] != '\t')) {
                rc = app_text_fail(&t, "expected 'p sp N M'");
                break;
            }
            p += 2;
            int rn = app_parse_uint(&p, APP_MAX_NODES, &n);
            int rm = rn ? rn : app_parse_uint(&p, INT32_MAX, &m);
            if (rn || rm || n == 0 || !app_is_blank(p)) {
                rc = app_text_fail(&t, "expected 'p sp N M' with 0 < N <= 2^30 and M <= 2^31-1");
                break;
            }
            /* Every arc line "a U V W" takes at least 8 bytes ("a 1 2 1\n"). */
            if (!app_nodes_backed(n, t.size) || m > (t.size + 1) / 8 + 1) {
                rc = app_text_fail(&t,
                                   "the header claims %llu nodes and %llu arcs, more than a %llu-byte file can "
                                   "hold (at most %d nodes per byte, 8 bytes per arc)",
                                   (unsigned long long)n, (unsigned long long)m, (unsigned long long)t.size,
                                   APP_NODES_PER_BYTE);
                break;
            }
            if (app_edges_reserve(out, m)) {
                rc = app_text_fail(&t, "out of memory for %llu arcs", (unsigned long long)m);
                break;
            }
            out->n = (int32_t)n;
            have_p = 1;
            continue;
        }
        if (*p == 'a') {
            if (!have_p) {
                rc = app_text_fail(&t, "arc before the 'p sp N M' line");
                break;
            }
            ++p;
            uint64_t u, v;
            int32_t w;
            int ru = app_parse_uint(&p, n, &u);
            int rv = ru ? ru : app_parse_uint(&p, n, &v);
            if (ru || rv || u < 1 || v < 1) {
                rc = app_text_fail(&t, "expected 'a U V W' with ids 1..%llu", (unsigned long long)n);
                break;
            }
            if (app_is_blank(p)) {
                rc = app_text_fail(&t, "expected 'a U V W' with a weight 1..%d", INT32_MAX);
                break;
            }
            if (app_text_weight(&t, &p, "arc weight", "", &w)) {
                rc = -1;
                break;
            }
            if (!app_is_blank(p)) {
                rc = app_text_fail(&t, "unexpected text after 'a U V W'");
                break;
            }
            if (out->m == m) {
                rc = app_text_fail(&t, "more arcs than the header's %llu", (unsigned long long)m);
                break;
            }
            if (app_edges_push_w(out, (int32_t)(u - 1), (int32_t)(v - 1), w)) {
                rc = app_text_fail(&t, "out of memory after %zu arcs", out->m);
                break;
            }
            continue;
        }
        rc = app_text_fail(&t, "unknown line type '%c' (expected c, p or a)", *p);
        break;
    }
    if (got < 0)
        rc = -1;
    if (!rc && !have_p)
        rc = app_graph_fail(err, err_len, "%s:%ld: no 'p sp N M' line", path, t.lineno);
    if (!rc && out->m != m)
        rc = app_graph_fail(err, err_len, "%s:%ld: the header says %llu arcs, the file ends after %zu", path,
                            t.lineno, (unsigned long long)m, out->m);
    app_text_close(&t);
    if (rc) {
        app_edges_free(out);
        return -1;
    }
    return 0;
}
