/* apps/common/graph_input.c: from an input's name to a CSR graph: the
 * generators by name (rmat and grid sized by --scale; the look-alikes of the
 * paper's inputs at fixed sizes, each with a CI-sized "-ci" twin) and the
 * readers by file (see graph_input.h). */
#define _POSIX_C_SOURCE 200809L
#include "graph_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef enum { GEN_RMAT, GEN_GRID, GEN_ROAD, GEN_CIRCUIT, GEN_UNIFORM } gen_kind;

/* A named look-alike: its generator and fixed size. */
typedef struct {
    const char *name;
    gen_kind kind;
    int32_t nodes; /* grid: width (height = a); rmat: scale        */
    int64_t a;     /* edges; grid: height; rmat: edge factor;
                        circuit: dropped edges per mille            */
    int64_t b;     /* circuit: long wires                          */
    const char *like;
} named_graph;

static const named_graph named[] = {
    {"ecology", GEN_GRID, 1000, 1000, 0, "ecology1 (1000x1000 five-point grid)"},
    {"ecology-ci", GEN_GRID, 64, 64, 0, "ecology1 at CI size"},
    {"circuit", GEN_CIRCUIT, 1585478, 42, 1585, "G3_circuit (mesh with long wires)"},
    {"circuit-ci", GEN_CIRCUIT, 4096, 42, 4, "G3_circuit at CI size"},
    {"road-ny", GEN_ROAD, 264346, 366923, 0, "USA-road-d.NY"},
    {"road-ny-ci", GEN_ROAD, 4096, 5685, 0, "USA-road-d.NY at CI size"},
    {"road-nw", GEN_ROAD, 1207945, 1420104, 0, "USA-road-d.NW"},
    {"road-nw-ci", GEN_ROAD, 4096, 4815, 0, "USA-road-d.NW at CI size"},
    {"road-w", GEN_ROAD, 6262104, 7624073, 0, "USA-road-d.W"},
    {"road-w-ci", GEN_ROAD, 4096, 4987, 0, "USA-road-d.W at CI size"},
    {"rmat20", GEN_RMAT, 20, 16, 0, "Galois rmat20"},
    {"rmat20-ci", GEN_RMAT, 12, 16, 0, "rmat20 at CI size"},
    {"rmat22", GEN_RMAT, 22, 16, 0, "Galois rmat22"},
    {"rmat22-ci", GEN_RMAT, 12, 16, 0, "rmat22 at CI size"},
    {"bc-1k", GEN_UNIFORM, 1024, 65536, 0, "Pannotia bc 1k_128k"},
    {"bc-1k-ci", GEN_UNIFORM, 256, 4096, 0, "bc 1k_128k at CI size"},
    {"bc-2k", GEN_UNIFORM, 2048, 524288, 0, "Pannotia bc 2k_1M"},
    {"bc-2k-ci", GEN_UNIFORM, 256, 8192, 0, "bc 2k_1M at CI size"},
};
#define NAMED (sizeof named / sizeof *named)

static const named_graph *lookup(const char *name)
{
    for (size_t i = 0; i < NAMED; ++i)
        if (!strcmp(name, named[i].name))
            return &named[i];
    return NULL;
}

int app_graph_is_generated(const char *name)
{
    return !strcmp(name, "rmat") || !strcmp(name, "grid") || lookup(name) != NULL;
}

const char *app_graph_generators(void)
{
    static char list[512];
    if (!list[0]) {
        size_t k = (size_t)snprintf(list, sizeof list, "rmat, grid");
        for (size_t i = 0; i < NAMED && k < sizeof list; ++i)
            k += (size_t)snprintf(list + k, sizeof list - k, ", %s", named[i].name);
    }
    return list;
}

double app_graph_spec_edges(const app_graph_spec *s)
{
    if (!strcmp(s->name, "rmat"))
        return ldexp(1.0, (int)s->scale) * s->edge_factor;
    if (!strcmp(s->name, "grid"))
        return ldexp(2.0, (int)s->scale);
    const named_graph *g = lookup(s->name);
    if (!g)
        return 0;
    switch (g->kind) {
    case GEN_RMAT: return ldexp(1.0, g->nodes) * (double)g->a;
    case GEN_GRID: return 2.0 * g->nodes * (double)g->a - g->nodes - (double)g->a;
    case GEN_CIRCUIT: return 2.0 * g->nodes + (double)g->b;
    default: return (double)g->a;
    }
}

static int generate(const named_graph *g, uint64_t seed, app_edges *e, char *what, size_t what_len, char *err,
                    size_t err_len)
{
    int rc = -1;
    switch (g->kind) {
    case GEN_RMAT: rc = app_gen_rmat((unsigned)g->nodes, (unsigned)g->a, seed, e, err, err_len); break;
    case GEN_GRID: rc = app_gen_grid((unsigned)g->nodes, (unsigned)g->a, 0, seed, e, err, err_len); break;
    case GEN_ROAD: rc = app_gen_road(g->nodes, (size_t)g->a, seed, e, err, err_len); break;
    case GEN_CIRCUIT: rc = app_gen_circuit(g->nodes, (unsigned)g->a, (unsigned)g->b, seed, e, err, err_len); break;
    case GEN_UNIFORM: rc = app_gen_uniform(g->nodes, (size_t)g->a, seed, e, err, err_len); break;
    }
    if (!rc)
        snprintf(what, what_len, "%s, like %s (seed %llu)", g->name, g->like, (unsigned long long)seed);
    return rc;
}

int app_graph_load(const app_graph_spec *s, app_csr *g, char *what, size_t what_len, char *err, size_t err_len)
{
    app_edges e;
    memset(g, 0, sizeof *g);
    const named_graph *ng = lookup(s->name);
    if (ng) {
        if (generate(ng, s->seed, &e, what, what_len, err, err_len))
            return -1;
    } else if (!strcmp(s->name, "rmat")) {
        if (app_gen_rmat(s->scale, s->edge_factor, s->seed, &e, err, err_len))
            return -1;
        snprintf(what, what_len, "rmat 2^%u x %u (seed %llu)", s->scale, s->edge_factor,
                 (unsigned long long)s->seed);
    } else if (!strcmp(s->name, "grid")) {
        unsigned w = 1u << ((s->scale + 1) / 2), h = 1u << (s->scale / 2);
        if (app_gen_grid(w, h, s->grid_drop, s->seed, &e, err, err_len))
            return -1;
        snprintf(what, what_len, "grid %ux%u drop %u%% (seed %llu)", w, h, s->grid_drop,
                 (unsigned long long)s->seed);
    } else {
        if (access(s->name, F_OK) != 0) {
            snprintf(err, err_len, "graph '%s' is neither a generator (%s) nor a file (%s)", s->name,
                     app_graph_generators(), strerror(errno));
            return -1;
        }
        if (app_read_graph(s->name, &e, err, err_len))
            return -1;
        snprintf(what, what_len, "%s", s->name);
    }
    int rc = app_csr_build(&e, 1, g, err, err_len);
    app_edges_free(&e);
    if (!rc && s->weighted && !g->w)
        rc = app_csr_add_weights(g, s->max_weight, s->seed, err, err_len);
    if (rc) {
        app_csr_free(g);
        return -1;
    }
    return 0;
}
