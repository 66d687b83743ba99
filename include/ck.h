/* Public host API of the cooperative kernels runtime (prefix ck_).
 *
 * Error convention: every function that can fail returns a ck_status. On
 * failure, ck_last_error() returns a one-line message (per thread) that says
 * what failed and what to do about it; it stays valid until the next failing
 * call on the same thread. Functions returning void cannot fail. */
#ifndef CK_H
#define CK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CK_OK = 0,
    CK_ERR_INVALID_ARGUMENT, /* a parameter is out of range or missing            */
    CK_ERR_NO_DEVICE,        /* no OpenCL platform/device, or none matches        */
    CK_ERR_NO_PATH,          /* the device lacks what both atomics paths need      */
    CK_ERR_OPENCL,           /* an OpenCL call failed (message names the call)    */
    CK_ERR_BUILD,            /* device program did not compile (message has log)  */
    CK_ERR_TIMEOUT,          /* a wait ran past its deadline; device was aborted  */
    CK_ERR_NO_MEMORY,        /* host allocation failed                            */
    CK_ERR_CHECK_FAILED,     /* a device-side self-check reported wrong results   */
} ck_status;

/* Message of the last failure on this thread ("" if none). Never NULL. */
const char *ck_last_error(void);
/* Short stable name of a status, e.g. "CK_ERR_TIMEOUT". Never NULL. */
const char *ck_status_name(ck_status s);

/* ---------------------------------------------------------------- devices */

/* The two ways of talking to a running kernel and of doing atomics on it.
 * CL20: fine-grain SVM buffer + SVM atomics, OpenCL C 2.0/3.0 atomics.
 * CL12: host-resident pinned memory (cl_nv_create_buffer on NVIDIA, a
 *       zero-copy host buffer on CPU devices), OpenCL 1.2 atomics + fences. */
typedef enum { CK_PATH_AUTO = 0, CK_PATH_CL20, CK_PATH_CL12 } ck_path;
typedef enum { CK_TRANSPORT_SVM = 1, CK_TRANSPORT_PINNED } ck_transport;

typedef struct {
    /* Case-insensitive substring of "platform name / device name". NULL: use
     * the CK_DEVICE environment variable, else the first GPU with a usable
     * path, else PoCL, else any device with a usable path. */
    const char *device;
    /* CK_PATH_AUTO: use the CK_PATH environment variable ("cl20", "cl12" or
     * "auto"), else CL20 where available, else CL12. A forced path the device
     * cannot run is an error (CK_ERR_NO_PATH). */
    ck_path path;
} ck_device_options;

typedef struct {
    char platform_name[128];
    char platform_version[128];
    char device_name[128];
    char device_vendor[128];
    char device_version[128];
    char driver_version[128];
    char opencl_c_version[128];
    char opencl_c_std[16];        /* -cl-std= value used for the chosen path   */
    int is_gpu, is_cpu;
    unsigned compute_units;
    size_t max_work_group_size;
    uint64_t global_mem_bytes;
    uint64_t local_mem_bytes;
    /* Capabilities that decide the path. */
    int svm_coarse_buffer, svm_fine_buffer, svm_fine_system, svm_atomics;
    int c11_atomics;              /* OpenCL C 2.0+, or 3.0 with acq_rel + device scope */
    int c_version_major, c_version_minor; /* highest OpenCL C the device compiles */
    int atomic_caps_known;        /* CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES answered */
    uint64_t atomic_memory_caps;  /* raw cl_device_atomic_capabilities          */
    int nv_create_buffer;         /* extension cl_nv_create_buffer              */
    int host_unified_memory;
    int path_cl20_ok, path_cl12_ok;
    char path_cl20_missing[192];  /* what the device lacks for each path ("" if ok) */
    char path_cl12_missing[192];
    ck_path path;                 /* the chosen path (never CK_PATH_AUTO)       */
    ck_transport transport;
    int nv_ptx_fences;            /* 1.2 path uses membar.gl/membar.sys          */
} ck_device_info;

