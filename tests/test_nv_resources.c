/* Reading NVIDIA's -cl-nv-verbose build log (runtime/nv_resources.c): the
 * megakernel's registers, stack and spills are found in its own section of
 * a log that names several entry functions, a missing entry or a log
 * without the report gives "not found" and zeros, and the full-occupancy
 * register count follows the compute capability. And the nonce part that
 * keeps a build out of the driver's cache (runtime/register_cap.c) is an
 * empty kernel whose name changes with its seed. Needs no device. */
#include "../runtime/nv_resources.h"
#include "../runtime/register_cap.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

/* The shape ptxas prints for each entry function, three entries. */
static const char log3[] =
    "ptxas info    : 0 bytes gmem, 946 bytes cmem[3]\n"
    "ptxas info    : Compiling entry function 'ck_megakernel_probe' for 'sm_90'\n"
    "ptxas info    : Function properties for ck_megakernel_probe\n"
    "ptxas         .     992 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
    "ptxas info    : Used 96 registers, 344 bytes cmem[0], 12 bytes cmem[2]\n"
    "ptxas info    : Compiling entry function 'ck_megakernel' for 'sm_90'\n"
    "ptxas info    : Function properties for ck_megakernel\n"
    "ptxas         .     960 bytes stack frame, 124 bytes spill stores, 260 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 1 barriers, 32 bytes smem, 400 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
    "ptxas info    : Function properties for other\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers, 344 bytes cmem[0]\n";

static void test_finds_the_entry_among_others(void **state)
{
    (void)state;
    ck_nv_resources r;
    assert_int_equal(ck_nv_parse_resources(log3, "ck_megakernel", &r), 1);
    assert_int_equal(r.registers, 32);
    assert_int_equal(r.stack_bytes, 960);
    assert_int_equal(r.spill_store_bytes, 124);
    assert_int_equal(r.spill_load_bytes, 260);
    /* A name that only starts like another entry's is not that entry. */
    assert_int_equal(ck_nv_parse_resources(log3, "ck_megakernel_probe", &r), 1);
    assert_int_equal(r.registers, 96);
    assert_int_equal(r.spill_store_bytes, 8);
    assert_int_equal(ck_nv_parse_resources(log3, "other", &r), 1);
    assert_int_equal(r.registers, 12);
    assert_int_equal(r.stack_bytes, 0);
    assert_int_equal(r.spill_load_bytes, 0);
}

static void test_missing_entry_or_report(void **state)
{
    (void)state;
    ck_nv_resources r;
    memset(&r, 0xff, sizeof r);
    assert_int_equal(ck_nv_parse_resources(log3, "ck_mega", &r), 0);
    assert_int_equal(r.registers, 0);
    assert_int_equal(r.spill_store_bytes, 0);
    assert_int_equal(ck_nv_parse_resources("", "ck_megakernel", &r), 0);
    assert_int_equal(ck_nv_parse_resources("warning: something else entirely\n", "ck_megakernel", &r), 0);
    assert_int_equal(ck_nv_parse_resources(NULL, "ck_megakernel", &r), 0);
    assert_int_equal(ck_nv_parse_resources(log3, NULL, &r), 0);
    assert_int_equal(ck_nv_parse_resources(log3, "", &r), 0);
    assert_int_equal(ck_nv_parse_resources(log3, "ck_megakernel", NULL), 0);
    /* The entry's section has no "Used N registers" line (its figures must
     * not be taken from the next entry's lines). */
    const char cut[] = "ptxas info    : Compiling entry function 'ck_megakernel' for 'sm_90'\n"
                       "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
                       "ptxas info    : Used 12 registers, 344 bytes cmem[0]\n";
    assert_int_equal(ck_nv_parse_resources(cut, "ck_megakernel", &r), 0);
    assert_int_equal(r.registers, 0);
    /* A report without the stack line: registers found, the rest 0. */
    const char short_log[] = "ptxas info    : Compiling entry function 'ck_megakernel' for 'sm_80'\n"
                             "ptxas info    : Used 40 registers, 400 bytes cmem[0]";
    assert_int_equal(ck_nv_parse_resources(short_log, "ck_megakernel", &r), 1);
    assert_int_equal(r.registers, 40);
    assert_int_equal(r.stack_bytes + r.spill_store_bytes + r.spill_load_bytes, 0);
    /* The log ends inside the entry's name. */
    assert_int_equal(ck_nv_parse_resources("Compiling entry function 'ck_mega", "ck_megakernel", &r), 0);
}

static void test_full_occupancy_registers(void **state)
{
    (void)state;
    assert_int_equal(ck_nv_full_occupancy_registers(9, 0, 65536), 32); /* H100: 2048 work-items */
    assert_int_equal(ck_nv_full_occupancy_registers(8, 0, 65536), 32); /* A100 */
    assert_int_equal(ck_nv_full_occupancy_registers(7, 5, 65536), 64); /* 1024 work-items */
    assert_int_equal(ck_nv_full_occupancy_registers(8, 6, 65536), 40); /* 1536: 42, down to a step of 8 */
    assert_int_equal(ck_nv_full_occupancy_registers(8, 9, 65536), 40);
    assert_int_equal(ck_nv_full_occupancy_registers(12, 0, 65536), 40);
    assert_int_equal(ck_nv_full_occupancy_registers(0, 0, 65536), 0); /* unknown capability */
    assert_int_equal(ck_nv_full_occupancy_registers(9, 0, 0), 0);     /* unknown register file */
}

