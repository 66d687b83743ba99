/* Building device programs: the embedded device layers followed by a caller's
 * source, compiled with the options of the device's path. */
#ifndef CK_RUNTIME_PROGRAM_H
#define CK_RUNTIME_PROGRAM_H

#include "device_internal.h"

/* Compiles: channel layout, atomics layer, channel, discovery (the foundation
 * layers, in that order), then each of `extra_embedded` (names of embedded
 * files, may be NULL), then `source` (may be NULL) named `source_name` in
 * messages. Options: -cl-std for the path, -DCK_PATH_CL20 or -DCK_PATH_CL12,
 * plus `options` (may be NULL). On NVIDIA's 1.2 path it first tries PTX
 * fences and falls back to mem_fence if the compiler refuses them.
 * Errors: CK_ERR_BUILD (message holds the start of the build log; the whole
 * log is written to the file named by CK_BUILD_LOG if that is set),
 * CK_ERR_OPENCL, CK_ERR_NO_MEMORY. */
ck_status ck_program_build(ck_device *dev, const char *const *extra_embedded, const char *source,
                           const char *source_name, const char *options, cl_program *out);

/* Compiles the given source parts in order, with the path's options plus
 * `options` (same NVIDIA PTX-fence fallback and errors as above). */
ck_status ck_program_build_parts(ck_device *dev, const char **parts, unsigned n, const char *options,
                                 cl_program *out);
/* CK_OK if `extra` (CK_BUILD_OPTIONS, any length, NULL allowed) sets none
 * of the runtime's own macros: -DCK_..., -UCK_..., -D CK_... and -U CK_...
 * are refused with CK_ERR_INVALID_ARGUMENT naming the word (they would
 * override what the runtime builds for, e.g. -DCK_TASKS_BUILD=0 makes every
 * task wait forever). */
ck_status ck_build_options_check(const char *extra);
/* The build log of a built program (malloc'ed, "" if the compiler wrote
 * none), or NULL if the log cannot be read or memory is short. */
char *ck_program_build_log(ck_device *dev, cl_program p);
/* Names of the foundation layers, NULL-terminated, in build order. */
const char *const *ck_program_foundation(void);

/* Creates kernel `name` of a built program. Errors: CK_ERR_OPENCL. */
ck_status ck_kernel_create(cl_program prog, const char *name, cl_kernel *out);

#endif
