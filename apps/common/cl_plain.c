/* apps/common/cl_plain.c: raw OpenCL device opening, cached program builds,
 * persistent launches with their host and device times, and buffers for the
 * plain baselines (see cl_plain.h). */
#include "cl_plain.h"
#include "paths.h"
#include "timer.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *app_cl_errstr(cl_int e)
{
    /* clang-format would read the macro's case labels as one statement: the switch stays as written. */
    /* clang-format off */
    switch (e) {
#define E(x) case x: return #x;
        E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
        E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
        E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
        E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
        E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION)
        E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET)
        E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_BUFFER_SIZE)
        E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PLATFORM) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef E
    default:
        return "unknown OpenCL error";
    }
    /* clang-format on */
}

int app_cl_fail(cl_int e, const char *what, char *err, size_t err_len)
{
    snprintf(err, err_len, "%s failed: %s (%d)", what, app_cl_errstr(e), (int)e);
    return -1;
}

/* How long a wait spins before it starts napping, ms. */
#define APP_CL_SPIN_MS 5.0

int app_cl_wait_event(app_cl *c, cl_event ev, double deadline_ms, const char *what, char *err, size_t err_len)
{
    char w[160];
    cl_int e = clFlush(c->queue);
    if (e != CL_SUCCESS) {
        snprintf(w, sizeof w, "clFlush (before waiting for %s)", what);
        return app_cl_fail(e, w, err, err_len);
    }
    /* Spin (yielding the core) for the first APP_CL_SPIN_MS, then nap with
     * naps growing to 0.1 ms. The spin matters: a BFS level or an empty launch takes
     * tens of microseconds, and even a 20 us nap per wait made the plain
     * multi-launch BFS 4x and ckbench's plain launch round trip 8x slower on
     * the H100 than clFinish (measured); the naps only serve long waits. */
    double start = app_now_ms(), nap_ms = 0.025;
    for (;;) {
        cl_int st = CL_QUEUED;
        e = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        if (e != CL_SUCCESS) {
            snprintf(w, sizeof w, "clGetEventInfo (status of %s)", what);
            return app_cl_fail(e, w, err, err_len);
        }
        if (st == CL_COMPLETE)
            return 0;
        if (st < 0) {
            snprintf(w, sizeof w, "%s (the command ended with an error)", what);
            return app_cl_fail(st, w, err, err_len);
        }
        double now = app_now_ms();
        if (now >= deadline_ms) {
            c->stuck = 1;
            snprintf(err, err_len,
                     "%s did not finish within the timeout (waited %.3f s for it; a persistent kernel with more "
                     "work-groups than are co-resident never finishes): raise the timeout if the work is just long",
                     what, (now - start) / 1e3);
            return -1;
        }
        if (now - start < APP_CL_SPIN_MS) {
            sched_yield();
            continue;
        }
        double until = now + nap_ms;
        app_sleep_until_ms(until < deadline_ms ? until : deadline_ms);
        if (nap_ms < 0.1) /* naps stay short: the end of a timed run is seen within 0.1 ms */
            nap_ms *= 2;
    }
}

int app_cl_finish(app_cl *c, double deadline_ms, const char *what, char *err, size_t err_len)
{
    cl_event ev;
    char w[160];
    cl_int e = clEnqueueMarkerWithWaitList(c->queue, 0, NULL, &ev);
    if (e != CL_SUCCESS) {
        snprintf(w, sizeof w, "clEnqueueMarkerWithWaitList (%s)", what);
        return app_cl_fail(e, w, err, err_len);
    }
    int rc = app_cl_wait_event(c, ev, deadline_ms, what, err, err_len);
    clReleaseEvent(ev);
    return rc;
}

/* Finds the raw platform/device whose names equal the runtime's choice. */
static int find_device(const ck_device_info *info, app_cl *out, char *err, size_t err_len)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(16, plats, &np);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clGetPlatformIDs", err, err_len);
    for (cl_uint p = 0; p < np && p < 16; ++p) {
        char pname[128] = "";
        if (clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL) != CL_SUCCESS)
            continue;
        if (strcmp(pname, info->platform_name) != 0)
            continue;
        cl_device_id devs[64];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 64; ++d) {
            char dname[128] = "";
            if (clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dname, dname, NULL) != CL_SUCCESS)
                continue;
            if (strcmp(dname, info->device_name) == 0) {
                out->platform = plats[p];
                out->device = devs[d];
                return 0;
            }
        }
    }
    snprintf(err, err_len, "raw OpenCL: no device named '%s / %s' (the runtime's choice)", info->platform_name,
             info->device_name);
    return -1;
}

