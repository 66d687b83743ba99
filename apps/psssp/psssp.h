/* apps/psssp/psssp.h: Pannotia SSSP (iterated min-plus SpMV): its kernel
 * files (the host side is the graph skeleton's, common/graph_app.h, driven
 * by psssp_app.c). The CPU reference and check are Dijkstra's
 * (apps/common/sssp_cpu.h).
 *
 * Distances are int32, APP_SSSP_INF (INT32_MAX) for unreached nodes. */
#ifndef APPS_PSSSP_H
#define APPS_PSSSP_H

#define APP_PSSSP_COOP_FILE "psssp/psssp_coop.cl"
#define APP_PSSSP_COOP_KERNEL "psssp_coop"
#define APP_PSSSP_PLAIN_FILE "psssp/psssp_plain.cl"

#endif
