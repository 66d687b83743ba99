/* The messages between the host and the scheduler: their types and each
 * one's words by name. Shared verbatim by the host runtime (C11:
 * runtime/launch_scheduler.c, runtime/context.c) and the device code (OpenCL C:
 * ck_scheduler.cl). Word 0 of every message is its channel header
 * (CK_MSG_HEADER in ck_channel_layout.h: type and length). */
#ifndef CK_MESSAGES_H
#define CK_MESSAGES_H

/* Host to device. */
#define CK_MSG_LAUNCH    10u  /* a launch: CK_LAUNCH_* words below, then its argument words */
#define CK_MSG_SHUTDOWN  11u  /* stop once every launch and posted task has finished (header only) */

/* LAUNCH. Its first CK_LAUNCH_HEADER_WORDS words fit the channel's tagged
 * words (one read): the kind packs the kernel, the cooperative flag and the
 * completion word's index (CK_LAUNCH_NO_DONE: none), the size the groups
 * and the argument words. */
enum ck_launch_msg_word {
    CK_LAUNCH_W_ID = 1,   /* the host's launch id                           */
    CK_LAUNCH_W_KIND = 2, /* CK_LAUNCH_KIND(kernel, coop, done)             */
    CK_LAUNCH_W_SIZE = 3, /* CK_LAUNCH_SIZE(groups, argument words)         */
    CK_LAUNCH_W_ARGS = 4, /* the argument words (64-bit words as pairs)     */
};
#define CK_LAUNCH_HEADER_WORDS 4u
#define CK_LAUNCH_NO_DONE      0x1ffu
#define CK_LAUNCH_KIND(kernel, coop, done) \
    (((unsigned)(kernel) & 0x7fffu) | ((unsigned)(coop) << 15) | (((unsigned)(done) & 0x1ffu) << 16))
#define CK_LAUNCH_KERNEL(w2)   ((w2) & 0x7fffu)
#define CK_LAUNCH_COOP(w2)     (((w2) >> 15) & 1u)
#define CK_LAUNCH_DONE(w2)     (((w2) >> 16) & 0x1ffu)
#define CK_LAUNCH_MAX_GROUPS   0xffffu /* the groups field; ck.h's CK_MAX_GROUPS */
#define CK_LAUNCH_SIZE(groups, nw) (((unsigned)(groups) & CK_LAUNCH_MAX_GROUPS) | ((unsigned)(nw) << 16))
#define CK_LAUNCH_GROUPS(w3)   ((w3) & CK_LAUNCH_MAX_GROUPS)
#define CK_LAUNCH_NW(w3)       ((w3) >> 16)

/* Device to host. BEGIN, STARTED and BYE are three words long; DONE is
 * CK_DONE_WORDS. */
#define CK_MSG_BEGIN     20u  /* the launch is published (ordinary) or waits for workers (cooperative) */
#define CK_MSG_STARTED   21u  /* its first groups run                                              */
#define CK_MSG_DONE      22u  /* its last group has left; its slot is free                          */
#define CK_MSG_BYE       24u  /* the scheduler has stopped                                          */
#define CK_SHORT_MSG_WORDS 3u

enum ck_begin_msg_word {
    CK_BEGIN_W_ID = 1,        /* the launch id                                    */
};
enum ck_started_msg_word {
    CK_STARTED_W_ID = 1,      /* the launch id                                    */
    CK_STARTED_W_GROUPS = 2,  /* groups it started with (an ordinary launch: its first wave) */
};
enum ck_done_msg_word {
    CK_DONE_W_ID = 1,         /* the launch id                                    */
    CK_DONE_W_ERROR = 2,      /* a device-side error code (CK_DEV_ERR_*), or 0     */
    CK_DONE_W_KILLS = 3,      /* cooperative: groups killed (offer_kill taken)     */
    CK_DONE_W_FORKED = 4,     /* cooperative: groups forked                        */
    CK_DONE_W_RESIZES = 5,    /* cooperative: resizing barriers that changed M     */
    CK_DONE_W_MAX_M = 6,      /* cooperative: the largest M                        */
    CK_DONE_W_INITIAL = 7,    /* cooperative: the M it started with                */
    CK_DONE_WORDS = 8,
};

#endif
