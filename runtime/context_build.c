/* runtime/context_build.c: building a context's megakernel
 * (ck_context_build; context_build.h): stitching the user's sources,
 * compiling them with the runtime's device code under the register cap,
 * the arena and channel, launching the megakernel with occupancy discovery
 * inside the launch and starting the progress thread; and undoing a build
 * that failed, so that a retry starts clean. */
#include "context_build.h"
#include "cap_cache.h"
#include "chaos.h"
#include "clock.h"
#include "context_handle.h"
#include "device_sources.h"
#include "discovery.h"
#include "error.h"
#include "file_io.h"
#include "memory.h"
#include "program.h"
#include "progress.h"
#include "register_cap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LOCAL_POOL 8192u

/* Appends a warning of the build (a line ending in a newline) to what
 * ck_context_build_warnings returns, and writes it to stderr unless
 * quiet_warnings. Out of memory: the warning is only written. */
static void add_build_warning(ck_context *ctx, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (!ctx->opts.quiet_warnings)
        fputs(line, stderr);
    size_t have = ctx->build_warnings ? strlen(ctx->build_warnings) : 0;
    char *all = realloc(ctx->build_warnings, have + strlen(line) + 1);
    if (!all)
        return;
    memcpy(all + have, line, strlen(line) + 1);
    ctx->build_warnings = all;
}

/* The build's deadline, for the stitcher's stop hook. */
typedef struct {
    double deadline;
    int fired;
} stitch_clock;

static int past_deadline(void *arg)
{
    stitch_clock *c = arg;
    c->fired |= ck_now_s() > c->deadline;
    return c->fired;
}

/* Joins the sources into one stitcher input; `#line` directives keep each
 * file's own names and numbers for the device compiler. */
static ck_status stitch_sources(ck_context *ctx, double deadline)
{
    size_t len = 1, n_coop = 0;
    for (size_t i = 0; i < ctx->n_sources; ++i) {
        len += strlen(ctx->sources[i].text) + strlen(ctx->sources[i].name) + 64;
        n_coop += ctx->sources[i].n_coop;
    }
    char *all = malloc(len);
    const char **coop = calloc(n_coop + 1, sizeof *coop);
    if (!all || !coop) {
        free(all);
        free(coop);
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory stitching");
    }
    size_t at = 0, c = 0;
    for (size_t i = 0; i < ctx->n_sources; ++i) {
        if (ctx->n_sources > 1)
            at += (size_t)sprintf(all + at, "#line 1 \"%s\"\n", ctx->sources[i].name);
        at += (size_t)sprintf(all + at, "%s\n", ctx->sources[i].text);
        for (size_t k = 0; k < ctx->sources[i].n_coop; ++k)
            coop[c++] = ctx->sources[i].coop[k];
    }
    stitch_clock clock = {deadline, 0};
    char reason[96];
    snprintf(reason, sizeof reason, "the build deadline (timeout_s %.3g s) passed", ctx->opts.timeout_s);
    ck_stitch_input in = {.source = all,
                          .file_name = ctx->n_sources == 1 ? ctx->sources[0].name : "<sources>",
                          .cooperative = coop,
                          .n_cooperative = n_coop,
                          .infer_transmit = ctx->opts.transmit_mode == CK_TRANSMIT_INFER};
    char err[16384]; /* the rule checks list up to 20 errors, each with its note */
    int r = ck_stitch_until(&in, &ctx->stitch, err, sizeof err, past_deadline, &clock, reason);
    free(all);
    free(coop);
    if (r != 0)
        return ck_fail(clock.fired ? CK_ERR_TIMEOUT : CK_ERR_BUILD, "%s", err);
    if (ctx->stitch.cl20_atomic && ctx->dev->info.path == CK_PATH_CL12)
        return ck_fail(CK_ERR_BUILD,
                       "%s: error: '%s' is an OpenCL C 2.0 atomic, and this context runs the cl12 path "
                       "(OpenCL C 1.2 atomics with fences; NVIDIA's OpenCL offers only this one): use the "
                       "portable calls of ck_cooperative.h instead (device_atomic_add, device_atomic_cmpxchg, "
                       "device_load_acquire, device_store_release, device_mutex_lock, ...), which work on both "
                       "paths, or choose the cl20 path (ck_device_options.path) on a device that has it",
                       ctx->stitch.cl20_atomic_at, ctx->stitch.cl20_atomic);
    if (ctx->stitch.warnings && !ctx->opts.quiet_warnings)
        fputs(ctx->stitch.warnings, stderr);
    if (ctx->stitch.warnings && !(ctx->build_warnings = strdup(ctx->stitch.warnings)))
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory keeping the build's warnings");
    /* The local pool holds only `local T *` arguments: without such
     * parameters it needs no room, and every byte of local memory it takes
     * costs co-resident groups (occupancy). */
    if (ctx->local_pool_auto) {
        int local_params = 0;
        for (size_t k = 0; k < ctx->stitch.n_kernels; ++k)
            for (size_t i = 0; i < ctx->stitch.kernels[k].n_params; ++i)
                local_params |= ctx->stitch.kernels[k].params[i].kind == CK_PARAM_LOCAL_PTR;
        ctx->opts.local_pool_bytes = local_params ? DEFAULT_LOCAL_POOL : 16u;
    }
    for (size_t k = 0; k < ctx->stitch.n_kernels; ++k) {
        const ck_stitch_kernel *K = &ctx->stitch.kernels[k];
        if (K->reqd_wg_size && K->reqd_wg_size != ctx->opts.work_group_size)
            return ck_fail(CK_ERR_BUILD,
                           "kernel '%s' requires work-group size %zu but the megakernel runs %zu: set "
                           "ck_context_options.work_group_size",
                           K->name, K->reqd_wg_size, ctx->opts.work_group_size);
        if (K->arg_words > CK_MAX_ARG_WORDS)
            return ck_fail(CK_ERR_BUILD,
                           "kernel '%s' has %zu 64-bit words of arguments; a launch carries at most %u", K->name,
                           K->arg_words, CK_MAX_ARG_WORDS);
    }
    return CK_OK;
}

