/* The megakernel's register cap (see register_cap.h). Policy: no cap
 * unless asked (on an H100 a cap without a spill still cost bc 30-32 % and
 * p-sssp 60-68 % at the same group count, and the extra groups cost game
 * 55-61 %, docs/RESULTS.md); "auto" caps at the count that lets
 * a compute unit hold its most work-items, and only when that costs no spill (a spill puts registers in
 * device memory on every path that touches them: on the H100 a cap of 32
 * cost BFS about a third of its speed, docs/RESULTS.md). Mechanism: NVIDIA's
 * -cl-nv-maxrregcount and the -cl-nv-verbose report (nv_resources.h).
 * The report comes only from a build the compiler ran: NVIDIA's driver keeps
 * a compute cache of compiled programs (keyed on the source and options), and
 * a build it serves runs no ptxas, so its log has no "Used N registers" line
 * (on the H100 every process after the first that built a given megakernel
 * got no report). Auto mode cannot decide without the report, so its builds
 * whose report decides carry a nonce: one more source part, an empty kernel
 * with a name no build had before (ck_register_nonce_source), which the cache
 * has never seen. An explicit cap or none builds once and lets the cache save
 * the compile; a missing report is then only said in the note. Auto's
 * tries cost compiles (on an H200 with the BFS kernels 5.0-8.0 s against
 * 2.5-3.1 s uncapped), so its decision is kept in the cap cache
 * (cap_cache.h) and a later build of the same megakernel builds once.
 * One cap is not the user's to choose: the most registers with which one
 * group of the context's size fits in a group's register budget. Above it
 * the megakernel cannot launch (on an H200, the megakernel with the DES
 * task kernel at 1024 work-items: CL_OUT_OF_RESOURCES), so every build
 * stays at or below it. */
#include "register_cap.h"
#include "cap_cache.h"
#include "clock.h"
#include "error.h"
#include "nv_resources.h"
#include "program.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define MIN_CAP 16u
#define MAX_CAP 255u
#define CAP_STEP 8u /* registers per work-item that the register file hands out at a time (NVIDIA) */
#define NONCE_PREFIX "ck_report_nonce_"

ck_status ck_register_cap_resolve(unsigned option, unsigned *out)
{
    *out = 0;
    if (option == CK_REGISTER_CAP_NONE)
        return CK_OK;
    if (option) {
        if (option != CK_REGISTER_CAP_AUTO && (option < MIN_CAP || option > MAX_CAP))
            return ck_fail(CK_ERR_INVALID_ARGUMENT,
                           "ck_context_options.register_cap %u is not 0, "
                           "CK_REGISTER_CAP_AUTO, CK_REGISTER_CAP_NONE or %u..%u registers",
                           option, MIN_CAP, MAX_CAP);
        *out = option;
        return CK_OK;
    }
    const char *env = getenv("CK_REGISTER_CAP");
    if (!env || !*env || !strcasecmp(env, "none") || !strcmp(env, "0"))
        return CK_OK;
    if (!strcasecmp(env, "auto")) {
        *out = CK_REGISTER_CAP_AUTO;
        return CK_OK;
    }
    char *end = NULL;
    unsigned long v = strtoul(env, &end, 10);
    if (end == env || *end || env[0] == '-' || v < MIN_CAP || v > MAX_CAP)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "CK_REGISTER_CAP='%s' is not 'auto', 'none' or %u..%u registers",
                       env, MIN_CAP, MAX_CAP);
    *out = (unsigned)v;
    return CK_OK;
}

unsigned ck_register_cap_tries(unsigned full, unsigned registers, unsigned *caps, unsigned n)
{
    unsigned count = 0;
    if (!full)
        return 0;
    for (unsigned cap = full; cap < registers && cap <= MAX_CAP; cap += CAP_STEP) {
        if (count < n)
            caps[count] = cap;
        ++count;
    }
    return count;
}

size_t ck_register_nonce_source(char *buf, size_t n, uint64_t seed)
{
    if (!buf || !n)
        return 0;
    int len = snprintf(buf, n, "\n__kernel void " NONCE_PREFIX "%016" PRIx64 "(void) {}\n", seed);
    if (len < 0 || (size_t)len >= n) {
        buf[0] = '\0';
        return 0;
    }
    return (size_t)len;
}

/* splitmix64's finaliser: every input bit moves about half the output bits. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A seed no other nonce build has had: this process's id, its count of
 * nonces (any thread) and the monotonic clock's nanoseconds, mixed. */
