/* tools/ckrun.c: the application runner and multitasking benchmark (owner:
 * apps). For one ported application (BFS or work stealing) and input it runs
 * the plain OpenCL baseline, the cooperative kernel alone in the megakernel,
 * and the cooperative kernel multitasked with a stream of matmul launches for
 * each requested matmul group count (the paper's section 5.4); it checks
 * every result against the CPU reference and prints times, slowdowns, gather
 * times, periods and kills/forks as a table or JSON.
 * Exit status (as every tool's, cli.h): 0 all PASS, 1 a FAIL or an error
 * during the runs, 2 nothing was run. */
#include "app.h"
#include "graph_input.h"
#include "cli.h"
#include "json_out.h"
#include "multitask.h"
#include "workload.h"
#include "paths.h"
#include "timer.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CONFIGS 16
#define MAX_RUNS 100

typedef struct {
    app_config app;
    ck_device_options device;
    uint64_t chaos;
    int naive_barrier;
    char noncoop[256];
    double period_ms;
    int matmul_size;      /* 0 = automatic */
    int ws_roots_given;   /* --ws-roots seen (else: automatic by device) */
    int bc_sources_given; /* --bc-sources seen (else: automatic by device) */
    unsigned runs;
    int json;
    size_t wg;
    unsigned coop_groups; /* 0 = all workers */
    unsigned max_groups;  /* megakernel cap */
    size_t arena_mb;
    double timeout_s;
    int plain; /* 0 none, 1 default (BFS multi-launch, WS persistent), 2 BFS persistent */
    unsigned plain_groups;
    unsigned samples;
    int quiet;
    int cls; /* --class: an app_class, -1 none */
} options;

typedef struct {
    char name[40];
    int kind; /* 0 plain, 1 standalone, 2 multitasked */
    unsigned mm_groups;
    unsigned runs;
    double coop_ms[MAX_RUNS];
    unsigned kills[MAX_RUNS], forks[MAX_RUNS], resizes[MAX_RUNS], max_active[MAX_RUNS], initial[MAX_RUNS];
    double *gather, *exec, *period;
    size_t n_gather, n_period, cap;
    unsigned mm_launches, mm_bad, mm_missed;
    int status;    /* 0 PASS, 1 FAIL, -1 error */
    int unchecked; /* no CPU reference: a 0 status means "nothing failed" */
    char msg[1024];
    char plain_mode[32];
    unsigned plain_groups;
} config_result;

/* Bounds of the numeric options (each in --help). */
#define MAX_SCALE 28u
#define MAX_GRAPH_EDGES (1u << 27) /* generated undirected edges: ~2 GiB of host memory */
#define MAX_GROUPS (1u << 20)
#define MAX_ARENA_MB (1u << 17) /* 128 GiB */
#define MAX_PERIOD_MS 60000.0
#define CPU_BC_SOURCES_LOG2 10u /* bc's sources on a CPU device by default: 1024 */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ckrun --app NAME [options]\n"
            "input:\n"
            "  --app NAME               application (required), one of: %s ('workstealing' is ws)\n"
            "  --graph NAME|FILE        graph apps' input: a generator (%s)\n"
            "                           or a file: .gr (DIMACS text or Galois binary), .graph (METIS), .mtx\n"
            "                           (Matrix Market), else an edge list 'u v [w]' per line; default rmat\n"
            "  --scale K                generated graphs have 2^K nodes, 1..%u (default 14; 16..20 for real\n"
            "                           sizes); R-MAT: 2^K x edge-factor and grid: 2^(K+1) at most %u edges\n"
            "  --edge-factor F          R-MAT edges per node, 1..64 (default 8)\n"
            "  --grid-drop P            grid: percent of edges dropped, 0..90 (default 10)\n"
            "  --source V               BFS/SSSP source node, 0..2^30 and inside the graph (default: the\n"
            "                           app's; BFS: largest degree, grid: 0)\n"
            "  --max-weight W           weighted apps (sssp): unweighted inputs get weights 1..W, 1..2^30\n"
            "                           (default 100)\n"
            "  --bc-sources K           bc: sources 0..K-1, 0 = every node (default 0; on a CPU 1024 for an R-MAT\n"
            "                           graph of more nodes, where every node takes minutes under chaos)\n"
            "  --ws-roots R             work-stealing tree: roots, 1..2^24 (default 256 on CPUs, 65536 on GPUs,\n"
            "                           where 256 roots end in about 10 ms)\n"
            "  --ws-depth D             depth limit, 0..100000 (default 96)\n"
            "  --ws-units U             hash chains per task, 1..2^20 (default 64)\n"
            "  --ws-iters I             rounds per chain, 0..2^20 (default 16)\n"
            "  --particles P            octree: particles, 1..2^26\n"
            "  --clusters C             octree: clusters the particles are drawn around, 1..2^24\n"
            "  --max-children K         octree: a box with more particles is split, 1..2^20\n"
            "  --game-depth D           game: look-ahead depth in moves, 1..12\n"
            "  --game-position MOVES    game: the position as the columns played so far, digits 1..7\n"
            "  --seed S                 generator seed, 0..2^64-1 (default 1)\n"
            "  --no-reference           skip the CPU reference: results are not checked (the check column\n"
            "                           says 'unchecked'; a warning goes to stderr). Without it, a reference\n"
            "                           above %.3g units of work is refused: work stealing roots x (depth+1)\n"
            "                           x units x iters hash rounds, BFS edges\n"
            "device and runtime:\n"
            "  --device S               device whose \"platform / device\" name contains S (default: CK_DEVICE,\n"
            "                           else the first GPU with a usable path, else PoCL)\n"
            "  --path cl20|cl12|auto    atomics path (default: CK_PATH, else auto)\n"
            "  --wg-size N              work-items per group, 1..%u and at most the device's maximum (default 64;\n"
            "                           also --wg)\n"
            "  --chaos SEED             chaos mode, SEED 1..2^64-1: every legal scheduling choice made at\n"
            "                           random (default: off)\n"
            "  --naive-barrier          resizing barrier with one offer_kill (default: query form)\n"
            "  --groups N               cooperative launches ask for N work-groups, 1..%u (default: all\n"
            "                           workers)\n"
            "  --max-groups G           cap the megakernel's work-groups, 2..%u (default: the occupancy)\n"
            "  --arena-mb MB            device arena in MiB, 1..%u (default: the runtime's)\n"
            "  --timeout S              deadline in seconds of every wait, the plain baseline's kernels\n"
            "                           included; above 0 and at most %.0f (default %.0f)\n"
            "  --kernels DIR            the applications' kernel folder: every app's NAME/*.cl and matmul.cl\n"
            "                           (the source tree's apps/; default: CK_APPS_KERNELS, else the installed\n"
            "                           or source copy)\n"
            "experiment:\n"
            "  --noncoop LIST           matmul work-group counts: 1..%d comma-separated entries of N, N/4, N/2,\n"
            "                           N-1 or a number 1..%u (default 1,N/4,N/2,N-1), or none\n"
            "  --period-ms P            milliseconds between matmul launches, 0..%.0f (default 40)\n"
            "  --class light|medium|heavy  graphics-like workload of the paper's section 5.2 (P/E = 70/3,\n"
            "                           40/3, 40/10 ms): sets the period to P and the matmul size to the one\n"
            "                           calibrated on the device so that a launch with all workers takes E\n"
            "                           (--matmul-size then caps the size; the calibration goes to stderr)\n"
            "  --matmul-size n          n x n matmul, 8..4096 (default 128 on CPUs, 1024 on GPUs)\n"
            "  --samples K              matmul entries checked per launch, 1..100000 (default 16)\n"
            "  --plain multi|persistent|none  graph apps' baseline form (default multi); the others are\n"
            "                           always persistent\n"
            "  --plain-groups G         work-groups of persistent baselines, 1 up to the discovered occupancy\n"
            "                           (default: occupancy - 1)\n"
            "  --runs R                 repeat every configuration R times, 1..%d (default 1)\n"
            "  --json                   JSON on stdout instead of the table\n"
            "  --quiet                  no progress notes on stderr\n"
            "  --version                print the version and exit\n"
            "  --help                   this text\n"
            "Exit status: 0 every check passed (or, with --no-reference, nothing failed), 1 a FAIL or an\n"
            "error during the runs, 2 nothing was run: bad command line, an input that does not load, no\n"
            "such device or a work-group size it refuses (one line on stderr).\n",
            app_kind_list(), app_graph_generators(), MAX_SCALE, MAX_GRAPH_EDGES, APP_MAX_REFERENCE_WORK,
            CLI_MAX_WG_SIZE, MAX_GROUPS, MAX_GROUPS, MAX_ARENA_MB, CLI_MAX_TIMEOUT_S, CLI_DEFAULT_TIMEOUT_S,
            MAX_CONFIGS - 2, MAX_GROUPS, MAX_PERIOD_MS, MAX_RUNS);
}