/* The group's cap: the registers a group may use over its warps of 32,
 * down to a step of 8, at most the compiler's 255. A megakernel above it
 * does not launch (on an H200, 1024 work-items and the DES task kernel). */
static void test_group_fit_registers(void **state)
{
    (void)state;
    assert_int_equal(ck_nv_group_fit_registers(65536, 1024), 64);
    assert_int_equal(ck_nv_group_fit_registers(65536, 512), 128);
    assert_int_equal(ck_nv_group_fit_registers(65536, 256), 255); /* 256: the compiler's most is lower */
    assert_int_equal(ck_nv_group_fit_registers(65536, 64), 255);
    assert_int_equal(ck_nv_group_fit_registers(65536, 1000), 64); /* 32 warps, as 1024 */
    assert_int_equal(ck_nv_group_fit_registers(65536, 993), 64);
    assert_int_equal(ck_nv_group_fit_registers(65536, 992), 64); /* 31 warps: 66, down to 64 */
    assert_int_equal(ck_nv_group_fit_registers(65536, 768), 80); /* 24 warps: 85, down to 80 */
    assert_int_equal(ck_nv_group_fit_registers(32768, 1024), 32);
    assert_int_equal(ck_nv_group_fit_registers(0, 1024), 0); /* unknown register budget */
    assert_int_equal(ck_nv_group_fit_registers(65536, 0), 0);
}

/* The nonce part: a kernel declaration of its own name, different for
 * different seeds, and the parser still reads the megakernel's section of a
 * log that also names the nonce's entry. */
static void test_nonce_source(void **state)
{
    (void)state;
    char a[96], b[96];
    size_t la = ck_register_nonce_source(a, sizeof a, 1u);
    size_t lb = ck_register_nonce_source(b, sizeof b, 0x0123456789abcdefull);
    assert_int_equal(la, strlen(a));
    assert_int_equal(lb, strlen(b));
    assert_string_equal(a, "\n__kernel void ck_report_nonce_0000000000000001(void) {}\n");
    assert_string_equal(b, "\n__kernel void ck_report_nonce_0123456789abcdef(void) {}\n");
    assert_string_not_equal(a, b);
    /* A kernel declaration: "__kernel void NAME(void) {}" with NAME an identifier. */
    const char *name = strstr(a, "__kernel void ");
    assert_non_null(name);
    name += strlen("__kernel void ");
    assert_int_equal(strncmp(name, "ck_report_nonce_", 16), 0);
    size_t id = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
    assert_int_equal(id, 32);
    assert_string_equal(name + id, "(void) {}\n");
    /* Exactly as long as the header says (58 bytes with the zero), or nothing. */
    char c[58];
    assert_int_equal(ck_register_nonce_source(c, sizeof c, ~0ull), 57);
    assert_string_equal(c + 31, "ffffffffffffffff(void) {}\n");
    memset(c, 'x', sizeof c);
    assert_int_equal(ck_register_nonce_source(c, 57, 7u), 0);
    assert_string_equal(c, "");
    assert_int_equal(ck_register_nonce_source(NULL, 64, 7u), 0);
    /* The nonce's entry does not take the megakernel's place in the report. */
    const char log[] = "ptxas info    : Compiling entry function 'ck_report_nonce_0000000000000001' for 'sm_90'\n"
                       "ptxas info    : Used 2 registers, 344 bytes cmem[0]\n"
                       "ptxas info    : Compiling entry function 'ck_megakernel' for 'sm_90'\n"
                       "ptxas info    : Used 40 registers, 400 bytes cmem[0]\n";
    ck_nv_resources r;
    assert_int_equal(ck_nv_parse_resources(log, "ck_megakernel", &r), 1);
    assert_int_equal(r.registers, 40);
}

/* The caps auto tries: the full-occupancy count, then steps of 8 below
 * the uncapped count; none where no cap can add groups. */
static void test_cap_tries(void **state)
{
    (void)state;
    unsigned caps[8];
    assert_int_equal(ck_register_cap_tries(32, 56, caps, 8), 3);
    assert_int_equal(caps[0], 32);
    assert_int_equal(caps[1], 40);
    assert_int_equal(caps[2], 48);
    assert_int_equal(ck_register_cap_tries(32, 40, caps, 8), 1);
    assert_int_equal(caps[0], 32);
    assert_int_equal(ck_register_cap_tries(32, 41, caps, 8), 2);
    assert_int_equal(caps[1], 40);
    assert_int_equal(ck_register_cap_tries(32, 33, caps, 8), 1);
    assert_int_equal(ck_register_cap_tries(32, 32, caps, 8), 0);
    assert_int_equal(ck_register_cap_tries(32, 20, caps, 8), 0);
    assert_int_equal(ck_register_cap_tries(0, 56, caps, 8), 0);
    assert_int_equal(ck_register_cap_tries(24, 64, caps, 8), 5); /* 24 32 40 48 56 (compute capability 8.6) */
    assert_int_equal(caps[4], 56);
    /* The count is the whole sequence; only n are written. */
    caps[1] = 12345u;
    assert_int_equal(ck_register_cap_tries(32, 255, caps, 1), 28);
    assert_int_equal(caps[0], 32);
    assert_int_equal(caps[1], 12345u);
    assert_int_equal(ck_register_cap_tries(32, 255, NULL, 0), 28);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finds_the_entry_among_others), cmocka_unit_test(test_cap_tries),
        cmocka_unit_test(test_missing_entry_or_report),      cmocka_unit_test(test_full_occupancy_registers),
        cmocka_unit_test(test_group_fit_registers),          cmocka_unit_test(test_nonce_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
