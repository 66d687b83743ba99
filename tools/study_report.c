/* tools/study_report.c: ckstudy's tables and plots from runs.csv rows (see
 * study_report.h; the definitions are in docs/STUDY.md). Every output file,
 * the figures gnuplot draws included, is written through a temporary file
 * and a rename (file_io.h): a failed write leaves the old file as it was. */
#include "study_report.h"
#include "app.h"
#include "file_io.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const class_names[3] = {"light", "medium", "heavy"};
/* One colour per class in every figure (its period line is dashed in it). */
static const char *const class_colors[3] = {"#1b9e77", "#d95f02", "#7570b3"};

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double study_median(double *xs, size_t n)
{
    qsort(xs, n, sizeof *xs, cmp_d);
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

/* Rows a report looks at: NULL fields match anything. */
typedef struct {
    const char *app, *input, *barrier, *mode, *cls, *groups;
} filter;

typedef enum { F_COOP, F_GATHER, F_EXEC, F_PERIOD, F_PERIOD_P } field;

static int usable(const study_row *r) { return !strcmp(r->check, "PASS") || !strcmp(r->check, "unchecked"); }

static int matches(const study_row *r, const filter *f)
{
    return (!f->app || !strcmp(r->app, f->app)) && (!f->input || !strcmp(r->input, f->input)) &&
           (!f->barrier || !strcmp(r->barrier, f->barrier)) && (!f->mode || !strcmp(r->mode, f->mode)) &&
           (!f->cls || !strcmp(r->cls, f->cls)) && (!f->groups || !strcmp(r->groups_expr, f->groups));
}

/* Median of a field over the usable rows that match (NAN if none). Gather,
 * execution and period medians skip runs without that sample (no launch, or
 * fewer than two launches for a period). */
static double median_of(const study_row *rows, size_t n, const filter *f, field which)
{
    double *xs = malloc((n ? n : 1) * sizeof *xs);
    size_t k = 0;
    if (!xs)
        return NAN;
    for (size_t i = 0; i < n; ++i) {
        const study_row *r = &rows[i];
        if (!usable(r) || !matches(r, f))
            continue;
        switch (which) {
        case F_COOP: xs[k++] = r->coop_ms; break;
        case F_GATHER:
            if (r->mm_launches)
                xs[k++] = r->gather_med_ms;
            break;
        case F_EXEC:
            if (r->mm_launches)
                xs[k++] = r->exec_med_ms;
            break;
        case F_PERIOD:
            if (r->mm_launches > 1)
                xs[k++] = r->period_med_ms;
            break;
        case F_PERIOD_P: xs[k++] = r->period_ms; break;
        }
    }
    double m = k ? study_median(xs, k) : NAN;
    free(xs);
    return m;
}

/* Distinct values of (app, input) or (app, input, barrier) in first-seen order. */
typedef struct {
    char app[16], input[32], barrier[8];
} item;

static size_t items_of(const study_row *rows, size_t n, int with_barrier, item **out)
{
    item *it = malloc((n ? n : 1) * sizeof *it);
    size_t k = 0;
    if (!it) {
        *out = NULL;
        return 0;
    }
    for (size_t i = 0; i < n; ++i) {
        if (with_barrier && !strcmp(rows[i].barrier, "-"))
            continue;
        size_t j = 0;
        for (; j < k; ++j)
            if (!strcmp(it[j].app, rows[i].app) && !strcmp(it[j].input, rows[i].input) &&
                (!with_barrier || !strcmp(it[j].barrier, rows[i].barrier)))
                break;
        if (j == k) {
            memset(&it[k], 0, sizeof it[k]);
            snprintf(it[k].app, sizeof it[k].app, "%s", rows[i].app);
            snprintf(it[k].input, sizeof it[k].input, "%s", rows[i].input);
            snprintf(it[k].barrier, sizeof it[k].barrier, "%s", with_barrier ? rows[i].barrier : "-");
            ++k;
        }
    }
    *out = it;
    return k;
}

static int is_barrier_app(const char *name)
{
    app_kind k;
    return app_kind_parse(name, &k) == 0 && app_kind_uses_graph(k);
}

/* An output file of the report, dir/name, written whole or not at all
 * (file_io.h: a FIFO, a device or a folder of that name is refused, a
 * failed write leaves the old file). open_out returns the stream, or NULL
 * with the reason in err; close_out commits it. */
static FILE *open_out(ck_file_writer *w, const char *dir, const char *name, char *err, size_t err_len)
{
    char path[4096], why[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ck_file_writer_open(w, path, 0, why, sizeof why)) {
        snprintf(err, err_len, "%s: %s", name, why);
        return NULL;
    }
    return w->f;
}

static int close_out(ck_file_writer *w, const char *name, char *err, size_t err_len)
{
    char why[1024];
    if (ck_file_writer_commit(w, why, sizeof why)) {
        snprintf(err, err_len, "%s: %s", name, why);
        return -1;
    }
    return 0;
}

static void num(FILE *f, double v, const char *fmt)
{
    if (isnan(v))
        fputs("NaN", f);
    else
        fprintf(f, fmt, v);
}

/* ------------------------------------------------------------ table 2 */

static int table2(const study_report_options *o, const study_row *rows, size_t n, study_report_numbers *num_out,
                  char *err, size_t err_len)
{
    item *it;
    size_t ni = items_of(rows, n, 0, &it);
    ck_file_writer wcsv, wmd;
    FILE *csv = open_out(&wcsv, o->out_dir, "table2.csv", err, err_len);
    if (!csv) {
        free(it);
        return -1;
    }
    FILE *md = open_out(&wmd, o->out_dir, "table2.md", err, err_len);
    if (!md) {
        ck_file_writer_abort(&wcsv);
        free(it);
        return -1;
    }
    fprintf(csv, "scope,app,input,groups,plain_ms,coop_ms,slowdown\n");
    fprintf(md, "# Table 2: cooperative kernel slowdown without multitasking\n\n"
                "Cooperative kernel alone (query barrier; nothing killed or forked unless the scheduler chose to) "
                "over the original persistent kernel at the same group count; medians over the runs.\n\n"
                "| scope | app | input | groups | original ms | cooperative ms | slowdown |\n"
                "|---|---|---|---:|---:|---:|---:|\n");
    double logsum[3] = {0}, mx[3] = {-1, -1, -1};
    unsigned cnt[3] = {0};
    char arg[3][64] = {"", "", ""}, arg_app[3][16] = {"", "", ""}, arg_input[3][32] = {"", "", ""};
    for (size_t i = 0; i < ni; ++i) {
        filter fp = {it[i].app, it[i].input, NULL, "plain", NULL, NULL};
        filter fa = {it[i].app, it[i].input, "query", "alone", NULL, NULL};
        double p = median_of(rows, n, &fp, F_COOP), a = median_of(rows, n, &fa, F_COOP);
        if (isnan(p) || isnan(a) || p <= 0)
            continue;
        unsigned groups = 0;
        for (size_t r = 0; r < n; ++r)
            if (!strcmp(rows[r].app, it[i].app) && !strcmp(rows[r].input, it[i].input) &&
                !strcmp(rows[r].mode, "plain"))
                groups = rows[r].coop_groups;
        double s = a / p;
        int cat = is_barrier_app(it[i].app) ? 1 : 2;
        const char *scope = cat == 1 ? "barrier" : "workstealing";
        fprintf(csv, "%s,%s,%s,%u,%.4f,%.4f,%.4f\n", scope, it[i].app, it[i].input, groups, p, a, s);
        fprintf(md, "| %s | %s | %s | %u | %.3f | %.3f | %.3f |\n", scope, it[i].app, it[i].input, groups, p, a, s);
        int cats[2] = {0, cat};
        for (int c = 0; c < 2; ++c) {
            int k = cats[c];
            logsum[k] += log(s);
            cnt[k]++;
            if (s > mx[k]) {
                mx[k] = s;
                snprintf(arg[k], sizeof arg[k], "%s %s", it[i].app, it[i].input);
                snprintf(arg_app[k], sizeof arg_app[k], "%s", it[i].app);
                snprintf(arg_input[k], sizeof arg_input[k], "%s", it[i].input);
            }
        }
    }
    static const char *const names[3] = {"overall", "barrier", "workstealing"};
    fprintf(md, "\n| | geomean | max | max at | inputs |\n|---|---:|---:|---|---:|\n");
    for (int k = 0; k < 3; ++k) {
        double g = cnt[k] ? exp(logsum[k] / cnt[k]) : NAN, m = cnt[k] ? mx[k] : NAN;
        num_out->t2_geomean[k] = g;
        num_out->t2_max[k] = m;
        num_out->t2_count[k] = cnt[k];
        snprintf(num_out->t2_argmax[k], sizeof num_out->t2_argmax[k], "%s", arg[k]);
        fprintf(csv, "geomean-%s,,,,,,", names[k]);
        num(csv, g, "%.4f");
        fprintf(csv, "\nmax-%s,%s,%s,,,,", names[k], arg_app[k], arg_input[k]);
        num(csv, m, "%.4f");
        fputc('\n', csv);
        if (cnt[k])
            fprintf(md, "| %s | %.3f | %.3f | %s | %u |\n", names[k], g, m, num_out->t2_argmax[k], cnt[k]);
        else
            fprintf(md, "| %s | - | - | - | 0 |\n", names[k]);
    }
    free(it);
    if (close_out(&wmd, "table2.md", err, err_len)) {
        ck_file_writer_abort(&wcsv);
        return -1;
    }
    return close_out(&wcsv, "table2.csv", err, err_len);
}

/* ------------------------------------------------------ table 3, fig 6 */

/* Per class and group expression: the median over (app, input, barrier)
 * items of the slowdown (stream / alone, medians over runs) and of the
 * median period. */
static void class_medians(const study_row *rows, size_t n, const item *it, size_t ni, const char *cls, const char *g,
                          double *slow, double *period)
{
    double *s = malloc((ni ? ni : 1) * sizeof *s), *p = malloc((ni ? ni : 1) * sizeof *p);
    size_t ks = 0, kp = 0;
    for (size_t i = 0; s && p && i < ni; ++i) {
        filter fa = {it[i].app, it[i].input, it[i].barrier, "alone", NULL, NULL};
        filter fs = {it[i].app, it[i].input, it[i].barrier, "stream", cls, g};
        double a = median_of(rows, n, &fa, F_COOP), m = median_of(rows, n, &fs, F_COOP);
        double per = median_of(rows, n, &fs, F_PERIOD);
        if (!isnan(a) && !isnan(m) && a > 0)
            s[ks++] = m / a;
        if (!isnan(per))
            p[kp++] = per;
    }
    *slow = ks ? study_median(s, ks) : NAN;
    *period = kp ? study_median(p, kp) : NAN;
    free(s);
    free(p);
}

static int table3_fig6(const study_report_options *o, const study_row *rows, size_t n, study_report_numbers *nm,
                       char *err, size_t err_len)
{
    item *it;
    size_t ni = items_of(rows, n, 1, &it);
    ck_file_writer wcsv = {.f = NULL}, wmd = {.f = NULL}, wdat = {.f = NULL};
    FILE *csv = open_out(&wcsv, o->out_dir, "table3.csv", err, err_len), *md = NULL, *dat = NULL;
    if (!csv || !(md = open_out(&wmd, o->out_dir, "table3.md", err, err_len)) ||
        !(dat = open_out(&wdat, o->out_dir, "fig6.dat", err, err_len))) {
        ck_file_writer_abort(&wcsv);
        ck_file_writer_abort(&wmd);
        free(it);
        return -1;
    }
    fprintf(csv, "class,period_ms,exec_ms,kernel_level,groups,median_period_ms,cooperative\n");
    fprintf(md,
            "# Table 3: kernel-level preemption vs cooperative kernels\n\n"
            "Per workload class: the smallest group count of the matmul stream whose median period (median "
            "over apps, inputs and barrier forms) is within %.0f%% of P, and the median slowdown of the "
            "cooperative kernel there, beside the kernel-level preemption model P/(P-E).\n\n"
            "| class | P ms | E ms | kernel-level P/(P-E) | cooperative | groups | median period ms |\n"
            "|---|---:|---:|---:|---:|---|---:|\n",
            (STUDY_PERIOD_TOLERANCE - 1) * 100);
    fprintf(dat, "# idx");
    for (int c = 0; c < 3; ++c)
        fprintf(dat, " %s_overhead %s_period", class_names[c], class_names[c]);
    fputc('\n', dat);
    double sl[3][16], pe[3][16];
    unsigned ng = o->n_groups < 16 ? o->n_groups : 16;
    for (int c = 0; c < 3; ++c)
        for (unsigned g = 0; g < ng; ++g)
            class_medians(rows, n, it, ni, class_names[c], o->groups[g], &sl[c][g], &pe[c][g]);
    for (unsigned g = 0; g < ng; ++g) {
        fprintf(dat, "%u", g);
        for (int c = 0; c < 3; ++c) {
            fputc(' ', dat);
            num(dat, sl[c][g], "%.5f");
            fputc(' ', dat);
            num(dat, pe[c][g], "%.5f");
        }
        fputc('\n', dat);
    }
    for (int c = 0; c < 3; ++c) {
        filter fc = {NULL, NULL, NULL, "stream", class_names[c], NULL};
        double P = median_of(rows, n, &fc, F_PERIOD_P), E = NAN;
        for (size_t i = 0; i < n; ++i)
            if (!strcmp(rows[i].cls, class_names[c]))
                E = rows[i].target_exec_ms;
        double model = !isnan(P) && !isnan(E) && P > E ? P / (P - E) : NAN;
        nm->t3_model[c] = model;
        nm->t3_groups[c][0] = 0;
        nm->t3_slowdown[c] = nm->t3_period[c] = NAN;
        for (unsigned g = 0; g < ng && !isnan(P); ++g)
            if (!isnan(pe[c][g]) && pe[c][g] <= STUDY_PERIOD_TOLERANCE * P) {
                snprintf(nm->t3_groups[c], sizeof nm->t3_groups[c], "%s", o->groups[g]);
                nm->t3_slowdown[c] = sl[c][g];
                nm->t3_period[c] = pe[c][g];
                break;
            }
        fprintf(csv, "%s,", class_names[c]);
        num(csv, P, "%.3f");
        fputc(',', csv);
        num(csv, E, "%.3f");
        fputc(',', csv);
        num(csv, model, "%.4f");
        fprintf(csv, ",%s,", nm->t3_groups[c][0] ? nm->t3_groups[c] : "none");
        num(csv, nm->t3_period[c], "%.4f");
        fputc(',', csv);
        num(csv, nm->t3_slowdown[c], "%.4f");
        fputc('\n', csv);
        if (isnan(P))
            fprintf(md, "| %s | - | - | - | - | no runs | - |\n", class_names[c]);
        else if (nm->t3_groups[c][0])
            fprintf(md, "| %s | %.1f | %.2f | %.3f | %.3f | %s | %.2f |\n", class_names[c], P, E, model,
                    nm->t3_slowdown[c], nm->t3_groups[c], nm->t3_period[c]);
        else
            fprintf(md, "| %s | %.1f | %.2f | %.3f | - | none meets P | - |\n", class_names[c], P, E, model);
    }
    free(it);
    int rc = close_out(&wcsv, "table3.csv", err, err_len);
    rc |= close_out(&wmd, "table3.md", err, err_len);
    rc |= close_out(&wdat, "fig6.dat", err, err_len);
    if (rc)
        return -1;
    /* fig6.gp */
    ck_file_writer wgp;
    FILE *gp = open_out(&wgp, o->out_dir, "fig6.gp", err, err_len);
    if (!gp)
        return -1;
    fprintf(gp, "# Figure 6 (the paper's section 5.4): median overhead of the cooperative kernel and median\n"
                "# period of the matmul stream, per class, against the groups the stream requests.\n"
                "# Re-plot: gnuplot fig6.gp\n"
                "set terminal png size 1200,500\nset output (exists('ck_output') ? ck_output : 'fig6.png')\n"
                "set datafile missing 'NaN'\n"
                "set multiplot layout 1,2\nset xtics (");
    for (unsigned g = 0; g < ng; ++g)
        fprintf(gp, "%s\"%s\" %u", g ? ", " : "", o->groups[g], g);
    fprintf(gp,
            ")\nset xrange [-0.3:%u.3]\nset xlabel 'work-groups requested by the matmul stream'\n"
            "set key top left\nset ylabel 'median overhead (x)'\nset title 'cooperative kernel slowdown'\n"
            "plot 1 with lines dt 3 lc rgb 'gray' title 'no overhead'",
            ng ? ng - 1 : 0);
    /* Only columns with data: gnuplot refuses a plot whose points are all undefined. */
    for (int c = 0; c < 3; ++c) {
        int have_s = 0;
        for (unsigned g = 0; g < ng; ++g)
            have_s |= !isnan(sl[c][g]);
        if (have_s)
            fprintf(gp, ", 'fig6.dat' using 1:%d with linespoints lc rgb '%s' title '%s'", 2 + 2 * c,
                    class_colors[c], class_names[c]);
    }
    fprintf(
        gp,
        "\nset logscale y\nset ylabel 'median period (ms)'\nset offsets 0, 0, graph 0.05, graph 0.05\nset title 'matmul stream period'\nplot ");
    int first = 1;
    for (int c = 0; c < 3; ++c) {
        int have_p = 0;
        for (unsigned g = 0; g < ng; ++g)
            have_p |= !isnan(pe[c][g]);
        if (have_p) {
            fprintf(gp, "%s'fig6.dat' using 1:%d with linespoints lc rgb '%s' title '%s'", first ? "" : ", ",
                    3 + 2 * c, class_colors[c], class_names[c]);
            first = 0;
        }
    }
    for (int c = 0; c < 3; ++c) {
        filter fc = {NULL, NULL, NULL, "stream", class_names[c], NULL};
        double P = median_of(rows, n, &fc, F_PERIOD_P);
        if (!isnan(P) && P > 0) {
            fprintf(gp, "%s%.4f with lines dt 2 lc rgb '%s' title '%s P = %.3g ms'", first ? "" : ", ", P,
                    class_colors[c], class_names[c], P);
            first = 0;
        }
    }
    if (first)
        fprintf(gp, "1 with lines lc rgb 'gray' title 'no stream runs'");
    fprintf(gp, "\nunset multiplot\n");
    return close_out(&wgp, "fig6.gp", err, err_len);
}

/* ---------------------------------------------------------------- fig 5 */

static int fig5(const study_report_options *o, const study_row *rows, size_t n, char *err, size_t err_len)
{
    item *it;
    size_t ni = items_of(rows, n, 0, &it);
    unsigned ng = o->n_groups < 16 ? o->n_groups : 16;
    int rc = 0;
    for (size_t i = 0; i < ni && rc == 0; ++i) {
        filter any = {it[i].app, it[i].input, NULL, "stream", NULL, NULL};
        if (isnan(median_of(rows, n, &any, F_PERIOD_P)))
            continue; /* no stream runs */
        char base[128], name[160];
        snprintf(base, sizeof base, "fig5_%s_%s", it[i].app, it[i].input);
        snprintf(name, sizeof name, "%s.dat", base);
        ck_file_writer wdat, wgp;
        FILE *dat = open_out(&wdat, o->out_dir, name, err, err_len);
        if (!dat) {
            rc = -1;
            break;
        }
        fprintf(dat, "# idx gather_query gather_naive exec_light exec_medium exec_heavy (ms, medians)\n");
        int have[5] = {0};
        for (unsigned g = 0; g < ng; ++g) {
            filter fq = {it[i].app, it[i].input, "query", "stream", NULL, o->groups[g]};
            filter fn = {it[i].app, it[i].input, "naive", "stream", NULL, o->groups[g]};
            double v[5];
            v[0] = median_of(rows, n, &fq, F_GATHER);
            v[1] = median_of(rows, n, &fn, F_GATHER);
            for (int c = 0; c < 3; ++c) {
                filter fe = {it[i].app, it[i].input, NULL, "stream", class_names[c], o->groups[g]};
                v[2 + c] = median_of(rows, n, &fe, F_EXEC);
            }
            fprintf(dat, "%u", g);
            for (int c = 0; c < 5; ++c) {
                if (!(v[c] > 0))
                    v[c] = NAN; /* log scale */
                have[c] |= !isnan(v[c]);
                fputc(' ', dat);
                num(dat, v[c], "%.6f");
            }
            fputc('\n', dat);
        }
        rc = close_out(&wdat, name, err, err_len);
        if (rc)
            break;
        snprintf(name, sizeof name, "%s.gp", base);
        FILE *gp = open_out(&wgp, o->out_dir, name, err, err_len);
        if (!gp) {
            rc = -1;
            break;
        }
        fprintf(gp,
                "# Figure 5 (the paper's section 5.4) for %s on %s: gather time of the matmul stream's\n"
                "# launches (both resizing-barrier forms) and their execution time per class, against the\n"
                "# groups requested; log scale; the dashed lines are the periods. Re-plot: gnuplot %s.gp\n"
                "set terminal png size 900,600\nset output (exists('ck_output') ? ck_output : '%s.png')\n"
                "set datafile missing 'NaN'\n"
                "set logscale y\nset title '%s %s'\nset xlabel 'work-groups requested by the matmul stream'\n"
                "set ylabel 'time (ms)'\nset key outside right\nset xrange [-0.3:%u.3]\nset xtics (",
                it[i].app, it[i].input, base, base, it[i].app, it[i].input, ng ? ng - 1 : 0);
        for (unsigned g = 0; g < ng; ++g)
            fprintf(gp, "%s\"%s\" %u", g ? ", " : "", o->groups[g], g);
        fprintf(gp, ")\nplot ");
        static const char *const titles[5] = {"gather time (query)", "gather time (naive)", "light task",
                                              "medium task", "heavy task"};
        int first = 1;
        for (int c = 0; c < 5; ++c)
            if (have[c]) {
                fprintf(gp, "%s'%s.dat' using 1:%d with linespoints lc rgb '%s' title '%s'", first ? "" : ", ", base,
                        2 + c, c < 2 ? (c ? "#e7298a" : "#000000") : class_colors[c - 2], titles[c]);
                first = 0;
            }
        double shown[3];
        int ns = 0;
        for (int c = 0; c < 3; ++c) {
            filter fc = {it[i].app, it[i].input, NULL, "stream", class_names[c], NULL};
            double P = median_of(rows, n, &fc, F_PERIOD_P);
            int dup = 0;
            for (int k = 0; k < ns; ++k)
                dup |= fabs(shown[k] - P) < 1e-9;
            if (!isnan(P) && P > 0 && !dup) {
                shown[ns++] = P;
                fprintf(gp, "%s%.4f with lines dt 2 lc rgb 'gray' title 'period %.3g ms'", first ? "" : ", ", P, P);
                first = 0;
            }
        }
        fputc('\n', gp);
        rc = close_out(&wgp, name, err, err_len);
    }
    free(it);
    return rc;
}

int study_report_write(const study_report_options *o, const study_row *rows, size_t n, study_report_numbers *num,
                       char *err, size_t err_len)
{
    memset(num, 0, sizeof *num);
    if (table2(o, rows, n, num, err, err_len) || table3_fig6(o, rows, n, num, err, err_len) ||
        fig5(o, rows, n, err, err_len))
        return -1;
    return 0;
}

int study_have_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *copy = strdup(path);
    int found = 0;
    for (char *save = NULL, *d = copy ? strtok_r(copy, ":", &save) : NULL; d && !found;
         d = strtok_r(NULL, ":", &save)) {
        char p[4096];
        snprintf(p, sizeof p, "%s/gnuplot", d);
        found = access(p, X_OK) == 0;
    }
    free(copy);
    return found;
}

