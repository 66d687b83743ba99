/* The megakernel's register cap (see register_cap.h). Policy: no cap unless
 * asked; "auto" caps at the count that lets a compute unit hold its most
 * work-items, and only when that costs no spill (a spill puts registers in
 * device memory on every path that touches them: on the H100 a cap of 32
 * cost BFS about a third of its speed, docs/RESULTS.md). Mechanism: NVIDIA's
 * -cl-nv-maxrregcount and the -cl-nv-verbose report (nv_resources.h). */
#include "register_cap.h"
#include "clock.h"
#include "error.h"
#include "nv_resources.h"
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MIN_CAP 16u
#define MAX_CAP 255u

ck_status ck_register_cap_resolve(unsigned option, unsigned *out)
{
    *out = 0;
    if (option) {
        if (option != CK_REGISTER_CAP_AUTO && (option < MIN_CAP || option > MAX_CAP))
            return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_context_options.register_cap %u is not 0, "
                           "CK_REGISTER_CAP_AUTO or %u..%u registers", option, MIN_CAP, MAX_CAP);
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

/* Builds with `options` plus the report and, if cap is nonzero, the cap. */
static ck_status build(ck_device *dev, const char **parts, unsigned n, const char *options, unsigned cap,
                       cl_program *out)
{
    char opts[1024];
    int len = snprintf(opts, sizeof opts, "%s -cl-nv-verbose", options ? options : "");
    if (cap && len > 0 && (size_t)len < sizeof opts)
        snprintf(opts + len, sizeof opts - (size_t)len, " -cl-nv-maxrregcount=%u", cap);
    return ck_program_build_parts(dev, parts, n, opts, out);
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

ck_status ck_register_cap_build(ck_device *dev, const char **parts, unsigned n, const char *options, unsigned cap,
                                double deadline, cl_program *out, ck_megakernel_resources *res)
{
    memset(res, 0, sizeof *res);
    *out = NULL;
    if (!dev->nv_compiler_options) {
        if (cap)
            snprintf(res->note, sizeof res->note, "the device's compiler takes no register cap: built without one");
        return ck_program_build_parts(dev, parts, n, options, out);
    }
    unsigned full = ck_nv_full_occupancy_registers(dev->nv_cc_major, dev->nv_cc_minor, dev->nv_regs_per_cu);
    res->full_occupancy_registers = full;
    unsigned first = cap == CK_REGISTER_CAP_AUTO ? 0u : cap;
    ck_status s = build(dev, parts, n, options, first, out);
    if (s != CK_OK)
        return s;
    int known = read_report(dev, *out, res);
    res->register_cap = first;
    if (first) {
        snprintf(res->note, sizeof res->note, "capped at %u registers as asked", first);
        return CK_OK;
    }
    if (cap != CK_REGISTER_CAP_AUTO)
        return CK_OK;
    if (!known || !full) {
        snprintf(res->note, sizeof res->note, "auto: the compiler's report %s; built without a cap",
                 !known ? "did not give the megakernel's registers" : "came without the device's register budget");
        return CK_OK;
    }
    if (res->registers <= full) {
        snprintf(res->note, sizeof res->note, "auto: %u registers already let a compute unit hold its most "
                 "work-items (%u or fewer); no cap", res->registers, full);
        return CK_OK;
    }
    if (ck_now_s() > deadline) {
        snprintf(res->note, sizeof res->note, "auto: the build's deadline passed before the capped build; "
                 "built without a cap (%u registers)", res->registers);
        return CK_OK;
    }
    cl_program capped = NULL;
    ck_megakernel_resources c;
    memset(&c, 0, sizeof c);
    if (build(dev, parts, n, options, full, &capped) != CK_OK) {
        snprintf(res->note, sizeof res->note, "auto: the build capped at %u registers failed; kept %u registers "
                 "without a cap", full, res->registers);
        return CK_OK;
    }
    if (!read_report(dev, capped, &c) || c.spill_bytes) {
        if (c.known)
            snprintf(res->note, sizeof res->note, "auto: capped at %u registers the megakernel spills %u bytes per "
                     "work-item; kept %u registers without a cap", full, c.spill_bytes, res->registers);
        else
            snprintf(res->note, sizeof res->note, "auto: the capped build was not reported; kept %u registers "
                     "without a cap", res->registers);
        clReleaseProgram(capped);
        return CK_OK;
    }
    unsigned before = res->registers;
    clReleaseProgram(*out);
    *out = capped;
    c.register_cap = full;
    c.full_occupancy_registers = full;
    snprintf(c.note, sizeof c.note, "auto: capped at %u registers (%u without a cap), no spill", full, before);
    *res = c;
    return CK_OK;
}
