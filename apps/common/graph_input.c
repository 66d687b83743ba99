/* apps/common/graph_input.c: from an input's name to a CSR graph: the
 * generators by name and the readers by file (see graph_input.h). */
#include "graph_input.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int app_graph_is_generated(const char *name) { return !strcmp(name, "rmat") || !strcmp(name, "grid"); }

const char *app_graph_generators(void) { return "rmat, grid"; }

double app_graph_spec_edges(const app_graph_spec *s)
{
    if (!strcmp(s->name, "rmat"))
        return ldexp(1.0, (int)s->scale) * s->edge_factor;
    if (!strcmp(s->name, "grid"))
        return ldexp(2.0, (int)s->scale);
    return 0;
}

int app_graph_load(const app_graph_spec *s, app_csr *g, char *what, size_t what_len, char *err, size_t err_len)
{
    app_edges e;
    memset(g, 0, sizeof *g);
    if (!strcmp(s->name, "rmat")) {
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
