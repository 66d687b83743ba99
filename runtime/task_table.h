/* runtime/task_table.h: the task table on the host: posting tickets into
 * its entries, seeing them done, waiting for them and reading their
 * statistics, for tasks (task.c) and for launches through the table
 * (launch_table.c); and the rule for the statistics of such a launch,
 * which stay in its entry until they are asked for or the entry is
 * reused (task_owner in context_state.h). */
#ifndef CK_RUNTIME_TASK_TABLE_H
#define CK_RUNTIME_TASK_TABLE_H

#include "context_state.h"

/* Writes a task of kernel index `kernel` with its packed argument words
 * (arg_words 64-bit words, checked by ck_pack_args) and returns its ticket;
 * timeout_s 0 is the context's. `owner`: the launch through the table that
 * the ticket is (NULL: a task); it is recorded in task_owner before the
 * ticket is written, and the post that takes its entry next copies its
 * statistics first. Errors: CK_ERR_INVALID_ARGUMENT (the context is being
 * destroyed), CK_ERR_CHECK_FAILED, CK_ERR_TIMEOUT (the table stayed full;
 * nothing was posted), CK_ERR_OPENCL (the megakernel is no longer
 * running). */
ck_status ck_task_post(ck_context *ctx, int kernel, unsigned groups, const uint64_t *words, unsigned arg_words,
                       double timeout_s, ck_launch *owner, uint64_t *ticket);
/* 1 once ticket t is done (never blocks); notes the first time the host
 * saw it done while its entry still holds it. */
int ck_task_ticket_done(ck_context *ctx, uint64_t t);
/* Waits for ticket t until `deadline` (ck_now_s); timeout_s is the wait's
 * length for the messages, fn the public call and `what` the ticket
 * ("task 12", "launch 7 (task 12)"). Errors: CK_ERR_TIMEOUT (with what the
 * device's state says), CK_ERR_CHECK_FAILED, and the errors of
 * ck_context_ended_error. */
ck_status ck_task_ticket_wait(ck_context *ctx, uint64_t t, double deadline, double timeout_s, const char *fn,
                              const char *what);
/* 1 and a done ticket's statistics while its entry still holds it, 0 when
 * a later ticket took the entry (no error is set). */
int ck_task_ticket_stats(ck_context *ctx, uint64_t t, ck_task_stats *out);

/* A launch through the table whose ticket is done: its statistics out of
 * its entry into l->tstats, once (a later post may have copied them
 * already); waits only for another thread's copy. Nothing once its context
 * is gone. */
void ck_task_owner_copy_stats(ck_launch *l);
/* l's entry forgets it (its handle goes): no later post copies into it. */
void ck_task_owner_disown(ck_launch *l);

#endif
