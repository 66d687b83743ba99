/* runtime/context_state.h: what a context and its launches hold (struct
 * ck_context, struct ck_launch, the two kinds of launch behind a launch
 * handle) and the constants their users share. Types only: the functions
 * over them live in the files that sit above this header (context_handle.h
 * for checking and pinning handles, memory.h, launch_*.h, task_table.h,
 * progress.h, context.c). */
#ifndef CK_RUNTIME_CONTEXT_STATE_H
#define CK_RUNTIME_CONTEXT_STATE_H

#include "arena.h"
#include "chaos_record.h"
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

/* What one kind of launch does behind the handle (launch.c dispatches to
 * it once the handle is checked and its context pinned): a launch sent to
 * the scheduler (launch_scheduler.c) or one through the task table
 * (launch_table.c). ctx is the launch's context, pinned; stats alone is
 * also called with ctx NULL, once the launch's context is gone. */
typedef struct {
    /* 1 once the launch is seen finished; never blocks (its context is pinned). */
    int (*finished)(ck_launch *l);
    /* Waits up to timeout_s (> 0). Errors: as ck_wait. */
    ck_status (*wait)(ck_launch *l, ck_context *ctx, double timeout_s);
    /* Errors: as ck_launch_get_stats. */
    ck_status (*stats)(const ck_launch *l, ck_context *ctx, ck_launch_stats *out);
    /* The user released the handle (already unregistered): its memory goes
     * now or once nothing will report on the launch. Never fails. */
    void (*release)(ck_launch *l, ck_context *ctx);
} ck_launch_ops;

struct ck_launch {
    uint32_t magic; /* CK_MAGIC_LAUNCH while the memory is ours, then CK_MAGIC_DEAD */
    ck_context *ctx;
    const ck_launch_ops *ops; /* its kind: sent to the scheduler or through the task table */
    uint32_t id;
    int kernel_index;
    int coop;
    unsigned groups;
    int state;
    uint32_t device_error;
    double t_sent, t_begin, t_started, t_done;
    unsigned initial, kills, forked, resizes, max_m;
    unsigned divergences; /* chaos replay: recorded choices not made (chaos.c) */
    uint32_t cx_key;      /* cooperative: its number among the context's cooperative launches (1, 2, ...),
                            which keys its chaos decisions (the scheduler counts the same) */
    int user_released;    /* the user called ck_launch_release (handle unregistered) */
    uint32_t done_slot;   /* ordinary launch: its completion word (CK_CH_DONE), else CK_CH_NO_DONE_SLOT */
    ck_launch *next;      /* in-flight list                                    */
    /* A launch through the task table (ck_context_options.launch_path): its
     * ticket, its statistics once copied out of its entry (tstats_known 0:
     * the entry no longer held the ticket), and its place in the context's
     * list of such launches (under the context's lock; the launch leaves it
     * when released). The statistics are copied when asked for, or by the
     * post that reuses the entry, not by ck_wait (task_owner below). */
    uint64_t ticket;
    ck_task_stats tstats;
    int tstats_known;
    int tstats_copied; /* atomic: 1 once tstats and tstats_known are final */
    ck_launch *tprev, *tnext;
};

struct ck_context {
    uint32_t magic; /* CK_MAGIC_CONTEXT (see handle.h) */
    ck_device *dev;
    ck_context_options opts;
    ck_source *sources;
    size_t n_sources;
    int built;
    int local_pool_auto; /* local_pool_bytes was 0: each build picks it        */
    int broken;          /* a failed build left a megakernel that would not stop */

    ck_stitch_result stitch;
    char *build_warnings; /* the stitcher's warnings, then the build's own (malloc; NULL: none) */
    char stitch_name[64];
    cl_program program;
    cl_kernel kernel;
    ck_megakernel_resources mk_resources; /* as the compiler reported them (register_cap.h) */
    cl_event mk_event;
    int mk_counted; /* counted in ck_device_note_megakernel until it has ended */
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
    pthread_mutex_t lock; /* launches, state text, flags below */
    pthread_cond_t cond;
    pthread_mutex_t send_lock;
    ck_launch *inflight;
    ck_launch *table_launches; /* launches through the task table not yet released */
    uint32_t next_id;
    uint32_t coop_sent; /* cooperative launches sent (under send_lock): the next one's cx_key - 1 */
    /* Completion words (ck_channel_layout.h) free to hand to a launch: a
     * stack, under lock. A word comes back when its launch's DONE arrives. */
    uint32_t done_free[CK_CH_DONE_SLOTS];
    unsigned done_free_n;
    int bye, megakernel_ended; /* megakernel_ended is also read without the lock (atomics) */
    cl_int megakernel_status;

    /* Tasks (task_table.c): tickets taken, and per table entry the host times of
     * its current ticket's spawn and of the first time the host saw it done
     * (ns of ck_now_s; 0 = not yet). */
    _Atomic uint64_t task_next;
    _Atomic uint32_t task_posted; /* tickets written (CK_CH_TASK_POSTED's source) */
    _Atomic uint64_t task_spawn_ns[CK_TASK_SLOTS];
    _Atomic uint64_t task_seen_ns[CK_TASK_SLOTS];
    /* Per entry: the launch through the table (ck_launch *) whose ticket the
     * entry holds and whose statistics are still in it, 0 for none, or
     * CK_TASK_OWNER_BUSY while one thread copies them out (task_table.c). */
    _Atomic uintptr_t task_owner[CK_TASK_SLOTS];

    /* Destruction (context.c): public calls in flight that pinned the
     * context (ck_context_enter, context_handle.c), which destroy waits for; set once
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

    ck_chaos_state chaos; /* chaos record/replay (chaos.c)                 */
    ck_trace_state trace; /* active-group trace (trace.c)                  */
};

/* How long ck_wait spins on a launch's state before it sleeps (GPU devices),
 * and how long the progress thread polls without napping after the last
 * message it took (GPU devices). */
#define CK_WAIT_SPIN_S 0.0005
#define CK_PROGRESS_AWAKE_S 0.005

/* task_owner[e] while one thread copies the statistics out of entry e. */
#define CK_TASK_OWNER_BUSY ((uintptr_t)1)

#endif
