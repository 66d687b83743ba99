/* runtime/version.c: the library's run-time version (ck_version). meson.build
 * passes its project version in; the build stops if include/ck.h's version
 * macros say something else, so the two cannot drift apart. */
#include "ck.h"

#if !defined(CK_BUILD_MAJOR) || !defined(CK_BUILD_MINOR) || !defined(CK_BUILD_PATCH)
#error "CK_BUILD_MAJOR/MINOR/PATCH must be set by the build (runtime/meson.build)"
#endif
#if CK_BUILD_MAJOR != CK_VERSION_MAJOR || CK_BUILD_MINOR != CK_VERSION_MINOR || CK_BUILD_PATCH != CK_VERSION_PATCH
#error "include/ck.h's CK_VERSION_* macros differ from meson.build's project version"
#endif

const char *ck_version(void) { return CK_VERSION_STRING; }
