/* The megakernel's own state in local memory, by type: the scheduler's
 * (ck_sched_t, group 0's thread 0), an idle worker's (ck_idle_state, thread
 * 0 of each worker between groups), and the kinds of work a worker can be
 * handed (ck_work_kind). Also the build switches the rest of the device code
 * tests. The state in device memory that many groups share has its layout in
 * ck_sched_layout.h.
 *
 * Both records live in local memory rather than in registers: the megakernel
 * is one kernel, so any value live across the worker loop (the user's
 * kernels included) counts against every group's register budget, and so
 * against how many groups are co-resident (docs/DISPATCH.md, "Registers"). */

#ifndef CK_LOCAL_POOL_BYTES
#define CK_LOCAL_POOL_BYTES 8192
#endif

#if CK_MAX_LAUNCHES != 32
#error "ck_sched_t.free_slots is a 32-bit mask of the launch slots"
#endif

/* A megakernel built without tasks (ck_context_options.tasks 0) folds the
 * task code away: it costs the other paths no registers. */
#ifndef CK_TASKS_BUILD
#define CK_TASKS_BUILD 1
#endif

#define CK_SCHED_MSGS_PER_PASS 16u    /* host messages handled per scheduler pass */
#define CK_CX_START_PASSES (1u << 16) /* replay: passes a start waits for its recorded M */

/* The scheduler's state. The per-slot arrays mirror what the scheduler
 * wrote into the launch slots, so that a pass reads device memory only for
 * what other groups change (claim words, counts). The pass loop's own values
 * live here too: held in registers they were live across every step of a
 * pass, and under the register cap that lets a compute unit hold the most
 * groups they spilled (docs/RESULTS.md, 326b075). */
typedef struct {
    CK_SCHED s;
    CK_PTR ch;
    ck_ch_cursor cur;
    uint max_workers, workers;
    uint chaos_seed;
    CK_PTR cx;               /* chaos record/replay area, or 0             */
    uint cx_wait;            /* replay: passes spent waiting for idle workers */
    uint fin_head;           /* finish ring: next entry to read            */
    uint dirty;              /* messages committed, not yet flushed        */
    uint q[CK_MAX_LAUNCHES]; /* published launches with groups left, in order */
    uint q_n;
    uint demand;              /* their groups not yet taken                 */
    uint task_demand;         /* of which task groups not yet claimed       */
    uint id[CK_MAX_LAUNCHES]; /* per slot: host id, group count, started    */
    uint groups[CK_MAX_LAUNCHES];
    uint started[CK_MAX_LAUNCHES];
    uint coop[CK_MAX_LAUNCHES];
    uint free_slots;            /* bit i set: launch slot i is free (the scheduler alone takes and frees slots) */
    uint coop_started;          /* cooperative launches started so far (chaos keys them by it) */
    uint task_taken;            /* tasks: ck_sched.task_taken when last read        */
    uint pend[CK_MAX_LAUNCHES]; /* received launches not yet started, in arrival order */
    uint pend_head, pend_n;
    uint pass;              /* passes so far (the heartbeat)               */
    uint shutdown;          /* the host asked the megakernel to stop       */
    uint ptok, posted;      /* this pass: the task poller's token, the host's posted count */
    uint taken, more;       /* this pass: messages taken; 1 if more may wait */
    uint msg[CK_CH_TAGGED]; /* tagged words of the host message in hand    */
    ulong pairs[4];         /* tasks: the table pairs a publication read (ck_task_publish_batch) */
} ck_sched_t;

/* What ck_find_work (and the task poll) hand a worker's group. */
typedef enum {
    CK_WORK_LEAVE = 0, /* the megakernel ends                                   */
    CK_WORK_GROUP = 1, /* a logical group of an ordinary launch                 */
    CK_WORK_FORK = 2,  /* a fork ticket of the cooperative launch               */
    CK_WORK_TASK = 3,  /* a group of a task of the task table                   */
    CK_WORK_POLL = 4,  /* the poller's group reads the task table (ck_task_poll_round) */
} ck_work_kind;

#define CK_POLL_ROUNDS 64u /* rounds of the table's poll between two calls of ck_find_work */
#define CK_POLL_PAIRS 16u  /* pairs a poll round reads: tickets v .. v + 15 (ck_poll_publish) */
#define CK_POLL_TOOK 1u    /* a task the poll round took: its descriptor and ticket came with it */
#define CK_POLL_ARGS 2u    /* ... and all its argument words (on its express line) */
#define CK_TASK_SCAN 64u   /* tickets a worker looks at per attempt */
#define CK_TASK_SPREAD 32u /* claimers start among this many newest tickets (a power of two) */

/* Thread 0's idle state, kept between calls of ck_find_work in the group's
 * local memory (ck_worker): with tasks these words live across the whole
 * worker loop, and in registers they were what a cap of 32 spilled
 * (docs/DISPATCH.md, "Registers"). The first four are the tokens and the
 * look's pace, cleared when the worker leaves idleness (ck_idle_clear). */
typedef struct {
    uint hot;     /* holds its cluster's hot token                              */
    uint poller;  /* the poller token as held (with its cursor), or 0           */
    uint backoff; /* reads to wait after a lost race (ck_policy_backoff)        */
    uint publish; /* a burst: the poller publishes and polls, claims nothing    */
    uint idle;    /* counted in ck_sched.idle (or holding its unit)                 */
    uint killed;  /* back from a kill, not yet busy or counted idle             */
} ck_idle_state;

/* The worker leaves idleness: its tokens were let go. */
void ck_idle_clear(local ck_idle_state *st)
{
    st->hot = 0u;
    st->poller = 0u;
    st->backoff = 0u;
    st->publish = 0u;
}
