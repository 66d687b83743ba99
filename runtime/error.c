/* Thread-local last-error message, status names, OpenCL error names. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[16384]; /* a build lists up to 20 errors */

const char *ck_last_error(void) { return last_error; }

ck_status ck_fail(ck_status s, const char *fmt, ...)
{
    char tmp[sizeof last_error]; /* the arguments may point into last_error */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    memcpy(last_error, tmp, sizeof last_error);
    return s;
}

const char *ck_status_name(ck_status s)
{
    switch (s) {
    case CK_OK: return "CK_OK";
    case CK_ERR_INVALID_ARGUMENT: return "CK_ERR_INVALID_ARGUMENT";
    case CK_ERR_NO_DEVICE: return "CK_ERR_NO_DEVICE";
    case CK_ERR_NO_PATH: return "CK_ERR_NO_PATH";
    case CK_ERR_OPENCL: return "CK_ERR_OPENCL";
    case CK_ERR_BUILD: return "CK_ERR_BUILD";
    case CK_ERR_TIMEOUT: return "CK_ERR_TIMEOUT";
    case CK_ERR_NO_MEMORY: return "CK_ERR_NO_MEMORY";
    case CK_ERR_CHECK_FAILED: return "CK_ERR_CHECK_FAILED";
    }
    return "CK_ERR_UNKNOWN";
}

/* Every error code of CL/cl.h (OpenCL 3.0), then the extension codes of the
 * Khronos headers (cl_ext.h, cl_gl.h, cl_egl.h, the D3D/DX9/VA-API sharing
 * headers). Extension codes are written as numbers: their headers are not all
 * usable on every system. Where two extensions share a code (-1010..-1013,
 * KHR and INTEL media sharing), the KHR name is given. */
const char *ck_cl_error_name(cl_int err)
{
    /* clang-format would read the macro's case labels as one statement: the switch stays as written. */
    /* clang-format off */
    switch (err) {
#define N(x) case x: return #x;
    N(CL_SUCCESS)
    N(CL_DEVICE_NOT_FOUND)
    N(CL_DEVICE_NOT_AVAILABLE)
    N(CL_COMPILER_NOT_AVAILABLE)
    N(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    N(CL_OUT_OF_RESOURCES)
    N(CL_OUT_OF_HOST_MEMORY)
    N(CL_PROFILING_INFO_NOT_AVAILABLE)
    N(CL_MEM_COPY_OVERLAP)
    N(CL_IMAGE_FORMAT_MISMATCH)
    N(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    N(CL_BUILD_PROGRAM_FAILURE)
    N(CL_MAP_FAILURE)
    N(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    N(CL_COMPILE_PROGRAM_FAILURE)
    N(CL_LINKER_NOT_AVAILABLE)
    N(CL_LINK_PROGRAM_FAILURE)
    N(CL_DEVICE_PARTITION_FAILED)
    N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    N(CL_INVALID_VALUE)
    N(CL_INVALID_DEVICE_TYPE)
    N(CL_INVALID_PLATFORM)
    N(CL_INVALID_DEVICE)
    N(CL_INVALID_CONTEXT)
    N(CL_INVALID_QUEUE_PROPERTIES)
    N(CL_INVALID_COMMAND_QUEUE)
    N(CL_INVALID_HOST_PTR)
    N(CL_INVALID_MEM_OBJECT)
    N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    N(CL_INVALID_IMAGE_SIZE)
    N(CL_INVALID_SAMPLER)
    N(CL_INVALID_BINARY)
    N(CL_INVALID_BUILD_OPTIONS)
    N(CL_INVALID_PROGRAM)
    N(CL_INVALID_PROGRAM_EXECUTABLE)
    N(CL_INVALID_KERNEL_NAME)
    N(CL_INVALID_KERNEL_DEFINITION)
    N(CL_INVALID_KERNEL)
    N(CL_INVALID_ARG_INDEX)
    N(CL_INVALID_ARG_VALUE)
    N(CL_INVALID_ARG_SIZE)
    N(CL_INVALID_KERNEL_ARGS)
    N(CL_INVALID_WORK_DIMENSION)
    N(CL_INVALID_WORK_GROUP_SIZE)
    N(CL_INVALID_WORK_ITEM_SIZE)
    N(CL_INVALID_GLOBAL_OFFSET)
    N(CL_INVALID_EVENT_WAIT_LIST)
    N(CL_INVALID_EVENT)
    N(CL_INVALID_OPERATION)
    N(CL_INVALID_GL_OBJECT)
    N(CL_INVALID_BUFFER_SIZE)
    N(CL_INVALID_MIP_LEVEL)
    N(CL_INVALID_GLOBAL_WORK_SIZE)
    N(CL_INVALID_PROPERTY)
    N(CL_INVALID_IMAGE_DESCRIPTOR)
    N(CL_INVALID_COMPILER_OPTIONS)
    N(CL_INVALID_LINKER_OPTIONS)
    N(CL_INVALID_DEVICE_PARTITION_COUNT)
    N(CL_INVALID_PIPE_SIZE)
    N(CL_INVALID_DEVICE_QUEUE)
    N(CL_INVALID_SPEC_ID)
    N(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef N
    case -1000: return "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform installed)";
    case -1002: return "CL_INVALID_D3D10_DEVICE_KHR";
    case -1003: return "CL_INVALID_D3D10_RESOURCE_KHR";
    case -1004: return "CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR";
    case -1005: return "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR";
    case -1006: return "CL_INVALID_D3D11_DEVICE_KHR";
    case -1007: return "CL_INVALID_D3D11_RESOURCE_KHR";
    case -1008: return "CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR";
    case -1009: return "CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR";
    case -1010: return "CL_INVALID_DX9_MEDIA_ADAPTER_KHR";
    case -1011: return "CL_INVALID_DX9_MEDIA_SURFACE_KHR";
    case -1012: return "CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR";
    case -1013: return "CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR";
    case -1057: return "CL_DEVICE_PARTITION_FAILED_EXT";
    case -1058: return "CL_INVALID_PARTITION_COUNT_EXT";
    case -1059: return "CL_INVALID_PARTITION_NAME_EXT";
    case -1092: return "CL_EGL_RESOURCE_NOT_ACQUIRED_KHR";
    case -1093: return "CL_INVALID_EGL_OBJECT_KHR";
    case -1094: return "CL_INVALID_ACCELERATOR_INTEL";
    case -1095: return "CL_INVALID_ACCELERATOR_TYPE_INTEL";
    case -1096: return "CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL";
    case -1097: return "CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL";
    case -1098: return "CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL";
    case -1099: return "CL_INVALID_VA_API_MEDIA_SURFACE_INTEL";
    case -1100: return "CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL";
    case -1101: return "CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL";
    case -1108: return "CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM";
    case -1121: return "CL_CONTEXT_TERMINATED_KHR";
    case -1138: return "CL_INVALID_COMMAND_BUFFER_KHR";
    case -1139: return "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR";
    case -1140: return "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR";
    case -1141: return "CL_INVALID_MUTABLE_COMMAND_KHR";
    case -1142: return "CL_INVALID_SEMAPHORE_KHR";
    default: break;
    }
    /* clang-format on */
    return "CL_UNKNOWN_ERROR";
}

ck_status ck_fail_cl(cl_int err, const char *what, const char *hint)
{
    return ck_fail(CK_ERR_OPENCL, "%s failed: %s (%d).%s%s", what, ck_cl_error_name(err), (int)err,
                   hint && *hint ? " " : "", hint ? hint : "");
}
