/* Files and numbers from users (file_io.h): regular files only, writes by
 * rename, whole lines, strict numbers. */
#define _XOPEN_SOURCE 700 /* realpath, fchmod */
#include "file_io.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int say(char *err, size_t err_len, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const char *kind_of(mode_t m)
{
    return S_ISFIFO(m)   ? "a FIFO"
           : S_ISDIR(m)  ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

FILE *ck_file_open_read(const char *path, int binary, char *err, size_t err_len)
{
    if (!path || !*path) {
        say(err, err_len, "an empty file name");
        return NULL;
    }
    /* O_NONBLOCK: opening a FIFO for reading then returns at once instead
     * of waiting for a writer; the check below refuses it. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        say(err, err_len, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        say(err, err_len, "cannot examine '%s': %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        say(err, err_len, "'%s' is %s, not a regular file", path, kind_of(st.st_mode));
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, binary ? "rb" : "r");
    if (!f) {
        say(err, err_len, "cannot read '%s': %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

int ck_file_check_writable(const char *path, char *err, size_t err_len)
{
    if (!path || !*path)
        return say(err, err_len, "an empty file name");
    struct stat st;
    if (stat(path, &st) != 0)
        return errno == ENOENT ? 0 : say(err, err_len, "cannot examine '%s': %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return say(err, err_len, "'%s' is %s, not a regular file: refusing to write it", path, kind_of(st.st_mode));
    return 0;
}

int ck_file_writer_open(ck_file_writer *w, const char *path, int binary, char *err, size_t err_len)
{
    memset(w, 0, sizeof *w);
    if (ck_file_check_writable(path, err, err_len) != 0)
        return -1;
    struct stat st;
    char *target = NULL;
    if (stat(path, &st) == 0) {
        /* Through a symbolic link the file it names is replaced, not the link. */
        target = realpath(path, NULL);
        w->mode = (int)(st.st_mode & 07777);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        w->mode = (int)(0666 & ~mask);
    }
    if (!target)
        target = strdup(path);
    if (!target)
        return say(err, err_len, "out of memory writing '%s'", path);
    size_t n = strlen(target);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        free(target);
        return say(err, err_len, "out of memory writing '%s'", path);
    }
    /* The temporary file sits in the target's folder, so the rename stays
     * on one file system. */
    snprintf(tmp, n + 16, "%s.tmp-XXXXXX", target);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        free(target);
        return say(err, err_len, "cannot write '%s' (its temporary file beside it: %s)", path, strerror(e));
    }
    w->f = fdopen(fd, binary ? "wb" : "w");
    if (!w->f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        free(target);
        return say(err, err_len, "cannot write '%s': %s", path, strerror(e));
    }
    w->target = target;
    w->tmp = tmp;
    return 0;
}

static void writer_free(ck_file_writer *w)
{
    free(w->target);
    free(w->tmp);
    memset(w, 0, sizeof *w);
}

void ck_file_writer_abort(ck_file_writer *w)
{
    if (w->f)
        fclose(w->f);
    if (w->tmp)
        unlink(w->tmp);
    writer_free(w);
}

int ck_file_writer_commit(ck_file_writer *w, char *err, size_t err_len)
{
    if (!w->f)
        return say(err, err_len, "no file is being written");
    /* A buffered write that failed before the commit left only its mark
     * (ferror); its errno is gone by now. */
    int bad = ferror(w->f) != 0;
    int e = bad ? EIO : 0;
    if (fflush(w->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && fchmod(fileno(w->f), (mode_t)w->mode) != 0) {
        bad = 1;
        e = errno;
    }
    if (fclose(w->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    w->f = NULL;
    if (!bad && rename(w->tmp, w->target) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        say(err, err_len, "writing '%s' failed: %s; the file was left as it was", w->target, strerror(e));
        unlink(w->tmp);
        writer_free(w);
        return -1;
    }
    writer_free(w);
    return 0;
}

void ck_line_reader_init(ck_line_reader *r, FILE *f)
{
    memset(r, 0, sizeof *r);
    r->f = f;
}

ssize_t ck_line_next(ck_line_reader *r)
{
    ssize_t n = getline(&r->line, &r->cap, r->f);
    if (n < 0) {
        r->error = ferror(r->f) != 0;
        return -1;
    }
    r->lineno++;
    while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
        r->line[--n] = 0;
    return n;
}

void ck_line_reader_free(ck_line_reader *r)
{
    free(r->line);
    r->line = NULL;
    r->cap = 0;
}

/* The text between leading and trailing blanks, for messages and checks. */
static const char *skip_blanks(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        ++s;
    return s;
}

static int only_blanks(const char *s) { return *skip_blanks(s) == 0; }

int ck_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t err_len)
{
    if (!s)
        return say(err, err_len, "no number given");
    const char *p = skip_blanks(s);
    if (*p == '-' || *p == '+' || !isxdigit((unsigned char)*p))
        return *p == '-' ? say(err, err_len, "'%s' is below %llu", s, (unsigned long long)lo)
                         : say(err, err_len, "'%s' is not a whole number", s);
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10);
    if (end == p || !only_blanks(end))
        return say(err, err_len, "'%s' is not a whole number", s);
    if (errno == ERANGE || v > hi)
        return say(err, err_len, "'%s' is above %llu", s, (unsigned long long)hi);
    if (v < lo)
        return say(err, err_len, "'%s' is below %llu", s, (unsigned long long)lo);
    *out = v;
    return 0;
}

int ck_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out, char *err, size_t err_len)
{
    if (!s)
        return say(err, err_len, "no number given");
    const char *p = skip_blanks(s);
    const char *digits = (*p == '-' || *p == '+') ? p + 1 : p;
    if (!isdigit((unsigned char)*digits))
        return say(err, err_len, "'%s' is not a whole number", s);
    errno = 0;
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || !only_blanks(end))
        return say(err, err_len, "'%s' is not a whole number", s);
    if ((errno == ERANGE && v > 0) || v > hi)
        return say(err, err_len, "'%s' is above %lld", s, (long long)hi);
    if (errno == ERANGE || v < lo)
        return say(err, err_len, "'%s' is below %lld", s, (long long)lo);
    *out = v;
    return 0;
}

int ck_parse_double(const char *s, double lo, double hi, double *out, char *err, size_t err_len)
{
    if (!s)
        return say(err, err_len, "no number given");
    const char *p = skip_blanks(s);
    /* Decimal only: strtod would also take hexadecimal ("0x10") */
    const char *digits = (*p == '-' || *p == '+') ? p + 1 : p;
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        return say(err, err_len, "'%s' is not a decimal number", s);
    errno = 0;
    char *end;
    double v = strtod(p, &end);
    if (end == p || !only_blanks(end))
        return say(err, err_len, "'%s' is not a number", s);
    if (!isfinite(v))
        return say(err, err_len, "'%s' is not a finite number", s);
    if (v < lo)
        return say(err, err_len, "'%s' is below %g", s, lo);
    if (v > hi)
        return say(err, err_len, "'%s' is above %g", s, hi);
    *out = v;
    return 0;
}
