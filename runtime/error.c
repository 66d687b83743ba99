/* Thread-local last-error message, status names, OpenCL error names. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[4096];

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

const char *ck_cl_error_name(cl_int err)
{
    switch (err) {
#define N(x) case x: return #x;
    N(CL_SUCCESS) N(CL_DEVICE_NOT_FOUND) N(CL_DEVICE_NOT_AVAILABLE)
    N(CL_COMPILER_NOT_AVAILABLE) N(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    N(CL_OUT_OF_RESOURCES) N(CL_OUT_OF_HOST_MEMORY) N(CL_PROFILING_INFO_NOT_AVAILABLE)
    N(CL_MEM_COPY_OVERLAP) N(CL_BUILD_PROGRAM_FAILURE) N(CL_MAP_FAILURE)
    N(CL_MISALIGNED_SUB_BUFFER_OFFSET) N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    N(CL_COMPILE_PROGRAM_FAILURE) N(CL_LINK_PROGRAM_FAILURE) N(CL_INVALID_VALUE)
    N(CL_INVALID_DEVICE_TYPE) N(CL_INVALID_PLATFORM) N(CL_INVALID_DEVICE)
    N(CL_INVALID_CONTEXT) N(CL_INVALID_QUEUE_PROPERTIES) N(CL_INVALID_COMMAND_QUEUE)
    N(CL_INVALID_HOST_PTR) N(CL_INVALID_MEM_OBJECT) N(CL_INVALID_BUFFER_SIZE)
    N(CL_INVALID_BUILD_OPTIONS) N(CL_INVALID_PROGRAM) N(CL_INVALID_PROGRAM_EXECUTABLE)
    N(CL_INVALID_KERNEL_NAME) N(CL_INVALID_KERNEL_DEFINITION) N(CL_INVALID_KERNEL)
    N(CL_INVALID_ARG_INDEX) N(CL_INVALID_ARG_VALUE) N(CL_INVALID_ARG_SIZE)
    N(CL_INVALID_KERNEL_ARGS) N(CL_INVALID_WORK_DIMENSION) N(CL_INVALID_WORK_GROUP_SIZE)
    N(CL_INVALID_WORK_ITEM_SIZE) N(CL_INVALID_GLOBAL_OFFSET) N(CL_INVALID_EVENT_WAIT_LIST)
    N(CL_INVALID_EVENT) N(CL_INVALID_OPERATION)
    N(CL_INVALID_GLOBAL_WORK_SIZE) N(CL_INVALID_PROPERTY) case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform installed)";
#undef N
    }
    return "CL_UNKNOWN_ERROR";
}

ck_status ck_fail_cl(cl_int err, const char *what, const char *hint)
{
    return ck_fail(CK_ERR_OPENCL, "%s failed: %s (%d).%s%s", what, ck_cl_error_name(err), (int)err,
                   hint && *hint ? " " : "", hint ? hint : "");
}
