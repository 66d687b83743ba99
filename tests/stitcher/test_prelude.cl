/* test_prelude.cl: TEST HARNESS ONLY, not the real megakernel. A minimal stand-in for the
 * runtime's device prelude so that stitched code can be compiled and run on PoCL with ONE
 * work-group: ids come from the context struct, fork points record the transmit bytes and
 * a copy of the arena's data region into a snapshot buffer at every visit of the chosen
 * point, offer_kill / resizing barriers can be told to kill at a given visit, and global
 * barriers are work-group barriers. The wrapper kernel ck_test_main (test_postlude.cl)
 * calls ck_dispatch. */

#define CKT_TX_MAX 256u    /* bytes of transmit struct kept per visit */
#define CKT_MAX_VISITS 24u /* visits recorded per run */
#define CKT_LOG_MAX 1024u  /* fork-point calls logged per run */

typedef struct {
  uint group_id, num_groups;
  uint snap_point; /* fork point whose visits are snapshotted (0: none) */
  uint visits;     /* visits of snap_point so far */
  uint kill_point; /* 0: offer_kill kills; p: resizing barrier p kills */
  uint kill_visit; /* the kill happens at this call (1-based); 0: never */
  uint kills;      /* calls counted towards kill_visit */
  uint data_bytes; /* arena bytes [0, data_bytes) are snapshotted */
  global uchar *arena;
  global uchar *snap; /* per visit: CKT_TX_MAX transmit bytes, then data_bytes */
  global uint *log;   /* log[0]: number of fork-point calls; log[1..]: their points */
  uint m_known;       /* written by ck_dispatch as in the real prelude; unused here */
} ck_wg_t;
#define CK_M_LIVE 0xffffffffu

uint ck_get_group_id(ck_wg_t *ctx, uint dim) { return dim == 0 ? ctx->group_id : 0u; }
uint ck_get_num_groups(ck_wg_t *ctx, uint dim) { return dim == 0 ? ctx->num_groups : 1u; }
size_t ck_get_global_id(ck_wg_t *ctx, uint dim) {
  return (size_t)ck_get_group_id(ctx, dim) * get_local_size(dim) + get_local_id(dim);
}
size_t ck_get_global_size(ck_wg_t *ctx, uint dim) {
  return (size_t)ck_get_num_groups(ctx, dim) * get_local_size(dim);
}

int ck_offer_kill(ck_wg_t *ctx) {
  if (ctx->kill_point != 0u) return 0;
  ctx->kills++;
  return ctx->kills == ctx->kill_visit;
}

void ckt_record(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes);
void ckt_record(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    uint n = ctx->log[0];
    if (n < CKT_LOG_MAX) ctx->log[1 + n] = point;
    ctx->log[0] = n + 1u;
  }
  if (point == ctx->snap_point) {
    uint v = ctx->visits++;
    if (get_local_id(0) == 0 && v < CKT_MAX_VISITS) {
      global uchar *slot = ctx->snap + (size_t)v * (CKT_TX_MAX + ctx->data_bytes);
      const uchar *src = (const uchar *)tx;
      for (uint i = 0; i < tx_bytes && i < CKT_TX_MAX; i++) slot[i] = src[i];
      for (uint i = 0; i < ctx->data_bytes; i++) slot[CKT_TX_MAX + i] = ctx->arena[i];
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

int ck_request_fork(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes) {
  ckt_record(ctx, point, tx, tx_bytes);
  return 0;
}

int ck_global_barrier(ck_wg_t *ctx) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  return 0;
}

int ck_resizing_global_barrier(ck_wg_t *ctx, uint point, const void *tx, uint tx_bytes) {
  ckt_record(ctx, point, tx, tx_bytes);
  if (ctx->kill_point != point) return 0;
  ctx->kills++;
  return ctx->kills == ctx->kill_visit;
}
