/* tools/study_table2.c: the fair Table 2 from runs.csv rows (see
 * study_table2.h; definitions in docs/STUDY.md "Table 2"). Both outputs go
 * through a temporary file and a rename (file_io.h). */
#include "study_table2.h"
#include "file_io.h"
#include "study_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const study_t2_mode[STUDY_T2_FORMS] = {"alone", "plain", "plain-fenced"};
static const char *const ratio_key[STUDY_T2_RATIOS] = {"plain", "fenced"};

const char *study_t2_clock_name(int clock) { return clock == STUDY_T2_DEVICE ? "device" : "host"; }

static int usable(const study_row *r) { return !strcmp(r->check, "PASS") || !strcmp(r->check, "unchecked"); }

/* The form of a row of a --table2 round (round_pos >= 0; the cooperative
 * form with the query barrier), -1 for any other row (a sweep's). */
static int form_of(const study_row *r)
{
    if (r->round_pos < 0)
        return -1;
    for (int f = 0; f < STUDY_T2_FORMS; ++f)
        if (!strcmp(r->mode, study_t2_mode[f]))
            return f == STUDY_T2_COOP && strcmp(r->barrier, "query") ? -1 : f;
    return -1;
}

int study_rows_are_table2(const study_row *rows, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (form_of(&rows[i]) == STUDY_T2_FENCED)
            return 1;
    return 0;
}

static int same_item(const study_row *r, const study_t2_item *it)
{
    return !strcmp(r->app, it->app) && !strcmp(r->input, it->input);
}

/* A run's time on a clock: the device's (-1: unknown) or host to host. */
static double time_on(const study_row *r, int clock) { return clock == STUDY_T2_DEVICE ? r->device_ms : r->coop_ms; }

/* Median, min and max of form f's usable runs of it on `clock` (NaN when
 * there are none, or on the device clock when one has no device time). */
static void form_stats(const study_row *rows, size_t n, study_t2_item *it, int f, int clock, double *xs)
{
    size_t k = 0;
    int unknown = 0;
    for (size_t i = 0; i < n; ++i) {
        const study_row *r = &rows[i];
        if (!same_item(r, it) || form_of(r) != f || !usable(r))
            continue;
        double t = time_on(r, clock);
        unknown |= t < 0;
        xs[k++] = t;
    }
    it->med[f][clock] = it->lo[f][clock] = it->hi[f][clock] = NAN;
    if (!k || unknown)
        return;
    it->med[f][clock] = study_median(xs, k); /* sorts xs */
    it->lo[f][clock] = xs[0];
    it->hi[f][clock] = xs[k - 1];
}

/* The usable row of form f in round `run`, or NULL. */
static const study_row *round_row(const study_row *rows, size_t n, const study_t2_item *it, int f, unsigned run)
{
    for (size_t i = 0; i < n; ++i)
        if (same_item(&rows[i], it) && form_of(&rows[i]) == f && rows[i].run == run && usable(&rows[i]))
            return &rows[i];
    return NULL;
}

/* The min..max over rounds of coop / form f (both usable in the round). */
static void round_ratios(const study_row *rows, size_t n, study_t2_item *it, int f, double *lo, double *hi)
{
    *lo = *hi = NAN;
    for (size_t i = 0; i < n; ++i) {
        const study_row *c = &rows[i];
        if (!same_item(c, it) || form_of(c) != STUDY_T2_COOP || !usable(c))
            continue;
        const study_row *p = round_row(rows, n, it, f, c->run);
        double tc = p ? time_on(c, it->clock) : -1, tp = p ? time_on(p, it->clock) : -1;
        if (tc < 0 || !(tp > 0))
            continue;
        double q = tc / tp;
        *lo = isnan(*lo) || q < *lo ? q : *lo;
        *hi = isnan(*hi) || q > *hi ? q : *hi;
    }
}

/* The item's check: the first row that did not pass, or a form without a
 * usable run; "unchecked" when some run had no reference and none failed. */
static void item_check(const study_row *rows, size_t n, study_t2_item *it)
{
    snprintf(it->check, sizeof it->check, "PASS");
    it->message[0] = 0;
    for (size_t i = 0; i < n; ++i) {
        const study_row *r = &rows[i];
        if (!same_item(r, it) || form_of(r) < 0)
            continue;
        if (!strcmp(r->check, "unchecked") && !strcmp(it->check, "PASS"))
            snprintf(it->check, sizeof it->check, "unchecked");
        if (!usable(r)) {
            snprintf(it->check, sizeof it->check, "%s", r->check);
            snprintf(it->message, sizeof it->message, "%s run %u: %s", r->mode, r->run, r->message);
            return;
        }
    }
    for (int f = 0; f < STUDY_T2_FORMS; ++f)
        if (!it->runs[f]) {
            snprintf(it->check, sizeof it->check, "FAIL");
            snprintf(it->message, sizeof it->message, "no %s run passed", study_t2_mode[f]);
            return;
        }
}

