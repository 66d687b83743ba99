/* apps/workstealing/ws_queues.h: host mirror of ws.cl's memory layout (keep
 * the counters equal to the WS_* ones there, and the queue words
 * APP_WS_QSTRIDE, _LOCK, _LO, _HI to common/ws_pool.cl's WS_POOL_*). */
#ifndef APPS_WS_QUEUES_H
#define APPS_WS_QUEUES_H

#include "ws.h"

#define APP_WS_QSTRIDE 16
#define APP_WS_LOCK 0
#define APP_WS_LO 1
#define APP_WS_HI 2
#define APP_WS_PENDING 0
#define APP_WS_DONE 1
#define APP_WS_SUM 2
#define APP_WS_OVERFLOW 3
#define APP_WS_STEALS 4
#define APP_WS_COUNTERS 8

/* Queue metadata (nq * APP_WS_QSTRIDE words) and task slots (nq * cap * 2
 * words) holding the roots; malloc'd. -1 when out of memory. */
int app_ws_initial_state(const app_ws_params *p, uint32_t nq, uint32_t cap, uint32_t **qmeta, uint32_t **qtasks);
void app_ws_initial_counters(const app_ws_params *p, uint32_t ctr[APP_WS_COUNTERS]);
/* Result from the counters (and, if qmeta is given, tasks left in queues). */
void app_ws_decode(const uint32_t ctr[APP_WS_COUNTERS], const uint32_t *qmeta, uint32_t nq, app_ws_result *out);

#endif
