/* The scheduler state of the megakernel in device memory, as typed records
 * of 32-bit words; the messages between the host and the scheduler are
 * ck_messages.h's. Shared verbatim by the host runtime (C11) and the device
 * code (OpenCL C): the structs name the words, their padding keeps each
 * word's line (the host's compiler checks the placement, at the end).
 *
 *   [ck_sched: header, launch slots][worker records][transmit areas]
 *   [fork records][task records]
 *
 * W is the most workers the megakernel can have (groups launched - 1); the
 * host passes it.
 *
 * How work reaches a worker (mechanism; docs/DISPATCH.md has the design):
 * - Ordinary launches: the scheduler publishes a launch in the launch queue
 *   with a claim word of CK_CLAIM_BIAS + groups; idle workers take logical
 *   groups by decrementing it (a value above the bias is a group, one at or
 *   below it is nothing) and count completions on the launch; the group that
 *   completes the launch queues its slot on the finish ring.
 * - Idle workers are counted, not listed: ck_sched.idle counts idle workers that
 *   nobody has a claim on. A fork (or the start of a cooperative launch) takes
 *   k of them from ck_sched.idle, writes a fork record for tickets t0..t0+k-1,
 *   and adds k to ck_sched.promised; an idle worker that takes one unit of
 *   ck_sched.promised takes the next ticket, finds the record that holds it and
 *   runs the group it names. Every idle worker is
 *   counted in exactly one of the two (or holds its unit while it looks for
 *   work), so a promised group always has a worker to run it. One exception:
 *   the task poller that takes a ticket alone (ck_task_poll_decide) takes its
 *   unit without looking at the count, and when the scheduler had taken
 *   every unit the count goes below zero: the worker borrows a unit, and a
 *   promised group waits for the end of that task (an ordinary kernel, so it
 *   ends) or for another worker. */
#ifndef CK_SCHED_LAYOUT_H
#define CK_SCHED_LAYOUT_H

#define CK_MAX_LAUNCHES   32u   /* launches in flight on the device (power of two) */
#define CK_MAX_ARG_WORDS  28u   /* 64-bit argument words per launch                */
#define CK_TX_WORDS       64u   /* transmit bytes per fork / 4 (256 bytes)         */
#define CK_M_BITS         14u   /* barrier word: low bits carry M', high bits a sequence */
#define CK_M_MASK         ((1u << CK_M_BITS) - 1u)
#define CK_CLAIM_BIAS     0x40000000u /* claim word: bias + groups not yet taken      */
#define CK_FORK_RECS      64u   /* fork records (forks whose tickets are not all taken) */
#define CK_FIN_SLOTS      64u   /* finish ring (power of two > CK_MAX_LAUNCHES)     */
#define CK_LINE           32u   /* words per 128-byte line                          */
#define CK_HOT_MAX        32u   /* most hot-worker clusters (CK_HOT_CLUSTERS)      */
#define CK_BAR_COUNTERS   16u   /* barrier arrival counters per launch slot        */

/* A word of device state: an atomic word on the device, a plain one in the
 * host's copies (the host reads snapshots and writes only while no worker
 * runs). Every record below is made of these words, so a field's address is
 * what the atomics layer (ck_atomics.h) takes. */
#if defined(__OPENCL_C_VERSION__)
#define CK_WORD ck_atomic_uint
#else
#include <stddef.h>
#include <stdint.h>
#define CK_WORD uint32_t
#endif

/* One word alone on its line: words that many groups write or poll. */
typedef struct ck_word_line {
    CK_WORD w;
    CK_WORD pad[CK_LINE - 1u];
} ck_word_line;

/* The checking build's line (CK_CHECK_BUILD, ck_context_options.accounting_checks):
 * the first violation of an accounting rule (CK_CHECK_* below; the first
 * group to set the code writes its words, then the ready word), and the
 * worker count the scheduler found (the bound the workers check against).
 * Outside the checking build nobody touches it. */