static void compute_item(const study_row *rows, size_t n, study_t2_item *it, double *xs)
{
    for (size_t i = 0; i < n; ++i) {
        const study_row *r = &rows[i];
        int f = same_item(r, it) ? form_of(r) : -1;
        if (f < 0)
            continue;
        if (usable(r))
            it->runs[f]++;
        if (f == STUDY_T2_COOP && usable(r) && !strncmp(r->message, "redone", 6))
            it->redone++;
        if (f != STUDY_T2_COOP && usable(r))
            it->groups = r->coop_groups;
    }
    it->clock = STUDY_T2_DEVICE;
    for (int f = 0; f < STUDY_T2_FORMS; ++f)
        for (int c = 0; c < STUDY_T2_CLOCKS; ++c)
            form_stats(rows, n, it, f, c, xs);
    for (int f = 0; f < STUDY_T2_FORMS; ++f)
        if (isnan(it->med[f][STUDY_T2_DEVICE]))
            it->clock = STUDY_T2_HOST;
    for (int k = 0; k < STUDY_T2_RATIOS; ++k) {
        double c = it->med[STUDY_T2_COOP][it->clock], p = it->med[STUDY_T2_PLAIN + k][it->clock];
        it->ratio[k] = p > 0 ? c / p : NAN;
        round_ratios(rows, n, it, STUDY_T2_PLAIN + k, &it->ratio_lo[k], &it->ratio_hi[k]);
    }
    item_check(rows, n, it);
}

static int counted(const study_t2_item *it)
{
    return (!strcmp(it->check, "PASS") || !strcmp(it->check, "unchecked")) && it->ratio[0] > 0 && it->ratio[1] > 0;
}

/* The geomean and max over the counted items, on the device clock when
 * every counted item has it (each item's ratio then is on that clock). */
static void summarise(study_t2_numbers *num)
{
    num->clock = STUDY_T2_DEVICE;
    num->counted = 0;
    for (size_t i = 0; i < num->n_items; ++i)
        if (counted(&num->items[i])) {
            num->counted++;
            if (num->items[i].clock != STUDY_T2_DEVICE)
                num->clock = STUDY_T2_HOST;
        }
    for (int k = 0; k < STUDY_T2_RATIOS; ++k) {
        double logsum = 0, mx = NAN;
        num->max_at[k][0] = 0;
        for (size_t i = 0; i < num->n_items; ++i) {
            const study_t2_item *it = &num->items[i];
            if (!counted(it))
                continue;
            double c = it->med[STUDY_T2_COOP][num->clock], p = it->med[STUDY_T2_PLAIN + k][num->clock];
            double q = c / p;
            logsum += log(q);
            if (isnan(mx) || q > mx) {
                mx = q;
                snprintf(num->max_at[k], sizeof num->max_at[k], "%s %s", it->app, it->input);
            }
        }
        num->geomean[k] = num->counted ? exp(logsum / num->counted) : NAN;
        num->max[k] = mx;
    }
}

static int compute(const study_row *rows, size_t n, study_t2_numbers *num, char *err, size_t err_len)
{
    memset(num, 0, sizeof *num);
    num->items = calloc(n ? n : 1, sizeof *num->items);
    double *xs = malloc((n ? n : 1) * sizeof *xs);
    if (!num->items || !xs) {
        free(xs);
        snprintf(err, err_len, "table2: out of host memory");
        return -1;
    }
    for (size_t i = 0; i < n; ++i) {
        if (form_of(&rows[i]) < 0)
            continue;
        size_t j = 0;
        while (j < num->n_items && !same_item(&rows[i], &num->items[j]))
            ++j;
        if (j == num->n_items) {
            study_t2_item *it = &num->items[num->n_items++];
            snprintf(it->app, sizeof it->app, "%s", rows[i].app);
            snprintf(it->input, sizeof it->input, "%s", rows[i].input);
        }
    }
    for (size_t j = 0; j < num->n_items; ++j)
        compute_item(rows, n, &num->items[j], xs);
    free(xs);
    summarise(num);
    return 0;
}

void study_t2_free(study_t2_numbers *num)
{
    free(num->items);
    num->items = NULL;
    num->n_items = 0;
}

