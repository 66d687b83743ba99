/* tools/ckgraph.c: the graph inspector: loads a graph application's input
 * (a generator's name or a file in any format the readers know, as ckrun
 * does), prints its summary (nodes, edges, degrees, weights, connected
 * components, BFS depth from node 0) as text or JSON, and can write it in
 * another format (by the output's extension, or --format). Exit status (as
 * every tool's, cli.h): 0 done, 1 the summary or the write failed, 2 nothing
 * was done: bad command line, an input that does not load or an output that
 * cannot be written. */
#include "cli.h"
#include "file_io.h"
#include "graph.h"
#include "graph_input.h"
#include "json_out.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ckgraph --graph NAME|FILE [options]\n"
            "  --graph NAME|FILE   a generator (%s)\n"
            "                      or a file: .gr (DIMACS text or Galois binary, told apart by content),\n"
            "                      .graph/.metis (METIS), .mtx (Matrix Market), else an edge list 'u v [w]'\n"
            "  --seed S            generator seed, 0..2^64-1 (default 1)\n"
            "  --scale K           rmat and grid: 2^K nodes, 1..28 (default 14)\n"
            "  --edge-factor F     rmat: edges per node, 1..64 (default 8)\n"
            "  --grid-drop P       grid: percent of edges dropped, 0..90 (default 10)\n"
            "  --write FILE        write the graph (symmetric, as the applications see it) to FILE in the format\n"
            "                      its extension names (.gr is DIMACS text)\n"
            "  --format F          the output's format instead: edges, dimacs, galois, metis or mtx\n"
            "  --json              the summary as a JSON object\n"
            "  --version           print the version and exit\n"
            "  --help              this text\n"
            "Exit status: 0 done, 1 the summary or the write failed, 2 nothing was done: bad command line, an\n"
            "input that does not load or an output that cannot be written (one line on stderr).\n",
            app_graph_generators());
}

typedef struct {
    int32_t deg_min, deg_max;
    double deg_avg;
    int32_t w_min, w_max;
    int32_t components, largest;
    int32_t depth, reached;
} summary;

/* Components by BFS over the (symmetric) CSR; the first BFS, from node 0,
 * gives the depth and the nodes reached. */
static int summarize(const app_csr *g, summary *s)
{
    memset(s, 0, sizeof *s);
    s->deg_min = INT32_MAX;
    for (int32_t v = 0; v < g->n; ++v) {
        int32_t d = g->row[v + 1] - g->row[v];
        s->deg_min = d < s->deg_min ? d : s->deg_min;
        s->deg_max = d > s->deg_max ? d : s->deg_max;
    }
    s->deg_avg = (double)g->m / g->n;
    if (g->w) {
        s->w_min = INT32_MAX;
        for (int32_t k = 0; k < g->m; ++k) {
            s->w_min = g->w[k] < s->w_min ? g->w[k] : s->w_min;
            s->w_max = g->w[k] > s->w_max ? g->w[k] : s->w_max;
        }
    }
    int32_t *level = malloc((size_t)g->n * sizeof *level), *queue = malloc((size_t)g->n * sizeof *queue);
    if (!level || !queue) {
        free(level);
        free(queue);
        return -1;
    }
    for (int32_t v = 0; v < g->n; ++v)
        level[v] = -1;
    for (int32_t root = 0; root < g->n; ++root) {
        if (level[root] >= 0)
            continue;
        int32_t head = 0, tail = 0, depth = 0;
        level[root] = 0;
        queue[tail++] = root;
        while (head < tail) {
            int32_t u = queue[head++];
            depth = level[u] > depth ? level[u] : depth;
            for (int32_t k = g->row[u]; k < g->row[u + 1]; ++k)
                if (level[g->col[k]] < 0) {
                    level[g->col[k]] = level[u] + 1;
                    queue[tail++] = g->col[k];
                }
        }
        if (root == 0) {
            s->depth = depth;
            s->reached = tail;
        }
        s->components++;
        s->largest = tail > s->largest ? tail : s->largest;
    }
    free(level);
    free(queue);
    return 0;
}

