/* tools/ckrun.c: the application runner and multitasking benchmark (owner:
 * apps). For one ported application (BFS or work stealing) and input it runs
 * the plain OpenCL baseline, the cooperative kernel alone in the megakernel,
 * and the cooperative kernel multitasked with a stream of matmul launches for
 * each requested matmul group count (the paper's section 5.4); it checks
 * every result against the CPU reference and prints times, slowdowns, gather
 * times, periods and kills/forks as a table or JSON.
 * Exit status: 0 all PASS, 1 a FAIL or an error, 2 bad command line. */
#include "app.h"
#include "multitask.h"
#include "paths.h"
#include "timer.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    unsigned runs;
    int json;
    size_t wg;
    unsigned coop_groups; /* 0 = all workers */
    unsigned max_groups;  /* megakernel cap */
    size_t arena_mb;
    double timeout_s;
    int plain;            /* 0 none, 1 default (BFS multi-launch, WS persistent), 2 BFS persistent */
    unsigned plain_groups;
    unsigned samples;
    int quiet;
} options;

typedef struct {
    char name[40];
    int kind;             /* 0 plain, 1 standalone, 2 multitasked */
    unsigned mm_groups;
    unsigned runs;
    double coop_ms[MAX_RUNS];
    unsigned kills[MAX_RUNS], forks[MAX_RUNS], resizes[MAX_RUNS], max_active[MAX_RUNS], initial[MAX_RUNS];
    double *gather, *exec, *period;
    size_t n_gather, n_period, cap;
    unsigned mm_launches, mm_bad;
    int status;           /* 0 PASS, 1 FAIL, -1 error */
    char msg[1024];
    char plain_mode[32];
    unsigned plain_groups;
} config_result;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ckrun --app bfs|ws [options]\n"
            "input:\n"
            "  --graph rmat|grid|FILE   BFS input: generated R-MAT or 2-D grid, or a file (.gr DIMACS, else\n"
            "                           an edge list 'u v' per line); default rmat\n"
            "  --scale K                generated graphs have 2^K nodes (default 14; 16..20 for real sizes)\n"
            "  --edge-factor F          R-MAT edges per node (default 8)\n"
            "  --grid-drop P            grid: percent of edges dropped (default 10)\n"
            "  --source V               BFS source (default: largest degree; grid: 0)\n"
            "  --ws-roots R --ws-depth D --ws-units U --ws-iters I\n"
            "                           work-stealing tree: roots, depth limit, hash chains per task and\n"
            "                           rounds per chain (defaults: roots 256 on CPUs and 65536 on GPUs,\n"
            "                           where 256 roots end in about 10 ms; 96, 64, 16)\n"
            "  --seed S                 generator seed (default 1)\n"
            "device and runtime:\n"
            "  --device S  --path cl20|cl12|auto  --wg SIZE (default 64)\n"
            "  --chaos SEED             chaos mode: every legal scheduling choice made at random\n"
            "  --naive-barrier          resizing barrier with one offer_kill (default: query form)\n"
            "  --groups N               cooperative launches ask for N groups (default: all workers)\n"
            "  --max-groups G           cap the megakernel's groups   --arena-mb MB   --timeout S\n"
            "  --kernels DIR            where bfs/, workstealing/ and matmul.cl are\n"
            "experiment:\n"
            "  --noncoop LIST           matmul group counts, e.g. 1,N/4,N/2,N-1 (default), or none\n"
            "  --period-ms P            time between matmul launches (default 40)\n"
            "  --matmul-size n          n x n matmul (default 128 on CPUs, 1024 on GPUs)\n"
            "  --samples K              matmul entries checked per launch (default 16)\n"
            "  --plain multi|persistent|none  BFS baseline form (default multi; WS is always persistent)\n"
            "  --plain-groups G         groups of persistent baselines (default: occupancy - 1)\n"
            "  --runs R                 repeat every configuration R times (default 1)\n"
            "  --json                   JSON on stdout instead of the table\n");
}

