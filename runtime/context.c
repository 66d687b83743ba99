/* runtime/context.c: a context's life: creating it (options, environment,
 * device), gathering the user's sources, its public accessors, and
 * shutdown (stopping the megakernel, waiting for the calls inside the
 * library, detaching the launches, freeing). Building the megakernel is
 * context_build.c's. */
#include "clock.h"
#include "context_build.h"
#include "context_handle.h"
#include "error.h"
#include "file_io.h"
#include "launch_scheduler.h"
#include "launch_table.h"
#include "memory.h"
#include "progress.h"
#include "register_cap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_WG 64u
#define DEFAULT_TIMEOUT 60.0

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* CK_CHAOS_SEED, strictly: a number, or an error naming the variable. */
static ck_status env_chaos_seed(uint64_t *out)
{
    const char *env = getenv("CK_CHAOS_SEED");
    if (!env || !*env)
        return CK_OK;
    char err[160];
    if (ck_parse_u64(env, 0, UINT64_MAX, out, err, sizeof err) != 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "CK_CHAOS_SEED: %s (a chaos seed is a whole number; 0 is off)", err);
    return CK_OK;
}

/* CK_CHECK, strictly: unset, 0 or 1. */
static ck_status env_check(int *out)
{
    const char *env = getenv("CK_CHECK");
    if (!env || !*env)
        return CK_OK;
    uint64_t v;
    char err[160];
    if (ck_parse_u64(env, 0, 1, &v, err, sizeof err) != 0)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "CK_CHECK: %s (1 builds the megakernel with its accounting checks, "
                       "0 or unset without)",
                       err);
    if (v)
        *out = 1;
    return CK_OK;
}

/* CK_TRANSMIT, strictly: unset, infer or declared. */
static ck_status env_transmit(int *out)
{
    const char *env = getenv("CK_TRANSMIT");
    if (!env || !*env)
        return CK_OK;
    if (!strcmp(env, "infer"))
        *out = CK_TRANSMIT_INFER;
    else if (!strcmp(env, "declared"))
        *out = CK_TRANSMIT_DECLARED;
    else
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "CK_TRANSMIT: '%.40s' is neither 'infer' (transmit what forked "
                       "groups read, where it can travel) nor 'declared' (only what the kernel declares transmit)",
                       env);
    return CK_OK;
}