#define CK_CHECK_WORDS   5u   /* words after the code: who, then a..d      */
typedef struct ck_check_line {
    CK_WORD code;                  /* CK_CHECK_*, 0: no violation              */
    CK_WORD words[CK_CHECK_WORDS]; /* who, then a..d                            */
    CK_WORD ready;                 /* 1 once the words are written              */
    CK_WORD pad0;
    CK_WORD workers;               /* the worker count the scheduler found      */
    CK_WORD pad1[CK_LINE - 9u];
} ck_check_line;

/* Launch slot. The words the scheduler writes when it takes a launch come
 * first; the hot words have lines of their own. */
typedef struct ck_launch_slot {
    CK_WORD state;      /* enum ck_slot_state; only the scheduler writes it   */
    CK_WORD id;         /* host's launch id                                  */
    CK_WORD kernel_index; /* the stitched kernel it runs                   */
    CK_WORD coop;
    CK_WORD groups;     /* requested groups (N for a cooperative kernel)     */
    CK_WORD started;    /* ordinary: STARTED sent (scheduler)                */
    CK_WORD m;          /* cooperative: active groups M                      */
    CK_WORD kill_req;   /* cooperative: groups the scheduler wants back      */
    CK_WORD live;       /* cooperative: groups started or forked, not left   */
    CK_WORD kills;
    CK_WORD forked;
    CK_WORD resizes;
    CK_WORD max_m;
    CK_WORD done_slot;  /* ordinary: completion word in the channel (CK_CH_DONE), or CK_CH_NO_DONE_SLOT */
    CK_WORD initial;
    CK_WORD error;      /* nonzero: a device-side error code (CK_DEV_ERR_*)  */
    /* (the scheduler zeroes the CK_L_HEAD_WORDS words above when it takes a launch) */
    CK_WORD args[2u * CK_MAX_ARG_WORDS]; /* CK_MAX_ARG_WORDS 64-bit words (8-byte aligned) */
    CK_WORD cx_key;     /* cooperative, chaos: the launch's number among the context's
                           cooperative launches (1, 2, ...), the key of its decisions:
                           the same in every run of a program, whatever the ordinary
                           launches between (runtime/chaos.c) */
    CK_WORD pad_cold[3u * CK_LINE - 17u - 2u * CK_MAX_ARG_WORDS];
    CK_WORD claim;      /* ordinary: CK_CLAIM_BIAS + groups not taken (line 3) */
    CK_WORD pad_claim[CK_LINE - 1u];
    CK_WORD done;       /* ordinary: groups finished (line 4)                 */
    CK_WORD pad_done[CK_LINE - 1u];
    /* Global barrier arrivals, spread over CK_BAR_COUNTERS counters of a line
     * each: group g adds to counter g % CK_BAR_COUNTERS, and the master sums
     * them. One counter serialised every arrival on one address: on the H100
     * at 2639 groups that cost about 0.7 us of a 7.1 us barrier, and 4, 16 or
     * 64 counters all remove it (docs/RESULTS.md). */
    ck_word_line bar_count[CK_BAR_COUNTERS];
    CK_WORD bar_word;   /* release word: seq << M_BITS | M'                   */
    CK_WORD pad_bar_word[CK_LINE - 1u];
} ck_launch_slot;

/* The fixed part of the scheduler state: the header, then the launch slots.
 * Words written by many groups sit on lines of their own. The worker
 * records, transmit areas, fork records and task records follow it; their
 * places depend on W (CK_SH_* below). */
