/* runtime/chaos.h: chaos record and replay in the arena: the area the
 * device writes its decisions into and reads a replay from (layout CK_CX_*
 * in ck_sched_layout.h), and collecting each finished cooperative launch's
 * decisions from it into the record (chaos_record.h). */
#ifndef CK_RUNTIME_CHAOS_H
#define CK_RUNTIME_CHAOS_H

#include "ck.h"

/* At build, before the megakernel starts: allocates and fills the area and
 * tells the scheduler state where it is. Nothing without chaos mode or
 * without a record or replay path. Errors: CK_ERR_NO_MEMORY (host memory,
 * or no room in the arena), CK_ERR_OPENCL (the copy into the arena). */
ck_status ck_chaos_setup(ck_context *ctx);
/* A cooperative launch finished (progress thread, ctx->lock held): collects
 * its decisions, rewrites the record file, counts its divergences into
 * l->divergences and reports the first on stderr. */
void ck_chaos_launch_done(ck_context *ctx, ck_launch *l);

#endif
