/* apps/common/cl_plain.h: raw OpenCL for the plain baselines (no megakernel):
 * opening the same device and path the runtime would pick (a profiling
 * queue), building a kernel file (built programs are cached per device),
 * running one persistent launch with its host and device times, and error
 * strings. Every OpenCL call is checked; failures return -1 with a message
 * in err naming the call. */
#ifndef APPS_CL_PLAIN_H
#define APPS_CL_PLAIN_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stddef.h>

#include "ck.h"

/* Zeroed words a plain persistent kernel's global barrier needs
 * (CK_PLAIN_BARRIER_N_WORDS of include/ck_cooperative.h: two 128-byte lines). */
#define APP_PLAIN_BARRIER_WORDS 64

/* Programs app_cl_build keeps, per app_cl: one per (kernel file, extra
 * options) pair; a build past them is returned uncached. */
#define APP_CL_MAX_PROGRAMS 16

typedef struct {
    char *key; /* "<kernel file>\n<extra options>"                   */
    cl_program program;
} app_cl_program;

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char cl_std[16]; /* -cl-std value of the path ("CL3.0", "CL1.2")      */
    char name[260];  /* "platform / device"                               */
    ck_path path;
    int is_cpu;
    int stuck;    /* a wait ran out: a kernel may still run; app_cl_close
                          then leaves the queue and context to the process's
                          exit (releasing them could wait for the kernel)  */
    cl_mem *held; /* app_cl_buffer's buffers, owned here and released by
                          app_cl_close (never while a kernel that outlived
                          its deadline may still use them: PoCL crashed
                          when a baseline released them under it)        */
    size_t n_held, cap_held;
    app_cl_program programs[APP_CL_MAX_PROGRAMS]; /* app_cl_build's cache */
    size_t n_programs;
} app_cl;

typedef struct {
    ck_device_options device; /* which device and path, as for the runtime    */
    size_t work_group_size;   /* 0 = 64                                         */
    unsigned occupancy;       /* out of app_cl_open when want_occupancy is set  */
    int want_occupancy;       /* discover occupancy with ck_occupancy_discover  */
    int profiling;            /* the queue gets CL_QUEUE_PROFILING_ENABLE (the
                                 plain baselines' device times); without it
                                 app_cl_times.device_ms is -1                   */
} app_cl_request;

/* Asks the runtime which device and atomics path `req` names (and, if
 * req->want_occupancy, discovers the occupancy at req->work_group_size),
 * closes the runtime's device, then opens that same device with raw OpenCL:
 * a context and an in-order queue (with CL_QUEUE_PROFILING_ENABLE when
 * req->profiling, so a launch's device time can be read from its event). */
int app_cl_open(app_cl_request *req, app_cl *out, char *err, size_t err_len);
/* Releases the buffers, the cached programs, the queue and the context
 * (not after a wait ran out: see app_cl.stuck). NULL is allowed. */
void app_cl_close(app_cl *c);
/* Builds kernel file `rel` (relative to the kernel directory) as a kernel
 * author would: "-cl-std=<path's> -I <include dir> -I <kernel dir>" plus
 * extra_options (NULL: none; ck_atomics.h picks the atomics path and
 * NVIDIA's fences). The built program is cached in c under (rel,
 * extra_options): a later call with the same pair returns it without a
 * build. *out is always a reference of the caller's own (the cache holds
 * another, released by app_cl_close): release it with clReleaseProgram as
 * for a fresh build. Errors: -1 naming the file and the options; on a
 * compile error the message carries the start of the build log;
 * clRetainProgram's error on a cached program; out of host memory. */
int app_cl_build(app_cl *c, const char *rel, const char *extra_options, cl_program *out, char *err, size_t err_len);

/* One persistent launch of a plain baseline: how it is built and run. */
typedef struct {
    const char *build_options; /* appended to the kernel's build (NULL: none),
                                  e.g. "-DCK_PLAIN_BARRIER_FENCED"           */
    size_t wg;                 /* work-items per group (> 0)                   */
    unsigned groups;           /* work-groups (> 0, at most the occupancy)     */
    double timeout_s;          /* the kernel must end within this (finite, > 0) */
} app_cl_launch;

