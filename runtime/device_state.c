/* The megakernel's state read from its own memory and described in words
 * (device_state.h). */
#include "device_state.h"
#include "clock.h"
#include "context_state.h"
#include "memory.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ck_status ck_device_view_read(ck_context *ctx, ck_device_view *v)
{
    memset(v, 0, sizeof *v);
    if (!ctx->built && !ctx->sched_words)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "the context has no running megakernel to describe");
    size_t n = ctx->sched_words;
    uint32_t *w = malloc(n * 4);
    v->worker = calloc(ctx->workers ? ctx->workers : 1, sizeof *v->worker);
    if (!w || !v->worker) {
        free(w);
        free(v->worker);
        v->worker = NULL;
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory reading the scheduler state");
    }
    ck_status s = ck_arena_copy(ctx, ctx->sched_off, w, n * 4, 0);
    if (s != CK_OK) {
        free(w);
        free(v->worker);
        v->worker = NULL;
        return s;
    }
    const ck_sched *h = (const ck_sched *)w;
    v->workers = ctx->workers;
    v->arrived = h->arrived;
    v->exit = h->exit;
    v->coop_slot = h->coop_slot;
    v->heartbeat = h->heartbeat;
    v->demand = h->demand;
    v->queued = h->queued;
    v->idle = (int32_t)h->idle;
    v->promised = (int32_t)h->promised;
    v->tickets_taken = h->tickets_taken;
    v->tickets_written = h->tickets_written;
    v->lock = h->lock;
    v->kills_total = h->kills_total;
    v->killed_back = h->killed_back;
    v->task_visible = h->task_visible;
    v->task_head = h->task_head;
    v->task_finished = h->task_finished;
    v->task_groups = h->task_groups;
    v->task_taken = h->task_taken;
    if (h->check.ready) {
        v->check_code = h->check.code;
        memcpy(v->check_words, h->check.words, sizeof v->check_words);
    }
    for (unsigned i = 0; i < CK_MAX_LAUNCHES; ++i) {
        const ck_launch_slot *L = &h->launch[i];
        ck_slot_view *sv = &v->slots[i];
        sv->state = L->state;
        sv->id = L->id;
        sv->kernel = L->kernel_index;
        sv->coop = L->coop;
        sv->groups = L->groups;
        sv->m = L->m;
        sv->kill_req = L->kill_req;
        sv->live = L->live;
        sv->kills = L->kills;
        sv->forked = L->forked;
        uint32_t c = L->claim;
        uint32_t left = c > CK_CLAIM_BIAS ? c - CK_CLAIM_BIAS : 0u;
        sv->claimed =
            sv->coop || sv->state != CK_SLOT_RUNNING ? 0u : sv->groups - (left < sv->groups ? left : sv->groups);
        sv->done = L->done;
    }
    for (unsigned f = 0; f < CK_FORK_RECS; ++f) {
        const ck_fork_rec *F = (const ck_fork_rec *)(w + CK_SH_FORK(ctx->max_workers, f));
        v->forks[f] = (ck_fork_view){F->refs, F->slot, F->launch, F->first, F->t0, F->k};
    }
    for (unsigned i = 0; i < v->workers; ++i) {
        const ck_worker_rec *R = (const ck_worker_rec *)(w + CK_SH_WORKER(i));
        v->worker[i] = (ck_worker_view){R->state, R->slot, R->group};
    }
    free(w);
    return CK_OK;
}

void ck_device_view_free(ck_device_view *v)
{
    free(v->worker);
    v->worker = NULL;
}

int ck_device_view_find(const ck_device_view *v, uint32_t id)
{
    for (int i = 0; i < (int)CK_MAX_LAUNCHES; ++i)
        if (v->slots[i].state != CK_SLOT_FREE && v->slots[i].id == id)
            return i;
    return -1;
}

static const char *kernel_name(const ck_context *ctx, uint32_t index)
{
    return index < ctx->stitch.n_kernels ? ctx->stitch.kernels[index].name : "?";
}

/* The running cooperative launch's slot, or -1. */
static int running_coop(const ck_device_view *v)
{
    int c = (int)v->coop_slot - 1;
    return c >= 0 && c < (int)CK_MAX_LAUNCHES && v->slots[c].state == CK_SLOT_RUNNING ? c : -1;
}