/* Checks --noncoop's list (N is not known yet); exits 2 if malformed. */
static void check_noncoop(const char *list)
{
    char allowed[160];
    snprintf(allowed, sizeof allowed, "none, or 1..%d comma-separated entries of N, N/4, N/2, N-1 or 1..%u groups",
             MAX_CONFIGS - 2, MAX_GROUPS);
    if (!strcmp(list, "none"))
        return;
    int count = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char tok[32], why[96];
        if (len == 0)
            cli_bad_value("--noncoop", list, "empty entry in the list", allowed);
        if (++count > MAX_CONFIGS - 2)
            cli_bad_value("--noncoop", list, "too many entries", allowed);
        snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok - 1 ? len : sizeof tok - 1), p);
        unsigned g;
        int named = !strcmp(tok, "N") || !strcmp(tok, "N/4") || !strcmp(tok, "N/2") || !strcmp(tok, "N-1");
        if (!named) {
            char *end;
            unsigned long long v = strtoull(tok, &end, 10);
            if (len >= sizeof tok || end == tok || *end || tok[0] == '-' || tok[0] == '+' || v < 1 ||
                v > MAX_GROUPS || app_parse_group_expr(tok, MAX_GROUPS, &g)) {
                snprintf(why, sizeof why, "entry '%.*s' is not N, N/4, N/2, N-1 or a number 1..%u", (int)len, p,
                         MAX_GROUPS);
                cli_bad_value("--noncoop", list, why, allowed);
            }
        }
        if (!comma)
            break;
        p = comma + 1;
    }
}

