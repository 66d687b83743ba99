/* apps/psssp/psssp.h: Pannotia SSSP (iterated min-plus SpMV): the plain
 * OpenCL baselines and the cooperative launch through the runtime. The CPU
 * reference and check are Dijkstra's (apps/common/sssp_cpu.h).
 *
 * Distances are int32, APP_SSSP_INF (INT32_MAX) for unreached nodes.
 * Errors: int functions return 0 on success and -1 with a one-line message
 * in err. */
#ifndef APPS_PSSSP_H
#define APPS_PSSSP_H

#include <stddef.h>
#include <stdint.h>

#include "ck.h"
#include "cl_plain.h"
#include "graph.h"

#define APP_PSSSP_COOP_FILE "psssp/psssp_coop.cl"
#define APP_PSSSP_COOP_KERNEL "psssp_coop"
#define APP_PSSSP_PLAIN_FILE "psssp/psssp_plain.cl"

typedef struct {
    int32_t rounds;  /* multi-launch: rounds run (3 launches each); persistent: -1 */
    double ms;       /* kernel work, uploads excluded                              */
} app_psssp_plain_result;

/* Runs the baseline on c from source over g (weighted): multi-launch
 * (persistent == 0: three launches per round, psssp_plain.cl) or the
 * occupancy-bound persistent psssp_coop.cl on `groups` groups (no more than
 * the occupancy), work-groups of wg items; reads the distances into
 * dist_out. The kernel work must end within timeout_s seconds (finite,
 * > 0), else -1 and c->stuck may be set. */
int app_psssp_plain_run(app_cl *c, const app_csr *g, int32_t source, int persistent, size_t wg, unsigned groups,
                        double timeout_s, int32_t *dist_out, app_psssp_plain_result *res, char *err, size_t err_len);

/* The cooperative form's buffers in a built context. */
typedef struct app_psssp_coop app_psssp_coop;
/* Allocates the buffers in ctx's arena and uploads g (weighted). */
int app_psssp_coop_setup(ck_context *ctx, const app_csr *g, app_psssp_coop **out, char *err, size_t err_len);
/* Resets the distances for source and launches psssp_coop asking for at
 * most `groups` work-groups. */
int app_psssp_coop_start(app_psssp_coop *p, int32_t source, unsigned groups, ck_launch **out, char *err,
                         size_t err_len);
/* Reads the distances of the last finished launch. */
int app_psssp_coop_read(app_psssp_coop *p, int32_t *dist, char *err, size_t err_len);
void app_psssp_coop_free(app_psssp_coop *p);

#endif