ck_status ck_context_create(const ck_context_options *opts, ck_context **out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_create: out must not be NULL");
    *out = NULL;
    if (opts) {
        ck_status bad = ck_timeout_check(opts->timeout_s, "ck_context_create (ck_context_options.timeout_s)");
        if (bad == CK_OK)
            bad = ck_timeout_check(opts->shutdown_timeout_s,
                                   "ck_context_create (ck_context_options.shutdown_timeout_s)");
        if (bad != CK_OK)
            return bad;
        if (opts->launch_path != CK_LAUNCH_PATH_AUTO && opts->launch_path != CK_LAUNCH_PATH_SCHEDULER)
            return ck_fail(CK_ERR_INVALID_ARGUMENT,
                           "ck_context_create: launch_path %d is neither "
                           "CK_LAUNCH_PATH_AUTO (0) nor CK_LAUNCH_PATH_SCHEDULER (1)",
                           opts->launch_path);
        if (opts->transmit_mode != CK_TRANSMIT_INFER && opts->transmit_mode != CK_TRANSMIT_DECLARED)
            return ck_fail(CK_ERR_INVALID_ARGUMENT,
                           "ck_context_create: transmit_mode %d is neither "
                           "CK_TRANSMIT_INFER (0) nor CK_TRANSMIT_DECLARED (1)",
                           opts->transmit_mode);
        if ((uint64_t)opts->arena_bytes > CK_MAX_ARENA_BYTES)
            return ck_fail(CK_ERR_INVALID_ARGUMENT,
                           "ck_context_create: arena_bytes %zu is above the limit of %llu "
                           "(CK_MAX_ARENA_BYTES)",
                           opts->arena_bytes, (unsigned long long)CK_MAX_ARENA_BYTES);
    }
    ck_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory creating a context");
    ctx->magic = CK_MAGIC_CONTEXT;
    if (opts)
        ctx->opts = *opts;
    ck_context_options *o = &ctx->opts;
    if (!o->work_group_size)
        o->work_group_size = DEFAULT_WG;
    if (o->timeout_s == 0)
        o->timeout_s = DEFAULT_TIMEOUT;
    if (o->shutdown_timeout_s == 0)
        o->shutdown_timeout_s = o->timeout_s;
    ctx->local_pool_auto = o->local_pool_bytes == 0;
    ck_status s = o->chaos_seed ? CK_OK : env_chaos_seed(&o->chaos_seed);
    if (s == CK_OK && !o->accounting_checks)
        s = env_check(&o->accounting_checks);
    if (s == CK_OK && o->transmit_mode == CK_TRANSMIT_INFER)
        s = env_transmit(&o->transmit_mode);
    if (s != CK_OK)
        goto fail_alloc;
    if ((s = ck_chaos_init(&ctx->chaos, o)) != CK_OK)
        goto fail_chaos;
    if (o->local_pool_bytes % 16 || o->local_pool_bytes > (1u << 20)) {
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "local_pool_bytes %zu must be a multiple of 16 up to 1 MiB",
                    o->local_pool_bytes);
        goto fail_chaos;
    }
    if (o->register_cap_cache != 0 && o->register_cap_cache != CK_REGISTER_CAP_CACHE_OFF) {
        s = ck_fail(CK_ERR_INVALID_ARGUMENT,
                    "ck_context_create: register_cap_cache %d is not 0 (the cache on) or "
                    "CK_REGISTER_CAP_CACHE_OFF (%d)",
                    o->register_cap_cache, CK_REGISTER_CAP_CACHE_OFF);
        goto fail_chaos;
    }
    if ((s = ck_register_cap_resolve(o->register_cap, &o->register_cap)) != CK_OK) {
        s = ck_fail(s, "ck_context_create: %s", ck_last_error());
        goto fail_chaos;
    }
    if ((s = ck_device_open(&o->device, &ctx->dev)) != CK_OK)
        goto fail_chaos;
    if (o->work_group_size > ctx->dev->info.max_work_group_size) {
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "work-group size %zu is above the device's maximum %zu",
                    o->work_group_size, ctx->dev->info.max_work_group_size);
        goto fail_device;
    }
    if ((s = ck_trace_init(&ctx->trace, o->trace_active_groups != 0)) != CK_OK)
        goto fail_device;
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_mutex_init(&ctx->send_lock, NULL);
    pthread_mutex_init(&ctx->arena_lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&ctx->cond, &ca);
    pthread_condattr_destroy(&ca);
    ctx->next_id = 1;
    if ((s = ck_handle_register(ctx, CK_HANDLE_CONTEXT)) != CK_OK)
        goto fail_locks;
    *out = ctx;
    return CK_OK;

    /* What was made, undone in reverse order; s holds the error. */
fail_locks:
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->send_lock);
    pthread_mutex_destroy(&ctx->arena_lock);
    pthread_cond_destroy(&ctx->cond);
    ck_trace_free(&ctx->trace);
fail_device:
    ck_device_close(ctx->dev);
fail_chaos:
    ck_chaos_free(&ctx->chaos);
fail_alloc:
    free(ctx);
    return s;
}

static int context_is_live(const ck_context *ctx) { return ctx && ck_handle_is_live(ctx, CK_HANDLE_CONTEXT); }

unsigned ck_context_workers(const ck_context *ctx)
{
    if (!ctx || !context_is_live(ctx) || ck_context_enter((ck_context *)ctx, "ck_context_workers") != CK_OK)
        return 0;
    unsigned n = ctx->built ? ctx->workers : 0;
    ck_context_leave((ck_context *)ctx);
    return n;
}