typedef struct ck_sched {
    CK_WORD exit;       /* nonzero: workers leave their loop                 */
    CK_WORD coop_slot;  /* slot + 1 of the running cooperative launch        */
    CK_WORD heartbeat;  /* scheduler loop iterations                         */
    CK_WORD demand;     /* ordinary groups published and not yet taken       */
    CK_WORD queued;     /* launch queue: published launches with groups left */
    CK_WORD pad_q[3];
    CK_WORD queue[CK_MAX_LAUNCHES]; /* launch queue entries (slots, oldest first) */
    CK_WORD pad_queue[2u * CK_LINE - 8u - CK_MAX_LAUNCHES];
    CK_WORD idle;       /* idle workers nobody has a claim on (a count only: workers
                           take and give back units with relaxed RMWs)        */
    CK_WORD pad_idle[CK_LINE - 1u];
    CK_WORD promised;   /* idle workers promised to fork tickets             */
    CK_WORD pad_promised[CK_LINE - 1u];
    CK_WORD tickets_taken;   /* fork tickets taken                           */
    CK_WORD tickets_written; /* fork tickets written (under the lock)        */
    CK_WORD pad_tickets[CK_LINE - 2u];
    CK_WORD lock;        /* lock of the cooperative launch's context          */
    CK_WORD kills_total; /* groups killed, all launches (under the lock)      */
    CK_WORD pad_lock[CK_LINE - 2u];
    CK_WORD fin_tail;    /* finish ring: entries pushed                       */
    CK_WORD pad_fin_tail[CK_LINE - 1u];
    CK_WORD fin[CK_FIN_SLOTS]; /* finish ring entries: slot + 1               */
    CK_WORD killed_back; /* killed groups whose workers are idle again        */
    CK_WORD pad_killed_back[CK_LINE - 1u];
    CK_WORD chaos_area;  /* chaos record/replay: arena byte offset + 1, 0: none */
    CK_WORD arrived;     /* workers that have entered their loop (each adds 1 once) */
    CK_WORD pad_chaos[CK_LINE - 2u];
    /* Tasks (ck_channel_layout.h has the table in host memory). */
    CK_WORD task_visible;  /* tickets made visible to workers (token holders add to it) */
    CK_WORD task_groups;   /* their groups, summed (the poller)              */
    CK_WORD pad_task_visible[CK_LINE - 2u];
    CK_WORD task_head;     /* no ticket below it has a group left (workers move it) */
    CK_WORD pad_task_head[CK_LINE - 1u];
    CK_WORD task_taken;    /* task groups claimed by workers                 */
    CK_WORD task_finished; /* tasks finished                                 */
    CK_WORD pad_task_taken[CK_LINE - 2u];
    /* Task poller token. Its holder alone reads the task table and makes
     * tickets visible. Low two bits the state: 0 free, 1 held by an idle
     * worker, 2 by the scheduler, 3 (CK_POLLER_SCHED) left for the
     * scheduler; the other thirty the cursor, the next ticket to read,
     * modulo 2^30 (ck_tok_cursor gives the whole ticket back). A holder
     * hands over the cursor with the token itself, so the next holder needs
     * no fence-ordered read of the visible count: a one-group express take
     * lets the token go with a relaxed add (ck_task_poll_decide). */
    CK_WORD task_poller;
    CK_WORD pad_task_poller[CK_LINE - 1u];
    /* Hot idle workers: workers are split into CK_HOT_CLUSTERS(W) clusters
     * by index; cluster c's token (0 free, 1 held) is held by at most one of
     * its idle workers, which looks for work without pause. The other idle
     * workers pause between looks and watch only the promised count, the
     * demand and their token (docs/DISPATCH.md). A token guards no data: it
     * is given back with a relaxed store (no fence on the way to work). */
    ck_word_line hot[CK_HOT_MAX];
    ck_check_line check;
    ck_launch_slot launch[CK_MAX_LAUNCHES];
} ck_sched;

#define CK_POLLER_SCHED  3u   /* token left to the scheduler: the next ticket follows a message */
#define CK_TOK_STATE(t)  ((t) & 3u)
#define CK_TOK(cursor, state) (((cursor) << 2) | (state))
#define CK_HOT_CLUSTERS(W) ((W) / 2u < 1u ? 1u : (W) / 2u > CK_HOT_MAX ? CK_HOT_MAX : (W) / 2u)

/* Word counts of the fixed parts (the host checks them against the structs). */
#define CK_H_WORDS       ((16u + CK_HOT_MAX) * CK_LINE)
#define CK_L_WORDS       ((6u + CK_BAR_COUNTERS) * CK_LINE)
#define CK_L_HEAD_WORDS  16u  /* a launch slot's words before its arguments */

/* Accounting rules the checking build checks, and what its words hold
 * (who: the worker index, or CK_CHECK_SCHEDULER). The rules: every worker
 * is running a group, counted idle (ck_sched.idle), promised to a fork ticket
 * (ck_sched.promised), or in transit between two of them for a bounded
 * number of instructions; a ticket is taken only once written and is held
 * by exactly one fork record; a cooperative launch's counts never go below
 * zero and 1 <= M <= N. docs/DESIGN.md section 3.8. */