static uint64_t nonce_seed(void)
{
    static atomic_uint_fast64_t count;
    uint64_t c = (uint64_t)atomic_fetch_add(&count, 1u) + 1u;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    uint64_t ns = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
    return mix64(mix64(mix64((uint64_t)getpid()) ^ c) ^ ns);
}

/* Builds with `options` plus the report and, if cap is nonzero, the cap;
 * with `nonce`, the parts get one more: an empty kernel of a new name, so
 * the driver's cache cannot serve the build and the compiler reports. */
static ck_status build(ck_device *dev, const char **parts, unsigned n, const char *options, unsigned cap, int nonce,
                       cl_program *out)
{
    char opts[1024];
    int len = snprintf(opts, sizeof opts, "%s -cl-nv-verbose", options ? options : "");
    if (cap && len > 0 && (size_t)len < sizeof opts)
        snprintf(opts + len, sizeof opts - (size_t)len, " -cl-nv-maxrregcount=%u", cap);
    if (!nonce)
        return ck_program_build_parts(dev, parts, n, opts, out);
    const char *with[CK_REGISTER_CAP_MAX_PARTS + 1]; /* n was checked by ck_register_cap_build */
    char text[96];
    for (unsigned i = 0; i < n; ++i)
        with[i] = parts[i];
    ck_register_nonce_source(text, sizeof text, nonce_seed());
    with[n] = text;
    return ck_program_build_parts(dev, with, n + 1, opts, out);
}

/* Reads the megakernel's figures from p's build log into res. 1 if found. */
static int read_report(ck_device *dev, cl_program p, ck_megakernel_resources *res)
{
    char *log = ck_program_build_log(dev, p);
    ck_nv_resources r;
    int found = ck_nv_parse_resources(log, "ck_megakernel", &r);
    free(log);
    if (!found)
        return 0;
    res->known = 1;
    res->registers = r.registers;
    res->stack_bytes = r.stack_bytes;
    res->spill_bytes = r.spill_store_bytes + r.spill_load_bytes;
    return 1;
}

/* CK_REGISTER_CAP_AUTO after its first build (*out, capped at `first`:
 * none or the group's, `lowered`): a rebuild with a nonce if the cache
 * served it, then the capped tries. *decided is 1 when the outcome is a
 * decision the compiler's reports made (a cap without a spill, none
 * needed, or every cap spilled), 0 when a deadline, a failed or an
 * unreported build cut the tries short. */