ck_status ck_context_megakernel_resources(const ck_context *ctx, ck_megakernel_resources *out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_megakernel_resources: out must not be NULL");
    memset(out, 0, sizeof *out);
    ck_status s = ck_context_enter((ck_context *)ctx, "ck_context_megakernel_resources");
    if (s != CK_OK)
        return s;
    if (!ctx->built)
        s = ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_megakernel_resources: the context is not built (call "
                                             "ck_context_build first)");
    else
        *out = ctx->mk_resources;
    ck_context_leave((ck_context *)ctx);
    return s;
}

const char *ck_context_build_warnings(const ck_context *ctx)
{
    return context_is_live(ctx) && ctx->build_warnings ? ctx->build_warnings : "";
}

const ck_device_info *ck_context_device_info(const ck_context *ctx)
{
    return context_is_live(ctx) ? &ctx->dev->info : NULL;
}

ck_status ck_context_take_trace(ck_context *ctx, ck_trace_sample *out, size_t cap, size_t *n_out, size_t *dropped)
{
    if (!n_out || (cap > 0 && !out))
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_take_trace: %s is NULL", n_out ? "out" : "n_out");
    ck_status s = ck_context_enter(ctx, "ck_context_take_trace");
    if (s != CK_OK)
        return s;
    if (!ctx->trace.on) {
        ck_context_leave(ctx);
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_take_trace: tracing is off for this context (set "
                                                "ck_context_options.trace_active_groups)");
    }
    ck_trace_take(&ctx->trace, out, cap, n_out, dropped);
    ck_context_leave(ctx);
    return CK_OK;
}

/* A launch message with every argument word fits one channel slot. */
_Static_assert(CK_LAUNCH_HEADER_WORDS + 2u * CK_MAX_ARG_WORDS <= CK_CH_H2D_MAX_WORDS, "launch message too long");
_Static_assert(CK_MAX_GROUPS == CK_LAUNCH_MAX_GROUPS && CK_MAX_GROUPS == CK_TASK_DESC_GROUPS(0xffffffffu),
               "ck.h's group limit must be what a launch message and a task descriptor carry");
_Static_assert(CK_LAUNCH_W_ARGS == CK_LAUNCH_HEADER_WORDS && CK_LAUNCH_HEADER_WORDS <= CK_CH_TAGGED,
               "a launch message's named words are its header, which one tagged read takes");
_Static_assert(CK_DONE_WORDS <= CK_CH_MSG_WORDS, "a DONE message fits a channel slot");
_Static_assert(CK_CH_DONE_SLOTS < CK_LAUNCH_NO_DONE, "a completion word's index must fit CK_LAUNCH_KIND");

/* Blanks `#include "ck_cooperative.h"` lines (keeping line numbers): under the
 * framework the runtime puts the header in front of the user's code itself,
 * and the device compiler could not find the file. */
static void blank_header_include(char *text)
{
    for (char *p = text; (p = strstr(p, "ck_cooperative.h"));) {
        char *bol = p;
        while (bol > text && bol[-1] != '\n')
            --bol;
        char *q = bol;
        while (*q == ' ' || *q == '\t')
            ++q;
        if (*q == '#') {
            char *eol = strchr(p, '\n');
            if (!eol)
                eol = p + strlen(p);
            memset(bol, ' ', (size_t)(eol - bol));
            p = eol;
        } else {
            p += 16;
        }
    }
}

static ck_status add_source_pinned(ck_context *ctx, const char *file_name, const char *source,
                                   const char *const *cooperative, size_t n_cooperative);

ck_status ck_context_add_source(ck_context *ctx, const char *file_name, const char *source,
                                const char *const *cooperative, size_t n_cooperative)
{
    ck_status s = ck_context_enter(ctx, "ck_context_add_source");
    if (s != CK_OK)
        return s;
    s = add_source_pinned(ctx, file_name, source, cooperative, n_cooperative);
    ck_context_leave(ctx);
    return s;
}