static void parse_args(int argc, char **argv, options *o)
{
    int have_app = 0;
    memset(o, 0, sizeof *o);
    app_config_defaults(&o->app, APP_KIND_BFS);
    snprintf(o->noncoop, sizeof o->noncoop, "1,N/4,N/2,N-1");
    o->period_ms = 40;
    o->runs = 1;
    o->wg = 64;
    o->timeout_s = CLI_DEFAULT_TIMEOUT_S;
    o->plain = 1;
    o->samples = 16;
    o->cls = -1;
    app_config ws_defaults;
    app_config_defaults(&ws_defaults, APP_KIND_WS);
    o->app.ws = ws_defaults.ws;
    enum {
        OPT_APP = 256,
        OPT_GRAPH,
        OPT_SCALE,
        OPT_EF,
        OPT_DROP,
        OPT_SOURCE,
        OPT_ROOTS,
        OPT_DEPTH,
        OPT_UNITS,
        OPT_ITERS,
        OPT_SEED,
        OPT_NOREF,
        OPT_DEVICE,
        OPT_PATH,
        OPT_WG,
        OPT_CHAOS,
        OPT_NAIVE,
        OPT_GROUPS,
        OPT_MAXG,
        OPT_ARENA,
        OPT_TIMEOUT,
        OPT_KERNELS,
        OPT_NONCOOP,
        OPT_PERIOD,
        OPT_MMSIZE,
        OPT_SAMPLES,
        OPT_PLAIN,
        OPT_PLAING,
        OPT_RUNS,
        OPT_JSON,
        OPT_QUIET,
        OPT_VERSION,
        OPT_MAXW,
        OPT_BCSRC,
        OPT_PARTICLES,
        OPT_CLUSTERS,
        OPT_MAXCHILD,
        OPT_GDEPTH,
        OPT_GPOS,
        OPT_CLASS
    };
    static const struct option longopts[] = {{"app", required_argument, NULL, OPT_APP},
                                             {"graph", required_argument, NULL, OPT_GRAPH},
                                             {"scale", required_argument, NULL, OPT_SCALE},
                                             {"edge-factor", required_argument, NULL, OPT_EF},
                                             {"grid-drop", required_argument, NULL, OPT_DROP},
                                             {"source", required_argument, NULL, OPT_SOURCE},
                                             {"ws-roots", required_argument, NULL, OPT_ROOTS},
                                             {"ws-depth", required_argument, NULL, OPT_DEPTH},
                                             {"ws-units", required_argument, NULL, OPT_UNITS},
                                             {"ws-iters", required_argument, NULL, OPT_ITERS},
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"no-reference", no_argument, NULL, OPT_NOREF},
                                             {"device", required_argument, NULL, OPT_DEVICE},
                                             {"path", required_argument, NULL, OPT_PATH},
                                             {"wg-size", required_argument, NULL, OPT_WG},
                                             {"wg", required_argument, NULL, OPT_WG},
                                             {"chaos", required_argument, NULL, OPT_CHAOS},
                                             {"naive-barrier", no_argument, NULL, OPT_NAIVE},
                                             {"groups", required_argument, NULL, OPT_GROUPS},
                                             {"max-groups", required_argument, NULL, OPT_MAXG},
                                             {"arena-mb", required_argument, NULL, OPT_ARENA},
                                             {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                             {"kernels", required_argument, NULL, OPT_KERNELS},
                                             {"noncoop", required_argument, NULL, OPT_NONCOOP},
                                             {"period-ms", required_argument, NULL, OPT_PERIOD},
                                             {"matmul-size", required_argument, NULL, OPT_MMSIZE},
                                             {"samples", required_argument, NULL, OPT_SAMPLES},
                                             {"plain", required_argument, NULL, OPT_PLAIN},
                                             {"plain-groups", required_argument, NULL, OPT_PLAING},
                                             {"runs", required_argument, NULL, OPT_RUNS},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"quiet", no_argument, NULL, OPT_QUIET},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"max-weight", required_argument, NULL, OPT_MAXW},
                                             {"bc-sources", required_argument, NULL, OPT_BCSRC},
                                             {"particles", required_argument, NULL, OPT_PARTICLES},
                                             {"clusters", required_argument, NULL, OPT_CLUSTERS},
                                             {"max-children", required_argument, NULL, OPT_MAXCHILD},
                                             {"game-depth", required_argument, NULL, OPT_GDEPTH},
                                             {"game-position", required_argument, NULL, OPT_GPOS},
                                             {"class", required_argument, NULL, OPT_CLASS},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    cli_init("ckrun");
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h': usage(stdout); exit(0);
        case OPT_VERSION: cli_print_version(); exit(0);
        case OPT_JSON: o->json = 1; break;
        case OPT_NAIVE: o->naive_barrier = 1; break;
        case OPT_QUIET: o->quiet = 1; break;
        case OPT_NOREF: o->app.skip_reference = 1; break;
        case OPT_APP:
            if (app_kind_parse(v, &o->app.kind))
                cli_bad_value("--app", v, "unknown application", app_kind_list());
            have_app = 1;
            break;
        case OPT_GRAPH: o->app.graph = v; break;
        case OPT_SCALE: o->app.scale = (unsigned)cli_uint("--scale", v, 1, MAX_SCALE, "(2^K nodes)"); break;
        case OPT_EF: o->app.edge_factor = (unsigned)cli_uint("--edge-factor", v, 1, 64, "edges per node"); break;
        case OPT_DROP: o->app.grid_drop = (unsigned)cli_uint("--grid-drop", v, 0, 90, "percent"); break;
        case OPT_SOURCE: o->app.source = (int32_t)cli_uint("--source", v, 0, 1u << 30, "(node id)"); break;
        case OPT_ROOTS:
            o->app.ws.roots = (unsigned)cli_uint("--ws-roots", v, 1, 1u << 24, "roots");
            o->ws_roots_given = 1;
            break;
        case OPT_DEPTH: o->app.ws.max_depth = (unsigned)cli_uint("--ws-depth", v, 0, 100000, "levels"); break;
        case OPT_UNITS: o->app.ws.units = (unsigned)cli_uint("--ws-units", v, 1, 1u << 20, "hash chains"); break;
        case OPT_ITERS: o->app.ws.iters = (unsigned)cli_uint("--ws-iters", v, 0, 1u << 20, "rounds"); break;
        case OPT_MAXW: o->app.max_weight = (uint32_t)cli_uint("--max-weight", v, 1, 1u << 30, "(weight)"); break;
        case OPT_BCSRC:
            o->app.bc_sources = (uint32_t)cli_uint("--bc-sources", v, 0, 1u << 30, "sources");
            o->bc_sources_given = 1;
            break;
        case OPT_PARTICLES: o->app.particles = (uint32_t)cli_uint("--particles", v, 1, 1u << 26, "particles"); break;
        case OPT_CLUSTERS: o->app.clusters = (uint32_t)cli_uint("--clusters", v, 1, 1u << 24, "clusters"); break;
        case OPT_MAXCHILD:
            o->app.max_children = (uint32_t)cli_uint("--max-children", v, 1, 1u << 20, "particles");
            break;
        case OPT_GDEPTH: o->app.game_depth = (uint32_t)cli_uint("--game-depth", v, 1, 12, "moves"); break;
        case OPT_GPOS:
            if (strlen(v) > 42 || strspn(v, "1234567") != strlen(v))
                cli_bad_value("--game-position", v, "not a move list", "digits 1..7, at most 42 moves");
            o->app.game_position = v;
            break;
        case OPT_SEED: o->app.seed = cli_uint("--seed", v, 0, UINT64_MAX, ""); break;
        case OPT_DEVICE: o->device.device = v; break;
        case OPT_PATH:
            if (ck_path_parse(v, &o->device.path) != CK_OK)
                cli_bad_value("--path", v, "unknown atomics path", "auto, cl20 or cl12");
            break;
        case OPT_WG: o->wg = cli_wg_size("--wg-size", v); break;
        case OPT_CHAOS: o->chaos = cli_uint("--chaos", v, 1, UINT64_MAX, "(seed; 0 is not a seed)"); break;
        case OPT_GROUPS: o->coop_groups = (unsigned)cli_uint("--groups", v, 1, MAX_GROUPS, "work-groups"); break;
        case OPT_MAXG:
            o->max_groups =
                (unsigned)cli_uint("--max-groups", v, 2, MAX_GROUPS, "work-groups (scheduler + workers)");
            break;
        case OPT_ARENA: o->arena_mb = (size_t)cli_uint("--arena-mb", v, 1, MAX_ARENA_MB, "MiB"); break;
        case OPT_TIMEOUT: o->timeout_s = cli_timeout("--timeout", v); break;
        case OPT_KERNELS: app_set_kernel_dir(v); break;
        case OPT_NONCOOP:
            if (strlen(v) >= sizeof o->noncoop)
                cli_bad_value("--noncoop", v, "list too long", "at most 255 characters");
            check_noncoop(v);
            snprintf(o->noncoop, sizeof o->noncoop, "%s", v);
            break;
        case OPT_CLASS: {
            app_class c;
            if (app_class_parse(v, &c))
                cli_bad_value("--class", v, "unknown workload class", "light, medium or heavy");
            o->cls = (int)c;
            break;
        }
        case OPT_PERIOD: o->period_ms = cli_double("--period-ms", v, 0, MAX_PERIOD_MS, "ms"); break;
        case OPT_MMSIZE: o->matmul_size = (int)cli_uint("--matmul-size", v, 8, 4096, "(n of n x n)"); break;
        case OPT_SAMPLES: o->samples = (unsigned)cli_uint("--samples", v, 1, 100000, "entries"); break;
        case OPT_PLAIN:
            if (!strcmp(v, "none"))
                o->plain = 0;
            else if (!strcmp(v, "multi"))
                o->plain = 1;
            else if (!strcmp(v, "persistent"))
                o->plain = 2;
            else
                cli_bad_value("--plain", v, "unknown baseline form", "multi, persistent or none");
            break;
        case OPT_PLAING:
            o->plain_groups = (unsigned)cli_uint("--plain-groups", v, 1, MAX_GROUPS, "work-groups");
            break;
        case OPT_RUNS: o->runs = (unsigned)cli_uint("--runs", v, 1, MAX_RUNS, "runs"); break;
        default: cli_getopt_error(c, argv);
        }
    }
    cli_no_operands(argc, argv);
    if (o->cls >= 0)
        o->period_ms = app_class_period_ms((app_class)o->cls, 1.0);
    if (!have_app)
        cli_usage_error("--app NAME is required (one of: %s)", app_kind_list());
    /* Generated graphs: bound the host memory they take. */
    if (app_kind_uses_graph(o->app.kind) && o->app.graph &&
        (!strcmp(o->app.graph, "rmat") || !strcmp(o->app.graph, "grid"))) {
        int rmat = !strcmp(o->app.graph, "rmat");
        uint64_t edges = rmat ? ((uint64_t)1 << o->app.scale) * o->app.edge_factor : (uint64_t)2 << o->app.scale;
        if (edges > MAX_GRAPH_EDGES) {
            char value[16], why[200], allowed[160];
            snprintf(value, sizeof value, "%u", o->app.scale);
            if (rmat)
                snprintf(why, sizeof why,
                         "an R-MAT graph of 2^%u nodes x %u edges per node has %llu edges, too many", o->app.scale,
                         o->app.edge_factor, (unsigned long long)edges);
            else
                snprintf(why, sizeof why, "a grid of 2^%u nodes has about %llu edges, too many", o->app.scale,
                         (unsigned long long)edges);
            snprintf(allowed, sizeof allowed, "%s at most %u edges (host memory)",
                     rmat ? "2^scale x edge-factor" : "2^(scale+1)", MAX_GRAPH_EDGES);
            cli_bad_value("--scale", value, why, allowed);
        }
    } else if (app_kind_uses_graph(o->app.kind) && o->app.graph && app_graph_is_generated(o->app.graph)) {
        /* The fixed-size look-alikes: their own edge counts. */
        app_graph_spec spec = {.name = o->app.graph, .scale = o->app.scale, .edge_factor = o->app.edge_factor};
        double edges = app_graph_spec_edges(&spec);
        if (edges > MAX_GRAPH_EDGES) {
            char why[200], allowed[160];
            snprintf(why, sizeof why, "it has about %.0f edges, too many", edges);
            snprintf(allowed, sizeof allowed, "generated graphs of at most %u edges (host memory)", MAX_GRAPH_EDGES);
            cli_bad_value("--graph", o->app.graph, why, allowed);
        }
    }
}

