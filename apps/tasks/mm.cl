/* apps/tasks/mm.cl: the MM narrow-task benchmark's kernel (owner: apps,
 * tasks). One task = one work-group = one 64x64 float product C = A x B,
 * where A, B and C of task t start at t * 4096 floats (row-major). The
 * product is tiled along k: for each 16-wide slice, the group copies the
 * 64x16 slice of A and the 16x64 slice of B into `tile` (a local pointer
 * argument of 2048 floats = 8 KiB), waits at a barrier, and each work-item
 * adds the slice's 16 terms to the outputs it owns (elements lid, lid + wg,
 * ...), keeping the partial sums in C itself (each element is touched by one
 * work-item only). Works for any wg that divides 4096 (32..1024).
 * The terms are added in the order k = 0..63, as the CPU reference does;
 * contraction to fma is turned off so the rounding matches it too (the
 * check still allows a tolerance). */
#pragma OPENCL FP_CONTRACT OFF

#define MM_N 64
#define MM_KT 16

kernel void tb_mm(global const float *a, global const float *b, global float *c, local float *tile, int task_base)
{
    int task = task_base + (int)get_group_id(0);
    int lid = (int)get_local_id(0);
    int wg = (int)get_local_size(0);
    global const float *A = a + (size_t)task * (MM_N * MM_N);
    global const float *B = b + (size_t)task * (MM_N * MM_N);
    global float *C = c + (size_t)task * (MM_N * MM_N);
    local float *ta = tile;                /* ta[i * MM_KT + kk] = A[i][k0 + kk] */
    local float *tb = tile + MM_N * MM_KT; /* tb[kk * MM_N + j] = B[k0 + kk][j]  */
    for (int k0 = 0; k0 < MM_N; k0 += MM_KT) {
        for (int e = lid; e < MM_N * MM_KT; e += wg) {
            int i = e / MM_KT, kk = e % MM_KT;
            ta[e] = A[i * MM_N + k0 + kk];
            tb[e] = B[(k0 + e / MM_N) * MM_N + e % MM_N];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int e = lid; e < MM_N * MM_N; e += wg) {
            int i = e / MM_N, j = e % MM_N;
            float s = k0 == 0 ? 0.0f : C[e];
            for (int kk = 0; kk < MM_KT; kk++) {
                float p = ta[i * MM_KT + kk] * tb[kk * MM_N + j];
                s = s + p;
            }
            C[e] = s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
