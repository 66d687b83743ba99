/* Word layout of the host-device channel memory, shared verbatim by the host
 * runtime (C11) and the device code (OpenCL C). Every offset is in 32-bit
 * words. Fields written by one side and read by the other sit on their own
 * 128-byte line so the two sides never write the same line. */
#ifndef CK_CHANNEL_LAYOUT_H
#define CK_CHANNEL_LAYOUT_H

#define CK_CH_LINE_WORDS 32u           /* 128 bytes */

/* Host-to-device ring: host produces, device consumes. The device learns of
 * a message from its slot's tags (below), not from the head, which only the
 * host reads. */
#define CK_CH_H2D_HEAD   (0u * CK_CH_LINE_WORDS)   /* written by host: messages posted  */
/* Written by host, on the head's line: tasks whose table state is written
 * (a count, not a prefix; only a hint that makes the scheduler look at the
 * task table, which it otherwise leaves alone). */
#define CK_CH_TASK_POSTED (CK_CH_H2D_HEAD + 1u)
#define CK_CH_H2D_TAIL   (1u * CK_CH_LINE_WORDS)   /* written by device: messages taken */
/* Device-to-host ring: device produces, host consumes. */
#define CK_CH_D2H_HEAD   (2u * CK_CH_LINE_WORDS)   /* written by device */
#define CK_CH_D2H_TAIL   (3u * CK_CH_LINE_WORDS)   /* written by host   */

/* Control line, written by the host only. */
#define CK_CH_CONTROL    (4u * CK_CH_LINE_WORDS)
#define CK_CH_ABORT      (CK_CH_CONTROL + 0u)      /* nonzero: every device spin loop exits */
#define CK_CH_POLL_CLOSE (CK_CH_CONTROL + 1u)      /* nonzero: close the occupancy poll      */

/* Status line, written by the device only. */
#define CK_CH_STATUS     (5u * CK_CH_LINE_WORDS)
#define CK_CH_POLL_COUNT (CK_CH_STATUS + 0u)       /* tickets taken so far (mirror)          */
#define CK_CH_POLL_FINAL (CK_CH_STATUS + 1u)       /* 1 + final occupancy once poll closed   */
#define CK_CH_COOP_M     (CK_CH_STATUS + 2u)       /* M of the cooperative launch, mirrored at every change (trace) */

/* Message rings. A message has at most CK_CH_MSG_WORDS words; word 0 is its
 * header: type in the low 16 bits, length in words (header included) in the
 * high 16 bits. */
#define CK_MSG_TYPE(w0) ((w0) & 0xffffu)
#define CK_MSG_LEN(w0)  ((w0) >> 16)
#define CK_MSG_HEADER(type, len) (((unsigned)(len) << 16) | ((unsigned)(type) & 0xffffu))
#define CK_CH_MSG_WORDS  64u
#define CK_CH_SLOTS      64u                      /* power of two */
/* A host-to-device slot says itself that it holds the next message, so the
 * device reads a message's first words and learns that it is there in one
 * trip across the bus, without reading the head first (on the H100 each such
 * read is a bus round trip of 1.5-2 us). Its first 32 bytes are four 64-bit
 * words, each a message word in the low half and the message's tag (its
 * sequence number + 1: messages sent before it + 1) in the high half; the
 * host writes the rest of the message first, then these four, and the
 * device takes the message once all four carry the tag it expects. Each
 * 64-bit word is written and read as one value (as the task table's pairs),
 * so a message half written is never taken. Message word i sits at slot
 * word CK_CH_H2D_WORD(i): 2i for the first four, i + 4 after them. */
#define CK_CH_TAGGED     4u
#define CK_CH_H2D_WORD(i) ((i) < CK_CH_TAGGED ? 2u * (i) : (i) + CK_CH_TAGGED)
#define CK_CH_H2D_MAX_WORDS (CK_CH_MSG_WORDS - CK_CH_TAGGED) /* longest host message */
#define CK_CH_H2D_RING   (6u * CK_CH_LINE_WORDS)
#define CK_CH_D2H_RING   (CK_CH_H2D_RING + CK_CH_SLOTS * CK_CH_MSG_WORDS)

/* Completion words, written by the device only: the host gives an ordinary
 * launch one of them (in its LAUNCH message) and the worker that finishes
 * the launch's last group stores the launch id there, so a waiting host
 * sees the completion without a scheduler pass or a message. The host
 * hands a word out again only after the launch's DONE message came back. */