/* ------------------------------------------------------------ writing */

static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fputs(",NaN", f);
    else
        fprintf(f, ",%.5f", v);
}

static void write_csv(FILE *f, const study_t2_numbers *num)
{
    fputs("row,app,input,groups,runs_coop,runs_plain,runs_fenced,clock", f);
    for (int c = 0; c < STUDY_T2_CLOCKS; ++c)
        for (int fm = 0; fm < STUDY_T2_FORMS; ++fm)
            fprintf(f, ",%s_%s_med,%s_%s_min,%s_%s_max",
                    fm == 0   ? "coop"
                    : fm == 1 ? "plain"
                              : "fenced",
                    study_t2_clock_name(c),
                    fm == 0   ? "coop"
                    : fm == 1 ? "plain"
                              : "fenced",
                    study_t2_clock_name(c),
                    fm == 0   ? "coop"
                    : fm == 1 ? "plain"
                              : "fenced",
                    study_t2_clock_name(c));
    for (int k = 0; k < STUDY_T2_RATIOS; ++k)
        fprintf(f, ",ratio_%s,ratio_%s_min,ratio_%s_max", ratio_key[k], ratio_key[k], ratio_key[k]);
    fputs(",check\n", f);
    for (size_t i = 0; i < num->n_items; ++i) {
        const study_t2_item *it = &num->items[i];
        fprintf(f, "item,%s,%s,%u,%u,%u,%u,%s", it->app, it->input, it->groups, it->runs[0], it->runs[1],
                it->runs[2], study_t2_clock_name(it->clock));
        for (int c = 0; c < STUDY_T2_CLOCKS; ++c)
            for (int fm = 0; fm < STUDY_T2_FORMS; ++fm) {
                csv_num(f, it->med[fm][c]);
                csv_num(f, it->lo[fm][c]);
                csv_num(f, it->hi[fm][c]);
            }
        for (int k = 0; k < STUDY_T2_RATIOS; ++k) {
            csv_num(f, it->ratio[k]);
            csv_num(f, it->ratio_lo[k]);
            csv_num(f, it->ratio_hi[k]);
        }
        fprintf(f, ",%s\n", it->check);
    }
    /* geomean and max rows: the clock and the ratio columns (max: with the
     * item's app and input); the items counted are in table2.md and
     * summary.json */
    const char *no_times = ",,,,,,,,,,,,,,,,,,";
    fprintf(f, "geomean,,,,,,,%s%s", study_t2_clock_name(num->clock), no_times);
    for (int k = 0; k < STUDY_T2_RATIOS; ++k) {
        csv_num(f, num->geomean[k]);
        fputs(",,", f);
    }
    fputs(",\n", f);
    for (int k = 0; k < STUDY_T2_RATIOS; ++k) {
        char app[16] = "", input[32] = "";
        sscanf(num->max_at[k], "%15s %31s", app, input);
        fprintf(f, "max-%s,%s,%s,,,,,%s%s", ratio_key[k], app, input, study_t2_clock_name(num->clock), no_times);
        for (int j = 0; j < STUDY_T2_RATIOS; ++j) {
            if (j == k)
                csv_num(f, num->max[k]);
            else
                fputs(",", f);
            fputs(",,", f);
        }
        fputs(",\n", f);
    }
}

/* "1.234 (1.200..1.300)" or "-". */
static void md_span(FILE *f, double med, double lo, double hi)
{
    if (isnan(med))
        fputs(" - |", f);
    else if (isnan(lo))
        fprintf(f, " %.3f |", med);
    else
        fprintf(f, " %.3f (%.3f..%.3f) |", med, lo, hi);
}

static void md_times(FILE *f, const study_t2_numbers *num, int clock)
{
    fprintf(f, "| app | input | groups | runs | cooperative ms | plain ms | plain-fenced ms |\n"
               "|---|---|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < num->n_items; ++i) {
        const study_t2_item *it = &num->items[i];
        fprintf(f, "| %s | %s | %u | %u/%u/%u |", it->app, it->input, it->groups, it->runs[0], it->runs[1],
                it->runs[2]);
        for (int fm = 0; fm < STUDY_T2_FORMS; ++fm)
            md_span(f, it->med[fm][clock], it->lo[fm][clock], it->hi[fm][clock]);
        fputc('\n', f);
    }
}

