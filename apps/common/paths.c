/* apps/common/paths.c: run-time location of kernel files and whole-file
 * reading (see paths.h). */
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
