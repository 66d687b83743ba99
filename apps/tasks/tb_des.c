/* apps/tasks/tb_des.c: DES and Triple DES on the host (tb_des.h), written
 * from the tables of FIPS 46-3; checked against published known answers in
 * tests/tasks/test_task_refs.c. Owner: apps/tasks. */
#include "tb_des.h"

static const unsigned char des_pc1[56] = {
    57, 49, 41, 33, 25, 17, 9,  1, 58, 50, 42, 34, 26, 18, 10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
    63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22, 14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
};
static const unsigned char des_pc2[48] = {
    14, 17, 11, 24, 1,  5,  3,  28, 15, 6,  21, 10, 23, 19, 12, 4,  26, 8,  16, 7,  27, 20, 13, 2,
    41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
};
static const unsigned char des_shifts[16] = {1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1};
static const unsigned char des_p[32] = {
    16, 7, 20, 21, 29, 12, 28, 17, 1,  15, 23, 26, 5,  18, 31, 10,
    2,  8, 24, 14, 32, 27, 3,  9,  19, 13, 30, 6,  22, 11, 4,  25,
};
/* S-box i, row r (bits 1 and 6 of its input), column c (bits 2-5). */
static const unsigned char des_s[8][4][16] = {
    {{14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7},
     {0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8},
     {4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0},
     {15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13}},
    {{15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10},
     {3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5},
     {0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15},
     {13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9}},
    {{10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8},
     {13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1},
     {13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7},
     {1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12}},
    {{7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15},
     {13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9},
     {10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4},
     {3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14}},
    {{2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9},
     {14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6},
     {4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14},
     {11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3}},
    {{12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11},
     {10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8},
     {9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6},
     {4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13}},
    {{4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1},
     {13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6},
     {1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2},
     {6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12}},
    {{13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7},
     {1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2},
     {7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8},
     {2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11}},
};

/* Bit i (1-based from the top) of the result is bit table[i - 1] of the
 * width-bit input. */
static uint64_t des_permute(uint64_t in, const unsigned char *table, int n, int width)
{
    uint64_t out = 0;
    for (int i = 0; i < n; i++)
        out = (out << 1) | ((in >> (width - table[i])) & 1u);
    return out;
}

/* IP's source bit for output bit i + 1 (row r = i / 8, column c = i % 8):
 * rows 0-3 start at 58, 60, 62, 64 and rows 4-7 at 57, 59, 61, 63, each
 * falling by 8 along the row (the same formula as des3.cl). */
static int des_ip_source(int i)
{
    int r = i / 8, c = i % 8;
    return (r < 4 ? 58 + 2 * r : 49 + 2 * r) - 8 * c;
}

uint64_t tb_des_ip(uint64_t x)
{
    uint64_t y = 0;
    for (int i = 0; i < 64; i++)
        y = (y << 1) | ((x >> (64 - des_ip_source(i))) & 1u);
    return y;
}

uint64_t tb_des_fp(uint64_t x)
{
    uint64_t y = 0;
    for (int i = 0; i < 64; i++)
        y |= ((x >> (63 - i)) & 1u) << (64 - des_ip_source(i));
    return y;
}

void tb_des_make_sp(uint32_t sp[8][64])
{
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 64; b++) {
            int row = ((b >> 4) & 2) | (b & 1), col = (b >> 1) & 15;
            uint64_t s = (uint64_t)des_s[i][row][col] << (28 - 4 * i);
            sp[i][b] = (uint32_t)des_permute(s, des_p, 32, 32);
        }
}

void tb_des_key_schedule(uint64_t key, tb_des_round_keys rk)
{
    uint64_t cd = des_permute(key, des_pc1, 56, 64);
    uint32_t c = (uint32_t)(cd >> 28) & 0xFFFFFFFu, d = (uint32_t)cd & 0xFFFFFFFu;
    for (int r = 0; r < 16; r++) {
        for (int s = 0; s < des_shifts[r]; s++) {
            c = ((c << 1) | (c >> 27)) & 0xFFFFFFFu;
            d = ((d << 1) | (d >> 27)) & 0xFFFFFFFu;
        }
        uint64_t k = des_permute(((uint64_t)c << 28) | d, des_pc2, 48, 56);
        rk[r][0] = (uint32_t)(k >> 24) & 0xFFFFFFu;
        rk[r][1] = (uint32_t)k & 0xFFFFFFu;
    }
}

static uint32_t des_rotl(uint32_t x, unsigned n)
{
    n &= 31u;
    return n ? (x << n) | (x >> (32 - n)) : x;
}

/* The round function: E(r) xor the round key, through the S-boxes and P. */
static uint32_t des_f(const uint32_t sp[8][64], uint32_t r, const uint32_t k[2])
{
    uint32_t out = 0;
    for (int i = 0; i < 8; i++) {
        uint32_t e = des_rotl(r, (unsigned)(4 * i + 31)) >> 26; /* E's group i + 1 */
        uint32_t kk = (k[i / 4] >> (18 - 6 * (i % 4))) & 63u;
        out ^= sp[i][e ^ kk];
    }
    return out;
}

uint64_t tb_des_rounds(const uint32_t sp[8][64], const uint32_t (*rk)[2], int step, uint64_t lr)
{
    uint32_t l = (uint32_t)(lr >> 32), r = (uint32_t)lr;
    for (int i = 0; i < 16; i++) {
        uint32_t t = l ^ des_f(sp, r, rk[i * step]);
        l = r;
        r = t;
    }
    return ((uint64_t)r << 32) | l;
}

uint64_t tb_des_block(const uint32_t sp[8][64], const tb_des_round_keys rk, uint64_t block, int decrypt)
{
    uint64_t lr = tb_des_ip(block);
    lr = decrypt ? tb_des_rounds(sp, rk + 15, -1, lr) : tb_des_rounds(sp, rk, 1, lr);
    return tb_des_fp(lr);
}

uint64_t tb_des3_block(const uint32_t sp[8][64], const tb_des_round_keys k1, const tb_des_round_keys k2,
                       const tb_des_round_keys k3, uint64_t block)
{
    /* FP then IP between the three passes cancel out. */
    uint64_t lr = tb_des_ip(block);
    lr = tb_des_rounds(sp, k1, 1, lr);
    lr = tb_des_rounds(sp, k2 + 15, -1, lr);
    lr = tb_des_rounds(sp, k3, 1, lr);
    return tb_des_fp(lr);
}
