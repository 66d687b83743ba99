/* test_postlude.cl: TEST HARNESS ONLY, not the real megakernel. The real kernels of a
 * test program: ck_test_main_<k> runs stitched kernel k in one work-group. It builds a
 * ck_wg_t from cfg (kernel, resume, snap_point, kill_point, kill_visit, group_id,
 * num_groups, data_bytes), declares the local memory the stitched kernels use (ck_locals_t
 * and a 4 KiB pool for local pointer parameters) and calls ck_dispatch. There is one
 * wrapper per kernel, with the kernel index a constant, so that PoCL compiles only the
 * code of that kernel for it (its work-group compile time grows faster than linearly with
 * the size of the inlined kernel). */
void ckt_init(ck_wg_t *ctx, global const uint *cfg, global uchar *arena, global uchar *snap,
              global uint *log);
void ckt_init(ck_wg_t *ctx, global const uint *cfg, global uchar *arena, global uchar *snap,
              global uint *log) {
  ctx->snap_point = cfg[2];
  ctx->visits = 0u;
  ctx->kill_point = cfg[3];
  ctx->kill_visit = cfg[4];
  ctx->kills = 0u;
  ctx->group_id = cfg[5];
  ctx->num_groups = cfg[6];
  ctx->data_bytes = cfg[7];
  ctx->arena = arena;
  ctx->snap = snap;
  ctx->log = log;
}

#define CKT_MAIN(N)                                                                                \
  kernel void ck_test_main_##N(global const uint *cfg, global const uchar *tx_in,                  \
                               global uchar *arena, global const ulong *args, global uchar *snap,  \
                               global uint *log) {                                                 \
    local ck_locals_t locals;                                                                      \
    local ulong2 pool[256];                                                                        \
    ck_wg_t ctx;                                                                                   \
    ckt_init(&ctx, cfg, arena, snap, log);                                                         \
    ck_dispatch(&ctx, N##u, cfg[1], tx_in, arena, args, (local uchar *)pool, &locals);             \
  }

#if CK_N_KERNELS > 0
CKT_MAIN(0)
#endif
#if CK_N_KERNELS > 1
CKT_MAIN(1)
#endif
#if CK_N_KERNELS > 2
CKT_MAIN(2)
#endif
#if CK_N_KERNELS > 3
CKT_MAIN(3)
#endif
#if CK_N_KERNELS > 4
CKT_MAIN(4)
#endif
#if CK_N_KERNELS > 5
CKT_MAIN(5)
#endif
#if CK_N_KERNELS > 6
CKT_MAIN(6)
#endif
#if CK_N_KERNELS > 7
CKT_MAIN(7)
#endif
#if CK_N_KERNELS > 8
CKT_MAIN(8)
#endif
#if CK_N_KERNELS > 9
CKT_MAIN(9)
#endif
#if CK_N_KERNELS > 10
CKT_MAIN(10)
#endif
#if CK_N_KERNELS > 11
CKT_MAIN(11)
#endif
#if CK_N_KERNELS > 12
CKT_MAIN(12)
#endif
#if CK_N_KERNELS > 13
CKT_MAIN(13)
#endif
#if CK_N_KERNELS > 14
CKT_MAIN(14)
#endif
#if CK_N_KERNELS > 15
CKT_MAIN(15)
#endif
