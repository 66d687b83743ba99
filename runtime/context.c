/* runtime/context.c: contexts: creating one, gathering the user's sources,
 * building the megakernel (stitch, compile), launching it with occupancy
 * discovery inside the launch and starting its progress thread
 * (progress.c), the context's public accessors, and shutdown. */
#include "chaos.h"
#include "clock.h"
#include "context_handle.h"
#include "file_io.h"
#include "device_sources.h"
#include "discovery.h"
#include "error.h"
#include "launch_scheduler.h"
#include "launch_table.h"
#include "memory.h"
#include "program.h"
#include "progress.h"
#include "register_cap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_WG 64u
#define DEFAULT_LOCAL_POOL 8192u
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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "CK_CHECK: %s (1 builds the megakernel with its accounting checks, "
                       "0 or unset without)", err);
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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "CK_TRANSMIT: '%.40s' is neither 'infer' (transmit what forked "
                       "groups read, where it can travel) nor 'declared' (only what the kernel declares transmit)", env);
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
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_create: launch_path %d is neither "
                           "CK_LAUNCH_PATH_AUTO (0) nor CK_LAUNCH_PATH_SCHEDULER (1)", opts->launch_path);
        if (opts->transmit_mode != CK_TRANSMIT_INFER && opts->transmit_mode != CK_TRANSMIT_DECLARED)
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_create: transmit_mode %d is neither "
                           "CK_TRANSMIT_INFER (0) nor CK_TRANSMIT_DECLARED (1)", opts->transmit_mode);
        if ((uint64_t)opts->arena_bytes > CK_MAX_ARENA_BYTES)
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_create: arena_bytes %zu is above the limit of %llu "
                           "(CK_MAX_ARENA_BYTES)", opts->arena_bytes, (unsigned long long)CK_MAX_ARENA_BYTES);
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

const char *ck_context_build_warnings(const ck_context *ctx)
{
    return context_is_live(ctx) && ctx->build_warnings ? ctx->build_warnings : "";
}

const ck_device_info *ck_context_device_info(const ck_context *ctx) { return context_is_live(ctx) ? &ctx->dev->info : NULL; }

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

/* A launch's argument words must end before its first hot line. */
_Static_assert(CK_L_ARGS + 2u * CK_MAX_ARG_WORDS <= CK_L_CX_KEY && CK_L_CX_KEY < CK_L_CLAIM,
               "launch arguments overlap the chaos key or the claim word");
/* A launch message with every argument word fits one channel slot. */
_Static_assert(CK_LAUNCH_HEADER_WORDS + 2u * CK_MAX_ARG_WORDS <= CK_CH_H2D_MAX_WORDS, "launch message too long");
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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_add_source (%s): n_cooperative is %zu but the "
                       "cooperative list is NULL", shown, n_cooperative);
    for (size_t i = 0; i < n_cooperative; ++i)
        if (!cooperative[i] || !*cooperative[i])
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_add_source (%s): cooperative kernel name %zu of %zu "
                           "is %s", shown, i, n_cooperative, cooperative[i] ? "empty" : "NULL");
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

/* Joins the sources into one stitcher input; `#line` directives keep each
 * file's own names and numbers for the device compiler. */
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
    ck_stitch_input in = {.source = all, .file_name = ctx->n_sources == 1 ? ctx->sources[0].name : "<sources>",
                          .cooperative = coop, .n_cooperative = n_coop,
                          .infer_transmit = ctx->opts.transmit_mode == CK_TRANSMIT_INFER};
    char err[16384]; /* the rule checks list up to 20 errors, each with its note */
    int r = ck_stitch_until(&in, &ctx->stitch, err, sizeof err, past_deadline, &clock, reason);
    free(all);
    free(coop);
    if (r != 0)
        return ck_fail(clock.fired ? CK_ERR_TIMEOUT : CK_ERR_BUILD, "%s", err);
    if (ctx->stitch.cl20_atomic && ctx->dev->info.path == CK_PATH_CL12)
        return ck_fail(CK_ERR_BUILD, "%s: error: '%s' is an OpenCL C 2.0 atomic, and this context runs the cl12 path "
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
            return ck_fail(CK_ERR_BUILD, "kernel '%s' requires work-group size %zu but the megakernel runs %zu: set "
                           "ck_context_options.work_group_size", K->name, K->reqd_wg_size, ctx->opts.work_group_size);
        if (K->arg_words > CK_MAX_ARG_WORDS)
            return ck_fail(CK_ERR_BUILD, "kernel '%s' has %zu 64-bit words of arguments; a launch carries at most %u",
                           K->name, K->arg_words, CK_MAX_ARG_WORDS);
    }
    return CK_OK;
}

