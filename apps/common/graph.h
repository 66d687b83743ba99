/* apps/common/graph.h: graphs for the graph applications: edge lists, the
 * deterministic generators (R-MAT and a 2-D "road-like" grid), readers for a
 * text edge list and DIMACS .gr, and CSR construction.
 *
 * Errors: functions returning int return 0 on success and -1 on failure with
 * a one-line message in err (err_len bytes, may be 0). Node ids are 0-based
 * int32; a graph has at most 2^30 nodes and 2^31-1 edges. */
#ifndef APPS_GRAPH_H
#define APPS_GRAPH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int32_t n;      /* nodes: ids 0..n-1                      */
    size_t m;       /* edges stored                           */
    size_t cap;
    int32_t *src, *dst;
    int32_t *w;     /* edge weights (>= 1), or NULL: unweighted */
} app_edges;

/* Compressed sparse rows: the out-edges of v are col[row[v] .. row[v+1]-1],
 * sorted ascending, without duplicates or self loops. */
typedef struct {
    int32_t n;
    int32_t m;
    int32_t *row; /* n + 1 entries */
    int32_t *col; /* m entries     */
    int32_t *w;   /* m weights (>= 1) beside col, or NULL: unweighted */
} app_csr;

void app_edges_free(app_edges *e);
/* Appends one edge, growing the arrays. -1 when out of memory. An edge list
 * is weighted or not: app_edges_push on a weighted list gives weight 1,
 * app_edges_push_w on an unweighted one makes it weighted (earlier edges get
 * weight 1). */
int app_edges_push(app_edges *e, int32_t u, int32_t v);
int app_edges_push_w(app_edges *e, int32_t u, int32_t v, int32_t w);

/* R-MAT (Chakrabarti et al.) with the Graph500 probabilities a=.57 b=.19
 * c=.19: 2^scale nodes, edge_factor * 2^scale generated edges, node ids
 * permuted by the seed so the hubs are spread. scale in 1..30. */
int app_gen_rmat(unsigned scale, unsigned edge_factor, uint64_t seed, app_edges *out, char *err, size_t err_len);
/* A width x height grid with 4-neighbour edges ("road-like": long diameter,
 * low degree), each undirected edge dropped with probability drop_percent/100
 * (0..90) to make it irregular. Node (x, y) is y * width + x. */
int app_gen_grid(unsigned width, unsigned height, unsigned drop_percent, uint64_t seed, app_edges *out, char *err,
                 size_t err_len);

/* Text edge list: one edge "u v" per line (0-based ids, extra columns such
 * as weights ignored); lines starting with '#' or '%' and blank lines are
 * comments. n = largest id + 1. */
int app_read_edge_list(const char *path, app_edges *out, char *err, size_t err_len);
/* DIMACS shortest-path format (.gr): "c ..." comments, one "p sp N M"
 * header, then "a U V W" arcs with 1-based ids (weights ignored). Checks ids
 * against N and the arc count against M. */
int app_read_dimacs(const char *path, app_edges *out, char *err, size_t err_len);
/* Picks the reader by extension: ".gr" DIMACS, anything else edge list. */
int app_read_graph(const char *path, app_edges *out, char *err, size_t err_len);

/* Builds CSR from e. symmetric: add every edge in both directions (the
 * graph applications use undirected graphs). Drops self loops and
 * duplicates (a weighted duplicate keeps the smallest weight); rows sorted. */
int app_csr_build(const app_edges *e, int symmetric, app_csr *out, char *err, size_t err_len);
void app_csr_free(app_csr *g);
/* Node of largest out-degree (smallest id on ties): a source that reaches a
 * big component of an R-MAT graph. */
int32_t app_csr_max_degree_node(const app_csr *g);
/* Gives an unweighted g weights 1..max_weight (>= 1), a hash of the seed and
 * the unordered pair {u, v}, so both directions of an edge weigh the same.
 * A weighted g is left as it is. -1 when out of memory. */
int app_csr_add_weights(app_csr *g, uint32_t max_weight, uint64_t seed, char *err, size_t err_len);

#endif
