/* tests/tasks/test_task_refs.c (owner: apps/tasks, the narrow tasks' "kern" part):
 * unit tests of the CPU references, no device: DES against published known
 * answers (FIPS 46 worked example, SP 800-20 and SP 800-67 vectors, checked
 * also with OpenSSL's des-ede3), decryption undoing encryption, Triple DES
 * with K1 = K2 = K3 equal to single DES, and the 8x8 DCT: a constant block
 * has only a DC coefficient, and the inverse DCT (written here) returns any
 * block; and every benchmark's inputs for tasks 0..4 are the same at 5 and
 * at 70 tasks and under any wg (a task's data depends on the seed and its id
 * only). */
#include "tb_dct.h"
#include "tb_des.h"
#include "task_bench.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

static uint32_t sp[8][64];

static int make_sp(void **state)
{
    (void)state;
    tb_des_make_sp(sp);
    return 0;
}

typedef struct {
    uint64_t key, plain, cipher;
} des_vector;

static const des_vector des_vectors[] = {
    {0x133457799BBCDFF1ull, 0x0123456789ABCDEFull, 0x85E813540F0AB405ull}, /* the classic worked example */
    {0x0101010101010101ull, 0x8000000000000000ull, 0x95F8A5E5DD31D900ull}, /* SP 800-20 variable plaintext */
    {0x0101010101010101ull, 0x0000000000000001ull, 0x166B40B44ABA4BD6ull}, /* SP 800-20 variable plaintext */
    {0x0101010101010101ull, 0x0000000000000000ull, 0x8CA64DE9C1B123A7ull},
    {0x0123456789ABCDEFull, 0x4E6F772069732074ull, 0x3FA40E8A984D4815ull}, /* "Now is t" */
};

static void test_des_known_answers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof des_vectors / sizeof des_vectors[0]; i++) {
        const des_vector *v = &des_vectors[i];
        tb_des_round_keys rk;
        tb_des_key_schedule(v->key, rk);
        uint64_t c = tb_des_block(sp, rk, v->plain, 0);
        if (c != v->cipher)
            fail_msg("DES vector %zu: got %016llx, expected %016llx", i, (unsigned long long)c,
                     (unsigned long long)v->cipher);
        assert_true(tb_des_block(sp, rk, c, 1) == v->plain);
    }
}

/* The parity bits (bit 8 of each byte) do not matter. */
static void test_des_ignores_parity(void **state)
{
    (void)state;
    tb_des_round_keys a, b;
    tb_des_key_schedule(0x133457799BBCDFF1ull, a);
    tb_des_key_schedule(0x133457799BBCDFF1ull ^ 0x0101010101010101ull, b);
    assert_memory_equal(a, b, sizeof a);
}

static void test_ip_fp_inverse(void **state)
{
    (void)state;
    uint64_t x = 0x0123456789ABCDEFull;
    for (int i = 0; i < 1000; i++) {
        assert_true(tb_des_fp(tb_des_ip(x)) == x);
        assert_true(tb_des_ip(tb_des_fp(x)) == x);
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    }
    /* IP sends input bit 58 to output bit 1 and bit 7 to bit 64. */
    assert_true(tb_des_ip(1ull << (64 - 58)) == 1ull << 63);
    assert_true(tb_des_ip(1ull << (64 - 7)) == 1ull);
}

/* K1 = K2 = K3: EDE is single DES (the D undoes the first E). */
static void test_des3_equal_keys_is_des(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof des_vectors / sizeof des_vectors[0]; i++) {
        tb_des_round_keys rk;
        tb_des_key_schedule(des_vectors[i].key, rk);
        assert_true(tb_des3_block(sp, rk, rk, rk, des_vectors[i].plain) == des_vectors[i].cipher);
    }
}

/* SP 800-67's example: three distinct keys, "The qufck brown fox jump". */
static void test_des3_three_keys(void **state)
{
    (void)state;
    tb_des_round_keys k1, k2, k3;
    tb_des_key_schedule(0x0123456789ABCDEFull, k1);
    tb_des_key_schedule(0x23456789ABCDEF01ull, k2);
    tb_des_key_schedule(0x456789ABCDEF0123ull, k3);
    const uint64_t plain[3] = {0x5468652071756663ull, 0x6B2062726F776E20ull, 0x666F78206A756D70ull};
    const uint64_t cipher[3] = {0xA826FD8CE53B855Full, 0xCCE21C8112256FE6ull, 0x68D5C05DD9B6B900ull};
    for (int i = 0; i < 3; i++) {
        uint64_t c = tb_des3_block(sp, k1, k2, k3, plain[i]);
        if (c != cipher[i])
            fail_msg("3DES block %d: got %016llx, expected %016llx", i, (unsigned long long)c,
                     (unsigned long long)cipher[i]);
        /* Decryption D_k1(E_k2(D_k3(c))) with single-DES steps. */
        uint64_t p = tb_des_block(sp, k1, tb_des_block(sp, k2, tb_des_block(sp, k3, c, 1), 0), 1);
        assert_true(p == plain[i]);
    }
}