static ck_status build_program(ck_context *ctx, double deadline)
{
    const char *parts[16];
    unsigned n = 0;
    for (const char *const *f = ck_program_foundation(); *f; ++f)
        parts[n++] = ck_embedded_source_text(*f);
    parts[n++] = ck_embedded_source_text("ck_sched_layout.h");
    parts[n++] = ck_embedded_source_text("ck_chaos.cl");
    parts[n++] = ck_embedded_source_text("ck_primitives.cl");
    /* The kernel authors' header (its synchronisation calls), which the user's
     * own #include lines no longer name (blank_header_include). */
    parts[n++] = "\n#line 1 \"ck_cooperative.h\"\n";
    parts[n++] = ck_embedded_source_text("ck_cooperative.h");
    parts[n++] = ctx->stitch.source;
    parts[n++] = "\n#line 1 \"ck_scheduler.cl\"\n";
    parts[n++] = ck_embedded_source_text("ck_scheduler.cl");
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
    /* Without chaos, the device compiler drops the chaos code (ck_scheduler.cl). */
    snprintf(opts, sizeof opts, "-DCK_MEGAKERNEL -DCK_LOCAL_POOL_BYTES=%zu -DCK_CHAOS_BUILD=%d -DCK_TASKS_BUILD=%d "
             "-DCK_CHECK_BUILD=%d", ctx->opts.local_pool_bytes, ctx->opts.chaos_seed != 0, ctx->opts.tasks != 0,
             ctx->opts.accounting_checks != 0);
    ck_status s = ck_register_cap_build(ctx->dev, parts, n, opts, ctx->opts.register_cap, ctx->opts.work_group_size,
                                        deadline, &ctx->program, &ctx->mk_resources);
    if (s != CK_OK)
        return s;
    return ck_kernel_create(ctx->program, "ck_megakernel", &ctx->kernel);
}

/* The megakernel has ended: it no longer keeps other contexts' releases parked. */
static void megakernel_gone(ck_context *ctx)
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
    if (ctx->mk_event) clReleaseEvent(ctx->mk_event);
    if (ctx->kernel) clReleaseKernel(ctx->kernel);
    if (ctx->program) clReleaseProgram(ctx->program);
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
            return ck_fail(s, "%s (the megakernel never got the device: another kernel holds it, e.g. another "
                           "context's megakernel; this context cannot be built again, and what the queued "
                           "megakernel will use stays allocated until it has run: destroy the context)", why);
        return ck_fail(s, "%s (and the aborted megakernel did not end within %.0f s; the context cannot be built "
                       "again: destroy it)", why, wait_s);
    }
    megakernel_gone(ctx);
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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "max_groups %u leaves no worker: the megakernel needs a scheduler "
                       "group and at least one worker", ctx->opts.max_groups);
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
    if (err == CL_SUCCESS) err = clSetKernelArg(ctx->kernel, 2, sizeof poll_off, &poll_off);
    if (err == CL_SUCCESS && (s = ck_arena_set_kernel_arg(ctx, ctx->kernel, 3)) != CK_OK)
        return s;
    if (err == CL_SUCCESS) err = clSetKernelArg(ctx->kernel, 4, sizeof mw, &mw);
    if (err == CL_SUCCESS) err = clSetKernelArg(ctx->kernel, 5, sizeof seed, &seed);
    if (err == CL_SUCCESS) err = clSetKernelArg(ctx->kernel, 6, sizeof naive, &naive);
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
        s = ck_fail(CK_ERR_NO_DEVICE, "only %u work-group is co-resident: the megakernel needs a scheduler group and "
                    "at least one worker (on PoCL set POCL_MAX_PTHREAD_COUNT to 2 or more)", found);
    if (s != CK_OK)
        return abort_build(ctx, s);
    ctx->groups = found;
    ctx->workers = found - 1;
    if (ctx->workers == 1 && ctx->dev->info.is_cpu)
        add_build_warning(ctx, "ck: warning: the megakernel has 1 worker on this CPU device: a cooperative kernel "
                          "runs with one group, never forks, and ordinary launches wait for it to end; PoCL "
                          "runs one thread per core unless POCL_MAX_PTHREAD_COUNT says more "
                          "(POCL_MAX_PTHREAD_COUNT=8 gives 7 workers)\n");
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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_build: an earlier build failed and its megakernel would "
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
                             ? ctx->stitch.kernels[l->kernel_index].name : "?",
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
        snprintf(ctx->abort_reason, sizeof ctx->abort_reason, "ck_context_destroy aborted it after %.1f s, the "
                 "context's shutdown timeout, while it still ran", ctx->opts.shutdown_timeout_s);
        pthread_mutex_unlock(&ctx->lock);
        result = ck_fail(CK_ERR_TIMEOUT, "ck_context_destroy: %s still ran %.1f s (shutdown_timeout_s) after shutdown "
                         "was asked; the megakernel was aborted and what it ran was cut short", what,
                         ctx->opts.shutdown_timeout_s);
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
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_destroy: context handle %p is corrupted (bad magic "
                       "word); nothing was released", (void *)ctx);
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
            return ck_fail(CK_ERR_TIMEOUT, "ck_context_destroy: the megakernel did not stop even after abort (a "
                           "kernel loops without reaching a primitive); its resources are left allocated");
        }
        megakernel_gone(ctx);
    }
    if (ctx->broken) {
        if (ck_event_wait(ctx->mk_event, 1.0, "megakernel of a failed build") != CK_OK)
            return ck_fail(CK_ERR_TIMEOUT, "the megakernel of an earlier failed build still runs; the context's "
                           "resources are left allocated");
        megakernel_gone(ctx);
    }
    /* Calls of other threads that were inside the library on this context
     * have seen the end and leave; nothing is freed while one is inside. */
    if (!drain_calls(ctx, ctx->opts.timeout_s > 5.0 ? ctx->opts.timeout_s : 5.0))
        return ck_fail(CK_ERR_TIMEOUT, "ck_context_destroy: %u calls of other threads were still inside the library "
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
    if (ctx->mk_event) clReleaseEvent(ctx->mk_event);
    if (ctx->kernel) clReleaseKernel(ctx->kernel);
    if (ctx->program) clReleaseProgram(ctx->program);
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
