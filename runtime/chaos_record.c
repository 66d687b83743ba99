/* runtime/chaos_record.c: chaos records on the host (chaos_record.h). A
 * record is a text file, one decision a line, sorted by key, so two records
 * of the same program diff line by line; a replay loads one back into a
 * sorted table that the device searches by key. */
#include "chaos_record.h"
#include "ck_sched_layout.h"
#include "error.h"
#include "file_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
    if (!s || !*s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int ck_cx_compare(const void *a, const void *b)
{
    const uint32_t *x = ((const ck_cx_entry *)a)->w, *y = ((const ck_cx_entry *)b)->w;
    for (int i = 0; i < 4; ++i)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

void ck_cx_format(const ck_cx_entry *e, char *buf, size_t n)
{
    const uint32_t *w = e->w;
    uint32_t kind = w[1] >> 24, group = w[1] & 0xffffffu, value = w[CK_CX_E_VALUE];
    uint32_t before = w[CK_CX_E_BEFORE], after = w[CK_CX_E_AFTER];
    int at = 0;
    if (kind == CK_CX_START) {
        at = snprintf(buf, n, "launch %u start: M %u", w[0], value);
    } else if (kind == CK_CX_BARRIER) {
        char what[32];
        if (after < before)
            snprintf(what, sizeof what, "drop %u", before - after);
        else if (after > before)
            snprintf(what, sizeof what, "fork %u", after - before);
        else
            snprintf(what, sizeof what, "keep");
        at = snprintf(buf, n, "launch %u barrier epoch %u: M %u->%u (%s)", w[0], w[3], before, after, what);
    } else if (kind == CK_CX_OFFER) {
        at = snprintf(buf, n, "launch %u group %u birth %08x offer_kill %u: %s (M %u->%u)", w[0], group, w[2], w[3],
                      value ? "accepted" : "declined", before, after);
    } else {
        at = snprintf(buf, n, "launch %u group %u birth %08x request_fork %u: fork %u (M %u->%u)", w[0], group, w[2],
                      w[3], value, before, after);
    }
    if ((w[CK_CX_E_FLAGS] & 1u) && at >= 0 && (size_t)at < n) {
        uint32_t rec = w[CK_CX_E_FLAGS] >> 1;
        if (rec == 0x7fffffffu)
            snprintf(buf + at, n - (size_t)at, " [replay diverged: not in the record]");
        else
            snprintf(buf + at, n - (size_t)at, " [replay diverged: recorded %u]", rec);
    }
}

int ck_cx_parse(const char *line, ck_cx_entry *e)
{
    unsigned a, b, c, d, v;
    char word[16];
    memset(e, 0, sizeof *e);
    uint32_t *w = e->w;
    if (sscanf(line, "launch %u start: M %u", &a, &v) == 2) {
        w[0] = a, w[1] = (CK_CX_START << 24) | CK_CX_NO_GROUP, w[CK_CX_E_VALUE] = v, w[CK_CX_E_AFTER] = v;
    } else if (sscanf(line, "launch %u barrier epoch %u: M %u->%u", &a, &b, &c, &v) == 4) {
        w[0] = a, w[1] = (CK_CX_BARRIER << 24) | CK_CX_NO_GROUP, w[3] = b;
        w[CK_CX_E_VALUE] = v, w[CK_CX_E_BEFORE] = c, w[CK_CX_E_AFTER] = v;
    } else if (sscanf(line, "launch %u group %u birth %x offer_kill %u: %15s", &a, &b, &c, &d, word) == 5) {
        w[0] = a, w[1] = (CK_CX_OFFER << 24) | (b & 0xffffffu), w[2] = c, w[3] = d;
        w[CK_CX_E_VALUE] = strcmp(word, "accepted") == 0;
    } else if (sscanf(line, "launch %u group %u birth %x request_fork %u: fork %u", &a, &b, &c, &d, &v) == 5) {
        w[0] = a, w[1] = (CK_CX_FORK << 24) | (b & 0xffffffu), w[2] = c, w[3] = d, w[CK_CX_E_VALUE] = v;
    } else {
        return -1;
    }
    const char *m = strstr(line, "(M ");
    if (m && sscanf(m, "(M %u->%u)", &a, &b) == 2)
        w[CK_CX_E_BEFORE] = a, w[CK_CX_E_AFTER] = b;
    return 0;
}

/* Loads a record into a sorted table (duplicate keys keep the first). The
 * file must be a regular file that begins with a record's header line
 * (ck chaos record, seed N); a record with no decision in it is valid and
 * replays as "decline everything". */
static ck_status load_replay(ck_chaos_state *c, uint64_t *seed)
{
    char err[512];
    FILE *f = ck_file_open_read(c->replay_path, 0, err, sizeof err);
    if (!f)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "chaos replay file (CK_CHAOS_REPLAY or chaos_replay_path): %s", err);
    ck_line_reader r;
    ck_line_reader_init(&r, f);
    size_t cap = 0;
    int header = 0;
    ck_status s = CK_OK;
    while (s == CK_OK && ck_line_next(&r) >= 0) {
        const char *line = r.line;
        if (line[0] == '#') {
            unsigned long long v;
            if (sscanf(line, "# ck chaos record, seed %llu", &v) == 1) {
                *seed = v;
                header = 1;
            }
            continue;
        }
        if (line[strspn(line, " \t")] == 0)
            continue;
        if (!header) {
            s = ck_fail(CK_ERR_INVALID_ARGUMENT,
                        "chaos replay file '%s', line %zu: a decision before the record's "
                        "header line ('# ck chaos record, seed N'): is this a chaos record?",
                        c->replay_path, r.lineno);
            break;
        }
        if (c->table_n == cap) {
            cap = cap ? 2 * cap : 256;
            ck_cx_entry *t = cap > (1u << 24) ? NULL : realloc(c->table, cap * sizeof *t);
            if (!t) {
                s = ck_fail(CK_ERR_NO_MEMORY, "chaos replay file '%s' is too large (%zu lines read)", c->replay_path,
                            r.lineno);
                break;
            }
            c->table = t;
        }
        if (ck_cx_parse(line, &c->table[c->table_n]) != 0) {
            s = ck_fail(CK_ERR_INVALID_ARGUMENT,
                        "chaos replay file '%s', line %zu: not a recorded decision: "
                        "'%.80s'",
                        c->replay_path, r.lineno, line);
            break;
        }
        c->table_n++;
    }
    if (s == CK_OK && r.error)
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "chaos replay file '%s': a read failed after line %zu", c->replay_path,
                    r.lineno);
    if (s == CK_OK && !header)
        s = ck_fail(CK_ERR_INVALID_ARGUMENT,
                    "chaos replay file '%s' has no record header ('# ck chaos record, seed "
                    "N'): it is %s, not a chaos record",
                    c->replay_path, r.lineno ? "some other file" : "empty");
    ck_line_reader_free(&r);
    fclose(f);
    if (s != CK_OK || !c->table_n)
        return s;
    qsort(c->table, c->table_n, sizeof *c->table, ck_cx_compare);
    size_t j = 0;
    for (size_t i = 0; i < c->table_n; ++i)
        if (j == 0 || ck_cx_compare(&c->table[j - 1], &c->table[i]) != 0)
            c->table[j++] = c->table[i];
    c->table_n = j;
    return CK_OK;
}