int main(int argc, char **argv)
{
    enum { OPT_GRAPH = 256, OPT_SEED, OPT_SCALE, OPT_EF, OPT_DROP, OPT_WRITE, OPT_FORMAT, OPT_JSON, OPT_VERSION };
    static const struct option longopts[] = {{"graph", required_argument, NULL, OPT_GRAPH},
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"scale", required_argument, NULL, OPT_SCALE},
                                             {"edge-factor", required_argument, NULL, OPT_EF},
                                             {"grid-drop", required_argument, NULL, OPT_DROP},
                                             {"write", required_argument, NULL, OPT_WRITE},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    app_graph_spec spec = {.name = NULL, .scale = 14, .edge_factor = 8, .grid_drop = 10, .seed = 1};
    const char *out_path = NULL;
    int json = 0, have_format = 0;
    app_graph_format fmt = APP_FMT_EDGES;
    cli_init("ckgraph");
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_VERSION: cli_print_version(); return 0;
        case OPT_GRAPH:
            if (!*v)
                cli_bad_value("--graph", "''", "empty name", "a generator or a file");
            spec.name = v;
            break;
        case OPT_SEED: spec.seed = cli_uint("--seed", v, 0, UINT64_MAX, ""); break;
        case OPT_SCALE: spec.scale = (unsigned)cli_uint("--scale", v, 1, 28, "(2^K nodes)"); break;
        case OPT_EF: spec.edge_factor = (unsigned)cli_uint("--edge-factor", v, 1, 64, "edges per node"); break;
        case OPT_DROP: spec.grid_drop = (unsigned)cli_uint("--grid-drop", v, 0, 90, "percent"); break;
        case OPT_WRITE:
            if (!*v)
                cli_bad_value("--write", "''", "empty file name", "a file name");
            out_path = v;
            break;
        case OPT_FORMAT:
            if (app_graph_format_parse(v, &fmt))
                cli_bad_value("--format", v, "unknown format", "edges, dimacs, galois, metis, mtx");
            have_format = 1;
            break;
        case OPT_JSON: json = 1; break;
        default: cli_getopt_error(c, argv);
        }
    }
    cli_no_operands(argc, argv);
    if (!spec.name)
        cli_usage_error("--graph NAME|FILE is required (generators: %s)", app_graph_generators());
    if (!app_graph_is_generated(spec.name) && access(spec.name, F_OK) != 0)
        cli_bad_value("--graph", spec.name, "neither a generator nor an existing file", app_graph_generators());
    if (have_format && !out_path)
        cli_usage_error("--format needs --write FILE");
    if (app_graph_spec_edges(&spec) > (double)(1u << 27)) {
        char why[128];
        snprintf(why, sizeof why, "it would generate %.0f edges", app_graph_spec_edges(&spec));
        cli_bad_value("--scale", spec.name, why, "at most 2^27 generated edges (host memory)");
    }
    if (out_path && !have_format)
        fmt = app_graph_format_of(out_path);
    /* The output is checked before the graph is built: a FIFO, a folder or a
     * device there is refused at once (the write itself goes through a
     * temporary file and a rename, graph_write.c). */
    char err[1024];
    if (out_path && ck_file_check_writable(out_path, err, sizeof err)) {
        fprintf(stderr, "ckgraph: --write: %s\n", err);
        return CLI_EXIT_USAGE;
    }

    app_csr g;
    char what[512];
    if (app_graph_load(&spec, &g, what, sizeof what, err, sizeof err)) {
        fprintf(stderr, "ckgraph: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    summary s;
    if (summarize(&g, &s)) {
        app_csr_free(&g);
        fprintf(stderr, "ckgraph: out of memory for the summary of %d nodes\n", g.n);
        return 1;
    }
    if (out_path && app_write_graph(out_path, fmt, &g, err, sizeof err)) {
        app_csr_free(&g);
        fprintf(stderr, "ckgraph: %s\n", err);
        return 1;
    }
    if (json) {
        json_out j;
        jo_start(&j, stdout);
        jo_object(&j, NULL);
        jo_str(&j, "input", what);
        jo_int(&j, "nodes", g.n);
        jo_int(&j, "arcs", g.m);
        jo_int(&j, "edges", g.m / 2);
        jo_object(&j, "degree");
        jo_int(&j, "min", s.deg_min);
        jo_int(&j, "max", s.deg_max);
        jo_num(&j, "avg", "%.4f", s.deg_avg);
        jo_end(&j);
        jo_bool(&j, "weighted", g.w != NULL);
        if (g.w) {
            jo_object(&j, "weight");
            jo_int(&j, "min", s.w_min);
            jo_int(&j, "max", s.w_max);
            jo_end(&j);
        }
        jo_int(&j, "components", s.components);
        jo_int(&j, "largest_component", s.largest);
        jo_object(&j, "bfs_from_0");
        jo_int(&j, "depth", s.depth);
        jo_int(&j, "reached", s.reached);
        jo_end(&j);
        if (out_path) {
            jo_str(&j, "written", out_path);
            jo_str(&j, "format", app_graph_format_name(fmt));
        }
        jo_end(&j);
    } else {
        printf("input       %s\n", what);
        printf("nodes       %d\n", g.n);
        printf("edges       %d undirected (%d arcs in the symmetric CSR)\n", g.m / 2, g.m);
        printf("degree      min %d, max %d, avg %.2f\n", s.deg_min, s.deg_max, s.deg_avg);
        if (g.w)
            printf("weights     %d..%d\n", s.w_min, s.w_max);
        else
            printf("weights     none\n");
        printf("components  %d (largest %d nodes)\n", s.components, s.largest);
        printf("bfs from 0  depth %d, %d nodes reached\n", s.depth, s.reached);
        if (out_path)
            printf("written     %s (%s)\n", out_path, app_graph_format_name(fmt));
    }
    app_csr_free(&g);
    return 0;
}
