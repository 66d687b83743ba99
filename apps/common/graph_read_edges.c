/* apps/common/graph_read_edges.c: the text edge-list reader (see graph.h:
 * app_read_edge_list). */
#include "graph.h"
#include "graph_text.h"

#include <stdlib.h>
#include <string.h>

int app_read_edge_list(const char *path, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    app_text t;
    if (app_text_open(&t, path, "edge list", err, err_len))
        return -1;
    uint64_t maxid = 0;
    long maxid_line = 0;
    int all_weighted = 1, rc = 0, got;
    while ((got = app_text_next(&t)) == 1) {
        const char *p = app_skip_blanks(t.line);
        if (*p == '#' || *p == '%' || *p == 0)
            continue;
        uint64_t u, v;
        int32_t w = 0;
        int ru = app_parse_uint(&p, APP_MAX_NODES - 1, &u);
        int rv = ru ? ru : app_parse_uint(&p, APP_MAX_NODES - 1, &v);
        if (ru == -2 || rv == -2) {
            rc = app_text_fail(&t, "node id above 2^30-1");
            break;
        }
        if (ru || rv) {
            rc = app_text_fail(&t, "expected 'u v [w]' with node ids 0..2^30-1");
            break;
        }
        /* A third column is the weight, and must be one; columns after it
         * (a timestamp, say) are ignored. */
        int has_w = !app_is_blank(p);
        if (has_w && app_text_weight(&t, &p, "weight (the third column)",
                                     "; an edge list's lines are 'u v' or 'u v w'", &w)) {
            rc = -1;
            break;
        }
        if (all_weighted && !has_w && out->w) {
            free(out->w); /* one line without a weight: the list is unweighted */
            out->w = NULL;
        }
        all_weighted &= has_w;
        int pushed = all_weighted ? app_edges_push_w(out, (int32_t)u, (int32_t)v, w)
                                  : app_edges_push(out, (int32_t)u, (int32_t)v);
        if (pushed) {
            rc = app_graph_fail(err, err_len, "%s:%ld: out of memory after %zu edges", path, t.lineno, out->m);
            break;
        }
        uint64_t big = u > v ? u : v;
        if (big >= maxid) {
            maxid = big;
            maxid_line = t.lineno;
        }
    }
    if (got < 0)
        rc = -1;
    if (!rc && out->m == 0)
        rc = app_graph_fail(err, err_len, "%s:%ld: no edges (expected lines 'u v [w]')", path, t.lineno);
    if (!rc && !app_nodes_backed(maxid + 1, t.size))
        rc = app_graph_fail(err, err_len,
                            "%s:%ld: node id %llu means %llu nodes, more than a %llu-byte file can back (at most "
                            "%d per byte)",
                            path, maxid_line, (unsigned long long)maxid, (unsigned long long)maxid + 1,
                            (unsigned long long)t.size, APP_NODES_PER_BYTE);
    app_text_close(&t);
    if (rc) {
        app_edges_free(out);
        return -1;
    }
    out->n = (int32_t)(maxid + 1);
    return 0;
}
