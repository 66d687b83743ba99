/* apps/tasks/des3.cl: the 3DES narrow-task benchmark (Pagoda's Table 3;
 * NIST's Triple DES): each task encrypts its own packet (2 KiB to 64 KiB,
 * whole 8-byte blocks) with Triple DES EDE in ECB mode under its own three
 * keys. The packets lie back to back in `in`/`out`; packet t is the blocks
 * [offsets[t], offsets[t + 1]). The host computes the key schedules (see
 * apps/tasks/tb_des.h): keys + 96 t holds task t's 48 round keys in the
 * order they are used (K1's 16, K2's 16 reversed for the decryption, K3's
 * 16), two 24-bit words each. sp_global is the 8 x 64 S-box + P table. The
 * group first copies sp and its round keys into the `local` argument `stage`
 * (512 + 96 words), then its work-items stride over the packet's blocks, so
 * every wg works. A block is big-endian (byte 0 is bits 1-8). The task id is
 * task_base + get_group_id(0). Owner: apps/tasks. */
#define DES3_SP_WORDS 512
#define DES3_KEY_WORDS 96

/* DES's initial permutation: output bit i + 1 (from the top) is input bit
 * (r < 4 ? 58 + 2r : 49 + 2r) - 8c, with r = i / 8, c = i % 8. */
ulong des3_ip(ulong x)
{
    ulong y = 0;
    for (int i = 0; i < 64; i++) {
        int r = i >> 3, c = i & 7;
        int src = (r < 4 ? 58 + 2 * r : 49 + 2 * r) - 8 * c;
        y = (y << 1) | ((x >> (64 - src)) & 1ul);
    }
    return y;
}

/* Its inverse, the final permutation. */
ulong des3_fp(ulong x)
{
    ulong y = 0;
    for (int i = 0; i < 64; i++) {
        int r = i >> 3, c = i & 7;
        int src = (r < 4 ? 58 + 2 * r : 49 + 2 * r) - 8 * c;
        y |= ((x >> (63 - i)) & 1ul) << (64 - src);
    }
    return y;
}

/* The round function: the 6-bit group g of E(r) is r rotated left by
 * 4g - 1 (mod 32), top 6 bits; xor the round key's group; S-box + P. */
uint des3_f(uint r, uint k0, uint k1, local const uint *sp)
{
    uint o = sp[((rotate(r, 31u) >> 26) ^ ((k0 >> 18) & 63u))];
    o ^= sp[64 + ((rotate(r, 3u) >> 26) ^ ((k0 >> 12) & 63u))];
    o ^= sp[128 + ((rotate(r, 7u) >> 26) ^ ((k0 >> 6) & 63u))];
    o ^= sp[192 + ((rotate(r, 11u) >> 26) ^ (k0 & 63u))];
    o ^= sp[256 + ((rotate(r, 15u) >> 26) ^ ((k1 >> 18) & 63u))];
    o ^= sp[320 + ((rotate(r, 19u) >> 26) ^ ((k1 >> 12) & 63u))];
    o ^= sp[384 + ((rotate(r, 23u) >> 26) ^ ((k1 >> 6) & 63u))];
    o ^= sp[448 + ((rotate(r, 27u) >> 26) ^ (k1 & 63u))];
    return o;
}

kernel void tb_des3(global const uchar *in, global const uint *offsets, global const uint *keys,
                    global const uint *sp_global, global uchar *out, local uint *stage, int task_base)
{
    size_t task = (size_t)task_base + get_group_id(0);
    int wg = (int)get_local_size(0), lid = (int)get_local_id(0);
    local uint *sp = stage;
    local uint *rk = stage + DES3_SP_WORDS;
    for (int e = lid; e < DES3_SP_WORDS; e += wg)
        sp[e] = sp_global[e];
    for (int e = lid; e < DES3_KEY_WORDS; e += wg)
        rk[e] = keys[task * DES3_KEY_WORDS + e];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t first = offsets[task];
    size_t n = (size_t)(offsets[task + 1] - offsets[task]);
    for (size_t b = (size_t)lid; b < n; b += (size_t)wg) {
        global const uchar *p = in + (first + b) * 8;
        ulong x = 0;
        for (int i = 0; i < 8; i++)
            x = (x << 8) | p[i];
        x = des3_ip(x);
        uint l = (uint)(x >> 32), r = (uint)x;
        for (int pass = 0; pass < 3; pass++) {
            for (int i = 0; i < 16; i++) {
                int k = (pass * 16 + i) * 2;
                uint t = l ^ des3_f(r, rk[k], rk[k + 1], sp);
                l = r;
                r = t;
            }
            /* The swap after the 16th round; between passes the FP and
             * the next IP cancel, so the swapped halves go on as L, R. */
            uint t = l;
            l = r;
            r = t;
        }
        x = des3_fp(((ulong)l << 32) | r);
        global uchar *q = out + (first + b) * 8;
        for (int i = 0; i < 8; i++)
            q[i] = (uchar)(x >> (56 - 8 * i));
    }
}
