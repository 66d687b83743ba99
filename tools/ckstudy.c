/* tools/ckstudy.c: the paper's whole evaluation (section 5, Tables 2-3,
 * Figures 5-6) on any device, in one command (owner: apps). It sweeps apps x
 * inputs x workload classes {light, medium, heavy} x matmul group counts
 * {1, N/4, N/2, N-1} x resizing-barrier forms {query, naive} (graph apps) x R
 * runs, plus every app/input alone and as the original persistent kernel at
 * the same group count, and writes into an output folder: runs.csv (a row
 * per run, appended and flushed), summary.json, table2.csv/.md,
 * table3.csv/.md, fig5_<app>_<input>.png, fig6.png and timeline_<app>.json/
 * .png, with the .dat/.gp files gnuplot drew them from. Definitions and
 * presets: docs/STUDY.md.
 * Exit status (as every tool's, cli.h): 0 every run passed, 1 a FAIL or an
 * error, 2 nothing was run (one line on stderr, before any run). */
#include "app.h"
#include "cli.h"
#include "file_io.h"
#include "json_out.h"
#include "multitask.h"
#include "paths.h"
#include "study_report.h"
#include "study_rows.h"
#include "study_table2.h"
#include "study_timeline.h"
#include "timer.h"
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ITEMS 32
#define MAX_GROUPS_EXPR 8
#define MAX_RUNS 100

typedef struct {
    app_kind kind;
    char input[32];
    app_config cfg;
} study_item;

typedef struct {
    int quick;
    const char *out;
    const char *apps; /* NULL: the preset's */
    int classes[APP_CLASS_COUNT];
    unsigned n_classes;
    const char *groups[MAX_GROUPS_EXPR];
    unsigned n_groups;
    unsigned runs;
    unsigned runs_one; /* runs of the configurations whose stream has 1 group */
    double scale;      /* P and E scale */
    int max_n;         /* calibration cap (0: by device) */
    int resume, no_plots, naive_too, report_only, dry_run;
    int table2; /* --table2: only the fair Table 2 (docs/STUDY.md) */
    ck_device_options device;
    size_t wg;
    unsigned max_groups;
    size_t arena_mb;
    double timeout_s;
    unsigned samples;
    study_item items[MAX_ITEMS];
    unsigned n_items;
} options;

/* Paper-sized inputs of the full preset (the paper's 11 pairs' kind, sized
 * for the H100; apps/README.md has each one's ckrun line). */
static const struct {
    const char *app, *input;
} full_inputs[] = {
    {"bfs", "rmat20"},     {"bfs", "road-ny"},    {"color", "circuit"}, {"color", "ecology"},
    {"mis", "circuit"},    {"p-sssp", "road-ny"}, {"bc", "bc-1k"},      {"bfs-wl", "road-w"},
    {"l-sssp", "road-nw"}, {"octree", "default"}, {"game", "default"},  {"ws", "default"},
};
static const char *const quick_apps = "bfs,ws";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ckstudy [--quick | --preset quick|full] [--table2] [options]\n"
            "  --preset quick|full      quick: each app's CI-sized test input, 1 run, P and E scaled by 0.25,\n"
            "                           apps bfs,ws unless --apps (under a minute on PoCL); full (default): the\n"
            "                           paper-sized inputs (docs/STUDY.md), 3 runs, the paper's P and E\n"
            "  --quick                  same as --preset quick\n"
            "  --table2                 only Table 2, fairly: per app/input R rounds of the cooperative kernel\n"
            "                           alone (a fresh context each), the plain persistent kernel and the plain\n"
            "                           one with -DCK_PLAIN_BARRIER_FENCED (one warm session), each after a\n"
            "                           warm-up run, in an order that alternates between rounds; --runs R\n"
            "                           (default 10, at least 2); --classes, --groups, --query-only and\n"
            "                           --runs-one-group do not apply\n"
            "  --out DIR                output folder (default study-out; created)\n"
            "  --apps LIST              comma-separated apps, of: %s\n"
            "  --classes LIST           of light,medium,heavy (default all three)\n"
            "  --groups LIST            matmul group counts, of 1,N/4,N/2,N-1,N (default 1,N/4,N/2,N-1)\n"
            "  --runs R                 runs per configuration, 1..%d (default: quick 1, full 3)\n"
            "  --runs-one-group R       runs of the configurations whose stream has 1 group (each of its\n"
            "                           launches takes about N x E: 12 s for heavy at N = 1200), 1..%d\n"
            "                           (default: quick as --runs, full 1)\n"
            "  --time-scale F           multiply every P and E by F, 0.01..10 (default: the preset's)\n"
            "  --max-matmul n           largest matmul size the calibration tries, 8..4096 (default 4096 on\n"
            "                           GPUs, 256 on CPUs)\n"
            "  --query-only             graph apps: the query resizing barrier only (default: query and naive)\n"
            "  --resume                 keep DIR/runs.csv and skip the runs it has\n"
            "  --no-plots               write the .dat/.gp files but do not run gnuplot\n"
            "  --dry-run                print the app/input pairs and configurations, run nothing\n"
            "  --report-only            run nothing: remake the tables, figures and summary from DIR/runs.csv\n"
            "  --device S, --path cl20|cl12|auto, --wg-size N (also --wg; default: quick 64, full 128),\n"
            "  --max-groups G,\n"
            "  --arena-mb MB, --timeout S (default %.0f),\n"
            "  --samples K              as for ckrun\n"
            "  --version, --help\n"
            "Plots need gnuplot (Debian package gnuplot-nox). Progress goes to stderr.\n"
            "Exit status: 0 every run passed, 1 a FAIL or an error during the runs, 2 nothing was run: bad\n"
            "command line, output folder, no such device or a work-group size it refuses.\n",
            app_kind_list(), MAX_RUNS, MAX_RUNS, CLI_DEFAULT_TIMEOUT_S);
}

static void add_item(options *o, app_kind k, const char *input)
{
    if (o->n_items == MAX_ITEMS)
        cli_usage_error("too many app/input pairs (at most %d)", MAX_ITEMS);
    study_item *it = &o->items[o->n_items++];
    it->kind = k;
    snprintf(it->input, sizeof it->input, "%s", input);
    if (!strcmp(input, "ci")) {
        app_test_config(&it->cfg, k, 0);
        return;
    }
    app_config_defaults(&it->cfg, k);
}

/* The apps list, validated (exit 2 on an unknown name). */
static void parse_apps(const char *list, app_kind *kinds, unsigned *n)
{
    char tmp[512];
    if (strlen(list) >= sizeof tmp)
        cli_bad_value("--apps", list, "list too long", app_kind_list());
    snprintf(tmp, sizeof tmp, "%s", list);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        app_kind k;
        if (app_kind_parse(t, &k))
            cli_bad_value("--apps", t, "unknown application", app_kind_list());
        if (*n < APP_KIND_COUNT)
            kinds[(*n)++] = k;
    }
    if (*n == 0)
        cli_bad_value("--apps", list, "empty list", app_kind_list());
}

