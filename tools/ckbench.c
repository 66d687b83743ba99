/* ckbench: measures what getting work onto the megakernel costs, next to the
 * plain OpenCL launch it competes with, all in one process on one device:
 * plain launch round trip and throughput and the plain kernel's occupancy
 * (before the megakernel starts), then for two megakernels: launch round
 * trip and throughput of an empty 1-group kernel, global and resizing
 * barrier latency over all workers, and the gather time of ordinary launches
 * of 1, N/4, N/2 and N-1 groups beside a cooperative kernel that reaches a
 * query resizing barrier every few tens of microseconds. The headline
 * figures are the megakernel built with tasks, where ordinary launches go
 * through the task table (ck_context_options.launch_path); it also gives
 * the empty task's round trip, tasks per second, and how fast the groups of
 * a burst of tasks start (device clock). The same figures of a megakernel
 * without tasks, where ordinary launches are messages to the scheduler (the
 * library's default context), follow under "scheduler_path". Table, or --json.
 * With --cuda BIN it runs the CUDA reference (tools/bench/ckbench_cuda.cu, built
 * where nvcc exists) at the same block count and reports it beside us.
 * Exit status (as every tool's, cli.h): 0 ok, 1 a measurement failed, 2
 * nothing was run (bad command line, unknown device or a work-group size the
 * device refuses); errors are one line. */
#define _DEFAULT_SOURCE /* popen */
#include "ck.h"
#include "cl_plain.h"
#include "cli.h"
#include "json_out.h"
#include "plain_sync.h"
#include "timer.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *bench_source =
    "#include \"ck_cooperative.h\"\n"
    "kernel void bench_empty(void) { }\n"
    "kernel void bench_global_barrier(uint n) {\n"
    "    for (uint i = 0; i < n; i++)\n"
    "        global_barrier();\n"
    "}\n"
    "kernel void bench_offer_kill(uint n) {\n"
    "    transmit uint i = 0;\n"
    "    for (i = 0; i < n; i++)\n"
    "        offer_kill();\n"
    "}\n"
    "kernel void bench_resizing_barrier(uint n) {\n"
    "    transmit uint i = 0;\n"
    "    for (i = 0; i < n; i++)\n"
    "        resizing_global_barrier();\n"
    "}\n"
    "/* Works about `work` rounds per group, then a resizing barrier, until the\n"
    " * host sets *stop; group 0 decides for everyone in dec[] before each\n"
    " * barrier (a slot is rewritten only after every group has read it) and\n"
    " * counts the barriers in rounds[0]. */\n"
    "kernel void bench_gather_coop(global uint *stop, global uint *dec, global uint *rounds, uint work) {\n"
    "    transmit uint r = 0;\n"
    "    uint go = 1;\n"
    "    while (go) {\n"
    "        uint x = (uint)get_global_id(0) * 2654435761u;\n"
    "        for (uint i = 0; i < work; i++)\n"
    "            x = x * 1664525u + 1013904223u;\n"
    "        if (x == 0x9e3779b9u)\n"
    "            rounds[1] = x; /* keeps the loop */\n"
    "        if (get_group_id(0) == 0 && get_local_id(0) == 0) {\n"
    "            dec[r & 1u] = device_load_acquire((volatile global uint *)stop);\n"
    "            rounds[0] = r + 1u;\n"
    "        }\n"
    "        resizing_global_barrier();\n"
    "        go = dec[r & 1u] == 0u;\n"
    "        r++;\n"
    "    }\n"
    "}\n";

/* Added to the context with tasks only: each task's group stamps when it
 * started, in the device's clock (0 on devices without one). */
static const char *stamp_source = "kernel void bench_stamp(global ulong *ts, uint i) {\n"
                                  "    if (get_local_id(0) == 0)\n"
                                  "        ts[i] = ck_device_clock_ns();\n"
                                  "}\n";

#define BURST_TASKS 4000u /* a burst's empty tasks, below the task table's 4096 entries */

typedef struct {
    ck_device_options dev;
    size_t wg;
    unsigned iterations, barriers, gather_reps, gather_work, throughput_launches, inflight;
    unsigned max_groups; /* cap on the megakernel's groups, 0 = occupancy */
    double timeout;
    int json;
    const char *cuda;
    unsigned register_cap;         /* ck_context_options.register_cap of both megakernels */
    const char *register_cap_mode; /* how it was chosen, for the report */
    int gap_sweep;                 /* --gap-sweep: round trips against the host's pause between them */
    unsigned mutex_iters;          /* critical sections per group of the plain lock kernels */
} options;

/* The host's pauses of --gap-sweep, in ns. */
#define GAP_POINTS 9
static const unsigned gap_ns[GAP_POINTS] = {0, 250, 500, 750, 1000, 1250, 1500, 2000, 3000};

/* Bounds of the numeric options (each in --help): the arrays of samples are
 * sized by --iterations, --gather-reps and --inflight. */
#define MAX_ITERATIONS 1000000u
#define MAX_BARRIERS 10000000u
#define MAX_GATHER_REPS 10000u
#define MAX_GATHER_WORK 100000000u
#define MAX_LAUNCHES 100000000u
#define MAX_INFLIGHT 4096u
#define MAX_GROUPS 1048576u
#define MAX_MUTEX_ITERS 1000000u

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ckbench [options]\n"
            "  --device S         device whose \"platform / device\" name contains S (default: CK_DEVICE, else\n"
            "                     the first GPU with a usable path, else PoCL)\n"
            "  --path P           atomics path: auto, cl20 or cl12 (default: CK_PATH, else auto)\n"
            "  --wg-size N        work-items per group, 1..%u and at most the device's maximum (default 64;\n"
            "                     also --wg)\n"
            "  --iterations N     launch round trips to time, 1..%u (default 2000 on GPUs, 200 on CPUs)\n"
            "  --barriers N       barriers per barrier measurement, 1..%u (default 2000 on GPUs, 50 on CPUs)\n"
            "  --gather-reps N    ordinary launches per gather size, 1..%u (default 7 on GPUs, 3 on CPUs)\n"
            "  --gather-work N    work rounds between two resizing barriers, 1..%u (default 2000 on GPUs,\n"
            "                     20000 on CPUs)\n"
            "  --launches N       launches of the throughput runs, 1..%u (default 20000 on GPUs, 300 on CPUs)\n"
            "  --inflight N       launches kept in flight for throughput, 1..%u (default 64)\n"
            "  --max-groups N     cap the megakernel at N groups (scheduler + N-1 workers), 2..%u (default:\n"
            "                     the discovered occupancy); to see how costs grow with the worker count\n"
            "  --timeout S        deadline of every wait in seconds, above 0 and at most %.0f (default %.0f)\n"
            "  --register-cap C   the megakernels' register cap where the compiler takes one (NVIDIA):\n"
            "                     auto (the fewest registers that spill nothing, from the count that gives\n"
            "                     the most co-resident groups up), none, or 16..255 registers (default: the\n"
            "                     environment's CK_REGISTER_CAP if set, else auto)\n"
            "  --cuda BIN         also run the CUDA reference BIN at the same block count (default: not run)\n"
            "  --mutex-iters N    critical sections per group of the plain lock kernels, 1..%u (default 1000\n"
            "                     on GPUs, 20 on CPUs)\n"
            "  --gap-sweep        also time an empty task's and a table launch's round trip with the host\n"
            "                     pausing 0..3000 ns before each (key host_gap_sweep): how the device's\n"
            "                     poll meets a host that comes back later\n"
            "  --json             one JSON object on stdout\n"
            "  --version          print the version and exit\n"
            "  --help             this text\n"
            "Exit status: 0 ok, 1 a measurement failed, 2 nothing was run: bad command line, unknown device\n"
            "or a work-group size the device refuses (one line on stderr).\n"
            "Environment: CK_REGISTER_CAP=auto|none|N, when --register-cap is not given (see above); both\n"
            "megakernels' registers, caps and the cap's note are reported.\n",
            CLI_MAX_WG_SIZE, MAX_ITERATIONS, MAX_BARRIERS, MAX_GATHER_REPS, MAX_GATHER_WORK, MAX_LAUNCHES,
            MAX_INFLIGHT, MAX_GROUPS, CLI_MAX_TIMEOUT_S, CLI_DEFAULT_TIMEOUT_S, MAX_MUTEX_ITERS);
}