/* Fork tickets written and not yet taken, and for which launch. */
static void describe_tickets(const ck_device_view *v, char *out, size_t n)
{
    uint32_t open = v->tickets_written - v->tickets_taken;
    snprintf(out, n, "%u of %u fork tickets taken (%u written and not taken; %d workers promised to them, %d idle)",
             v->tickets_taken, v->tickets_written, open, v->promised, v->idle);
}

void ck_describe_launch(const ck_context *ctx, const ck_device_view *v, uint32_t id, char *out, size_t n)
{
    int i = ck_device_view_find(v, id);
    char t[256];
    if (i < 0) {
        snprintf(out, n, "the scheduler has not taken its launch message from the channel yet%s",
                 v->heartbeat == 0 ? " (and it has made fewer than 64 passes: it may not be running)" : "");
        return;
    }
    const ck_slot_view *sv = &v->slots[i];
    int c = running_coop(v);
    if (sv->state == CK_SLOT_RECEIVED || sv->state == CK_SLOT_WAITING) {
        if (c >= 0 && c != i)
            snprintf(out, n,
                     "it is received and waits to start: cooperative launch %u ('%s') is running, and one "
                     "runs at a time",
                     v->slots[c].id, kernel_name(ctx, v->slots[c].kernel));
        else if (sv->coop && v->idle <= 0)
            snprintf(out, n, "it is received and waits for an idle worker to start on (%d idle)", v->idle);
        else
            snprintf(out, n, "it is received and waits behind an earlier launch that has not started");
        return;
    }
    if (sv->coop) {
        describe_tickets(v, t, sizeof t);
        snprintf(out, n,
                 "it is running with M = %u of N = %u groups active, %u groups started or forked not yet "
                 "returned, %u kills asked and not yet taken; %s",
                 sv->m, sv->groups, sv->live, sv->kill_req, t);
        return;
    }
    if (sv->claimed < sv->groups && c >= 0 && v->slots[c].kill_req)
        snprintf(out, n,
                 "it is published: %u of its %u groups taken by workers, %u finished; the others wait for "
                 "workers that cooperative launch %u ('%s') holds: it was asked for %u of them and does not yield "
                 "them (it has not reached offer_kill or a resizing barrier since; %d workers idle)",
                 sv->claimed, sv->groups, sv->done, v->slots[c].id, kernel_name(ctx, v->slots[c].kernel),
                 v->slots[c].kill_req, v->idle);
    else if (sv->claimed < sv->groups && c >= 0)
        snprintf(out, n,
                 "it is published: %u of its %u groups taken by workers, %u finished; the others wait for "
                 "workers that cooperative launch %u ('%s') holds (no kill asked yet; %d workers idle)",
                 sv->claimed, sv->groups, sv->done, v->slots[c].id, kernel_name(ctx, v->slots[c].kernel), v->idle);
    else
        snprintf(out, n, "it is published: %u of its %u groups taken by workers, %u finished (%d workers idle)",
                 sv->claimed, sv->groups, sv->done, v->idle);
}

static void append(char **text, size_t *len, size_t *cap, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    size_t m = (size_t)k < sizeof line ? (size_t)k : sizeof line - 1;
    if (*len + m + 1 > *cap) {
        size_t nc = (*cap + m + 1) * 2;
        char *p = realloc(*text, nc);
        if (!p)
            return;
        *text = p;
        *cap = nc;
    }
    memcpy(*text + *len, line, m + 1);
    *len += m;
}

static const char *check_rule(uint32_t code)
{
    switch (code) {
    case CK_CHECK_TICKET_UNWRITTEN: return "a fork ticket was taken before it was written";
    case CK_CHECK_TICKET_LOST: return "a taken fork ticket is held by no fork record";
    case CK_CHECK_IDLE_OVER: return "more workers counted idle than there are workers";
    case CK_CHECK_PROMISED_OVER: return "more workers promised to fork tickets than there are workers";
    case CK_CHECK_LIVE_UNDER: return "a cooperative group left a launch that had no group left";
    case CK_CHECK_REFS_UNDER: return "a fork record gave out more tickets than it held";
    case CK_CHECK_M_RANGE: return "a cooperative launch's M left 1..N";
    default: return "an unknown rule";
    }
}

