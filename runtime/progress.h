/* runtime/progress.h: starting and stopping a context's progress thread
 * (progress.c), the host's side of the channel while the megakernel runs. */
#ifndef CK_RUNTIME_PROGRESS_H
#define CK_RUNTIME_PROGRESS_H

#include "context_state.h"

/* Starts the thread (the megakernel runs and discovery is done); sets
 * ctx->progress_started. Errors: CK_ERR_NO_MEMORY (no thread could be
 * made). */
ck_status ck_progress_start(ck_context *ctx);
/* Asks the thread to stop and joins it (it stops within one 10 ms look). */
void ck_progress_stop(ck_context *ctx);

#endif
