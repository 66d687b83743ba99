/* Lazily built program of the probe kernels. */
#include "probes.h"
#include "program.h"

ck_status ck_probe_program(ck_device *dev, cl_program *out)
{
    if (!dev->probe_program) {
        static const char *const extra[] = {"ck_probe_kernels.cl", NULL};
        ck_status s = ck_program_build(dev, extra, NULL, NULL, NULL, &dev->probe_program);
        if (s != CK_OK)
            return s;
    }
    *out = dev->probe_program;
    return CK_OK;
}