void ck_describe_check(const ck_device_view *v, char *out, size_t n)
{
    if (!v->check_code) {
        if (n)
            out[0] = 0;
        return;
    }
    const uint32_t *c = v->check_words;
    char who[32];
    if (c[0] == CK_CHECK_SCHEDULER)
        snprintf(who, sizeof who, "the scheduler");
    else
        snprintf(who, sizeof who, "worker %u", c[0]);
    char what[160];
    switch (v->check_code) {
    case CK_CHECK_TICKET_UNWRITTEN: snprintf(what, sizeof what, "ticket %u, %u written", c[1], c[2]); break;
    case CK_CHECK_TICKET_LOST:
        snprintf(what, sizeof what, "ticket %u, %u written, %u taken", c[1], c[2], c[3]);
        break;
    case CK_CHECK_IDLE_OVER:
    case CK_CHECK_PROMISED_OVER: snprintf(what, sizeof what, "count %d, %u workers", (int)c[1], c[2]); break;
    case CK_CHECK_LIVE_UNDER: snprintf(what, sizeof what, "slot %u, launch %u", c[1], c[2]); break;
    case CK_CHECK_REFS_UNDER: snprintf(what, sizeof what, "fork record %u, launch %u", c[1], c[2]); break;
    case CK_CHECK_M_RANGE: snprintf(what, sizeof what, "slot %u, M %d, N %u", c[1], (int)c[2], c[3]); break;
    default: snprintf(what, sizeof what, "code %u", v->check_code); break;
    }
    snprintf(out, n, "%s (rule %u, seen by %s: %s)", check_rule(v->check_code), v->check_code, who, what);
}

uint32_t ck_check_watch_look(ck_check_watch *w, const ck_device_view *v, int tasks, int host_idle, double now,
                             char *out, size_t n)
{
    /* A promise waits legitimately only while no worker is idle and, with
     * tasks, a worker that took an idle unit for a task of its own runs it
     * (ck_sched_layout.h): then a worker comes back when the task ends. */
    int promise = v->promised > 0 && (!tasks || v->idle > 0);
    if (!promise || !w->promise_on || v->tickets_taken != w->promise_taken) {
        w->promise_on = promise;
        w->promise_since = now;
        w->promise_taken = v->tickets_taken;
        w->promise_beat = v->heartbeat;
    } else if (now - w->promise_since >= CK_CHECK_STUCK_S && v->heartbeat - w->promise_beat >= CK_CHECK_PASSES) {
        snprintf(out, n,
                 "%s (rule %u, seen by the host: %d promised, %d idle, tickets %u taken of %u written, for "
                 "%.1f s and %u scheduler passes)",
                 "promised fork tickets stayed untaken while a worker was idle", CK_CHECK_PROMISE_STUCK, v->promised,
                 v->idle, v->tickets_taken, v->tickets_written, now - w->promise_since,
                 v->heartbeat - w->promise_beat);
        return CK_CHECK_PROMISE_STUCK;
    }
    int empty = v->promised == 0 && v->task_visible == v->task_finished && host_idle;
    for (unsigned i = 0; empty && i < CK_MAX_LAUNCHES; ++i)
        empty = v->slots[i].state == CK_SLOT_FREE;
    int wrong = empty && ((unsigned)v->idle != v->workers || v->kills_total != v->killed_back);
    if (!wrong || !w->rest_on) {
        w->rest_on = wrong;
        w->rest_since = now;
        w->rest_beat = v->heartbeat;
    } else if (now - w->rest_since >= CK_CHECK_STUCK_S && v->heartbeat - w->rest_beat >= CK_CHECK_PASSES) {
        snprintf(out, n,
                 "%s (rule %u, seen by the host: %d idle of %u workers, %u kills and %u killed groups back, "
                 "for %.1f s and %u scheduler passes)",
                 "at rest, not every worker was counted idle", CK_CHECK_REST_MISMATCH, v->idle, v->workers,
                 v->kills_total, v->killed_back, now - w->rest_since, v->heartbeat - w->rest_beat);
        return CK_CHECK_REST_MISMATCH;
    }
    return 0;
}