/* ---------------------------------------------------------------- results */

static int push_samples(config_result *c, const app_multitask_result *r)
{
    size_t need = c->n_gather + r->mm_launches;
    if (need > c->cap) {
        size_t cap = need * 2;
        double *g = realloc(c->gather, cap * sizeof *g);
        if (!g)
            return -1;
        c->gather = g;
        double *e = realloc(c->exec, cap * sizeof *e);
        if (!e)
            return -1;
        c->exec = e;
        double *p = realloc(c->period, cap * sizeof *p);
        if (!p)
            return -1;
        c->period = p;
        c->cap = cap;
    }
    /* No launches: the arrays may all be NULL, and memcpy wants valid pointers even for 0 bytes. */
    if (r->mm_launches) {
        memcpy(c->gather + c->n_gather, r->gather_ms, r->mm_launches * sizeof(double));
        memcpy(c->exec + c->n_gather, r->exec_ms, r->mm_launches * sizeof(double));
    }
    if (r->n_period)
        memcpy(c->period + c->n_period, r->period_ms, r->n_period * sizeof(double));
    c->n_gather += r->mm_launches;
    c->n_period += r->n_period;
    c->mm_launches += r->mm_launches;
    c->mm_bad += r->mm_bad;
    c->mm_missed += r->mm_missed;
    return 0;
}

static void set_status(config_result *c, int status, const char *msg)
{
    /* Keep the worst status and its first message. */
    int rank_new = status < 0 ? 2 : status, rank_old = c->status < 0 ? 2 : c->status;
    if (rank_new > rank_old) {
        c->status = status;
        snprintf(c->msg, sizeof c->msg, "%s", msg);
    }
}

static double median_d(const double *xs, unsigned n) { return n ? app_percentile(xs, n, 50) : 0; }

static double median_u(const unsigned *xs, unsigned n)
{
    double tmp[MAX_RUNS];
    for (unsigned i = 0; i < n; ++i)
        tmp[i] = xs[i];
    return median_d(tmp, n);
}

static const char *status_name(int s) { return s == 0 ? "PASS" : s > 0 ? "FAIL" : "ERROR"; }

static const char *config_status(const config_result *c)
{
    return c->status == 0 && c->unchecked ? "unchecked" : status_name(c->status);
}

