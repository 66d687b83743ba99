/* The device sources embedded into the library at build time
 * (megakernel/embed_sources.c writes the table). */
#ifndef CK_RUNTIME_DEVICE_SOURCES_H
#define CK_RUNTIME_DEVICE_SOURCES_H

typedef struct {
    const char *name; /* base file name, e.g. "ck_atomics.h" */
    const char *text;
} ck_embedded_source;

/* Terminated by an entry whose name is NULL. */
extern const ck_embedded_source ck_embedded_sources[];

/* The megakernel's source order (megakernel/megakernel.order): base names
 * of embedded files and the placeholders "@foundation" (the files of
 * ck_program_foundation) and "@stitched" (the stitched user code);
 * terminated by NULL. */
extern const char *const ck_megakernel_order[];

/* Text of the named embedded file, or NULL. */
const char *ck_embedded_source_text(const char *name);

#endif
