/* Public host API of the cooperative kernels runtime (prefix ck_).
 *
 * Error convention: every function that can fail returns a ck_status. On
 * failure, ck_last_error() returns a one-line message (per thread) that says
 * what failed and what to do about it; it stays valid until the next failing
 * call on the same thread. Functions returning void cannot fail.
 *
 * Handles (ck_device, ck_context, ck_launch) are checked on every call: a
 * handle that was never created, or was already closed, destroyed or released,
 * gives CK_ERR_INVALID_ARGUMENT with a message saying so, and the library
 * does not read the handle's memory to find out. (A stale handle is
 * recognised as "already released" for at least the next 64 releases; the
 * check cannot make using a stale handle correct, only loud.) Functions that
 * cannot fail give their documented neutral answer (0, NULL, "") for a
 * handle that is not live. */
#ifndef CK_H
#define CK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function declared in this header is exported from the shared library,
 * which is built with -fvisibility=hidden: its other functions stay internal.
 * runtime/coopkernels.map gives them their symbol version. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Version of this header. ck_version() gives the version of the library that is
 * actually loaded; a program can compare the two. */
#define CK_VERSION_MAJOR 0
#define CK_VERSION_MINOR 1
#define CK_VERSION_PATCH 0
#define CK_VERSION_STRING "0.1.0"

/* The longest timeout any call accepts, in seconds (one day). Every wait has
 * a finite deadline: a timeout that is NaN, infinite, negative or above this
 * limit is refused with CK_ERR_INVALID_ARGUMENT. */
#define CK_MAX_TIMEOUT_S 86400.0

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
/* The loaded library's version, "MAJOR.MINOR.PATCH". Never NULL; cannot fail. */
const char *ck_version(void);

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
    char opencl_c_std[16]; /* -cl-std= value used for the chosen path   */
    int is_gpu, is_cpu;
    unsigned compute_units;
    size_t max_work_group_size;
    uint64_t global_mem_bytes;
    uint64_t local_mem_bytes;
    /* Capabilities that decide the path. */
    int svm_coarse_buffer, svm_fine_buffer, svm_fine_system, svm_atomics;
    int c11_atomics;                      /* OpenCL C 2.0+, or 3.0 with acq_rel + device scope */
    int c_version_major, c_version_minor; /* highest OpenCL C the device compiles */
    int atomic_caps_known;                /* CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES answered */
    uint64_t atomic_memory_caps;          /* raw cl_device_atomic_capabilities          */
    int nv_create_buffer;                 /* extension cl_nv_create_buffer              */
    int host_unified_memory;
    int path_cl20_ok, path_cl12_ok;
    char path_cl20_missing[192]; /* what the device lacks for each path ("" if ok) */
    char path_cl12_missing[192];
    ck_path path; /* the chosen path (never CK_PATH_AUTO)       */
    ck_transport transport;
    int nv_ptx_fences; /* 1.2 path uses membar.gl/membar.sys          */
} ck_device_info;

typedef struct ck_device ck_device;

/* Opens a device: enumerates platforms, picks one per opts (NULL = defaults),
 * probes capabilities and chooses the path, creates a context and a queue.
 * Errors: CK_ERR_NO_DEVICE (no platform, or no device matches: the message
 * lists the devices there are), CK_ERR_NO_PATH (the message names what is
 * missing for each path), CK_ERR_INVALID_ARGUMENT (bad CK_PATH value),
 * CK_ERR_OPENCL, CK_ERR_NO_MEMORY. */
ck_status ck_device_open(const ck_device_options *opts, ck_device **out);
/* Releases the device; NULL is allowed (CK_OK).
 * Errors: CK_ERR_INVALID_ARGUMENT (not an open device, e.g. closed twice). */
ck_status ck_device_close(ck_device *dev);
/* Capabilities and choices of an open device (owned by dev); NULL if dev is
 * not an open device. */
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
    size_t work_group_size;  /* work-items per group, >= 1                  */
    size_t launch_groups;    /* groups launched; 0 = automatic (see below)  */
    unsigned barrier_rounds; /* checked barriers among discovered groups    */
    double timeout_s;        /* whole probe; 0 means 30 s, at most
                                 CK_MAX_TIMEOUT_S (NaN, infinite or negative:
                                 CK_ERR_INVALID_ARGUMENT)                     */
    unsigned overcount;      /* test hook: pretend this many extra groups   */
} ck_occupancy_options;

