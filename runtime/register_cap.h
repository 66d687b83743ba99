/* The megakernel's register cap: reading ck_context_options.register_cap
 * (and CK_REGISTER_CAP), and building the megakernel's program under the
 * cap it asks for, with the resources the compiler reports. */
#ifndef CK_RUNTIME_REGISTER_CAP_H
#define CK_RUNTIME_REGISTER_CAP_H

#include "device_internal.h"

/* The cap to build with: `option` (ck_context_options.register_cap) unless
 * it is 0, then the environment variable CK_REGISTER_CAP ("auto", "none"
 * or "0", or a number). *out: 0, CK_REGISTER_CAP_AUTO or 16..255.
 * Errors: CK_ERR_INVALID_ARGUMENT (a value outside those; the message
 * names the option or the variable). */
ck_status ck_register_cap_resolve(unsigned option, unsigned *out);

/* Compiles the megakernel's source parts with `options` (as
 * ck_program_build_parts) under register cap `cap` (as resolved above) and
 * fills *res (zeroed first; .note says what was done about the cap and
 * why). Where the device's compiler reports resources (NVIDIA), the build
 * asks for the report; with CK_REGISTER_CAP_AUTO and more registers than
 * ck_nv_full_occupancy_registers, a second build with that cap replaces
 * the first only when it reports no spill; a second build that fails or
 * is not reported leaves the first. The second build is skipped once
 * ck_now_s() passes `deadline`.
 * Errors: those of ck_program_build_parts for the first build. */
ck_status ck_register_cap_build(ck_device *dev, const char **parts, unsigned n, const char *options, unsigned cap,
                                double deadline, cl_program *out, ck_megakernel_resources *res);

#endif
