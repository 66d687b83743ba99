/* json_out: the tools' one JSON writer. It streams one value (an object, as
 * every tool prints) to a FILE, with the commas, the escaping of strings and
 * the layout in one place: the top object's members each on a line of their
 * own, and so the elements of its arrays of objects or arrays; everything
 * deeper on one line, with ", " and ": " between items. Numbers keep the
 * printf conversion the caller gives (so a figure keeps its decimals), and a
 * number that is not finite is written as null.
 * In an object every value takes a key; in an array the key is NULL.
 * The writer reports no errors itself: what it writes goes through f, whose
 * error state (ferror, or the caller's ck_file_writer commit) tells. */
#ifndef CK_TOOLS_JSON_OUT_H
#define CK_TOOLS_JSON_OUT_H

#include <stdio.h>

#define JSON_OUT_MAX_DEPTH 16

typedef struct json_out {
    FILE *f;
    int depth; /* containers open */
    struct {
        char close;          /* '}' or ']' */
        unsigned char any;   /* a member is written */
        unsigned char lines; /* members went on lines of their own */
    } level[JSON_OUT_MAX_DEPTH];
} json_out;

/* Starts a writer on f (nothing is written yet). */
void jo_start(json_out *j, FILE *f);
/* Opens an object or array as the value of key; jo_end closes the innermost
 * one, and the last close ends the output with a newline. Nesting deeper
 * than JSON_OUT_MAX_DEPTH aborts (a programming error). */
void jo_object(json_out *j, const char *key);
void jo_array(json_out *j, const char *key);
void jo_end(json_out *j);
/* Values. jo_str writes s escaped ('"', '\\' and control characters), NULL as null. */
void jo_str(json_out *j, const char *key, const char *s);
void jo_int(json_out *j, const char *key, long long v);
void jo_uint(json_out *j, const char *key, unsigned long long v);
/* v through the printf conversion fmt ("%.2f", "%.6g": one double); null if v is NaN or infinite. */
void jo_num(json_out *j, const char *key, const char *fmt, double v);
void jo_bool(json_out *j, const char *key, int v);
void jo_null(json_out *j, const char *key);
/* json, a complete JSON value the caller vouches for, written as it is. */
void jo_raw(json_out *j, const char *key, const char *json);

#endif
