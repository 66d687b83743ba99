/* Unit tests of the arena allocator (runtime/arena.c): alignment, first
 * fit, exhaustion, coalescing of freed neighbours, and refusal of frees
 * that do not match a live allocation, and sizes or ranges near 2^64 whose
 * rounding or end would wrap around. */
#include "arena.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static void test_alignment_and_exhaustion(void **state)
{
    ck_arena a;
    ck_arena_init(&a, 4096);
    uint64_t o1, o2, o3;
    assert_int_equal(ck_arena_alloc(&a, 1, &o1), 0);
    assert_int_equal(ck_arena_alloc(&a, 300, &o2), 0);
    assert_int_equal(o1 % CK_ARENA_ALIGN, 0);
    assert_int_equal(o2 % CK_ARENA_ALIGN, 0);
    assert_true(o2 >= o1 + CK_ARENA_ALIGN);
    assert_int_equal(ck_arena_alloc(&a, 4096, &o3), -1); /* does not fit any more */
    assert_int_equal(ck_arena_alloc(&a, 0, &o3), -1);
    assert_int_equal(ck_arena_free_bytes(&a), 4096 - 256 - 512);
    assert_true(ck_arena_contains(&a, o2, 300));
    assert_false(ck_arena_contains(&a, o2, 600));
    ck_arena_destroy(&a);
}

static void test_free_coalesces(void **state)
{
    ck_arena a;
    ck_arena_init(&a, 4 * 256);
    uint64_t o[4];
    for (int i = 0; i < 4; ++i)
        assert_int_equal(ck_arena_alloc(&a, 256, &o[i]), 0);
    assert_int_equal(ck_arena_free(&a, o[1], 256), 0);
    assert_int_equal(ck_arena_free(&a, o[2], 256), 0);
    uint64_t big;
    assert_int_equal(ck_arena_alloc(&a, 512, &big), 0); /* the two freed neighbours merged */
    assert_int_equal(big, o[1]);
    assert_int_equal(ck_arena_free(&a, o[0], 256), 0);
    assert_int_equal(ck_arena_free(&a, big, 512), 0);
    assert_int_equal(ck_arena_free(&a, o[3], 256), 0);
    assert_int_equal(a.n_free, 1);
    assert_int_equal(ck_arena_free_bytes(&a), 1024);
    ck_arena_destroy(&a);
}

static void test_bad_frees_are_refused(void **state)
{
    ck_arena a;
    ck_arena_init(&a, 1024);
    uint64_t o;
    assert_int_equal(ck_arena_alloc(&a, 100, &o), 0);
    assert_int_equal(ck_arena_free(&a, o + 256, 100), -1);
    assert_int_equal(ck_arena_free(&a, o, 1000), -1);
    assert_int_equal(ck_arena_free(&a, o, 100), 0);
    assert_int_equal(ck_arena_free(&a, o, 100), -1); /* double free */
    ck_arena_destroy(&a);
}

static void test_sizes_near_the_top_are_refused(void **state)
{
    ck_arena a;
    ck_arena_init(&a, 1 << 20);
    uint64_t o, keep;
    const uint64_t huge[] = {UINT64_MAX,       UINT64_MAX - 1,   UINT64_MAX - 15,
                             UINT64_MAX - 255, UINT64_MAX - 256, (1 << 20) + 1};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; ++i)
        assert_int_equal(ck_arena_alloc(&a, huge[i], &o), -1);
    assert_int_equal(ck_arena_free_bytes(&a), 1 << 20);
    assert_int_equal(ck_arena_alloc(&a, 512, &keep), 0);
    /* Ranges whose end wraps are not inside the live allocation. */
    assert_false(ck_arena_contains(&a, keep + 256, UINT64_MAX - 200));
    assert_false(ck_arena_contains(&a, UINT64_MAX - 10, 64));
    assert_false(ck_arena_contains(&a, keep, UINT64_MAX));
    assert_true(ck_arena_contains(&a, keep + 256, 256));
    assert_int_equal(ck_arena_free(&a, keep, UINT64_MAX), -1);
    assert_int_equal(ck_arena_free(&a, keep, 512), 0);
    ck_arena_destroy(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alignment_and_exhaustion),
        cmocka_unit_test(test_free_coalesces),
        cmocka_unit_test(test_bad_frees_are_refused),
        cmocka_unit_test(test_sizes_near_the_top_are_refused),
    };
    return cmocka_run_group_tests_name("arena", tests, NULL, NULL);
}