static ck_status add_source_pinned(ck_context *ctx, const char *file_name, const char *source,
                                   const char *const *cooperative, size_t n_cooperative)
{
    const char *shown = file_name ? file_name : "<source>";
    if (!source)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_add_source (%s): source must not be NULL", shown);
    if (file_name && !*file_name)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_add_source: file_name is empty; give a name for "
                                                "messages or NULL");
    if (n_cooperative && !cooperative)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "ck_context_add_source (%s): n_cooperative is %zu but the "
                       "cooperative list is NULL",
                       shown, n_cooperative);
    for (size_t i = 0; i < n_cooperative; ++i)
        if (!cooperative[i] || !*cooperative[i])
            return ck_fail(CK_ERR_INVALID_ARGUMENT,
                           "ck_context_add_source (%s): cooperative kernel name %zu of %zu "
                           "is %s",
                           shown, i, n_cooperative, cooperative[i] ? "empty" : "NULL");
    if (ctx->built)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "sources must be added before ck_context_build");
    if (n_cooperative > SIZE_MAX / sizeof(char *) - 1)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_add_source: n_cooperative %zu is too large",
                       n_cooperative);
    ck_source *v = realloc(ctx->sources, (ctx->n_sources + 1) * sizeof *v);
    if (!v)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory adding a source");
    ctx->sources = v;
    ck_source *src = &v[ctx->n_sources];
    memset(src, 0, sizeof *src);
    src->name = dup_str(shown);
    src->text = dup_str(source);
    src->coop = calloc(n_cooperative + 1, sizeof(char *));
    int ok = src->name && src->text && src->coop;
    for (size_t i = 0; ok && i < n_cooperative; ++i)
        ok = (src->coop[i] = dup_str(cooperative[i])) != NULL;
    if (!ok) {
        for (size_t i = 0; src->coop && i < n_cooperative; ++i)
            free(src->coop[i]);
        free(src->coop);
        free(src->name);
        free(src->text);
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory adding a source");
    }
    src->n_coop = n_cooperative;
    blank_header_include(src->text);
    ctx->n_sources++;
    return CK_OK;
}

ck_status ck_context_add_file(ck_context *ctx, const char *path, const char *const *cooperative,
                              size_t n_cooperative)
{
    ck_status bad = ck_context_check(ctx, "ck_context_add_file");
    if (bad != CK_OK)
        return bad;
    if (!path || !*path)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_add_file: path must not be NULL or empty");
    char err[512];
    FILE *f = ck_file_open_read(path, 1, err, sizeof err);
    if (!f)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_add_file: kernel source: %s", err);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(text);
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "cannot read kernel source '%s'", path);
    }
    fclose(f);
    text[n] = 0;
    ck_status s = ck_context_add_source(ctx, path, text, cooperative, n_cooperative);
    free(text);
    return s;
}

/* What still ran when shutdown gave up, for the abort's message: the
 * oldest launches not yet done by name (at most four), then how many more. */
