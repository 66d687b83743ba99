/* Word layout of the scheduler state of the megakernel (device memory); the
 * messages between the host and the scheduler are ck_messages.h's. Shared
 * verbatim by the host runtime (C11) and the device code (OpenCL C). Offsets are 32-bit words.
 *
 *   [header][launch slots][worker records][transmit areas][fork records]
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
 * - Idle workers are counted, not listed: CK_H_IDLE counts idle workers that
 *   nobody has a claim on. A fork (or the start of a cooperative launch) takes
 *   k of them from CK_H_IDLE, writes a fork record for tickets t0..t0+k-1,
 *   and adds k to CK_H_PROMISED; an idle worker that takes one unit of
 *   CK_H_PROMISED takes the next ticket, finds the record that holds it and
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

/* Header: words written by many groups sit on lines of their own. */
#define CK_H_EXIT        0u   /* nonzero: workers leave their loop              */
#define CK_H_COOP_SLOT   1u   /* slot + 1 of the running cooperative launch      */
#define CK_H_HEARTBEAT   2u   /* scheduler loop iterations                       */
#define CK_H_DEMAND      3u   /* ordinary groups published and not yet taken    */
#define CK_H_Q_N         4u   /* launch queue: published launches with groups left */
#define CK_H_Q           8u   /* launch queue entries (slots, oldest first): CK_MAX_LAUNCHES words */
#define CK_H_IDLE        (2u * CK_LINE)  /* idle workers nobody has a claim on (a count only:
                                            workers take and give back units with relaxed RMWs) */
#define CK_H_PROMISED    (3u * CK_LINE)  /* idle workers promised to fork tickets */
#define CK_H_FT_NEXT     (4u * CK_LINE)  /* fork tickets taken                    */
#define CK_H_FT_END      (4u * CK_LINE + 1u) /* fork tickets written (under the lock) */
#define CK_H_LOCK        (5u * CK_LINE)  /* lock of the cooperative launch's context */
#define CK_H_KILLS_TOTAL (5u * CK_LINE + 1u) /* groups killed, all launches (under the lock) */
#define CK_H_FIN_TAIL    (6u * CK_LINE)  /* finish ring: entries pushed           */
#define CK_H_FIN         (7u * CK_LINE)  /* finish ring entries: slot + 1         */
#define CK_H_KILLED_BACK (9u * CK_LINE)  /* killed groups whose workers are idle again */
#define CK_H_CHAOS_AREA  (10u * CK_LINE) /* chaos record/replay: arena byte offset + 1, 0: none */
#define CK_H_ARRIVED     (10u * CK_LINE + 1u) /* workers that have entered their loop (each adds 1 once) */
/* Tasks (ck_channel_layout.h has the table in host memory). */
#define CK_H_TASK_VISIBLE (11u * CK_LINE) /* tickets made visible to workers (token holders add to it) */
#define CK_H_TASK_GROUPS (11u * CK_LINE + 1u) /* their groups, summed (the poller)      */
#define CK_H_TASK_HEAD   (12u * CK_LINE) /* no ticket below it has a group left (workers move it) */
#define CK_H_TASK_TAKEN  (13u * CK_LINE) /* task groups claimed by workers        */
#define CK_H_TASK_FINISHED (13u * CK_LINE + 1u) /* tasks finished                */
/* Task poller token. Its holder alone reads the task table and makes
 * tickets visible. Low two bits the state: 0 free, 1 held by an idle worker,
 * 2 by the scheduler, 3 (CK_POLLER_SCHED) left for the scheduler; the other
 * thirty the cursor, the next ticket to read, modulo 2^30 (ck_tok_cursor
 * gives the whole ticket back). A holder hands over the cursor with the
 * token itself, so the next holder needs no fence-ordered read of the
 * visible count: a one-group express take lets the token go with a relaxed
 * add (ck_task_poll_decide). */
