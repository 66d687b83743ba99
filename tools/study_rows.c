/* tools/study_rows.c: runs.csv rows (see study_rows.h): writing one, and
 * reading the file back strictly (a regular file only, lines of any
 * length, every number checked: an error names the file, the line and the
 * column). */
#define _POSIX_C_SOURCE 200809L
#include "study_rows.h"
#include "file_io.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void study_row_key(const study_row *r, char *out, size_t len)
{
    snprintf(out, len, "%s/%s/%s/%s/%s/%s", r->app, r->input, r->barrier, r->mode, r->cls, r->groups_expr);
}

static void clean(char *dst, size_t len, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < len; ++i)
        dst[i] = src[i] == ',' ? ';' : src[i] == '"' ? '\'' : (unsigned char)src[i] < 0x20 ? ' ' : src[i];
    dst[i] = 0;
}

int study_row_write(FILE *f, const study_row *r, char *err, size_t err_len)
{
    char msg[sizeof r->message];
    clean(msg, sizeof msg, r->message);
    fprintf(f,
            "%s,%s,%s,%s,%s,%s,%u,%u,%u,%u,%.3f,%.4f,%d,%.4f,%.4f,%u,%u,%u,%u,%u,%u,%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f,"
            "%.5f,%.4f,%.4f,%.5f,%d,%s,%s\n",
            r->app, r->input, r->barrier, r->mode, r->cls, r->groups_expr, r->run, r->workers, r->coop_groups,
            r->mm_groups, r->period_ms, r->target_exec_ms, r->matmul_n, r->coop_ms, r->coop_wall_ms, r->kills,
            r->forks, r->resizes, r->max_active, r->initial_groups, r->mm_launches, r->mm_missed, r->mm_bad,
            r->gather_med_ms, r->gather_mean_ms, r->gather_max_ms, r->exec_med_ms, r->exec_mean_ms, r->queue_med_ms,
            r->period_med_ms, r->period_mean_ms, r->device_ms, r->round_pos, r->check, msg);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, err_len, "writing runs.csv: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* One row's fields in column order, parsed strictly: the first bad field
 * is named with its column and why in `why`. */
typedef struct {
    char **f;
    int i;
    int bad;
    const char *columns; /* the file's header */
    char why[320];
} fields;

/* The name of column i of the file's header (columns: STUDY_COLUMNS or
 * STUDY_COLUMNS_V1), for messages. */
static const char *column_name(const char *columns, int i, char *buf, size_t len)
{
    const char *p = columns;
    for (int k = 0; k < i && p; ++k) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    size_t n = p ? strcspn(p, ",") : 0;
    snprintf(buf, len, "%.*s", (int)n, p ? p : "?");
    return buf;
}

/* Marks the row bad: "column NAME: <message>" into c->why. */
static void refuse(fields *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(fields *c, const char *fmt, ...)
{
    char name[32];
    c->bad = 1;
    int k = snprintf(c->why, sizeof c->why, "column %s: ", column_name(c->columns, c->i, name, sizeof name));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why + k, sizeof c->why - (size_t)k, fmt, ap);
    va_end(ap);
}

/* The next field, NULL once a field before was bad. */
static const char *next_field(fields *c) { return c->bad ? NULL : c->f[c->i]; }

static void text_col(fields *c, char *dst, size_t len)
{
    const char *s = next_field(c);
    if (!s)
        return;
    if (!*s)
        refuse(c, "empty");
    else if (strlen(s) >= len)
        refuse(c, "'%s' is longer than %zu characters", s, len - 1);
    else
        memcpy(dst, s, strlen(s) + 1);
    c->i++;
}

static void count_col(fields *c, unsigned *dst)
{
    const char *s = next_field(c);
    if (!s)
        return;
    uint64_t v;
    char why[160];
    if (ck_parse_u64(s, 0, UINT_MAX, &v, why, sizeof why))
        refuse(c, "%s", why);
    else
        *dst = (unsigned)v;
    c->i++;
}

/* A time in ms: finite and at least `lo` (0 for durations; -1 for the
 * launch statistics, where -1 means unknown: ck_launch_stats). */
static void time_col(fields *c, double lo, double *dst)
{
    const char *s = next_field(c);
    if (!s)
        return;
    char why[160];
    if (ck_parse_double(s, lo, DBL_MAX, dst, why, sizeof why))
        refuse(c, "%s%s", why, lo < 0 ? " (-1, unknown, is the only negative value)" : "");
    c->i++;
}

/* A whole number in [-1, INT_MAX] (-1: not applicable). */
static void int_col(fields *c, int *dst)
{
    const char *s = next_field(c);
    if (!s)
        return;
    int64_t v;
    char why[160];
    if (ck_parse_i64(s, -1, INT_MAX, &v, why, sizeof why))
        refuse(c, "%s", why);
    else
        *dst = (int)v;
    c->i++;
}

/* Splits line at its commas into f; the number of fields (at most max + 1). */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n > max)
            return n;
        if (n < max)
            f[n] = p;
        n++;
        char *comma = strchr(p, ',');
        if (!comma)
            return n;
        *comma = 0;
        p = comma + 1;
    }
}

/* 0 if the line is a row (into r); -1 with the reason in why. v1: the file
 * has the header STUDY_COLUMNS_V1. */