/* f(y, x) = sum_{v,u} C(u) C(v) / 4 F(v, u) cos((2x+1)u pi/16) cos((2y+1)v pi/16). */
static void idct8x8(const double in[64], double out[64])
{
    const double pi = 3.14159265358979323846;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            double s = 0.0;
            for (int v = 0; v < 8; v++)
                for (int u = 0; u < 8; u++) {
                    double cu = u ? 1.0 : 1.0 / sqrt(2.0), cv = v ? 1.0 : 1.0 / sqrt(2.0);
                    s += 0.25 * cu * cv * in[v * 8 + u] * cos((2 * x + 1) * u * pi / 16) *
                         cos((2 * y + 1) * v * pi / 16);
                }
            out[y * 8 + x] = s;
        }
}

static void test_dct_constant_block_is_dc_only(void **state)
{
    (void)state;
    float block[64];
    for (int i = 0; i < 64; i++)
        block[i] = 0.75f;
    double f[64];
    tb_dct8x8_ref(block, 8, f);
    assert_true(fabs(f[0] - 8 * 0.75) < 1e-12); /* DC = 8 x the mean (orthonormal) */
    for (int i = 1; i < 64; i++)
        if (fabs(f[i]) > 1e-12)
            fail_msg("constant block: coefficient %d = %g, expected 0", i, f[i]);
}

static void test_dct_inverse_returns_block(void **state)
{
    (void)state;
    /* A block inside a wider image (stride 13), seeded values. */
    float image[8 * 13];
    uint32_t s = 12345;
    for (int i = 0; i < 8 * 13; i++) {
        s = s * 1664525u + 1013904223u;
        image[i] = (float)(s >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
    }
    double f[64], back[64], energy_in = 0, energy_out = 0;
    tb_dct8x8_ref(image + 2, 13, f);
    idct8x8(f, back);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            double want = image[y * 13 + 2 + x];
            if (fabs(back[y * 8 + x] - want) > 1e-9)
                fail_msg("inverse DCT at (%d, %d): %.12g, expected %.12g", y, x, back[y * 8 + x], want);
            energy_in += want * want;
        }
    for (int i = 0; i < 64; i++)
        energy_out += f[i] * f[i];
    assert_true(fabs(energy_in - energy_out) < 1e-9 * energy_in); /* orthonormal: Parseval */
}

/* The task-major layout makes the 5-task inputs a prefix of the 70-task
 * ones (des3's offset table included: entry 5 is where task 5 starts). */
static void test_inputs_independent_of_task_count(void **state)
{
    (void)state;
    for (unsigned i = 0; i < tb_n_benches; i++) {
        const task_bench *b = tb_benches[i];
        tb_instance small, large;
        char err[256];
        assert_int_equal(b->create(&small, 5, 32, 99, err, sizeof err), 0);
        assert_int_equal(b->create(&large, 70, 256, 99, err, sizeof err), 0);
        assert_int_equal(small.n_buffers, large.n_buffers);
        for (unsigned j = 0; j < small.n_buffers; j++) {
            assert_int_equal(small.buffers[j].output, large.buffers[j].output);
            assert_true(small.buffers[j].bytes <= large.buffers[j].bytes);
            if (!small.buffers[j].output &&
                memcmp(small.buffers[j].host, large.buffers[j].host, small.buffers[j].bytes) != 0)
                fail_msg("%s: input buffer %u of 5 tasks is not a prefix of that of 70 tasks", b->name, j);
        }
        b->destroy(&small);
        b->destroy(&large);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_des_known_answers),
        cmocka_unit_test(test_des_ignores_parity),
        cmocka_unit_test(test_ip_fp_inverse),
        cmocka_unit_test(test_des3_equal_keys_is_des),
        cmocka_unit_test(test_des3_three_keys),
        cmocka_unit_test(test_dct_constant_block_is_dc_only),
        cmocka_unit_test(test_dct_inverse_returns_block),
        cmocka_unit_test(test_inputs_independent_of_task_count),
    };
    return cmocka_run_group_tests(tests, make_sp, NULL);
}