static int cmp_s(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The first bytes of a PNG file. */
static const unsigned char png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/* What gnuplot wrote into `path`: 1 a PNG, 0 nothing (an empty file), -1
 * something else. */
static int png_state(const char *path)
{
    FILE *f = ck_file_open_read(path, 1, NULL, 0);
    if (!f)
        return -1;
    unsigned char b[8];
    size_t got = fread(b, 1, sizeof b, f);
    fclose(f);
    return got == 0 ? 0 : got == sizeof b && !memcmp(b, png_magic, sizeof b) ? 1 : -1;
}

/* Runs gnuplot on dir/name with ck_output set to `output` (NULL: unset);
 * 0 when it exited 0, else -1 with the reason in err. */
static int run_gnuplot(const char *dir, const char *name, const char *output, char *err, size_t err_len)
{
    char assign[4200];
    if (output)
        snprintf(assign, sizeof assign, "ck_output='%s'", output);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        if (output)
            execlp("gnuplot", "gnuplot", "-e", assign, name, (char *)NULL);
        else
            execlp("gnuplot", "gnuplot", name, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, err_len, "gnuplot %s/%s failed%s", dir, name,
                 WIFEXITED(status) && WEXITSTATUS(status) == 127
                     ? ": gnuplot is not installed (Debian package gnuplot-nox)"
                     : "");
        return -1;
    }
    return 0;
}

