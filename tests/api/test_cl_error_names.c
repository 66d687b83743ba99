/* Every error code of CL/cl.h (OpenCL 3.0) and the Khronos extension codes
 * has a name in ck_cl_error_name (runtime/error.c), and that name is the
 * code's own. The codes are listed here by hand, so that a code the runtime
 * forgets shows up as CL_UNKNOWN_ERROR. */
#include "error.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

/* clang-format would spread this initializer over four lines: it stays as written. */
/* clang-format off */
#define C(x) {x, #x}
/* clang-format on */
static const struct {
    cl_int code;
    const char *name;
} core[] = {
    C(CL_SUCCESS),
    C(CL_DEVICE_NOT_FOUND),
    C(CL_DEVICE_NOT_AVAILABLE),
    C(CL_COMPILER_NOT_AVAILABLE),
    C(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    C(CL_OUT_OF_RESOURCES),
    C(CL_OUT_OF_HOST_MEMORY),
    C(CL_PROFILING_INFO_NOT_AVAILABLE),
    C(CL_MEM_COPY_OVERLAP),
    C(CL_IMAGE_FORMAT_MISMATCH),
    C(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    C(CL_BUILD_PROGRAM_FAILURE),
    C(CL_MAP_FAILURE),
    C(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    C(CL_COMPILE_PROGRAM_FAILURE),
    C(CL_LINKER_NOT_AVAILABLE),
    C(CL_LINK_PROGRAM_FAILURE),
    C(CL_DEVICE_PARTITION_FAILED),
    C(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
    C(CL_INVALID_VALUE),
    C(CL_INVALID_DEVICE_TYPE),
    C(CL_INVALID_PLATFORM),
    C(CL_INVALID_DEVICE),
    C(CL_INVALID_CONTEXT),
    C(CL_INVALID_QUEUE_PROPERTIES),
    C(CL_INVALID_COMMAND_QUEUE),
    C(CL_INVALID_HOST_PTR),
    C(CL_INVALID_MEM_OBJECT),
    C(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    C(CL_INVALID_IMAGE_SIZE),
    C(CL_INVALID_SAMPLER),
    C(CL_INVALID_BINARY),
    C(CL_INVALID_BUILD_OPTIONS),
    C(CL_INVALID_PROGRAM),
    C(CL_INVALID_PROGRAM_EXECUTABLE),
    C(CL_INVALID_KERNEL_NAME),
    C(CL_INVALID_KERNEL_DEFINITION),
    C(CL_INVALID_KERNEL),
    C(CL_INVALID_ARG_INDEX),
    C(CL_INVALID_ARG_VALUE),
    C(CL_INVALID_ARG_SIZE),
    C(CL_INVALID_KERNEL_ARGS),
    C(CL_INVALID_WORK_DIMENSION),
    C(CL_INVALID_WORK_GROUP_SIZE),
    C(CL_INVALID_WORK_ITEM_SIZE),
    C(CL_INVALID_GLOBAL_OFFSET),
    C(CL_INVALID_EVENT_WAIT_LIST),
    C(CL_INVALID_EVENT),
    C(CL_INVALID_OPERATION),
    C(CL_INVALID_GL_OBJECT),
    C(CL_INVALID_BUFFER_SIZE),
    C(CL_INVALID_MIP_LEVEL),
    C(CL_INVALID_GLOBAL_WORK_SIZE),
    C(CL_INVALID_PROPERTY),
    C(CL_INVALID_IMAGE_DESCRIPTOR),
    C(CL_INVALID_COMPILER_OPTIONS),
    C(CL_INVALID_LINKER_OPTIONS),
    C(CL_INVALID_DEVICE_PARTITION_COUNT),
    C(CL_INVALID_PIPE_SIZE),
    C(CL_INVALID_DEVICE_QUEUE),
    C(CL_INVALID_SPEC_ID),
    C(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
};

static void test_every_core_code_has_its_name(void **state)
{
    assert_int_equal(sizeof core / sizeof core[0], 63); /* 0, -1..-19, -30..-72 */
    for (size_t i = 0; i < sizeof core / sizeof core[0]; ++i) {
        const char *n = ck_cl_error_name(core[i].code);
        if (strcmp(n, core[i].name) != 0)
            fail_msg("code %d: got '%s', expected '%s'", (int)core[i].code, n, core[i].name);
    }
}

static void test_extension_codes_are_named(void **state)
{
    static const cl_int ext[] = {-1000, -1001, -1002, -1003, -1004, -1005, -1006, -1007, -1008, -1009, -1010, -1011,
                                 -1012, -1013, -1057, -1058, -1059, -1092, -1093, -1094, -1095, -1096, -1097, -1098,
                                 -1099, -1100, -1101, -1108, -1121, -1138, -1139, -1140, -1141, -1142};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; ++i) {
        const char *n = ck_cl_error_name(ext[i]);
        if (strncmp(n, "CL_", 3) != 0 || !strcmp(n, "CL_UNKNOWN_ERROR"))
            fail_msg("extension code %d has no name (got '%s')", (int)ext[i], n);
    }
    assert_string_equal(ck_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform installed)");
    assert_string_equal(ck_cl_error_name(-1121), "CL_CONTEXT_TERMINATED_KHR");
}

static void test_unknown_codes_say_so(void **state)
{
    const cl_int odd[] = {-20, -29, -73, -999, -5000, 1, 12345};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; ++i)
        assert_string_equal(ck_cl_error_name(odd[i]), "CL_UNKNOWN_ERROR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_core_code_has_its_name),
        cmocka_unit_test(test_extension_codes_are_named),
        cmocka_unit_test(test_unknown_codes_say_so),
    };
    return cmocka_run_group_tests_name("cl-error-names", tests, NULL, NULL);
}