static ck_status build_program(ck_context *ctx, double deadline)
{
    /* Each file under a #line directive of its own name, so that the
     * device compiler's messages name the file; the stitched user code
     * carries its own directives. */
    enum { MAX_PARTS = 64 };
    const char *parts[MAX_PARTS];
    char lines[MAX_PARTS / 2][96];
    unsigned n = 0, nl = 0;
    for (const char *const *o = ck_megakernel_order; *o; ++o) {
        if (strcmp(*o, "@foundation") == 0) {
            for (const char *const *f = ck_program_foundation(); *f && n < MAX_PARTS; ++f)
                parts[n++] = ck_embedded_source_text(*f);
            continue;
        }
        if (strcmp(*o, "@stitched") == 0) {
            if (n < MAX_PARTS)
                parts[n++] = ctx->stitch.source;
            continue;
        }
        const char *text = ck_embedded_source_text(*o);
        if (!text || nl == MAX_PARTS / 2 || n + 2 > MAX_PARTS)
            return ck_fail(CK_ERR_BUILD,
                           "internal: the megakernel's source order names '%s', which the library "
                           "does not embed, or more files than it can join (%d); rebuild the library",
                           *o, MAX_PARTS);
        snprintf(lines[nl], sizeof lines[nl], "\n#line 1 \"%s\"\n", *o);
        parts[n++] = lines[nl++];
        parts[n++] = text;
    }
    /* CK_DUMP_SOURCE: the whole device source, for reading what the device
     * compiler got (a failure to write it is said on stderr; the build goes on). */
    const char *dump = getenv("CK_DUMP_SOURCE");
    if (dump && *dump) {
        ck_file_writer w;
        char err[512];
        int bad = ck_file_writer_open(&w, dump, 0, err, sizeof err);
        for (unsigned i = 0; !bad && i < n; ++i)
            fputs(parts[i] ? parts[i] : "", w.f);
        if (bad || ck_file_writer_commit(&w, err, sizeof err) != 0)
            fprintf(stderr, "ck: CK_DUMP_SOURCE: %s\n", err);
    }
    char opts[256];
    /* Without chaos, the device compiler drops the chaos code (CK_CHAOS_BUILD, ck_worker.cl). */
    snprintf(opts, sizeof opts,
             "-DCK_MEGAKERNEL -DCK_LOCAL_POOL_BYTES=%zu -DCK_CHAOS_BUILD=%d -DCK_TASKS_BUILD=%d "
             "-DCK_CHECK_BUILD=%d",
             ctx->opts.local_pool_bytes, ctx->opts.chaos_seed != 0, ctx->opts.tasks != 0,
             ctx->opts.accounting_checks != 0);
    char cache_buf[4096], warn[1024];
    const char *cache_dir = ctx->opts.register_cap_cache == CK_REGISTER_CAP_CACHE_OFF
                                ? NULL
                                : ck_cap_cache_dir(cache_buf, sizeof cache_buf);
    ck_status s = ck_register_cap_build(ctx->dev, parts, n, opts, ctx->opts.register_cap, ctx->opts.work_group_size,
                                        deadline, cache_dir, &ctx->program, &ctx->mk_resources, warn, sizeof warn);
    if (s != CK_OK)
        return s;
    if (warn[0])
        add_build_warning(ctx, "ck: warning: %s (CK_CAP_CACHE=off turns the cache off)\n", warn);
    return ck_kernel_create(ctx->program, "ck_megakernel", &ctx->kernel);
}

