/* cl_harness.h: TEST HARNESS ONLY. Host side of the PoCL tests of the stitcher: builds
 * test_prelude.cl + generated source + test_postlude.cl into one program, packs launch
 * arguments from the stitcher's metadata, and runs one work-group of ck_test_main with a
 * configuration (kernel, resume point, transmit snapshot, kill settings, logical ids). */
#ifndef CL_HARNESS_H
#define CL_HARNESS_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#include "stitcher.h"

#define CKT_TX_MAX 256u
#define CKT_MAX_VISITS 24u
#define CKT_LOG_MAX 1024u
#define CKT_DATA 4096u /* arena bytes snapshotted at fork points */
#define CKT_ARENA 32768u
#define CKT_MAX_WORDS 64u

typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  cl_kernel kernels[16]; /* ck_test_main_<k>, created on first use */
  cl_mem cfg, tx, arena, args, snap, log;
} clh;

typedef struct {
  uint32_t kernel, resume, snap_point, kill_point, kill_visit, group_id, num_groups;
  const unsigned char *tx_in; /* CKT_TX_MAX bytes or NULL */
  size_t local_size;
} clh_run_cfg;

/* Creates context, queue and buffers on the first OpenCL device; 0 on success, -1 if no
 * device (the caller skips). */
int clh_init(clh *h);
/* Builds prelude + source + postlude with options; on failure returns -1 and the build
 * log in log. PoCL compiles a wrapper kernel for the work-group size on its first run. */
int clh_build(clh *h, const char *source, const char *options, char *log, size_t log_len);
/* Runs one work-group. arena_in: CKT_ARENA bytes written first; arena_out: CKT_ARENA bytes
 * read back; snap_out (optional): CKT_MAX_VISITS * (CKT_TX_MAX + CKT_DATA) bytes; log_out
 * (optional): 1 + CKT_LOG_MAX words. Returns 0 or a negative OpenCL error. */
int clh_run(clh *h, const clh_run_cfg *cfg, const uint64_t *args, size_t n_words,
            const unsigned char *arena_in, unsigned char *arena_out, unsigned char *snap_out,
            uint32_t *log_out);
void clh_release_program(clh *h);
void clh_free(clh *h);

/* Launch packet helpers: look the parameter up by name, check its kind, and store. */
void clh_set_ptr(const ck_stitch_kernel *k, uint64_t *w, const char *name, uint64_t off);
void clh_set_null(const ck_stitch_kernel *k, uint64_t *w, const char *name);
void clh_set_local(const ck_stitch_kernel *k, uint64_t *w, const char *name, uint64_t bytes);
void clh_set_scalar(const ck_stitch_kernel *k, uint64_t *w, const char *name, const void *v,
                    size_t size);

#endif
