/* Internal state of a context and its launches, shared by context.c (build,
 * megakernel, progress thread, shutdown), memory.c (arena storage) and
 * launch.c (arguments, waits, statistics). */
#ifndef CK_RUNTIME_CONTEXT_INTERNAL_H
#define CK_RUNTIME_CONTEXT_INTERNAL_H

#include "arena.h"
#include "chaos.h"
#include "device_state.h"
#include "channel.h"
#include "handle.h"
#include "ck_sched_layout.h"
#include "ck_messages.h"
#include "stitcher.h"
#include "trace.h"
#include "zero_copy.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct {
    char *name, *text;
    char **coop;
    size_t n_coop;
} ck_source;

/* A launch's state. CK_LAUNCH_SETTLING: a launch through the task table
 * whose statistics are being copied out of its entry (done follows). */
enum { CK_LAUNCH_SENT, CK_LAUNCH_BEGUN, CK_LAUNCH_STARTED, CK_LAUNCH_DONE, CK_LAUNCH_SETTLING };

struct ck_launch {
    uint32_t magic;      /* CK_MAGIC_LAUNCH while the memory is ours, then CK_MAGIC_DEAD */
    ck_context *ctx;
    uint32_t id;
    int kernel_index;
    int coop;
    unsigned groups;
    int state;
    uint32_t device_error;
    double t_sent, t_begin, t_started, t_done;
    unsigned initial, kills, forked, resizes, max_m;
    unsigned divergences; /* chaos replay: recorded choices not made (chaos.c) */
    uint32_t cx_key;     /* cooperative: its number among the context's cooperative launches (1, 2, ...),
                            which keys its chaos decisions (the scheduler counts the same) */
    int user_released;   /* the user called ck_launch_release (handle unregistered) */
    uint32_t done_slot;  /* ordinary launch: its completion word (CK_CH_DONE), else CK_CH_NO_DONE_SLOT */
    ck_launch *next;     /* in-flight list                                    */
    /* A launch through the task table (ck_context_options.launch_path): its
     * ticket, its statistics once copied out of its entry (tstats_known 0:
     * the entry no longer held the ticket), and its place in the context's
     * list of such launches (under the context's lock; the launch leaves it
     * when released). The statistics are copied when asked for, or by the
     * post that reuses the entry, not by ck_wait (task_owner below). */
    int table;
    uint64_t ticket;
    ck_task_stats tstats;
    int tstats_known;
    int tstats_copied;   /* atomic: 1 once tstats and tstats_known are final */
    ck_launch *tprev, *tnext;
};

struct ck_context {
    uint32_t magic;         /* CK_MAGIC_CONTEXT (see handle.h) */
    ck_device *dev;
    ck_context_options opts;
    ck_source *sources;
    size_t n_sources;
    int built;
    int local_pool_auto;    /* local_pool_bytes was 0: each build picks it        */
    int broken;             /* a failed build left a megakernel that would not stop */

    ck_stitch_result stitch;
    char *build_warnings;  /* the stitcher's warnings, then the build's own (malloc; NULL: none) */
    char stitch_name[64];
    cl_program program;
    cl_kernel kernel;
    ck_megakernel_resources mk_resources; /* as the compiler reported them (register_cap.h) */
    cl_event mk_event;
    int mk_counted;          /* counted in ck_device_note_megakernel until it has ended */
    ck_channel *ch;
    /* The runtime's region of the arena (ck_arena_storage_create): the
     * discovery poll, then the scheduler state (ck_sched_layout.h), at
     * these byte offsets. */
    uint64_t runtime_off, poll_off, sched_off;
    size_t sched_words;
    unsigned groups, workers;
    size_t max_workers;

    /* Arena storage: exactly one of svm / zero-copy / device buffer. */
    ck_arena arena;
    void *arena_svm;
    ck_zero_copy arena_zc; /* cl12 on a CPU device                          */
    cl_mem arena_buf;      /* cl12 on a GPU: device memory                  */
    void *arena_host;      /* the host's view (SVM or zero-copy), else NULL */
    cl_command_queue xfer; /* transfers to device-memory arenas            */
    pthread_mutex_t arena_lock;

