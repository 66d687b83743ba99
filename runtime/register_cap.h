/* The megakernel's register cap: reading ck_context_options.register_cap
 * (and CK_REGISTER_CAP), and building the megakernel's program under the
 * cap it asks for, with the resources the compiler reports. */
#ifndef CK_RUNTIME_REGISTER_CAP_H
#define CK_RUNTIME_REGISTER_CAP_H

#include "device_internal.h"

#include <stddef.h>
#include <stdint.h>

/* The cap to build with: `option` (ck_context_options.register_cap) unless
 * it is 0, then the environment variable CK_REGISTER_CAP ("auto", "none"
 * or "0", or a number), and 0 when that is unset or empty;
 * CK_REGISTER_CAP_NONE gives 0 whatever the environment says.
 * *out: 0 (no cap), CK_REGISTER_CAP_AUTO or 16..255.
 * Errors: CK_ERR_INVALID_ARGUMENT (a value outside those; the message
 * names the option or the variable). */
ck_status ck_register_cap_resolve(unsigned option, unsigned *out);

/* The most source parts ck_register_cap_build takes (its nonce makes one
 * more; the megakernel has a dozen). */
#define CK_REGISTER_CAP_MAX_PARTS 63u

/* Compiles the megakernel's source parts with `options` (as
 * ck_program_build_parts) under register cap `cap` (as resolved above) and
 * fills *res (zeroed first; .note says what was done about the cap and
 * why; "" for auto on a compiler that takes no cap, where auto has nothing
 * to decide). Where the device's compiler reports resources (NVIDIA), the build
 * asks for the report. NVIDIA's driver serves a program it has compiled
 * before (same source and options) from its compute cache without running
 * the compiler, and such a build has no report. So, with
 * CK_REGISTER_CAP_AUTO, a first build without a report is built once more
 * with a nonce (an extra source part: an empty kernel of a name never used,
 * ck_register_nonce_source), which the cache cannot serve, and that build
 * replaces the first; then, with more registers than
 * ck_nv_full_occupancy_registers, builds capped at that count and at each
 * 8 registers more below the uncapped count, each built as it is and, if the driver's cache served it (no
 * report), once more with a nonce, in that
 * order: the first that reports no spill replaces it; a rebuild or capped
 * build that fails or is not reported ends the tries and leaves what was
 * there. The extra builds are skipped once ck_now_s() passes `deadline`
 * (the note says so).
 * With an explicit cap or none, the build is done once, cache or not (the
 * cache saves the compile), and a missing report is said in the note.
 * With CK_REGISTER_CAP_AUTO and a `cache_dir` (cap_cache.h; NULL: no
 * cache), the decision is looked up first: an entry for this device,
 * driver, source, options and group size is built once at its cap (the
 * driver's cache can serve that build; the note says the decision came
 * from the cache), and a decision the tries reach is written there. An
 * entry that cannot be used, or a decision that cannot be written, puts
 * one line in warn (warn_len bytes; "" when there is nothing to say) and
 * the build goes on as without a cache.
 * Whatever the cap, where the device gives its registers per group, no
 * build has more than ck_nv_group_fit_registers(that, group_size): above
 * it a group of `group_size` work-items cannot launch (CL_OUT_OF_RESOURCES),
 * so no cap or a higher one is lowered to it (the note says so), and
 * auto's first build is capped there.
 * Errors: those of ck_program_build_parts for the first build;
 * CK_ERR_INVALID_ARGUMENT (internal) for more than
 * CK_REGISTER_CAP_MAX_PARTS parts, on any device. */
ck_status ck_register_cap_build(ck_device *dev, const char **parts, unsigned n, const char *options, unsigned cap,
                                size_t group_size, double deadline, const char *cache_dir, cl_program *out,
                                ck_megakernel_resources *res, char *warn, size_t warn_len);

/* The caps CK_REGISTER_CAP_AUTO tries, in order, for a megakernel that
 * the compiler gave `registers` registers without a cap, on a device where
 * `full` registers let a compute unit hold its most work-items: `full`,
 * then each 8 more (the register file's granule per work-item on NVIDIA),
 * every one below `registers`. Writes at most n of them to caps (which
 * may be NULL when n is 0) and returns how many there are in all (0 when
 * full is 0, unknown, or registers <= full: no cap can add groups). Pure. */
unsigned ck_register_cap_tries(unsigned full, unsigned registers, unsigned *caps, unsigned n);

/* Writes the nonce part of a build that must not come from the driver's
 * cache into buf (n bytes):
 *   "\n__kernel void ck_report_nonce_<16 hex digits of seed>(void) {}\n"
 * Returns its length, or 0 (buf then "" if n > 0) when n is too small (it
 * needs 58 bytes with the terminating zero). Pure: ck_register_cap_build
 * gives each build a new seed (the process id, a process-wide count and
 * the monotonic clock, mixed). */
size_t ck_register_nonce_source(char *buf, size_t n, uint64_t seed);

#endif
