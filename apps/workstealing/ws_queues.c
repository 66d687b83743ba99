/* apps/workstealing/ws_queues.c: the host's view of ws.cl's queue and counter
 * layout: the initial contents (roots spread round-robin over the queues)
 * and decoding the counters after a run. */
#include "ws_queues.h"

#include <stdlib.h>
#include <string.h>

int app_ws_initial_state(const app_ws_params *p, uint32_t nq, uint32_t cap, uint32_t **qmeta, uint32_t **qtasks)
{
    *qmeta = calloc((size_t)nq * APP_WS_QSTRIDE, sizeof **qmeta);
    *qtasks = calloc((size_t)nq * cap * 2, sizeof **qtasks);
    if (!*qmeta || !*qtasks) {
        free(*qmeta);
        free(*qtasks);
        *qmeta = *qtasks = NULL;
        return -1;
    }
    for (uint32_t i = 0; i < p->roots; ++i) {
        uint32_t q = i % nq;
        uint32_t *m = *qmeta + (size_t)q * APP_WS_QSTRIDE;
        uint32_t slot = m[APP_WS_HI]++;
        uint32_t *t = *qtasks + 2 * ((size_t)q * cap + slot % cap);
        t[0] = app_ws_root_seed(p->seed, i);
        t[1] = 0;
    }
    return 0;
}

void app_ws_initial_counters(const app_ws_params *p, uint32_t ctr[APP_WS_COUNTERS])
{
    memset(ctr, 0, APP_WS_COUNTERS * sizeof *ctr);
    ctr[APP_WS_PENDING] = p->roots;
}

void app_ws_decode(const uint32_t ctr[APP_WS_COUNTERS], const uint32_t *qmeta, uint32_t nq, app_ws_result *out)
{
    memset(out, 0, sizeof *out);
    out->tasks = ctr[APP_WS_DONE];
    out->checksum = ctr[APP_WS_SUM];
    out->overflow = ctr[APP_WS_OVERFLOW];
    out->pending = ctr[APP_WS_PENDING];
    out->steals = ctr[APP_WS_STEALS];
    /* Tasks left in a queue would also be pending work. */
    for (uint32_t q = 0; qmeta && q < nq; ++q)
        out->pending +=
            qmeta[(size_t)q * APP_WS_QSTRIDE + APP_WS_HI] - qmeta[(size_t)q * APP_WS_QSTRIDE + APP_WS_LO];
}