static void write_md(FILE *f, const study_t2_numbers *num)
{
    fprintf(f,
            "# Table 2: cooperative kernel alone over the plain persistent kernel\n\n"
            "Per app/input: the cooperative kernel alone (megakernel, query resizing barrier, nothing else "
            "running; a fresh context per round, one untimed warm-up launch, then the timed one) against the "
            "plain persistent kernel (raw OpenCL, one warm session, one untimed warm-up run before each timed "
            "one) at the same group count N, in rounds whose order alternates; `plain` is built with the "
            "header's default barrier, `plain-fenced` with -DCK_PLAIN_BARRIER_FENCED. Medians over the "
            "passing runs with (min..max); a ratio is the ratio of the medians, with the (min..max) of the "
            "per-round ratios. Runs: cooperative/plain/plain-fenced. A cooperative run that the scheduler "
            "started on fewer than N groups, or that killed, forked or resized, is not a fair comparison: it "
            "is redone (up to %d attempts; `redone` counts them) and fails the check if it never was fair. "
            "docs/STUDY.md \"Table 2\" has the definitions.\n\n",
            STUDY_T2_COOP_ATTEMPTS);
    fprintf(f, "## Ratios\n\n"
               "| app | input | groups | clock | cooperative / plain | cooperative / plain-fenced | check | "
               "cooperative runs redone |\n"
               "|---|---|---:|---|---:|---:|---|---:|\n");
    for (size_t i = 0; i < num->n_items; ++i) {
        const study_t2_item *it = &num->items[i];
        fprintf(f, "| %s | %s | %u | %s |", it->app, it->input, it->groups, study_t2_clock_name(it->clock));
        for (int k = 0; k < STUDY_T2_RATIOS; ++k)
            md_span(f, it->ratio[k], it->ratio_lo[k], it->ratio_hi[k]);
        fprintf(f, " %s%s%s | %u |\n", it->check, it->message[0] ? ": " : "", it->message, it->redone);
    }
    fprintf(f, "\n## Over the items (%u of %zu counted: those whose check passed), %s clock\n\n", num->counted,
            num->n_items, study_t2_clock_name(num->clock));
    if (num->clock == STUDY_T2_HOST)
        fprintf(f, "Host times: some run has no device time (device_ms -1: the launch's exec_ms or the plain "
                   "launch's profiling time is unknown on this device), so every ratio here is host to host "
                   "(cooperative: launch sent -> the host saw it finished; plain: enqueue -> the host saw it "
                   "complete).\n\n");
    fprintf(f, "| | cooperative / plain | cooperative / plain-fenced | paper |\n|---|---:|---:|---:|\n");
    fprintf(f, "| geomean |");
    for (int k = 0; k < STUDY_T2_RATIOS; ++k)
        md_span(f, num->geomean[k], NAN, NAN);
    fprintf(f, " %.2f |\n| max |", STUDY_T2_PAPER_GEOMEAN);
    for (int k = 0; k < STUDY_T2_RATIOS; ++k)
        if (isnan(num->max[k]))
            fputs(" - |", f);
        else
            fprintf(f, " %.3f (%s) |", num->max[k], num->max_at[k]);
    fprintf(f, " %.2f |\n", STUDY_T2_PAPER_MAX);
    fprintf(f, "\n## Times on the device's clock (ms)\n\nCooperative: the launch's exec_ms (groups dispatched -> "
               "last group finished); plain: the launch event's CL_PROFILING_COMMAND_END - START. `-` where a run "
               "has none.\n\n");
    md_times(f, num, STUDY_T2_DEVICE);
    fprintf(f, "\n## Times host to host (ms)\n\nCooperative: total_ms (launch sent -> the host saw it finished); "
               "plain: just before the enqueue -> the host saw it complete.\n\n");
    md_times(f, num, STUDY_T2_HOST);
}

int study_table2_write(const char *dir, const study_row *rows, size_t n, study_t2_numbers *num, char *err,
                       size_t err_len)
{
    if (compute(rows, n, num, err, err_len))
        return -1;
    static const char *const names[2] = {"table2.csv", "table2.md"};
    ck_file_writer w[2];
    for (int k = 0; k < 2; ++k) {
        char path[4096], why[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if (ck_file_writer_open(&w[k], path, 0, why, sizeof why)) {
            snprintf(err, err_len, "%s: %s", names[k], why);
            if (k)
                ck_file_writer_abort(&w[0]);
            return -1;
        }
    }
    write_csv(w[0].f, num);
    write_md(w[1].f, num);
    for (int k = 1; k >= 0; --k) {
        char why[1024];
        if (ck_file_writer_commit(&w[k], why, sizeof why)) {
            snprintf(err, err_len, "%s: %s", names[k], why);
            if (k)
                ck_file_writer_abort(&w[0]);
            return -1;
        }
    }
    return 0;
}
