/* The megakernel's state as its own memory holds it: the host copies the
 * scheduler state out of the arena's runtime region while the megakernel
 * runs (no message, so a stuck scheduler is described as well as a busy
 * one), reads it into named fields, and says in words what a launch or a
 * task waits for. Used by every timeout message (ck_wait, task waits,
 * destroy) and by the accounting check of the checking build. */
#ifndef CK_RUNTIME_DEVICE_STATE_H
#define CK_RUNTIME_DEVICE_STATE_H

#include "ck.h"
#include "ck_sched_layout.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t state; /* CK_SLOT_* */
    uint32_t id, kernel, coop, groups;
    uint32_t m, kill_req, live, kills, forked; /* cooperative */
    uint32_t claimed, done;                    /* ordinary: groups taken by workers, finished */
} ck_slot_view;

typedef struct {
    uint32_t refs, slot, launch, first, t0, k;
} ck_fork_view;

typedef struct {
    uint32_t busy, slot, group;
} ck_worker_view;

typedef struct {
    unsigned workers; /* the workers discovery found */
    uint32_t arrived; /* of them, those that have entered their loop */
    uint32_t exit, coop_slot, heartbeat, demand, queued;
    int32_t idle; /* may dip below zero for a moment (ck_sched_layout.h) */
    int32_t promised;
    uint32_t tickets_taken, tickets_written;
    uint32_t lock, kills_total, killed_back;
    uint32_t task_visible, task_head, task_finished, task_groups, task_taken;
    uint32_t check_code; /* the checking build's first violation (CK_CHECK_*), 0: none */
    uint32_t check_words[CK_CHECK_WORDS];
    ck_slot_view slots[CK_MAX_LAUNCHES];
    ck_fork_view forks[CK_FORK_RECS];
    ck_worker_view *worker; /* [workers] */
} ck_device_view;

/* Reads the scheduler state now. Errors: CK_ERR_NO_MEMORY, CK_ERR_OPENCL
 * (the copy out of device memory failed), CK_ERR_INVALID_ARGUMENT (the
 * context is not built). */
ck_status ck_device_view_read(ck_context *ctx, ck_device_view *v);
void ck_device_view_free(ck_device_view *v);

/* The slot that holds launch `id`, or -1. */
int ck_device_view_find(const ck_device_view *v, uint32_t id);

/* What launch `id` waits for, in words, from the view (no trailing period):
 * "the scheduler has not taken its launch message from the channel yet",
 * "it is running with M of N groups active; ...", and so on. */
void ck_describe_launch(const ck_context *ctx, const ck_device_view *v, uint32_t id, char *out, size_t n);

/* The whole state in lines: the scheduler's counts (read twice, 20 ms
 * apart, to say whether it is making passes), each launch slot in use, the
 * fork records in use, the busy workers and, in the checking build, the
 * first accounting violation. Returns a malloc'd text (never NULL). */
char *ck_describe_state(ck_context *ctx);

/* The checking build's report of its first violation, in words, into out
 * (empty when there is none). */
void ck_describe_check(const ck_device_view *v, char *out, size_t n);

/* The checking build's watch over the two rules that hold over time
 * (CK_CHECK_PROMISE_STUCK, CK_CHECK_REST_MISMATCH), kept by whoever looks
 * (the progress thread, every 10 ms): a state that breaks one counts only
 * once it has lasted CK_CHECK_STUCK_S seconds of the host's time and
 * CK_CHECK_PASSES scheduler passes. Zero it to start. */
typedef struct {
    int promise_on, rest_on;
    double promise_since, rest_since;
    uint32_t promise_taken, promise_beat, rest_beat;
} ck_check_watch;

/* One look at v at host time `now`. `tasks`: the megakernel has tasks (a
 * promised ticket may then wait for a worker that runs a task); `host_idle`:
 * the host has nothing in flight (no launch sent and not done, every posted
 * task visible). Returns the rule broken (0: none) and says how in out. */
uint32_t ck_check_watch_look(ck_check_watch *w, const ck_device_view *v, int tasks, int host_idle, double now,
                             char *out, size_t n);

#endif