/* The register cap from --register-cap or CK_REGISTER_CAP (`what` names
 * which): auto, none (or 0), or 16..255 registers; anything else exits 2. */
static void set_register_cap(options *o, const char *what, const char *v, const char *mode_of_number)
{
    if (!strcasecmp(v, "auto")) {
        o->register_cap = CK_REGISTER_CAP_AUTO;
        o->register_cap_mode = "auto";
    } else if (!strcasecmp(v, "none") || !strcmp(v, "0")) {
        o->register_cap = CK_REGISTER_CAP_NONE;
        o->register_cap_mode = "none";
    } else {
        o->register_cap = (unsigned)cli_uint(what, v, 16, 255, "registers (or auto, none)");
        o->register_cap_mode = mode_of_number;
    }
}

/* 0 ok, 1 --help or --version printed; exits 2 on a bad command line. */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->wg = 64;
    o->inflight = 64;
    o->timeout = CLI_DEFAULT_TIMEOUT_S;
    enum {
        OPT_DEVICE = 256,
        OPT_PATH,
        OPT_WG,
        OPT_ITER,
        OPT_BARRIERS,
        OPT_GREPS,
        OPT_GWORK,
        OPT_LAUNCHES,
        OPT_INFLIGHT,
        OPT_TIMEOUT,
        OPT_CUDA,
        OPT_JSON,
        OPT_VERSION,
        OPT_MAX_GROUPS,
        OPT_REGISTER_CAP,
        OPT_GAP_SWEEP,
        OPT_MUTEX_ITERS
    };
    static const struct option longopts[] = {{"device", required_argument, NULL, OPT_DEVICE},
                                             {"path", required_argument, NULL, OPT_PATH},
                                             {"wg-size", required_argument, NULL, OPT_WG},
                                             {"wg", required_argument, NULL, OPT_WG},
                                             {"iterations", required_argument, NULL, OPT_ITER},
                                             {"barriers", required_argument, NULL, OPT_BARRIERS},
                                             {"gather-reps", required_argument, NULL, OPT_GREPS},
                                             {"gather-work", required_argument, NULL, OPT_GWORK},
                                             {"launches", required_argument, NULL, OPT_LAUNCHES},
                                             {"inflight", required_argument, NULL, OPT_INFLIGHT},
                                             {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                             {"cuda", required_argument, NULL, OPT_CUDA},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"help", no_argument, NULL, 'h'},
                                             {"max-groups", required_argument, NULL, OPT_MAX_GROUPS},
                                             {"register-cap", required_argument, NULL, OPT_REGISTER_CAP},
                                             {"gap-sweep", no_argument, NULL, OPT_GAP_SWEEP},
                                             {"mutex-iters", required_argument, NULL, OPT_MUTEX_ITERS},
                                             {NULL, 0, NULL, 0}};
    cli_init("ckbench");
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 1;
        case OPT_VERSION: cli_print_version(); return 1;
        case OPT_JSON: o->json = 1; break;
        case OPT_GAP_SWEEP: o->gap_sweep = 1; break;
        case OPT_MUTEX_ITERS:
            o->mutex_iters = (unsigned)cli_uint("--mutex-iters", optarg, 1, MAX_MUTEX_ITERS, "critical sections");
            break;
        case OPT_DEVICE: o->dev.device = optarg; break;
        case OPT_PATH:
            if (ck_path_parse(optarg, &o->dev.path) != CK_OK)
                cli_bad_value("--path", optarg, "unknown atomics path", "auto, cl20 or cl12");
            break;
        case OPT_CUDA: o->cuda = optarg; break;
        case OPT_WG: o->wg = cli_wg_size("--wg-size", optarg); break;
        case OPT_ITER:
            o->iterations = (unsigned)cli_uint("--iterations", optarg, 1, MAX_ITERATIONS, "launch round trips");
            break;
        case OPT_BARRIERS:
            o->barriers = (unsigned)cli_uint("--barriers", optarg, 1, MAX_BARRIERS, "barriers");
            break;
        case OPT_GREPS:
            o->gather_reps = (unsigned)cli_uint("--gather-reps", optarg, 1, MAX_GATHER_REPS, "launches");
            break;
        case OPT_GWORK:
            o->gather_work = (unsigned)cli_uint("--gather-work", optarg, 1, MAX_GATHER_WORK, "work rounds");
            break;
        case OPT_LAUNCHES:
            o->throughput_launches = (unsigned)cli_uint("--launches", optarg, 1, MAX_LAUNCHES, "launches");
            break;
        case OPT_INFLIGHT:
            o->inflight = (unsigned)cli_uint("--inflight", optarg, 1, MAX_INFLIGHT, "launches");
            break;
        case OPT_TIMEOUT: o->timeout = cli_timeout("--timeout", optarg); break;
        case OPT_MAX_GROUPS:
            o->max_groups = (unsigned)cli_uint("--max-groups", optarg, 2, MAX_GROUPS, "work-groups");
            break;
        case OPT_REGISTER_CAP: set_register_cap(o, "--register-cap", optarg, "given"); break;
        default: cli_getopt_error(c, argv);
        }
    }
    cli_no_operands(argc, argv);
    /* No --register-cap: CK_REGISTER_CAP, else auto. ckbench measures what
     * dispatch can do, so by default it builds with the most co-resident
     * groups that cost no spill (the library's own default is no cap,
     * docs/DISPATCH.md). The variable is read here, not by the library, so
     * that a bad value is a bad command line (exit 2). */
    if (!o->register_cap_mode) {
        const char *env_cap = getenv("CK_REGISTER_CAP");
        set_register_cap(o, "CK_REGISTER_CAP", env_cap && *env_cap ? env_cap : "auto", "environment");
    }
    return 0;
}

