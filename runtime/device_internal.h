/* Internal view of an open device, shared by the runtime modules. */
#ifndef CK_RUNTIME_DEVICE_INTERNAL_H
#define CK_RUNTIME_DEVICE_INTERNAL_H

#include "ck.h"
#include <CL/cl.h>

/* cl_nv_create_buffer: host-resident pinned memory visible to running kernels. */
#define CK_MEM_LOCATION_HOST_NV (1u << 0)
#define CK_MEM_PINNED_NV (1u << 1)
typedef cl_mem (*ck_create_buffer_nv_fn)(cl_context, cl_mem_flags, cl_bitfield /* cl_mem_flags_NV */, size_t, void *,
                                         cl_int *);

struct ck_device {
    uint32_t magic; /* CK_MAGIC_DEVICE (see handle.h) */
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    ck_create_buffer_nv_fn create_buffer_nv; /* NULL unless the extension is there */
    ck_device_info info;
    cl_program probe_program; /* foundation probe kernels, built on first use */
    /* NVIDIA's compiler (cl_nv_compiler_options, cl_nv_device_attribute_query):
     * the build log can report registers (-cl-nv-verbose) and a build can cap
     * them (-cl-nv-maxrregcount). Zero where the device has no such thing. */
    int nv_compiler_options;
    unsigned nv_cc_major, nv_cc_minor, nv_regs_per_cu;
    /* A command on `queue` did not run within its deadline (the device is
     * busy with another kernel that holds it): nothing waits on the queue
     * again, and what its commands use stays allocated (atomic). */
    int stuck;
};

/* Sets path_cl20_ok/path_cl12_ok and the *_missing texts from the capability
 * fields of info. Cannot fail. */
void ck_device_evaluate_paths(ck_device_info *info);
/* Sets info->path and transport for `want` (CK_PATH_AUTO: cl20, else cl12).
 * Errors: CK_ERR_NO_PATH, naming what the device lacks. */
ck_status ck_device_choose_path(ck_device_info *info, ck_path want);

/* Counts this process's running megakernels (running = 1 when one starts,
 * 0 when it has ended). NVIDIA's clReleaseContext waits until the whole
 * device is idle, which a running megakernel never is (measured on the H100:
 * destroying a second context hung for good). So ck_device_close parks the
 * OpenCL context while any megakernel runs, and the last megakernel to end
 * releases the parked ones. Cannot fail. */
void ck_device_note_megakernel(int running);
/* CK_OK if dev is a live device handle (registry, then magic word); otherwise
 * CK_ERR_INVALID_ARGUMENT naming fn. Never reads freed memory. */
ck_status ck_device_check(const ck_device *dev, const char *fn);

#endif
