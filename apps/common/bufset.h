/* apps/common/bufset.h: the buffers and scalar arguments of one persistent
 * work-stealing kernel (ws, octree, game), run either inside the cooperative
 * runtime (ck_buffer arena) or as plain OpenCL (cl_mem), so each app states
 * its kernel's inputs once. Kernel arguments are the buffers in order, then
 * the uint scalars in order.
 * Errors: int functions return 0 on success and -1 with a one-line message
 * in err (naming the app's `what` and the failing call). */
#ifndef APPS_BUFSET_H
#define APPS_BUFSET_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"

#define APP_BUFSET_MAX 8

typedef struct {
    const char *what;                 /* app name for messages                      */
    size_t nbuf;                      /* buffers                                    */
    size_t bytes[APP_BUFSET_MAX];     /* each buffer's size for this run (> 0)      */
    const void *init[APP_BUFSET_MAX]; /* initial contents (bytes[i]), NULL: zeros   */
    size_t nuint;                     /* uint scalar arguments after the buffers    */
    uint32_t uints[APP_BUFSET_MAX];
} app_bufset;

/* ---- cooperative: buffers allocated once at their largest sizes */
typedef struct {
    ck_context *ctx;
    size_t nbuf;
    ck_buffer buf[APP_BUFSET_MAX];
    size_t cap[APP_BUFSET_MAX];
} app_bufset_coop;

/* Allocates nbuf buffers of max_bytes[i] in ctx's arena (CK_ERR_NO_MEMORY
 * and the like: -1). */
int app_bufset_coop_alloc(app_bufset_coop *b, ck_context *ctx, const char *what, size_t nbuf,
                          const size_t *max_bytes, char *err, size_t err_len);
/* Writes s's initial contents (sizes must fit the allocation, else -1) and
 * launches `kernel` with N = groups. */
int app_bufset_coop_start(app_bufset_coop *b, const app_bufset *s, const char *kernel, unsigned groups,
                          ck_launch **out, char *err, size_t err_len);
/* Reads bytes of buffer i after the launch finished. */
int app_bufset_coop_read(app_bufset_coop *b, size_t i, void *dst, size_t bytes, char *err, size_t err_len);
void app_bufset_coop_free(app_bufset_coop *b);

/* ---- plain: one occupancy-bound persistent launch of `kernel` from kernel
 * file `file` built with l->build_options, l->groups groups of l->wg items,
 * within l->timeout_s seconds (finite, > 0; past it -1 and c->stuck). The
 * buffers are fresh, uploaded before the timed launch. Afterwards buffer
 * i's first read_bytes[i] bytes (0: none) are copied to read_dst[i]. *t:
 * the launch's host and device times (app_cl_run_persistent). */
int app_bufset_plain_run(app_cl *c, const char *file, const char *kernel, const app_bufset *s,
                         const app_cl_launch *l, void *const *read_dst, const size_t *read_bytes, app_cl_times *t,
                         char *err, size_t err_len);

#endif
