/* cl_harness.c: TEST HARNESS ONLY. OpenCL host code for the stitcher's PoCL tests (see
 * cl_harness.h): program build around the generated source, launch-packet packing from
 * the stitcher's metadata, and one-work-group runs of the harness kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_harness.h"
#include "st_test_util.h"

int clh_init(clh *h) {
  memset(h, 0, sizeof *h);
  cl_uint n = 0;
  if (clGetPlatformIDs(1, &h->platform, &n) != CL_SUCCESS || n == 0) return -1;
  if (clGetDeviceIDs(h->platform, CL_DEVICE_TYPE_ALL, 1, &h->device, &n) != CL_SUCCESS || !n)
    return -1;
  cl_int e;
  h->context = clCreateContext(NULL, 1, &h->device, NULL, NULL, &e);
  if (e != CL_SUCCESS) return -1;
  h->queue = clCreateCommandQueueWithProperties(h->context, h->device, NULL, &e);
  if (e != CL_SUCCESS) return -1;
  size_t snap = (size_t)CKT_MAX_VISITS * (CKT_TX_MAX + CKT_DATA);
  h->cfg = clCreateBuffer(h->context, CL_MEM_READ_ONLY, 8 * sizeof(uint32_t), NULL, &e);
  h->tx = clCreateBuffer(h->context, CL_MEM_READ_ONLY, CKT_TX_MAX, NULL, &e);
  h->arena = clCreateBuffer(h->context, CL_MEM_READ_WRITE, CKT_ARENA, NULL, &e);
  h->args = clCreateBuffer(h->context, CL_MEM_READ_ONLY, CKT_MAX_WORDS * 8, NULL, &e);
  h->snap = clCreateBuffer(h->context, CL_MEM_READ_WRITE, snap, NULL, &e);
  h->log = clCreateBuffer(h->context, CL_MEM_READ_WRITE, (1 + CKT_LOG_MAX) * 4, NULL, &e);
  if (!h->cfg || !h->tx || !h->arena || !h->args || !h->snap || !h->log) return -1;
  return 0;
}

int clh_build(clh *h, const char *source, const char *options, char *log, size_t log_len) {
  clh_release_program(h);
  char *pre = st_read_test_file("test_prelude.cl");
  char *post = st_read_test_file("test_postlude.cl");
  if (!pre || !post) {
    snprintf(log, log_len, "cannot read test_prelude.cl / test_postlude.cl under %s",
             STITCHER_TEST_DIR);
    free(pre);
    free(post);
    return -1;
  }
  const char *parts[3] = {pre, source, post};
  cl_int e;
  h->program = clCreateProgramWithSource(h->context, 3, parts, NULL, &e);
  free(pre);
  free(post);
  if (e != CL_SUCCESS) return -1;
  e = clBuildProgram(h->program, 1, &h->device, options, NULL, NULL);
  if (e != CL_SUCCESS) {
    log[0] = 0;
    clGetProgramBuildInfo(h->program, h->device, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
    return -1;
  }
  return 0;
}

static cl_kernel wrapper(clh *h, uint32_t k) {
  if (k >= 16) return NULL;
  if (!h->kernels[k]) {
    char name[32];
    snprintf(name, sizeof name, "ck_test_main_%u", k);
    cl_int e;
    h->kernels[k] = clCreateKernel(h->program, name, &e);
    if (e != CL_SUCCESS) return NULL;
    cl_mem bufs[6] = {h->cfg, h->tx, h->arena, h->args, h->snap, h->log};
    for (cl_uint i = 0; i < 6; i++) clSetKernelArg(h->kernels[k], i, sizeof(cl_mem), &bufs[i]);
  }
  return h->kernels[k];
}

int clh_run(clh *h, const clh_run_cfg *c, const uint64_t *args, size_t n_words,
            const unsigned char *arena_in, unsigned char *arena_out, unsigned char *snap_out,
            uint32_t *log_out) {
  uint32_t cfg[8] = {c->kernel,     c->resume,   c->snap_point, c->kill_point,
                     c->kill_visit, c->group_id, c->num_groups, CKT_DATA};
  uint64_t words[CKT_MAX_WORDS] = {0};
  memcpy(words, args, n_words * 8);
  unsigned char tx[CKT_TX_MAX] = {0};
  if (c->tx_in) memcpy(tx, c->tx_in, CKT_TX_MAX);
  uint32_t zero = 0;
  cl_int e = 0;
  e |= clEnqueueWriteBuffer(h->queue, h->cfg, CL_FALSE, 0, sizeof cfg, cfg, 0, NULL, NULL);
  e |= clEnqueueWriteBuffer(h->queue, h->tx, CL_FALSE, 0, CKT_TX_MAX, tx, 0, NULL, NULL);
  e |= clEnqueueWriteBuffer(h->queue, h->arena, CL_FALSE, 0, CKT_ARENA, arena_in, 0, NULL, NULL);
  e |= clEnqueueWriteBuffer(h->queue, h->args, CL_FALSE, 0, sizeof words, words, 0, NULL, NULL);
  e |= clEnqueueWriteBuffer(h->queue, h->log, CL_FALSE, 0, 4, &zero, 0, NULL, NULL);
  if (e) return -1;
  cl_kernel kr = wrapper(h, c->kernel);
  if (!kr) return CL_INVALID_KERNEL_NAME;
  size_t g = c->local_size, l = c->local_size;
  e = clEnqueueNDRangeKernel(h->queue, kr, 1, NULL, &g, &l, 0, NULL, NULL);
  if (e != CL_SUCCESS) return e;
  e = clEnqueueReadBuffer(h->queue, h->arena, CL_TRUE, 0, CKT_ARENA, arena_out, 0, NULL, NULL);
  if (e == CL_SUCCESS && snap_out)
    e = clEnqueueReadBuffer(h->queue, h->snap, CL_TRUE, 0,
                            (size_t)CKT_MAX_VISITS * (CKT_TX_MAX + CKT_DATA), snap_out, 0, NULL,
                            NULL);
  if (e == CL_SUCCESS && log_out)
    e = clEnqueueReadBuffer(h->queue, h->log, CL_TRUE, 0, (1 + CKT_LOG_MAX) * 4, log_out, 0, NULL,
                            NULL);
  return e;
}

void clh_release_program(clh *h) {
  for (int k = 0; k < 16; k++) {
    if (h->kernels[k]) clReleaseKernel(h->kernels[k]);
    h->kernels[k] = NULL;
  }
  if (h->program) clReleaseProgram(h->program);
  h->program = NULL;
}

void clh_free(clh *h) {
  clh_release_program(h);
  cl_mem m[6] = {h->cfg, h->tx, h->arena, h->args, h->snap, h->log};
  for (int i = 0; i < 6; i++)
    if (m[i]) clReleaseMemObject(m[i]);
  if (h->queue) clReleaseCommandQueue(h->queue);
  if (h->context) clReleaseContext(h->context);
  memset(h, 0, sizeof *h);
}

static const ck_stitch_param *find(const ck_stitch_kernel *k, const char *name) {
  for (size_t i = 0; i < k->n_params; i++)
    if (!strcmp(k->params[i].name, name)) return &k->params[i];
  fail_msg("kernel %s has no parameter %s", k->name, name);
  return NULL;
}

void clh_set_ptr(const ck_stitch_kernel *k, uint64_t *w, const char *name, uint64_t off) {
  const ck_stitch_param *p = find(k, name);
  assert_true(p->kind == CK_PARAM_GLOBAL_PTR || p->kind == CK_PARAM_CONSTANT_PTR);
  w[p->word_offset] = off;
}

void clh_set_null(const ck_stitch_kernel *k, uint64_t *w, const char *name) {
  clh_set_ptr(k, w, name, ~(uint64_t)0);
}

void clh_set_local(const ck_stitch_kernel *k, uint64_t *w, const char *name, uint64_t bytes) {
  const ck_stitch_param *p = find(k, name);
  assert_int_equal(p->kind, CK_PARAM_LOCAL_PTR);
  w[p->word_offset] = bytes;
}

void clh_set_scalar(const ck_stitch_kernel *k, uint64_t *w, const char *name, const void *v,
                    size_t size) {
  const ck_stitch_param *p = find(k, name);
  assert_int_equal(p->kind, CK_PARAM_SCALAR);
  assert_int_equal(p->size, size);
  memcpy(w + p->word_offset, v, size);
}