typedef struct {
    unsigned occupancy;        /* co-resident groups discovered               */
    size_t launched;           /* groups launched                             */
    unsigned barrier_failures; /* wrong values seen after a barrier            */
    double discovery_ms;       /* launch to poll closed                       */
    double total_ms;
} ck_occupancy_result;

/* Launches a discovery probe of opts->launch_groups groups (automatic: enough
 * to exceed any residency the device reports) and returns how many were
 * co-resident, then runs barrier_rounds checked barriers among them.
 * Errors: CK_ERR_INVALID_ARGUMENT (dev not an open device, work-group size 0
 * or above the device limit, launch size 0 given explicitly via
 * launch_groups = CK_LAUNCH_ZERO, a timeout that is not in 0..CK_MAX_TIMEOUT_S),
 * CK_ERR_TIMEOUT (the device was aborted; message says at which stage),
 * CK_ERR_CHECK_FAILED (barrier saw stale data), CK_ERR_BUILD, CK_ERR_OPENCL. */
ck_status ck_occupancy_discover(ck_device *dev, const ck_occupancy_options *opts, ck_occupancy_result *out);
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
 * Errors: CK_ERR_INVALID_ARGUMENT (dev not an open device, round_trips 0 or
 * above CK_MAX_ROUND_TRIPS), CK_ERR_NO_MEMORY, CK_ERR_TIMEOUT,
 * CK_ERR_CHECK_FAILED (an answer was wrong), CK_ERR_BUILD, CK_ERR_OPENCL. */
ck_status ck_channel_latency(ck_device *dev, unsigned round_trips, ck_latency_result *out);
/* Most round trips ck_channel_latency takes (its samples are kept in memory). */
#define CK_MAX_ROUND_TRIPS 10000000u

/* ------------------------------------------------------------ megakernel */

/* A context owns a device, the persistent megakernel built from the user's
 * kernels, the buffer arena and the channel. Typical use:
 *   ck_context_create -> ck_context_add_source/_file (one or more) ->
 *   ck_context_build -> ck_buffer_alloc/_write -> ck_launch_kernel (many, from any
 *   thread) -> ck_wait -> ck_launch_get_stats -> ck_buffer_read ->
 *   ck_context_destroy.
 * All user kernels run with the megakernel's work-group size and 1-D ids. */
typedef struct ck_context ck_context;
typedef struct ck_launch ck_launch;

