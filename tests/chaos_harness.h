/* Chaos-test harness: every chaos run records its schedule into a temporary
 * file (or CK_CHAOS_RECORD when set); a run that passes deletes it, a run
 * that fails keeps it and prints the seed, the file and a command line that
 * replays that run. */
#ifndef CK_TESTS_CHAOS_HARNESS_H
#define CK_TESTS_CHAOS_HARNESS_H

#include "ck.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char path[512]; /* the record of this run                         */
    uint64_t seed;
    int temporary; /* created by the harness: deleted on success     */
} chaos_harness;

/* Before a chaos run with o->chaos_seed set: picks the record file and
 * points o->chaos_record_path at it (h must outlive the context). Returns 0,
 * or -1 if no temporary file could be made (the run then records nothing). */
int chaos_harness_begin(chaos_harness *h, ck_context_options *o);
/* After the run. failed == 0: deletes a temporary record. Otherwise keeps
 * it and writes to stderr (and into msg, if given) the seed, the record's
 * path and `[ENV] CK_CHAOS_REPLAY=... CK_CHAOS_SEED=... <command>`, where
 * command reruns just this seed and ENV is every CK_* and POCL_* variable of
 * this process that decides how it runs (POCL_MAX_PTHREAD_COUNT sets the
 * worker count on PoCL), so that the line run in a new shell replays the
 * same run. */
void chaos_harness_end(chaos_harness *h, int failed, const char *command, char *msg, size_t msg_size);

#endif