void ck_megakernel_gone(ck_context *ctx)
{
    if (ctx->mk_counted) {
        ctx->mk_counted = 0;
        ck_device_note_megakernel(0);
    }
}

/* CK_ERR_TIMEOUT if the build's deadline has passed before `step`. */
static ck_status check_deadline(const ck_context *ctx, double deadline, const char *step)
{
    if (ck_now_s() <= deadline)
        return CK_OK;
    return ck_fail(CK_ERR_TIMEOUT, "ck_context_build: the build deadline (timeout_s %.3g s) passed before %s",
                   ctx->opts.timeout_s, step);
}

/* Releases what a failed build made, so that a retry starts clean (and the
 * first attempt's stitch result is not leaked). Only called once the
 * megakernel, if it was launched, has ended. */
static void undo_build(ck_context *ctx)
{
    if (ctx->mk_event)
        clReleaseEvent(ctx->mk_event);
    if (ctx->kernel)
        clReleaseKernel(ctx->kernel);
    if (ctx->program)
        clReleaseProgram(ctx->program);
    ctx->mk_event = NULL;
    ctx->kernel = NULL;
    ctx->program = NULL;
    ctx->runtime_off = ctx->poll_off = ctx->sched_off = 0;
    ctx->sched_words = 0;
    ck_channel_destroy(ctx->ch);
    ctx->ch = NULL;
    ck_arena_storage_destroy(ctx);
    ctx->arena_svm = ctx->arena_host = NULL;
    ctx->arena_buf = NULL;
    ctx->xfer = NULL;
    memset(&ctx->arena_zc, 0, sizeof ctx->arena_zc);
    ck_stitch_result_free(&ctx->stitch);
    free(ctx->build_warnings);
    ctx->build_warnings = NULL;
    memset(&ctx->mk_resources, 0, sizeof ctx->mk_resources);
    if (ctx->local_pool_auto)
        ctx->opts.local_pool_bytes = 0;
    ctx->groups = ctx->workers = 0;
    ctx->max_workers = 0;
}

/* Stops a megakernel launched by a build that then failed. If it will not
 * stop, nothing it uses may be released: the context is marked broken.
 * Returns s with the message kept. */
/* How long an aborted megakernel gets to end: its groups leave at once, so
 * a running one ends within moments; one that never started (the device is
 * busy with other work) ends only once it gets the device, which nothing
 * here can hasten, so the wait is short. */
#define CK_ABORT_WAIT_RUNNING_S 30.0
#define CK_ABORT_WAIT_QUEUED_S 0.5

