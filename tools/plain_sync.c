/* tools/plain_sync.c: the plain-OpenCL synchronisation measurements of
 * ckbench (plain_sync.h): barrier and lock kernels built as a kernel author
 * builds them (-cl-std of the path, -I the include directory), timed host to
 * host against the same kernel doing no barrier or lock, and checked. */
#include "plain_sync.h"

#include "cl_plain.h"
#include "paths.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernels. The lock kernels: work-item 0 of each group takes a lock,
 * adds to the lock's counter and mixes its id into the next word (plain,
 * not atomic: only the lock keeps the updates apart), and releases it. */
static const char *sync_source =
    "#define CK_PLAIN_BARRIER_WORDS w\n"
    "#include \"ck_cooperative.h\"\n"
    "/* check != 0: before barrier i work-item 0 of each group writes i to its\n"
    " * word of half i % 2 of `seen`, after it reads its neighbour's; a word\n"
    " * that is not i yet (a barrier that let a group through early) sets\n"
    " * seen[2n]. The halves alternate, so a word is rewritten only after the\n"
    " * next barrier, by when every reader of it has read it. */\n"
    "void check_before(global uint *seen, uint check, uint i) {\n"
    "    if (check && get_local_id(0) == 0)\n"
    "        ck_store_relaxed((CK_PTR)(seen + (i & 1u) * get_num_groups(0) + get_group_id(0)), i);\n"
    "}\n"
    "void check_after(global uint *seen, uint check, uint i) {\n"
    "    uint n = get_num_groups(0), next = (get_group_id(0) + 1u) % n;\n"
    "    if (check && get_local_id(0) == 0 && ck_load_relaxed((CK_PTR)(seen + (i & 1u) * n + next)) != i)\n"
    "        ck_store_relaxed((CK_PTR)(seen + 2u * n), 1u);\n"
    "}\n"
    "/* n barriers of the form CALL, each checked when check != 0. */\n"
    "#define BARRIER_LOOP(CALL) for (uint i = 0; i < n; i++) { \\\n"
    "        check_before(seen, check, i); CALL; check_after(seen, check, i); }\n"
    "kernel void plain_barrier(volatile global uint *w, uint n, global uint *seen, uint check) {\n"
    "    BARRIER_LOOP(global_barrier())\n"
    "}\n"
    "/* A waiter of the candidate barriers, as the header's: polls the\n"
    " * generation word with N/8 ns pauses, then acquires. */\n"
    "void wait_generation(CK_PTR gen, uint old, uint n) {\n"
    "    while (ck_load_relaxed(gen) == old)\n"
    "        ck_pause_ns(n / 8u);\n"
    "    ck_fence_acquire();\n"
    "}\n"
    "/* A master-release barrier (the megakernel's scheme): group g adds to\n"
    " * counter g % fan (`stride` words apart) without using the result, so the\n"
    " * arrival is a reduction with no round trip; group 0 sums the counters\n"
    " * until all have arrived, zeroes them and releases everyone with one\n"
    " * word on a line of its own. Nobody arrives at the next barrier before\n"
    " * that release, so the sum never counts two barriers and the zeroing is\n"
    " * published by the release. */\n"
    "void master_barrier(volatile global uint *w, uint fan, uint stride) {\n"
    "    ck_group_barrier_device();\n"
    "    if (get_local_id(0) == 0) {\n"
    "        uint n = get_num_groups(0), g = get_group_id(0), f = min(fan, n);\n"
    "        CK_PTR gen = (CK_PTR)(w + f * stride);\n"
    "        uint old = ck_load_relaxed(gen);\n"
    "        ck_fetch_add((CK_PTR)(w + (g % f) * stride), 1u);\n"
    "        if (g == 0) {\n"
    "            for (;;) {\n"
    "                uint sum = 0;\n"
    "                for (uint i = 0; i < f; i++)\n"
    "                    sum += ck_load_relaxed((CK_PTR)(w + i * stride));\n"
    "                if (sum == n)\n"
    "                    break;\n"
    "            }\n"
    "            ck_fence_acq_rel();\n"
    "            for (uint i = 0; i < f; i++)\n"
    "                ck_store_relaxed((CK_PTR)(w + i * stride), 0u);\n"
    "            ck_store_release(gen, old + 1u);\n"
    "        } else {\n"
    "            wait_generation(gen, old, n);\n"
    "        }\n"
    "    }\n"
    "    ck_group_barrier_device();\n"
    "}\n"
    "/* The header's plain barrier before its ticket form, kept to show the\n"
    " * change: one counter reset by the last arrival, and the generation\n"
    " * loaded before the arrival (a round trip on the polled line). */\n"
    "void counter_barrier(volatile global uint *w) {\n"
    "    ck_group_barrier_device();\n"
    "    if (get_local_id(0) == 0) {\n"
    "        uint n = get_num_groups(0);\n"
    "        CK_PTR count = (CK_PTR)w;\n"
    "        CK_PTR gen = (CK_PTR)(w + 32);\n"
    "        uint g = ck_load_relaxed(gen);\n"
    "        if (ck_fetch_add(count, 1u) == n - 1u) {\n"
    "            ck_store_relaxed(count, 0u);\n"
    "            ck_store_release(gen, g + 1u);\n"
    "        } else {\n"
    "            wait_generation(gen, g, n);\n"
    "        }\n"
    "    }\n"
    "    ck_group_barrier_device();\n"
    "}\n"
    "kernel void plain_barrier_counter(volatile global uint *w, uint n, global uint *seen, uint check) {\n"
    "    BARRIER_LOOP(counter_barrier(w))\n"
    "}\n"
    "kernel void plain_barrier_master(volatile global uint *w, uint n, global uint *seen, uint check,\n"
    "                                 uint fan, uint stride) {\n"
    "    BARRIER_LOOP(master_barrier(w, fan, stride))\n"
    "}\n"
    "void cas_lock(volatile global uint *m) { while (ck_cas((CK_PTR)m, 0u, 1u) != 0u) { } }\n"
    "void cas_fence_lock(volatile global uint *m) {\n"
    "    while (ck_cas_relaxed((CK_PTR)m, 0u, 1u) != 0u) { }\n"
    "    ck_fence_acquire();\n"
    "}\n"
    "void ttas_lock(volatile global uint *m) {\n"
    "    while (ck_load_relaxed((CK_PTR)m) != 0u || ck_cas_relaxed((CK_PTR)m, 0u, 1u) != 0u) { }\n"
    "    ck_fence_acquire();\n"
    "}\n"
    "void release_unlock(volatile global uint *m) { ck_store_release((CK_PTR)m, 0u); }\n"
    "#define MUTEX_KERNEL(NAME, LOCK, UNLOCK)                                              \\\n"
    "kernel void NAME(volatile global uint *locks, global uint *data, uint iters, uint per_lock) { \\\n"
    "    if (get_local_id(0) != 0) return;                                                 \\\n"
    "    uint g = get_group_id(0), n = get_num_groups(0);                                  \\\n"
    "    uint nlocks = per_lock ? max(n / per_lock, 1u) : n;                               \\\n"
    "    for (uint i = 0; i < iters; i++) {                                                \\\n"
    "        uint l = per_lock ? g % nlocks : ((i & 7u) == 7u ? (g + 1u + i * 7u) % n : g); \\\n"
    "        LOCK(locks + l * 32u);                                                        \\\n"
    "        data[l * 32u] += 1u;                                                          \\\n"
    "        data[l * 32u + 1u] ^= g;                                                      \\\n"
    "        UNLOCK(locks + l * 32u);                                                      \\\n"
    "    }                                                                                 \\\n"
    "}\n"
    "MUTEX_KERNEL(mutex_portable, device_mutex_lock, device_mutex_unlock)\n"
    "MUTEX_KERNEL(mutex_cas, cas_lock, release_unlock)\n"
    "MUTEX_KERNEL(mutex_cas_fence, cas_fence_lock, release_unlock)\n"
    "MUTEX_KERNEL(mutex_ttas, ttas_lock, release_unlock)\n";