static void parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->out = "study-out";
    o->wg = 64;
    o->timeout_s = CLI_DEFAULT_TIMEOUT_S;
    o->samples = 16;
    o->naive_too = 1;
    const char *preset = "full", *classes = "light,medium,heavy", *groups = "1,N/4,N/2,N-1";
    unsigned runs = 0, runs1 = 0;
    const char *runs_arg = NULL;
    size_t wg = 0;
    double scale = 0;
    enum {
        OPT_PRESET = 256,
        OPT_QUICK,
        OPT_OUT,
        OPT_APPS,
        OPT_CLASSES,
        OPT_GROUPS,
        OPT_RUNS,
        OPT_SCALE,
        OPT_MAXN,
        OPT_QONLY,
        OPT_RESUME,
        OPT_NOPLOTS,
        OPT_DEVICE,
        OPT_PATH,
        OPT_WG,
        OPT_MAXG,
        OPT_ARENA,
        OPT_TIMEOUT,
        OPT_SAMPLES,
        OPT_VERSION,
        OPT_REPORT,
        OPT_RUNS1,
        OPT_DRY,
        OPT_TABLE2
    };
    static const struct option longopts[] = {{"preset", required_argument, NULL, OPT_PRESET},
                                             {"quick", no_argument, NULL, OPT_QUICK},
                                             {"out", required_argument, NULL, OPT_OUT},
                                             {"apps", required_argument, NULL, OPT_APPS},
                                             {"classes", required_argument, NULL, OPT_CLASSES},
                                             {"groups", required_argument, NULL, OPT_GROUPS},
                                             {"runs", required_argument, NULL, OPT_RUNS},
                                             {"time-scale", required_argument, NULL, OPT_SCALE},
                                             {"max-matmul", required_argument, NULL, OPT_MAXN},
                                             {"query-only", no_argument, NULL, OPT_QONLY},
                                             {"resume", no_argument, NULL, OPT_RESUME},
                                             {"no-plots", no_argument, NULL, OPT_NOPLOTS},
                                             {"device", required_argument, NULL, OPT_DEVICE},
                                             {"path", required_argument, NULL, OPT_PATH},
                                             {"wg-size", required_argument, NULL, OPT_WG},
                                             {"wg", required_argument, NULL, OPT_WG},
                                             {"max-groups", required_argument, NULL, OPT_MAXG},
                                             {"arena-mb", required_argument, NULL, OPT_ARENA},
                                             {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                             {"samples", required_argument, NULL, OPT_SAMPLES},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"report-only", no_argument, NULL, OPT_REPORT},
                                             {"runs-one-group", required_argument, NULL, OPT_RUNS1},
                                             {"dry-run", no_argument, NULL, OPT_DRY},
                                             {"table2", no_argument, NULL, OPT_TABLE2},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    cli_init("ckstudy");
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h': usage(stdout); exit(0);
        case OPT_VERSION: cli_print_version(); exit(0);
        case OPT_PRESET:
            if (strcmp(v, "quick") && strcmp(v, "full"))
                cli_bad_value("--preset", v, "unknown preset", "quick or full");
            preset = v;
            break;
        case OPT_QUICK: preset = "quick"; break;
        case OPT_OUT:
            if (!*v)
                cli_bad_value("--out", v, "empty folder name", "a folder path");
            o->out = v;
            break;
        case OPT_APPS: o->apps = v; break;
        case OPT_CLASSES: classes = v; break;
        case OPT_GROUPS: groups = v; break;
        case OPT_RUNS:
            runs = (unsigned)cli_uint("--runs", v, 1, MAX_RUNS, "runs");
            runs_arg = v;
            break;
        case OPT_TABLE2: o->table2 = 1; break;
        case OPT_SCALE: scale = cli_double("--time-scale", v, 0.01, 10, "(factor)"); break;
        case OPT_MAXN: o->max_n = (int)cli_uint("--max-matmul", v, 8, 4096, "(n of n x n)"); break;
        case OPT_QONLY: o->naive_too = 0; break;
        case OPT_RESUME: o->resume = 1; break;
        case OPT_NOPLOTS: o->no_plots = 1; break;
        case OPT_REPORT: o->report_only = 1; break;
        case OPT_DRY: o->dry_run = 1; break;
        case OPT_RUNS1: runs1 = (unsigned)cli_uint("--runs-one-group", v, 1, MAX_RUNS, "runs"); break;
        case OPT_DEVICE: o->device.device = v; break;
        case OPT_PATH:
            if (ck_path_parse(v, &o->device.path) != CK_OK)
                cli_bad_value("--path", v, "unknown atomics path", "auto, cl20 or cl12");
            break;
        case OPT_WG: wg = cli_wg_size("--wg-size", v); break;
        case OPT_MAXG: o->max_groups = (unsigned)cli_uint("--max-groups", v, 2, 1u << 20, "work-groups"); break;
        case OPT_ARENA: o->arena_mb = (size_t)cli_uint("--arena-mb", v, 1, 1u << 17, "MiB"); break;
        case OPT_TIMEOUT: o->timeout_s = cli_timeout("--timeout", v); break;
        case OPT_SAMPLES: o->samples = (unsigned)cli_uint("--samples", v, 1, 100000, "entries"); break;
        default: cli_getopt_error(c, argv);
        }
    }
    cli_no_operands(argc, argv);
    o->quick = !strcmp(preset, "quick");
    if (o->table2 && runs == 1)
        cli_bad_value("--runs", runs_arg, "--table2 needs at least 2 rounds (per-round ratios, alternating order)",
                      "2..100");
    o->runs = runs ? runs : o->table2 ? 10 : o->quick ? 1 : 3;
    o->runs_one = runs1 ? runs1 : o->quick ? o->runs : 1;
    o->wg = wg ? wg : o->quick ? 64 : 128; /* full: as tools/bench/device_apps_paper.sh */
    o->scale = scale > 0 ? scale : o->quick ? 0.25 : 1.0;
    /* classes */
    static char cls_copy[128];
    if (strlen(classes) >= sizeof cls_copy)
        cli_bad_value("--classes", classes, "list too long", "light, medium, heavy");
    snprintf(cls_copy, sizeof cls_copy, "%s", classes);
    for (char *save = NULL, *t = strtok_r(cls_copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        app_class k;
        if (app_class_parse(t, &k))
            cli_bad_value("--classes", t, "unknown workload class", "light, medium, heavy");
        for (unsigned i = 0; i < o->n_classes; ++i)
            if (o->classes[i] == (int)k)
                cli_bad_value("--classes", t, "given twice", "light, medium, heavy, each at most once");
        o->classes[o->n_classes++] = (int)k;
    }
    if (o->n_classes == 0)
        cli_bad_value("--classes", classes, "empty list", "light, medium, heavy");
    /* groups */
    static char grp_copy[128];
    if (strlen(groups) >= sizeof grp_copy)
        cli_bad_value("--groups", groups, "list too long", "1, N/4, N/2, N-1, N");
    snprintf(grp_copy, sizeof grp_copy, "%s", groups);
    for (char *save = NULL, *t = strtok_r(grp_copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "1") && strcmp(t, "N/4") && strcmp(t, "N/2") && strcmp(t, "N-1") && strcmp(t, "N"))
            cli_bad_value("--groups", t, "not a group expression", "1, N/4, N/2, N-1, N");
        if (o->n_groups == MAX_GROUPS_EXPR)
            cli_bad_value("--groups", groups, "too many entries", "at most 8");
        o->groups[o->n_groups++] = t;
    }
    if (o->n_groups == 0)
        cli_bad_value("--groups", groups, "empty list", "1, N/4, N/2, N-1, N");
    /* apps x inputs */
    app_kind kinds[APP_KIND_COUNT];
    unsigned nk = 0;
    if (o->apps)
        parse_apps(o->apps, kinds, &nk);
    else if (o->quick)
        parse_apps(quick_apps, kinds, &nk);
    for (unsigned i = 0; i < nk || (!o->apps && !o->quick && i == 0); ++i) {
        if (o->quick) {
            add_item(o, kinds[i], "ci");
            continue;
        }
        /* full: the preset's inputs of the apps asked for (all when no --apps) */
        for (size_t j = 0; j < sizeof full_inputs / sizeof full_inputs[0]; ++j) {
            app_kind k;
            if (app_kind_parse(full_inputs[j].app, &k))
                continue; /* module not built */
            if (o->apps && k != kinds[i])
                continue;
            add_item(o, k, full_inputs[j].input);
            if (app_kind_uses_graph(k)) /* a generator's name (graph_input.c) */
                o->items[o->n_items - 1].cfg.graph = full_inputs[j].input;
        }
        if (!o->apps)
            break;
    }
    if (o->n_items == 0)
        cli_usage_error("no app/input pair to run (the full preset has no input for the apps asked for)");
}

/* ------------------------------------------------------------ progress */

static double t_start;
static unsigned cfg_total, cfg_done;

static void progress(const char *fmt, ...)
{
    double el = (app_now_ms() - t_start) / 1000;
    fprintf(stderr, "ckstudy: [%u/%u, %.0f s", cfg_done, cfg_total, el);
    if (cfg_done > 0 && cfg_done < cfg_total)
        fprintf(stderr, ", about %.0f s left", el / cfg_done * (cfg_total - cfg_done));
    fprintf(stderr, "] ");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ------------------------------------------------------------ resume set */

typedef struct {
    study_row *rows;
    size_t n;
} done_set;

/* Runs a configuration gets. */
static unsigned runs_for(const options *o, const char *groups_expr)
{
    return strcmp(groups_expr, "1") ? o->runs : o->runs_one;
}

static unsigned runs_done(const done_set *d, const study_row *key_row)
{
    char k1[256], k2[256];
    study_row_key(key_row, k1, sizeof k1);
    unsigned c = 0;
    for (size_t i = 0; i < d->n; ++i) {
        study_row_key(&d->rows[i], k2, sizeof k2);
        c += !strcmp(k1, k2);
    }
    return c;
}

/* ------------------------------------------------------------ the sweep */

typedef struct {
    options *o;
    FILE *csv;
    done_set done;
    app_calibration cal[APP_CLASS_COUNT];
    int failures;
    char device[300], path[8];
    unsigned timelines;
    char timeline_apps[APP_KIND_COUNT][16];
} sweep;

static void fill_key(study_row *r, const study_item *it, const char *barrier, const char *mode, const char *cls,
                     const char *g)
{
    memset(r, 0, sizeof *r);
    snprintf(r->app, sizeof r->app, "%s", app_kind_name(it->kind));
    snprintf(r->input, sizeof r->input, "%s", it->input);
    snprintf(r->barrier, sizeof r->barrier, "%s", barrier);
    snprintf(r->mode, sizeof r->mode, "%s", mode);
    snprintf(r->cls, sizeof r->cls, "%s", cls);
    snprintf(r->groups_expr, sizeof r->groups_expr, "%s", g);
    r->device_ms = -1;
    r->round_pos = -1;
}

/* Copies a message into a row, cut to the row's field. */
static void set_msg(study_row *r, const char *s)
{
    size_t n = strnlen(s, sizeof r->message - 1);
    memcpy(r->message, s, n);
    r->message[n] = 0;
}

static double mean_of(const double *x, unsigned n)
{
    double s = 0;
    for (unsigned i = 0; i < n; ++i)
        s += x[i];
    return n ? s / n : 0;
}

static double median_copy(const double *x, unsigned n)
{
    if (!n)
        return 0;
    double *t = malloc(n * sizeof *t);
    if (!t)
        return 0;
    memcpy(t, x, n * sizeof *t);
    double m = study_median(t, n);
    free(t);
    return m;
}

static double max_of(const double *x, unsigned n)
{
    double m = 0;
    for (unsigned i = 0; i < n; ++i)
        m = x[i] > m ? x[i] : m;
    return m;
}

static int emit(sweep *sw, study_row *r)
{
    char err[256];
    if (strcmp(r->check, "PASS") && strcmp(r->check, "unchecked"))
        sw->failures++;
    if (study_row_write(sw->csv, r, err, sizeof err)) {
        fprintf(stderr, "ckstudy: %s\n", err);
        return -1;
    }
    return 0;
}

static int timeline_done(sweep *sw, app_kind k)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/timeline_%s.json", sw->o->out, app_kind_name(k));
    return access(path, F_OK) == 0;
}