typedef struct {
    const options *o;
    app *a;
    char device[260];
    char path[8];
    int device_cpu; /* the megakernel ran on a CPU device: its times are not GPU performance */
    unsigned workers, coop_groups;
    ck_megakernel_resources res; /* registers as the compiler reported them */
    double build_ms;
    int matmul_size;
    config_result cfg[MAX_CONFIGS];
    unsigned n_cfg;
    int session_error;
    char session_msg[1024];
    unsigned plain_occupancy; /* checked before the run (0: app_plain discovers it) */
    app_calibration cal;      /* --class: the matmul calibration (cal.n 0: none) */
    int device_busy;          /* the plain baseline ran out of time: skip the rest */
} report;

static const config_result *find_kind(const report *r, int kind)
{
    for (unsigned i = 0; i < r->n_cfg; ++i)
        if (r->cfg[i].kind == kind && r->cfg[i].runs > 0)
            return &r->cfg[i];
    return NULL;
}

static void print_table(const report *r)
{
    const options *o = r->o;
    printf("ckrun: %s | %s\n", app_kind_name(o->app.kind), app_describe(r->a));
    char chaos[32] = "off";
    if (o->chaos)
        snprintf(chaos, sizeof chaos, "seed %llu", (unsigned long long)o->chaos);
    printf("device: %s | path %s | work-group %zu | workers %u, cooperative N=%u | chaos %s | resizing "
           "barrier: %s\n",
           r->device[0] ? r->device : "?", r->path[0] ? r->path : "?", o->wg, r->workers, r->coop_groups, chaos,
           o->naive_barrier ? "naive" : "query");
    if (r->res.known && r->res.register_cap)
        printf("megakernel: %u registers per work-item, capped at %u, spills %u B\n", r->res.registers,
               r->res.register_cap, r->res.spill_bytes);
    else if (r->res.known)
        printf("megakernel: %u registers per work-item, no cap, spills %u B\n", r->res.registers,
               r->res.spill_bytes);
    if (r->res.note[0])
        printf("register cap: %s\n", r->res.note);
    printf("CPU reference %.1f ms | megakernel build %.0f ms | matmul %dx%d every %.0f ms | %u run(s) per "
           "configuration\n",
           app_cpu_ms(r->a), r->build_ms, r->matmul_size, r->matmul_size, o->period_ms, o->runs);
    if (r->device_cpu)
        printf("note: a CPU device: the times measure how the host schedules %u spinning workers on %ld cores,\n"
               "      not the speed of the design on a GPU (GPU figures: docs/RESULTS.md)\n",
               r->workers, sysconf(_SC_NPROCESSORS_ONLN));
    const config_result *alone = find_kind(r, 1);
    double base = alone ? median_d(alone->coop_ms, alone->runs) : 0;
    printf("%-22s %10s %8s %6s %6s %7s %8s %10s %10s %9s %9s  %s\n", "configuration", "coop ms", "slowdown", "kills",
           "forks", "resizes", "mm runs", "gather ms", "p99 ms", "exec ms", "period ms", "check");
    for (unsigned i = 0; i < r->n_cfg; ++i) {
        const config_result *c = &r->cfg[i];
        double t = median_d(c->coop_ms, c->runs);
        char slow[16] = "-", kills[16] = "-", forks[16] = "-", resizes[16] = "-";
        if (c->kind > 0 && base > 0 && c->runs)
            snprintf(slow, sizeof slow, "%.2f", t / base);
        if (c->kind > 0 && c->runs) {
            snprintf(kills, sizeof kills, "%.0f", median_u(c->kills, c->runs));
            snprintf(forks, sizeof forks, "%.0f", median_u(c->forks, c->runs));
            snprintf(resizes, sizeof resizes, "%.0f", median_u(c->resizes, c->runs));
        }
        char mm[16] = "-", gmed[16] = "-", gp99[16] = "-", emed[16] = "-", per[16] = "-";
        if (c->kind == 2) {
            snprintf(mm, sizeof mm, "%u", c->mm_launches);
            if (c->n_gather) {
                snprintf(gmed, sizeof gmed, "%.3f", app_percentile(c->gather, c->n_gather, 50));
                snprintf(gp99, sizeof gp99, "%.3f", app_percentile(c->gather, c->n_gather, 99));
                snprintf(emed, sizeof emed, "%.2f", app_percentile(c->exec, c->n_gather, 50));
            }
            if (c->n_period)
                snprintf(per, sizeof per, "%.1f", app_percentile(c->period, c->n_period, 50));
        }
        char tstr[16] = "-";
        if (c->runs)
            snprintf(tstr, sizeof tstr, "%.1f", t);
        printf("%-22s %10s %8s %6s %6s %7s %8s %10s %10s %9s %9s  %s\n", c->name, tstr, slow, kills, forks, resizes,
               mm, gmed, gp99, emed, per, config_status(c));
    }
    printf("coop ms: the cooperative kernel's time, median of the runs; slowdown: coop ms / standalone's;\n"
           "gather ms (p99 ms), exec ms, period ms: medians (99th percentile) over the matmul launches of the\n"
           "time to gather their groups, their execution time and the time from one launch to the next\n");
    const config_result *plain = find_kind(r, 0);
    if (plain && alone && plain->runs && median_d(plain->coop_ms, plain->runs) > 0)
        printf("cooperative overhead without multitasking (standalone / plain %s): %.2fx\n", plain->plain_mode,
               base / median_d(plain->coop_ms, plain->runs));
    int fails = 0;
    for (unsigned i = 0; i < r->n_cfg; ++i)
        if (r->cfg[i].status != 0) {
            ++fails;
            printf("%s %s: %s\n", status_name(r->cfg[i].status), r->cfg[i].name, r->cfg[i].msg);
        }
    if (r->session_error)
        printf("ERROR: %s\n", r->session_msg);
    if (o->app.skip_reference && !fails && !r->session_error)
        printf("result: UNCHECKED (%u configurations, none failed; --no-reference: results not compared with a CPU "
               "reference)\n",
               r->n_cfg);
    else
        printf("result: %s (%u configurations, %d not passing)\n", fails || r->session_error ? "FAIL" : "PASS",
               r->n_cfg, fails);
}