static ck_status auto_decide(ck_device *dev, const char **parts, unsigned n, const char *options, unsigned first,
                             int lowered, double deadline, cl_program *out, ck_megakernel_resources *res,
                             int *decided)
{
    unsigned full = res->full_occupancy_registers;
    int known = res->known;
    *decided = 0;
    /* Auto's notes say what the first build had: no cap, or the group's. */
    const char *base = lowered ? "with the group's cap" : "without a cap";
    if (!known) {
        /* Most likely served by the cache: build once more with a nonce. */
        if (ck_now_s() > deadline) {
            snprintf(res->note, sizeof res->note,
                     "auto: the build had no register report (the driver's compute "
                     "cache served it) and the build's deadline passed before a rebuild; built %s",
                     base);
            return CK_OK;
        }
        cl_program fresh = NULL;
        if (build(dev, parts, n, options, first, 1, &fresh) != CK_OK) {
            snprintf(res->note, sizeof res->note,
                     "auto: the build had no register report and its rebuild for "
                     "one failed; built %s",
                     base);
            return CK_OK;
        }
        clReleaseProgram(*out);
        *out = fresh;
        known = read_report(dev, *out, res);
    }
    if (!known || !full) {
        snprintf(res->note, sizeof res->note, "auto: the compiler's report %s; built %s",
                 !known ? "did not give the megakernel's registers, even for a build the driver's cache could "
                          "not serve"
                        : "came without the device's register budget",
                 base);
        return CK_OK;
    }
    if (res->registers <= full) {
        snprintf(res->note, sizeof res->note,
                 "auto: %u registers already let a compute unit hold its most "
                 "work-items (%u or fewer); no cap%s",
                 res->registers, full, lowered ? " below the group's" : "");
        *decided = 1;
        return CK_OK;
    }
    /* The capped tries, each needing its report (it decides): the cap
     * that gives a compute unit its most work-items first, then each step
     * of the register file's granule (8 per work-item) that still holds
     * more groups than no cap, until one spills nothing. On an H200 the
     * megakernel with tasks spills at 32 and 40 registers and not at 48:
     * 48 holds more groups than its 56 without a cap. */
    unsigned before = res->registers, first_spill = 0;
    unsigned tries[(MAX_CAP + 1u) / CAP_STEP];
    unsigned n_tries = ck_register_cap_tries(full, before, tries, (unsigned)(sizeof tries / sizeof tries[0]));
    for (unsigned k = 0; k < n_tries; ++k) {
        unsigned cap_try = tries[k];
        if (ck_now_s() > deadline) {
            snprintf(res->note, sizeof res->note,
                     "auto: the build's deadline passed before the build capped at %u "
                     "registers; kept %u registers %s",
                     cap_try, before, base);
            return CK_OK;
        }
        cl_program capped = NULL;
        ck_megakernel_resources c;
        memset(&c, 0, sizeof c);
        /* Without a nonce first: the compiler runs unless the driver's
         * cache has this very build, and the program a later build at the
         * cap cache's decision asks for is then in the driver's cache too.
         * Served without a report, it is built once more with a nonce. */
        int reported = 0;
        if (build(dev, parts, n, options, cap_try, 0, &capped) == CK_OK) {
            reported = read_report(dev, capped, &c);
            if (!reported) {
                clReleaseProgram(capped);
                capped = NULL;
            }
        }
        if (!capped && build(dev, parts, n, options, cap_try, 1, &capped) != CK_OK) {
            snprintf(res->note, sizeof res->note,
                     "auto: the build capped at %u registers failed; kept %u registers "
                     "%s",
                     cap_try, before, base);
            return CK_OK;
        }
        if (!reported && !read_report(dev, capped, &c)) {
            snprintf(res->note, sizeof res->note,
                     "auto: the build capped at %u registers was not reported; kept %u "
                     "registers %s",
                     cap_try, before, base);
            clReleaseProgram(capped);
            return CK_OK;
        }
        if (c.spill_bytes) {
            if (!first_spill)
                first_spill = c.spill_bytes;
            clReleaseProgram(capped);
            continue;
        }
        clReleaseProgram(*out);
        *out = capped;
        c.register_cap = cap_try;
        c.full_occupancy_registers = full;
        if (cap_try == full)
            snprintf(c.note, sizeof c.note, "auto: capped at %u registers (%u %s), no spill", full, before, base);
        else
            snprintf(c.note, sizeof c.note,
                     "auto: capped at %u registers (%u %s), no spill; at %u "
                     "registers it spilled %u bytes per work-item",
                     cap_try, before, base, full, first_spill);
        *res = c;
        *decided = 1;
        return CK_OK;
    }
    if (n_tries > 1u)
        snprintf(res->note, sizeof res->note,
                 "auto: capped at %u registers the megakernel spills %u bytes per "
                 "work-item, and at each cap up to %u too; kept %u registers %s",
                 full, first_spill, tries[n_tries - 1u], before, base);
    else
        snprintf(res->note, sizeof res->note,
                 "auto: capped at %u registers the megakernel spills %u bytes per "
                 "work-item; kept %u registers %s",
                 full, first_spill, before, base);
    *decided = 1;
    return CK_OK;
}

/* An auto build whose decision an earlier build left in the cap cache:
 * built once, at the entry's cap (within the group's `limit`), without a
 * nonce, so the driver's compute cache can serve it too. The figures are
 * this build's report when the compiler ran, else the entry's (the report
 * of the build that decided, from the same source and options). */
static ck_status build_from_cache(ck_device *dev, const char **parts, unsigned n, const char *options,
                                  unsigned limit, unsigned full, const ck_cap_cache_entry *e, cl_program *out,
                                  ck_megakernel_resources *res)
{
    unsigned cap = e->cap;
    if (limit && (cap == 0u || cap > limit))
        cap = limit;
    ck_status s = build(dev, parts, n, options, cap, 0, out);
    if (s != CK_OK)
        return s;
    if (!read_report(dev, *out, res)) {
        res->known = 1;
        res->registers = e->registers;
        res->stack_bytes = e->stack_bytes;
        res->spill_bytes = e->spill_bytes;
    }
    res->register_cap = cap;
    res->full_occupancy_registers = full;
    const char *decision = strncmp(e->note, "auto: ", 6) == 0 ? e->note + 6 : e->note;
    /* The prefix, then as much of the decision as fits. */
    static const char prefix[] = "auto, from the cap cache: ";
    size_t at = sizeof prefix - 1u, len = strlen(decision);
    if (len > sizeof res->note - 1u - at)
        len = sizeof res->note - 1u - at;
    memcpy(res->note, prefix, at);
    memcpy(res->note + at, decision, len);
    res->note[at + len] = '\0';
    return CK_OK;
}

