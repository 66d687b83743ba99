/* apps/common/paths.c: run-time location of kernel files, whole-file
 * reading, and kernel files with their kernel-directory includes spliced in
 * for the cooperative runtime (see paths.h). */
#include "paths.h"
#include "file_io.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Set by apps/meson.build: the source folders, the build root, the installed
 * data folder and the path from the installed bindir to it ("" if none). */
#ifndef CK_APPS_KERNEL_DIR
#define CK_APPS_KERNEL_DIR "apps"
#endif
#ifndef CK_APPS_INCLUDE_DIR
#define CK_APPS_INCLUDE_DIR "include"
#endif
#ifndef CK_APPS_BUILD_ROOT
#define CK_APPS_BUILD_ROOT ""
#endif
#ifndef CK_APPS_DATA_DIR
#define CK_APPS_DATA_DIR "/usr/local/share/coopkernels"
#endif
#ifndef CK_APPS_BIN_TO_DATA
#define CK_APPS_BIN_TO_DATA ""
#endif

static const char *kernel_dir_override;

/* Decided once: the kernel and include folders when no override is given. */
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;
static char default_kernel_dir[PATH_MAX];
static char default_include_dir[PATH_MAX];

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Nonzero when the running executable lies below the build root: one of the
 * folders above it is the build root (compared by device and inode, so
 * symbolic links in either path do not matter). */
static int running_from_build_tree(const char *exe)
{
    struct stat root;
    if (!exe[0] || !CK_APPS_BUILD_ROOT[0] || stat(CK_APPS_BUILD_ROOT, &root) != 0)
        return 0;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", exe);
    char *slash;
    while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
        *slash = 0;
        struct stat st;
        if (stat(dir, &st) == 0 && st.st_dev == root.st_dev && st.st_ino == root.st_ino)
            return 1;
    }
    return 0;
}

/* The installed data folder: beside the executable (bindir/../share/coopkernels
 * for the default layout) if it is there, which also covers a staged or moved
 * install, else the configured prefix's. */
static void installed_data_dir(const char *exe, char *out, size_t len)
{
    const char *slash = strrchr(exe, '/');
    if (slash && CK_APPS_BIN_TO_DATA[0]) {
        int dir_len = (int)(slash - exe);
        char cand[PATH_MAX];
        int w = snprintf(cand, sizeof cand, "%.*s/%s", dir_len, exe, CK_APPS_BIN_TO_DATA);
        if (w > 0 && (size_t)w < sizeof cand && is_dir(cand)) {
            snprintf(out, len, "%s", cand);
            return;
        }
    }
    snprintf(out, len, "%s", CK_APPS_DATA_DIR);
}

static void decide_defaults(void)
{
    char exe[PATH_MAX] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? (size_t)n : 0] = 0;
    if (running_from_build_tree(exe)) {
        snprintf(default_kernel_dir, sizeof default_kernel_dir, "%s", CK_APPS_KERNEL_DIR);
        snprintf(default_include_dir, sizeof default_include_dir, "%s", CK_APPS_INCLUDE_DIR);
        return;
    }
    char data[PATH_MAX];
    installed_data_dir(exe, data, sizeof data);
    snprintf(default_kernel_dir, sizeof default_kernel_dir, "%.*s/apps", PATH_MAX - 8, data);
    snprintf(default_include_dir, sizeof default_include_dir, "%.*s/include", PATH_MAX - 16, data);
}

void app_set_kernel_dir(const char *dir) { kernel_dir_override = dir; }

const char *app_kernel_dir(void)
{
    if (kernel_dir_override && *kernel_dir_override)
        return kernel_dir_override;
    const char *env = getenv("CK_APPS_KERNELS");
    if (env && *env)
        return env;
    pthread_once(&defaults_once, decide_defaults);
    return default_kernel_dir;
}

const char *app_include_dir(void)
{
    const char *env = getenv("CK_INCLUDE_DIR");
    if (env && *env)
        return env;
    pthread_once(&defaults_once, decide_defaults);
    return default_include_dir;
}

char *app_kernel_path(const char *rel, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", app_kernel_dir(), rel);
    return buf;
}

