/* tools/plain_sync.h: ckbench's measurements of synchronisation in plain
 * OpenCL (no megakernel), on the same device and at the same group count as
 * the megakernel's: the plain global barrier of include/ck_cooperative.h in
 * its current and its earlier form, and lock-heavy kernels with the portable
 * mutex, with lock forms written out from the ck_atomics.h calls, and (on
 * NVIDIA) with a hand-written atom.cas + membar.gl lock. Every kernel's
 * result is checked: a lock that lets two holders in loses counts. */
#ifndef TOOLS_PLAIN_SYNC_H
#define TOOLS_PLAIN_SYNC_H

#include "ck.h"

#include <stddef.h>

/* Lock forms, in the order of plain_sync_results.mutex. */
enum {
    PLAIN_MUTEX_PORTABLE,  /* device_mutex_lock / device_mutex_unlock of ck_cooperative.h      */
    PLAIN_MUTEX_CAS,       /* spin on an acquire-release compare-exchange, release store      */
    PLAIN_MUTEX_CAS_FENCE, /* spin on a relaxed compare-exchange, acquire fence once taken    */
    PLAIN_MUTEX_TTAS,      /* relaxed load until free, then as CAS_FENCE                      */
    PLAIN_MUTEX_PTX,       /* NVIDIA: atom.global.cas + membar.gl; membar.gl + atom.exch      */
    PLAIN_MUTEX_FORMS
};

/* Lock patterns: "own": one lock per group, every eighth critical section
 * under another group's lock (a work-stealing pool's queues); "shared": one
 * lock per PLAIN_MUTEX_SHARERS groups. */
#define PLAIN_MUTEX_SHARERS 16u

/* Master-release barriers measured beside the header's (the megakernel's
 * scheme: arrivals spread over counters, group 0 sums them and releases the
 * others with one word): {counters, stride in words} (a stride of 32 words
 * puts each counter on a 128-byte line of its own, 8 on a 32-byte sector). */
#define PLAIN_MASTER_FORMS 5
static const unsigned plain_master_forms[PLAIN_MASTER_FORMS][2] = {{1, 32}, {8, 32}, {16, 32}, {32, 32}, {16, 8}};
#define PLAIN_MASTER_WORDS 1056u /* (32 + 1) lines of 32 words */

typedef struct {
    unsigned groups;                        /* work-groups of every kernel                              */
    unsigned occupancy;                     /* co-resident groups of a plain kernel (discovered)        */
    double barrier_us;                      /* per global_barrier(), the current form                   */
    double barrier_fenced_us;               /* per global_barrier(), -DCK_PLAIN_BARRIER_FENCED          */
    double counter_us;                      /* per barrier, the one-counter form before the ticket form */
    double master_us[PLAIN_MASTER_FORMS];   /* per barrier, plain_master_forms        */
    int mutex_ran[PLAIN_MUTEX_FORMS];       /* 0: the form does not exist on this device    */
    double mutex_own_ns[PLAIN_MUTEX_FORMS]; /* per critical section of one group        */
    double mutex_shared_ns[PLAIN_MUTEX_FORMS];
} plain_sync_results;

/* The forms' names for reports ("portable", "cas", "cas_fence", "ttas", "ptx"). */
const char *plain_mutex_name(int form);

/* Measures on the device `dev` names, with work-groups of `wg` work-items and
 * `groups` groups (lowered to the discovered occupancy if above it, since the
 * barrier needs every group co-resident): `barriers` barriers and
 * `mutex_iters` critical sections per group, every wait within timeout_s.
 * Each figure is the median over three launches of the difference to a
 * launch that does none. Errors: -1 with a message in err (the OpenCL call
 * that failed, a build log, a wait that ran out, or a lock form that lost
 * counts). */
int plain_sync_measure(const ck_device_options *dev, size_t wg, unsigned groups, unsigned barriers,
                       unsigned mutex_iters, double timeout_s, plain_sync_results *out, char *err, size_t err_len);

#endif
