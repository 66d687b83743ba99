/* apps/worklist/wl_host.c: what both forms of the worklist skeleton share on
 * the host: worklist capacity, local scratch size and initial values (see
 * wl.h). */
#include "wl.h"
#include "sssp_cpu.h"

#include <stdio.h>

static int32_t test_capacity;

void app_wl_set_test_capacity(int32_t cap) { test_capacity = cap > 0 ? cap : 0; }

int64_t app_wl_capacity(const app_csr *g, app_wl_mode mode, char *err, size_t err_len)
{
    int64_t cap = mode == APP_WL_BFS ? (int64_t)g->n : (int64_t)g->m + g->n;
    if (cap < 1)
        cap = 1;
    if (cap > APP_WL_MAX_CAPACITY) {
        snprintf(err, err_len,
                 "worklist of %lld entries (%d nodes, %d edges) is above 2^30 entries (int32 "
                 "indices in the kernel)",
                 (long long)cap, g->n, g->m);
        return -1;
    }
    return test_capacity && cap > test_capacity ? test_capacity : cap;
}

size_t app_wl_local_ints(size_t wg) { return 4 * wg + 4; }

void app_wl_init_values(app_wl_mode mode, int32_t n, int32_t source, int32_t *values)
{
    int32_t none = mode == APP_WL_BFS ? -1 : APP_SSSP_INF;
    for (int32_t v = 0; v < n; ++v)
        values[v] = none;
    if (source >= 0 && source < n)
        values[source] = 0;
}
