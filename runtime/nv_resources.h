/* What NVIDIA's OpenCL compiler says of a kernel's resources, the register
 * count that lets an NVIDIA compute unit hold as many work-items as it can,
 * and the most with which one group fits at all. Pure functions over text
 * and numbers: no OpenCL calls, so the unit tests check them on any
 * machine. */
#ifndef CK_RUNTIME_NV_RESOURCES_H
#define CK_RUNTIME_NV_RESOURCES_H

#include <stddef.h>

/* One entry function's lines in a build log made with -cl-nv-verbose
 * (the cl_nv_compiler_options extension), as ptxas prints them:
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
 *   ptxas info    : Function properties for NAME
 *   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 40 registers, 400 bytes cmem[0]
 * Figures are per work-item (thread). */
typedef struct {
    unsigned registers;
    unsigned stack_bytes;
    unsigned spill_store_bytes;
    unsigned spill_load_bytes;
} ck_nv_resources;

/* Finds entry function `entry` in `log` and reads its figures into *out.
 * Returns 1 when its "Used N registers" line was found (the stack and spill
 * figures are 0 where their line is missing), 0 otherwise (no such entry,
 * a log without ptxas lines, NULL arguments): *out is then zeroed. The
 * section of an entry ends at the next "Compiling entry function". */
int ck_nv_parse_resources(const char *log, const char *entry, ck_nv_resources *out);

/* The most registers per work-item with which a compute unit of an NVIDIA
 * GPU of compute capability major.minor, with `regs_per_cu` registers
 * (CL_DEVICE_REGISTERS_PER_BLOCK_NV), holds its most resident work-items
 * (2048 on 7.0, 8.0 and 9.0; 1024 on 7.5; 1536 on 8.6, 8.9 and 12.x),
 * rounded down to the allocation step of 8. 0 when the capability or
 * register count is unknown (0). */
unsigned ck_nv_full_occupancy_registers(unsigned major, unsigned minor, unsigned regs_per_cu);

/* The most registers per work-item with which one group of `group_size`
 * work-items fits in `regs_per_block` registers (CL_DEVICE_REGISTERS_PER_BLOCK_NV):
 * the registers a group may use over its warps of 32 (rounded up), down to
 * the allocation step of 8, at most 255 (the compiler's most). A megakernel
 * above it cannot launch at all (CL_OUT_OF_RESOURCES): on an H200, 65536
 * registers give 64 at 1024 work-items and 128 at 512. 0 when either figure
 * is unknown (0). Pure. */
unsigned ck_nv_group_fit_registers(unsigned regs_per_block, size_t group_size);

#endif
