/* Files and numbers that come from users: a path is opened only once it is
 * known to be a regular file (a FIFO, a device or a directory is refused
 * with one line, before anything could block on it), a file is written
 * through a temporary file beside it and a rename (what was there stays
 * intact until the new contents are complete), lines are read whole at any
 * length, and numbers are parsed strictly (the whole text, finite, in a
 * range). Used by the runtime (chaos records, replay files, kernel sources)
 * and by the applications and tools (graph files, study tables); linked
 * into each, exported by neither's public interface.
 *
 * Errors: functions that can fail return 0 on success and -1 on failure
 * with a one-line reason (naming the path) in err[err_len]; the err buffer
 * may be NULL when err_len is 0. */
#ifndef CK_RUNTIME_FILE_IO_H
#define CK_RUNTIME_FILE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Opens `path` for reading (binary: "rb", else "r") if it is a regular file.
 * The open cannot block: a FIFO is opened without waiting for a writer and
 * refused, as are devices, sockets and directories. Returns NULL with the
 * reason in err ("'x' is a FIFO, not a regular file", "cannot open 'x': No
 * such file or directory"). */
FILE *ck_file_open_read(const char *path, int binary, char *err, size_t err_len);

/* 0 if `path` may be written: it does not exist yet, or it is a regular
 * file (through symbolic links); -1 otherwise (a FIFO, a device, a
 * directory), with the reason. Never opens the path. */
int ck_file_check_writable(const char *path, char *err, size_t err_len);

/* A file written whole or not at all: ck_file_writer_open makes a temporary
 * file in the target's folder (the target's own folder when `path` is a
 * symbolic link to a file), `f` takes the contents, ck_file_writer_commit
 * flushes, closes and renames it over the target (which keeps its mode, or
 * gets 0666 less the umask when new). Any failure before the rename leaves
 * the target as it was and removes the temporary file; so does
 * ck_file_writer_abort. */
typedef struct {
    FILE *f;
    char *target; /* the file the rename replaces */
    char *tmp;    /* the temporary file, NULL once renamed or removed */
    int mode;     /* the permissions the file gets */
} ck_file_writer;

int ck_file_writer_open(ck_file_writer *w, const char *path, int binary, char *err, size_t err_len);
/* Errors: a write that failed on the way (ferror), the flush, the close or
 * the rename (e.g. "writing 'x' failed: No space left on device"). */
int ck_file_writer_commit(ck_file_writer *w, char *err, size_t err_len);
void ck_file_writer_abort(ck_file_writer *w);

/* Whole lines of any length, numbered from 1. ck_line_next returns the
 * line's length without its newline (the line, NUL-terminated, is in
 * r->line), or -1 at the end of the file or on a read error (r->error is
 * then nonzero). ck_line_reader_free releases the buffer, not the FILE. */
typedef struct {
    FILE *f;
    char *line;
    size_t cap;
    size_t lineno;
    int error;
} ck_line_reader;

void ck_line_reader_init(ck_line_reader *r, FILE *f);
ssize_t ck_line_next(ck_line_reader *r);
void ck_line_reader_free(ck_line_reader *r);

/* Strict numbers: `s` must hold one number and nothing else but blanks
 * around it, and it must lie in [lo, hi]. ck_parse_u64 takes decimal or
 * 0x-prefixed hexadecimal digits, no sign; ck_parse_i64 decimal with an
 * optional sign; ck_parse_double a finite decimal (no nan, no inf). Each
 * returns 0, or -1 with the reason ("'abc' is not a number", "'-5' is below
 * 0", "'nan' is not a finite number") in err. */
int ck_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t err_len);
int ck_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out, char *err, size_t err_len);
int ck_parse_double(const char *s, double lo, double hi, double *out, char *err, size_t err_len);

#endif