char *app_read_file(const char *path, char *err, size_t err_len)
{
    /* Only a regular file: a FIFO or a device at a kernel's path is refused
     * at once instead of blocking or reading forever. */
    char why[768];
    FILE *f = ck_file_open_read(path, 1, why, sizeof why);
    if (!f) {
        snprintf(err, err_len, "kernel file: %s (set the kernel directory with --kernels DIR or CK_APPS_KERNELS)",
                 why);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (len + 1 < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, err_len, "cannot read '%s'%s", path, bad ? ": read error" : ": out of memory");
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

/* ---- app_read_kernel: kernel-directory includes spliced in */

/* Most nested includes app_read_kernel follows (a cycle stops there). */
#define APP_INCLUDE_DEPTH 8

/* `#line N "path"`, the path's backslashes and quotes escaped. */
static void put_line_directive(FILE *out, int line, const char *path)
{
    fprintf(out, "#line %d \"", line);
    for (const char *c = path; *c; ++c) {
        if (*c == '\\' || *c == '"')
            fputc('\\', out);
        fputc(*c, out);
    }
    fputs("\"\n", out);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The NAME of a line `#include "NAME"` (blanks around the '#' and after the
 * name, then at most a // comment) into name; 0 for any other line. */
static int include_name(const char *s, size_t n, char *name, size_t cap)
{
    const char *e = s + n;
    while (s < e && (*s == ' ' || *s == '\t'))
        ++s;
    if (s == e || *s++ != '#')
        return 0;
    while (s < e && (*s == ' ' || *s == '\t'))
        ++s;
    if ((size_t)(e - s) < 8 || strncmp(s, "include", 7) != 0)
        return 0;
    s += 7;
    while (s < e && (*s == ' ' || *s == '\t'))
        ++s;
    if (s == e || *s++ != '"')
        return 0;
    const char *q = memchr(s, '"', (size_t)(e - s));
    if (!q || q == s || (size_t)(q - s) >= cap)
        return 0;
    memcpy(name, s, (size_t)(q - s));
    name[q - s] = 0;
    for (++q; q < e && (*q == ' ' || *q == '\t' || *q == '\r'); ++q)
        ;
    return q == e || (e - q >= 2 && q[0] == '/' && q[1] == '/');
}

/* Appends the file at path to out with its includes spliced. */
static int splice_file(FILE *out, const char *path, int depth, char *err, size_t err_len)
{
    char *text = app_read_file(path, err, err_len);
    if (!text)
        return -1;
    int line = 1, rc = 0;
    for (const char *p = text; *p && rc == 0; ++line) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char name[512], inc[PATH_MAX + 520];
        int splice = 0;
        if (include_name(p, n, name, sizeof name)) {
            /* The device compiler's search in a plain build: the including
             * file's folder (none for the program's own source), then -I
             * the include directory, then -I the kernel directory. Files of
             * the include directory (ck_cooperative.h) stay as they are. */
            const char *slash = strrchr(path, '/');
            if (depth > 0 && slash) {
                snprintf(inc, sizeof inc, "%.*s/%s", (int)(slash - path), path, name);
                splice = is_file(inc);
            }
            if (!splice) {
                snprintf(inc, sizeof inc, "%s/%s", app_include_dir(), name);
                if (!is_file(inc)) {
                    snprintf(inc, sizeof inc, "%s/%s", app_kernel_dir(), name);
                    splice = is_file(inc);
                }
            }
        }
        if (splice && depth >= APP_INCLUDE_DEPTH) {
            snprintf(err, err_len, "%s:%d: includes nest deeper than %d (a cycle?) at '%s'", path, line,
                     APP_INCLUDE_DEPTH, name);
            rc = -1;
        } else if (splice) {
            put_line_directive(out, 1, inc);
            rc = splice_file(out, inc, depth + 1, err, err_len);
            fputc('\n', out); /* the included file may end without one */
            put_line_directive(out, line + 1, path);
        } else {
            fwrite(p, 1, n + (eol != NULL), out);
        }
        p += n + (eol != NULL);
    }
    free(text);
    return rc;
}

char *app_read_kernel(const char *path, char *err, size_t err_len)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) {
        snprintf(err, err_len, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    int rc = splice_file(out, path, 0, err, err_len);
    int failed = ferror(out);
    if (fclose(out) != 0 || failed) {
        if (rc == 0)
            snprintf(err, err_len, "cannot read '%s': out of memory", path);
        rc = -1;
    }
    if (rc) {
        free(text);
        return NULL;
    }
    return text;
}
