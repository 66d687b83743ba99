/* apps/common/paths.h: where the applications' OpenCL C files are found at
 * run time, and reading whole files.
 *
 * Kernel directory, first that applies: app_set_kernel_dir() (the tools'
 * --kernels DIR), the CK_APPS_KERNELS environment variable, the source
 * directory apps/ when the executable (/proc/self/exe) lies in the build tree,
 * else the installed data folder's apps/: <bindir>/../share/coopkernels/apps
 * beside the executable when it exists (staged or moved installs), else
 * <prefix>/share/coopkernels/apps. It holds bfs/ and workstealing/ kernel
 * files and matmul.cl. The include directory for plain OpenCL builds
 * (ck_cooperative.h, ck_atomics.h): CK_INCLUDE_DIR, else the source include/
 * from the build tree, else the data folder's include/; the kernel directory
 * is searched too. */
#ifndef APPS_PATHS_H
#define APPS_PATHS_H

#include <stddef.h>

void app_set_kernel_dir(const char *dir);
const char *app_kernel_dir(void);
const char *app_include_dir(void);
/* dir/rel into buf; returns buf. */
char *app_kernel_path(const char *rel, char *buf, size_t len);
/* Whole file as a NUL-terminated malloc'd string, or NULL with a message in
 * err naming the file. */
char *app_read_file(const char *path, char *err, size_t err_len);

#endif
