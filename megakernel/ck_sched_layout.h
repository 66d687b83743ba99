/* Word layout of the scheduler state of the megakernel (device memory), and
 * of the messages between the host and the scheduler. Shared verbatim by the
 * host runtime (C11) and the device code (OpenCL C). Offsets are 32-bit words.
 *
 *   [header][launch slots][worker records][transmit areas][reserve list][ring]
 *
 * W is the most workers the megakernel can have (groups launched - 1) and R
 * the completion ring size (a power of two >= W); the host passes both. */
#ifndef CK_SCHED_LAYOUT_H
#define CK_SCHED_LAYOUT_H

#define CK_MAX_LAUNCHES   32u   /* launches in flight on the device                */
#define CK_MAX_ARG_WORDS  28u   /* 64-bit argument words per launch                */
#define CK_TX_WORDS       64u   /* transmit bytes per worker / 4 (256 bytes)       */
#define CK_M_BITS         14u   /* barrier word: low bits carry M', high bits a sequence */
#define CK_M_MASK         ((1u << CK_M_BITS) - 1u)

/* Header. */
#define CK_H_EXIT        0u   /* nonzero: workers leave their loop              */
#define CK_H_COOP_SLOT   1u   /* slot + 1 of the running cooperative launch      */
#define CK_H_RES_N       2u   /* workers reserved for the next fork (under lock) */
#define CK_H_RING_TAIL   3u   /* completion ring: next index (workers add)      */
#define CK_H_LOCK        4u   /* lock of the cooperative launch's context        */
#define CK_H_HEARTBEAT   5u   /* scheduler loop iterations                       */
#define CK_H_FREE_N      6u   /* idle workers not reserved (scheduler mirror)    */
#define CK_H_WORDS       32u

/* Launch slot. */
#define CK_L_STATE       0u   /* 0 free, 1 pending, 2 running                    */
#define CK_L_ID          1u   /* host's launch id                                */
#define CK_L_KERNEL      2u
#define CK_L_COOP        3u
#define CK_L_GROUPS      4u   /* requested groups (N for a cooperative kernel)   */
#define CK_L_NEXT        5u   /* ordinary: next logical group to hand out        */
#define CK_L_DONE        6u   /* ordinary: groups finished                       */
#define CK_L_M           7u   /* cooperative: active groups M                    */
#define CK_L_KILL_REQ    8u   /* cooperative: groups the scheduler wants back    */
#define CK_L_FINISHED    9u   /* cooperative: groups that returned               */
#define CK_L_BAR_COUNT  10u   /* global barrier arrivals                         */
#define CK_L_BAR_WORD   11u   /* global barrier release word: seq << M_BITS | M' */
#define CK_L_KILLS      12u
#define CK_L_FORKED     13u
#define CK_L_RESIZES    14u
#define CK_L_MAX_M      15u
#define CK_L_RNG        16u   /* chaos random state (under the lock)             */
#define CK_L_INITIAL    17u
#define CK_L_ERROR      18u   /* nonzero: a device-side error code              */
#define CK_L_BEGUN      19u
#define CK_L_ARGS       32u   /* CK_MAX_ARG_WORDS 64-bit words (8-byte aligned)  */
#define CK_L_WORDS      (CK_L_ARGS + 2u * CK_MAX_ARG_WORDS + 8u)

/* Worker record. */
#define CK_W_CMD         0u   /* assignment sequence: bumped to hand a task      */
#define CK_W_SLOT        1u
#define CK_W_GROUP       2u
#define CK_W_RESUME      3u
#define CK_W_STATE       4u   /* 0 idle, 1 busy, 2 reserved (for diagnostics)    */
#define CK_W_TASKS       5u   /* tasks run                                       */
#define CK_W_LAUNCH      6u   /* host id of the launch of the current task       */
#define CK_W_WORDS       32u

#define CK_SH_LAUNCH(s)     (CK_H_WORDS + (s) * CK_L_WORDS)
#define CK_SH_WORKER(w)     (CK_SH_LAUNCH(CK_MAX_LAUNCHES) + (w) * CK_W_WORDS)
#define CK_SH_TX(W, w)      (CK_SH_WORKER(W) + (w) * CK_TX_WORDS)
#define CK_SH_RES(W)        CK_SH_TX(W, W)
#define CK_SH_FREE(W)       (CK_SH_RES(W) + (W))
#define CK_SH_RING(W)       (CK_SH_FREE(W) + (W))
#define CK_SH_TOTAL(W, R)   (CK_SH_RING(W) + (R))

/* Device error codes (CK_L_ERROR). */
#define CK_DEV_ERR_TX_TOO_BIG  1u

/* Messages, host to device. */
#define CK_MSG_LAUNCH    10u  /* id, kernel, flags (bit 0 cooperative), groups, n_words, words... */
#define CK_MSG_SHUTDOWN  11u
#define CK_MSG_STATE     12u
#define CK_LAUNCH_HEADER_WORDS 6u
/* Messages, device to host. */
#define CK_MSG_BEGIN     20u  /* id: the scheduler starts gathering for it         */
#define CK_MSG_STARTED   21u  /* id, initial groups                                */
#define CK_MSG_DONE      22u  /* id, error, kills, forked, resizes, max M, initial */
#define CK_MSG_STATE_REPLY 23u /* part, then launch and worker summaries          */
#define CK_MSG_BYE       24u  /* the scheduler has stopped                         */

#endif
