/* apps/common/paths.h: where the applications' OpenCL C files are found at
 * run time, reading whole files, and reading a kernel file for the
 * cooperative runtime with its includes from the kernel directory spliced in.
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
/* The kernel file at path as app_read_file gives it, but with every line
 * `#include "NAME"` that a plain build (app_cl_build: -I the include
 * directory, then -I the kernel directory; nested files also search their own
 * folder first) resolves to a file outside the include directory replaced by
 * that file's text, itself spliced, between `#line 1 "FILE"` and `#line N+1
 * "path"` directives (N: the include's line), so that messages keep each
 * file's names and lines. For ck_context_add_source: the runtime's stitcher
 * hands such #include lines to the device compiler as they are, and the
 * megakernel is built without an include path (apps/README.md). Lines
 * including files of the include directory (ck_cooperative.h, which the
 * runtime provides itself) stay. NULL with a message in err when a file
 * cannot be read or includes nest deeper than 8. */
char *app_read_kernel(const char *path, char *err, size_t err_len);

#endif