static void session_options(const options *o, int naive, ck_context_options *co)
{
    memset(co, 0, sizeof *co);
    co->device = o->device;
    co->work_group_size = o->wg;
    co->arena_bytes = o->arena_mb << 20;
    co->max_groups = o->max_groups;
    co->naive_resizing_barrier = naive;
    co->timeout_s = o->timeout_s;
    co->trace_active_groups = 1;
    co->quiet_warnings = 1;
}

static void fill_run(study_row *row, const app_session *s, const app_multitask_result *r, unsigned run)
{
    row->run = run;
    row->workers = s->workers;
    row->coop_groups = s->coop_groups;
    row->coop_ms = r->coop_ms;
    row->coop_wall_ms = r->coop_wall_ms;
    row->device_ms = r->coop.exec_ms >= 0 ? r->coop.exec_ms : -1;
    row->kills = r->coop.kills;
    row->forks = r->coop.forked;
    row->resizes = r->coop.resizes;
    row->max_active = r->coop.max_active;
    row->initial_groups = r->coop.initial_groups;
    row->mm_groups = r->mm_groups;
    row->mm_launches = r->mm_launches;
    row->mm_missed = r->mm_missed;
    row->mm_bad = r->mm_bad;
    if (r->mm_launches) {
        row->gather_med_ms = median_copy(r->gather_ms, r->mm_launches);
        row->gather_mean_ms = mean_of(r->gather_ms, r->mm_launches);
        row->gather_max_ms = max_of(r->gather_ms, r->mm_launches);
        row->exec_med_ms = median_copy(r->exec_ms, r->mm_launches);
        row->exec_mean_ms = mean_of(r->exec_ms, r->mm_launches);
        row->queue_med_ms = median_copy(r->queue_ms, r->mm_launches);
    }
    if (r->n_period) {
        row->period_med_ms = median_copy(r->period_ms, r->n_period);
        row->period_mean_ms = mean_of(r->period_ms, r->n_period);
    }
}

/* The configurations of one session (an item and a barrier form): alone,
 * then class x groups. Returns -1 when the session became unusable. */
static int run_session(sweep *sw, const study_item *it, app *a, int naive, unsigned *workers_out)
{
    options *o = sw->o;
    const char *barrier = naive ? "naive" : "query";
    /* Anything left to do here? */
    unsigned todo = 0;
    study_row key;
    fill_key(&key, it, barrier, "alone", "-", "-");
    todo += runs_done(&sw->done, &key) < o->runs;
    for (unsigned c = 0; c < o->n_classes; ++c)
        for (unsigned g = 0; g < o->n_groups; ++g) {
            fill_key(&key, it, barrier, "stream", app_class_name((app_class)o->classes[c]), o->groups[g]);
            todo += runs_done(&sw->done, &key) < runs_for(o, o->groups[g]);
        }
    if (!todo) {
        cfg_done += 1 + o->n_classes * o->n_groups;
        return 0;
    }
    ck_context_options co;
    session_options(o, naive, &co);
    app_session s;
    char err[1024];
    int n0 = sw->cal[o->classes[0]].n;
    progress("%s %s (%s barrier): building the megakernel", app_kind_name(it->kind), it->input, barrier);
    if (app_session_open(a, &co, n0, 0, &s, err, sizeof err)) {
        fprintf(stderr, "ckstudy: %s %s (%s barrier): %s\n", app_kind_name(it->kind), it->input, barrier, err);
        study_row r;
        fill_key(&r, it, barrier, "alone", "-", "-");
        snprintf(r.check, sizeof r.check, "ERROR");
        set_msg(&r, err);
        emit(sw, &r);
        cfg_done += 1 + o->n_classes * o->n_groups;
        return 0;
    }
    *workers_out = s.workers;
    ck_trace_sample *tr = malloc(CK_TRACE_CAPACITY * sizeof *tr);
    int broken = !tr;
    for (int ci = -1; ci < (int)o->n_classes && !broken; ++ci) {
        app_class cls = ci < 0 ? APP_CLASS_LIGHT : (app_class)o->classes[ci];
        if (ci >= 0 && app_session_set_matmul(&s, sw->cal[cls].n, err, sizeof err)) {
            fprintf(stderr, "ckstudy: %s\n", err);
            broken = 1;
            break;
        }
        for (unsigned g = 0; g < (ci < 0 ? 1u : o->n_groups) && !broken; ++g) {
            study_row key_row;
            if (ci < 0)
                fill_key(&key_row, it, barrier, "alone", "-", "-");
            else
                fill_key(&key_row, it, barrier, "stream", app_class_name(cls), o->groups[g]);
            unsigned have = runs_done(&sw->done, &key_row);
            unsigned mm_groups = 0;
            if (ci >= 0)
                app_parse_group_expr(o->groups[g], s.coop_groups, &mm_groups);
            double P = ci < 0 ? 0 : app_class_period_ms(cls, o->scale);
            /* The timeline: heavy (or the last class), the middle group count, query, run 0. */
            int want_tl =
                ci == (int)o->n_classes - 1 && g == o->n_groups / 2 && !naive && !timeline_done(sw, it->kind);
            unsigned want = ci < 0 ? o->runs : runs_for(o, o->groups[g]);
            for (unsigned run = have; run < want; ++run) {
                app_multitask_result r;
                size_t nt = 0, dropped = 0;
                ck_context_take_trace(s.ctx, tr, CK_TRACE_CAPACITY, &nt, &dropped); /* discard older samples */
                int rc = app_multitask_run(&s, mm_groups, P, o->samples, o->timeout_s, &r, err, sizeof err);
                study_row row = key_row;
                fill_run(&row, &s, &r, run);
                row.period_ms = P;
                row.target_exec_ms = ci < 0 ? 0 : app_class_exec_ms(cls, o->scale);
                row.matmul_n = ci < 0 ? 0 : app_matmul_size(s.mm);
                if (rc) {
                    snprintf(row.check, sizeof row.check, "ERROR");
                    set_msg(&row, err);
                } else if (r.coop_check > 0 || r.mm_bad) {
                    snprintf(row.check, sizeof row.check, "FAIL");
                    set_msg(&row, r.coop_check > 0 ? r.coop_msg : r.mm_msg);
                } else {
                    snprintf(row.check, sizeof row.check, "%s",
                             r.coop_check == APP_UNCHECKED ? "unchecked" : "PASS");
                }
                if (rc == 0 && want_tl && run == 0 &&
                    ck_context_take_trace(s.ctx, tr, CK_TRACE_CAPACITY, &nt, &dropped) == CK_OK) {
                    char desc[128];
                    snprintf(desc, sizeof desc, "%s barrier, class %s, matmul on %s=%u groups", barrier,
                             app_class_name(cls), o->groups[g], mm_groups);
                    /* A failure is counted; study_write_timeline printed its reason. */
                    if (study_write_timeline(o->out, app_kind_name(it->kind), it->input, desc, &r, tr, nt, dropped))
                        sw->failures++;
                }
                app_multitask_result_free(&r);
                if (emit(sw, &row))
                    broken = 2;
                if (rc) {
                    fprintf(stderr, "ckstudy: %s %s %s: %s\n", row.app, row.input, barrier, err);
                    broken = 1; /* the context may be unusable after a timeout */
                }
                if (broken)
                    break;
            }
            cfg_done++;
            if (have >= want)
                continue; /* resumed: already in runs.csv */
            if (ci < 0)
                progress("%s %s %s alone: done", app_kind_name(it->kind), it->input, barrier);
            else
                progress("%s %s %s %s matmul %s=%u (n %d): done", app_kind_name(it->kind), it->input, barrier,
                         app_class_name(cls), o->groups[g], mm_groups, app_matmul_size(s.mm));
        }
    }
    free(tr);
    if (app_session_close(&s, err, sizeof err)) {
        fprintf(stderr, "ckstudy: %s\n", err);
        broken = broken ? broken : 1;
    }
    if (broken == 1) {
        /* count the configurations skipped */
        sw->failures++;
    }
    return broken == 2 ? -1 : 0;
}

