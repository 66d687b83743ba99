/* Internal error reporting: the thread-local last-error message behind
 * ck_last_error(), and turning OpenCL status codes into messages. */
#ifndef CK_RUNTIME_ERROR_H
#define CK_RUNTIME_ERROR_H

#include "ck.h"
#include <CL/cl.h>

/* Records a formatted message for the calling thread and returns s. */
ck_status ck_fail(ck_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records "<what> failed: <CL_ERROR_NAME> (<code>). <hint>" and returns CK_ERR_OPENCL. */
ck_status ck_fail_cl(cl_int err, const char *what, const char *hint);
/* Name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES". */
const char *ck_cl_error_name(cl_int err);

/* Evaluates an OpenCL call returning cl_int; on error records and returns. */
#define CK_CL_TRY(call, what, hint)                                                                                 \
    do {                                                                                                            \
        cl_int ck_try_err_ = (call);                                                                                \
        if (ck_try_err_ != CL_SUCCESS)                                                                              \
            return ck_fail_cl(ck_try_err_, (what), (hint));                                                         \
    } while (0)

#endif