/* One megakernel's dispatch figures (measure_megakernel). */
typedef struct {
    unsigned workers;
    double rt_median, rt_p99, tput;
    double tput_launch_call_us, tput_wait_call_us; /* host time per launch in ck_launch_kernel / ck_wait */
    double phase_us[4]; /* the scheduler's path: medians over the round trips of queue, gather, exec, wake-up */
    double global_barrier_us, resizing_barrier_us;
    double offer_kill_ns; /* one offer_kill() that nobody takes, per group */
    double gather_us[4], gather_period_us;
    unsigned gather_groups[4];
    unsigned gather_kills, gather_forked; /* of the cooperative kernel, over all gathers */
    ck_megakernel_resources res;          /* registers as the compiler reported them */
} mk_results;

typedef struct {
    char device[300];
    unsigned plain_occupancy;
    double plain_rt_median, plain_rt_p99, plain_tput;
    mk_results mk;    /* the megakernel built with tasks: ordinary launches through the task table */
    mk_results sched; /* the megakernel without tasks: ordinary launches as messages to the scheduler */
    double task_rt_median, task_rt_p99, task_tput, task_spawn_us; /* the task API, empty 1-group tasks */
    double task2_rt_median, task2_rt_p99; /* the same, empty 2-group tasks (not on the express line) */
    double task_phase_us[3];              /* medians: spawn call, device execution, the rest (-1: no device clock) */
    unsigned burst_tasks;                 /* a burst of stamped empty tasks (0: no device clock, no figures) */
    double burst_starts_per_s, burst_gap_ns_median, burst_gap_ns_p90;
    /* --gap-sweep: median round trips with the host pausing gap_ns[g] first */
    double gap_task_us[GAP_POINTS], gap_table_us[GAP_POINTS];
    plain_sync_results ps; /* plain OpenCL barrier and locks at the megakernel's worker count */
    char cuda[2048];
} results;

/* "key": {registers, stack and spill bytes, cap}, or null where the
 * device's compiler reports nothing. */
static void json_resources(json_out *j, const char *key, const ck_megakernel_resources *m)
{
    if (!m->known) {
        jo_null(j, key);
        return;
    }
    jo_object(j, key);
    jo_uint(j, "registers", m->registers);
    jo_uint(j, "stack_bytes", m->stack_bytes);
    jo_uint(j, "spill_bytes", m->spill_bytes);
    jo_uint(j, "register_cap", m->register_cap);
    jo_uint(j, "full_occupancy_registers", m->full_occupancy_registers);
    jo_end(j);
}

/* The table's line for a megakernel's registers, and the cap's note. */
static void table_resources(const char *label, const ck_megakernel_resources *m)
{
    if (!m->known)
        printf("%-46s %12s %12s\n", label, "", "not reported");
    else if (m->register_cap)
        printf("%-46s %12s %u (capped at %u; stack %u B, spills %u B)\n", label, "", m->registers, m->register_cap,
               m->stack_bytes, m->spill_bytes);
    else
        printf("%-46s %12s %u (no cap; stack %u B, spills %u B)\n", label, "", m->registers, m->stack_bytes,
               m->spill_bytes);
    if (m->note[0])
        printf("    %s\n", m->note);
}

/* One megakernel's dispatch keys (the names), without braces: the
 * launch figures, with the scheduler's phases where `tasks` is 0 (a launch
 * through the task table sends no messages to time), barriers, gathers,
 * registers and the register cap's note. */
static void json_dispatch(json_out *j, const mk_results *m, int tasks)
{
    static const char *const keys[4] = {"1", "N/4", "N/2", "N-1"};
    jo_num(j, "launch_rt_us_median", "%.2f", m->rt_median);
    jo_num(j, "launch_rt_us_p99", "%.2f", m->rt_p99);
    jo_num(j, "launch_throughput_per_s", "%.0f", m->tput);
    jo_object(j, "throughput_host_us_per_launch");
    jo_num(j, "in_launch_call", "%.2f", m->tput_launch_call_us);
    jo_num(j, "in_wait", "%.2f", m->tput_wait_call_us);
    jo_end(j);
    if (!tasks) {
        static const char *const phases[4] = {"queue", "gather", "exec", "wake"};
        jo_object(j, "launch_phases_us_median");
        for (int k = 0; k < 4; ++k)
            jo_num(j, phases[k], "%.2f", m->phase_us[k]);
        jo_end(j);
    }
    jo_num(j, "global_barrier_us", "%.3f", m->global_barrier_us);
    jo_num(j, "resizing_barrier_us", "%.3f", m->resizing_barrier_us);
    jo_num(j, "offer_kill_ns", "%.1f", m->offer_kill_ns);
    jo_object(j, "gather_us");
    for (int k = 0; k < 4; ++k)
        jo_num(j, keys[k], "%.1f", m->gather_us[k]);
    jo_end(j);
    jo_object(j, "gather_groups");
    for (int k = 0; k < 4; ++k)
        jo_uint(j, keys[k], m->gather_groups[k]);
    jo_end(j);
    jo_str(j, "gather_measure", tasks ? "launch + wait" : "scheduler");
    jo_num(j, "gather_barrier_period_us", "%.2f", m->gather_period_us);
    jo_uint(j, "gather_kills", m->gather_kills);
    jo_uint(j, "gather_forked", m->gather_forked);
    json_resources(j, "megakernel_resources", &m->res);
    jo_str(j, "register_cap_note", m->res.note);
}

static void fail(const char *what, const char *msg)
{
    fprintf(stderr, "ckbench: %s: %s\n", what, msg);
    exit(1);
}

#define CL_OK(call, what)                                                                                           \
    do {                                                                                                            \
        cl_int e_ = (call);                                                                                         \
        if (e_ != CL_SUCCESS)                                                                                       \
            fail(what, app_cl_errstr(e_));                                                                          \
    } while (0)

/* Waits for everything on the plain queue with clFinish: the baseline is what
 * a user of plain OpenCL does, and its kernels are empty ordinary ones that end
 * by themselves on an otherwise idle device. (Polling an event against a
 * deadline instead measured 12 us per round trip on the H100 against 10.5 us
 * for clFinish, and 85-90 us when the poll napped.) */
#define PLAIN_FINISH(what) CL_OK(clFinish(c.queue), "clFinish (" what ")")

/* Plain OpenCL on the same device: an empty 1-group kernel launched and
 * finished one at a time, then many in flight; and the plain occupancy. */
