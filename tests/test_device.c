/* Unit tests of device selection and of the choice of atomics path: the real
 * PoCL device by name and by forced path, and the path rules on synthetic
 * capability sets (an H100-like device, a device with neither path). */
#define _DEFAULT_SOURCE /* setenv */
#include "device_internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void test_default_device_opens(void **state)
{
    ck_device *dev;
    if (ck_device_open(NULL, &dev) != CK_OK)
        fail_msg("%s", ck_last_error());
    const ck_device_info *in = ck_device_get_info(dev);
    assert_true(in->path == CK_PATH_CL20 || in->path == CK_PATH_CL12);
    assert_true(in->compute_units >= 1);
    ck_device_close(dev);
}

static void test_both_paths_can_be_forced_on_pocl(void **state)
{
    const ck_path paths[2] = {CK_PATH_CL20, CK_PATH_CL12};
    for (int i = 0; i < 2; ++i) {
        ck_device_options o = {.device = "portable computing", .path = paths[i]};
        ck_device *dev;
        if (ck_device_open(&o, &dev) != CK_OK)
            fail_msg("%s", ck_last_error());
        assert_int_equal(ck_device_get_info(dev)->path, paths[i]);
        assert_int_equal(ck_device_get_info(dev)->transport,
                         paths[i] == CK_PATH_CL20 ? CK_TRANSPORT_SVM : CK_TRANSPORT_PINNED);
        assert_string_equal(ck_device_get_info(dev)->opencl_c_std, paths[i] == CK_PATH_CL20 ? "CL3.0" : "CL1.2");
        ck_device_close(dev);
    }
}

static void test_path_from_environment(void **state)
{
    setenv("CK_PATH", "cl12", 1);
    ck_device *dev;
    assert_int_equal(ck_device_open(NULL, &dev), CK_OK);
    assert_int_equal(ck_device_get_info(dev)->path, CK_PATH_CL12);
    ck_device_close(dev);
    setenv("CK_PATH", "sideways", 1);
    assert_int_equal(ck_device_open(NULL, &dev), CK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ck_last_error(), "CK_PATH"));
    assert_non_null(strstr(ck_last_error(), "sideways"));
    unsetenv("CK_PATH");
}

static void test_unknown_device_name_lists_devices(void **state)
{
    ck_device_options o = {.device = "no-such-gpu-9000"};
    ck_device *dev = (ck_device *)&o;
    assert_int_equal(ck_device_open(&o, &dev), CK_ERR_NO_DEVICE);
    assert_null(dev);
    const char *m = ck_last_error();
    assert_non_null(strstr(m, "no-such-gpu-9000"));
    assert_non_null(strstr(m, "Portable Computing Language"));
    assert_non_null(strstr(m, "CK_DEVICE"));
    assert_null(strchr(m, '\n')); /* one line */
    setenv("CK_DEVICE", "also-missing", 1);
    assert_int_equal(ck_device_open(NULL, &dev), CK_ERR_NO_DEVICE);
    assert_non_null(strstr(ck_last_error(), "also-missing"));
    unsetenv("CK_DEVICE");
}

static ck_device_info h100_like(void)
{
    ck_device_info in;
    memset(&in, 0, sizeof in);
    strcpy(in.device_name, "NVIDIA H100 80GB HBM3");
    in.is_gpu = 1;
    in.svm_coarse_buffer = 1;
    in.nv_create_buffer = 1;
    return in;
}

static void test_h100_like_device_gets_cl12(void **state)
{
    ck_device_info in = h100_like();
    ck_device_evaluate_paths(&in);
    assert_false(in.path_cl20_ok);
    assert_true(in.path_cl12_ok);
    assert_non_null(strstr(in.path_cl20_missing, "fine-grain buffer SVM"));
    assert_non_null(strstr(in.path_cl20_missing, "SVM atomics"));
    assert_int_equal(ck_device_choose_path(&in, CK_PATH_AUTO), CK_OK);
    assert_int_equal(in.path, CK_PATH_CL12);
    assert_int_equal(in.transport, CK_TRANSPORT_PINNED);
    assert_int_equal(ck_device_choose_path(&in, CK_PATH_CL20), CK_ERR_NO_PATH);
    assert_non_null(strstr(ck_last_error(), "cl12"));
}

static void test_device_with_no_path_says_what_is_missing(void **state)
{
    ck_device_info in = h100_like();
    in.nv_create_buffer = 0;
    ck_device_evaluate_paths(&in);
    assert_false(in.path_cl20_ok);
    assert_false(in.path_cl12_ok);
    assert_int_equal(ck_device_choose_path(&in, CK_PATH_AUTO), CK_ERR_NO_PATH);
    const char *m = ck_last_error();
    assert_non_null(strstr(m, "no usable path"));
    assert_non_null(strstr(m, "SVM atomics"));
    assert_non_null(strstr(m, "cl_nv_create_buffer"));
    assert_null(strchr(m, '\n'));
}

static void test_svm_device_prefers_cl20(void **state)
{
    ck_device_info in = h100_like();
    in.svm_fine_buffer = in.svm_atomics = in.c11_atomics = 1;
    ck_device_evaluate_paths(&in);
    assert_int_equal(ck_device_choose_path(&in, CK_PATH_AUTO), CK_OK);
    assert_int_equal(in.path, CK_PATH_CL20);
    assert_int_equal(in.transport, CK_TRANSPORT_SVM);
}

static void test_path_names_parse(void **state)
{
    ck_path p;
    assert_int_equal(ck_path_parse("2.0", &p), CK_OK);
    assert_int_equal(p, CK_PATH_CL20);
    assert_int_equal(ck_path_parse("CL12", &p), CK_OK);
    assert_int_equal(p, CK_PATH_CL12);
    assert_int_equal(ck_path_parse("auto", &p), CK_OK);
    assert_int_equal(p, CK_PATH_AUTO);
    assert_int_equal(ck_path_parse("cl30", &p), CK_ERR_INVALID_ARGUMENT);
    assert_string_equal(ck_path_name(CK_PATH_CL12), "cl12");
}

int main(void)
{
    unsetenv("CK_DEVICE");
    unsetenv("CK_PATH");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_device_opens),
        cmocka_unit_test(test_both_paths_can_be_forced_on_pocl),
        cmocka_unit_test(test_path_from_environment),
        cmocka_unit_test(test_unknown_device_name_lists_devices),
        cmocka_unit_test(test_h100_like_device_gets_cl12),
        cmocka_unit_test(test_device_with_no_path_says_what_is_missing),
        cmocka_unit_test(test_svm_device_prefers_cl20),
        cmocka_unit_test(test_path_names_parse),
    };
    return cmocka_run_group_tests_name("device", tests, NULL, NULL);
}
