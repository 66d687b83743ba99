/* apps/common/paths.c: run-time location of kernel files and whole-file
 * reading (see paths.h). */
#include "paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CK_APPS_KERNEL_DIR
#define CK_APPS_KERNEL_DIR "apps"
#endif
#ifndef CK_APPS_INCLUDE_DIR
#define CK_APPS_INCLUDE_DIR "include"
#endif

static const char *kernel_dir_override;

void app_set_kernel_dir(const char *dir) { kernel_dir_override = dir; }

const char *app_kernel_dir(void)
{
    if (kernel_dir_override && *kernel_dir_override)
        return kernel_dir_override;
    const char *env = getenv("CK_APPS_KERNELS");
    if (env && *env)
        return env;
    return CK_APPS_KERNEL_DIR;
}

const char *app_include_dir(void)
{
    const char *env = getenv("CK_INCLUDE_DIR");
    if (env && *env)
        return env;
    return CK_APPS_INCLUDE_DIR;
}

char *app_kernel_path(const char *rel, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", app_kernel_dir(), rel);
    return buf;
}

char *app_read_file(const char *path, char *err, size_t err_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_len, "cannot open '%s': %s (set the kernel directory with --kernels DIR or CK_APPS_KERNELS)",
                 path, strerror(errno));
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
