/* apps/common/graph_input.h: names a graph application's input: a
 * generator's name ("rmat", "grid", ...) with its size parameters, or a file
 * whose format is picked by its extension; loads it as a symmetric CSR.
 * Errors: 0 on success, -1 with a one-line message in err. */
#ifndef APPS_GRAPH_INPUT_H
#define APPS_GRAPH_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

typedef struct {
    const char *name;     /* generator name or file path                    */
    unsigned scale;       /* generated: 2^scale nodes                       */
    unsigned edge_factor; /* R-MAT edges per node                           */
    unsigned grid_drop;   /* grid: percent of edges dropped                 */
    uint64_t seed;
    int weighted; /* give an unweighted input weights 1..max_weight */
    uint32_t max_weight;
} app_graph_spec;

/* Whether name is one of the generators (not a file): "rmat" and "grid"
 * (sized by scale, edge_factor, grid_drop) and the fixed-size look-alikes of
 * the paper's inputs, each also as "<name>-ci" (a few thousand nodes):
 * ecology, circuit, road-ny, road-nw, road-w, rmat20, rmat22, bc-1k, bc-2k
 * (apps/README.md, "Inputs", gives their sizes and recipes). */
int app_graph_is_generated(const char *name);
/* Edges the generator will make before duplicates are dropped (an upper
 * bound of the undirected edges; its reference cost); 0 for files. */
double app_graph_spec_edges(const app_graph_spec *s);
/* The generators' names, comma-separated, for --help and errors. */
const char *app_graph_generators(void);
/* Generates or reads the graph, builds a symmetric CSR into g and describes
 * the input in what ("rmat 2^14 x 8 (seed 1)"). */
int app_graph_load(const app_graph_spec *s, app_csr *g, char *what, size_t what_len, char *err, size_t err_len);

#endif
