/* The foundation probe kernels (megakernel/ck_probe_kernels.cl), built once
 * per device, and the message types they understand. */
#ifndef CK_RUNTIME_PROBES_H
#define CK_RUNTIME_PROBES_H

#include "device_internal.h"

#define CK_MSG_QUIT 1u
#define CK_MSG_ECHO 2u

/* Builds (once) and returns the probe program. Errors: as ck_program_build. */
ck_status ck_probe_program(ck_device *dev, cl_program *out);

#endif
