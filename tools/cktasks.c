/* tools/cktasks.c: the narrow-task benchmark (owner: apps,
 * tasks). For each benchmark of apps/tasks (and mpe, a mix of four of them)
 * it runs the same tasks in up to six forms -- (a) one NDRange per task over
 * in-order queues, (b) batches waited for one by one, (c) one fused NDRange,
 * (d) one ck_launch_kernel per task in the megakernel, (e) host threads,
 * (f) one ck_task_spawn per task (the task API) --
 * checks every task of every form against one CPU reference, and prints total
 * time, tasks per second, median and p99 spawn-to-done latency and the
 * speedup over (a), as a table or JSON (docs/TASKS.md).
 * Exit status (as every tool's, cli.h): 0 all PASS, 1 a FAIL or an error
 * during the runs, 2 nothing was run (one line on stderr). */
#include "cli.h"
#include "json_out.h"
#include "cl_plain.h"
#include "paths.h"
#include "task_bench.h"
#include "task_runners.h"
#include "timer.h"

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TASKS TB_MAX_TASKS
#define MAX_ENTRIES 16

typedef struct {
    const char *bench; /* --bench */
    unsigned tasks, wg, queues, batch, threads, window, task_batch;
    uint64_t seed;
    int forms[TR_N_FORMS];
    ck_device_options device;
    double timeout_s;
    int json, quiet;
    int callbacks;  /* --completion callback */
    uint64_t chaos; /* --chaos: the megakernel's chaos seed, forms d and f (0: none) */
    int beside;     /* --beside: a cooperative kernel beside forms d and f */
} options;

typedef struct {
    int ran;    /* the form was asked for */
    int status; /* 0 PASS, 1 FAIL (wrong outputs), 2 error */
    unsigned failed_tasks;
    double total_ms, tasks_per_s, median_us, p99_us, speedup;
    char note[160];
    char msg[512];
} form_result;

typedef struct {
    char name[16];
    char kinds[96]; /* "mm" or, for mpe, "des3,mb,fb,mm" (those registered) */
    unsigned tasks;
    form_result f[TR_N_FORMS];
} entry;

static void usage(FILE *f)
{
    fprintf(f, "usage: cktasks [--bench NAME|all] [options]\n"
               "  --bench NAME|all     a benchmark (");
    for (unsigned i = 0; i < tb_n_benches; i++)
        fprintf(f, "%s, ", tb_benches[i]->name);
    fprintf(f,
            "mpe) or all of them and mpe\n"
            "                       (default all); mpe mixes des3, mb, fb and mm, those registered, a quarter\n"
            "                       of --tasks each\n"
            "  --tasks N            tasks per benchmark, 1..%u (default 32768)\n"
            "  --wg-size N          work-items per task (the work-group size), a power of two the benchmark\n"
            "                       accepts, usually 32..1024, and at most the device's maximum (default\n"
            "                       128; also --wg)\n"
            "  --forms LIST         comma-separated forms a..f or their names (default all):\n"
            "                       a queues: one NDRange per task over in-order queues (no megakernel)\n"
            "                       b batches: --batch tasks as one NDRange, waited for one by one\n"
            "                       c fused: all tasks as one NDRange\n"
            "                       d ck: one ck_launch_kernel per task in the megakernel\n"
            "                       e cpu: host threads\n"
            "                       f tasks: one ck_task_spawn per task (the task API)\n"
            "  --queues Q           (a) in-order queues, 1..1024 (default 32)\n"
            "  --completion poll|callback  (a) how task completions are seen: a poller thread walking each\n"
            "                       queue's events (default), or a clSetEventCallback per task\n"
            "  --batch B            (b) tasks per NDRange, 1..%u (default 1024)\n"
            "  --threads T          (e) and the reference: host threads, 1..1024 (default: online CPUs)\n"
            "  --ck-window W        (d) launches kept in flight, 1..4096 (default 64)\n"
            "  --task-batch B       (f) spawn B tasks, wait for all, repeat; 0 = continuous (default 0)\n"
            "  --beside             (d), (f) run beside a cooperative kernel that holds every worker until\n"
            "                       the tasks are done (they gather workers from it); its counts are checked\n"
            "  --chaos S            (d), (f) the megakernel's chaos seed, 1..2^64-1: scheduling choices at\n"
            "                       random (default: none)\n"
            "  --seed S             input seed, 0..2^64-1 (default 1)\n"
            "  --device S           device whose \"platform / device\" name contains S (default: CK_DEVICE,\n"
            "                       else the first GPU with a usable path, else PoCL)\n"
            "  --path cl20|cl12|auto  atomics path of the megakernel and the plain builds (default: CK_PATH,\n"
            "                       else auto)\n"
            "  --timeout S          deadline in seconds of every wait, above 0 and at most %.0f (default %.0f)\n"
            "  --kernels DIR        where tasks/*.cl are (default: CK_APPS_KERNELS, else the installed or\n"
            "                       source copy)\n"
            "  --json               one JSON object on stdout instead of the table (keys: docs/TASKS.md)\n"
            "  --quiet              no progress notes on stderr\n"
            "  --version            print the version and exit\n"
            "  --help               this text\n"
            "Exit status: 0 every form of every benchmark passed its check, 1 a FAIL or an error during\n"
            "the runs, 2 nothing was run: bad command line, no such device or a work-group size it refuses\n"
            "(one line on stderr).\n",
            MAX_TASKS, MAX_TASKS, CLI_MAX_TIMEOUT_S, CLI_DEFAULT_TIMEOUT_S);
}