typedef struct {
    ck_device_options device;
    size_t work_group_size;     /* work-items per group; 0 = 64                        */
    size_t arena_bytes;         /* buffer arena; 0 = 256 MiB on CPUs, 1 GiB on GPUs
                                   (a quarter of the device's memory if less); at most
                                   CK_MAX_ARENA_BYTES. A page of the arena that is
                                   never touched costs no memory on a CPU       */
    size_t local_pool_bytes;    /* room for `local` pointer arguments; 0 = 8 KiB when a
                                   kernel has such a parameter, else none (each byte of
                                   local memory costs co-resident groups)              */
    unsigned max_groups;        /* cap on the megakernel's groups (0 = occupancy)      */
    uint64_t chaos_seed;        /* nonzero: chaos mode, seeded (env CK_CHAOS_SEED too)  */
    int naive_resizing_barrier; /* 1: one offer_kill per resizing barrier (paper's naive
                                   form); 0: the query form of the paper's section 4.2 */
    double timeout_s;           /* deadline of builds and default of waits; 0 = 60 s;
                                   at most CK_MAX_TIMEOUT_S (one day); NaN, infinite
                                   or negative: CK_ERR_INVALID_ARGUMENT                */
    int quiet_warnings;         /* 1: do not write the build's warnings to stderr
                                   (ck_context_build_warnings still has them)         */
    /* Chaos mode only (otherwise ignored). NULL: the environment variables
     * CK_CHAOS_RECORD / CK_CHAOS_REPLAY. Recording writes the scheduler's
     * choices (initial M, accepted kills, forks, every resizing barrier's
     * new M) to this text file when each cooperative launch finishes, one
     * line a decision sorted by key (the cooperative launch's number in
     * the context, 1 for the first; the group; its n-th call; a barrier by
     * its epoch), at most 32768 decisions (the file then says it is
     * truncated). Replay loads such a file and makes its choices by key;
     * where the model cannot (e.g. fewer idle workers than a recorded fork,
     * after a bounded wait) it makes the nearest legal one and reports it on
     * stderr and in ck_launch_stats.replay_divergences; a decision absent
     * from the file is declined. A replay with chaos_seed 0 takes the seed
     * the file names. */
    const char *chaos_record_path;
    const char *chaos_replay_path;
    /* 1: record the active-group count M of the cooperative launch over time
     * (read it with ck_context_take_trace). The device mirrors M into one
     * host-visible word at every change; the host's progress thread samples
     * that word at every poll, so the trace's resolution is the poll interval
     * (microseconds while launches run, up to 20 us on GPUs and 50 us on CPUs
     * when idle) and a change undone between two polls is missed. Costs a
     * load of host memory per poll. 0 (default): off. */
    int trace_active_groups;
    /* 1: the megakernel carries the task API's code (ck_kernel_find and
     * ck_task_spawn need it), and ordinary launches go through the task
     * table (launch_path below). Without a register cap it costs
     * registers: on an H200, with ckbench's kernels, 48 per work-item
     * instead of 40, so 2639 co-resident groups of 64 instead of 3167; with
     * register_cap CK_REGISTER_CAP_AUTO both fit in 32 without a spill and
     * keep every co-resident group (docs/RESULTS.md, 2026-11-29).
     * 0 (default): no tasks, and no cost. */
    int tasks;
    /* How ck_launch_kernel sends an ordinary launch in a context with tasks:
     * CK_LAUNCH_PATH_AUTO (0, default) through the task table, like
     * ck_task_spawn (its round trip is a task's, about 0.6 of the
     * scheduler's on an H200, docs/RESULTS.md); CK_LAUNCH_PATH_SCHEDULER as
     * a message to the scheduler, as in a context without tasks (the only
     * path there). Cooperative launches are always messages. A launch
     * through the table holds a table entry until it finishes, follows the
     * calling thread's earlier launches (docs/TASKS_API.md) and has no
     * gather time in its statistics (ck_launch_stats). */
    int launch_path;
    /* Registers per work-item the device compiler may give the megakernel,
     * where the compiler takes such a cap (NVIDIA: -cl-nv-maxrregcount);
     * elsewhere it is ignored (ck_context_megakernel_resources says so).
     * The megakernel is one kernel, so its register count is every
     * worker's, and on a GPU it decides how many groups are co-resident.
     * 0 (default): no cap, unless the environment variable CK_REGISTER_CAP
     * says "auto" or a number ("none" or 0: no cap). CK_REGISTER_CAP_AUTO:
     * the fewest registers that spill nothing among the most with which a
     * compute unit holds its most work-items (32 on the H100 and H200) and
     * each 8 more below the count without a cap; none if each of those
     * spills. CK_REGISTER_CAP_NONE: no cap, whatever the environment says.
     * 16..255: that cap, spills or not. The trade: auto gives ordinary
     * launches and tasks more co-resident groups (on an H200 with
     * ckbench's kernels 4223 groups of 64 against 3167 without tasks and
     * 2639 with them uncapped), and costs cooperative kernels: on an H100
     * a cap without a spill made bc 30-32 % and p-sssp 60-68 % slower at
     * the same group count, and the extra groups made game 55-61 % and
     * mis 9-11 % slower (docs/RESULTS.md), so there is no cap by default.
     * Auto's capped tries are compiles the driver's cache cannot serve (on
     * an H200 with the BFS kernels 5.0-8.0 s against 2.5-3.1 s uncapped);
     * its decision is kept in the cap cache (register_cap_cache below), so
     * a later build of the same megakernel on the same device and driver
     * builds once, at that cap. NVIDIA's driver serves a program it
     * compiled before from its compute cache, without the compiler's
     * report: auto then builds once more with a nonce (an empty kernel of
     * a new name) to get it, and a capped try the cache serves is built
     * once more with one.
     * Whatever this option says, the megakernel gets no more registers than
     * let one group of work_group_size work-items launch (on NVIDIA 65536
     * per group: 64 at 1024 work-items, 128 at 512; none lower at 256 or
     * fewer); ck_context_megakernel_resources' note says when it applied. */
    unsigned register_cap;
    /* Where CK_REGISTER_CAP_AUTO keeps its decisions: one small file per
     * megakernel source, device, driver version, build options and group
     * size under $XDG_CACHE_HOME/coopkernels/ ($HOME/.cache/coopkernels/
     * without it). A build that finds its entry compiles once, at the cap
     * the entry names; an entry that cannot be read or was written for
     * another driver, source or device is ignored with one warning (in
     * ck_context_build_warnings) and replaced, and a folder that cannot be
     * written costs one warning and the next build's tries; the build goes
     * on either way. 0 (default): on, unless the environment variable
     * CK_CAP_CACHE is "off" or 0. CK_REGISTER_CAP_CACHE_OFF: off (every
     * auto build decides again). */
    int register_cap_cache;
    /* 1: the checking build. The megakernel checks its own accounting at
     * every transition where a rule can be checked (a fork ticket taken
     * only once written and held by one record, idle and promised counts
     * within the worker count, a cooperative launch's counts above zero
     * and 1 <= M <= N, promised tickets taken while a worker is idle, every
     * worker counted idle at rest; docs/DESIGN.md section 3.8), and the
     * host looks for a report every 10 ms. The first violation is written
     * to stderr once ("ck: accounting check failed: ..." with its context
     * and the scheduler's state) and every later wait of the context
     * (ck_wait, ck_task_wait, ck_task_wait_all) fails with
     * CK_ERR_CHECK_FAILED and that text. Costs registers and time: for
     * tests and stress runs. 0 (default): off, unless the environment
     * variable CK_CHECK is 1. */
    int accounting_checks;
    /* How long ck_context_destroy waits for the launches and tasks still
     * running before it aborts the megakernel (they are then cut short and
     * their waits fail, saying so); 0 = timeout_s. Same limits as
     * timeout_s. */
    double shutdown_timeout_s;
    /* What the build does with a private variable of a cooperative kernel
     * that a group forked at a fork point would read before assigning it
     * (the variable is not transmit, so the forked group would read an
     * uninitialised value). CK_TRANSMIT_INFER (0, default): the stitcher
     * transmits it as if it were declared transmit when its value can
     * travel: the same in every work-item of the group, not computed from a
     * work-item or group id, an atomic or M, not an array, a const or a
     * pointer to private or local memory; each such variable gets a note in
     * the build's warnings (ck_context_build_warnings) naming it and the
     * fork point, and a variable that cannot travel is an error that says
     * why. CK_TRANSMIT_DECLARED: every such read is an error (the kernel
     * declares its transmit variables itself). The environment variable
     * CK_TRANSMIT (infer or declared) sets it when this is 0. Inference is
     * the default because what it transmits is exactly what the kernel's
     * author would have to declare, and it never changes a kernel that
     * builds without it. */
    int transmit_mode;
} ck_context_options;