static int bad_cli(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ckrun: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (ckrun --help)\n");
    va_end(ap);
    return 2;
}

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno || *s == '-')
        return -1;
    *out = v;
    return 0;
}

static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    uint64_t v;
    if (parse_u64(s, &v) || v < lo || v > hi)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0))
        return -1;
    *out = v;
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    int have_app = 0;
    memset(o, 0, sizeof *o);
    app_config_defaults(&o->app, APP_KIND_BFS);
    snprintf(o->noncoop, sizeof o->noncoop, "1,N/4,N/2,N-1");
    o->period_ms = 40;
    o->runs = 1;
    o->wg = 64;
    o->timeout_s = 120;
    o->plain = 1;
    o->samples = 16;
    app_config ws_defaults;
    app_config_defaults(&ws_defaults, APP_KIND_WS);
    o->app.ws = ws_defaults.ws;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (!strcmp(a, "--json")) {
            o->json = 1;
            continue;
        }
        if (!strcmp(a, "--naive-barrier")) {
            o->naive_barrier = 1;
            continue;
        }
        if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0)
            return bad_cli("unexpected argument '%s'", a);
        if (i + 1 >= argc)
            return bad_cli("%s needs a value", a);
        const char *v = argv[++i];
        unsigned u;
        uint64_t u64;
        if (!strcmp(a, "--app")) {
            if (app_kind_parse(v, &o->app.kind))
                return bad_cli("--app must be bfs or ws, not '%s'", v);
            have_app = 1;
        } else if (!strcmp(a, "--graph")) {
            o->app.graph = v;
        } else if (!strcmp(a, "--scale")) {
            if (parse_uint(v, 1, 28, &o->app.scale))
                return bad_cli("--scale must be 1..28");
        } else if (!strcmp(a, "--edge-factor")) {
            if (parse_uint(v, 1, 64, &o->app.edge_factor))
                return bad_cli("--edge-factor must be 1..64");
        } else if (!strcmp(a, "--grid-drop")) {
            if (parse_uint(v, 0, 90, &o->app.grid_drop))
                return bad_cli("--grid-drop must be 0..90");
        } else if (!strcmp(a, "--source")) {
            if (parse_uint(v, 0, 1u << 30, &u))
                return bad_cli("--source must be a node id");
            o->app.source = (int32_t)u;
        } else if (!strcmp(a, "--ws-roots")) {
            if (parse_uint(v, 1, 1u << 24, &o->app.ws.roots))
                return bad_cli("--ws-roots must be 1..2^24");
            o->ws_roots_given = 1;
        } else if (!strcmp(a, "--ws-depth")) {
            if (parse_uint(v, 0, 100000, &o->app.ws.max_depth))
                return bad_cli("--ws-depth must be 0..100000");
        } else if (!strcmp(a, "--ws-units")) {
            if (parse_uint(v, 1, 1u << 20, &o->app.ws.units))
                return bad_cli("--ws-units must be 1..2^20");
        } else if (!strcmp(a, "--ws-iters")) {
            if (parse_uint(v, 0, 1u << 20, &o->app.ws.iters))
                return bad_cli("--ws-iters must be 0..2^20");
        } else if (!strcmp(a, "--seed")) {
            if (parse_u64(v, &o->app.seed))
                return bad_cli("--seed must be a non-negative integer");
        } else if (!strcmp(a, "--device")) {
            o->device.device = v;
        } else if (!strcmp(a, "--path")) {
            if (ck_path_parse(v, &o->device.path) != CK_OK)
                return bad_cli("%s", ck_last_error());
        } else if (!strcmp(a, "--wg")) {
            if (parse_uint(v, 1, 1024, &u))
                return bad_cli("--wg must be 1..1024");
            o->wg = u;
        } else if (!strcmp(a, "--chaos")) {
            if (parse_u64(v, &u64) || u64 == 0)
                return bad_cli("--chaos needs a nonzero seed");
            o->chaos = u64;
        } else if (!strcmp(a, "--groups")) {
            if (parse_uint(v, 1, 1u << 20, &o->coop_groups))
                return bad_cli("--groups must be at least 1");
        } else if (!strcmp(a, "--max-groups")) {
            if (parse_uint(v, 2, 1u << 20, &o->max_groups))
                return bad_cli("--max-groups must be at least 2 (scheduler + one worker)");
        } else if (!strcmp(a, "--arena-mb")) {
            if (parse_uint(v, 1, 1u << 20, &u))
                return bad_cli("--arena-mb must be at least 1");
            o->arena_mb = u;
        } else if (!strcmp(a, "--timeout")) {
            if (parse_double(v, &o->timeout_s) || o->timeout_s <= 0)
                return bad_cli("--timeout must be positive seconds");
        } else if (!strcmp(a, "--kernels")) {
            app_set_kernel_dir(v);
        } else if (!strcmp(a, "--noncoop")) {
            snprintf(o->noncoop, sizeof o->noncoop, "%s", v);
        } else if (!strcmp(a, "--period-ms")) {
            if (parse_double(v, &o->period_ms))
                return bad_cli("--period-ms must be >= 0");
        } else if (!strcmp(a, "--matmul-size")) {
            if (parse_uint(v, 8, 4096, &u))
                return bad_cli("--matmul-size must be 8..4096");
            o->matmul_size = (int)u;
        } else if (!strcmp(a, "--samples")) {
            if (parse_uint(v, 1, 100000, &o->samples))
                return bad_cli("--samples must be at least 1");
        } else if (!strcmp(a, "--plain")) {
            if (!strcmp(v, "none"))
                o->plain = 0;
            else if (!strcmp(v, "multi"))
                o->plain = 1;
            else if (!strcmp(v, "persistent"))
                o->plain = 2;
            else
                return bad_cli("--plain must be multi, persistent or none");
        } else if (!strcmp(a, "--plain-groups")) {
            if (parse_uint(v, 1, 1u << 20, &o->plain_groups))
                return bad_cli("--plain-groups must be at least 1");
        } else if (!strcmp(a, "--runs")) {
            if (parse_uint(v, 1, MAX_RUNS, &o->runs))
                return bad_cli("--runs must be 1..%d", MAX_RUNS);
        } else {
            return bad_cli("unknown option '%s'", a);
        }
    }
    if (!have_app)
        return bad_cli("--app bfs|ws is required");
    /* Validate --noncoop now (N is not known yet: use a large one). */
    if (strcmp(o->noncoop, "none") != 0) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s", o->noncoop);
        int count = 0;
        for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            unsigned g;
            if (app_parse_group_expr(t, 1000, &g))
                return bad_cli("--noncoop: '%s' is not 1, N/4, N/2, N-1, N or a number", t);
            ++count;
        }
        if (count == 0 || count > MAX_CONFIGS - 2)
            return bad_cli("--noncoop needs 1..%d group counts", MAX_CONFIGS - 2);
    }
    return 0;
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
    memcpy(c->gather + c->n_gather, r->gather_ms, r->mm_launches * sizeof(double));
    memcpy(c->exec + c->n_gather, r->exec_ms, r->mm_launches * sizeof(double));
    memcpy(c->period + c->n_period, r->period_ms, r->n_period * sizeof(double));
    c->n_gather += r->mm_launches;
    c->n_period += r->n_period;
    c->mm_launches += r->mm_launches;
    c->mm_bad += r->mm_bad;
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

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

