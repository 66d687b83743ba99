/* runtime/context_build.h: what shutdown needs of the build
 * (context_build.c); ck_context_build itself is ck.h's. */
#ifndef CK_RUNTIME_CONTEXT_BUILD_H
#define CK_RUNTIME_CONTEXT_BUILD_H

#include "context_state.h"

/* The megakernel has ended: it no longer keeps other contexts' releases
 * parked (ck_device_note_megakernel). Once per megakernel; nothing when it
 * was not counted. */
void ck_megakernel_gone(ck_context *ctx);

#endif
