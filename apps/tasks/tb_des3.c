/* apps/tasks/tb_des3.c: the 3DES benchmark's description (task_bench.h):
 * per task a packet of seeded size (2 KiB to 64 KiB in whole 8-byte blocks)
 * of seeded bytes and three seeded 64-bit keys; Triple DES EDE in ECB mode
 * (apps/tasks/des3.cl). The key schedules are computed here on the host
 * (tb_des.c), once per task, and passed in a buffer: 96 words per task, the
 * round keys in the order the kernel uses them. Buffers: the plaintexts back
 * to back, the offset table (n_tasks + 1 words, in 8-byte blocks: task t's
 * packet is blocks [offsets[t], offsets[t + 1])), the round keys, the S-box
 * + P table, and the ciphertexts (same layout as the plaintexts). The CPU
 * reference encrypts with tb_des3_block, which the unit tests check against
 * published known answers; the check is exact. Owner: apps/tasks. */
#include "tb_des.h"
#include "tb_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define DES3_MIN_BLOCKS 256u  /* 2 KiB  */
#define DES3_MAX_BLOCKS 8192u /* 64 KiB */
#define DES3_KEY_WORDS 96

enum { DES3_BUF_IN, DES3_BUF_OFFSETS, DES3_BUF_KEYS, DES3_BUF_SP, DES3_BUF_OUT };

extern const task_bench tb_bench_des3;

/* Task t's packet size in blocks: depends on the seed and t only. */
static uint32_t des3_blocks(uint64_t seed, unsigned t)
{
    app_rng r;
    tb_task_rng(&r, seed, t, 0x3DE5);
    return DES3_MIN_BLOCKS + (uint32_t)app_rng_below(&r, DES3_MAX_BLOCKS - DES3_MIN_BLOCKS + 1);
}

static int des3_create(tb_instance *inst, unsigned n_tasks, unsigned wg, uint64_t seed, char *err, size_t err_len)
{
    if (tb_check_shape(&tb_bench_des3, n_tasks, wg, err, err_len))
        return -1;
    tb_init(inst, n_tasks, wg, seed);
    uint64_t total = 0;
    for (unsigned t = 0; t < n_tasks; t++)
        total += des3_blocks(seed, t);
    if (total > UINT32_MAX) {
        snprintf(err, err_len, "des3: %u tasks need %" PRIu64 " blocks, more than 32-bit offsets hold", n_tasks,
                 total);
        return -1;
    }
    if (tb_add_buffer(inst, (size_t)total * 8, 0, "des3", "plaintexts", err, err_len) < 0 ||
        tb_add_buffer(inst, ((size_t)n_tasks + 1) * sizeof(uint32_t), 0, "des3", "offsets", err, err_len) < 0 ||
        tb_add_buffer(inst, (size_t)n_tasks * DES3_KEY_WORDS * sizeof(uint32_t), 0, "des3", "round keys", err,
                      err_len) < 0 ||
        tb_add_buffer(inst, 8 * 64 * sizeof(uint32_t), 0, "des3", "S-box tables", err, err_len) < 0 ||
        tb_add_buffer(inst, (size_t)total * 8, 1, "des3", "ciphertexts", err, err_len) < 0) {
        tb_destroy(inst);
        return -1;
    }
    unsigned char *data = inst->buffers[DES3_BUF_IN].host;
    uint32_t *offsets = inst->buffers[DES3_BUF_OFFSETS].host;
    uint32_t *keys = inst->buffers[DES3_BUF_KEYS].host;
    tb_des_make_sp((uint32_t(*)[64])inst->buffers[DES3_BUF_SP].host);
    uint32_t at = 0;
    for (unsigned t = 0; t < n_tasks; t++) {
        uint32_t blocks = des3_blocks(seed, t);
        offsets[t] = at;
        app_rng r;
        tb_task_rng(&r, seed, t, 0xDA7A);
        unsigned char *p = data + (size_t)at * 8;
        for (size_t i = 0; i < (size_t)blocks * 8; i += 8) {
            uint64_t v = app_rng_next(&r);
            memcpy(p + i, &v, 8);
        }
        tb_des_round_keys k[3];
        for (int j = 0; j < 3; j++)
            tb_des_key_schedule(app_rng_next(&r), k[j]);
        uint32_t *w = keys + (size_t)t * DES3_KEY_WORDS;
        for (int i = 0; i < 16; i++) {
            w[2 * i] = k[0][i][0];
            w[2 * i + 1] = k[0][i][1];
            w[32 + 2 * i] = k[1][15 - i][0]; /* decryption: reversed */
            w[32 + 2 * i + 1] = k[1][15 - i][1];
            w[64 + 2 * i] = k[2][i][0];
            w[64 + 2 * i + 1] = k[2][i][1];
        }
        at += blocks;
    }
    offsets[n_tasks] = at;
    tb_add_arg(inst, TB_ARG_BUFFER, DES3_BUF_IN);
    tb_add_arg(inst, TB_ARG_BUFFER, DES3_BUF_OFFSETS);
    tb_add_arg(inst, TB_ARG_BUFFER, DES3_BUF_KEYS);
    tb_add_arg(inst, TB_ARG_BUFFER, DES3_BUF_SP);
    tb_add_arg(inst, TB_ARG_BUFFER, DES3_BUF_OUT);
    tb_add_arg(inst, TB_ARG_LOCAL, (int)((512 + DES3_KEY_WORDS) * sizeof(uint32_t)));
    tb_add_arg(inst, TB_ARG_TASK_BASE, 0);
    return 0;
}

