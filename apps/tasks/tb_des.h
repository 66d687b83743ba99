/* apps/tasks/tb_des.h: DES and Triple DES (EDE) on the host, for the des3
 * benchmark's key schedules and CPU reference and for the unit tests of
 * tests/tasks/test_task_refs.c (FIPS 46-3 / SP 800-67 bit numbering: bit 1
 * is the most significant bit of a uint64_t block or key). Round keys are
 * kept as two 24-bit words: word 0 holds the 6-bit groups 1-4 of the 48-bit
 * round key (group 1 highest), word 1 groups 5-8 -- the layout the kernel
 * (apps/tasks/des3.cl) reads. The S-boxes and the permutation P are folded
 * into eight 64-entry tables sp[i][six input bits of S-box i+1]. Owner:
 * apps/tasks. None of these functions can fail. */
#ifndef APPS_TB_DES_H
#define APPS_TB_DES_H

#include <stdint.h>

typedef uint32_t tb_des_round_keys[16][2];

/* The combined S-box + P tables. */
void tb_des_make_sp(uint32_t sp[8][64]);
/* The 16 round keys of a 64-bit key (parity bits ignored). */
void tb_des_key_schedule(uint64_t key, tb_des_round_keys rk);
/* Initial permutation and its inverse. */
uint64_t tb_des_ip(uint64_t x);
uint64_t tb_des_fp(uint64_t x);
/* One DES encryption (decrypt = 0) or decryption (decrypt = 1). */
uint64_t tb_des_block(const uint32_t sp[8][64], const tb_des_round_keys rk, uint64_t block, int decrypt);
/* Triple DES EDE: E_k3(D_k2(E_k1(block))). */
uint64_t tb_des3_block(const uint32_t sp[8][64], const tb_des_round_keys k1, const tb_des_round_keys k2,
                       const tb_des_round_keys k3, uint64_t block);
/* The 16 Feistel rounds over a pre-permuted block (L = high word, R = low
 * word) with rk[0..15] in the order given, ending with the usual swap; the
 * building block of the two above (no IP/FP). */
uint64_t tb_des_rounds(const uint32_t sp[8][64], const uint32_t (*rk)[2], int step, uint64_t lr);

#endif