int app_cl_open(app_cl_request *req, app_cl *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    ck_device *dev = NULL;
    if (ck_device_open(&req->device, &dev) != CK_OK) {
        snprintf(err, err_len, "opening the device: %s", ck_last_error());
        return -1;
    }
    const ck_device_info *info = ck_device_get_info(dev);
    ck_device_info copy = *info;
    if (req->want_occupancy) {
        ck_occupancy_options o;
        memset(&o, 0, sizeof o);
        o.work_group_size = req->work_group_size ? req->work_group_size : 64;
        o.barrier_rounds = 2;
        ck_occupancy_result r;
        if (ck_occupancy_discover(dev, &o, &r) != CK_OK) {
            snprintf(err, err_len, "discovering occupancy: %s", ck_last_error());
            ck_device_close(dev);
            return -1;
        }
        req->occupancy = r.occupancy;
    }
    ck_device_close(dev);
    if (find_device(&copy, out, err, err_len))
        return -1;
    snprintf(out->cl_std, sizeof out->cl_std, "%s", copy.opencl_c_std);
    snprintf(out->name, sizeof out->name, "%s / %s", copy.platform_name, copy.device_name);
    out->path = copy.path;
    out->is_cpu = copy.is_cpu;
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)out->platform, 0};
    out->context = clCreateContext(props, 1, &out->device, NULL, NULL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateContext (plain baseline)", err, err_len);
    /* Profiling on: a persistent launch's device time comes from its event. */
    cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    out->queue = clCreateCommandQueueWithProperties(out->context, out->device, req->profiling ? qprops : NULL, &e);
    if (e != CL_SUCCESS) {
        app_cl_close(out);
        return app_cl_fail(e, "clCreateCommandQueueWithProperties (plain baseline)", err, err_len);
    }
    return 0;
}

void app_cl_close(app_cl *c)
{
    if (!c)
        return;
    int stuck = c->stuck; /* then leave the objects: releasing could wait for the running kernel */
    for (size_t i = 0; i < c->n_programs; ++i) {
        if (!stuck)
            clReleaseProgram(c->programs[i].program);
        free(c->programs[i].key);
    }
    if (stuck) {
        free(c->held);
        memset(c, 0, sizeof *c);
        return;
    }
    for (size_t i = 0; i < c->n_held; ++i)
        clReleaseMemObject(c->held[i]);
    free(c->held);
    if (c->queue)
        clReleaseCommandQueue(c->queue);
    if (c->context)
        clReleaseContext(c->context);
    memset(c, 0, sizeof *c);
}

/* The cache key of (rel, extra_options); NULL when out of host memory. */
static char *program_key(const char *rel, const char *extra_options)
{
    const char *x = extra_options ? extra_options : "";
    size_t n = strlen(rel) + strlen(x) + 2;
    char *k = malloc(n);
    if (k)
        snprintf(k, n, "%s\n%s", rel, x);
    return k;
}

/* Compiles rel with extra_options into a program of c (no cache). */
static int build_program(app_cl *c, const char *rel, const char *extra_options, cl_program *out, char *err,
                         size_t err_len);

int app_cl_build(app_cl *c, const char *rel, const char *extra_options, cl_program *out, char *err, size_t err_len)
{
    *out = NULL;
    char *key = program_key(rel, extra_options);
    if (!key) {
        snprintf(err, err_len, "out of host memory building %s", rel);
        return -1;
    }
    for (size_t i = 0; i < c->n_programs; ++i)
        if (!strcmp(c->programs[i].key, key)) {
            free(key);
            cl_int e = clRetainProgram(c->programs[i].program);
            if (e != CL_SUCCESS)
                return app_cl_fail(e, "clRetainProgram (a cached plain program)", err, err_len);
            *out = c->programs[i].program;
            return 0;
        }
    cl_program p;
    if (build_program(c, rel, extra_options, &p, err, err_len)) {
        free(key);
        return -1;
    }
    if (c->n_programs == APP_CL_MAX_PROGRAMS) { /* full: the caller's reference is the only one */
        free(key);
        *out = p;
        return 0;
    }
    cl_int e = clRetainProgram(p); /* one for the cache, one for the caller */
    if (e != CL_SUCCESS) {
        free(key);
        clReleaseProgram(p);
        return app_cl_fail(e, "clRetainProgram (caching a plain program)", err, err_len);
    }
    c->programs[c->n_programs].key = key;
    c->programs[c->n_programs].program = p;
    c->n_programs++;
    *out = p;
    return 0;
}