static int parse_line(char *line, int v1, study_row *r, char *why, size_t why_len)
{
    char *f[STUDY_NCOLS];
    int want = v1 ? STUDY_NCOLS_V1 : STUDY_NCOLS;
    int n = split(line, f, want);
    if (n != want) {
        snprintf(why, why_len, "%s%d fields, want %d", n > want ? "more than " : "", n > want ? want : n, want);
        return -1;
    }
    memset(r, 0, sizeof *r);
    fields c = {.f = f, .i = 0, .bad = 0, .columns = v1 ? STUDY_COLUMNS_V1 : STUDY_COLUMNS};
    text_col(&c, r->app, sizeof r->app);
    text_col(&c, r->input, sizeof r->input);
    text_col(&c, r->barrier, sizeof r->barrier);
    text_col(&c, r->mode, sizeof r->mode);
    text_col(&c, r->cls, sizeof r->cls);
    text_col(&c, r->groups_expr, sizeof r->groups_expr);
    count_col(&c, &r->run);
    count_col(&c, &r->workers);
    count_col(&c, &r->coop_groups);
    count_col(&c, &r->mm_groups);
    time_col(&c, 0, &r->period_ms);
    time_col(&c, 0, &r->target_exec_ms);
    unsigned matmul_n = 0;
    count_col(&c, &matmul_n);
    if (!c.bad && matmul_n > INT_MAX) {
        c.i--;
        refuse(&c, "'%s' is above %d", f[c.i], INT_MAX);
    }
    r->matmul_n = (int)matmul_n;
    time_col(&c, 0, &r->coop_ms);
    time_col(&c, 0, &r->coop_wall_ms);
    unsigned *counts[] = {&r->kills,          &r->forks,       &r->resizes,   &r->max_active,
                          &r->initial_groups, &r->mm_launches, &r->mm_missed, &r->mm_bad};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; ++k)
        count_col(&c, counts[k]);
    double *stats[] = {&r->gather_med_ms, &r->gather_mean_ms, &r->gather_max_ms,
                       &r->exec_med_ms,   &r->exec_mean_ms,   &r->queue_med_ms};
    for (size_t k = 0; k < sizeof stats / sizeof *stats; ++k)
        time_col(&c, -1, stats[k]);
    time_col(&c, 0, &r->period_med_ms);
    time_col(&c, 0, &r->period_mean_ms);
    r->device_ms = -1;
    r->round_pos = -1;
    if (!v1) {
        time_col(&c, -1, &r->device_ms);
        int_col(&c, &r->round_pos);
    }
    text_col(&c, r->check, sizeof r->check);
    if (!c.bad && strcmp(r->check, "PASS") && strcmp(r->check, "FAIL") && strcmp(r->check, "ERROR") &&
        strcmp(r->check, "unchecked")) {
        c.i--;
        refuse(&c, "'%s' is not PASS, FAIL, ERROR or unchecked", r->check);
    }
    if (c.bad) {
        snprintf(why, why_len, "%s", c.why);
        return -1;
    }
    snprintf(r->message, sizeof r->message, "%s", f[want - 1]);
    return 0;
}

static int add_row(study_row **rows, size_t *n, size_t *cap, const study_row *r)
{
    if (*n == *cap) {
        size_t want = *cap ? *cap * 2 : 256;
        study_row *p = realloc(*rows, want * sizeof *p);
        if (!p)
            return -1;
        *rows = p;
        *cap = want;
    }
    (*rows)[(*n)++] = *r;
    return 0;
}

int study_rows_read(const char *path, study_row **rows, size_t *n, char *err, size_t err_len)
{
    *rows = NULL;
    *n = 0;
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return 0; /* no sweep there yet */
    char why[768];
    FILE *f = ck_file_open_read(path, 0, why, sizeof why);
    if (!f) {
        snprintf(err, err_len, "runs.csv: %s", why);
        return -1;
    }
    ck_line_reader lr;
    ck_line_reader_init(&lr, f);
    size_t cap = 0;
    int rc = 0;
    ssize_t len;
    int v1 = 0;
    while ((len = ck_line_next(&lr)) >= 0) {
        if (lr.lineno == 1) {
            v1 = !strcmp(lr.line, STUDY_COLUMNS_V1);
            if (!v1 && strcmp(lr.line, STUDY_COLUMNS)) {
                snprintf(err, err_len,
                         "%s:1: the header is not ckstudy's runs.csv columns (is this a runs.csv "
                         "ckstudy wrote?)",
                         path);
                rc = -1;
                break;
            }
            continue;
        }
        if (len == 0)
            continue;
        /* A last line without its newline was torn by an interruption. */
        int torn = feof(f) != 0;
        study_row r;
        if (parse_line(lr.line, v1, &r, why, sizeof why)) {
            if (torn)
                break; /* dropped: the run is redone */
            snprintf(err, err_len, "%s:%zu: %s; fix or delete that row (ckstudy --resume redoes deleted runs)", path,
                     lr.lineno, why);
            rc = -1;
            break;
        }
        if (add_row(rows, n, &cap, &r)) {
            snprintf(err, err_len, "out of host memory reading %s", path);
            rc = -1;
            break;
        }
    }
    if (!rc && lr.error) {
        snprintf(err, err_len, "reading %s failed at line %zu: %s", path, lr.lineno + 1, strerror(errno));
        rc = -1;
    }
    ck_line_reader_free(&lr);
    fclose(f);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return rc;
}
