/* tools/study_rows.c: runs.csv rows (see study_rows.h). */
#include "study_rows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
            "%.5f,%.4f,%.4f,%s,%s\n",
            r->app, r->input, r->barrier, r->mode, r->cls, r->groups_expr, r->run, r->workers, r->coop_groups,
            r->mm_groups, r->period_ms, r->target_exec_ms, r->matmul_n, r->coop_ms, r->coop_wall_ms, r->kills,
            r->forks, r->resizes, r->max_active, r->initial_groups, r->mm_launches, r->mm_missed, r->mm_bad,
            r->gather_med_ms, r->gather_mean_ms, r->gather_max_ms, r->exec_med_ms, r->exec_mean_ms, r->queue_med_ms,
            r->period_med_ms, r->period_mean_ms, r->check, msg);
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, err_len, "writing runs.csv: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static int parse_u(const char *s, unsigned *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    *out = (unsigned)v;
    return end == s || *end;
}

static int parse_d(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end == s || *end;
}

static int copy(char *dst, size_t len, const char *s)
{
    if (strlen(s) >= len || !*s)
        return 1;
    strcpy(dst, s);
    return 0;
}

/* 0 if the line parsed. */
static int parse_line(char *line, study_row *r)
{
    char *f[STUDY_NCOLS];
    int n = 0;
    for (char *p = line;;) {
        if (n == STUDY_NCOLS)
            return 1;
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = 0;
        p = c + 1;
    }
    if (n != STUDY_NCOLS)
        return 1;
    memset(r, 0, sizeof *r);
    unsigned u;
    int bad = copy(r->app, sizeof r->app, f[0]) | copy(r->input, sizeof r->input, f[1]) |
              copy(r->barrier, sizeof r->barrier, f[2]) | copy(r->mode, sizeof r->mode, f[3]) |
              copy(r->cls, sizeof r->cls, f[4]) | copy(r->groups_expr, sizeof r->groups_expr, f[5]);
    bad |= parse_u(f[6], &r->run) | parse_u(f[7], &r->workers) | parse_u(f[8], &r->coop_groups) |
           parse_u(f[9], &r->mm_groups) | parse_d(f[10], &r->period_ms) | parse_d(f[11], &r->target_exec_ms);
    bad |= parse_u(f[12], &u);
    r->matmul_n = (int)u;
    bad |= parse_d(f[13], &r->coop_ms) | parse_d(f[14], &r->coop_wall_ms) | parse_u(f[15], &r->kills) |
           parse_u(f[16], &r->forks) | parse_u(f[17], &r->resizes) | parse_u(f[18], &r->max_active) |
           parse_u(f[19], &r->initial_groups) | parse_u(f[20], &r->mm_launches) | parse_u(f[21], &r->mm_missed) |
           parse_u(f[22], &r->mm_bad);
    bad |= parse_d(f[23], &r->gather_med_ms) | parse_d(f[24], &r->gather_mean_ms) |
           parse_d(f[25], &r->gather_max_ms) | parse_d(f[26], &r->exec_med_ms) | parse_d(f[27], &r->exec_mean_ms) |
           parse_d(f[28], &r->queue_med_ms) | parse_d(f[29], &r->period_med_ms) | parse_d(f[30], &r->period_mean_ms);
    bad |= copy(r->check, sizeof r->check, f[31]);
    snprintf(r->message, sizeof r->message, "%s", f[32]);
    return bad;
}

int study_rows_read(const char *path, study_row **rows, size_t *n, char *err, size_t err_len)
{
    *rows = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, err_len, "reading %s: %s", path, strerror(errno));
        return -1;
    }
    char line[2048];
    size_t cap = 0, lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        size_t len = strlen(line);
        int complete = len > 0 && line[len - 1] == '\n';
        if (complete)
            line[--len] = 0;
        if (lineno == 1) {
            if (strcmp(line, STUDY_COLUMNS)) {
                snprintf(err, err_len, "%s: the header is not ckstudy's runs.csv columns", path);
                rc = -1;
                break;
            }
            continue;
        }
        if (len == 0)
            continue;
        study_row r;
        if (parse_line(line, &r)) {
            int last = fgetc(f) == EOF;
            if (last && !complete)
                break; /* torn by an interruption: dropped (the run is redone) */
            snprintf(err, err_len, "%s:%zu: malformed row", path, lineno);
            rc = -1;
            break;
        }
        if (*n == cap) {
            cap = cap ? cap * 2 : 256;
            study_row *p = realloc(*rows, cap * sizeof *p);
            if (!p) {
                snprintf(err, err_len, "out of host memory reading %s", path);
                rc = -1;
                break;
            }
            *rows = p;
        }
        (*rows)[(*n)++] = r;
    }
    fclose(f);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return rc;
}
