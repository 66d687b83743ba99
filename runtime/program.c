/* Device program builds with readable build logs. */
#include "program.h"
#include "file_io.h"
#include "device_sources.h"
#include "error.h"

#include <stdatomic.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ck_embedded_source_text(const char *name)
{
    for (const ck_embedded_source *s = ck_embedded_sources; s->name; ++s)
        if (!strcmp(s->name, name))
            return s->text;
    return NULL;
}

static const char *const foundation[] = {
    "ck_channel_layout.h", "ck_atomics.h", "ck_channel.cl", "ck_discovery.cl", NULL,
};

/* Writes the device binary (PTX on NVIDIA) to path, for inspection. Best
 * effort. A path with "%u" in it gets the build's number in this process
 * there (0, 1, ...), so a tool that builds several programs (ckbench builds
 * a megakernel with tasks and one without) leaves each of them. */
static void dump_binary(cl_program p, const char *path)
{
    static atomic_uint builds; /* programs built in this process (any thread) */
    size_t size = 0;
    unsigned n = atomic_fetch_add(&builds, 1u);
    if (!path || clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size)
        return;
    char name[4096];
    const char *mark = strstr(path, "%u");
    if (mark && !strstr(mark + 2, "%") && strlen(path) < sizeof name - 16)
        snprintf(name, sizeof name, "%.*s%u%s", (int)(mark - path), path, n, mark + 2);
    else
        snprintf(name, sizeof name, "%s", path);
    unsigned char *bin = malloc(size);
    ck_file_writer w;
    char err[512];
    if (!bin || clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
        free(bin);
        return;
    }
    if (ck_file_writer_open(&w, name, 1, err, sizeof err) != 0 ||
        (fwrite(bin, 1, size, w.f), ck_file_writer_commit(&w, err, sizeof err) != 0))
        fprintf(stderr, "ck: CK_DUMP_BINARY: %s\n", err);
    free(bin);
}

/* Writes a build log to `path` (CK_BUILD_LOG); 0 if it was written. */
static int write_log(const char *path, const char *log)
{
    ck_file_writer w;
    char err[512];
    if (ck_file_writer_open(&w, path, 0, err, sizeof err) == 0) {
        fputs(log, w.f);
        if (ck_file_writer_commit(&w, err, sizeof err) == 0)
            return 0;
    }
    fprintf(stderr, "ck: CK_BUILD_LOG: %s\n", err);
    return -1;
}

char *ck_program_build_log(ck_device *dev, cl_program p)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(p, dev->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS)
        return NULL;
    char *log = calloc(1, len + 1);
    if (log && clGetProgramBuildInfo(p, dev->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) != CL_SUCCESS) {
        free(log);
        return NULL;
    }
    return log;
}

static ck_status try_build(ck_device *dev, const char **parts, cl_uint n, const char *opts, cl_program *out,
                           int quiet)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(dev->context, n, parts, NULL, &err);
    if (!p)
        return ck_fail_cl(err, "clCreateProgramWithSource", "");
    err = clBuildProgram(p, 1, &dev->device, opts, NULL, NULL);
    if (err == CL_SUCCESS) {
        dump_binary(p, getenv("CK_DUMP_BINARY"));
        *out = p;
        return CK_OK;
    }
    if (quiet) {
        clReleaseProgram(p);
        return CK_ERR_BUILD;
    }
    char *log = ck_program_build_log(dev, p);
    const char *path = getenv("CK_BUILD_LOG");
    int logged = path && *path && log && write_log(path, log) == 0;
    ck_status s = ck_fail(CK_ERR_BUILD, "device program did not compile (%s, options '%s'); build log%s:\n%.3000s",
                          ck_cl_error_name(err), opts,
                          logged ? " (whole log in $CK_BUILD_LOG)" : " (set CK_BUILD_LOG=file for all of it)",
                          log ? log : "(unavailable)");
    free(log);
    clReleaseProgram(p);
    return s;
}

/* Switches of ck_cooperative.h that a kernel author may set (they choose
 * between forms of the header's calls for measurement, and mean the same in
 * the megakernel and in a plain build): not the runtime's own macros. */
static const char *const author_switches[] = {"CK_MUTEX_HANDWRITTEN_PTX", "CK_PLAIN_BARRIER_FENCED"};

/* 1 if the macro name at w (n characters, up to an '=') is an author switch. */
static int author_switch(const char *w, size_t n)
{
    size_t len = 0;
    while (len < n && w[len] != '=')
        ++len;
    for (size_t i = 0; i < sizeof author_switches / sizeof *author_switches; ++i)
        if (strlen(author_switches[i]) == len && !strncmp(w, author_switches[i], len))
            return 1;
    return 0;
}

