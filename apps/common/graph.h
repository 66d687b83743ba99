/* apps/common/graph.h: graphs for the graph applications: edge lists, the
 * deterministic generators (graph_gen.c: R-MAT, grid; graph_gen_like.c:
 * road, circuit and uniform look-alikes of real inputs), the file readers
 * (graph_read*.c: edge list, DIMACS, Galois binary, METIS, Matrix Market),
 * the writers (graph_write.c) and CSR construction (graph.c).
 *
 * Errors: functions returning int return 0 on success and -1 on failure with
 * a one-line message in err (err_len bytes, may be 0); on failure the output
 * holds nothing to free. Node ids are 0-based int32; a graph has at most
 * 2^30 nodes and 2^31-1 edges.
 *
 * Every reader's message names the file and the line ("g.gr:12: ...") or,
 * for the binary Galois format, the byte offset ("g.gr: byte 40: ...").
 * Readers refuse before allocating a header whose counts the file's size
 * cannot back: a text file of B bytes may claim at most 8 B nodes (nodes
 * without edges take no bytes in most formats), and each claimed edge needs
 * the bytes its shortest line takes; a Galois file's size must equal what
 * its header implies. Lines may be of any length. Weights are int32 >= 1. */
#ifndef APPS_GRAPH_H
#define APPS_GRAPH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int32_t n; /* nodes: ids 0..n-1                      */
    size_t m;  /* edges stored                           */
    size_t cap;
    int32_t *src, *dst;
    int32_t *w; /* edge weights (>= 1), or NULL: unweighted */
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

/* Road-like look-alike: n nodes row-major on a grid ceil(sqrt(n)) wide
 * (the last row partial), each at its grid point (spacing 100) jittered by
 * up to +-35; a seeded random spanning tree of grid edges (each node but 0
 * joined to its left or upper neighbour, chosen at random: connected, planar,
 * long diameter) plus further random grid edges, exactly `edges` undirected
 * edges in all (n-1 .. about 2n); weight = rounded Euclidean length. */
int app_gen_road(int32_t n, size_t edges, uint64_t seed, app_edges *out, char *err, size_t err_len);
/* Circuit-like look-alike: the same grid of n nodes, each grid edge dropped
 * with probability drop_per_mille/1000 (0..900), plus `wires` long wires,
 * each joining a random node to one about a third to two thirds of the grid
 * away in both directions. Unweighted. */
int app_gen_circuit(int32_t n, unsigned drop_per_mille, unsigned wires, uint64_t seed, app_edges *out, char *err,
                    size_t err_len);
/* Uniform random graph: `edges` distinct undirected pairs {u, v}, u != v,
 * among n nodes (2..16384; at most 3/4 of all pairs). Unweighted. */
int app_gen_uniform(int32_t n, size_t edges, uint64_t seed, app_edges *out, char *err, size_t err_len);

/* Reserves room for cap edges in an empty (zeroed or freed) list; -1 when
 * out of memory (e is then empty). */
int app_edges_reserve(app_edges *e, size_t cap);

typedef enum { APP_FMT_EDGES, APP_FMT_DIMACS, APP_FMT_GALOIS, APP_FMT_METIS, APP_FMT_MTX } app_graph_format;
/* The format a file name implies: .gr DIMACS (reading tells Galois binary
 * apart by content), .graph/.metis METIS, .mtx Matrix Market, anything else
 * an edge list. Case-insensitive. */
app_graph_format app_graph_format_of(const char *path);
/* "edges", "dimacs", "galois", "metis", "mtx"; parse: 0, or -1 unknown. */
const char *app_graph_format_name(app_graph_format f);
int app_graph_format_parse(const char *name, app_graph_format *f);

/* Text edge list: one edge "u v [w]" per line (0-based ids below 2^30);
 * lines starting with '#' or '%' and blank lines are comments. A third
 * column is the edge's weight and must be an integer 1..2^31-1 (columns
 * after it are ignored); the list is weighted when every edge line has one.
 * n = largest id + 1 (isolated nodes after the largest id are not
 * representable). Errors: no edges, a bad id, a third column that is not
 * such a weight ("-5", "nan", "7.5": the message quotes it and names the
 * line), more nodes than the file's size backs. */
int app_read_edge_list(const char *path, app_edges *out, char *err, size_t err_len);
/* DIMACS shortest-path format (.gr text): "c ..." comments, one "p sp N M"
 * header, then "a U V W" arcs with 1-based ids and weights 1..2^31-1 (kept:
 * the list is weighted). Checks ids against N and the arc count against M. */
int app_read_dimacs(const char *path, app_edges *out, char *err, size_t err_len);
/* Galois binary graph, version 1 (.gr): u64 version, u64 edge-data size (0
 * or 4), u64 nodes, u64 edges, u64 out-index (end offset) per node, u32
 * destination per edge padded to 8 bytes, then int32 weights >= 1 when the
 * edge-data size is 4. Directed: one edge per stored arc. */
int app_read_galois(const char *path, app_edges *out, char *err, size_t err_len);
/* METIS (.graph): '%' comments, header "n m [fmt [ncon]]", then line i
 * (blank for none) lists node i's 1-based neighbours, after its vertex size
 * (fmt 1xx) and ncon vertex weights (fmt x1x), each neighbour followed by an
 * edge weight 1..2^31-1 when fmt is xx1 (then the list is weighted). m counts
 * undirected edges: the lines must hold 2m neighbour entries. */
int app_read_metis(const char *path, app_edges *out, char *err, size_t err_len);
/* Matrix Market (.mtx): "%%MatrixMarket matrix coordinate
 * pattern|integer|real general|symmetric", '%' comments, a square size line
 * "n n nnz", then nnz entries "i j [value]" (1-based). A symmetric matrix
 * gives both directions of each off-diagonal entry. integer and real values
 * become weights: a positive value rounded to the nearest integer (at least
 * 1), a value <= 0 weight 1 (real matrices such as Laplacians have negative
 * off-diagonals); a value that is not finite or rounds above 2^31-1 is an
 * error. Diagonal entries become self loops (dropped by app_csr_build). */
int app_read_mtx(const char *path, app_edges *out, char *err, size_t err_len);
/* Reads path in the format app_graph_format_of names; a .gr file starting
 * with the 8-byte little-endian version 1 (or 2) is read as Galois binary,
 * any other .gr as DIMACS. */
int app_read_graph(const char *path, app_edges *out, char *err, size_t err_len);

/* Whether every edge of g has its reverse with the same weight. */
int app_csr_is_symmetric(const app_csr *g);
/* Writes g (every stored arc) to path in format fmt: DIMACS "p sp" with
 * weights (1 when unweighted); METIS with edge weights when weighted (g must
 * be symmetric, m/2 edges); Matrix Market integer or pattern, symmetric
 * (lower triangle) when g is symmetric, else general; Galois binary version
 * 1 (edge data 4 bytes when weighted, else 0); edge list "u v [w]". The
 * file is written whole or not at all (a temporary file beside it, then a
 * rename): a failed write leaves what was there. Errors: a path that is
 * not a regular file (a FIFO, a device, a directory: refused before
 * anything is opened), cannot create or write the file, METIS of a
 * non-symmetric g. */
int app_write_graph(const char *path, app_graph_format fmt, const app_csr *g, char *err, size_t err_len);

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