/* ck_context_options.transmit_mode. */
#define CK_TRANSMIT_INFER 0
#define CK_TRANSMIT_DECLARED 1

/* ck_context_options.launch_path. */
#define CK_LAUNCH_PATH_AUTO 0
#define CK_LAUNCH_PATH_SCHEDULER 1

/* ck_context_options.register_cap: cap only where it costs no spill. */
#define CK_REGISTER_CAP_AUTO 0xffffffffu
/* ck_context_options.register_cap: no cap, whatever CK_REGISTER_CAP says. */
#define CK_REGISTER_CAP_NONE 0xfffffffeu
/* ck_context_options.register_cap_cache: no cap cache. */
#define CK_REGISTER_CAP_CACHE_OFF 1

/* The megakernel's resources as the device compiler reported them. */
typedef struct {
    int known;                         /* 1: the figures below came from the compiler's
                                  report (NVIDIA); 0: none (this device gives
                                  none, or the driver's cache served the build) */
    unsigned registers;                /* per work-item                              */
    unsigned stack_bytes;              /* per work-item                              */
    unsigned spill_bytes;              /* spill stores + spill loads, per work-item  */
    unsigned register_cap;             /* the cap the megakernel was built with (0: none) */
    unsigned full_occupancy_registers; /* most registers with which a compute unit
                                  holds its most work-items (0: unknown)     */
    char note[192];                    /* one sentence: what the build did about the cap
                                  and why, or why no report came ("" when
                                  nothing was asked and the report came)     */
} ck_megakernel_resources;

/* One sample of the active-group trace: host time (seconds of
 * CLOCK_MONOTONIC, the clock of clock_gettime) when the progress thread saw
 * the cooperative launch's M become `active`. A cooperative launch's start
 * gives its initial M, its end gives 0. */
typedef struct {
    double t_s;
    unsigned active;
} ck_trace_sample;
/* Samples a context keeps between two ck_context_take_trace calls (later
 * ones are dropped and counted). */
#define CK_TRACE_CAPACITY 65536u

/* Largest ck_context_options.arena_bytes accepted (64 TiB). */
#define CK_MAX_ARENA_BYTES ((uint64_t)1 << 46)