static void running_launches(ck_context *ctx, char *out, size_t n)
{
    enum { SHOWN = 4 };
    const ck_launch *oldest[SHOWN];
    unsigned count = 0;
    pthread_mutex_lock(&ctx->lock);
    for (ck_launch *l = ctx->inflight; l; l = l->next) { /* newest first */
        if (l->state == CK_LAUNCH_DONE)
            continue;
        memmove(oldest + 1, oldest, (SHOWN - 1) * sizeof *oldest);
        oldest[0] = l;
        ++count;
    }
    size_t at = 0;
    out[0] = 0;
    for (unsigned i = 0; i < count && i < SHOWN && at < n; ++i) {
        const ck_launch *l = oldest[i];
        int k = snprintf(out + at, n - at, "%slaunch %u '%s'%s", i ? ", " : "", l->id,
                         l->kernel_index >= 0 && (size_t)l->kernel_index < ctx->stitch.n_kernels
                             ? ctx->stitch.kernels[l->kernel_index].name
                             : "?",
                         l->coop ? " (cooperative)" : "");
        at += k > 0 ? (size_t)k : 0;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (count > SHOWN && at < n)
        snprintf(out + at, n - at, " and %u later launches", count - SHOWN);
    if (!count)
        snprintf(out, n, "tasks or launches through the task table");
}

/* Stops the megakernel: asks the scheduler to stop, waits up to the
 * context's shutdown timeout for the launches and tasks in flight, then aborts it
 * (every group leaves at its next primitive, group 0 too, and the
 * launches and tasks it cuts short fail their waits with the reason).
 * Returns the first error; *ended says whether the megakernel's launch has
 * completed (else nothing it uses may be released). */
static ck_status stop_megakernel(ck_context *ctx, int *ended)
{
    ck_status result = CK_OK;
    uint32_t m = CK_MSG_HEADER(CK_MSG_SHUTDOWN, 1);
    pthread_mutex_lock(&ctx->send_lock);
    ck_status s = ck_channel_send(ctx->ch, &m, 1, 5.0);
    pthread_mutex_unlock(&ctx->send_lock);
    double deadline = ck_now_s() + ctx->opts.shutdown_timeout_s;
    pthread_mutex_lock(&ctx->lock);
    while (s == CK_OK && !ctx->bye && !ctx->megakernel_ended && ck_now_s() < deadline) {
        pthread_mutex_unlock(&ctx->lock);
        ck_sleep_us(1000);
        pthread_mutex_lock(&ctx->lock);
    }
    int clean = ctx->bye || ctx->megakernel_ended;
    pthread_mutex_unlock(&ctx->lock);
    if (!clean) {
        char what[512];
        running_launches(ctx, what, sizeof what);
        pthread_mutex_lock(&ctx->lock);
        ctx->aborted = 1;
        snprintf(ctx->abort_reason, sizeof ctx->abort_reason,
                 "ck_context_destroy aborted it after %.1f s, the "
                 "context's shutdown timeout, while it still ran",
                 ctx->opts.shutdown_timeout_s);
        pthread_mutex_unlock(&ctx->lock);
        result = ck_fail(CK_ERR_TIMEOUT,
                         "ck_context_destroy: %s still ran %.1f s (shutdown_timeout_s) after shutdown "
                         "was asked; the megakernel was aborted and what it ran was cut short",
                         what, ctx->opts.shutdown_timeout_s);
        ck_channel_abort(ctx->ch);
    }
    *ended = ck_event_wait(ctx->mk_event, 30.0, "megakernel shutdown") == CK_OK;
    ck_progress_stop(ctx);
    pthread_mutex_lock(&ctx->lock);
    if (*ended) {
        __atomic_store_n(&ctx->megakernel_ended, 1, __ATOMIC_RELEASE);
        if (!ctx->bye && !ctx->aborted) {
            ctx->aborted = 1;
            snprintf(ctx->abort_reason, sizeof ctx->abort_reason, "it ended before its scheduler said goodbye");
        }
    }
    pthread_cond_broadcast(&ctx->cond);
    pthread_mutex_unlock(&ctx->lock);
    return result;
}

/* Waits until no call of another thread is inside the library on this
 * context (they were woken: the megakernel has ended or destroy has begun).
 * 1 if none is left. */
static int drain_calls(ck_context *ctx, double timeout_s)
{
    double deadline = ck_now_s() + timeout_s;
    while (atomic_load(&ctx->calls)) {
        if (ck_now_s() > deadline)
            return 0;
        pthread_mutex_lock(&ctx->lock);
        pthread_cond_broadcast(&ctx->cond);
        pthread_mutex_unlock(&ctx->lock);
        ck_sleep_us(1000);
    }
    return 1;
}

ck_status ck_context_destroy(ck_context *ctx)
{
    if (!ctx)
        return CK_OK;
    /* The registry, not the struct, says whether ctx is live: after a first
     * destroy the struct may be gone. Unregistering first also makes two
     * racing destroys safe (only one gets past here), and no call can pin
     * the context after it (ck_context_enter). */
    if (!ck_handle_unregister(ctx, CK_HANDLE_CONTEXT))
        return ck_handle_check(ctx, CK_HANDLE_CONTEXT, "ck_context_destroy");
    if (ctx->magic != CK_MAGIC_CONTEXT)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "ck_context_destroy: context handle %p is corrupted (bad magic "
                       "word); nothing was released",
                       (void *)ctx);
    pthread_mutex_lock(&ctx->lock);
    __atomic_store_n(&ctx->closing, 1, __ATOMIC_RELEASE); /* new launches and spawns are refused; waits go on */
    pthread_cond_broadcast(&ctx->cond);
    pthread_mutex_unlock(&ctx->lock);
    ck_status result = CK_OK;
    if (ctx->progress_started) {
        int ended;
        result = stop_megakernel(ctx, &ended);
        if (!ended) {
            /* A user kernel loops without reaching a primitive: the device is
             * still busy, so nothing it uses may be released (the context's
             * memory is left allocated; its handle is no longer live). */
            return ck_fail(CK_ERR_TIMEOUT,
                           "ck_context_destroy: the megakernel did not stop even after abort (a "
                           "kernel loops without reaching a primitive); its resources are left allocated");
        }
        ck_megakernel_gone(ctx);
    }
    if (ctx->broken) {
        if (ck_event_wait(ctx->mk_event, 1.0, "megakernel of a failed build") != CK_OK)
            return ck_fail(CK_ERR_TIMEOUT, "the megakernel of an earlier failed build still runs; the context's "
                                           "resources are left allocated");
        ck_megakernel_gone(ctx);
    }
    /* Calls of other threads that were inside the library on this context
     * have seen the end and leave; nothing is freed while one is inside. */
    if (!drain_calls(ctx, ctx->opts.timeout_s > 5.0 ? ctx->opts.timeout_s : 5.0))
        return ck_fail(CK_ERR_TIMEOUT,
                       "ck_context_destroy: %u calls of other threads were still inside the library "
                       "on this context after the megakernel stopped; the context's memory is left allocated",
                       atomic_load(&ctx->calls));
    /* Launches outlive their context. Under the registry's lock (where
     * ck_launch_enter reads a launch's context, and where ck_launch_release
     * marks a launch whose context is being destroyed) each launch the user
     * still holds forgets the context; those released go to the quarantine
     * after the lock (retiring takes it). */
    ck_launch *retire = NULL;
    ck_handle_lock();
    ck_launch_table_detach(ctx, &retire);
    ck_launch_scheduler_detach(ctx, &retire);
    ck_handle_unlock();
    for (ck_launch *l = retire, *n; l; l = n) {
        n = l->next;
        ck_handle_retire(l, &l->magic, CK_HANDLE_LAUNCH);
    }
    if (ctx->mk_event)
        clReleaseEvent(ctx->mk_event);
    if (ctx->kernel)
        clReleaseKernel(ctx->kernel);
    if (ctx->program)
        clReleaseProgram(ctx->program);
    ck_channel_destroy(ctx->ch);
    ck_arena_storage_destroy(ctx);
    ck_stitch_result_free(&ctx->stitch);
    free(ctx->build_warnings);
    ctx->build_warnings = NULL;
    for (size_t i = 0; i < ctx->n_sources; ++i) {
        free(ctx->sources[i].name);
        free(ctx->sources[i].text);
        for (size_t k = 0; k < ctx->sources[i].n_coop; ++k)
            free(ctx->sources[i].coop[k]);
        free(ctx->sources[i].coop);
    }
    free(ctx->sources);
    free(ctx->check_text);
    ck_chaos_free(&ctx->chaos);
    ck_trace_free(&ctx->trace);
    ck_device_close(ctx->dev);
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->send_lock);
    pthread_mutex_destroy(&ctx->arena_lock);
    pthread_cond_destroy(&ctx->cond);
    ck_handle_retire(ctx, &ctx->magic, CK_HANDLE_CONTEXT);
    return result;
}