#define CK_CHECK_SCHEDULER       0xffffffffu
#define CK_CHECK_TICKET_UNWRITTEN 1u /* a: ticket taken, b: tickets written                 */
#define CK_CHECK_TICKET_LOST     2u  /* a: ticket, b: tickets written, c: tickets taken       */
#define CK_CHECK_IDLE_OVER       3u  /* a: idle count after the add, b: workers               */
#define CK_CHECK_PROMISED_OVER   4u  /* a: promised count after the add, b: workers           */
#define CK_CHECK_LIVE_UNDER      5u  /* a: slot, b: launch id                                 */
#define CK_CHECK_REFS_UNDER      6u  /* a: fork record, b: launch id                          */
#define CK_CHECK_M_RANGE         7u  /* a: slot, b: M after, c: N                             */
/* Rules 8 and 9 hold over time, so the host checks them (runtime/device_state.c):
 * promised tickets taken while a worker is idle, and every worker counted
 * idle at rest, each within CK_CHECK_STUCK_S seconds and CK_CHECK_PASSES
 * scheduler passes (both: a device whose threads the host's OS starved
 * makes no passes, a fast scheduler makes many in a short stall). */
#define CK_CHECK_PROMISE_STUCK   8u
#define CK_CHECK_REST_MISMATCH   9u
#define CK_CHECK_PASSES    (1u << 22)
#define CK_CHECK_STUCK_S   5.0

/* A launch slot's state (ck_launch_slot.state; only the scheduler writes it). */
enum ck_slot_state {
    CK_SLOT_FREE = 0,     /* no launch                                        */
    CK_SLOT_RECEIVED = 1, /* its message was taken; not started, BEGIN not sent */
    CK_SLOT_RUNNING = 2,  /* ordinary: published; cooperative: started          */
    CK_SLOT_WAITING = 3   /* cooperative, BEGIN sent: waits for the running one to end or for an idle worker */
};

/* Worker record (diagnostics only: nobody waits on it). */
enum ck_worker_state { CK_WORKER_IDLE = 0, CK_WORKER_RUNNING = 1 };
typedef struct ck_worker_rec {
    CK_WORD state;  /* enum ck_worker_state                                */
    CK_WORD slot;   /* launch slot, or CK_W_SLOT_TASK | task table entry    */
    CK_WORD group;
    CK_WORD pad[5];
} ck_worker_rec;
#define CK_W_SLOT_TASK   0x8000u

/* Fork record: one fork's k groups, their resume point and transmit bytes. */
#define CK_F_T0_INVALID  0xffffffffu
typedef struct ck_fork_rec {
    CK_WORD refs;      /* tickets of this record not yet taken               */
    CK_WORD slot;
    CK_WORD launch;    /* host id of the launch                              */
    CK_WORD first;     /* logical id of the first forked group               */
    CK_WORD t0;        /* its ticket (CK_F_T0_INVALID while rewritten)       */
    CK_WORD point;     /* resume point                                       */
    CK_WORD tx_words;
    CK_WORD k;         /* tickets (groups) of this fork                      */
    CK_WORD birth;     /* chaos: birth of the forked groups (megakernel/ck_chaos.cl) */
    CK_WORD pad;
    CK_WORD tx[CK_TX_WORDS];
} ck_fork_rec;

/* Task record: the device's side of table entry e, written by the holder
 * of the poller token when it makes a ticket visible (the claim word last,
 * after a release fence). */
typedef struct ck_task_rec {
    CK_WORD claim;     /* CK_CLAIM_BIAS + groups not yet taken               */
    CK_WORD done;      /* groups finished                                    */
    CK_WORD ticket;
    CK_WORD desc;      /* the descriptor (CK_TASK_DESC)                      */
    CK_WORD pad[CK_LINE - 4u];
} ck_task_rec;

/* Word sizes of the records, and where the parts that depend on W start
 * (word offsets from the start of the state): [ck_sched: header, launch
 * slots][worker records][transmit areas][fork records][task records]. */
