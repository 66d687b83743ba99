/* apps/tasks/tb_dct.h: the DCT benchmark's CPU transform, public for the unit
 * tests (tests/tasks/test_task_refs.c). Owner: apps/tasks. */
#ifndef APPS_TB_DCT_H
#define APPS_TB_DCT_H

#include <stddef.h>

/* The orthonormal 8x8 DCT-II of the block whose row y starts at
 * block + y * stride, computed directly (64 products per coefficient, in
 * double): out[v * 8 + u] = C(u) C(v) / 4 * sum_{y,x} f(y, x)
 * cos((2x + 1) u pi / 16) cos((2y + 1) v pi / 16), C(0) = 1/sqrt(2), else 1.
 * Cannot fail. */
void tb_dct8x8_ref(const float *block, size_t stride, double out[64]);

#endif