/* One script: dir/NAME.gp must be a regular file (gnuplot would block on a
 * FIFO); its figure NAME.png is written whole or not at all: the scripts
 * ckstudy writes plot into the file named by the gnuplot variable ck_output
 * when it is set (else into NAME.png, for a plain "gnuplot NAME.gp"), here
 * a temporary file renamed over NAME.png once gnuplot succeeded and wrote a
 * PNG. A script that ignores ck_output (an older ckstudy's) writes its own
 * output, and the temporary file is dropped. */
static int plot_one(const char *dir, const char *name, char *err, size_t err_len)
{
    char path[4096], why[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_len, "gnuplot script '%.900s' is not a regular file: move it away", path);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%.*s.png", dir, (int)(strlen(name) - 3), name);
    ck_file_writer w;
    if (ck_file_writer_open(&w, path, 1, why, sizeof why)) {
        snprintf(err, err_len, "figure: %s", why);
        return -1;
    }
    /* gnuplot runs in dir: the temporary file by its absolute name. */
    char output[4096], cwd[2048];
    if (w.tmp[0] == '/')
        snprintf(output, sizeof output, "%s", w.tmp);
    else if (getcwd(cwd, sizeof cwd))
        snprintf(output, sizeof output, "%s/%s", cwd, w.tmp);
    else
        output[0] = 0;
    if (!output[0] || strchr(output, '\'')) {
        ck_file_writer_abort(&w);
        snprintf(err, err_len, "figure '%.900s': its folder's path has a quote or is too long for gnuplot", path);
        return -1;
    }
    if (run_gnuplot(dir, name, output, err, err_len)) {
        ck_file_writer_abort(&w);
        return -1;
    }
    int png = png_state(w.tmp);
    if (png <= 0) {
        ck_file_writer_abort(&w);
        if (png == 0)
            return 0; /* the script wrote its own output */
        snprintf(err, err_len, "gnuplot %s/%s wrote something that is not a PNG; '%.900s' was left as it was", dir,
                 name, path);
        return -1;
    }
    if (ck_file_writer_commit(&w, why, sizeof why)) {
        snprintf(err, err_len, "figure: %s", why);
        return -1;
    }
    return 0;
}

int study_run_gnuplot(const char *dir, char *err, size_t err_len)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, err_len, "reading %s: %s", dir, strerror(errno));
        return -1;
    }
    char *names[1024];
    size_t k = 0;
    for (struct dirent *e; (e = readdir(d)) && k < 1024;) {
        size_t len = strlen(e->d_name);
        if (len > 3 && !strcmp(e->d_name + len - 3, ".gp"))
            names[k++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, k, sizeof names[0], cmp_s);
    int rc = 0;
    for (size_t i = 0; i < k; ++i) {
        if (rc == 0 && names[i])
            rc = plot_one(dir, names[i], err, err_len);
        free(names[i]);
    }
    return rc;
}