/* "key": {median, p99[, max]} of a run's samples in ms, or null where there are none. */
static void json_summary(json_out *j, const char *key, const app_summary *s, int with_max)
{
    if (!s->count) {
        jo_null(j, key);
        return;
    }
    jo_object(j, key);
    jo_num(j, "median", "%.4f", s->median);
    jo_num(j, "p99", "%.4f", s->p99);
    if (with_max)
        jo_num(j, "max", "%.4f", s->max);
    jo_end(j);
}

static void print_json(const report *r)
{
    const options *o = r->o;
    const config_result *alone = find_kind(r, 1);
    double base = alone ? median_d(alone->coop_ms, alone->runs) : 0;
    int fails = r->session_error;
    json_out j;
    jo_start(&j, stdout);
    jo_object(&j, NULL);
    jo_str(&j, "app", app_kind_name(o->app.kind));
    jo_str(&j, "input", app_describe(r->a));
    jo_str(&j, "device", r->device);
    jo_str(&j, "path", r->path);
    jo_uint(&j, "work_group_size", o->wg);
    jo_uint(&j, "workers", r->workers);
    jo_uint(&j, "coop_groups", r->coop_groups);
    if (r->res.known) {
        jo_object(&j, "megakernel_resources");
        jo_uint(&j, "registers", r->res.registers);
        jo_uint(&j, "spill_bytes", r->res.spill_bytes);
        jo_uint(&j, "register_cap", r->res.register_cap);
        jo_end(&j);
    } else
        jo_null(&j, "megakernel_resources");
    jo_str(&j, "register_cap_note", r->res.note);
    jo_uint(&j, "chaos_seed", o->chaos);
    jo_str(&j, "barrier", o->naive_barrier ? "naive" : "query");
    jo_num(&j, "period_ms", "%.3f", o->period_ms);
    jo_int(&j, "matmul_size", r->matmul_size);
    if (o->cls >= 0) {
        jo_str(&j, "class", app_class_name((app_class)o->cls));
        jo_object(&j, "calibration");
        jo_num(&j, "target_exec_ms", "%.3f", r->cal.target_ms);
        jo_int(&j, "matmul_size", r->cal.n);
        jo_num(&j, "exec_ms", "%.4f", r->cal.exec_ms);
        jo_uint(&j, "groups", r->cal.groups);
        jo_bool(&j, "capped", r->cal.capped);
        jo_end(&j);
    }
    jo_uint(&j, "runs", o->runs);
    jo_num(&j, "cpu_reference_ms", "%.3f", app_cpu_ms(r->a));
    jo_num(&j, "build_ms", "%.1f", r->build_ms);
    jo_array(&j, "configs");
    for (unsigned i = 0; i < r->n_cfg; ++i) {
        const config_result *c = &r->cfg[i];
        fails += c->status != 0;
        double t = median_d(c->coop_ms, c->runs);
        jo_object(&j, NULL);
        jo_str(&j, "name", c->name);
        jo_str(&j, "kind", c->kind == 0 ? "plain" : c->kind == 1 ? "standalone" : "multitask");
        jo_str(&j, "status", config_status(c));
        jo_uint(&j, "runs", c->runs);
        jo_num(&j, "coop_ms", "%.3f", t);
        jo_array(&j, "coop_ms_runs");
        for (unsigned k = 0; k < c->runs; ++k)
            jo_num(&j, NULL, "%.3f", c->coop_ms[k]);
        jo_end(&j);
        if (c->kind == 0) {
            jo_str(&j, "mode", c->plain_mode);
            jo_uint(&j, "groups", c->plain_groups);
        }
        if (c->kind > 0) {
            jo_num(&j, "slowdown", "%.4f", base > 0 ? t / base : 0);
            jo_num(&j, "kills", "%.1f", median_u(c->kills, c->runs));
            jo_num(&j, "forks", "%.1f", median_u(c->forks, c->runs));
            jo_num(&j, "resizes", "%.1f", median_u(c->resizes, c->runs));
            jo_num(&j, "max_active", "%.1f", median_u(c->max_active, c->runs));
            jo_num(&j, "initial_groups", "%.1f", median_u(c->initial, c->runs));
        }
        if (c->kind == 2) {
            app_summary g = app_summarize(c->gather, c->n_gather), e = app_summarize(c->exec, c->n_gather),
                        p = app_summarize(c->period, c->n_period);
            jo_uint(&j, "matmul_groups", c->mm_groups);
            jo_uint(&j, "matmul_launches", c->mm_launches);
            jo_uint(&j, "matmul_bad", c->mm_bad);
            jo_uint(&j, "missed_periods", c->mm_missed);
            /* null where there were no samples (period: fewer than two launches in a run) */
            json_summary(&j, "gather_ms", &g, 1);
            json_summary(&j, "exec_ms", &e, 0);
            json_summary(&j, "period_ms", &p, 0);
        }
        jo_str(&j, "message", c->msg);
        jo_end(&j);
    }
    jo_end(&j);
    jo_str(&j, "error", r->session_error ? r->session_msg : "");
    /* pass: null when nothing failed but nothing was checked either (--no-reference). */
    jo_bool(&j, "checked", !o->app.skip_reference);
    if (!fails && o->app.skip_reference)
        jo_null(&j, "pass");
    else
        jo_bool(&j, "pass", !fails);
    jo_end(&j);
}

/* ------------------------------------------------------------------ runs */