static void note(const options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const options *o, const char *fmt, ...)
{
    if (o->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cktasks: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void parse_forms(const char *v, int *forms)
{
    static const char *const letters[TR_N_FORMS] = {"a", "b", "c", "d", "e", "f"};
    const char *allowed = "comma-separated a, b, c, d, e or queues, batches, fused, ck, cpu";
    memset(forms, 0, TR_N_FORMS * sizeof *forms);
    const char *p = v;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int found = -1;
        for (int i = 0; i < TR_N_FORMS; i++)
            if ((len == strlen(letters[i]) && !strncmp(p, letters[i], len)) ||
                (len == strlen(tr_form_names[i]) && !strncmp(p, tr_form_names[i], len)))
                found = i;
        if (found < 0)
            cli_bad_value("--forms", v, len ? "unknown form in the list" : "empty entry in the list", allowed);
        forms[found] = 1;
        if (!comma)
            break;
        p = comma + 1;
    }
}

static void parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->bench = "all";
    o->tasks = 32768;
    o->wg = 128;
    o->queues = 32;
    o->batch = 1024;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = cpus >= 1 && cpus <= 1024 ? (unsigned)cpus : 1;
    o->window = 64;
    o->seed = 1;
    o->timeout_s = CLI_DEFAULT_TIMEOUT_S;
    for (int i = 0; i < TR_N_FORMS; i++)
        o->forms[i] = 1;
    enum {
        OPT_BENCH = 256,
        OPT_TASKS,
        OPT_WG,
        OPT_FORMS,
        OPT_QUEUES,
        OPT_BATCH,
        OPT_THREADS,
        OPT_WINDOW,
        OPT_SEED,
        OPT_DEVICE,
        OPT_PATH,
        OPT_TIMEOUT,
        OPT_KERNELS,
        OPT_JSON,
        OPT_QUIET,
        OPT_VERSION,
        OPT_COMPLETION,
        OPT_TASK_BATCH,
        OPT_BESIDE,
        OPT_CHAOS
    };
    static const struct option longopts[] = {{"bench", required_argument, NULL, OPT_BENCH},
                                             {"tasks", required_argument, NULL, OPT_TASKS},
                                             {"wg-size", required_argument, NULL, OPT_WG},
                                             {"wg", required_argument, NULL, OPT_WG},
                                             {"forms", required_argument, NULL, OPT_FORMS},
                                             {"queues", required_argument, NULL, OPT_QUEUES},
                                             {"batch", required_argument, NULL, OPT_BATCH},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"ck-window", required_argument, NULL, OPT_WINDOW},
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"device", required_argument, NULL, OPT_DEVICE},
                                             {"path", required_argument, NULL, OPT_PATH},
                                             {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                             {"kernels", required_argument, NULL, OPT_KERNELS},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"quiet", no_argument, NULL, OPT_QUIET},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"completion", required_argument, NULL, OPT_COMPLETION},
                                             {"task-batch", required_argument, NULL, OPT_TASK_BATCH},
                                             {"beside", no_argument, NULL, OPT_BESIDE},
                                             {"chaos", required_argument, NULL, OPT_CHAOS},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    cli_init("cktasks");
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        const char *v = optarg;
        switch (c) {
        case 'h': usage(stdout); exit(0);
        case OPT_VERSION: cli_print_version(); exit(0);
        case OPT_JSON: o->json = 1; break;
        case OPT_QUIET: o->quiet = 1; break;
        case OPT_BENCH: o->bench = v; break;
        case OPT_TASKS: o->tasks = (unsigned)cli_uint("--tasks", v, 1, MAX_TASKS, "tasks"); break;
        case OPT_WG: o->wg = (unsigned)cli_wg_size("--wg-size", v); break;
        case OPT_FORMS: parse_forms(v, o->forms); break;
        case OPT_QUEUES: o->queues = (unsigned)cli_uint("--queues", v, 1, 1024, "queues"); break;
        case OPT_BATCH: o->batch = (unsigned)cli_uint("--batch", v, 1, MAX_TASKS, "tasks"); break;
        case OPT_THREADS: o->threads = (unsigned)cli_uint("--threads", v, 1, 1024, "threads"); break;
        case OPT_WINDOW: o->window = (unsigned)cli_uint("--ck-window", v, 1, 4096, "launches"); break;
        case OPT_TASK_BATCH: o->task_batch = (unsigned)cli_uint("--task-batch", v, 0, MAX_TASKS, "tasks"); break;
        case OPT_SEED: o->seed = cli_uint("--seed", v, 0, UINT64_MAX, ""); break;
        case OPT_BESIDE: o->beside = 1; break;
        case OPT_CHAOS: o->chaos = cli_uint("--chaos", v, 1, UINT64_MAX, ""); break;
        case OPT_DEVICE: o->device.device = v; break;
        case OPT_PATH:
            if (ck_path_parse(v, &o->device.path) != CK_OK)
                cli_bad_value("--path", v, "unknown atomics path", "auto, cl20 or cl12");
            break;
        case OPT_TIMEOUT: o->timeout_s = cli_timeout("--timeout", v); break;
        case OPT_KERNELS: app_set_kernel_dir(v); break;
        case OPT_COMPLETION:
            if (strcmp(v, "poll") && strcmp(v, "callback"))
                cli_bad_value("--completion", v, "unknown completion method", "poll or callback");
            o->callbacks = !strcmp(v, "callback");
            break;
        default: cli_getopt_error(c, argv);
        }
    }
    cli_no_operands(argc, argv);
}