ck_status ck_build_options_check(const char *extra)
{
    if (!extra)
        return CK_OK;
    /* Word by word: -DCK_..., -UCK_..., and -D or -U followed by CK_...,
     * except the header's author switches. */
    const char *p = extra;
    int define_next = 0;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            ++p;
        const char *w = p;
        while (*p && !isspace((unsigned char)*p))
            ++p;
        size_t n = (size_t)(p - w);
        if (!n)
            break;
        int bad = (n > 4 && (!strncmp(w, "-DCK_", 5) || !strncmp(w, "-UCK_", 5)) && !author_switch(w + 2, n - 2)) ||
                  (define_next && n >= 3 && !strncmp(w, "CK_", 3) && !author_switch(w, n));
        if (bad)
            return ck_fail(CK_ERR_INVALID_ARGUMENT,
                           "CK_BUILD_OPTIONS: '%.*s' sets one of the runtime's own macros "
                           "(CK_...), which the runtime defines for itself and which must not be overridden; remove "
                           "it",
                           (int)(n > 80 ? 80 : n), w);
        define_next = n == 2 && (!strncmp(w, "-D", 2) || !strncmp(w, "-U", 2));
    }
    return CK_OK;
}

/* "a b c" of the parts that are not empty, malloc'd (NULL: out of memory). */
static char *join_options(const char *a, const char *b, const char *c, const char *d)
{
    const char *v[4] = {a, b, c, d};
    size_t len = 1;
    for (int i = 0; i < 4; ++i)
        len += v[i] ? strlen(v[i]) + 1 : 0;
    char *out = malloc(len);
    if (!out)
        return NULL;
    size_t at = 0;
    for (int i = 0; i < 4; ++i) {
        if (!v[i] || !*v[i])
            continue;
        if (at)
            out[at++] = ' ';
        size_t k = strlen(v[i]);
        memcpy(out + at, v[i], k);
        at += k;
    }
    out[at] = 0;
    return out;
}

ck_status ck_program_build_parts(ck_device *dev, const char **parts, unsigned n, const char *options,
                                 cl_program *out)
{
    for (unsigned i = 0; i < n; ++i)
        if (!parts[i])
            return ck_fail(CK_ERR_BUILD, "internal: a device source is missing from the library");
    const ck_device_info *in = &dev->info;
    /* CK_BUILD_OPTIONS: extra device compiler options for every program the
     * runtime builds (e.g. -cl-nv-maxrregcount=32 on NVIDIA), of any
     * length; the runtime's own macros stay the runtime's. */
    const char *extra = getenv("CK_BUILD_OPTIONS");
    ck_status bad = ck_build_options_check(extra);
    if (bad != CK_OK)
        return bad;
    int nv12 = in->path == CK_PATH_CL12 && strstr(in->platform_name, "NVIDIA");
    char head[128];
    snprintf(head, sizeof head, "-cl-std=%s -DCK_PATH_%s%s", in->opencl_c_std,
             in->path == CK_PATH_CL20 ? "CL20" : "CL12", nv12 ? " -DCK_NV_PTX_FENCES" : "");
    char *opts = join_options(head, options, extra, NULL);
    if (!opts)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for the build options");
    if (nv12) {
        if (try_build(dev, parts, n, opts, out, 1) == CK_OK) {
            dev->info.nv_ptx_fences = 1;
            free(opts);
            return CK_OK;
        }
        free(opts);
        snprintf(head, sizeof head, "-cl-std=%s -DCK_PATH_CL12 -DCK_NO_PTX_FENCES", in->opencl_c_std);
        if (!(opts = join_options(head, options, extra, NULL)))
            return ck_fail(CK_ERR_NO_MEMORY, "out of host memory for the build options");
        dev->info.nv_ptx_fences = 0;
    }
    ck_status s = try_build(dev, parts, n, opts, out, 0);
    free(opts);
    return s;
}

const char *const *ck_program_foundation(void) { return foundation; }

ck_status ck_program_build(ck_device *dev, const char *const *extra_embedded, const char *source,
                           const char *source_name, const char *options, cl_program *out)
{
    const char *parts[64];
    unsigned n = 0;
    for (const char *const *f = foundation; *f; ++f)
        parts[n++] = ck_embedded_source_text(*f);
    for (const char *const *f = extra_embedded; f && *f && n < 60; ++f) {
        const char *t = ck_embedded_source_text(*f);
        if (!t)
            return ck_fail(CK_ERR_BUILD, "internal: no embedded device source named '%s'", *f);
        parts[n++] = t;
    }
    char line[512];
    if (source) {
        snprintf(line, sizeof line, "\n#line 1 \"%s\"\n", source_name ? source_name : "source");
        parts[n++] = line;
        parts[n++] = source;
    }
    return ck_program_build_parts(dev, parts, n, options, out);
}

ck_status ck_kernel_create(cl_program prog, const char *name, cl_kernel *out)
{
    cl_int err;
    *out = clCreateKernel(prog, name, &err);
    if (!*out) {
        char what[160];
        snprintf(what, sizeof what, "clCreateKernel(%s)", name);
        return ck_fail_cl(err, what, "");
    }
    return CK_OK;
}