ck_status ck_register_cap_build(ck_device *dev, const char **parts, unsigned n, const char *options, unsigned cap,
                                size_t group_size, double deadline, const char *cache_dir, cl_program *out,
                                ck_megakernel_resources *res, char *warn, size_t warn_len)
{
    memset(res, 0, sizeof *res);
    *out = NULL;
    if (warn_len)
        warn[0] = '\0';
    if (n > CK_REGISTER_CAP_MAX_PARTS)
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "internal: the megakernel has %u source parts; "
                       "ck_register_cap_build takes at most %u",
                       n, (unsigned)CK_REGISTER_CAP_MAX_PARTS);
    if (!dev->nv_compiler_options) {
        /* Auto has nothing to decide here: only a number asked for is news. */
        if (cap && cap != CK_REGISTER_CAP_AUTO)
            snprintf(res->note, sizeof res->note, "the device's compiler takes no register cap: built without one");
        return ck_program_build_parts(dev, parts, n, options, out);
    }
    unsigned full = ck_nv_full_occupancy_registers(dev->nv_cc_major, dev->nv_cc_minor, dev->nv_regs_per_cu);
    res->full_occupancy_registers = full;
    /* The most with which a group launches at all: below the compiler's
     * own most (255) only for groups above 256 work-items. */
    unsigned fit = ck_nv_group_fit_registers(dev->nv_regs_per_cu, group_size);
    unsigned limit = fit && fit < MAX_CAP ? fit : 0u;
    unsigned first = cap == CK_REGISTER_CAP_AUTO ? 0u : cap, asked = first;
    int lowered = limit && (first == 0u || first > limit);
    if (lowered)
        first = limit;
    ck_cap_cache_key key;
    int cached = cap == CK_REGISTER_CAP_AUTO && cache_dir;
    if (cached) {
        ck_cap_cache_key_init(&key, dev->info.device_name, dev->info.driver_version, parts, n, options, group_size);
        ck_cap_cache_entry e;
        if (ck_cap_cache_load(cache_dir, &key, &e, warn, warn_len) == CK_CAP_CACHE_HIT)
            return build_from_cache(dev, parts, n, options, limit, full, &e, out, res);
    }
    ck_status s = build(dev, parts, n, options, first, 0, out);
    if (s != CK_OK)
        return s;
    int known = read_report(dev, *out, res);
    res->register_cap = first;
    if (cap != CK_REGISTER_CAP_AUTO) {
        /* The cache saves the user the compile: no rebuild for the report. */
        const char *why = "the driver's compute cache served this build, so its compiler gave no register report "
                          "(CUDA_CACHE_DISABLE=1 or CK_REGISTER_CAP=auto gives one)";
        if (lowered)
            snprintf(res->note, sizeof res->note,
                     "capped at %u registers%s: a group of %zu work-items may use %u "
                     "(the group's cap)%s",
                     first, asked ? ", not as asked" : "", group_size, dev->nv_regs_per_cu,
                     known ? "" : "; the driver's cache served the build: no register report");
        else if (first)
            snprintf(res->note, sizeof res->note, "capped at %u registers as asked%s%s", first, known ? "" : "; ",
                     known ? "" : why);
        else if (!known)
            snprintf(res->note, sizeof res->note, "%s", why);
        return CK_OK;
    }
    int decided = 0;
    s = auto_decide(dev, parts, n, options, first, lowered, deadline, out, res, &decided);
    if (s == CK_OK && decided && cached) {
        ck_cap_cache_entry e = {.cap = res->register_cap,
                                .registers = res->registers,
                                .stack_bytes = res->stack_bytes,
                                .spill_bytes = res->spill_bytes,
                                .full_occupancy_registers = res->full_occupancy_registers};
        snprintf(e.note, sizeof e.note, "%s", res->note);
        char why[1024];
        /* One warning at most: an ignored entry's, else a failed write's. */
        if (ck_cap_cache_store(cache_dir, &key, &e, why, sizeof why) != 0 && warn_len && !warn[0])
            snprintf(warn, warn_len, "%s", why);
    }
    return s;
}