/* The mpe kinds that are registered, in the order. */
static unsigned mpe_kinds(const task_bench **out)
{
    static const char *const names[] = {"des3", "mb", "fb", "mm"};
    unsigned n = 0;
    for (unsigned i = 0; i < 4; i++)
        if ((out[n] = tb_find(names[i])) != NULL)
            n++;
    return n;
}

static char bench_list[256];
static const char *bench_names(void)
{
    size_t len = 0;
    bench_list[0] = 0;
    for (unsigned i = 0; i < tb_n_benches; i++)
        len += (size_t)snprintf(bench_list + len, sizeof bench_list - len, "%s, ", tb_benches[i]->name);
    snprintf(bench_list + len, sizeof bench_list - len, "mpe or all");
    return bench_list;
}

/* Checks --wg against a bench's declared range (exit 2 if refused). */
static void check_wg(const task_bench *b, unsigned wg)
{
    if (wg < b->min_wg || wg > b->max_wg || (wg & (wg - 1))) {
        char v[16], allowed[96];
        snprintf(v, sizeof v, "%u", wg);
        snprintf(allowed, sizeof allowed, "powers of two in %u..%u work-items for %s", b->min_wg, b->max_wg,
                 b->name);
        cli_bad_value("--wg-size", v, "the benchmark does not take this work-group size", allowed);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted xs. */
static double pct(const double *xs, size_t n, double q)
{
    size_t rank = (size_t)ceil(q / 100.0 * (double)n);
    return xs[rank ? rank - 1 : 0];
}

static void summarize(const tr_set *set, tr_result *r, form_result *f)
{
    qsort(r->latency_s, set->n_total, sizeof *r->latency_s, cmp_double);
    f->total_ms = r->total_s * 1000;
    f->tasks_per_s = r->total_s > 0 ? set->n_total / r->total_s : 0;
    f->median_us = pct(r->latency_s, set->n_total, 50) * 1e6;
    f->p99_us = pct(r->latency_s, set->n_total, 99) * 1e6;
    snprintf(f->note, sizeof f->note, "%s", r->note);
}

/* Test hook: CKTASKS_CORRUPT=<letter> (a..e) flips a bit high in one word of
 * the first output of that form's first kind, in its middle task, after the
 * run, so that its check must FAIL (tests/tasks/check_cktasks.py). */
static void corrupt_for_test(const tr_set *set, tr_result *r, int form)
{
    const char *c = getenv("CKTASKS_CORRUPT");
    if (!c || c[0] != 'a' + form || c[1])
        return;
    const tb_instance *in = &set->jobs[0].inst;
    for (unsigned b = 0; b < in->n_buffers; b++)
        if (r->out[0][b]) {
            size_t per_task = in->buffers[b].bytes / in->n_tasks;
            size_t at = (per_task * (in->n_tasks / 2) + 4 * 7) & ~(size_t)3;
            if (at + 4 <= in->buffers[b].bytes)
                ((unsigned char *)r->out[0][b])[at + 3] ^= 0x40; /* a float's exponent, an int's bit 30 */
            return;
        }
}

/* Runs one entry (a bench, or mpe): creates its instances, the reference,
 * then every requested form. Returns 2 for a usage refusal (message in msg),
 * else 0 (errors are recorded per form or in the entry's forms). */
static int run_entry(const options *o, app_cl *cl, entry *e, const task_bench **kinds, unsigned n_kinds,
                     unsigned tasks_each, char *msg, size_t msg_len)
{
    tr_set set;
    memset(&set, 0, sizeof set);
    tr_result ref;
    memset(&ref, 0, sizeof ref);
    char err[1024];
    int rc = 0;
    size_t len = 0;
    e->kinds[0] = 0;
    for (unsigned i = 0; i < n_kinds; i++)
        len += (size_t)snprintf(e->kinds + len, sizeof e->kinds - len, "%s%s", i ? "," : "", kinds[i]->name);
    for (unsigned i = 0; i < n_kinds; i++) {
        set.jobs[i].bench = kinds[i];
        if (kinds[i]->create(&set.jobs[i].inst, tasks_each, o->wg, o->seed, err, sizeof err)) {
            memset(&set.jobs[i].inst, 0, sizeof set.jobs[i].inst);
            set.n_jobs = i;
            snprintf(msg, msg_len, "%s", err);
            rc = 1;
            goto out;
        }
        set.n_jobs = i + 1;
    }
    if (tr_set_init(&set, err, sizeof err)) {
        snprintf(msg, msg_len, "%s", err);
        rc = 1;
        goto out;
    }
    e->tasks = set.n_total;
    note(o, "%s: %u tasks (%s), reference on %u threads", e->name, set.n_total, e->kinds, o->threads);
    double t_ref = app_now_ms();
    if (tr_reference(&set, o->threads, &ref, err, sizeof err)) {
        snprintf(msg, msg_len, "reference: %.*s", 900, err);
        rc = 1;
        goto out;
    }
    note(o, "%s: reference took %.0f ms", e->name, app_now_ms() - t_ref);
    tr_plain plain;
    memset(&plain, 0, sizeof plain);
    int have_plain = 0;
    if (o->forms[TR_QUEUES] || o->forms[TR_BATCHES] || o->forms[TR_FUSED]) {
        int refused = 0;
        if (tr_plain_prepare(cl, &set, &plain, &refused, err, sizeof err)) {
            snprintf(msg, msg_len, "%s: %.*s", e->name, 900, err);
            rc = refused ? 2 : 1;
            goto out;
        }
        have_plain = 1;
    }
    tr_options ro = {.queues = o->queues,
                     .batch = o->batch,
                     .threads = o->threads,
                     .ck_window = o->window,
                     .task_batch = o->task_batch,
                     .warmup = 4,
                     .completion_callbacks = o->callbacks,
                     .timeout_s = o->timeout_s,
                     .device = o->device,
                     .chaos_seed = o->chaos,
                     .beside = o->beside};
    for (int f = 0; f < TR_N_FORMS; f++) {
        if (!o->forms[f])
            continue;
        form_result *fr = &e->f[f];
        fr->ran = 1;
        tr_result r;
        memset(&r, 0, sizeof r);
        int bad;
        note(o, "%s: form %c (%s)", e->name, 'a' + f, tr_form_names[f]);
        switch (f) {
        case TR_QUEUES: bad = tr_run_queues(&plain, &set, &ro, &r, err, sizeof err); break;
        case TR_BATCHES: bad = tr_run_batches(&plain, &set, &ro, &r, err, sizeof err); break;
        case TR_FUSED: bad = tr_run_fused(&plain, &set, &ro, &r, err, sizeof err); break;
        case TR_CK: bad = tr_run_ck(&set, &ro, &r, err, sizeof err); break;
        case TR_TASKS: bad = tr_run_tasks(&set, &ro, &r, err, sizeof err); break;
        default: bad = tr_run_cpu(&set, &ro, &r, err, sizeof err); break;
        }
        if (!bad)
            corrupt_for_test(&set, &r, f);
        if (bad) {
            fr->status = 2;
            snprintf(fr->msg, sizeof fr->msg, "%.*s", 500, err);
            note(o, "%s: form %s: error: %s", e->name, tr_form_names[f], err);
        } else {
            fr->failed_tasks = tr_check(&set, &r, &ref, o->threads, err, sizeof err);
            fr->status = fr->failed_tasks ? 1 : 0;
            if (fr->failed_tasks)
                snprintf(fr->msg, sizeof fr->msg, "%u of %u tasks wrong; first: %.*s", fr->failed_tasks, set.n_total,
                         400, err);
            summarize(&set, &r, fr);
        }
        tr_result_free(&r);
        if (cl->stuck)
            break; /* a kernel outlived its deadline: the device is not usable */
    }
    for (int f = 0; f < TR_N_FORMS; f++)
        if (e->f[f].ran && e->f[f].status == 0 && e->f[TR_QUEUES].ran && e->f[TR_QUEUES].status == 0 &&
            e->f[f].total_ms > 0)
            e->f[f].speedup = e->f[TR_QUEUES].total_ms / e->f[f].total_ms;
    if (have_plain)
        tr_plain_release(&plain);
out:
    tr_result_free(&ref);
    tr_set_free(&set);
    return rc;
}

static const char *status_name(const form_result *f)
{
    return f->status == 0 ? "PASS" : f->status == 1 ? "FAIL" : "ERROR";
}

/* Geometric mean of form f's speedup over (a) across the entries where both
 * passed; 0 if none. */
static double geomean_over_a(const entry *es, unsigned n, int f, unsigned *count)
{
    double s = 0;
    *count = 0;
    for (unsigned i = 0; i < n; i++)
        if (es[i].f[f].ran && es[i].f[f].status == 0 && es[i].f[f].speedup > 0) {
            s += log(es[i].f[f].speedup);
            (*count)++;
        }
    return *count ? exp(s / *count) : 0;
}

static void print_table(const options *o, const app_cl *cl, const entry *es, unsigned n)
{
    printf("cktasks: %s, path %s, %u tasks of %u work-items, seed %llu\n", cl->name, ck_path_name(cl->path),
           o->tasks, o->wg, (unsigned long long)o->seed);
    printf("%-6s %-9s %8s %11s %13s %12s %12s %8s  %-6s %s\n", "bench", "form", "tasks", "total ms", "tasks/s",
           "median us", "p99 us", "vs (a)", "check", "note");
    for (unsigned i = 0; i < n; i++) {
        const entry *e = &es[i];
        if (!strcmp(e->name, "mpe"))
            printf("# mpe kinds: %s\n", e->kinds);
        for (int f = 0; f < TR_N_FORMS; f++) {
            const form_result *r = &e->f[f];
            if (!r->ran)
                continue;
            char form[16];
            snprintf(form, sizeof form, "(%c) %s", 'a' + f, tr_form_names[f]);
            if (r->status == 2) {
                printf("%-6s %-9s %8u %11s %13s %12s %12s %8s  %-6s %s\n", e->name, form, e->tasks, "-", "-", "-",
                       "-", "-", status_name(r), r->msg);
                continue;
            }
            char sp[16] = "-";
            if (r->speedup > 0)
                snprintf(sp, sizeof sp, "%.2fx", r->speedup);
            printf("%-6s %-9s %8u %11.2f %13.0f %12.1f %12.1f %8s  %-6s %s\n", e->name, form, e->tasks, r->total_ms,
                   r->tasks_per_s, r->median_us, r->p99_us, sp, status_name(r), r->status ? r->msg : r->note);
        }
    }
    for (int f = TR_CK; f <= TR_TASKS; f += TR_TASKS - TR_CK) {
        unsigned cnt;
        double g = geomean_over_a(es, n, f, &cnt);
        if (cnt)
            printf("geomean speedup of (%c) %s over (a) queues: %.3fx over %u benchmark%s\n", 'a' + f,
                   tr_form_names[f], g, cnt, cnt > 1 ? "s" : "");
        else if (o->forms[f])
            printf("geomean speedup of (%c) %s over (a) queues: - (needs both forms passing)\n", 'a' + f,
                   tr_form_names[f]);
    }
}

static void print_json(const options *o, const app_cl *cl, const entry *es, unsigned n, int pass)
{
    json_out j;
    jo_start(&j, stdout);
    jo_object(&j, NULL);
    jo_str(&j, "tool", "cktasks");
    jo_str(&j, "version", ck_version());
    jo_str(&j, "device", cl->name);
    jo_str(&j, "path", ck_path_name(cl->path));
    jo_uint(&j, "tasks", o->tasks);
    jo_uint(&j, "wg", o->wg);
    jo_uint(&j, "seed", o->seed);
    jo_str(&j, "completion", o->callbacks ? "callback" : "poll");
    jo_uint(&j, "queues", o->queues);
    jo_uint(&j, "batch", o->batch);
    jo_uint(&j, "threads", o->threads);
    jo_uint(&j, "ck_window", o->window);
    jo_uint(&j, "task_batch", o->task_batch);
    jo_bool(&j, "beside", o->beside);
    jo_uint(&j, "chaos", o->chaos);
    jo_array(&j, "results");
    /* NAN writes null: no figures for a form that did not run through, no speedup without (a). */
    for (unsigned i = 0; i < n; i++)
        for (int f = 0; f < TR_N_FORMS; f++) {
            const form_result *r = &es[i].f[f];
            if (!r->ran)
                continue;
            int none = r->status == 2;
            char letter[2] = {(char)('a' + f), 0};
            jo_object(&j, NULL);
            jo_str(&j, "bench", es[i].name);
            jo_str(&j, "kinds", es[i].kinds);
            jo_str(&j, "form", tr_form_names[f]);
            jo_str(&j, "letter", letter);
            jo_uint(&j, "tasks", es[i].tasks);
            jo_str(&j, "status", status_name(r));
            jo_num(&j, "total_ms", "%.4f", none ? NAN : r->total_ms);
            jo_num(&j, "tasks_per_s", "%.1f", none ? NAN : r->tasks_per_s);
            jo_num(&j, "median_us", "%.3f", none ? NAN : r->median_us);
            jo_num(&j, "p99_us", "%.3f", none ? NAN : r->p99_us);
            jo_num(&j, "speedup_vs_queues", "%.4f", r->speedup > 0 ? r->speedup : NAN);
            jo_uint(&j, "failed_tasks", r->failed_tasks);
            jo_str(&j, "note", r->note);
            jo_str(&j, "message", r->msg);
            jo_end(&j);
        }
    jo_end(&j);
    unsigned cnt;
    double g = geomean_over_a(es, n, TR_CK, &cnt);
    jo_num(&j, "geomean_ck_over_queues", "%.4f", cnt ? g : NAN);
    g = geomean_over_a(es, n, TR_TASKS, &cnt);
    jo_num(&j, "geomean_tasks_over_queues", "%.4f", cnt ? g : NAN);
    jo_bool(&j, "pass", pass);
    jo_end(&j);
}

int main(int argc, char **argv)
{
    options o;
    parse_args(argc, argv, &o);

    /* Which entries: one bench, mpe, or all (every bench, then mpe). */
    const task_bench *list[MAX_ENTRIES];
    unsigned n_list = 0;
    int want_mpe = 0;
    if (!strcmp(o.bench, "all")) {
        for (unsigned i = 0; i < tb_n_benches && n_list < MAX_ENTRIES; i++)
            list[n_list++] = tb_benches[i];
        want_mpe = 1;
    } else if (!strcmp(o.bench, "mpe")) {
        want_mpe = 1;
    } else if ((list[0] = tb_find(o.bench)) != NULL) {
        n_list = 1;
    } else {
        cli_bad_value("--bench", o.bench, "unknown benchmark", bench_names());
    }
    const task_bench *mpe[4];
    unsigned n_mpe = want_mpe ? mpe_kinds(mpe) : 0;
    if (want_mpe && n_mpe == 0)
        cli_usage_error("mpe needs one of des3, mb, fb, mm registered; none is");
    for (unsigned i = 0; i < n_list; i++)
        check_wg(list[i], o.wg);
    for (unsigned i = 0; i < n_mpe; i++)
        check_wg(mpe[i], o.wg);
    unsigned mpe_each = o.tasks / 4 ? o.tasks / 4 : 1;
    size_t wg = o.wg;
    cli_check_device(&o.device, &wg, 1);

    app_cl cl;
    char err[1024];
    app_cl_request req;
    memset(&req, 0, sizeof req);
    req.device = o.device;
    req.work_group_size = o.wg;
    if (app_cl_open(&req, &cl, err, sizeof err)) {
        fprintf(stderr, "cktasks: %s\n", err);
        return 1;
    }
    /* The ck form must open the same device with the same path. */
    o.device.path = cl.path;
    note(&o, "device %s, path %s", cl.name, ck_path_name(cl.path));

    entry *es = calloc(n_list + 1, sizeof *es);
    if (!es) {
        fprintf(stderr, "cktasks: out of host memory\n");
        app_cl_close(&cl);
        return 1;
    }
    unsigned n_es = 0;
    int failed = 0;
    for (unsigned i = 0; i <= n_list; i++) {
        if (i == n_list && !want_mpe)
            break;
        entry *e = &es[n_es++];
        int rc;
        if (i < n_list) {
            snprintf(e->name, sizeof e->name, "%s", list[i]->name);
            rc = run_entry(&o, &cl, e, &list[i], 1, o.tasks, err, sizeof err);
        } else {
            snprintf(e->name, sizeof e->name, "mpe");
            rc = run_entry(&o, &cl, e, mpe, n_mpe, mpe_each, err, sizeof err);
        }
        if (rc == 2) {
            /* A refusal by the device (wg, local memory): a usage error. */
            fprintf(stderr, "cktasks: %s\n", err);
            free(es);
            app_cl_close(&cl);
            return CLI_EXIT_USAGE;
        }
        if (rc) {
            for (int f = 0; f < TR_N_FORMS; f++)
                if (o.forms[f]) {
                    e->f[f].ran = 1;
                    e->f[f].status = 2;
                    snprintf(e->f[f].msg, sizeof e->f[f].msg, "%.*s", 500, err);
                }
            fprintf(stderr, "cktasks: %s: %s\n", e->name, err);
        }
        for (int f = 0; f < TR_N_FORMS; f++)
            failed |= e->f[f].ran && e->f[f].status != 0;
        if (cl.stuck)
            break;
    }
    if (o.json)
        print_json(&o, &cl, es, n_es, !failed);
    else
        print_table(&o, &cl, es, n_es);
    free(es);
    if (cl.stuck) /* a kernel (or its compile) may still run */
        cli_exit_device_busy(failed ? 1 : 0);
    app_cl_close(&cl);
    return failed ? 1 : 0;
}