static int build_program(app_cl *c, const char *rel, const char *extra_options, cl_program *out, char *err,
                         size_t err_len)
{
    *out = NULL;
    char path[1024];
    app_kernel_path(rel, path, sizeof path);
    char *src = app_read_file(path, err, err_len);
    if (!src)
        return -1;
    /* Built as a kernel author would build it: the include directory and the
     * OpenCL C version, nothing else. ck_atomics.h picks the atomics path and
     * NVIDIA's fences from the compiler's own macros. CK_BUILD_OPTIONS, the
     * extra options the runtime gives the megakernel, go to the plain
     * programs too: both forms of a comparison compile with the same
     * options. */
    const char *env = getenv("CK_BUILD_OPTIONS");
    char opts[2048];
    int len = snprintf(opts, sizeof opts, "-cl-std=%s -I %s -I %s %s %s", c->cl_std[0] ? c->cl_std : "CL1.2",
                       app_include_dir(), app_kernel_dir(), extra_options ? extra_options : "", env ? env : "");
    if (len < 0 || (size_t)len >= sizeof opts) {
        snprintf(err, err_len, "building %s: the build options (with CK_BUILD_OPTIONS) pass %zu characters", path,
                 sizeof opts - 1);
        free(src);
        return -1;
    }
    cl_int e;
    const char *srcs[] = {src};
    cl_program p = clCreateProgramWithSource(c->context, 1, srcs, NULL, &e);
    free(src);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateProgramWithSource", err, err_len);
    e = clBuildProgram(p, 1, &c->device, opts, NULL, NULL);
    if (e != CL_SUCCESS) {
        size_t n = 0;
        char *log = NULL;
        if (clGetProgramBuildInfo(p, c->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) == CL_SUCCESS && n > 0 &&
            (log = calloc(n + 1, 1)) != NULL)
            clGetProgramBuildInfo(p, c->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
        snprintf(err, err_len, "building %s with '%s' failed: %s (%d): %s", path, opts, app_cl_errstr(e), (int)e,
                 log ? log : "(no build log)");
        free(log);
        clReleaseProgram(p);
        return -1;
    }
    *out = p;
    return 0;
}

int app_cl_buffer(app_cl *c, size_t bytes, const void *init, cl_mem *out, const char *what, char *err,
                  size_t err_len)
{
    cl_int e;
    char w[128];
    size_t size = bytes ? bytes : 4;
    *out = clCreateBuffer(c->context, CL_MEM_READ_WRITE, size, NULL, &e);
    if (e != CL_SUCCESS) {
        snprintf(w, sizeof w, "clCreateBuffer (%s, %zu bytes)", what, bytes);
        return app_cl_fail(e, w, err, err_len);
    }
    cl_uint zero = 0;
    if (init && bytes)
        e = clEnqueueWriteBuffer(c->queue, *out, CL_TRUE, 0, bytes, init, 0, NULL, NULL);
    else if ((e = clEnqueueFillBuffer(c->queue, *out, &zero, sizeof zero, 0, size & ~(size_t)3, 0, NULL, NULL)) ==
             CL_SUCCESS)
        e = clFinish(c->queue);
    if (e != CL_SUCCESS) {
        clReleaseMemObject(*out);
        *out = NULL;
        snprintf(w, sizeof w, "uploading %s (%zu bytes)", what, bytes);
        return app_cl_fail(e, w, err, err_len);
    }
    if (c->n_held == c->cap_held) {
        size_t cap = c->cap_held ? 2 * c->cap_held : 16;
        cl_mem *h = realloc(c->held, cap * sizeof *h);
        if (!h) {
            clReleaseMemObject(*out);
            *out = NULL;
            snprintf(err, err_len, "out of host memory keeping track of %s", what);
            return -1;
        }
        c->held = h;
        c->cap_held = cap;
    }
    c->held[c->n_held++] = *out;
    return 0;
}

size_t app_cl_held_mark(const app_cl *c) { return c->n_held; }

void app_cl_release_since(app_cl *c, size_t mark)
{
    if (c->stuck || mark > c->n_held)
        return;
    for (size_t i = mark; i < c->n_held; ++i)
        clReleaseMemObject(c->held[i]);
    c->n_held = mark;
}

int app_cl_event_device_ms(cl_event ev, const char *what, double *ms, char *err, size_t err_len)
{
    *ms = -1;
    cl_ulong start = 0, end = 0;
    cl_int e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (e == CL_SUCCESS)
        e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (e == CL_PROFILING_INFO_NOT_AVAILABLE)
        return 0; /* the device keeps no times for it: unknown */
    if (e != CL_SUCCESS) {
        char w[160];
        snprintf(w, sizeof w, "clGetEventProfilingInfo (device time of %s)", what);
        return app_cl_fail(e, w, err, err_len);
    }
    *ms = end >= start ? (double)(end - start) / 1e6 : -1;
    return 0;
}

int app_cl_run_persistent(app_cl *c, cl_kernel k, const app_cl_launch *l, const char *what, app_cl_times *t,
                          char *err, size_t err_len)
{
    t->ms = t->device_ms = -1;
    if (!(l->timeout_s > 0 && l->timeout_s <= 1e9) || l->wg == 0 || l->groups == 0) {
        snprintf(err, err_len,
                 "%s: bad launch (%u groups of %zu items, timeout %g s): need groups and items above 0 "
                 "and a finite timeout above 0",
                 what, l->groups, l->wg, l->timeout_s);
        return -1;
    }
    size_t global = (size_t)l->groups * l->wg, local = l->wg;
    char w[160];
    double t0 = app_now_ms();
    cl_event ev;
    cl_int e = clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &local, 0, NULL, &ev);
    if (e != CL_SUCCESS) {
        snprintf(w, sizeof w, "clEnqueueNDRangeKernel (%s)", what);
        return app_cl_fail(e, w, err, err_len);
    }
    int rc = app_cl_wait_event(c, ev, t0 + l->timeout_s * 1e3, what, err, err_len);
    if (rc == 0) {
        t->ms = app_now_ms() - t0;
        rc = app_cl_event_device_ms(ev, what, &t->device_ms, err, err_len);
    }
    clReleaseEvent(ev);
    return rc;
}