/* Opens the device and prepares an empty context. opts may be NULL.
 * Errors: as ck_device_open; CK_ERR_INVALID_ARGUMENT (timeout_s NaN,
 * infinite, negative or above CK_MAX_TIMEOUT_S; arena_bytes above
 * CK_MAX_ARENA_BYTES; local_pool_bytes not a multiple of 16 up to 1 MiB;
 * register_cap, or CK_REGISTER_CAP, not 0, auto or 16..255; launch_path
 * not a CK_LAUNCH_PATH_ value;
 * work-group size above the device's; a chaos replay file that cannot be
 * read or has a malformed line: the message names it); CK_ERR_NO_MEMORY. */
ck_status ck_context_create(const ck_context_options *opts, ck_context **out);
/* Adds OpenCL C source (copied). `cooperative` names the kernels of this
 * source that are cooperative (may use offer_kill, request_fork, the global
 * barriers and `transmit`); the others are ordinary kernels. A line
 * `#include "ck_cooperative.h"` is accepted and ignored. file_name is used
 * in messages; NULL gives "<source>".
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live context, after build, NULL
 * source, empty file_name, n_cooperative > 0 with a NULL list, a NULL or
 * empty name in the list: the message gives its index), CK_ERR_NO_MEMORY. */
ck_status ck_context_add_source(ck_context *ctx, const char *file_name, const char *source,
                                const char *const *cooperative, size_t n_cooperative);
/* Same, reading the file at path. Errors: also CK_ERR_INVALID_ARGUMENT when
 * the file cannot be read (message names it). */
ck_status ck_context_add_file(ck_context *ctx, const char *path, const char *const *cooperative,
                              size_t n_cooperative);
/* Stitches the sources into the megakernel (rejections name file, line,
 * column and construct; the rule checks list every violation they find,
 * up to 20, in source order, each followed by a line with a note at the
 * fork point concerned, so ck_last_error() may hold many lines; the
 * parser's errors stop at the first), compiles it (CK_ERR_BUILD with the build log), allocates the
 * arena, launches the megakernel, discovers its occupancy inside the launch
 * and starts the scheduler, all within the context's timeout_s (the deadline
 * is checked between the stitcher's passes and between the build's steps;
 * the device compiler's own run is not interrupted).
 * A failed build may be retried: everything the failed attempt made (the
 * stitch result, program, arena, channel) is released first, and sources may
 * be added in between. The exception is a failure after which the aborted
 * megakernel would not stop: its resources stay allocated and a retry is
 * refused with CK_ERR_INVALID_ARGUMENT.
 * Errors: CK_ERR_BUILD, CK_ERR_TIMEOUT, CK_ERR_OPENCL, CK_ERR_NO_MEMORY (also: no
 * arena room for the chaos record),
 * CK_ERR_NO_DEVICE (fewer than 2 co-resident groups), CK_ERR_INVALID_ARGUMENT
 * (not a live context, built twice, no source, unusable after a failed build). */
ck_status ck_context_build(ck_context *ctx);
/* The warnings of the last ck_context_build, one per line
 * ("file:line[:col]: warning: sentence", some followed by a line
 * "file:line:col: note: sentence" pointing at the related place): code that
 * stitches and compiles but is not portable, such as mem_fence or a hand-made
 * atomic_cmpxchg spin lock between work-groups in a cooperative kernel (use
 * the synchronisation calls of ck_cooperative.h), or a transmitted value of
 * get_num_groups/get_global_size read after a fork point, where M may have
 * changed; and, with transmit_mode CK_TRANSMIT_INFER, one line
 * "file:line:col: note: sentence" at the declaration of every variable
 * whose transmit was inferred. Then the build's own, "ck: warning: sentence":
 * a megakernel of one or two workers on a CPU device (PoCL's default of one
 * thread per core on two or three cores), where little or no cooperation can
 * happen, with the variable that gives more. They are also written to stderr at build unless
 * quiet_warnings is set. "" if there are none or before a build; never NULL;
 * owned by ctx. Cannot fail. */
const char *ck_context_build_warnings(const ck_context *ctx);
/* Moves up to cap samples of the active-group trace (oldest first; those
 * that do not fit stay for the next call) into out and sets *n_out to their
 * number; *dropped (if not NULL) to the samples lost because the trace was
 * full since the last call. Needs ck_context_options.trace_active_groups.
 * Thread-safe. Errors: CK_ERR_INVALID_ARGUMENT (not a live context, tracing
 * off, n_out NULL, out NULL with cap > 0). */