static void note(const options *o, const char *fmt, ...)
{
    if (o->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ckrun: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static void run_plain(report *rep)
{
    const options *o = rep->o;
    config_result *c = &rep->cfg[rep->n_cfg++];
    c->kind = 0;
    app_plain_options po;
    memset(&po, 0, sizeof po);
    po.device = o->device;
    po.work_group_size = o->wg;
    po.groups = o->plain_groups;
    po.persistent = o->plain == 2;
    po.warmup = 1;
    po.timeout_s = o->timeout_s;
    po.occupancy = rep->plain_occupancy;
    for (unsigned run = 0; run < o->runs; ++run) {
        app_plain_result pr;
        char msg[640];
        int s = app_plain(rep->a, &po, &pr, msg, sizeof msg);
        snprintf(c->name, sizeof c->name, "plain %s", pr.mode[0] ? pr.mode : "baseline");
        snprintf(c->plain_mode, sizeof c->plain_mode, "%s", pr.mode);
        if (pr.device[0]) {
            snprintf(rep->device, sizeof rep->device, "%s", pr.device);
            snprintf(rep->path, sizeof rep->path, "%s", pr.path);
        }
        if (s < 0) {
            set_status(c, -1, msg);
            if (pr.timed_out) {
                rep->device_busy = 1;
                fprintf(stderr, "ckrun: %s\n", msg);
            }
            break;
        }
        c->plain_groups = pr.groups;
        c->coop_ms[c->runs++] = pr.ms;
        if (s == APP_UNCHECKED)
            c->unchecked = 1;
        else if (s > 0)
            set_status(c, 1, msg);
        note(o, "plain %s run %u: %.1f ms, %s", pr.mode, run + 1, pr.ms,
             s == APP_UNCHECKED ? "unchecked" : status_name(s));
    }
}

static void record_coop(config_result *c, const app_multitask_result *r)
{
    unsigned k = c->runs++;
    c->coop_ms[k] = r->coop_ms;
    c->kills[k] = r->coop.kills;
    c->forks[k] = r->coop.forked;
    c->resizes[k] = r->coop.resizes;
    c->max_active[k] = r->coop.max_active;
    c->initial[k] = r->coop.initial_groups;
}

static void run_config(report *rep, app_session *s, config_result *c)
{
    const options *o = rep->o;
    for (unsigned run = 0; run < o->runs; ++run) {
        app_multitask_result r;
        char err[1024];
        int rc = app_multitask_run(s, c->mm_groups, o->period_ms, o->samples, o->timeout_s, &r, err, sizeof err);
        if (rc == 0) {
            record_coop(c, &r);
            if (push_samples(c, &r))
                set_status(c, -1, "out of host memory for samples");
            if (r.coop_check == APP_UNCHECKED)
                c->unchecked = 1;
            else if (r.coop_check > 0)
                set_status(c, 1, r.coop_msg);
            if (r.mm_bad > 0)
                set_status(c, 1, r.mm_msg);
            if (c->kind == 2 && r.mm_launches == 0)
                note(o, "%s run %u: the cooperative kernel ended before any matmul launch", c->name, run + 1);
            note(o, "%s run %u: %.1f ms, %u kills, %u forks, %u matmul launches, %s", c->name, run + 1, r.coop_ms,
                 r.coop.kills, r.coop.forked, r.mm_launches,
                 r.coop_check == 1 || r.mm_bad   ? "FAIL"
                 : r.coop_check == APP_UNCHECKED ? "unchecked"
                                                 : "PASS");
        } else {
            set_status(c, -1, err);
            note(o, "%s run %u: error: %s", c->name, run + 1, err);
        }
        app_multitask_result_free(&r);
        if (rc)
            break; /* the context may be unusable after a timeout */
    }
}

/* 1 if the device the options select is a CPU (or cannot be opened: the
 * session reports that error itself later). */
static int device_is_cpu(const options *o)
{
    ck_device *dev;
    if (ck_device_open(&o->device, &dev) != CK_OK)
        return 1;
    int cpu = ck_device_get_info(dev)->is_cpu;
    ck_device_close(dev);
    return cpu;
}

static int auto_matmul_size(const options *o)
{
    if (o->matmul_size)
        return o->matmul_size;
    return device_is_cpu(o) ? 128 : 1024;
}

static void run_cooperative(report *rep)
{
    const options *o = rep->o;
    ck_context_options co;
    memset(&co, 0, sizeof co);
    co.device = o->device;
    co.work_group_size = o->wg;
    co.arena_bytes = o->arena_mb << 20;
    co.max_groups = o->max_groups;
    co.chaos_seed = o->chaos;
    co.naive_resizing_barrier = o->naive_barrier;
    co.timeout_s = o->timeout_s;
    int want_mm = strcmp(o->noncoop, "none") != 0;
    rep->matmul_size = auto_matmul_size(o);
    app_session s;
    char err[1024];
    if (app_session_open(rep->a, &co, want_mm ? rep->matmul_size : 0, o->coop_groups, &s, err, sizeof err)) {
        rep->session_error = 1;
        snprintf(rep->session_msg, sizeof rep->session_msg, "%s", err);
        return;
    }
    rep->workers = s.workers;
    rep->coop_groups = s.coop_groups;
    ck_context_megakernel_resources(s.ctx, &rep->res); /* built: cannot fail; zeroed if it did */
    rep->build_ms = s.build_ms;
    const ck_device_info *info = ck_context_device_info(s.ctx);
    if (info) {
        snprintf(rep->device, sizeof rep->device, "%s / %s", info->platform_name, info->device_name);
        snprintf(rep->path, sizeof rep->path, "%s", ck_path_name(info->path));
        rep->device_cpu = info->is_cpu;
    }
    note(o, "megakernel built in %.0f ms: %u workers, cooperative launches ask for N=%u", s.build_ms, s.workers,
         s.coop_groups);
    if (want_mm && o->cls >= 0) {
        app_class cls = (app_class)o->cls;
        int cap = o->matmul_size ? o->matmul_size : device_is_cpu(o) ? 512 : 4096;
        if (app_calibrate_matmul(s.ctx, s.workers, app_class_exec_ms(cls, 1.0), cap, &rep->cal, err, sizeof err) ||
            app_session_set_matmul(&s, rep->cal.n, err, sizeof err)) {
            rep->session_error = 1;
            snprintf(rep->session_msg, sizeof rep->session_msg, "%s", err);
            app_session_close(&s, err, sizeof err);
            return;
        }
        rep->matmul_size = rep->cal.n;
        fprintf(stderr, "ckrun: class %s (P %.0f ms, E %.0f ms): matmul %dx%d takes %.3f ms with %u groups%s\n",
                app_class_name(cls), app_class_period_ms(cls, 1.0), app_class_exec_ms(cls, 1.0), rep->cal.n,
                rep->cal.n, rep->cal.exec_ms, rep->cal.groups,
                rep->cal.capped ? " (capped: E not reached at the largest size allowed)" : "");
    }
    config_result *alone = &rep->cfg[rep->n_cfg++];
    snprintf(alone->name, sizeof alone->name, "standalone");
    alone->kind = 1;
    run_config(rep, &s, alone);
    if (want_mm && alone->status >= 0) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s", o->noncoop);
        for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t && rep->n_cfg < MAX_CONFIGS;
             t = strtok_r(NULL, ",", &save)) {
            config_result *c = &rep->cfg[rep->n_cfg++];
            c->kind = 2;
            app_parse_group_expr(t, s.coop_groups, &c->mm_groups);
            if (!strchr(t, 'N') && strtoul(t, NULL, 10) > c->mm_groups)
                fprintf(stderr, "ckrun: --noncoop %s: more than the N=%u work-groups there are; runs with %u\n", t,
                        s.coop_groups, c->mm_groups);
            if (strchr(t, 'N'))
                snprintf(c->name, sizeof c->name, "matmul %s=%u", t, c->mm_groups);
            else
                snprintf(c->name, sizeof c->name, "matmul %u", c->mm_groups);
            run_config(rep, &s, c);
            if (c->status < 0)
                break;
        }
    }
    if (app_session_close(&s, err, sizeof err)) {
        rep->session_error = 1;
        snprintf(rep->session_msg, sizeof rep->session_msg, "%s", err);
    }
}