    /* Progress thread and launches. */
    pthread_t progress;
    int progress_started, stop_progress;
    pthread_mutex_t lock;   /* launches, state text, flags below */
    pthread_cond_t cond;
    pthread_mutex_t send_lock;
    ck_launch *inflight;
    ck_launch *table_launches; /* launches through the task table not yet released */
    uint32_t next_id;
    uint32_t coop_sent;     /* cooperative launches sent (under send_lock): the next one's cx_key - 1 */
    /* Completion words (ck_channel_layout.h) free to hand to a launch: a
     * stack, under lock. A word comes back when its launch's DONE arrives. */
    uint32_t done_free[CK_CH_DONE_SLOTS];
    unsigned done_free_n;
    int bye, megakernel_ended; /* megakernel_ended is also read without the lock (atomics) */
    cl_int megakernel_status;

    /* Tasks (task.c): tickets taken, and per table entry the host times of
     * its current ticket's spawn and of the first time the host saw it done
     * (ns of ck_now_s; 0 = not yet). */
    _Atomic uint64_t task_next;
    _Atomic uint32_t task_posted;  /* tickets written (CK_CH_TASK_POSTED's source) */
    _Atomic uint64_t task_spawn_ns[CK_TASK_SLOTS];
    _Atomic uint64_t task_seen_ns[CK_TASK_SLOTS];
    /* Per entry: the launch through the table (ck_launch *) whose ticket the
     * entry holds and whose statistics are still in it, 0 for none, or
     * CK_TASK_OWNER_BUSY while one thread copies them out (launch.c). */
    _Atomic uintptr_t task_owner[CK_TASK_SLOTS];

    /* Destruction (context.c): public calls in flight that pinned the
     * context (ck_context_enter), which destroy waits for; set once
     * destroy has begun; the megakernel's end when the host aborted it
     * (the reason, for cut-short launches and tasks). */
    _Atomic unsigned calls;
    int closing;
    int aborted;
    char abort_reason[192];
    /* The checking build (accounting_checks): set, with the report, once
     * the device reported a violation; every wait then fails with it. */
    int check_failed;
    char *check_text;
    ck_check_watch check_watch; /* the rules the host checks over time (progress thread) */

    ck_chaos_state chaos;   /* chaos record/replay (chaos.c)                 */
    ck_trace_state trace;   /* active-group trace (trace.c)                  */
};

/* How long ck_wait spins on a launch's state before it sleeps (GPU devices),
 * and how long the progress thread polls without napping after the last
 * message it took (GPU devices). */
#define CK_WAIT_SPIN_S 0.0005
#define CK_PROGRESS_AWAKE_S 0.005

/* context.c: CK_OK if ctx is a live context handle (registry, then magic
 * word); otherwise CK_ERR_INVALID_ARGUMENT naming fn. Never reads freed memory. */
ck_status ck_context_check(const ck_context *ctx, const char *fn);
/* context.c: a public function's hold on its context for the length of the
 * call. ck_context_enter: CK_OK with the context pinned if ctx is a live
 * context (ck_context_destroy, in any thread, waits until every pinned call
 * has left before it frees anything, and wakes those that wait), else
 * CK_ERR_INVALID_ARGUMENT naming fn. ck_launch_enter: checks the launch
 * handle (*s: CK_OK, or its error) and pins the launch's context, which it
 * returns; NULL when the handle is bad or its context is gone or being
 * destroyed. Every pin is released with ck_context_leave. */
ck_status ck_context_enter(ck_context *ctx, const char *fn);
ck_context *ck_launch_enter(const ck_launch *l, const char *fn, ck_status *s);
void ck_context_leave(ck_context *ctx);
/* context.c: the error of a wait whose launch or task cannot finish because
 * the megakernel ended, with why it ended (aborted by the host, and why; or
 * the OpenCL status it ended with). fmt names what cannot finish. */
ck_status ck_context_ended_error(ck_context *ctx, const char *fmt, ...);
/* context.c: CK_ERR_CHECK_FAILED with the checking build's report if the
 * device reported a violation, else CK_OK. */
ck_status ck_context_check_report(ck_context *ctx);

