/* apps/common/graph_text.h (internal to the graph readers): what every reader
 * shares: one-line error messages, a text file opened only when it is a
 * regular file (file_io.h: a FIFO, a folder or a device is refused without
 * blocking) and read line by line with ck_line_reader (lines of any length,
 * so line numbers stay exact) that knows its line number and its size in
 * bytes, strict number parsing, and the rule that bounds what a file may
 * claim: a claimed node count above APP_NODES_PER_BYTE times the file's
 * size is refused before anything is allocated for it. */
#ifndef APPS_GRAPH_TEXT_H
#define APPS_GRAPH_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "file_io.h"

/* Largest node count of any graph (graph.h). */
#define APP_MAX_NODES (1ll << 30)
/* A file of B bytes may claim at most APP_NODES_PER_BYTE * B nodes (nodes
 * without edges take no bytes in most formats, but 4 bytes each in the CSR). */
#define APP_NODES_PER_BYTE 8

/* Writes the message into err (when err_len > 0); returns -1. */
int app_graph_fail(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

typedef struct {
    const char *path;
    FILE *f;
    ck_line_reader lines; /* whole lines of any length (file_io.h)        */
    char *line;           /* the current line, without its "\n" or "\r\n"      */
    size_t len;
    long lineno;   /* 1-based number of the current line */
    uint64_t size; /* the file's size in bytes */
    char *err;
    size_t err_len;
} app_text;

/* Opens path for reading line by line. `what` names the format in the
 * messages ("DIMACS graph: 'g.gr' is a FIFO, not a regular file"). Errors
 * (-1, message in err): cannot open, not a regular file, empty file. */
int app_text_open(app_text *t, const char *path, const char *what, char *err, size_t err_len);
/* Reads the next line (ck_line_next): 1 read, 0 end of file, -1 read error
 * or a NUL byte in the line (message set). */
int app_text_next(app_text *t);
void app_text_close(app_text *t);
/* "path:line: message" into t->err; returns -1. */
int app_text_fail(app_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Skips blanks (space, tab). */
const char *app_skip_blanks(const char *p);
/* Whether p holds only blanks. */
int app_is_blank(const char *p);
/* Parses an unsigned decimal integer at *p after blanks, advancing *p; it
 * must end at a blank or the end of the line. 0 ok, -1 no number there or
 * a number glued to other text, -2 above max. */
int app_parse_uint(const char **p, uint64_t max, uint64_t *out);
/* The next word of p (after blanks, up to a blank or the end of the line)
 * into buf (len > 4), NUL-terminated; returns the text after it. A word too
 * long for buf is cut and ends in "...", which no number parser accepts. */
const char *app_text_word(const char *p, char *buf, size_t len);
/* Parses the edge weight at *p (after blanks): the whole word must be a
 * decimal integer 1..2^31-1; advances *p past it. -1 with "path:line: <what>
 * '<word>' is not an integer 1..2147483647<hint>" in t's message (hint may
 * be ""). The caller first checks that there is a word (app_is_blank). */
int app_text_weight(app_text *t, const char **p, const char *what, const char *hint, int32_t *w);
/* Whether a file of `size` bytes can back `nodes` nodes (see above). */
int app_nodes_backed(uint64_t nodes, uint64_t size);

#endif