typedef struct ck_device ck_device;

/* Opens a device: enumerates platforms, picks one per opts (NULL = defaults),
 * probes capabilities and chooses the path, creates a context and a queue.
 * Errors: CK_ERR_NO_DEVICE (no platform, or no device matches: the message
 * lists the devices there are), CK_ERR_NO_PATH (the message names what is
 * missing for each path), CK_ERR_INVALID_ARGUMENT (bad CK_PATH value),
 * CK_ERR_OPENCL, CK_ERR_NO_MEMORY. */
ck_status ck_device_open(const ck_device_options *opts, ck_device **out);
/* Releases the device; NULL is allowed. */
void ck_device_close(ck_device *dev);
/* Capabilities and choices of an open device (owned by dev). */
const ck_device_info *ck_device_get_info(const ck_device *dev);
/* Writes one line per OpenCL device ("platform / device [type]") to f.
 * Errors: CK_ERR_NO_DEVICE if no platform is installed. */
ck_status ck_device_list(FILE *f);
/* Parses "auto", "cl20"/"2.0", "cl12"/"1.2". Errors: CK_ERR_INVALID_ARGUMENT. */
ck_status ck_path_parse(const char *text, ck_path *out);
const char *ck_path_name(ck_path p);           /* "cl20", "cl12", "auto" */
const char *ck_transport_name(ck_transport t); /* "fine-grain SVM", "pinned host memory" */

/* ------------------------------------------------------------- occupancy */

typedef struct {
    size_t work_group_size;   /* work-items per group, >= 1                  */
    size_t launch_groups;     /* groups launched; 0 = automatic (see below)  */
    unsigned barrier_rounds;  /* checked barriers among discovered groups    */
    double timeout_s;         /* whole probe; <= 0 means 30 s               */
    unsigned overcount;       /* test hook: pretend this many extra groups   */
} ck_occupancy_options;

typedef struct {
    unsigned occupancy;       /* co-resident groups discovered               */
    size_t launched;          /* groups launched                             */
    unsigned barrier_failures;/* wrong values seen after a barrier            */
    double discovery_ms;      /* launch to poll closed                       */
    double total_ms;
} ck_occupancy_result;

/* Launches a discovery probe of opts->launch_groups groups (automatic: enough
 * to exceed any residency the device reports) and returns how many were
 * co-resident, then runs barrier_rounds checked barriers among them.
 * Errors: CK_ERR_INVALID_ARGUMENT (work-group size 0 or above the device
 * limit, launch size 0 given explicitly via launch_groups = CK_LAUNCH_ZERO),
 * CK_ERR_TIMEOUT (the device was aborted; message says at which stage),
 * CK_ERR_CHECK_FAILED (barrier saw stale data), CK_ERR_BUILD, CK_ERR_OPENCL. */
ck_status ck_occupancy_discover(ck_device *dev, const ck_occupancy_options *opts,
                                ck_occupancy_result *out);
/* Value of launch_groups that asks for an explicit launch of zero groups
 * (rejected with CK_ERR_INVALID_ARGUMENT; exists so tools can pass user input). */
#define CK_LAUNCH_ZERO ((size_t)-1)

/* --------------------------------------------------------------- latency */

typedef struct {
    unsigned round_trips;
    double min_us, median_us, p99_us, max_us;
} ck_latency_result;

/* Measures host -> running kernel -> host round trips through the channel
 * (host posts a message, one work-item answers, host sees the answer).
 * Errors: CK_ERR_INVALID_ARGUMENT (round_trips 0), CK_ERR_TIMEOUT,
 * CK_ERR_CHECK_FAILED (an answer was wrong), CK_ERR_BUILD, CK_ERR_OPENCL. */
ck_status ck_channel_latency(ck_device *dev, unsigned round_trips, ck_latency_result *out);

#ifdef __cplusplus
}
#endif
#endif