ck_status ck_context_take_trace(ck_context *ctx, ck_trace_sample *out, size_t cap, size_t *n_out, size_t *dropped);
/* Worker groups of the running megakernel (occupancy minus the scheduler
 * group); 0 before a successful build. */
unsigned ck_context_workers(const ck_context *ctx);
/* Fills *out with the built megakernel's registers, stack and spills (where
 * the device compiler reports them) and the register cap it was built with
 * (ck_context_options.register_cap). On NVIDIA a build served from the
 * driver's compute cache runs no compiler and has no report (known 0, the
 * note says so) unless the cap is CK_REGISTER_CAP_AUTO, which rebuilds with
 * a nonce; CUDA_CACHE_DISABLE=1 (ckbench and ckrun set it) always gives
 * one. Thread-safe.
 * Errors: CK_ERR_INVALID_ARGUMENT (out NULL, not a live context, not built). */
ck_status ck_context_megakernel_resources(const ck_context *ctx, ck_megakernel_resources *out);
const ck_device_info *ck_context_device_info(const ck_context *ctx);
/* Stops the megakernel and frees everything. NULL is allowed. It asks the
 * scheduler to stop and waits up to shutdown_timeout_s for the launches and
 * tasks still running; then it aborts the megakernel: every group leaves at
 * its next primitive (offer_kill, request_fork, either barrier; group 0
 * too), no group starts after it, and what was cut short fails its waits
 * with CK_ERR_TIMEOUT saying it was aborted. Calls of other threads that
 * are inside the library on this context (ck_wait, ck_task_wait,
 * ck_task_wait_all, a ck_task_spawn waiting for a full table, ...) are
 * woken and waited for before anything is freed; calls made after destroy
 * began fail with CK_ERR_INVALID_ARGUMENT. Launches not yet released stay
 * valid handles (ck_wait then says the context was destroyed); release them
 * afterwards.
 * Errors: CK_ERR_TIMEOUT if the megakernel had to be aborted (the message
 * names what still ran; the context is still gone), or if it did not stop
 * even then (a kernel that loops without reaching a primitive: its memory is
 * left allocated), CK_ERR_INVALID_ARGUMENT (not a live context, e.g.
 * destroyed twice: nothing is touched). */
ck_status ck_context_destroy(ck_context *ctx);

/* Buffers live in the arena; on the device a pointer argument is the arena
 * base plus the buffer's offset, so they work with and without SVM. */
typedef struct {
    uint64_t offset;
    size_t size;
} ck_buffer;

/* Errors: CK_ERR_INVALID_ARGUMENT (size 0, not built, not a live context),
 * CK_ERR_NO_MEMORY (arena full or the size above the arena's capacity, SIZE_MAX
 * included: the message gives free and requested bytes). */
ck_status ck_buffer_alloc(ck_context *ctx, size_t bytes, ck_buffer *out);
/* Errors: CK_ERR_INVALID_ARGUMENT (not a live buffer or context). */
ck_status ck_buffer_free(ck_context *ctx, ck_buffer b);
/* Copies host memory in or out of a buffer. Allowed while launches run, but
 * the caller must not touch memory a running launch uses.
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live context or buffer; range outside
 * the buffer, including an offset + bytes that would overflow), CK_ERR_OPENCL. */
ck_status ck_buffer_write(ck_context *ctx, ck_buffer b, size_t offset, const void *src, size_t bytes);
ck_status ck_buffer_read(ck_context *ctx, ck_buffer b, size_t offset, void *dst, size_t bytes);

/* A kernel argument. Build them with the helpers below. */
typedef struct {
    int kind; /* internal: 0 scalar, 1 buffer, 2 null pointer, 3 local bytes */
    size_t size;
    uint64_t words[2]; /* scalar bytes (up to 16) or buffer offset or local size */
} ck_arg;
ck_arg ck_arg_buffer(ck_buffer b);
ck_arg ck_arg_null(void);                             /* NULL global pointer          */
ck_arg ck_arg_local(size_t bytes);                    /* a `local T *` parameter      */
ck_arg ck_arg_scalar(const void *value, size_t size); /* size <= 16             */
ck_arg ck_arg_int(int32_t v);
ck_arg ck_arg_uint(uint32_t v);
ck_arg ck_arg_long(int64_t v);
ck_arg ck_arg_ulong(uint64_t v);
ck_arg ck_arg_float(float v);

/* The most work-groups one launch or one task may have: a launch's or a
 * task's group count travels in a 16-bit field of its message and of its
 * device record (megakernel/ck_sched_layout.h, ck_channel_layout.h). */