#define CK_W_WORDS          8u
#define CK_F_WORDS          (10u + CK_TX_WORDS)
#define CK_T_WORDS          CK_LINE
#define CK_SH_LAUNCH(s)     (CK_H_WORDS + (s) * CK_L_WORDS)
#define CK_SH_WORKER(w)     (CK_SH_LAUNCH(CK_MAX_LAUNCHES) + (w) * CK_W_WORDS)
#define CK_SH_TX(W, w)      (CK_SH_WORKER(W) + (w) * CK_TX_WORDS)
#define CK_SH_FORK(W, f)    (CK_SH_TX(W, W) + (f) * CK_F_WORDS)
#define CK_SH_TASKS(W)      ((CK_SH_FORK(W, CK_FORK_RECS) + CK_LINE - 1u) / CK_LINE * CK_LINE)
#define CK_SH_TASK(W, e)    (CK_SH_TASKS(W) + (e) * CK_T_WORDS)
#define CK_SH_TOTAL(W)      CK_SH_TASK(W, CK_TASK_SLOTS)

/* Word offsets of the arrays in the fixed part; the device's addresses of
 * their elements are computed from them (below). */
#define CK_H_QUEUE       8u
#define CK_H_FIN         (7u * CK_LINE)
#define CK_H_HOT         (15u * CK_LINE)
#define CK_L_BAR_COUNT   (5u * CK_LINE)

/* The records of a state, by type (the device's pointers; the host's are
 * runtime/device_state.c's). An element of an array of the state is found
 * by a 32-bit word offset from its record, not by indexing the struct's
 * array: indexed, the device compiler multiplied 64-bit indices and kept
 * 64-bit addresses live, and the megakernel spilled at the register cap
 * that gives the most co-resident groups (docs/RESULTS.md, "Typed device
 * state"). */
#if defined(__OPENCL_C_VERSION__)
#define CK_SCHED            volatile global ck_sched *
#define CK_SLOT             volatile global ck_launch_slot *
#define CK_WORKER_REC       volatile global ck_worker_rec *
#define CK_FORK_REC         volatile global ck_fork_rec *
#define CK_TASK_REC         volatile global ck_task_rec *
#define ck_slot_of(s, i)       ((CK_SLOT)((CK_PTR)(s) + CK_SH_LAUNCH(i)))
#define ck_queue_at(s, i)      ((CK_PTR)(s) + (CK_H_QUEUE + (i)))
#define ck_fin_at(s, i)        ((CK_PTR)(s) + (CK_H_FIN + (i)))
#define ck_hot_token(s, c)     ((CK_PTR)(s) + (CK_H_HOT + (c) * CK_LINE))
#define ck_bar_counter(L, i)   ((CK_PTR)(L) + (CK_L_BAR_COUNT + (i) * CK_LINE))
#define ck_worker_rec_of(s, w) ((CK_WORKER_REC)((CK_PTR)(s) + CK_SH_WORKER(w)))
#define ck_tx_of(s, W, w)      ((CK_PTR)(s) + CK_SH_TX((W), (w)))
#define ck_fork_of(s, W, f)    ((CK_FORK_REC)((CK_PTR)(s) + CK_SH_FORK((W), (f))))
#define ck_task_of(s, W, e)    ((CK_TASK_REC)((CK_PTR)(s) + CK_SH_TASK((W), (e))))
#endif

/* Chaos area (in the arena; megakernel/ck_chaos.cl, runtime/chaos.c):
 * a header, the replay table (sorted entries), then the record entries. */
