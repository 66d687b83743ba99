/* The register cap's decisions kept between processes: the cap that
 * CK_REGISTER_CAP_AUTO chose for one megakernel source on one device and
 * driver, so that a later build of the same megakernel (another process,
 * another day) builds once at that cap instead of compiling every capped
 * try again. One small text file per decision under
 * $XDG_CACHE_HOME/coopkernels/ (~/.cache/coopkernels/ without it), as PoCL
 * and CUDA keep their compute caches; CK_CAP_CACHE=off (or 0) turns it off.
 * An entry is used only when every field of its key matches the build's:
 * the device's name, the driver's version, the source's hash and length,
 * the build options and the work-group size. Anything else in the file (a
 * foreign driver, garbage, a truncated write, a path that is no regular
 * file) is ignored with a warning and replaced by the next decision.
 * Writes go through a temporary file and a rename: a reader never sees
 * half an entry. */
#ifndef CK_RUNTIME_CAP_CACHE_H
#define CK_RUNTIME_CAP_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* What an entry is for. The source is kept as its 64-bit FNV-1a hash and
 * its length (the megakernel's source is a few hundred kilobytes: a
 * copy per entry would be waste, and the other fields are compared whole). */
typedef struct {
    char device[128];
    char driver[128];
    uint64_t source_hash;
    uint64_t source_bytes;
    char options[512];
    uint64_t group_size;
} ck_cap_cache_key;

/* The decision: the cap built with (0: none) and what the compiler
 * reported for that build, with the note the deciding build wrote. */
typedef struct {
    unsigned cap;
    unsigned registers;
    unsigned stack_bytes;
    unsigned spill_bytes;
    unsigned full_occupancy_registers;
    char note[192]; /* as long as ck_megakernel_resources' note */
} ck_cap_cache_entry;

/* Fills *key from the device's name and driver version, the source parts
 * (hashed in order, as if joined; a NULL part counts as "") and the build
 * options; strings longer than the key's fields are cut. Pure. */
void ck_cap_cache_key_init(ck_cap_cache_key *key, const char *device, const char *driver, const char *const *parts,
                           unsigned n_parts, const char *options, size_t group_size);

/* The cache's folder: NULL when the environment turns the cache off
 * (CK_CAP_CACHE is "off" or "0") or names no home (neither
 * XDG_CACHE_HOME, absolute, nor HOME is set); else
 * $XDG_CACHE_HOME/coopkernels or $HOME/.cache/coopkernels in buf. */
const char *ck_cap_cache_dir(char *buf, size_t n);

/* The file of key's entry in `dir`: dir/cap-<16 hex digits>.txt, the
 * digits a hash of every field of the key. 0, or -1 if buf is too small. */
int ck_cap_cache_path(const char *dir, const ck_cap_cache_key *key, char *buf, size_t n);

typedef enum {
    CK_CAP_CACHE_MISS,    /* no entry for this key */
    CK_CAP_CACHE_HIT,     /* *entry is the decision for this key */
    CK_CAP_CACHE_IGNORED, /* a file is there but unusable: warn[] says why */
} ck_cap_cache_result;

/* Reads key's entry from `dir`. IGNORED comes with a one-line reason in
 * warn (naming the file: unreadable, not a regular file, not an entry of
 * this format, written for another device, driver, source, options or
 * group size). Never fails otherwise. */
ck_cap_cache_result ck_cap_cache_load(const char *dir, const ck_cap_cache_key *key, ck_cap_cache_entry *entry,
                                      char *warn, size_t warn_len);

/* Writes key's entry into `dir`, making the folder (and a missing parent)
 * with mode 0700 first. 0, or -1 with a one-line reason in warn (a folder
 * that cannot be made or written, a full disk). */
int ck_cap_cache_store(const char *dir, const ck_cap_cache_key *key, const ck_cap_cache_entry *entry, char *warn,
                       size_t warn_len);

#endif