static void measure_plain(const options *o, results *r)
{
    app_cl_request req = {.device = o->dev, .work_group_size = o->wg, .want_occupancy = 1};
    app_cl c;
    char err[1024];
    if (app_cl_open(&req, &c, err, sizeof err))
        fail("plain OpenCL", err);
    r->plain_occupancy = req.occupancy;
    snprintf(r->device, sizeof r->device, "%s", c.name);
    const char *src = "kernel void bench_empty(void) { }\n";
    cl_int e;
    cl_program p = clCreateProgramWithSource(c.context, 1, &src, NULL, &e);
    CL_OK(e, "clCreateProgramWithSource (plain)");
    CL_OK(clBuildProgram(p, 1, &c.device, "", NULL, NULL), "clBuildProgram (plain empty kernel)");
    cl_kernel k = clCreateKernel(p, "bench_empty", &e);
    CL_OK(e, "clCreateKernel (plain)");
    size_t wg = o->wg, global = o->wg;
    for (int i = 0; i < 20; ++i) /* warm-up */
        CL_OK(clEnqueueNDRangeKernel(c.queue, k, 1, NULL, &global, &wg, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    PLAIN_FINISH("the plain warm-up launches");
    double *t = malloc(o->iterations * sizeof *t);
    for (unsigned i = 0; i < o->iterations; ++i) {
        double t0 = app_now_ms();
        CL_OK(clEnqueueNDRangeKernel(c.queue, k, 1, NULL, &global, &wg, 0, NULL, NULL), "clEnqueueNDRangeKernel");
        PLAIN_FINISH("a plain empty launch");
        t[i] = (app_now_ms() - t0) * 1e3;
    }
    app_summary s = app_summarize(t, o->iterations);
    r->plain_rt_median = s.median;
    r->plain_rt_p99 = s.p99;
    free(t);
    double t0 = app_now_ms();
    for (unsigned i = 0; i < o->throughput_launches; ++i)
        CL_OK(clEnqueueNDRangeKernel(c.queue, k, 1, NULL, &global, &wg, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    PLAIN_FINISH("the plain throughput launches");
    r->plain_tput = o->throughput_launches / ((app_now_ms() - t0) * 1e-3);
    clReleaseKernel(k);
    clReleaseProgram(p);
    app_cl_close(&c);
}

static ck_launch *launch(ck_context *ctx, const char *name, unsigned groups, const ck_arg *a, size_t n)
{
    ck_launch *l;
    if (ck_launch_kernel(ctx, name, groups, a, n, &l) != CK_OK)
        fail(name, ck_last_error());
    return l;
}

static void finish(ck_launch *l, const char *name, double timeout, ck_launch_stats *st)
{
    if (ck_wait(l, timeout) != CK_OK)
        fail(name, ck_last_error());
    if (st && ck_launch_get_stats(l, st) != CK_OK)
        fail(name, ck_last_error());
    ck_launch_release(l);
}

/* Microseconds per round of a kernel whose argument is its round count (n
 * barriers, n offer_kills) over all workers: the exec time of n rounds less
 * that of none, over n. */
static double per_round_us(ck_context *ctx, const char *name, const options *o)
{
    unsigned W = ck_context_workers(ctx);
    ck_launch_stats s0, s1;
    ck_arg a0 = ck_arg_uint(0), a1 = ck_arg_uint(o->barriers);
    finish(launch(ctx, name, W, &a1, 1), name, o->timeout, NULL); /* warm-up */
    finish(launch(ctx, name, W, &a0, 1), name, o->timeout, &s0);
    finish(launch(ctx, name, W, &a1, 1), name, o->timeout, &s1);
    double us = (s1.exec_ms - s0.exec_ms) * 1e3 / o->barriers;
    return us > 0 ? us : s1.exec_ms * 1e3 / o->barriers;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Launch + wait of an empty 1-group ordinary kernel, o->iterations times
 * after 20 to warm up: median and p99 in us, and with `phases` where a round
 * trip went, from the launch's statistics (host times at which the
 * scheduler's messages arrived): queued until the scheduler takes it,
 * gathering its group, running, and the wake-up of ck_wait after the DONE
 * message arrived (negative when ck_wait saw the launch's completion word in
 * host memory before DONE came). A launch through the task table has no such
 * messages: pass NULL. */
static void launch_round_trips(const options *o, ck_context *ctx, double *median, double *p99, double phases[4])
{
    for (int i = 0; i < 20; ++i)
        finish(launch(ctx, "bench_empty", 1, NULL, 0), "bench_empty", o->timeout, NULL);
    double *t = malloc(o->iterations * sizeof *t), *ph[4];
    for (int k = 0; k < 4; ++k)
        ph[k] = malloc(o->iterations * sizeof(double));
    if (!t || !ph[0] || !ph[1] || !ph[2] || !ph[3])
        fail("bench_empty", "out of host memory");
    for (unsigned i = 0; i < o->iterations; ++i) {
        ck_launch_stats st;
        double t0 = app_now_ms();
        ck_launch *l = launch(ctx, "bench_empty", 1, NULL, 0);
        if (ck_wait(l, o->timeout) != CK_OK)
            fail("bench_empty", ck_last_error());
        t[i] = (app_now_ms() - t0) * 1e3; /* launch + wait: the statistics come after */
        if (phases && ck_launch_get_stats(l, &st) != CK_OK)
            fail("bench_empty", ck_last_error());
        ck_launch_release(l);
        if (phases) {
            ph[0][i] = st.queue_ms * 1e3;
            ph[1][i] = st.gather_ms * 1e3;
            ph[2][i] = st.exec_ms * 1e3;
            ph[3][i] = t[i] - st.total_ms * 1e3;
        }
    }
    app_summary s = app_summarize(t, o->iterations);
    *median = s.median;
    *p99 = s.p99;
    for (int k = 0; k < 4; ++k) {
        if (phases)
            phases[k] = app_summarize(ph[k], o->iterations).median;
        free(ph[k]);
    }
    free(t);
}

/* Empty 1-group launches per second with o->inflight kept in flight, and
 * where the host thread spends a launch's share of the loop: calling
 * ck_launch_kernel, and waiting for the oldest launch (tells whether the
 * host or the device bounds the throughput). */
static void launch_throughput(const options *o, ck_context *ctx, double *tput, double *call_us, double *wait_us)
{
    ck_launch **ring = calloc(o->inflight, sizeof *ring);
    if (!ring)
        fail("bench_empty (throughput)", "out of host memory");
    double t0 = app_now_ms(), in_launch = 0, in_wait = 0;
    for (unsigned i = 0; i < o->throughput_launches; ++i) {
        unsigned slot = i % o->inflight;
        double a = app_now_ms();
        if (ring[slot])
            finish(ring[slot], "bench_empty", o->timeout, NULL);
        double b = app_now_ms();
        ring[slot] = launch(ctx, "bench_empty", 1, NULL, 0);
        in_wait += b - a;
        in_launch += app_now_ms() - b;
    }
    *call_us = in_launch * 1e3 / o->throughput_launches;
    *wait_us = in_wait * 1e3 / o->throughput_launches;
    for (unsigned i = 0; i < o->inflight; ++i)
        if (ring[i])
            finish(ring[i], "bench_empty", o->timeout, NULL);
    *tput = o->throughput_launches / ((app_now_ms() - t0) * 1e-3);
    free(ring);
}

/* Launches, barriers and gathers in the megakernel of `ctx` (built, with
 * or without tasks: `tasks` says which, for the launch phases). */
static void measure_megakernel(const options *o, ck_context *ctx, int tasks, mk_results *r)
{
    unsigned W = ck_context_workers(ctx);
    r->workers = W;
    if (ck_context_megakernel_resources(ctx, &r->res) != CK_OK)
        fail("reading the megakernel's resources", ck_last_error());
    if (W < 2) /* group 0 of a cooperative kernel is never killed: nothing to gather from */
        fail("measuring gathers", "the megakernel found only one worker; gathers need two or more (is the "
                                  "device busy with another program?)");

    launch_round_trips(o, ctx, &r->rt_median, &r->rt_p99, tasks ? NULL : r->phase_us);
    launch_throughput(o, ctx, &r->tput, &r->tput_launch_call_us, &r->tput_wait_call_us);

    r->global_barrier_us = per_round_us(ctx, "bench_global_barrier", o);
    r->resizing_barrier_us = per_round_us(ctx, "bench_resizing_barrier", o);
    r->offer_kill_ns = per_round_us(ctx, "bench_offer_kill", o) * 1e3;

    /* Gathers beside a cooperative kernel with a query resizing barrier
     * every ~gather_work rounds. */
    ck_buffer stop, dec, rounds;
    uint32_t zero[4] = {0}, one = 1;
    if (ck_buffer_alloc(ctx, 16, &stop) || ck_buffer_alloc(ctx, 16, &dec) || ck_buffer_alloc(ctx, 16, &rounds) ||
        ck_buffer_write(ctx, stop, 0, zero, 16) || ck_buffer_write(ctx, dec, 0, zero, 16) ||
        ck_buffer_write(ctx, rounds, 0, zero, 16))
        fail("gather buffers", ck_last_error());
    ck_arg ga[4] = {ck_arg_buffer(stop), ck_arg_buffer(dec), ck_arg_buffer(rounds), ck_arg_uint(o->gather_work)};
    ck_launch *coopl = launch(ctx, "bench_gather_coop", W, ga, 4);
    unsigned counts[4] = {1, W / 4 ? W / 4 : 1, W / 2 ? W / 2 : 1, W > 1 ? W - 1 : 1};
    double *g = malloc(o->gather_reps * sizeof *g);
    for (int k = 0; k < 4; ++k) {
        r->gather_groups[k] = counts[k];
        for (unsigned i = 0; i < o->gather_reps; ++i) {
            /* Let the cooperative kernel regrow (one resizing barrier
             * suffices), without leaving the runtime idle long enough for
             * its progress thread to nap: a nap would delay the begin
             * message and shorten the measured gather. */
            double until = app_now_ms() + 1;
            app_sleep_until_ms(until);
            /* The scheduler times a launch's gather (from its arrival to
             * its last group's start); a launch through the task table has
             * no such time, so there the whole launch + wait of the empty
             * kernel stands for it: an upper bound (gather_measure). */
            ck_launch_stats st;
            double t0 = app_now_ms();
            finish(launch(ctx, "bench_empty", counts[k], NULL, 0), "bench_empty (gather)", o->timeout, &st);
            g[i] = tasks ? (app_now_ms() - t0) * 1e3 : st.gather_ms * 1e3;
        }
        qsort(g, o->gather_reps, sizeof *g, cmp_double);
        r->gather_us[k] = g[o->gather_reps / 2];
    }
    free(g);
    if (ck_buffer_write(ctx, stop, 0, &one, 4) != CK_OK)
        fail("stopping the gather kernel", ck_last_error());
    ck_launch_stats cs;
    finish(coopl, "bench_gather_coop", o->timeout, &cs);
    uint32_t nr = 0;
    if (ck_buffer_read(ctx, rounds, 0, &nr, 4) != CK_OK)
        fail("reading the gather kernel's rounds", ck_last_error());
    r->gather_period_us = nr ? cs.exec_ms * 1e3 / nr : 0;
    r->gather_kills = cs.kills;
    r->gather_forked = cs.forked;
    if (ck_buffer_free(ctx, stop) != CK_OK || ck_buffer_free(ctx, dec) != CK_OK ||
        ck_buffer_free(ctx, rounds) != CK_OK)
        fail("freeing the gather buffers", ck_last_error());
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Where a burst's groups start: a burst of empty tasks, spawned as fast as
 * the host can, each stamping its start; the stamps' span gives starts per
 * second, and the gaps between consecutive starts (in time order) say
 * whether groups start side by side or one after another (how the claim
 * policy of 9306022 was found, docs/RESULTS.md). No figures on a device
 * without a clock (every stamp 0). */
static void measure_task_burst(const options *o, ck_context *ctx, results *r)
{
    unsigned n = o->throughput_launches * 5u < BURST_TASKS ? o->throughput_launches * 5u : BURST_TASKS;
    ck_kernel sk;
    ck_buffer b;
    uint64_t *ts = calloc(n, sizeof *ts);
    double *gap = calloc(n, sizeof *gap);
    if (!ts || !gap)
        fail("the task burst", "out of memory");
    if (ck_kernel_find(ctx, "bench_stamp", &sk) != CK_OK || ck_buffer_alloc(ctx, (size_t)n * 8u, &b) != CK_OK ||
        ck_buffer_write(ctx, b, 0, ts, (size_t)n * 8u) != CK_OK)
        fail("the task burst", ck_last_error());
    for (unsigned i = 0; i < n; ++i) {
        ck_task tk;
        ck_arg a[2] = {ck_arg_buffer(b), ck_arg_uint(i)};
        if (ck_task_spawn(ctx, sk, 1, a, 2, o->timeout, &tk) != CK_OK)
            fail("the task burst", ck_last_error());
    }
    if (ck_task_wait_all(ctx, o->timeout) != CK_OK || ck_buffer_read(ctx, b, 0, ts, (size_t)n * 8u) != CK_OK ||
        ck_buffer_free(ctx, b) != CK_OK)
        fail("the task burst", ck_last_error());
    qsort(ts, n, sizeof *ts, cmp_u64);
    r->burst_tasks = n > 1 && ts[0] != 0 && ts[n - 1] > ts[0] ? n : 0;
    if (r->burst_tasks) {
        for (unsigned i = 1; i < n; ++i)
            gap[i - 1] = (double)(ts[i] - ts[i - 1]);
        r->burst_starts_per_s = (n - 1) / ((double)(ts[n - 1] - ts[0]) * 1e-9);
        r->burst_gap_ns_median = app_percentile(gap, n - 1, 50);
        r->burst_gap_ns_p90 = app_percentile(gap, n - 1, 90);
    }
    free(ts);
    free(gap);
}

/* Spawn + wait of an empty task of `groups` groups, o->iterations times
 * after 20 to warm up: the median and p99 round trip in us, and with
 * `phases` where it went (its statistics): spawn call, device execution
 * (first group start to last group end, device clock; -1 without one) and
 * the rest (to a worker, and the notice back). */
static void task_round_trips(const options *o, ck_context *ctx, ck_kernel ek, unsigned groups, double *median,
                             double *p99, double phases[3])
{
    double *t = malloc(o->iterations * sizeof *t), *ph[3];
    for (int k = 0; k < 3; ++k)
        ph[k] = malloc(o->iterations * sizeof(double));
    if (!t || !ph[0] || !ph[1] || !ph[2])
        fail("bench_empty (task)", "out of host memory");
    for (unsigned i = 0; i < 20 + o->iterations; ++i) {
        ck_task tk;
        ck_task_stats st;
        double a = app_now_ms();
        if (ck_task_spawn(ctx, ek, groups, NULL, 0, o->timeout, &tk) != CK_OK)
            fail("bench_empty (task)", ck_last_error());
        double b = app_now_ms();
        if (ck_task_wait(tk, o->timeout) != CK_OK)
            fail("bench_empty (task)", ck_last_error());
        double c = app_now_ms();
        if (ck_task_get_stats(tk, &st) != CK_OK)
            fail("bench_empty (task)", ck_last_error());
        if (i >= 20) { /* the first 20 warm up */
            t[i - 20] = (c - a) * 1e3;
            ph[0][i - 20] = (b - a) * 1e3;
            ph[1][i - 20] = st.exec_ms < 0 ? -1.0 : st.exec_ms * 1e3;
            ph[2][i - 20] = st.exec_ms < 0 ? -1.0 : (c - b) * 1e3 - st.exec_ms * 1e3;
        }
    }
    app_summary s = app_summarize(t, o->iterations);
    *median = s.median;
    *p99 = s.p99;
    for (int k = 0; k < 3; ++k) {
        if (phases)
            phases[k] = app_summarize(ph[k], o->iterations).median;
        free(ph[k]);
    }
    free(t);
}

/* --gap-sweep: the median round trip of an empty 1-group task and of an
 * empty launch through the table when the host spins gap_ns[g] between
 * seeing one done and sending the next (the pause is not timed). Tells how
 * the device's polling meets a host that comes back at a given moment: a
 * round trip that jumps by a bus trip from one pause to the next says the
 * next request missed a poll already on its way. */
static void gap_sweep(const options *o, ck_context *ctx, ck_kernel ek, results *r)
{
    unsigned n = o->iterations < 1000 ? o->iterations : 1000;
    double *t = malloc(n * sizeof *t);
    if (!t)
        fail("--gap-sweep", "out of host memory");
    for (unsigned g = 0; g < GAP_POINTS; ++g)
        for (int table = 0; table < 2; ++table) {
            for (unsigned i = 0; i < 20 + n; ++i) {
                double until = app_now_ms() + gap_ns[g] * 1e-6;
                while (app_now_ms() < until)
                    ;
                double a = app_now_ms();
                if (table) {
                    ck_launch *l = launch(ctx, "bench_empty", 1, NULL, 0);
                    if (ck_wait(l, o->timeout) != CK_OK)
                        fail("bench_empty (--gap-sweep)", ck_last_error());
                    double b = app_now_ms();
                    ck_launch_release(l);
                    if (i >= 20)
                        t[i - 20] = (b - a) * 1e3;
                    continue;
                }
                ck_task tk;
                if (ck_task_spawn(ctx, ek, 1, NULL, 0, o->timeout, &tk) != CK_OK ||
                    ck_task_wait(tk, o->timeout) != CK_OK)
                    fail("bench_empty (--gap-sweep)", ck_last_error());
                if (i >= 20)
                    t[i - 20] = (app_now_ms() - a) * 1e3;
            }
            (table ? r->gap_table_us : r->gap_task_us)[g] = app_summarize(t, n).median;
        }
    free(t);
}

/* The task API in a megakernel built with it (ck_context_options.tasks),
 * on its own context, so the launch figures above come from the build
 * without the task code. */
/* The task API in the megakernel built with it (ck_context_options.tasks):
 * spawn + wait of an empty task of one and of two groups, then spawns kept
 * going (the table bounds those in flight) and every task waited for at the
 * end, a burst's group starts, and with --gap-sweep the sweep. */
static void measure_task_api(const options *o, ck_context *ctx, results *r)
{
    ck_kernel ek;
    if (ck_kernel_find(ctx, "bench_empty", &ek) != CK_OK)
        fail("bench_empty (task)", ck_last_error());
    task_round_trips(o, ctx, ek, 1, &r->task_rt_median, &r->task_rt_p99, r->task_phase_us);
    task_round_trips(o, ctx, ek, 2, &r->task2_rt_median, &r->task2_rt_p99, NULL);
    unsigned n_tasks = o->throughput_launches * 5;
    double t0 = app_now_ms();
    for (unsigned i = 0; i < n_tasks; ++i) {
        ck_task tk;
        if (ck_task_spawn(ctx, ek, 1, NULL, 0, o->timeout, &tk) != CK_OK)
            fail("bench_empty (task throughput)", ck_last_error());
    }
    double spawned = app_now_ms();
    if (ck_task_wait_all(ctx, o->timeout) != CK_OK)
        fail("bench_empty (task throughput)", ck_last_error());
    r->task_tput = n_tasks / ((app_now_ms() - t0) * 1e-3);
    r->task_spawn_us = (spawned - t0) * 1e3 / n_tasks;
    measure_task_burst(o, ctx, r);
    if (o->gap_sweep)
        gap_sweep(o, ctx, ek, r);
}

/* Builds a megakernel with ckbench's kernels, with or without tasks, and
 * measures it (with tasks: the task API too). */
static void run_megakernel(const options *o, int tasks, mk_results *m, results *r)
{
    ck_context_options co = {.device = o->dev,
                             .work_group_size = o->wg,
                             .timeout_s = o->timeout,
                             .max_groups = o->max_groups,
                             .tasks = tasks,
                             .register_cap = o->register_cap};
    ck_context *ctx;
    const char *coop[] = {"bench_global_barrier", "bench_resizing_barrier", "bench_gather_coop", "bench_offer_kill"};
    if (ck_context_create(&co, &ctx) != CK_OK || ck_context_add_source(ctx, "ckbench.cl", bench_source, coop, 4) ||
        (tasks && ck_context_add_source(ctx, "ckbench_stamp.cl", stamp_source, NULL, 0)) ||
        ck_context_build(ctx) != CK_OK)
        fail(tasks ? "building the megakernel with tasks" : "building the megakernel without tasks",
             ck_last_error());
    measure_megakernel(o, ctx, tasks, m);
    if (tasks)
        measure_task_api(o, ctx, r);
    if (ck_context_destroy(ctx) != CK_OK)
        fail("closing the megakernel", ck_last_error());
}

/* "plain_sync": the plain barrier's forms and the lock forms (ns per
 * critical section of one group; null where a form does not exist here). */
static void json_plain_sync(json_out *j, const plain_sync_results *p)
{
    jo_object(j, "plain_sync");
    jo_uint(j, "groups", p->groups);
    jo_uint(j, "occupancy", p->occupancy);
    jo_num(j, "plain_barrier_us", "%.3f", p->barrier_us);
    jo_num(j, "plain_barrier_fenced_us", "%.3f", p->barrier_fenced_us);
    jo_num(j, "plain_barrier_counter_us", "%.3f", p->counter_us);
    jo_array(j, "master_barriers");
    for (int t = 0; t < PLAIN_MASTER_FORMS; ++t) {
        jo_object(j, NULL);
        jo_uint(j, "counters", plain_master_forms[t][0]);
        jo_uint(j, "stride_words", plain_master_forms[t][1]);
        jo_num(j, "us", "%.3f", p->master_us[t]);
        jo_end(j);
    }
    jo_end(j);
    jo_uint(j, "mutex_sharers", PLAIN_MUTEX_SHARERS);
    jo_object(j, "mutex_ns");
    for (int f = 0; f < PLAIN_MUTEX_FORMS; ++f) {
        if (!p->mutex_ran[f]) {
            jo_null(j, plain_mutex_name(f));
            continue;
        }
        jo_object(j, plain_mutex_name(f));
        jo_num(j, "own", "%.1f", p->mutex_own_ns[f]);
        jo_num(j, "shared", "%.1f", p->mutex_shared_ns[f]);
        jo_end(j);
    }
    jo_end(j);
    jo_end(j);
}

static void table_plain_sync(const plain_sync_results *p, double mk_barrier_us)
{
    printf("plain OpenCL at %u groups (co-resident: %u):\n", p->groups, p->occupancy);
    printf("%-46s %12.2f (megakernel %.2f)\n", "  global_barrier(), us", p->barrier_us, mk_barrier_us);
    printf("%-46s %12.2f\n", "  global_barrier(), earlier fenced form, us", p->barrier_fenced_us);
    printf("%-46s %12.2f\n", "  global_barrier(), one-counter form, us", p->counter_us);
    for (int t = 0; t < PLAIN_MASTER_FORMS; ++t) {
        char label[64];
        snprintf(label, sizeof label, "  master barrier, %u counters %u words apart, us", plain_master_forms[t][0],
                 plain_master_forms[t][1]);
        printf("%-46s %12.2f\n", label, p->master_us[t]);
    }
    for (int f = 0; f < PLAIN_MUTEX_FORMS; ++f) {
        if (!p->mutex_ran[f])
            continue;
        char label[64];
        snprintf(label, sizeof label, "  lock %s, ns own/shared", plain_mutex_name(f));
        printf("%-46s %12.0f %12.0f\n", label, p->mutex_own_ns[f], p->mutex_shared_ns[f]);
    }
}

/* Runs the CUDA reference and keeps its JSON object (one line). */
static void run_cuda(const options *o, results *r)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s %u %zu %u %u", o->cuda, r->mk.workers, o->wg, o->iterations,
             o->throughput_launches);
    FILE *p = popen(cmd, "r");
    if (!p)
        fail("--cuda", "cannot run the CUDA reference");
    size_t n = fread(r->cuda, 1, sizeof r->cuda - 1, p);
    r->cuda[n] = 0;
    int st = pclose(p);
    char *nl = strchr(r->cuda, '\n');
    if (nl)
        *nl = 0;
    if (st != 0 || r->cuda[0] != '{')
        fail("--cuda", "the CUDA reference failed (no JSON object on its first line)");
}

int main(int argc, char **argv)
{
    /* We report the megakernel's registers: NVIDIA's compiler gives them only if its cache did not serve the build. */
    setenv("CUDA_CACHE_DISABLE", "1", 0);
    options o;
    if (parse_args(argc, argv, &o))
        return 0;
    cli_check_device(&o.dev, &o.wg, 1);
    ck_device *dev;
    if (ck_device_open(&o.dev, &dev) != CK_OK) {
        fprintf(stderr, "ckbench: %s\n", ck_last_error());
        return 2;
    }
    int cpu = ck_device_get_info(dev)->is_cpu;
    ck_device_close(dev);
    if (!o.iterations)
        o.iterations = cpu ? 200 : 2000;
    if (!o.barriers)
        o.barriers = cpu ? 50 : 2000;
    if (!o.gather_reps)
        o.gather_reps = cpu ? 3 : 7;
    if (!o.gather_work)
        o.gather_work = cpu ? 20000 : 2000;
    if (!o.throughput_launches)
        o.throughput_launches = cpu ? 300 : 20000;
    if (!o.mutex_iters)
        o.mutex_iters = cpu ? 20 : 1000;

    results r;
    memset(&r, 0, sizeof r);
    measure_plain(&o, &r);
    run_megakernel(&o, 1, &r.mk, &r);
    run_megakernel(&o, 0, &r.sched, &r);
    {
        char err[4096];
        if (plain_sync_measure(&o.dev, o.wg, r.mk.workers, o.barriers, o.mutex_iters, o.timeout, &r.ps, err,
                               sizeof err))
            fail("plain synchronisation", err);
    }
    if (o.cuda)
        run_cuda(&o, &r);

    const mk_results *m = &r.mk, *q = &r.sched;
    if (o.json) {
        json_out j;
        jo_start(&j, stdout);
        jo_object(&j, NULL);
        jo_str(&j, "device", r.device);
        jo_uint(&j, "work_group_size", o.wg);
        jo_uint(&j, "workers", m->workers);
        jo_uint(&j, "plain_occupancy", r.plain_occupancy);
        jo_uint(&j, "megakernel_occupancy", m->workers + 1);
        jo_str(&j, "launch_path", "task table");
        jo_num(&j, "plain_launch_rt_us_median", "%.2f", r.plain_rt_median);
        jo_num(&j, "plain_launch_rt_us_p99", "%.2f", r.plain_rt_p99);
        jo_num(&j, "plain_launch_throughput_per_s", "%.0f", r.plain_tput);
        json_dispatch(&j, m, 1);
        jo_num(&j, "task_rt_us_median", "%.2f", r.task_rt_median);
        jo_num(&j, "task_rt_us_p99", "%.2f", r.task_rt_p99);
        jo_num(&j, "task_throughput_per_s", "%.0f", r.task_tput);
        jo_num(&j, "task_spawn_us", "%.3f", r.task_spawn_us);
        jo_num(&j, "task2_rt_us_median", "%.2f", r.task2_rt_median);
        jo_num(&j, "task2_rt_us_p99", "%.2f", r.task2_rt_p99);
        jo_str(&j, "register_cap_mode", o.register_cap_mode);
        if (r.burst_tasks) {
            jo_object(&j, "task_burst");
            jo_uint(&j, "tasks", r.burst_tasks);
            jo_num(&j, "starts_per_s", "%.0f", r.burst_starts_per_s);
            jo_num(&j, "start_gap_ns_median", "%.0f", r.burst_gap_ns_median);
            jo_num(&j, "start_gap_ns_p90", "%.0f", r.burst_gap_ns_p90);
            jo_end(&j);
        } else
            jo_null(&j, "task_burst");
        jo_object(&j, "task_phases_us_median");
        jo_num(&j, "spawn_call", "%.2f", r.task_phase_us[0]);
        jo_num(&j, "exec", "%.2f", r.task_phase_us[1]);
        jo_num(&j, "to_worker_and_back", "%.2f", r.task_phase_us[2]);
        jo_end(&j);
        jo_object(&j, "scheduler_path");
        jo_uint(&j, "workers", q->workers);
        json_dispatch(&j, q, 0);
        jo_end(&j);
        if (o.gap_sweep) {
            jo_object(&j, "host_gap_sweep");
            jo_array(&j, "gap_ns");
            for (unsigned g = 0; g < GAP_POINTS; ++g)
                jo_uint(&j, NULL, gap_ns[g]);
            jo_end(&j);
            jo_array(&j, "task_rt_us_median");
            for (unsigned g = 0; g < GAP_POINTS; ++g)
                jo_num(&j, NULL, "%.2f", r.gap_task_us[g]);
            jo_end(&j);
            jo_array(&j, "table_launch_rt_us_median");
            for (unsigned g = 0; g < GAP_POINTS; ++g)
                jo_num(&j, NULL, "%.2f", r.gap_table_us[g]);
            jo_end(&j);
            jo_end(&j);
        }
        json_plain_sync(&j, &r.ps);
        if (r.cuda[0])
            jo_raw(&j, "cuda", r.cuda);
        jo_end(&j);
        return 0;
    }
    printf("device: %s, work-groups of %zu\n", r.device, o.wg);
    printf("occupancy: plain kernel %u groups; megakernel with tasks %u (%u workers + scheduler) = %.0f %%, "
           "without tasks %u = %.0f %%\n",
           r.plain_occupancy, m->workers + 1, m->workers, 100.0 * (m->workers + 1) / r.plain_occupancy,
           q->workers + 1, 100.0 * (q->workers + 1) / r.plain_occupancy);
    printf("%-46s %12s %12s %12s\n", "measure", "plain OpenCL", "with tasks", "scheduler");
    printf("%-46s %12.1f %12.1f %12.1f\n", "launch + wait, empty 1-group kernel, median us", r.plain_rt_median,
           m->rt_median, q->rt_median);
    printf("%-46s %12.1f %12.1f %12.1f\n", "launch + wait, p99 us", r.plain_rt_p99, m->rt_p99, q->rt_p99);
    printf("%-46s %12s %12s %5.1f/%.1f/%.1f/%.1f\n", "  queue/gather/exec/wake-up, medians us", "-", "-",
           q->phase_us[0], q->phase_us[1], q->phase_us[2], q->phase_us[3]);
    printf("%-46s %12.0f %12.0f %12.0f\n", "empty 1-group launches per second", r.plain_tput, m->tput, q->tput);
    printf("%-46s %12s %5.2f/%-6.2f %5.2f/%.2f\n", "  host us per launch in ck_launch_kernel/ck_wait", "",
           m->tput_launch_call_us, m->tput_wait_call_us, q->tput_launch_call_us, q->tput_wait_call_us);
    printf("%-46s %12s %12.2f %12.2f\n", "global barrier over all workers, us", "-", m->global_barrier_us,
           q->global_barrier_us);
    printf("%-46s %12s %12.2f %12.2f\n", "resizing barrier (no resize), us", "-", m->resizing_barrier_us,
           q->resizing_barrier_us);
    printf("%-46s %12s %12.1f %12.1f\n", "offer_kill() nobody takes, ns", "-", m->offer_kill_ns, q->offer_kill_ns);
    static const char *const keys[4] = {"1", "N/4", "N/2", "N-1"};
    for (int k = 0; k < 4; ++k) {
        char label[64];
        snprintf(label, sizeof label, "gather of %s = %u / %u groups, median us", keys[k], m->gather_groups[k],
                 q->gather_groups[k]);
        printf("%-46s %12s %12.1f %12.1f\n", label, "-", m->gather_us[k], q->gather_us[k]);
    }
    printf(
        "(the cooperative kernel reached a resizing barrier every %.1f / %.1f us meanwhile; it gave %u / %u groups "
        "back and forked %u / %u)\n",
        m->gather_period_us, q->gather_period_us, m->gather_kills, q->gather_kills, m->gather_forked,
        q->gather_forked);
    printf("%-46s %12s %12s\n", "register cap asked (--register-cap)", "", o.register_cap_mode);
    table_resources("registers per work-item, with tasks", &m->res);
    table_resources("registers per work-item, without tasks", &q->res);
    printf("%-46s %12.1f %12.1f\n", "task spawn + wait, empty 1 group, median us", r.plain_rt_median,
           r.task_rt_median);
    printf("%-46s %12.1f %12.1f\n", "task spawn + wait, p99 us", r.plain_rt_p99, r.task_rt_p99);
    printf("%-46s %12s %12.1f\n", "task spawn + wait, empty 2 groups, median us", "", r.task2_rt_median);
    printf("%-46s %12.0f %12.0f\n", "empty 1-group tasks per second", r.plain_tput, r.task_tput);
    printf("%-46s %12s %12.3f\n", "  host us per ck_task_spawn", "", r.task_spawn_us);
    if (r.burst_tasks) {
        char label[64];
        snprintf(label, sizeof label, "  group starts per second, burst of %u tasks", r.burst_tasks);
        printf("%-46s %12s %12.0f\n", label, "", r.burst_starts_per_s);
        printf("%-46s %12s %5.0f/%.0f\n", "  ns between starts, median/p90", "", r.burst_gap_ns_median,
               r.burst_gap_ns_p90);
    } else {
        printf("%-46s %12s %12s\n", "  group starts in a burst (no device clock)", "", "-");
    }
    table_plain_sync(&r.ps, m->global_barrier_us);
    if (r.cuda[0])
        printf("CUDA reference: %s\n", r.cuda);
    return 0;
}