typedef struct {
    const options *o;
    app *a;
    char device[260];
    char path[8];
    unsigned workers, coop_groups;
    double build_ms;
    int matmul_size;
    config_result cfg[MAX_CONFIGS];
    unsigned n_cfg;
    int session_error;
    char session_msg[1024];
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
    printf("CPU reference %.1f ms | megakernel build %.0f ms | matmul %dx%d every %.0f ms | %u run(s) per "
           "configuration\n",
           app_cpu_ms(r->a), r->build_ms, r->matmul_size, r->matmul_size, o->period_ms, o->runs);
    const config_result *alone = find_kind(r, 1);
    double base = alone ? median_d(alone->coop_ms, alone->runs) : 0;
    printf("%-22s %10s %8s %6s %6s %7s %8s %10s %10s %9s %9s  %s\n", "configuration", "coop ms", "slowdown", "kills",
           "forks", "resizes", "mm runs", "gather med", "gather p99", "exec med", "period", "check");
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
               mm, gmed, gp99, emed, per, status_name(c->status));
    }
    const config_result *plain = find_kind(r, 0);
    if (plain && alone && plain->runs && median_d(plain->coop_ms, plain->runs) > 0)
        printf("cooperative overhead without multitasking (standalone / plain %s): %.2f\n", plain->plain_mode,
               base / median_d(plain->coop_ms, plain->runs));
    int fails = 0;
    for (unsigned i = 0; i < r->n_cfg; ++i)
        if (r->cfg[i].status != 0) {
            ++fails;
            printf("%s %s: %s\n", status_name(r->cfg[i].status), r->cfg[i].name, r->cfg[i].msg);
        }
    if (r->session_error)
        printf("ERROR: %s\n", r->session_msg);
    printf("result: %s (%u configurations, %d not passing)\n", fails || r->session_error ? "FAIL" : "PASS", r->n_cfg,
           fails);
}