char *ck_describe_state(ck_context *ctx)
{
    char *text = NULL;
    size_t len = 0, cap = 0;
    ck_device_view a, b;
    ck_status s = ck_device_view_read(ctx, &a);
    if (s != CK_OK) {
        append(&text, &len, &cap, "the scheduler state could not be read: %s\n", ck_last_error());
        return text ? text : calloc(1, 1);
    }
    /* Twice: whether the scheduler is making passes (its heartbeat moves
     * every 64 passes) tells a stuck scheduler from a waiting one. */
    ck_sleep_us(20000);
    if (ck_device_view_read(ctx, &b) != CK_OK)
        b = a, b.worker = NULL;
    const char *moving = b.heartbeat != a.heartbeat ? "making passes" : "made no pass in 20 ms (stuck or starved)";
    append(&text, &len, &cap,
           "scheduler (read from device memory): %u workers, %d idle, %d promised to fork tickets; fork tickets %u "
           "taken of %u written; cooperative slot %d; %u groups of published launches wanted; %u kills made, %u "
           "killed groups back; lock %s; heartbeat %u -> %u: %s%s\n",
           a.workers, a.idle, a.promised, a.tickets_taken, a.tickets_written, (int)a.coop_slot - 1, a.demand,
           a.kills_total, a.killed_back, a.lock ? "held" : "free", a.heartbeat, b.heartbeat, moving,
           a.exit ? "; the megakernel is stopping" : "");
    if (a.task_visible || a.task_finished)
        append(&text, &len, &cap,
               "  tasks: %u made visible to workers, %u finished, oldest with groups left about "
               "ticket %u, %d groups not yet claimed\n",
               a.task_visible, a.task_finished, a.task_head, (int)(a.task_groups - a.task_taken));
    static const char *state_name[] = {"free", "received", "running", "waiting for workers"};
    for (unsigned i = 0; i < CK_MAX_LAUNCHES; ++i) {
        const ck_slot_view *sv = &a.slots[i];
        if (sv->state == CK_SLOT_FREE)
            continue;
        const char *st = sv->state < 4 ? state_name[sv->state] : "?";
        if (sv->coop)
            append(&text, &len, &cap,
                   "  slot %u: launch %u '%s' (cooperative, %s): N=%u M=%u, %u not yet returned, "
                   "%u kills asked, %u kills, %u forked\n",
                   i, sv->id, kernel_name(ctx, sv->kernel), st, sv->groups, sv->m, sv->live, sv->kill_req, sv->kills,
                   sv->forked);
        else
            append(&text, &len, &cap, "  slot %u: launch %u '%s' (%s): %u groups, %u taken by workers, %u done\n", i,
                   sv->id, kernel_name(ctx, sv->kernel), st, sv->groups, sv->claimed, sv->done);
    }
    unsigned recs = 0;
    for (unsigned f = 0; f < CK_FORK_RECS; ++f) {
        const ck_fork_view *fv = &a.forks[f];
        if (!fv->refs)
            continue;
        ++recs;
        append(&text, &len, &cap, "  fork record %u: launch %u, groups %u..%u, tickets %u..%u, %u not yet taken\n",
               f, fv->launch, fv->first, fv->first + fv->k - 1u, fv->t0, fv->t0 + fv->k - 1u, fv->refs);
    }
    unsigned busy = 0;
    for (unsigned i = 0; i < a.workers; ++i) {
        const ck_worker_view *wv = &a.worker[i];
        if (!wv->busy)
            continue;
        ++busy;
        if (wv->slot & CK_W_SLOT_TASK)
            append(&text, &len, &cap, "  worker %u: task table entry %u group %u\n", i, wv->slot & ~CK_W_SLOT_TASK,
                   wv->group);
        else
            append(&text, &len, &cap, "  worker %u: slot %u group %u\n", i, wv->slot, wv->group);
    }
    append(&text, &len, &cap, "  %u of %u workers running a group, %u fork records in use\n", busy, a.workers, recs);
    if (b.arrived < a.workers)
        append(&text, &len, &cap,
               "  only %u of the %u workers discovery counted have started their loop (a "
               "worker's thread that has not run since: the first cooperative launch waits a while for them)\n",
               b.arrived, a.workers);
    char check[512];
    ck_describe_check(&b, check, sizeof check);
    if (check[0])
        append(&text, &len, &cap, "  accounting check failed: %s\n", check);
    ck_device_view_free(&a);
    ck_device_view_free(&b);
    return text ? text : calloc(1, 1);
}