#define CK_H_TASK_POLLER (14u * CK_LINE)
#define CK_POLLER_SCHED  3u   /* token left to the scheduler: the next ticket follows a message */
#define CK_TOK_STATE(t)  ((t) & 3u)
#define CK_TOK(cursor, state) (((cursor) << 2) | (state))
/* Hot idle workers: workers are split into CK_HOT_CLUSTERS(W) clusters by
 * index; cluster c's token (a line each, 0 free, 1 held) is held by at most
 * one of its idle workers, which looks for work without pause. The other
 * idle workers pause between looks and watch only the promised count, the
 * demand and their token (docs/DISPATCH.md). A token guards no data: it
 * is given back with a relaxed store (no fence on the way to work). */
#define CK_H_HOT         (15u * CK_LINE)
#define CK_HOT_MAX       32u
#define CK_HOT_CLUSTERS(W) ((W) / 2u < 1u ? 1u : (W) / 2u > CK_HOT_MAX ? CK_HOT_MAX : (W) / 2u)
/* The checking build's line (CK_CHECK_BUILD, ck_context_options.accounting_checks):
 * the first violation of an accounting rule (CK_CHECK_* below; the first
 * group to set the code writes its words, then the ready word), and the
 * worker count the scheduler found (the bound the workers check against).
 * Outside the checking build nobody touches it. */
#define CK_H_CHECK       ((15u + CK_HOT_MAX) * CK_LINE)
#define CK_CHECK_WORDS   5u   /* words after the code: who, then a..d      */
#define CK_H_CHECK_READY (CK_H_CHECK + 1u + CK_CHECK_WORDS) /* 1 once the words are written */
#define CK_H_CHECK_WORKERS (CK_H_CHECK + 8u)
#define CK_H_WORDS       ((16u + CK_HOT_MAX) * CK_LINE)

/* Accounting rules the checking build checks, and what its words hold
 * (who: the worker index, or CK_CHECK_SCHEDULER). The rules: every worker
 * is running a group, counted idle (CK_H_IDLE), promised to a fork ticket
 * (CK_H_PROMISED), or in transit between two of them for a bounded
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

/* Launch slot. Hot words have lines of their own. */
#define CK_L_STATE       0u   /* CK_SLOT_* below                                  */
#define CK_L_ID          1u   /* host's launch id                                */
#define CK_L_KERNEL      2u
#define CK_L_COOP        3u
#define CK_L_GROUPS      4u   /* requested groups (N for a cooperative kernel)   */
#define CK_L_STARTED     5u   /* ordinary: STARTED sent (scheduler)              */
#define CK_L_M           6u   /* cooperative: active groups M                    */
#define CK_L_KILL_REQ    7u   /* cooperative: groups the scheduler wants back    */
#define CK_L_LIVE        8u   /* cooperative: groups started or forked, not left  */
#define CK_L_KILLS       9u
#define CK_L_FORKED     10u
#define CK_L_RESIZES    11u
#define CK_L_MAX_M      12u
#define CK_L_DONE_SLOT  13u   /* ordinary: completion word in the channel (CK_CH_DONE), or CK_CH_NO_DONE_SLOT */
#define CK_L_INITIAL    14u
#define CK_L_ERROR      15u   /* nonzero: a device-side error code              */
#define CK_L_ARGS       16u   /* CK_MAX_ARG_WORDS 64-bit words (8-byte aligned)  */
/* The arguments end at word CK_L_ARGS + 2 * CK_MAX_ARG_WORDS = 72, inside
 * line 2: the hot words start at line 3 (a static assert in runtime/context.c
 * checks it). */
#define CK_L_CX_KEY     72u   /* cooperative, chaos: the launch's number among the context's
                                 cooperative launches (1, 2, ...), the key of its decisions:
                                 the same in every run of a program, whatever the ordinary
                                 launches between (runtime/chaos.c) */
#define CK_L_CLAIM      (3u * CK_LINE)  /* ordinary: CK_CLAIM_BIAS + groups not taken */
#define CK_L_DONE       (4u * CK_LINE)  /* ordinary: groups finished               */
/* Global barrier arrivals, spread over CK_BAR_COUNTERS counters of a line
 * each: group g adds to counter g % CK_BAR_COUNTERS, and the master sums
 * them. One counter serialised every arrival on one address: on the H100 at
 * 2639 groups that cost about 0.7 us of a 7.1 us barrier, and 4, 16 or 64
 * counters all remove it (docs/RESULTS.md). */