/* Set when a plain baseline's wait ran out: its kernel (or its compile) may
 * still run, so the tool ends without exit handlers (cli_exit_device_busy). */
static int device_busy;

static int run_plain(sweep *sw, const study_item *it, app *a, unsigned workers)
{
    options *o = sw->o;
    study_row key;
    fill_key(&key, it, "-", "plain", "-", "-");
    unsigned have = runs_done(&sw->done, &key);
    if (have >= o->runs) {
        cfg_done++;
        return 0;
    }
    if (workers == 0) {
        /* Resumed with the cooperative rows done: take N from them. */
        for (size_t i = 0; i < sw->done.n; ++i)
            if (!strcmp(sw->done.rows[i].app, key.app) && !strcmp(sw->done.rows[i].input, key.input) &&
                sw->done.rows[i].workers)
                workers = sw->done.rows[i].workers;
    }
    app_plain_options po;
    memset(&po, 0, sizeof po);
    po.device = o->device;
    po.work_group_size = o->wg;
    po.groups = workers; /* the cooperative kernel's N: equal group count */
    po.persistent = 1;
    po.timeout_s = o->timeout_s;
    /* One warm session: the device, queue and program stay; an untimed run
     * first (PoCL compiles for the work-group size at the first launch). */
    app_plain_session *ps = NULL;
    char msg[640];
    int opened = app_plain_open(a, &po, &ps, msg, sizeof msg) == 0, rc = 0;
    app_plain_result pr, warm;
    char warm_msg[600];
    int warm_timed_out = 0;
    if (opened && app_plain_run(ps, NULL, &warm, warm_msg, sizeof warm_msg) < 0) {
        snprintf(msg, sizeof msg, "the warm-up run: %s", warm_msg);
        warm_timed_out = warm.timed_out;
        opened = 0;
    }
    for (unsigned run = have; run < o->runs; ++run) {
        memset(&pr, 0, sizeof pr);
        pr.device_ms = -1;
        pr.timed_out = warm_timed_out;
        int s = opened ? app_plain_run(ps, NULL, &pr, msg, sizeof msg) : -1;
        study_row row = key;
        row.run = run;
        row.workers = workers;
        row.coop_groups = pr.groups;
        row.coop_ms = pr.ms;
        row.coop_wall_ms = pr.ms;
        row.device_ms = pr.device_ms;
        snprintf(row.check, sizeof row.check, "%s",
                 s < 0                ? "ERROR"
                 : s == APP_UNCHECKED ? "unchecked"
                 : s > 0              ? "FAIL"
                                      : "PASS");
        if (s != 0 && s != APP_UNCHECKED)
            set_msg(&row, msg);
        if (emit(sw, &row)) {
            app_plain_close(ps);
            return -1;
        }
        if (s < 0) {
            fprintf(stderr, "ckstudy: %s %s original persistent: %s\n", key.app, key.input, msg);
            rc = pr.timed_out ? -1 : 0; /* a stuck kernel may still occupy the device */
            device_busy |= pr.timed_out;
            break;
        }
    }
    app_plain_close(ps); /* after a stuck kernel its objects are left to the process's exit */
    cfg_done++;
    progress("%s %s original persistent on %u groups: done", key.app, key.input, workers);
    return rc;
}

/* ------------------------------------------------------------ table 2 */

/* The plain-fenced form's extra build option: the header's barrier as it
 * shipped before the fair one (include/ck_cooperative.h selects it). */
#define T2_FENCED_OPTIONS "-DCK_PLAIN_BARRIER_FENCED"

/* Form k of round `run`: cooperative, plain, plain-fenced in even rounds,
 * the reverse in odd ones, so every pair of forms runs in each order in
 * half of the rounds. */
static int t2_form_at(unsigned run, int k) { return run % 2 == 0 ? k : STUDY_T2_FORMS - 1 - k; }

/* One item's Table 2 runs in progress. */
typedef struct {
    sweep *sw;
    const study_item *it;
    app *a;
    app_plain_session *plain; /* opened at the item's first plain run, kept to its end */
    char plain_err[640];      /* opening it failed: every plain row gets this */
    unsigned groups;          /* N: the first cooperative session's, 0 while unknown */
    int stop;                 /* a plain kernel is stuck, or runs.csv cannot be written */
} t2_item;

static void t2_key(study_row *r, const t2_item *t, int form, unsigned run, int pos)
{
    fill_key(r, t->it, form == STUDY_T2_COOP ? "query" : "-", study_t2_mode[form], "-", "-");
    r->run = run;
    r->round_pos = pos;
}

static void set_check(study_row *r, const char *check, const char *msg)
{
    snprintf(r->check, sizeof r->check, "%s", check);
    set_msg(r, msg ? msg : "");
}

/* The check of a run that returned rc (0 PASS, 1 FAIL, -1 error,
 * APP_UNCHECKED), after a warm-up whose check was warm (the same codes). */
static void set_run_check(study_row *r, int warm, const char *warm_msg, int rc, const char *msg)
{
    char m[600];
    if (rc < 0)
        set_check(r, "ERROR", msg);
    else if (rc > 0 && rc != APP_UNCHECKED)
        set_check(r, "FAIL", msg);
    else if (warm > 0 && warm != APP_UNCHECKED) {
        snprintf(m, sizeof m, "the warm-up run failed its check: %s", warm_msg);
        set_check(r, "FAIL", m);
    } else
        set_check(r, rc == APP_UNCHECKED ? "unchecked" : "PASS", NULL);
}