static ck_status abort_build(ck_context *ctx, ck_status s)
{
    char why[1024];
    snprintf(why, sizeof why, "%s", ck_last_error());
    ck_channel_abort(ctx->ch);
    cl_int st = CL_QUEUED;
    clGetEventInfo(ctx->mk_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    int started = st == CL_RUNNING || st == CL_COMPLETE || st < 0;
    double wait_s = started ? CK_ABORT_WAIT_RUNNING_S : CK_ABORT_WAIT_QUEUED_S;
    if (ck_event_wait(ctx->mk_event, wait_s, "megakernel") != CK_OK) {
        ctx->broken = 1;
        if (!started)
            __atomic_store_n(&ctx->dev->stuck, 1, __ATOMIC_RELEASE);
        if (!started)
            return ck_fail(s,
                           "%s (the megakernel never got the device: another kernel holds it, e.g. another "
                           "context's megakernel; this context cannot be built again, and what the queued "
                           "megakernel will use stays allocated until it has run: destroy the context)",
                           why);
        return ck_fail(s,
                       "%s (and the aborted megakernel did not end within %.0f s; the context cannot be built "
                       "again: destroy it)",
                       why, wait_s);
    }
    ck_megakernel_gone(ctx);
    return ck_fail(s, "%s", why);
}

static ck_status build_steps(ck_context *ctx, double deadline)
{
    ck_status s;
    if ((s = stitch_sources(ctx, deadline)) != CK_OK || (s = check_deadline(ctx, deadline, "compiling")) != CK_OK ||
        (s = build_program(ctx, deadline)) != CK_OK ||
        (s = check_deadline(ctx, deadline, "allocating the arena")) != CK_OK)
        return s;
    size_t wg = ctx->opts.work_group_size;
    size_t launch = ck_discovery_auto_launch(ctx->dev, wg);
    if (ctx->opts.max_groups && ctx->opts.max_groups < launch)
        launch = ctx->opts.max_groups;
    if (launch < 2)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "max_groups %u leaves no worker: the megakernel needs a scheduler "
                       "group and at least one worker",
                       ctx->opts.max_groups);
    ctx->max_workers = launch - 1;
    /* The runtime's region: the poll on a line of its own, then the
     * scheduler state, both in the arena's storage so that the host can
     * read them while the megakernel runs (diagnostics) on every device,
     * and so that nothing waits on the device's queue before the launch (a
     * device busy with another megakernel would never run a fill). */
    ctx->sched_words = CK_SH_TOTAL(ctx->max_workers);
    uint64_t reserve = CK_ARENA_ALIGN + (uint64_t)ctx->sched_words * 4u;
    if ((s = ck_arena_storage_create(ctx, reserve, deadline - ck_now_s())) != CK_OK ||
        (s = ck_channel_create(ctx->dev, deadline - ck_now_s(), &ctx->ch)) != CK_OK)
        return s;
    ctx->poll_off = ctx->runtime_off;
    ctx->sched_off = ctx->runtime_off + CK_ARENA_ALIGN;
    for (unsigned i = 0; i < CK_CH_DONE_SLOTS; ++i)
        ctx->done_free[i] = CK_CH_DONE_SLOTS - 1u - i;
    ctx->done_free_n = CK_CH_DONE_SLOTS;
    if ((s = ck_arena_zero(ctx, ctx->runtime_off, (size_t)reserve)) != CK_OK || (s = ck_chaos_setup(ctx)) != CK_OK)
        return s;
    cl_ulong sched_off = ctx->sched_off, poll_off = ctx->poll_off;
    cl_uint mw = (cl_uint)ctx->max_workers;
    cl_uint seed = (cl_uint)(ctx->opts.chaos_seed ^ (ctx->opts.chaos_seed >> 32));
    if (ctx->opts.chaos_seed && !seed)
        seed = 0x2545F491u;
    cl_uint naive = ctx->opts.naive_resizing_barrier ? 1u : 0u;
    cl_int err = clSetKernelArg(ctx->kernel, 0, sizeof sched_off, &sched_off);
    if (err == CL_SUCCESS && (s = ck_channel_set_kernel_arg(ctx->ch, ctx->kernel, 1)) != CK_OK)
        return s;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(ctx->kernel, 2, sizeof poll_off, &poll_off);
    if (err == CL_SUCCESS && (s = ck_arena_set_kernel_arg(ctx, ctx->kernel, 3)) != CK_OK)
        return s;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(ctx->kernel, 4, sizeof mw, &mw);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(ctx->kernel, 5, sizeof seed, &seed);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(ctx->kernel, 6, sizeof naive, &naive);
    if (err != CL_SUCCESS)
        return ck_fail_cl(err, "clSetKernelArg(megakernel)", "");
    if ((s = check_deadline(ctx, deadline, "launching the megakernel")) != CK_OK)
        return s;

    size_t global = launch * wg;
    double t0 = ck_now_s();
    err = clEnqueueNDRangeKernel(ctx->dev->queue, ctx->kernel, 1, NULL, &global, &wg, 0, NULL, &ctx->mk_event);
    if (err == CL_SUCCESS)
        err = clFlush(ctx->dev->queue);
    if (err == CL_SUCCESS) {
        ctx->mk_counted = 1;
        ck_device_note_megakernel(1);
    }
    if (err != CL_SUCCESS) {
        if (ctx->mk_event && ck_event_wait(ctx->mk_event, 30.0, "megakernel") != CK_OK)
            ctx->broken = 1;
        return ck_fail_cl(err, "clEnqueueNDRangeKernel(megakernel)",
                          "the megakernel may need more registers or local memory than a group of this size has; "
                          "try a smaller work_group_size or local_pool_bytes");
    }
    /* Discovery gets what is left of the build's deadline. */
    double left = deadline - t0;
    unsigned found = 0;
    s = left > 0 ? ck_discovery_close(ctx->dev, ctx->ch, launch, t0, left, &found)
                 : check_deadline(ctx, deadline, "occupancy discovery");
    if (s == CK_OK && found < 2)
        s = ck_fail(CK_ERR_NO_DEVICE,
                    "only %u work-group is co-resident: the megakernel needs a scheduler group and "
                    "at least one worker (on PoCL set POCL_MAX_PTHREAD_COUNT to 2 or more)",
                    found);
    if (s != CK_OK)
        return abort_build(ctx, s);
    ctx->groups = found;
    ctx->workers = found - 1;
    /* Fewer than three workers on a CPU device is almost always PoCL's
     * default of one thread per core on a small machine, and leaves little
     * or nothing to cooperate with: the build says so, once, with the fix. */
    if (ctx->workers == 1 && ctx->dev->info.is_cpu)
        add_build_warning(ctx, "ck: warning: the megakernel has 1 worker on this CPU device: a cooperative kernel "
                               "runs with one group, never forks, and ordinary launches wait for it to end; PoCL "
                               "runs one thread per core unless POCL_MAX_PTHREAD_COUNT says more "
                               "(POCL_MAX_PTHREAD_COUNT=8 gives 7 workers)\n");
    else if (ctx->workers == 2 && ctx->dev->info.is_cpu)
        add_build_warning(ctx, "ck: warning: the megakernel has 2 workers on this CPU device: a cooperative kernel "
                               "on both leaves an ordinary launch waiting until it offers a group back, and a "
                               "kernel on one has nothing to fork; PoCL runs one thread per core unless "
                               "POCL_MAX_PTHREAD_COUNT says more (POCL_MAX_PTHREAD_COUNT=8 gives 7 workers)\n");
    if ((s = ck_progress_start(ctx)) != CK_OK)
        return abort_build(ctx, s);
    return CK_OK;
}

static ck_status build_pinned(ck_context *ctx);

ck_status ck_context_build(ck_context *ctx)
{
    ck_status s = ck_context_enter(ctx, "ck_context_build");
    if (s != CK_OK)
        return s;
    s = build_pinned(ctx);
    ck_context_leave(ctx);
    return s;
}

static ck_status build_pinned(ck_context *ctx)
{
    ck_status s;
    if (ctx->built)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "the context is already built");
    if (ctx->broken)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "ck_context_build: an earlier build failed and its megakernel would "
                       "not stop, so this context cannot be built again: destroy it and create a new one");
    if (!ctx->n_sources)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "no kernel source: call ck_context_add_source or _add_file first");
    double deadline = ck_now_s() + ctx->opts.timeout_s;
    s = build_steps(ctx, deadline);
    if (s != CK_OK) {
        /* Unless a megakernel is still running (broken), everything the
         * attempt made goes, so a retry starts clean. */
        if (!ctx->broken)
            undo_build(ctx);
        return s;
    }
    ctx->built = 1;
    return CK_OK;
}