#define CK_MAX_GROUPS 65535u

/* Launches kernel `name` with `groups` work-groups (for a cooperative
 * kernel: the most it may have, N; it starts with at least one). Returns at
 * once; the launch runs when the scheduler has gathered its groups. In a
 * context with tasks an ordinary launch goes through the task table unless
 * ck_context_options.launch_path says otherwise.
 * Thread-safe. Errors: CK_ERR_INVALID_ARGUMENT (not a live or built context,
 * unknown kernel, wrong argument count, kind or size: the message names the
 * parameter; local sizes above the pool; groups 0 or above CK_MAX_GROUPS),
 * CK_ERR_TIMEOUT (the channel, or for a launch through the task table the
 * table, stayed full for the context's timeout: nothing was launched),
 * CK_ERR_OPENCL (the megakernel is no longer running), CK_ERR_NO_MEMORY. */
ck_status ck_launch_kernel(ck_context *ctx, const char *name, unsigned groups, const ck_arg *args, size_t n_args,
                           ck_launch **out);
/* Waits for the launch to finish; timeout_s 0 uses the context's.
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live launch, e.g. released; timeout_s
 * NaN, infinite, negative or above CK_MAX_TIMEOUT_S; the context was destroyed
 * before the launch finished), CK_ERR_TIMEOUT (the wait ran out: the message
 * says what the launch waits for as the device's own memory has it, e.g.
 * that it is running with M of N groups, or published with its groups held
 * by a cooperative kernel that does not yield, followed by the scheduler's
 * state read from device memory; the launch stays pending. Or the
 * megakernel was aborted, by ck_context_destroy, before the launch ran to
 * the end), CK_ERR_CHECK_FAILED (the checking build reported an accounting
 * violation: accounting_checks), CK_ERR_OPENCL (the megakernel died). */
ck_status ck_wait(ck_launch *l, double timeout_s);

/* Nonzero when ck_wait(l, ...) would return at once: the launch has
 * finished, or the megakernel ended so it never will (ck_wait says which).
 * Never blocks: poll many launches with it. NULL gives 0; a launch handle that
 * is not live gives 1 (ck_wait on it returns its error at once). Cannot fail. */
int ck_launch_done(const ck_launch *l);

/* A launch's statistics. A launch through the task table
 * (ck_context_options.launch_path) has a task's times instead
 * (ck_task_stats): gather_ms is -1, exec_ms runs from the start of its
 * group 0 (the first group claimed) to its last group's end on the device's
 * clock, queue_ms is the rest of total_ms, and both are -1 on a device
 * without a clock (PoCL). When the
 * table entry was reused (CK_TASK_TABLE_ENTRIES later spawns) before the
 * host first saw the launch done, total_ms ends at that sight. The times
 * are copied out of the entry when asked for, or by the spawn that reuses
 * the entry, not by ck_wait. */
typedef struct {
    double queue_ms;             /* launch sent -> scheduler starts gathering for it    */
    double gather_ms;            /* gathering starts -> all its groups surrendered and
                               dispatched (the paper's gather time)                */
    double exec_ms;              /* groups dispatched -> last group finished            */
    double total_ms;             /* launch sent -> finished                             */
    unsigned groups;             /* requested (N for a cooperative kernel)             */
    unsigned initial_groups;     /* groups it started with                              */
    unsigned max_active;         /* cooperative: largest M seen                         */
    unsigned kills;              /* cooperative: offer_kill calls accepted              */
    unsigned forked;             /* cooperative: groups added by request_fork/resizing  */
    unsigned resizes;            /* cooperative: resizing barriers that changed M       */
    unsigned replay_divergences; /* chaos replay: recorded choices the model could
                                    not make in this launch (0 without replay)    */
} ck_launch_stats;

/* Errors: CK_ERR_INVALID_ARGUMENT (not a live launch, launch not finished). */
ck_status ck_launch_get_stats(const ck_launch *l, ck_launch_stats *out);
/* Frees the handle (waiting is not implied). NULL is allowed (CK_OK).
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live launch, e.g. released twice:
 * nothing is touched). */
ck_status ck_launch_release(ck_launch *l);

