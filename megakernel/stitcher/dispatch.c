/* dispatch.c: the generated tail of the stitched source: the unions of all kernels' locals
 * and transmit structs, CK_N_KERNELS, and ck_dispatch, which unpacks a launch packet's
 * argument words (arena offsets, local sizes, scalar bytes) and calls ck_kernel_<name>. */
#include "internal.h"

static void emit_param(emitter *e, param *p, size_t i) {
  size_t w = p->word_offset;
  const char *T = p->cast_type;
  switch (p->kind) {
  case CK_PARAM_GLOBAL_PTR:
  case CK_PARAM_CONSTANT_PTR:
    em_genf(e, "  %s ck_a%zu = (ck_args[%zu] == ~0UL) ? (%s)0 : (%s)(ck_arena + ck_args[%zu]);\n",
            T, i, w, T, T, w);
    break;
  case CK_PARAM_LOCAL_PTR:
    em_genf(e, "  %s ck_a%zu = (%s)(ck_local_pool + ck_lo);\n", T, i, T);
    em_genf(e, "  ck_lo += (ck_args[%zu] + 15UL) & ~(ulong)15;\n", w);
    break;
  case CK_PARAM_SCALAR:
    if (p->is_vector)
      em_genf(e, "  %s ck_a%zu = vload%d(0, (global const %s *)(ck_args + %zu));\n", T, i, p->vec_n,
              p->vec_elem, w);
    else if (p->is_bool)
      em_genf(e, "  %s ck_a%zu = *(global const uchar *)(ck_args + %zu) != 0;\n", T, i, w);
    else em_genf(e, "  %s ck_a%zu = *(global const %s *)(ck_args + %zu);\n", T, i, T, w);
    break;
  }
}

void st_emit_dispatch(emitter *e, program *pg) {
  em_generated_section(e);
  em_gen(e, "typedef union {\n");
  for (size_t k = 0; k < pg->kernels.n; k++) {
    const char *n = ((func *)pg->kernels.v[k])->name;
    em_genf(e, "  ck_locals_%s_t %s;\n", n, n);
  }
  em_gen(e, "  uchar ck_none;\n} ck_locals_t;\n");
  em_gen(e, "typedef union {\n");
  for (size_t k = 0; k < pg->kernels.n; k++) {
    const char *n = ((func *)pg->kernels.v[k])->name;
    em_genf(e, "  ck_tx_%s_t %s;\n", n, n);
  }
  em_gen(e, "  uint ck_none;\n} ck_tx_any_t;\n");
  em_gen(e, "#ifdef CK_TX_MAX_BYTES\n"
            "typedef char ck_tx_fits[(sizeof(ck_tx_any_t) <= CK_TX_MAX_BYTES) ? 1 : -1];\n"
            "#endif\n");
  em_genf(e, "#define CK_N_KERNELS %zu\n", pg->kernels.n);
  em_gen(e, "void ck_dispatch(ck_wg_t *ck_ctx, uint ck_kernel, uint ck_resume, "
            "global const void *ck_tx_in,\n"
            "                 global uchar *ck_arena, global const ulong *ck_args,\n"
            "                 local uchar *ck_local_pool, local ck_locals_t *ck_locals)\n{\n");
  em_gen(e, "switch (ck_kernel) {\n");
  for (size_t k = 0; k < pg->kernels.n; k++) {
    func *fn = pg->kernels.v[k];
    int locals = 0;
    for (size_t i = 0; i < fn->n_params; i++) locals |= fn->params[i].kind == CK_PARAM_LOCAL_PTR;
    em_genf(e, "case %zuu: {\n", k);
    if (locals) em_gen(e, "  ulong ck_lo = 0;\n");
    for (size_t i = 0; i < fn->n_params; i++) emit_param(e, &fn->params[i], i);
    /* A kernel whose only primitives are barriers sees M change only inside them, so a
     * group may keep the M its last barrier returned (ck_get_num_groups); one that calls
     * offer_kill or request_fork reads M every time (another group's kill or fork moves it). */
    int m_live = 0;
    for (size_t i = 0; i < fn->prims.n; i++) {
      int prim = ((stmt *)fn->prims.v[i])->prim;
      m_live |= prim == PRIM_OFFER_KILL || prim == PRIM_REQUEST_FORK;
    }
    em_genf(e, "  ck_ctx->m_known = %s;\n", m_live ? "CK_M_LIVE" : "0u");
    em_genf(e, "  ck_kernel_%s(ck_ctx, ck_resume, ck_tx_in, &ck_locals->%s", fn->name, fn->name);
    for (size_t i = 0; i < fn->n_params; i++) em_genf(e, ", ck_a%zu", i);
    em_gen(e, ");\n  break;\n}\n");
  }
  em_gen(e, "default:\n  break;\n}\n(void)ck_arena; (void)ck_args; (void)ck_local_pool;\n}\n");
}