/* Refuses (exit 2) --plain-groups above the occupancy the device has at
 * --wg: such a persistent kernel never finishes. Keeps the occupancy for
 * app_plain (no second discovery). */
static void check_plain_groups(const options *o, report *rep)
{
    int persistent = o->plain && (!app_kind_has_multi_launch(o->app.kind) || o->plain == 2);
    if (!persistent || !o->plain_groups)
        return;
    ck_device *dev;
    if (ck_device_open(&o->device, &dev) != CK_OK)
        return; /* the run reports the device error itself */
    ck_occupancy_options oo;
    memset(&oo, 0, sizeof oo);
    oo.work_group_size = o->wg;
    oo.barrier_rounds = 2;
    oo.timeout_s = o->timeout_s;
    ck_occupancy_result occ;
    ck_status st = ck_occupancy_discover(dev, &oo, &occ);
    char name[300];
    snprintf(name, sizeof name, "%s", ck_device_get_info(dev)->device_name);
    if (st != CK_OK) {
        fprintf(stderr, "ckrun: discovering the occupancy for --plain-groups: %s\n", ck_last_error());
        ck_device_close(dev);
        exit(1);
    }
    ck_device_close(dev);
    rep->plain_occupancy = occ.occupancy;
    if (o->plain_groups > occ.occupancy) {
        char value[16], why[700], allowed[96];
        snprintf(value, sizeof value, "%u", o->plain_groups);
        snprintf(why, sizeof why,
                 "only %u work-groups of %zu work-items are co-resident on %s (discovered occupancy), and a "
                 "persistent baseline with more never finishes",
                 occ.occupancy, o->wg, name);
        snprintf(allowed, sizeof allowed, "1..%u work-groups on this device", occ.occupancy);
        cli_bad_value("--plain-groups", value, why, allowed);
    }
}

/* Refuses (exit 2) a CPU reference above APP_MAX_REFERENCE_WORK. */
static void check_reference_cost(const options *o)
{
    double work = app_reference_work(&o->app);
    if (o->app.skip_reference || work <= APP_MAX_REFERENCE_WORK)
        return;
    if (o->app.kind == APP_KIND_WS)
        cli_usage_error(
            "the CPU reference would take %.3g hash rounds (roots %u x (depth %u + 1) x units %u x iters "
            "%u), above the limit %.3g (about half a minute): pass --no-reference to skip it, or use "
            "smaller --ws-roots/--ws-depth/--ws-units/--ws-iters",
            work, o->app.ws.roots, o->app.ws.max_depth, o->app.ws.units, o->app.ws.iters, APP_MAX_REFERENCE_WORK);
    cli_usage_error("the CPU reference would take %.3g units of work (%s), above the limit %.3g: pass "
                    "--no-reference to skip it, or use a smaller input",
                    work, app_reference_unit(o->app.kind), APP_MAX_REFERENCE_WORK);
}

int main(int argc, char **argv)
{
    /* We report the megakernel's registers: NVIDIA's compiler gives them only if its cache did not serve the build. */
    setenv("CUDA_CACHE_DISABLE", "1", 0);
    options o;
    parse_args(argc, argv, &o);
    static report rep;
    rep.o = &o;
    char err[1024];
    /* Work stealing's default tree ends in about 10 ms on a large GPU, before
     * a matmul stream of 40 ms periods can ask for anything: GPUs get a tree
     * of 65536 roots (about 45 ms alone on the H100, docs/RESULTS.md). */
    cli_check_device(&o.device, &o.wg, 1);
    if (o.app.kind == APP_KIND_WS && !o.ws_roots_given && !device_is_cpu(&o))
        o.app.ws.roots = 65536;
    /* Betweenness centrality from every node of the default R-MAT 2^14 takes
     * 32 s plain on two CPU cores and runs past the default timeout under
     * chaos: on a CPU device an R-MAT graph of more than 1024 nodes gets
     * the first 1024 sources unless --bc-sources says otherwise. */
    if (o.app.kind == APP_KIND_BC && !o.bc_sources_given && device_is_cpu(&o) && o.app.graph &&
        strcmp(o.app.graph, "rmat") == 0 && o.app.scale > CPU_BC_SOURCES_LOG2)
        o.app.bc_sources = 1u << CPU_BC_SOURCES_LOG2;
    check_reference_cost(&o);
    check_plain_groups(&o, &rep);
    if (o.app.skip_reference)
        fprintf(stderr, "ckrun: warning: --no-reference: results are not checked against a CPU reference "
                        "(the check column says 'unchecked')\n");
    if (app_create(&o.app, &rep.a, err, sizeof err)) {
        fprintf(stderr, "ckrun: %s\n", err);
        return CLI_EXIT_USAGE; /* the input did not load: nothing was run */
    }
    note(&o, "%s", app_describe(rep.a));
    if (o.plain)
        run_plain(&rep);
    if (rep.device_busy) {
        rep.session_error = 1;
        snprintf(rep.session_msg, sizeof rep.session_msg,
                 "cooperative runs skipped: the plain baseline's kernel may still occupy the device");
    } else {
        run_cooperative(&rep);
    }
    if (o.json)
        print_json(&rep);
    else
        print_table(&rep);
    int bad = rep.session_error;
    for (unsigned i = 0; i < rep.n_cfg; ++i) {
        bad |= rep.cfg[i].status != 0;
        free(rep.cfg[i].gather);
        free(rep.cfg[i].exec);
        free(rep.cfg[i].period);
    }
    if (rep.device_busy) /* the plain kernel (or its compile) may still run */
        cli_exit_device_busy(bad ? 1 : 0);
    app_destroy(rep.a);
    return bad ? 1 : 0;
}