ck_status ck_chaos_init(ck_chaos_state *c, ck_context_options *o)
{
    memset(c, 0, sizeof *c);
    const char *rec = o->chaos_record_path ? o->chaos_record_path : getenv("CK_CHAOS_RECORD");
    const char *rep = o->chaos_replay_path ? o->chaos_replay_path : getenv("CK_CHAOS_REPLAY");
    if ((rec && *rec && !(c->record_path = dup_or_null(rec))) ||
        (rep && *rep && !(c->replay_path = dup_or_null(rep))))
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for the chaos paths");
    o->chaos_record_path = c->record_path;
    o->chaos_replay_path = c->replay_path;
    char err[512];
    if (c->record_path && ck_file_check_writable(c->record_path, err, sizeof err) != 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "chaos record file (CK_CHAOS_RECORD or chaos_record_path): %s", err);
    if (!c->replay_path)
        return CK_OK;
    uint64_t seed = 0;
    ck_status s = load_replay(c, &seed);
    if (s != CK_OK)
        return s;
    if (!o->chaos_seed) /* a replay is chaos mode; the seed only names the run */
        o->chaos_seed = seed ? seed : 1;
    return CK_OK;
}

/* Rewrites the record file: a temporary file beside it, renamed over it,
 * so a reader never sees half a record and a failed write leaves the last
 * whole one. */
void ck_chaos_write_record(ck_chaos_state *c, uint64_t seed)
{
    if (!c->record_path || c->write_failed)
        return;
    ck_file_writer w;
    char err[512];
    if (ck_file_writer_open(&w, c->record_path, 0, err, sizeof err) != 0) {
        c->write_failed = 1;
        fprintf(stderr, "ck: chaos record (CK_CHAOS_RECORD or chaos_record_path): %s; recording stops\n", err);
        return;
    }
    fprintf(w.f, "# ck chaos record, seed %llu: one decision a line, sorted by key\n", (unsigned long long)seed);
    if (c->device_count > c->capacity)
        fprintf(w.f, "# truncated: the device recorded %u of %u decisions; a replay declines the others\n",
                c->capacity, c->device_count);
    char line[256];
    for (size_t i = 0; i < c->rec_n; ++i) {
        ck_cx_format(&c->rec[i], line, sizeof line);
        fprintf(w.f, "%s\n", line);
    }
    if (ck_file_writer_commit(&w, err, sizeof err) != 0) {
        c->write_failed = 1;
        fprintf(stderr, "ck: chaos record: %s; recording stops\n", err);
    }
}

void ck_chaos_free(ck_chaos_state *c)
{
    free(c->record_path);
    free(c->replay_path);
    free(c->table);
    free(c->rec);
    memset(c, 0, sizeof *c);
}