#define CK_BAR_COUNTERS 16u
#define CK_L_BAR_COUNT  (5u * CK_LINE)  /* counter i at CK_L_BAR_COUNT + i * CK_LINE */
#define CK_L_BAR_WORD   ((5u + CK_BAR_COUNTERS) * CK_LINE) /* release word: seq << M_BITS | M' */
#define CK_L_WORDS      ((6u + CK_BAR_COUNTERS) * CK_LINE)

/* A launch slot's state (CK_L_STATE; only the scheduler writes it). */
#define CK_SLOT_FREE     0u   /* no launch                                        */
#define CK_SLOT_RECEIVED 1u   /* its message was taken; not started, BEGIN not sent */
#define CK_SLOT_RUNNING  2u   /* ordinary: published; cooperative: started          */
#define CK_SLOT_WAITING  3u   /* cooperative, BEGIN sent: waits for the running one to end or for an idle worker */

/* Worker record (diagnostics only: nobody waits on it). */
#define CK_W_STATE       0u   /* 0 idle, 1 running a group                       */
#define CK_W_SLOT        1u
#define CK_W_GROUP       2u
#define CK_W_WORDS       8u

/* Fork record: one fork's k groups, their resume point and transmit bytes. */
#define CK_F_REFS        0u   /* tickets of this record not yet taken            */
#define CK_F_SLOT        1u
#define CK_F_LAUNCH      2u   /* host id of the launch                           */
#define CK_F_FIRST       3u   /* logical id of the first forked group            */
#define CK_F_T0          4u   /* its ticket (CK_F_T0_INVALID while rewritten)    */
#define CK_F_T0_INVALID  0xffffffffu
#define CK_F_POINT       5u   /* resume point                                    */
#define CK_F_TX_WORDS    6u
#define CK_F_K           7u   /* tickets (groups) of this fork                    */
#define CK_F_BIRTH       8u   /* chaos: birth of the forked groups (megakernel/ck_chaos.cl) */
#define CK_F_TX         10u
#define CK_F_WORDS       (CK_F_TX + CK_TX_WORDS)

#define CK_SH_LAUNCH(s)     (CK_H_WORDS + (s) * CK_L_WORDS)
#define CK_SH_WORKER(w)     (CK_SH_LAUNCH(CK_MAX_LAUNCHES) + (w) * CK_W_WORDS)
#define CK_SH_TX(W, w)      (CK_SH_WORKER(W) + (w) * CK_TX_WORDS)
#define CK_SH_FORK(W, f)    (CK_SH_TX(W, W) + (f) * CK_F_WORDS)
#define CK_SH_TASKS(W)      ((CK_SH_FORK(W, CK_FORK_RECS) + CK_LINE - 1u) / CK_LINE * CK_LINE)
#define CK_SH_TASK(W, e)    (CK_SH_TASKS(W) + (e) * CK_T_WORDS)
#define CK_SH_TOTAL(W)      CK_SH_TASK(W, CK_TASK_SLOTS)

/* Task record: the device's side of table entry e, written by the holder
 * of CK_H_TASK_POLLER when it makes a ticket visible (the claim word last,
 * after a release fence). */
#define CK_T_CLAIM       0u   /* CK_CLAIM_BIAS + groups not yet taken             */
#define CK_T_DONE        1u   /* groups finished                                  */
#define CK_T_TICKET      2u
#define CK_T_DESC        3u   /* the descriptor (CK_TASK_DESC)                     */
#define CK_T_WORDS       CK_LINE
/* Worker record's CK_W_SLOT while it runs a task group: this bit | entry. */
#define CK_W_SLOT_TASK   0x8000u

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

/* Device error codes (CK_L_ERROR). */
#define CK_DEV_ERR_TX_TOO_BIG  1u


#endif
