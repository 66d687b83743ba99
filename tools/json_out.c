/* json_out: the tools' one JSON writer (see json_out.h). */
#include "json_out.h"

#include <math.h>
#include <stdlib.h>

void jo_start(json_out *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
}

static void write_string(FILE *f, const char *s)
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

/* The separator and key before a value; `container` is 1 for an object or array. */
static void begin_value(json_out *j, const char *key, int container)
{
    if (j->depth > 0) {
        int d = j->depth;
        int own_line = d == 1 || (d == 2 && container && j->level[1].close == ']' && j->level[0].close == '}');
        if (j->level[d - 1].any)
            fputc(',', j->f);
        if (own_line) {
            fprintf(j->f, "\n%*s", 2 * d, "");
            j->level[d - 1].lines = 1;
        } else if (j->level[d - 1].any)
            fputc(' ', j->f);
        j->level[d - 1].any = 1;
    }
    if (key) {
        write_string(j->f, key);
        fputs(": ", j->f);
    }
}

static void open_container(json_out *j, const char *key, char open, char close)
{
    if (j->depth >= JSON_OUT_MAX_DEPTH) {
        fprintf(stderr, "json_out: JSON nested deeper than %d levels (a bug in the tool)\n", JSON_OUT_MAX_DEPTH);
        abort();
    }
    begin_value(j, key, 1);
    fputc(open, j->f);
    j->level[j->depth].close = close;
    j->level[j->depth].any = 0;
    j->level[j->depth].lines = 0;
    ++j->depth;
}

void jo_object(json_out *j, const char *key) { open_container(j, key, '{', '}'); }
void jo_array(json_out *j, const char *key) { open_container(j, key, '[', ']'); }

void jo_end(json_out *j)
{
    if (j->depth == 0)
        return;
    --j->depth;
    if (j->level[j->depth].lines)
        fprintf(j->f, "\n%*s", 2 * j->depth, "");
    fputc(j->level[j->depth].close, j->f);
    if (j->depth == 0)
        fputc('\n', j->f);
}

void jo_str(json_out *j, const char *key, const char *s)
{
    begin_value(j, key, 0);
    if (s)
        write_string(j->f, s);
    else
        fputs("null", j->f);
}

void jo_int(json_out *j, const char *key, long long v)
{
    begin_value(j, key, 0);
    fprintf(j->f, "%lld", v);
}

void jo_uint(json_out *j, const char *key, unsigned long long v)
{
    begin_value(j, key, 0);
    fprintf(j->f, "%llu", v);
}

void jo_num(json_out *j, const char *key, const char *fmt, double v)
{
    begin_value(j, key, 0);
    if (isfinite(v))
        fprintf(j->f, fmt, v);
    else
        fputs("null", j->f);
}

void jo_bool(json_out *j, const char *key, int v)
{
    begin_value(j, key, 0);
    fputs(v ? "true" : "false", j->f);
}

void jo_null(json_out *j, const char *key)
{
    begin_value(j, key, 0);
    fputs("null", j->f);
}

void jo_raw(json_out *j, const char *key, const char *json)
{
    begin_value(j, key, 0);
    fputs(json, j->f);
}