/* memory.c. ck_arena_storage_create: the arena's storage, the user's
 * capacity (arena_bytes) followed by `reserve` bytes of the runtime's own
 * region at ctx->runtime_off (the scheduler state and the discovery poll:
 * the host reads them with ck_arena_copy while the megakernel runs, on
 * every kind of storage), waiting at most timeout_s for a zero-copy map.
 * Errors: CK_ERR_OPENCL, CK_ERR_NO_MEMORY, CK_ERR_TIMEOUT (a busy device).
 * ck_arena_zero: zeroes a range (the runtime's region before launch). */
ck_status ck_arena_storage_create(ck_context *ctx, uint64_t reserve, double timeout_s);
ck_status ck_arena_zero(ck_context *ctx, uint64_t offset, size_t bytes);
void ck_arena_storage_destroy(ck_context *ctx);
ck_status ck_arena_set_kernel_arg(ck_context *ctx, cl_kernel k, cl_uint index);
/* Copies between host memory and the arena at a byte offset, unchecked (the
 * runtime's own areas); to_device 1 writes, 0 reads. */
ck_status ck_arena_copy(ck_context *ctx, uint64_t offset, void *host, size_t bytes, int to_device);

/* launch.c: at context destruction, after the megakernel stopped and before
 * the channel goes, with the registry's lock held: settles the launches
 * through the task table that are done and cuts every such launch off the
 * context (ck_wait on one then says the context is gone unless it had
 * finished); those the user released meanwhile go on the *retire list
 * (linked by next) for the caller to retire after the lock. */
void ck_launch_table_detach(ck_context *ctx, ck_launch **retire);

#define CK_TASK_OWNER_BUSY ((uintptr_t)1)
/* launch.c, for ck_task_post: entry e is about to take a new ticket; the
 * launch recorded in task_owner[e], if any, gets its statistics copied out
 * of the entry first (the entry still holds its done ticket). Never fails;
 * waits only for another thread's copy of the same launch. */
void ck_launch_table_evict(ck_context *ctx, unsigned e);

/* task.c, for launches through the task table (launch.c):
 * ck_task_post writes a task of kernel index `kernel` with its packed
 * argument words (arg_words 64-bit words, checked by ck_pack_args) and
 * returns its ticket; timeout_s 0 is the context's. Errors: CK_ERR_TIMEOUT
 * (the table stayed full; nothing was posted), CK_ERR_OPENCL (the
 * megakernel is no longer running). ck_task_ticket_done: 1 once ticket t is
 * done (never blocks). ck_task_ticket_wait: waits up to timeout_s (> 0);
 * `what` names the ticket in its messages. Errors: as ck_task_wait.
 * ck_task_ticket_stats: 1 and a done ticket's statistics while its entry
 * still holds it, 0 when a later ticket took the entry (no error is set).
 * `owner`: the launch through the table that the ticket is (NULL: a task);
 * it is recorded in task_owner before the ticket is written, and the post
 * that takes its entry next copies its statistics first
 * (ck_launch_table_evict). */
ck_status ck_task_post(ck_context *ctx, int kernel, unsigned groups, const uint64_t *words, unsigned arg_words,
                       double timeout_s, ck_launch *owner, uint64_t *ticket);
int ck_task_ticket_done(ck_context *ctx, uint64_t t);
ck_status ck_task_ticket_wait(ck_context *ctx, uint64_t t, double timeout_s, const char *fn, const char *what);
int ck_task_ticket_stats(ck_context *ctx, uint64_t t, ck_task_stats *out);

/* launch.c: checks args against kernel K (count, kinds, sizes, local bytes
 * against the pool, buffers of this context) and writes its argument words
 * (K->arg_words 64-bit words). Errors: CK_ERR_INVALID_ARGUMENT naming the
 * parameter. */
ck_status ck_pack_args(ck_context *ctx, const ck_stitch_kernel *K, const ck_arg *args, size_t n_args,
                       uint64_t *words);

/* launch.c, called by the progress thread with ctx->lock held. */
void ck_launch_handle_message(ck_context *ctx, const uint32_t *msg, double now);

#endif