#define CK_CH_DONE       (CK_CH_D2H_RING + CK_CH_SLOTS * CK_CH_MSG_WORDS)
#define CK_CH_DONE_SLOTS 256u
#define CK_CH_NO_DONE_SLOT 0xffffffffu

/* The task table (runtime/task_table.c, docs/TASKS_API.md). Ticket t lives in
 * entry t % CK_TASK_SLOTS. Its state word only grows:
 *   2t+1  the host has written task t (host, release store, only into a
 *         free entry);
 *   2t+2  task t is done and the entry free for ticket t + CK_TASK_SLOTS
 *         (device, release store by the group that finishes the task last).
 * The state words sit in pairs (state, descriptor), one 64-bit word each
 * (state in the low half), always written and read as one value, in one
 * array: the scheduler reads four tickets' pairs with one batched load; the
 * descriptor says kernel, argument words and groups (CK_TASK_DESC). The
 * argument words sit in a separate entry of CK_CH_TE_WORDS words (below),
 * read by the worker groups that run the task. */
#define CK_TASK_SLOTS    4096u                    /* power of two, multiple of 16 */
#define CK_TASK_DESC(kernel, nw, groups) (((unsigned)(kernel) << 22) | ((unsigned)(nw) << 16) | (unsigned)(groups))
#define CK_TASK_DESC_KERNEL(d) (((d) >> 22) & 511u)
/* Set by the host when a message it sent before this spawn (a launch) may not
 * have been taken by the scheduler yet: only the scheduler, after it has
 * taken every pending message, makes such a ticket visible, so a task never
 * overtakes a launch that was made before it (docs/TASKS_API.md). */
#define CK_TASK_DESC_AFTER_MSG 0x80000000u
#define CK_TASK_DESC_NW(d)     (((d) >> 16) & 63u)
#define CK_TASK_DESC_GROUPS(d) ((d) & 0xffffu)
#define CK_TASK_MAX_KERNELS 512u
#define CK_CH_TASK_STATE (CK_CH_DONE + CK_CH_DONE_SLOTS)  /* pairs: state, descriptor */
/* An entry: first its express line (one 128-byte line, 16 64-bit words,
 * host written), word i being (ticket + 1) << 32 | payload, payload 0 the
 * descriptor and payload i the argument word i - 1 for i up to
 * CK_CH_XL_ARGS; then the argument words from CK_CH_XL_ARGS on, one 32-bit
 * word each, at CK_CH_TE_TAIL. The task poller's group reads ticket v's
 * express line in the same trip as the pairs (ck_task_poll_round), and every
 * word says by its tag whether it is this ticket's, so a one-group task with
 * few arguments starts without a second trip across the bus; the host
 * writes no more lines than the arguments need. */
#define CK_CH_TASK_ENTRY (((CK_CH_TASK_STATE + 2u * CK_TASK_SLOTS) + 31u) & ~31u) /* 128-byte aligned */
#define CK_CH_XL_WORDS   32u  /* the express line, in 32-bit words                    */
#define CK_CH_XL_ARGS    15u  /* argument words it carries                            */
#define CK_CH_TE_TAIL    CK_CH_XL_WORDS /* where argument word CK_CH_XL_ARGS sits     */
#define CK_CH_TE_WORDS   96u  /* three lines: 32 + 41 argument words, padded          */
/* Argument word i of the entry at `base` (a 32-bit word index). */
#define CK_CH_TE_ARG(base, i) ((i) < CK_CH_XL_ARGS ? (base) + 2u * (1u + (i)) : (base) + CK_CH_TE_TAIL + ((i) - CK_CH_XL_ARGS))
/* Device times of each entry's task, written by the device only (always:
 * 0 where it has no clock), so the host never writes their lines: clock (ns,
 * lo/hi) when group 0 started, then when the last group finished. */
#define CK_CH_TASK_TIMES (CK_CH_TASK_ENTRY + CK_TASK_SLOTS * CK_CH_TE_WORDS)
#define CK_CH_TT_WORDS   4u
#define CK_CH_TT_START   0u
#define CK_CH_TT_END     2u
#define CK_CH_TOTAL_WORDS (CK_CH_TASK_TIMES + CK_TASK_SLOTS * CK_CH_TT_WORDS)

/* Occupancy poll word (lives in device memory, not in the channel). */
#define CK_POLL_CLOSED   0x80000000u
#define CK_POLL_MASK     0x7fffffffu

#endif