static void print_json(const report *r)
{
    const options *o = r->o;
    const config_result *alone = find_kind(r, 1);
    double base = alone ? median_d(alone->coop_ms, alone->runs) : 0;
    int fails = r->session_error;
    printf("{\n  \"app\": \"%s\",\n  \"input\": ", app_kind_name(o->app.kind));
    json_string(stdout, app_describe(r->a));
    printf(",\n  \"device\": ");
    json_string(stdout, r->device);
    printf(",\n  \"path\": \"%s\",\n  \"work_group_size\": %zu,\n  \"workers\": %u,\n  \"coop_groups\": %u,\n",
           r->path, o->wg, r->workers, r->coop_groups);
    printf("  \"chaos_seed\": %llu,\n  \"barrier\": \"%s\",\n  \"period_ms\": %.3f,\n  \"matmul_size\": %d,\n",
           (unsigned long long)o->chaos, o->naive_barrier ? "naive" : "query", o->period_ms, r->matmul_size);
    printf("  \"runs\": %u,\n  \"cpu_reference_ms\": %.3f,\n  \"build_ms\": %.1f,\n  \"configs\": [\n", o->runs,
           app_cpu_ms(r->a), r->build_ms);
    for (unsigned i = 0; i < r->n_cfg; ++i) {
        const config_result *c = &r->cfg[i];
        fails += c->status != 0;
        double t = median_d(c->coop_ms, c->runs);
        printf("    {\"name\": ");
        json_string(stdout, c->name);
        printf(", \"kind\": \"%s\", \"status\": \"%s\", \"runs\": %u, \"coop_ms\": %.3f",
               c->kind == 0 ? "plain" : c->kind == 1 ? "standalone" : "multitask", status_name(c->status), c->runs,
               t);
        printf(", \"coop_ms_runs\": [");
        for (unsigned k = 0; k < c->runs; ++k)
            printf("%s%.3f", k ? ", " : "", c->coop_ms[k]);
        printf("]");
        if (c->kind == 0)
            printf(", \"mode\": \"%s\", \"groups\": %u", c->plain_mode, c->plain_groups);
        if (c->kind > 0) {
            printf(", \"slowdown\": %.4f, \"kills\": %.1f, \"forks\": %.1f, \"resizes\": %.1f, \"max_active\": %.1f,"
                   " \"initial_groups\": %.1f",
                   base > 0 ? t / base : 0, median_u(c->kills, c->runs), median_u(c->forks, c->runs),
                   median_u(c->resizes, c->runs), median_u(c->max_active, c->runs), median_u(c->initial, c->runs));
        }
        if (c->kind == 2) {
            app_summary g = app_summarize(c->gather, c->n_gather), e = app_summarize(c->exec, c->n_gather),
                        p = app_summarize(c->period, c->n_period);
            printf(", \"matmul_groups\": %u, \"matmul_launches\": %u, \"matmul_bad\": %u", c->mm_groups,
                   c->mm_launches, c->mm_bad);
            /* null where there were no samples (period: fewer than two launches in a run) */
            if (g.count)
                printf(", \"gather_ms\": {\"median\": %.4f, \"p99\": %.4f, \"max\": %.4f}", g.median, g.p99, g.max);
            else
                printf(", \"gather_ms\": null");
            if (e.count)
                printf(", \"exec_ms\": {\"median\": %.4f, \"p99\": %.4f}", e.median, e.p99);
            else
                printf(", \"exec_ms\": null");
            if (p.count)
                printf(", \"period_ms\": {\"median\": %.4f, \"p99\": %.4f}", p.median, p.p99);
            else
                printf(", \"period_ms\": null");
        }
        printf(", \"message\": ");
        json_string(stdout, c->msg);
        printf("}%s\n", i + 1 < r->n_cfg ? "," : "");
    }
    printf("  ],\n  \"error\": ");
    json_string(stdout, r->session_error ? r->session_msg : "");
    printf(",\n  \"pass\": %s\n}\n", fails ? "false" : "true");
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
    po.bfs_persistent = o->plain == 2;
    po.warmup = 1;
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
            break;
        }
        c->plain_groups = pr.groups;
        c->coop_ms[c->runs++] = pr.ms;
        if (s > 0)
            set_status(c, 1, msg);
        note(o, "plain %s run %u: %.1f ms, %s", pr.mode, run + 1, pr.ms, status_name(s));
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
            if (r.coop_check > 0)
                set_status(c, 1, r.coop_msg);
            if (r.mm_bad > 0)
                set_status(c, 1, r.mm_msg);
            if (c->kind == 2 && r.mm_launches == 0)
                note(o, "%s run %u: the cooperative kernel ended before any matmul launch", c->name, run + 1);
            note(o, "%s run %u: %.1f ms, %u kills, %u forks, %u matmul launches, %s", c->name, run + 1, r.coop_ms,
                 r.coop.kills, r.coop.forked, r.mm_launches,
                 status_name(r.coop_check > 0 || r.mm_bad ? 1 : 0));
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
    rep->build_ms = s.build_ms;
    const ck_device_info *info = ck_context_device_info(s.ctx);
    if (info) {
        snprintf(rep->device, sizeof rep->device, "%s / %s", info->platform_name, info->device_name);
        snprintf(rep->path, sizeof rep->path, "%s", ck_path_name(info->path));
    }
    note(o, "megakernel built in %.0f ms: %u workers, cooperative launches ask for N=%u", s.build_ms, s.workers,
         s.coop_groups);
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

int main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    static report rep;
    rep.o = &o;
    char err[1024];
    /* Work stealing's default tree ends in about 10 ms on a large GPU, before
     * a matmul stream of 40 ms periods can ask for anything: GPUs get a tree
     * of 65536 roots (about 45 ms alone on the H100, docs/RESULTS.md). */
    if (o.app.kind == APP_KIND_WS && !o.ws_roots_given && !device_is_cpu(&o))
        o.app.ws.roots = 65536;
    if (app_create(&o.app, &rep.a, err, sizeof err)) {
        fprintf(stderr, "ckrun: %s\n", err);
        return 1;
    }
    note(&o, "%s", app_describe(rep.a));
    if (o.plain)
        run_plain(&rep);
    run_cooperative(&rep);
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
    app_destroy(rep.a);
    return bad ? 1 : 0;
}