/* A plain launch's times. */
typedef struct {
    double ms;        /* host: just before the enqueue -> the host saw it complete */
    double device_ms; /* the device's clock: the launch event's
                         CL_PROFILING_COMMAND_END - CL_PROFILING_COMMAND_START;
                         -1 where there is no profiling information
                         (CL_PROFILING_INFO_NOT_AVAILABLE: a queue opened
                         without app_cl_request.profiling, or a device that
                         keeps none)                                          */
} app_cl_times;

/* Enqueues kernel k (arguments set) over l->groups groups of l->wg items,
 * waits for it until l->timeout_s passes (app_cl_wait_event) and fills *t.
 * `what` names the kernel in messages. Errors: -1 naming the failed call,
 * or the deadline (then c->stuck is set); a profiling query that fails
 * other than with CL_PROFILING_INFO_NOT_AVAILABLE. */
int app_cl_run_persistent(app_cl *c, cl_kernel k, const app_cl_launch *l, const char *what, app_cl_times *t,
                          char *err, size_t err_len);
/* Device time of a completed event from its profiling information (ms);
 * *ms = -1 and 0 returned when the device has none for it. Errors: -1
 * naming `what` for any other failure of clGetEventProfilingInfo. */
int app_cl_event_device_ms(cl_event ev, const char *what, double *ms, char *err, size_t err_len);
/* Waits for event ev (flushing c's queue first) until it completes or
 * deadline_ms (app_now_ms() time) passes, polling its status. -1 with a
 * message naming `what` if the command failed or the deadline passed (then
 * c->stuck is set: the command may still run). Does not release ev. */
int app_cl_wait_event(app_cl *c, cl_event ev, double deadline_ms, const char *what, char *err, size_t err_len);
/* clFinish with a deadline: waits for a marker behind everything enqueued on
 * c's queue (app_cl_wait_event's errors). */
int app_cl_finish(app_cl *c, double deadline_ms, const char *what, char *err, size_t err_len);
/* Name of an OpenCL error code ("CL_OUT_OF_RESOURCES"). */
const char *app_cl_errstr(cl_int e);

/* Helpers for the baselines' host code: on failure they fill err with
 * "<what>: <CL error>" and return -1. */
int app_cl_fail(cl_int e, const char *what, char *err, size_t err_len);
/* A read-write buffer of `bytes` (at least 4) holding init (zeros when init
 * is NULL), on the device when this returns: the contents go up with a
 * blocking write (or fill), never with CL_MEM_COPY_HOST_PTR, which NVIDIA's
 * driver may defer to the first kernel that uses the buffer, so the upload
 * would be timed as kernel work (measured: 85 ms of a BFS baseline on a
 * 128 M-edge graph). c owns the buffer: app_cl_close releases it (unless
 * a kernel got stuck); callers never release it. Errors: -1 naming `what`
 * and the size. */
int app_cl_buffer(app_cl *c, size_t bytes, const void *init, cl_mem *out, const char *what, char *err,
                  size_t err_len);
/* How many buffers c holds now: a mark for app_cl_release_since. */
size_t app_cl_held_mark(const app_cl *c);
/* Releases the buffers app_cl_buffer made since `mark` (a plain session
 * uploads fresh buffers for every run and drops them after it). Does
 * nothing once c->stuck is set: a kernel may still use them. */
void app_cl_release_since(app_cl *c, size_t mark);
#define APP_CL_CHECK(call, what)                                                                                    \
    do {                                                                                                            \
        cl_int app_e_ = (call);                                                                                     \
        if (app_e_ != CL_SUCCESS) {                                                                                 \
            app_cl_fail(app_e_, what, err, err_len);                                                                \
            goto fail;                                                                                              \
        }                                                                                                           \
    } while (0)

#endif
