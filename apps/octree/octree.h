/* apps/octree/octree.h: octree partitioning of clustered particles (the
 * paper's Cederman-Tsigas app): the particle generator, the CPU run of the
 * same algorithm, the independent checker, and octree.cl's memory layout
 * (keep the APP_OT_* constants equal to the OT_* ones there, and the queue
 * words APP_OT_QSTRIDE, _LO, _HI to common/ws_pool.cl's WS_POOL_*).
 * Errors: int functions return 0 on success and -1 (out of memory) unless
 * stated otherwise. */
#ifndef APPS_OCTREE_H
#define APPS_OCTREE_H

#include <stddef.h>
#include <stdint.h>

#define APP_OCTREE_FILE "octree/octree.cl"
#define APP_OCTREE_KERNEL "octree_coop"

#define APP_OT_QSTRIDE 16
#define APP_OT_LO 1
#define APP_OT_HI 2
#define APP_OT_TASK 8
#define APP_OT_PENDING 0
#define APP_OT_DONE 1
#define APP_OT_LEAVES 2
#define APP_OT_OVERFLOW 3
#define APP_OT_STEALS 4
#define APP_OT_LEAF_CAP 7
#define APP_OT_COUNTERS 8
/* Octants at this depth are leaves whatever their count (identical
 * particles would split forever; 2^-20 is far below the clusters' spread). */
#define APP_OCTREE_DEPTH_LIMIT 20u
/* Largest particle count (buffers of n float4 and n leaf records). */
#define APP_OCTREE_MAX_PARTICLES (1u << 26)

/* A leaf: particles start..start+count-1 of the output, in the cube of side
 * 2^-depth at integer coordinates (ix, iy, iz). Same words as on the device. */
typedef struct {
    uint32_t start, count, depth, ix, iy, iz, pad0, pad1;
} app_ot_leaf;

typedef struct {
    uint32_t leaves;    /* leaf records                                     */
    uint32_t max_depth; /* deepest leaf                                     */
    uint32_t tasks;     /* split tasks                                      */
    uint64_t leaf_hash; /* order-independent hash of the leaves' cubes/sizes */
} app_ot_summary;

/* n particles (x, y, z in [0,1), w = the id as float bits) in `clusters`
 * gaussian-like clusters (0: uniform), from seed. p has 4 * n floats. */
void app_octree_generate(float *p, uint32_t n, uint32_t clusters, uint64_t seed);
/* The same partitioning on the CPU, sequentially: fills leaves (room for n)
 * and the output order in out (4 * n floats); *nleaves, and *ntasks the
 * tasks split. */
int app_octree_cpu(const float *p, uint32_t n, uint32_t max_children, float *out, app_ot_leaf *leaves,
                   uint32_t *nleaves, uint32_t *ntasks);
/* Summary of a leaf list. */
app_ot_summary app_octree_summarize(const app_ot_leaf *leaves, uint32_t nleaves);
/* Independent check of a partition of the input `in` (n particles): every
 * particle exactly once in exactly one leaf, unchanged, inside its leaf's
 * cube; counts summing to n; no leaf above max_children but at the depth
 * limit. 0 valid, 1 invalid (msg says the first problem); -1 out of memory. */
int app_octree_check(const float *in, uint32_t n, uint32_t max_children, const float *out, const app_ot_leaf *leaves,
                     uint32_t nleaves, char *msg, size_t msg_len);
/* Pool slots per queue for nq queues (see octree.cl). */
uint32_t app_octree_capacity(uint32_t n, uint32_t max_children, uint32_t nq);

#endif