static void des3_cpu_task(const tb_instance *inst, unsigned task, void *const *out)
{
    const uint32_t *offsets = inst->buffers[DES3_BUF_OFFSETS].host;
    const uint32_t(*sp)[64] = (const uint32_t(*)[64])inst->buffers[DES3_BUF_SP].host;
    const uint32_t(*rk)[2] =
        (const uint32_t(*)[2])((const uint32_t *)inst->buffers[DES3_BUF_KEYS].host + (size_t)task * DES3_KEY_WORDS);
    const unsigned char *in = (const unsigned char *)inst->buffers[DES3_BUF_IN].host + (size_t)offsets[task] * 8;
    unsigned char *o = (unsigned char *)out[DES3_BUF_OUT] + (size_t)offsets[task] * 8;
    size_t n = offsets[task + 1] - offsets[task];
    for (size_t b = 0; b < n; b++) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++)
            x = (x << 8) | in[b * 8 + i];
        /* The stored schedule already has K2's keys reversed: three
         * forward passes of 16 rounds each. */
        uint64_t lr = tb_des_ip(x);
        lr = tb_des_rounds(sp, rk, 1, lr);
        lr = tb_des_rounds(sp, rk + 16, 1, lr);
        lr = tb_des_rounds(sp, rk + 32, 1, lr);
        x = tb_des_fp(lr);
        for (int i = 0; i < 8; i++)
            o[b * 8 + i] = (unsigned char)(x >> (56 - 8 * i));
    }
}

static int des3_check_task(const tb_instance *inst, unsigned task, const void *const *got, const void *const *ref,
                           char *err, size_t err_len)
{
    const uint32_t *offsets = inst->buffers[DES3_BUF_OFFSETS].host;
    const unsigned char *g = (const unsigned char *)got[DES3_BUF_OUT] + (size_t)offsets[task] * 8;
    const unsigned char *w = (const unsigned char *)ref[DES3_BUF_OUT] + (size_t)offsets[task] * 8;
    size_t n = (size_t)(offsets[task + 1] - offsets[task]) * 8;
    for (size_t i = 0; i < n; i++)
        if (g[i] != w[i]) {
            snprintf(err, err_len, "des3 task %u: ciphertext byte %zu of %zu (block %zu) = 0x%02x, expected 0x%02x",
                     task, i, n, i / 8, g[i], w[i]);
            return -1;
        }
    return 0;
}

const task_bench tb_bench_des3 = {
    .name = "des3",
    .exact = 1,
    .summary = "Triple DES (EDE, 3 keys, ECB) of one 2-64 KiB packet of seeded size per task",
    .cl_file = "tasks/des3.cl",
    .kernel = "tb_des3",
    .min_wg = 32,
    .max_wg = 1024,
    .create = des3_create,
    .cpu_task = des3_cpu_task,
    .check_task = des3_check_task,
    .destroy = tb_destroy,
};
