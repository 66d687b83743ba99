/* runtime/launch_table.h: the launches through the task table
 * (launch_table.c), one of the two kinds behind a launch handle. */
#ifndef CK_RUNTIME_LAUNCH_TABLE_H
#define CK_RUNTIME_LAUNCH_TABLE_H

#include "context_state.h"

/* Launches kernel k (ordinary, below CK_TASK_MAX_KERNELS) with its packed
 * argument words as one ticket of the task table. Errors: those of
 * ck_launch_new and ck_task_post, the message saying it went through the
 * table. */
ck_status ck_launch_table_start(ck_context *ctx, int k, unsigned groups, const uint64_t *words, ck_launch **out);
/* At context destruction, after the megakernel stopped and before the
 * channel goes, with the registry's lock held: settles the launches
 * through the task table that are done and cuts every such launch off the
 * context (ck_wait on one then says the context is gone unless it had
 * finished); those the user released meanwhile go on the *retire list
 * (linked by next) for the caller to retire after the lock. */
void ck_launch_table_detach(ck_context *ctx, ck_launch **retire);

#endif