/* The hand-written NVIDIA lock a CUDA programmer writes (atomicCAS spin,
 * __threadfence; __threadfence, atomicExch; ck_atomics.h has it in inline
 * PTX): only built where the platform is NVIDIA's. */
static const char *ptx_source =
    "void ptx_lock(volatile global uint *m) { while (!ck_handwritten_try_lock((CK_PTR)m)) { } }\n"
    "void ptx_unlock(volatile global uint *m) { ck_handwritten_unlock((CK_PTR)m); }\n"
    "MUTEX_KERNEL(mutex_ptx, ptx_lock, ptx_unlock)\n";

static const char *const mutex_names[PLAIN_MUTEX_FORMS] = {"portable", "cas", "cas_fence", "ttas", "ptx"};

const char *plain_mutex_name(int form) { return form >= 0 && form < PLAIN_MUTEX_FORMS ? mutex_names[form] : "?"; }

typedef struct {
    app_cl c;
    double timeout_s;
    char *err;
    size_t err_len;
} bench;

static int build(bench *b, int fenced, int ptx, cl_program *out)
{
    char opts[1400];
    snprintf(opts, sizeof opts, "-cl-std=%s -I %s%s", b->c.cl_std[0] ? b->c.cl_std : "CL1.2", app_include_dir(),
             fenced ? " -DCK_PLAIN_BARRIER_FENCED" : "");
    const char *srcs[2] = {sync_source, ptx_source};
    cl_int e;
    cl_program p = clCreateProgramWithSource(b->c.context, ptx ? 2 : 1, srcs, NULL, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateProgramWithSource (plain synchronisation kernels)", b->err, b->err_len);
    e = clBuildProgram(p, 1, &b->c.device, opts, NULL, NULL);
    if (e != CL_SUCCESS) {
        char log[2048] = "";
        clGetProgramBuildInfo(p, b->c.device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        snprintf(b->err, b->err_len, "building the plain synchronisation kernels with '%s' failed: %s: %.1500s",
                 opts, app_cl_errstr(e), log);
        clReleaseProgram(p);
        return -1;
    }
    *out = p;
    return 0;
}

/* One launch of k over `groups` groups, host time in ms, within the timeout. */
static int timed_launch(bench *b, cl_kernel k, size_t wg, unsigned groups, const char *what, double *ms)
{
    size_t global = (size_t)groups * wg;
    double t0 = app_now_ms();
    cl_int e = clEnqueueNDRangeKernel(b->c.queue, k, 1, NULL, &global, &wg, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        char w[160];
        snprintf(w, sizeof w, "clEnqueueNDRangeKernel (%s)", what);
        return app_cl_fail(e, w, b->err, b->err_len);
    }
    if (app_cl_finish(&b->c, t0 + b->timeout_s * 1e3, what, b->err, b->err_len))
        return -1;
    *ms = app_now_ms() - t0;
    return 0;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Median over three pairs of (launch with `count` in argument `arg`, launch
 * with 0) of the difference, in ms. */
static int median_difference(bench *b, cl_kernel k, cl_uint arg, unsigned count, size_t wg, unsigned groups,
                             const char *what, double *ms)
{
    double d[3];
    for (int r = 0; r < 3; ++r) {
        double with, without;
        cl_uint zero = 0, n = count;
        if (clSetKernelArg(k, arg, sizeof n, &n) != CL_SUCCESS || timed_launch(b, k, wg, groups, what, &with) ||
            clSetKernelArg(k, arg, sizeof zero, &zero) != CL_SUCCESS ||
            timed_launch(b, k, wg, groups, what, &without)) {
            if (!b->err[0])
                snprintf(b->err, b->err_len, "clSetKernelArg (%s)", what);
            return -1;
        }
        d[r] = with - without;
    }
    qsort(d, 3, sizeof d[0], cmp_double);
    *ms = d[1] > 0 ? d[1] : 0;
    return 0;
}

/* fan == 0: the header's barrier (plain_barrier), or with stride 1 its
 * earlier one-counter form; else the master-release barrier with that many
 * counters, `stride` words apart. Timed without the
 * check, then one checked launch: a barrier that lets a group through before
 * the others arrived fails here rather than giving a figure. */
static int measure_barrier(bench *b, cl_program p, size_t wg, unsigned groups, unsigned barriers, unsigned fan,
                           unsigned stride, double *us)
{
    cl_int e;
    const char *name = fan ? "plain_barrier_master" : stride ? "plain_barrier_counter" : "plain_barrier";
    cl_kernel k = clCreateKernel(p, name, &e);
    if (e != CL_SUCCESS)
        return app_cl_fail(e, "clCreateKernel (plain barrier)", b->err, b->err_len);
    static const uint32_t zeros[PLAIN_MASTER_WORDS]; /* enough for every form */
    cl_mem w, seen;
    int rc = -1;
    double ms = 0, warm;
    cl_uint n = barriers, f = fan, st = stride, check = 0, bad = 0;
    char what[96];
    if (fan)
        snprintf(what, sizeof what, "the master barrier kernel (%u counters)", fan);
    else
        snprintf(what, sizeof what, "the %s barrier kernel", stride ? "one-counter" : "plain");
    if (app_cl_buffer(&b->c, sizeof zeros, zeros, &w, "plain barrier words", b->err, b->err_len) ||
        app_cl_buffer(&b->c, ((size_t)groups * 2u + 1u) * 4u, NULL, &seen, "barrier check words", b->err,
                      b->err_len))
        goto out;
    if ((e = clSetKernelArg(k, 0, sizeof w, &w)) != CL_SUCCESS || (e = clSetKernelArg(k, 1, sizeof n, &n)) ||
        (e = clSetKernelArg(k, 2, sizeof seen, &seen)) || (e = clSetKernelArg(k, 3, sizeof check, &check)) ||
        (fan && ((e = clSetKernelArg(k, 4, sizeof f, &f)) || (e = clSetKernelArg(k, 5, sizeof st, &st))))) {
        app_cl_fail(e, "clSetKernelArg (plain barrier kernel)", b->err, b->err_len);
        goto out;
    }
    /* Warm-up: the first launch loads the program. */
    if (timed_launch(b, k, wg, groups, what, &warm) || median_difference(b, k, 1, barriers, wg, groups, what, &ms))
        goto out;
    check = 1;
    n = barriers;
    if ((e = clSetKernelArg(k, 1, sizeof n, &n)) != CL_SUCCESS ||
        (e = clSetKernelArg(k, 3, sizeof check, &check)) != CL_SUCCESS) {
        app_cl_fail(e, "clSetKernelArg (plain barrier kernel, checked)", b->err, b->err_len);
        goto out;
    }
    if (timed_launch(b, k, wg, groups, what, &warm))
        goto out;
    if ((e = clEnqueueReadBuffer(b->c.queue, seen, CL_TRUE, (size_t)groups * 2u * 4u, 4, &bad, 0, NULL, NULL)) !=
        CL_SUCCESS) {
        app_cl_fail(e, "clEnqueueReadBuffer (barrier check word)", b->err, b->err_len);
        goto out;
    }
    if (bad) {
        snprintf(b->err, b->err_len, "%s: a group left a barrier before its neighbour had reached it", what);
        goto out;
    }
    *us = ms * 1e3 / barriers;
    rc = 0;
out: /* the buffers belong to b->c (app_cl_buffer) */
    clReleaseKernel(k);
    return rc;
}

/* One lock form in both patterns, checked: every group's `iters` critical
 * sections must have counted. */
static int measure_mutex(bench *b, cl_program p, int form, size_t wg, unsigned groups, unsigned iters, double *own,
                         double *shared)
{
    char name[32];
    snprintf(name, sizeof name, "mutex_%s", mutex_names[form]);
    cl_int e;
    cl_kernel k = clCreateKernel(p, name, &e);
    if (e != CL_SUCCESS) {
        char w[80];
        snprintf(w, sizeof w, "clCreateKernel (%s)", name);
        return app_cl_fail(e, w, b->err, b->err_len);
    }
    size_t words = (size_t)groups * 32u;
    cl_mem locks, data;
    uint32_t *host = malloc(words * sizeof *host);
    int rc = -1;
    if (!host) {
        snprintf(b->err, b->err_len, "out of host memory");
        goto out;
    }
    if (app_cl_buffer(&b->c, words * 4, NULL, &locks, "lock words", b->err, b->err_len) ||
        app_cl_buffer(&b->c, words * 4, NULL, &data, "lock counters", b->err, b->err_len))
        goto out;
    for (int pattern = 0; pattern < 2; ++pattern) {
        cl_uint per_lock = pattern ? PLAIN_MUTEX_SHARERS : 0u, n = iters;
        char what[96];
        snprintf(what, sizeof what, "the %s lock kernel (%s locks)", mutex_names[form], pattern ? "shared" : "own");
        double warm, ms;
        if ((e = clSetKernelArg(k, 0, sizeof locks, &locks)) != CL_SUCCESS ||
            (e = clSetKernelArg(k, 1, sizeof data, &data)) != CL_SUCCESS ||
            (e = clSetKernelArg(k, 2, sizeof n, &n)) != CL_SUCCESS ||
            (e = clSetKernelArg(k, 3, sizeof per_lock, &per_lock)) != CL_SUCCESS) {
            app_cl_fail(e, "clSetKernelArg (lock kernel)", b->err, b->err_len);
            goto out;
        }
        if (timed_launch(b, k, wg, groups, what, &warm) || median_difference(b, k, 2, iters, wg, groups, what, &ms))
            goto out;
        /* The check: zero the counters, one more launch, add them up. */
        cl_uint zero = 0;
        if ((e = clEnqueueFillBuffer(b->c.queue, data, &zero, sizeof zero, 0, words * 4, 0, NULL, NULL)) !=
                CL_SUCCESS ||
            (e = clSetKernelArg(k, 2, sizeof n, &n)) != CL_SUCCESS) {
            app_cl_fail(e, "clEnqueueFillBuffer (lock counters)", b->err, b->err_len);
            goto out;
        }
        if (timed_launch(b, k, wg, groups, what, &warm))
            goto out;
        if ((e = clEnqueueReadBuffer(b->c.queue, data, CL_TRUE, 0, words * 4, host, 0, NULL, NULL)) != CL_SUCCESS) {
            app_cl_fail(e, "clEnqueueReadBuffer (lock counters)", b->err, b->err_len);
            goto out;
        }
        unsigned long long sum = 0;
        for (size_t l = 0; l < groups; ++l)
            sum += host[l * 32u];
        unsigned long long want = (unsigned long long)groups * iters;
        if (sum != want) {
            snprintf(b->err, b->err_len,
                     "%s: the counters under the locks add up to %llu, not %llu: the lock let two holders in", what,
                     sum, want);
            goto out;
        }
        *(pattern ? shared : own) = ms * 1e6 / iters;
    }
    rc = 0;
out:
    free(host);
    clReleaseKernel(k);
    return rc;
}

int plain_sync_measure(const ck_device_options *dev, size_t wg, unsigned groups, unsigned barriers,
                       unsigned mutex_iters, double timeout_s, plain_sync_results *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    err[0] = 0;
    bench b = {.timeout_s = timeout_s, .err = err, .err_len = err_len};
    app_cl_request req = {.device = *dev, .work_group_size = wg, .want_occupancy = 1};
    if (app_cl_open(&req, &b.c, err, err_len))
        return -1;
    out->occupancy = req.occupancy;
    out->groups = groups > req.occupancy ? req.occupancy : groups;
    if (out->groups == 0) {
        snprintf(err, err_len, "plain synchronisation: no group is co-resident at work-group size %zu", wg);
        app_cl_close(&b.c);
        return -1;
    }
    int ptx = strstr(b.c.name, "NVIDIA") != NULL;
    cl_program p = NULL, fenced = NULL;
    int rc = -1;
    if (build(&b, 0, ptx, &p) || build(&b, 1, 0, &fenced) ||
        measure_barrier(&b, p, wg, out->groups, barriers, 0, 0, &out->barrier_us) ||
        measure_barrier(&b, fenced, wg, out->groups, barriers, 0, 0, &out->barrier_fenced_us) ||
        measure_barrier(&b, p, wg, out->groups, barriers, 0, 1, &out->counter_us))
        goto out;
    for (int t = 0; t < PLAIN_MASTER_FORMS; ++t)
        if (measure_barrier(&b, p, wg, out->groups, barriers, plain_master_forms[t][0], plain_master_forms[t][1],
                            &out->master_us[t]))
            goto out;
    for (int f = 0; f < PLAIN_MUTEX_FORMS; ++f) {
        if (f == PLAIN_MUTEX_PTX && !ptx)
            continue;
        if (measure_mutex(&b, p, f, wg, out->groups, mutex_iters, &out->mutex_own_ns[f], &out->mutex_shared_ns[f]))
            goto out;
        out->mutex_ran[f] = 1;
    }
    rc = 0;
out:
    if (p)
        clReleaseProgram(p);
    if (fenced)
        clReleaseProgram(fenced);
    app_cl_close(&b.c);
    return rc;
}