#define CK_CX_COUNT      0u   /* decisions recorded (may pass the capacity)       */
#define CK_CX_CAPACITY   1u   /* record entries that fit                          */
#define CK_CX_TABLE_N    2u   /* replay table entries                             */
#define CK_CX_DIVERGED   3u   /* replayed choices the model could not make        */
#define CK_CX_FLAGS      4u
#define CK_CX_FLAG_REPLAY 2u
#define CK_CX_HEADER     8u
#define CK_CX_ENTRY      8u   /* words per entry: key (4 words), then the below   */
#define CK_CX_E_VALUE    4u   /* the choice that took effect                      */
#define CK_CX_E_BEFORE   5u   /* M before                                         */
#define CK_CX_E_AFTER    6u   /* M after                                          */
#define CK_CX_E_FLAGS    7u   /* bit 0: replay diverged; bits 1..: recorded value */
/* Kinds of decision (key word 1: kind << 24 | logical group). */
#define CK_CX_START      1u   /* initial M of a cooperative launch                */
#define CK_CX_BARRIER    2u   /* a resizing barrier's new M (key word 3: epoch)   */
#define CK_CX_OFFER      3u   /* offer_kill accepted or not                       */
#define CK_CX_FORK       4u   /* request_fork: groups added                       */
#define CK_CX_NO_GROUP   0xffffffu

/* Device error codes (ck_launch_slot.error). */
#define CK_DEV_ERR_TX_TOO_BIG  1u


/* The placement the records keep (a word of many writers or pollers alone
 * on its line) and the sizes the offsets above assume, checked by the host's
 * compiler; the device compiles the same structs. */
#if !defined(__OPENCL_C_VERSION__)
#define CK_WORD_AT(type, field, word) \
    _Static_assert(offsetof(type, field) == (word) * 4u, #type "." #field " is at word " #word)
CK_WORD_AT(ck_sched, queue, CK_H_QUEUE);
CK_WORD_AT(ck_sched, idle, 2u * CK_LINE);
CK_WORD_AT(ck_sched, promised, 3u * CK_LINE);
CK_WORD_AT(ck_sched, tickets_taken, 4u * CK_LINE);
CK_WORD_AT(ck_sched, lock, 5u * CK_LINE);
CK_WORD_AT(ck_sched, fin_tail, 6u * CK_LINE);
CK_WORD_AT(ck_sched, fin, CK_H_FIN);
CK_WORD_AT(ck_sched, killed_back, 9u * CK_LINE);
CK_WORD_AT(ck_sched, chaos_area, 10u * CK_LINE);
CK_WORD_AT(ck_sched, task_visible, 11u * CK_LINE);
CK_WORD_AT(ck_sched, task_head, 12u * CK_LINE);
CK_WORD_AT(ck_sched, task_taken, 13u * CK_LINE);
CK_WORD_AT(ck_sched, task_poller, 14u * CK_LINE);
CK_WORD_AT(ck_sched, hot, CK_H_HOT);
CK_WORD_AT(ck_sched, check, (15u + CK_HOT_MAX) * CK_LINE);
CK_WORD_AT(ck_sched, launch, CK_H_WORDS);
CK_WORD_AT(ck_launch_slot, args, CK_L_HEAD_WORDS);
CK_WORD_AT(ck_launch_slot, claim, 3u * CK_LINE);
CK_WORD_AT(ck_launch_slot, done, 4u * CK_LINE);
CK_WORD_AT(ck_launch_slot, bar_count, CK_L_BAR_COUNT);
CK_WORD_AT(ck_launch_slot, bar_word, (5u + CK_BAR_COUNTERS) * CK_LINE);
CK_WORD_AT(ck_fork_rec, tx, 10u);
CK_WORD_AT(ck_check_line, workers, 8u);
_Static_assert(sizeof(ck_word_line) == CK_LINE * 4u, "a word line is one line");
_Static_assert(sizeof(ck_launch_slot) == CK_L_WORDS * 4u, "CK_L_WORDS is a launch slot");
_Static_assert(sizeof(ck_sched) == CK_SH_LAUNCH(CK_MAX_LAUNCHES) * 4u, "ck_sched is the header and the slots");
_Static_assert(sizeof(ck_worker_rec) == CK_W_WORDS * 4u, "CK_W_WORDS is a worker record");
_Static_assert(sizeof(ck_fork_rec) == CK_F_WORDS * 4u, "CK_F_WORDS is a fork record");
_Static_assert(sizeof(ck_task_rec) == CK_T_WORDS * 4u, "CK_T_WORDS is a task record");
_Static_assert(CK_SH_TASKS(0u) % CK_LINE == 0u, "task records start on a line");
#undef CK_WORD_AT
#endif

#endif