/* ------------------------------------------------------------------ tasks
 *
 * Narrow tasks (docs/TASKS_API.md): many small runs of an ordinary kernel,
 * spawned without a message to the scheduler. The host writes each task into
 * a table in host-visible memory. The task poller, an idle worker that holds
 * the poller token, makes new tasks visible to the workers; the scheduler
 * does so only while no worker holds the token, or for a task spawned while
 * a launch message the host sent before it was not yet taken. Idle workers
 * claim the tasks' groups, and the group that finishes a task last marks it
 * done in host memory, where ck_task_check reads it. Tasks share the workers with ordinary launches
 * (launches are served first) and with a running cooperative kernel, from
 * which they gather workers at its offer_kill calls and resizing barriers as
 * launches do. */

/* Entries of a context's task table: at most this many tasks are spawned and
 * not yet finished; a spawn waits (up to its timeout) for the oldest. */
#define CK_TASK_TABLE_ENTRIES 4096u

/* An ordinary kernel of a built context, looked up once (a value; nothing to
 * release). */
typedef struct {
    const ck_context *ctx;
    int index;
} ck_kernel;

/* A spawned task (a value; nothing to release): its context and ticket
 * (tickets count the context's spawns from 0). */
typedef struct {
    ck_context *ctx;
    uint64_t ticket;
} ck_task;

/* A task names its kernel by index: kernels of a context from this index
 * on (in source order) cannot be tasks. */
#define CK_TASK_KERNEL_LIMIT 512u

/* Looks up ordinary kernel `name` for ck_task_spawn.
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live or built context, NULL name or
 * out, no kernel of that name, a cooperative kernel: tasks run ordinary
 * kernels only, or the kernel's index is CK_TASK_KERNEL_LIMIT or more). */
ck_status ck_kernel_find(ck_context *ctx, const char *name, ck_kernel *out);

/* Spawns `groups` work-groups (of the megakernel's size, logical ids
 * 0..groups-1) of `kernel` with these arguments (as for ck_launch_kernel; a
 * `local` pointer parameter takes ck_arg_local(bytes), out of the context's
 * local pool). Returns at once unless the table is full, in which case it
 * waits up to timeout_s (0: the context's timeout) for the oldest task to
 * finish. Thread-safe: any number of host threads may spawn at once. On any
 * error nothing was spawned and no ticket was used (the next spawn gets it).
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live or built context, a kernel of
 * another context, groups 0 or above CK_MAX_GROUPS, wrong argument count, kind or
 * size: the message names the parameter; local memory above the pool;
 * timeout_s NaN, infinite, negative or above CK_MAX_TIMEOUT_S), CK_ERR_TIMEOUT
 * (the table stayed full: the message names the oldest unfinished task),
 * CK_ERR_OPENCL (the megakernel is no longer running). */
ck_status ck_task_spawn(ck_context *ctx, ck_kernel kernel, unsigned groups, const ck_arg *args, size_t n_args,
                        double timeout_s, ck_task *out);

/* 1 once the task has finished (one load of host memory; never blocks), 0
 * before. Also 1 when ck_task_wait would return at once with an error (the
 * context is gone or the megakernel ended, the ticket was never spawned).
 * Thread-safe. Cannot fail. */
int ck_task_check(ck_task task);

/* Waits for the task to finish; timeout_s 0 uses the context's. Thread-safe.
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live context, a ticket not spawned,
 * bad timeout), CK_ERR_TIMEOUT (the message names the task and gives the
 * scheduler's state; the task stays spawned), CK_ERR_OPENCL (the megakernel
 * ended before the task finished). */
ck_status ck_task_wait(ck_task task, double timeout_s);

/* Waits for every task spawned on ctx before the call, and every ordinary
 * launch sent through the task table (ck_context_options.launch_path).
 * Errors: as ck_task_wait (the timeout covers them all). */
ck_status ck_task_wait_all(ck_context *ctx, double timeout_s);

typedef struct {
    double total_ms; /* spawn -> the host first saw it done (ck_task_check,
                         ck_task_wait, ck_task_wait_all or this call)          */
    double exec_ms;  /* its group 0 (the first claimed) started -> its last
                         group finished, on the device's clock; -1 where the
                         device has none (PoCL)                                  */
    double queue_ms; /* total_ms - exec_ms: waiting for workers, and the notice
                         of completion; -1 where exec_ms is                      */
    unsigned groups;
} ck_task_stats;

/* Statistics of a finished task. They live in its table entry, so they can be
 * read until CK_TASK_TABLE_ENTRIES more tasks have been spawned after it.
 * Errors: CK_ERR_INVALID_ARGUMENT (not a live context, NULL out, a ticket not
 * spawned, the task has not finished, or its entry was reused: the message
 * says which). */
ck_status ck_task_get_stats(ck_task task, ck_task_stats *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