/* Appends "; " (after the first) and the formatted note to m. */
static void add_note(char *m, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_note(char *m, size_t len, const char *fmt, ...)
{
    size_t k = strlen(m);
    if (k && k + 2 < len) {
        memcpy(m + k, "; ", 3);
        k += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m + k, len - k, fmt, ap);
    va_end(ap);
}

/* A passing cooperative run alone compares fairly when the scheduler did
 * nothing to it: no kill, fork or resize, and it ran on exactly the plain
 * runs' N groups from start to end. Otherwise FAIL naming what moved. */
static void t2_fairness(study_row *r, unsigned groups)
{
    if (strcmp(r->check, "PASS") && strcmp(r->check, "unchecked"))
        return;
    char m[256] = "";
    if (r->kills)
        add_note(m, sizeof m, "%u kills", r->kills);
    if (r->forks)
        add_note(m, sizeof m, "%u forks", r->forks);
    if (r->resizes)
        add_note(m, sizeof m, "%u resizes", r->resizes);
    if (r->coop_groups != groups)
        add_note(m, sizeof m, "N %u, the plain runs use %u groups", r->coop_groups, groups);
    if (r->initial_groups != groups)
        add_note(m, sizeof m, "initial groups %u, not %u", r->initial_groups, groups);
    if (r->max_active != groups)
        add_note(m, sizeof m, "max active %u, not %u", r->max_active, groups);
    if (m[0]) {
        char full[300];
        snprintf(full, sizeof full, "not a fair comparison: %s", m);
        set_check(r, "FAIL", full);
    }
}

/* Timed cooperative runs tried per round: a run the scheduler started on
 * fewer than N groups (a worker of the warm-up launch not yet back idle:
 * only a context's first cooperative launch waits for every worker) is a
 * different configuration, not a slow one, so it is redone, and the row
 * says so. */
#define T2_COOP_ATTEMPTS STUDY_T2_COOP_ATTEMPTS
/* Pause before each timed cooperative launch, times the attempt: lets
 * every worker of the launch before count itself idle again. */
#define T2_SETTLE_MS 20.0

/* The timed cooperative run of session s into r, redone while it is not a
 * fair comparison (T2_COOP_ATTEMPTS); warm/warm_msg: the warm-up's check. */
static void t2_coop_timed(t2_item *t, app_session *s, int warm, const char *warm_msg, study_row *r)
{
    options *o = t->sw->o;
    char first_unfair[sizeof r->message] = "", err[1024];
    for (int k = 0; k < T2_COOP_ATTEMPTS; ++k) {
        app_sleep_until_ms(app_now_ms() + T2_SETTLE_MS * (k + 1));
        app_multitask_result m;
        int rc = app_multitask_run(s, 0, 0, o->samples, o->timeout_s, &m, err, sizeof err);
        fill_run(r, s, &m, r->run);
        set_run_check(r, warm, warm_msg, rc < 0 ? -1 : m.coop_check, rc < 0 ? err : m.coop_msg);
        app_multitask_result_free(&m);
        t2_fairness(r, t->groups);
        if (rc < 0 || strncmp(r->message, "not a fair comparison", 21)) {
            if (k > 0 && (!strcmp(r->check, "PASS") || !strcmp(r->check, "unchecked"))) {
                char note[sizeof r->message + 64];
                snprintf(note, sizeof note, "redone %d times: attempt 1 was %s", k, first_unfair);
                set_msg(r, note);
            }
            return;
        }
        if (k == 0)
            memcpy(first_unfair, r->message, sizeof first_unfair);
    }
}

/* (a) The cooperative form alone: a fresh context (query barrier, no
 * matmul, no trace), one untimed warm-up launch, the timed one (redone
 * while not fair: t2_coop_timed), closed again (the megakernel holds the
 * whole device while it is open). */
static void t2_coop(t2_item *t, study_row *r)
{
    options *o = t->sw->o;
    ck_context_options co;
    session_options(o, 0, &co);
    co.trace_active_groups = 0; /* nothing but the kernel: no M mirroring */
    app_session s;
    char err[1024];
    if (app_session_open(t->a, &co, 0, 0, &s, err, sizeof err)) {
        set_check(r, "ERROR", err);
        return;
    }
    const ck_device_info *info = ck_context_device_info(s.ctx);
    if (info && !t->sw->device[0]) {
        snprintf(t->sw->device, sizeof t->sw->device, "%s / %s", info->platform_name, info->device_name);
        snprintf(t->sw->path, sizeof t->sw->path, "%s", ck_path_name(info->path));
    }
    if (!t->groups)
        t->groups = s.coop_groups;
    r->workers = s.workers;
    r->coop_groups = s.coop_groups;
    app_multitask_result w;
    char warm_msg[512] = "";
    int warm = app_multitask_run(&s, 0, 0, o->samples, o->timeout_s, &w, err, sizeof err);
    if (warm == 0) {
        warm = w.coop_check;
        snprintf(warm_msg, sizeof warm_msg, "%s", w.coop_msg);
    }
    app_multitask_result_free(&w);
    if (warm < 0) {
        char m2[1100];
        snprintf(m2, sizeof m2, "the warm-up run: %s", err);
        set_check(r, "ERROR", m2);
    } else {
        t2_coop_timed(t, &s, warm, warm_msg, r);
    }
    if (app_session_close(&s, err, sizeof err) && strcmp(r->check, "ERROR"))
        set_check(r, "ERROR", err);
}

/* Opens the item's plain session on N = t->groups groups (once). */
static int t2_plain_open(t2_item *t)
{
    if (t->plain)
        return 0;
    if (t->plain_err[0])
        return -1;
    options *o = t->sw->o;
    app_plain_options po;
    memset(&po, 0, sizeof po);
    po.device = o->device;
    po.work_group_size = o->wg;
    po.groups = t->groups;
    po.persistent = 1;
    po.timeout_s = o->timeout_s;
    char msg[600];
    if (app_plain_open(t->a, &po, &t->plain, msg, sizeof msg)) {
        snprintf(t->plain_err, sizeof t->plain_err, "opening the plain session: %s", msg);
        return -1;
    }
    return 0;
}

/* (b), (c) The plain form in the item's warm session: one untimed warm-up
 * run, then the timed one, both built with `options`. */
static void t2_plain(t2_item *t, study_row *r, const char *options)
{
    r->workers = t->groups;
    if (!t->groups) {
        set_check(r, "ERROR", "the group count N is not known: no cooperative session of this item opened");
        return;
    }
    if (t2_plain_open(t)) {
        set_check(r, "ERROR", t->plain_err);
        return;
    }
    app_plain_result pr;
    char msg[640], warm_msg[640] = "";
    int warm = app_plain_run(t->plain, options, &pr, warm_msg, sizeof warm_msg);
    int rc = warm < 0 ? -1 : app_plain_run(t->plain, options, &pr, msg, sizeof msg);
    if (warm < 0)
        snprintf(msg, sizeof msg, "the warm-up run: %s", warm_msg);
    r->coop_groups = pr.groups;
    if (rc >= 0) {
        r->coop_ms = pr.ms;
        r->coop_wall_ms = pr.ms;
        r->device_ms = pr.device_ms;
    }
    set_run_check(r, warm, warm_msg, rc, msg);
    if (pr.timed_out) {
        device_busy = 1; /* the kernel may still occupy the device */
        t->stop = 1;
    }
}

/* Whether round `run` of item it has a row of every form in d. */
static int t2_round_done(const done_set *d, const study_item *it, unsigned run)
{
    for (int f = 0; f < STUDY_T2_FORMS; ++f) {
        int found = 0;
        for (size_t i = 0; i < d->n && !found; ++i) {
            const study_row *r = &d->rows[i];
            found = r->round_pos >= 0 && r->run == run && !strcmp(r->mode, study_t2_mode[f]) &&
                    !strcmp(r->app, app_kind_name(it->kind)) && !strcmp(r->input, it->input);
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* --resume: drops the Table 2 rows of rounds that lack a form (redone
 * whole, so every kept round compares the three forms in one order). */
static void t2_keep_complete_rounds(done_set *d, const options *o)
{
    size_t k = 0;
    for (size_t i = 0; i < d->n; ++i) {
        const study_row *r = &d->rows[i];
        int keep = 1;
        for (unsigned j = 0; j < o->n_items && r->round_pos >= 0; ++j)
            if (!strcmp(r->app, app_kind_name(o->items[j].kind)) && !strcmp(r->input, o->items[j].input))
                keep = t2_round_done(d, &o->items[j], r->run);
        if (keep)
            d->rows[k++] = *r;
    }
    d->n = k;
}

/* N from rows kept by --resume (the item's cooperative runs), 0 if none. */
static unsigned t2_groups_done(const done_set *d, const study_item *it)
{
    for (size_t i = 0; i < d->n; ++i) {
        const study_row *r = &d->rows[i];
        if (r->round_pos >= 0 && !strcmp(r->mode, "alone") && r->coop_groups &&
            !strcmp(r->app, app_kind_name(it->kind)) && !strcmp(r->input, it->input))
            return r->coop_groups;
    }
    return 0;
}

static void t2_progress(const t2_item *t, unsigned run, const study_row *rows)
{
    char part[STUDY_T2_FORMS][96];
    for (int f = 0; f < STUDY_T2_FORMS; ++f) {
        const study_row *r = &rows[f];
        if (strcmp(r->check, "PASS") && strcmp(r->check, "unchecked"))
            snprintf(part[f], sizeof part[f], "%s %s", study_t2_mode[f], r->check);
        else if (r->device_ms >= 0)
            snprintf(part[f], sizeof part[f], "%s %.3f ms (device %.3f)", study_t2_mode[f], r->coop_ms,
                     r->device_ms);
        else
            snprintf(part[f], sizeof part[f], "%s %.3f ms", study_t2_mode[f], r->coop_ms);
    }
    progress("%s %s round %u/%u on %u groups: %s, %s, %s", app_kind_name(t->it->kind), t->it->input, run + 1,
             t->sw->o->runs, t->groups, part[0], part[1], part[2]);
}

/* The item's rounds; -1 when the study must stop (a stuck plain kernel, or
 * runs.csv cannot be written). */
static int run_table2_item(sweep *sw, const study_item *it, app *a)
{
    options *o = sw->o;
    t2_item t = {.sw = sw, .it = it, .a = a, .groups = t2_groups_done(&sw->done, it)};
    int rc = 0;
    for (unsigned run = 0; run < o->runs && !t.stop; ++run) {
        if (t2_round_done(&sw->done, it, run)) {
            cfg_done++;
            continue;
        }
        study_row rows[STUDY_T2_FORMS];
        for (int k = 0; k < STUDY_T2_FORMS && !t.stop; ++k) {
            int f = t2_form_at(run, k);
            study_row *r = &rows[f];
            t2_key(r, &t, f, run, k);
            if (f == STUDY_T2_COOP)
                t2_coop(&t, r);
            else
                t2_plain(&t, r, f == STUDY_T2_FENCED ? T2_FENCED_OPTIONS : NULL);
            if (strcmp(r->check, "PASS") && strcmp(r->check, "unchecked"))
                fprintf(stderr, "ckstudy: %s %s %s round %u: %s: %s\n", r->app, r->input, r->mode, run + 1, r->check,
                        r->message);
            if (emit(sw, r))
                t.stop = 1;
        }
        cfg_done++;
        if (!t.stop)
            t2_progress(&t, run, rows);
    }
    if (t.stop)
        rc = -1;
    app_plain_close(t.plain); /* after a stuck kernel its objects are left to the process's exit */
    return rc;
}

/* ------------------------------------------------------------ set-up */

static void check_out_dir(const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        cli_bad_value("--out", dir, strerror(errno), "a folder that can be created and written");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        cli_bad_value("--out", dir, "not a folder", "a folder that can be created and written");
    /* A probe file of a new, unique name (mkstemp creates it, never opening
     * anything that was there), removed again: only it is ever removed. */
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/.ckstudy-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0)
        cli_bad_value("--out", dir, strerror(errno), "a folder that can be created and written");
    close(fd);
    unlink(probe);
}

/* Removes an output file of an earlier sweep if it is a regular file (a
 * FIFO, a device or a folder of that name is left alone); 0, or -1 with the
 * reason when it is something else or cannot be removed. */
static int remove_old_output(const char *path, char *err, size_t err_len)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0; /* nothing there */
    if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
        snprintf(err, err_len, "'%.900s' is not a regular file: move it away (ckstudy replaces its outputs)", path);
        return -1;
    }
    if (unlink(path) != 0) {
        snprintf(err, err_len, "cannot remove the old '%.900s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int device_is_cpu(const options *o)
{
    ck_device *dev;
    if (ck_device_open(&o->device, &dev) != CK_OK)
        return 1;
    int cpu = ck_device_get_info(dev)->is_cpu;
    ck_device_close(dev);
    return cpu;
}

/* Calibrates every class asked for (classes with equal E share one). */
static int calibrate(sweep *sw, char *err, size_t err_len)
{
    options *o = sw->o;
    ck_context_options co;
    session_options(o, 0, &co);
    co.trace_active_groups = 0;
    ck_context *ctx;
    if (ck_context_create(&co, &ctx) != CK_OK) {
        snprintf(err, err_len, "creating the calibration context: %s", ck_last_error());
        return -1;
    }
    char path[1024];
    int rc = 0;
    if (ck_context_add_file(ctx, app_kernel_path(APP_MATMUL_FILE, path, sizeof path), NULL, 0) != CK_OK ||
        ck_context_build(ctx) != CK_OK) {
        snprintf(err, err_len, "building the calibration context: %s", ck_last_error());
        rc = -1;
    }
    const ck_device_info *info = ck_context_device_info(ctx);
    if (info) {
        snprintf(sw->device, sizeof sw->device, "%s / %s", info->platform_name, info->device_name);
        snprintf(sw->path, sizeof sw->path, "%s", ck_path_name(info->path));
    }
    int max_n = o->max_n ? o->max_n : info && info->is_cpu ? 256 : 4096;
    for (unsigned c = 0; c < o->n_classes && rc == 0; ++c) {
        app_class k = (app_class)o->classes[c];
        double E = app_class_exec_ms(k, o->scale);
        int shared = 0;
        for (unsigned p = 0; p < c; ++p)
            if (app_class_exec_ms((app_class)o->classes[p], o->scale) == E) {
                sw->cal[k] = sw->cal[o->classes[p]];
                shared = 1;
            }
        if (!shared && app_calibrate_matmul(ctx, ck_context_workers(ctx), E, max_n, &sw->cal[k], err, err_len))
            rc = -1;
        if (rc == 0)
            fprintf(stderr,
                    "ckstudy: calibration: class %s (P %.3g ms, E %.3g ms): matmul %dx%d takes %.3f ms with "
                    "%u groups%s\n",
                    app_class_name(k), app_class_period_ms(k, o->scale), E, sw->cal[k].n, sw->cal[k].n,
                    sw->cal[k].exec_ms, sw->cal[k].groups,
                    sw->cal[k].capped ? " (capped: E not reached at the largest size allowed, --max-matmul)" : "");
    }
    if (ck_context_destroy(ctx) != CK_OK && rc == 0) {
        snprintf(err, err_len, "destroying the calibration context: %s", ck_last_error());
        rc = -1;
    }
    return rc;
}

/* Opens path to append to it if it is a regular file (the open cannot
 * block on a FIFO: it is refused with devices and folders). */
static FILE *open_append(const char *path, char *err, size_t err_len)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, err_len, "runs.csv: cannot open '%.900s' to append to it: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        snprintf(err, err_len, "runs.csv: '%.900s' is not a regular file", path);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "a");
    if (!f) {
        close(fd);
        snprintf(err, err_len, "runs.csv: cannot append to '%.900s': %s", path, strerror(errno));
    }
    return f;
}

/* (Re)writes runs.csv: the header and the rows kept (a torn line dropped),
 * whole or not at all (a failure leaves the old file, and the runs it
 * holds, as they were); then opens it to append the new rows, one at a
 * time and flushed, so that an interrupted sweep keeps what it measured. */
static FILE *open_runs(const char *dir, const done_set *d, char *err, size_t err_len)
{
    char path[4096], why[1024];
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    ck_file_writer w;
    if (ck_file_writer_open(&w, path, 0, why, sizeof why)) {
        snprintf(err, err_len, "runs.csv: %.900s", why);
        return NULL;
    }
    fprintf(w.f, "%s\n", STUDY_COLUMNS);
    for (size_t i = 0; i < d->n; ++i)
        if (study_row_write(w.f, &d->rows[i], err, err_len)) {
            ck_file_writer_abort(&w);
            return NULL;
        }
    if (ck_file_writer_commit(&w, why, sizeof why)) {
        snprintf(err, err_len, "runs.csv: %.900s", why);
        return NULL;
    }
    return open_append(path, err, err_len);
}

/* summary.json is written whole or not at all: opened here, written, then
 * committed (renamed into place). 0, or -1 with the reason in err. */
static int summary_open(const options *o, ck_file_writer *w, char *err, size_t err_len)
{
    char path[4096], why[1024];
    snprintf(path, sizeof path, "%s/summary.json", o->out);
    if (ck_file_writer_open(w, path, 0, why, sizeof why)) {
        snprintf(err, err_len, "summary.json: %.900s", why);
        return -1;
    }
    return 0;
}

static int summary_commit(ck_file_writer *w, char *err, size_t err_len)
{
    char why[1024];
    if (ck_file_writer_commit(w, why, sizeof why)) {
        snprintf(err, err_len, "summary.json: %.900s", why);
        return -1;
    }
    return 0;
}

/* Writes summary.json (whole or not at all); -1 with the reason in err. */
static int write_summary(sweep *sw, const study_row *rows, size_t n, const study_report_numbers *nm, double el_s,
                         char *err, size_t err_len)
{
    options *o = sw->o;
    ck_file_writer w;
    if (summary_open(o, &w, err, err_len))
        return -1;
    unsigned pass = 0, fail = 0, error = 0, unchecked = 0;
    for (size_t i = 0; i < n; ++i) {
        pass += !strcmp(rows[i].check, "PASS");
        fail += !strcmp(rows[i].check, "FAIL");
        error += !strcmp(rows[i].check, "ERROR");
        unchecked += !strcmp(rows[i].check, "unchecked");
    }
    json_out j;
    jo_start(&j, w.f);
    jo_object(&j, NULL);
    jo_str(&j, "tool", "ckstudy");
    jo_str(&j, "preset", o->quick ? "quick" : "full");
    jo_str(&j, "device", sw->device);
    jo_str(&j, "path", sw->path);
    jo_uint(&j, "work_group_size", o->wg);
    jo_uint(&j, "runs_per_configuration", o->runs);
    jo_uint(&j, "runs_one_group", o->runs_one);
    jo_num(&j, "time_scale", "%g", o->scale);
    jo_str(&j, "time_scale_note",
           o->scale == 1 ? "P and E are the paper's"
                         : "P and E are the paper's multiplied by time_scale (a slow device cannot run E)");
    jo_array(&j, "classes");
    for (unsigned c = 0; c < o->n_classes; ++c) {
        app_class k = (app_class)o->classes[c];
        const app_calibration *cal = &sw->cal[k];
        jo_object(&j, NULL);
        jo_str(&j, "class", app_class_name(k));
        jo_num(&j, "period_ms", "%.4f", app_class_period_ms(k, o->scale));
        jo_num(&j, "exec_ms", "%.4f", app_class_exec_ms(k, o->scale));
        jo_num(&j, "preemption_model", "%.4f", app_class_preemption_model(k));
        jo_object(&j, "calibration");
        jo_int(&j, "matmul_size", cal->n);
        jo_num(&j, "measured_exec_ms", "%.4f", cal->exec_ms);
        jo_uint(&j, "groups", cal->groups);
        jo_bool(&j, "capped", cal->capped);
        jo_array(&j, "tried");
        for (unsigned t = 0; t < cal->steps; ++t) {
            jo_object(&j, NULL);
            jo_int(&j, "n", cal->tried_n[t]);
            jo_num(&j, "exec_ms", "%.4f", cal->tried_ms[t]);
            jo_end(&j);
        }
        jo_end(&j);
        jo_end(&j);
        jo_end(&j);
    }
    jo_end(&j);
    jo_array(&j, "groups");
    for (unsigned g = 0; g < o->n_groups; ++g)
        jo_str(&j, NULL, o->groups[g]);
    jo_end(&j);
    jo_array(&j, "inputs");
    for (unsigned i = 0; i < o->n_items; ++i) {
        jo_object(&j, NULL);
        jo_str(&j, "app", app_kind_name(o->items[i].kind));
        jo_str(&j, "input", o->items[i].input);
        jo_end(&j);
    }
    jo_end(&j);
    jo_uint(&j, "rows", n);
    jo_uint(&j, "pass", pass);
    jo_uint(&j, "fail", fail);
    jo_uint(&j, "error", error);
    jo_uint(&j, "unchecked", unchecked);
    jo_num(&j, "elapsed_s", "%.1f", el_s);
    jo_object(&j, "table2");
    static const char *const scope[3] = {"overall", "barrier", "workstealing"};
    for (int k = 0; k < 3; ++k) {
        jo_object(&j, scope[k]);
        jo_uint(&j, "inputs", nm->t2_count[k]);
        jo_num(&j, "geomean", "%.6g", nm->t2_geomean[k]);
        jo_num(&j, "max", "%.6g", nm->t2_max[k]);
        jo_str(&j, "max_at", nm->t2_argmax[k]);
        jo_end(&j);
    }
    jo_end(&j);
    jo_array(&j, "table3");
    static const char *const cn[3] = {"light", "medium", "heavy"};
    for (int c = 0; c < 3; ++c) {
        jo_object(&j, NULL);
        jo_str(&j, "class", cn[c]);
        jo_num(&j, "kernel_level", "%.6g", nm->t3_model[c]);
        jo_str(&j, "groups", nm->t3_groups[c][0] ? nm->t3_groups[c] : NULL);
        jo_num(&j, "cooperative", "%.6g", nm->t3_slowdown[c]);
        jo_num(&j, "median_period_ms", "%.6g", nm->t3_period[c]);
        jo_end(&j);
    }
    jo_end(&j);
    jo_num(&j, "period_tolerance", "%.2f", STUDY_PERIOD_TOLERANCE);
    jo_end(&j);
    return summary_commit(&w, err, err_len);
}

/* Counts of rows by check. */
static void count_checks(const study_row *rows, size_t n, unsigned c[4])
{
    static const char *const names[4] = {"PASS", "FAIL", "ERROR", "unchecked"};
    memset(c, 0, 4 * sizeof *c);
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 4; ++k)
            c[k] += !strcmp(rows[i].check, names[k]);
}

static void t2_json_span(json_out *j, const char *key, double med, double lo, double hi)
{
    jo_object(j, key);
    jo_num(j, "median", "%.6g", med);
    jo_num(j, "min", "%.6g", lo);
    jo_num(j, "max", "%.6g", hi);
    jo_end(j);
}

static void t2_json_item(json_out *j, const study_t2_item *it)
{
    static const char *const form_key[STUDY_T2_FORMS] = {"coop", "plain", "plain_fenced"};
    static const char *const ratio_name[STUDY_T2_RATIOS] = {"coop_over_plain", "coop_over_plain_fenced"};
    jo_object(j, NULL);
    jo_str(j, "app", it->app);
    jo_str(j, "input", it->input);
    jo_uint(j, "groups", it->groups);
    jo_object(j, "runs");
    for (int f = 0; f < STUDY_T2_FORMS; ++f)
        jo_uint(j, form_key[f], it->runs[f]);
    jo_end(j);
    jo_str(j, "clock", study_t2_clock_name(it->clock));
    jo_uint(j, "coop_runs_redone", it->redone);
    for (int f = 0; f < STUDY_T2_FORMS; ++f) {
        jo_object(j, form_key[f]);
        for (int c = 0; c < STUDY_T2_CLOCKS; ++c)
            t2_json_span(j, c == STUDY_T2_DEVICE ? "device_ms" : "host_ms", it->med[f][c], it->lo[f][c],
                         it->hi[f][c]);
        jo_end(j);
    }
    for (int k = 0; k < STUDY_T2_RATIOS; ++k) {
        jo_object(j, ratio_name[k]);
        jo_num(j, "ratio_of_medians", "%.6g", it->ratio[k]);
        jo_num(j, "round_min", "%.6g", it->ratio_lo[k]);
        jo_num(j, "round_max", "%.6g", it->ratio_hi[k]);
        jo_end(j);
    }
    jo_str(j, "check", it->check);
    jo_str(j, "message", it->message);
    jo_end(j);
}

/* summary.json of --table2 (whole or not at all); -1 with the reason in err. */
static int write_summary_t2(sweep *sw, const study_row *rows, size_t n, const study_t2_numbers *t2, double el_s,
                            char *err, size_t err_len)
{
    options *o = sw->o;
    ck_file_writer w;
    if (summary_open(o, &w, err, err_len))
        return -1;
    unsigned c[4];
    count_checks(rows, n, c);
    json_out j;
    jo_start(&j, w.f);
    jo_object(&j, NULL);
    jo_str(&j, "tool", "ckstudy");
    jo_str(&j, "mode", "table2");
    jo_str(&j, "preset", o->quick ? "quick" : "full");
    jo_str(&j, "device", sw->device);
    jo_str(&j, "path", sw->path);
    jo_uint(&j, "work_group_size", o->wg);
    jo_uint(&j, "rounds", o->runs);
    jo_str(&j, "round_order", "even rounds: alone, plain, plain-fenced; odd rounds: plain-fenced, plain, alone");
    jo_str(&j, "fenced_options", T2_FENCED_OPTIONS);
    /* Extra options both forms were built with (the megakernel by the
     * runtime, the plain programs by app_cl_build). */
    const char *env_opts = getenv("CK_BUILD_OPTIONS");
    jo_str(&j, "build_options_env", env_opts ? env_opts : "");
    jo_uint(&j, "rows", n);
    jo_uint(&j, "pass", c[0]);
    jo_uint(&j, "fail", c[1]);
    jo_uint(&j, "error", c[2]);
    jo_uint(&j, "unchecked", c[3]);
    jo_num(&j, "elapsed_s", "%.1f", el_s);
    jo_object(&j, "table2");
    jo_array(&j, "items");
    for (size_t i = 0; i < t2->n_items; ++i)
        t2_json_item(&j, &t2->items[i]);
    jo_end(&j);
    jo_uint(&j, "items_counted", t2->counted);
    jo_str(&j, "clock", study_t2_clock_name(t2->clock));
    jo_str(&j, "clock_note",
           t2->clock == STUDY_T2_DEVICE ? "every counted item has device times: the ratios are on the device's clock"
                                        : "some run has no device time (device_ms -1): the ratios are host to host");
    jo_object(&j, "geomean");
    jo_num(&j, "coop_over_plain", "%.6g", t2->geomean[STUDY_T2_VS_PLAIN]);
    jo_num(&j, "coop_over_plain_fenced", "%.6g", t2->geomean[STUDY_T2_VS_FENCED]);
    jo_num(&j, "paper", "%.2f", STUDY_T2_PAPER_GEOMEAN);
    jo_end(&j);
    jo_object(&j, "max");
    jo_num(&j, "coop_over_plain", "%.6g", t2->max[STUDY_T2_VS_PLAIN]);
    jo_str(&j, "coop_over_plain_at", t2->max_at[STUDY_T2_VS_PLAIN]);
    jo_num(&j, "coop_over_plain_fenced", "%.6g", t2->max[STUDY_T2_VS_FENCED]);
    jo_str(&j, "coop_over_plain_fenced_at", t2->max_at[STUDY_T2_VS_FENCED]);
    jo_num(&j, "paper", "%.2f", STUDY_T2_PAPER_MAX);
    jo_end(&j);
    jo_end(&j);
    jo_end(&j);
    return summary_commit(&w, err, err_len);
}

static void print_plan(const options *o)
{
    if (o->table2) {
        printf("Table 2: %u app/input pairs x %u rounds (even rounds: cooperative alone, plain, plain-fenced; odd "
               "rounds the reverse; each run after an untimed warm-up), work-group size %zu\n",
               o->n_items, o->runs, o->wg);
        for (unsigned i = 0; i < o->n_items; ++i)
            printf("  %s %s: cooperative alone (query barrier, a fresh context per round), plain persistent and "
                   "plain persistent %s (one warm session) at the megakernel's N\n",
                   app_kind_name(o->items[i].kind), o->items[i].input, T2_FENCED_OPTIONS);
        return;
    }
    printf("%u app/input pairs, %u configurations x %u runs (%u runs where the stream has 1 group), work-group "
           "size %zu, P and E x %g\n",
           o->n_items, cfg_total, o->runs, o->runs_one, o->wg, o->scale);
    for (unsigned i = 0; i < o->n_items; ++i)
        printf("  %s %s: %s resizing barrier, %u classes x %u group counts, alone, original persistent\n",
               app_kind_name(o->items[i].kind), o->items[i].input,
               app_kind_uses_graph(o->items[i].kind) && o->naive_too ? "query and naive" : "query", o->n_classes,
               o->n_groups);
}

/* The configurations of item it, each counted once by the progress lines. */
static unsigned configurations_of(const options *o, const study_item *it)
{
    if (o->table2)
        return o->runs; /* rounds */
    return 1 + (1 + o->n_classes * o->n_groups) * (app_kind_uses_graph(it->kind) && o->naive_too ? 2 : 1);
}

/* The sweep's or Table 2's runs of every item; 1 when it stopped early. */
static int run_items(sweep *sw)
{
    options *o = sw->o;
    char err[1024];
    int stop = 0;
    for (unsigned i = 0; i < o->n_items && !stop; ++i) {
        study_item *it = &o->items[i];
        app *a;
        progress("%s %s: preparing the input and its CPU reference", app_kind_name(it->kind), it->input);
        if (app_create(&it->cfg, &a, err, sizeof err)) {
            fprintf(stderr, "ckstudy: %s %s: %s\n", app_kind_name(it->kind), it->input, err);
            study_row r;
            if (o->table2) {
                fill_key(&r, it, "query", "alone", "-", "-");
                r.round_pos = 0; /* an item of the table, with its error */
            } else {
                fill_key(&r, it, "-", "plain", "-", "-");
            }
            set_check(&r, "ERROR", err);
            if (emit(sw, &r))
                stop = 1;
            cfg_done += configurations_of(o, it);
            continue;
        }
        if (o->table2) {
            stop = run_table2_item(sw, it, a) != 0;
        } else {
            unsigned workers = 0;
            int forms = app_kind_uses_graph(it->kind) && o->naive_too ? 2 : 1;
            for (int naive = 0; naive < forms && !stop; ++naive)
                stop = run_session(sw, it, a, naive, &workers) != 0;
            if (!stop)
                stop = run_plain(sw, it, a, workers) != 0;
        }
        app_destroy(a);
    }
    return stop;
}

/* Measures: runs.csv afresh (or resumed), the calibration (sweep only) and
 * every item's runs (*stop set when they stopped early). Returns 0, or the
 * exit status when nothing could be measured: 2 (runs.csv cannot be read or
 * written, an old output in the way), 1 (the calibration failed). */
static int measure(sweep *sw, int *stop)
{
    options *o = sw->o;
    char err[1024], path[4096];
    *stop = 0;
    if (o->resume) {
        snprintf(path, sizeof path, "%s/runs.csv", o->out);
        if (study_rows_read(path, &sw->done.rows, &sw->done.n, err, sizeof err)) {
            fprintf(stderr, "ckstudy: --resume: %s\n", err);
            return 2;
        }
        if (o->table2)
            t2_keep_complete_rounds(&sw->done, o);
    }
    if (!o->resume && !o->table2) {
        /* A fresh sweep: the old timelines would be skipped as done. */
        for (unsigned k = 0; k < APP_KIND_COUNT; ++k) {
            snprintf(path, sizeof path, "%s/timeline_%s.json", o->out, app_kind_name((app_kind)k));
            if (remove_old_output(path, err, sizeof err)) {
                fprintf(stderr, "ckstudy: %s\n", err);
                return 2;
            }
        }
    }
    sw->csv = open_runs(o->out, &sw->done, err, sizeof err);
    if (!sw->csv) {
        fprintf(stderr, "ckstudy: %s\n", err);
        return 2;
    }
    /* WS on a GPU: the tree ckrun uses there (the default ends before a period). */
    int cpu = device_is_cpu(o);
    for (unsigned i = 0; i < o->n_items; ++i)
        if (o->items[i].kind == APP_KIND_WS && !cpu && strcmp(o->items[i].input, "ci"))
            o->items[i].cfg.ws.roots = 65536;
    if (o->table2)
        fprintf(stderr, "ckstudy: Table 2: %u app/input pairs x %u rounds, output in %s%s\n", o->n_items, o->runs,
                o->out, o->resume ? " (resumed: complete rounds in runs.csv are skipped)" : "");
    else
        fprintf(stderr,
                "ckstudy: %u app/input pairs, %u configurations x %u runs (%u with 1 matmul group), output "
                "in %s%s\n",
                o->n_items, cfg_total, o->runs, o->runs_one, o->out,
                o->resume ? " (resumed: runs already in runs.csv are skipped)" : "");
    if (!o->table2 && calibrate(sw, err, sizeof err)) {
        fprintf(stderr, "ckstudy: %s\n", err);
        fclose(sw->csv);
        return 1;
    }
    *stop = run_items(sw);
    fclose(sw->csv);
    return 0;
}

/* The tables, figures and summary from runs.csv (old and new rows alike);
 * Table 2 alone when the study is --table2 or runs.csv holds one. 0, or 1
 * with the reason on stderr. *bad: runs not passing; stop: the runs
 * stopped early (said in the closing line). */
static int report(sweep *sw, int stop, unsigned *bad)
{
    options *o = sw->o;
    char err[1024], path[4096];
    study_row *rows;
    size_t n;
    *bad = 0;
    snprintf(path, sizeof path, "%s/runs.csv", o->out);
    if (study_rows_read(path, &rows, &n, err, sizeof err)) {
        fprintf(stderr, "ckstudy: %s\n", err);
        return 1;
    }
    int rc = 0;
    double el_s = (app_now_ms() - t_start) / 1000;
    if (o->table2 || study_rows_are_table2(rows, n)) {
        study_t2_numbers t2;
        if (study_table2_write(o->out, rows, n, &t2, err, sizeof err) ||
            write_summary_t2(sw, rows, n, &t2, el_s, err, sizeof err)) {
            fprintf(stderr, "ckstudy: %s\n", err);
            rc = 1;
        }
        study_t2_free(&t2);
    } else {
        study_report_options ro = {.groups = o->groups, .n_groups = o->n_groups, .out_dir = o->out};
        study_report_numbers nm;
        if (study_report_write(&ro, rows, n, &nm, err, sizeof err)) {
            fprintf(stderr, "ckstudy: %s\n", err);
            rc = 1;
        }
        /* The summary repeats the report's numbers: none from a report that failed. */
        if (rc == 0 && write_summary(sw, rows, n, &nm, el_s, err, sizeof err)) {
            fprintf(stderr, "ckstudy: %s\n", err);
            rc = 1;
        }
        if (!o->no_plots && rc == 0 && study_run_gnuplot(o->out, err, sizeof err)) {
            fprintf(stderr, "ckstudy: %s\n", err);
            rc = 1;
        }
    }
    for (size_t i = 0; i < n; ++i)
        *bad += strcmp(rows[i].check, "PASS") && strcmp(rows[i].check, "unchecked");
    fprintf(stderr, "ckstudy: %zu runs in %s/runs.csv, %u not passing; %.0f s%s\n", n, o->out, *bad,
            (app_now_ms() - t_start) / 1000, stop ? " (stopped early: see above)" : "");
    free(rows);
    return rc;
}

int main(int argc, char **argv)
{
    static options o;
    parse_args(argc, argv, &o);
    for (unsigned i = 0; i < o.n_items; ++i)
        cfg_total += configurations_of(&o, &o.items[i]);
    if (o.dry_run) {
        print_plan(&o);
        return 0;
    }
    check_out_dir(o.out);
    /* Table 2 draws no figures. */
    if (!o.no_plots && !o.table2 && !study_have_gnuplot()) {
        fprintf(stderr, "ckstudy: gnuplot not found: install the Debian package gnuplot-nox (or pass --no-plots)\n");
        return 2;
    }
    t_start = app_now_ms();
    static sweep sw;
    sw.o = &o;
    char path[4096];
    snprintf(path, sizeof path, "%s/runs.csv", o.out);
    if (o.report_only && access(path, R_OK) != 0)
        cli_bad_value("--out", o.out, "--report-only: no runs.csv there", "the output folder of a sweep");
    int stop = 0;
    if (!o.report_only) {
        cli_check_device(&o.device, &o.wg, 1);
        int status = measure(&sw, &stop);
        if (status)
            return status;
    }
    unsigned bad = 0;
    int rc = report(&sw, stop, &bad);
    free(sw.done.rows);
    if (device_busy)
        cli_exit_device_busy(1);
    return rc || bad || stop ? 1 : 0;
}
