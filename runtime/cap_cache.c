/* The register cap's decisions kept between processes (see cap_cache.h).
 * An entry is twelve lines of text, "name value" each, in a fixed order
 * after a first line naming the format; a reader takes only that exact
 * shape, so a file of another format or version is ignored, never half
 * read. */
#include "cap_cache.h"
#include "file_io.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define FORMAT_LINE "coopkernels register-cap cache 1"
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

/* Copies s into dst (n bytes), cut to fit, newlines made blanks so that
 * every field stays on its line. */
static void copy_field(char *dst, size_t n, const char *s)
{
    snprintf(dst, n, "%s", s ? s : "");
    for (char *c = dst; *c; ++c)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
}

void ck_cap_cache_key_init(ck_cap_cache_key *key, const char *device, const char *driver, const char *const *parts,
                           unsigned n_parts, const char *options, size_t group_size)
{
    memset(key, 0, sizeof *key);
    copy_field(key->device, sizeof key->device, device);
    copy_field(key->driver, sizeof key->driver, driver);
    copy_field(key->options, sizeof key->options, options);
    uint64_t h = FNV_OFFSET, bytes = 0;
    for (unsigned i = 0; i < n_parts; ++i) {
        const char *p = parts[i] ? parts[i] : "";
        size_t len = strlen(p);
        h = fnv_bytes(h, p, len);
        bytes += len;
    }
    key->source_hash = h;
    key->source_bytes = bytes;
    key->group_size = group_size;
}

const char *ck_cap_cache_dir(char *buf, size_t n)
{
    const char *off = getenv("CK_CAP_CACHE");
    if (off && (!strcasecmp(off, "off") || !strcmp(off, "0")))
        return NULL;
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int len;
    /* The XDG base directory rule: a relative XDG_CACHE_HOME is ignored. */
    if (xdg && xdg[0] == '/')
        len = snprintf(buf, n, "%s/coopkernels", xdg);
    else if (home && *home)
        len = snprintf(buf, n, "%s/.cache/coopkernels", home);
    else
        return NULL;
    return len > 0 && (size_t)len < n ? buf : NULL;
}

static uint64_t key_hash(const ck_cap_cache_key *key)
{
    uint64_t h = FNV_OFFSET;
    h = fnv_bytes(h, key->device, strlen(key->device) + 1);
    h = fnv_bytes(h, key->driver, strlen(key->driver) + 1);
    h = fnv_bytes(h, &key->source_hash, sizeof key->source_hash);
    h = fnv_bytes(h, &key->source_bytes, sizeof key->source_bytes);
    h = fnv_bytes(h, key->options, strlen(key->options) + 1);
    return fnv_bytes(h, &key->group_size, sizeof key->group_size);
}

int ck_cap_cache_path(const char *dir, const ck_cap_cache_key *key, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s/cap-%016" PRIx64 ".txt", dir, key_hash(key));
    return len > 0 && (size_t)len < n ? 0 : -1;
}

/* The next line of r, which must be "name value": the value, or NULL. */
static const char *field(ck_line_reader *r, const char *name)
{
    if (ck_line_next(r) < 0)
        return NULL;
    size_t len = strlen(name);
    if (strncmp(r->line, name, len) != 0 || r->line[len] != ' ')
        return NULL;
    return r->line + len + 1;
}

static int field_u64(ck_line_reader *r, const char *name, uint64_t hi, uint64_t *out)
{
    const char *v = field(r, name);
    return v && ck_parse_u64(v, 0, hi, out, NULL, 0) == 0 ? 0 : -1;
}

static int field_unsigned(ck_line_reader *r, const char *name, unsigned *out)
{
    uint64_t v;
    if (field_u64(r, name, 0xffffffffu, &v) != 0)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* Reads an entry's key and decision from r; "" or the first field that
 * differs from `want` in *mismatch. -1 if the file is not an entry. */
static int read_entry(ck_line_reader *r, const ck_cap_cache_key *want, ck_cap_cache_entry *e, const char **mismatch)
{
    ck_cap_cache_key k;
    memset(&k, 0, sizeof k);
    const char *v;
    if (ck_line_next(r) < 0 || strcmp(r->line, FORMAT_LINE) != 0)
        return -1;
    if (!(v = field(r, "device")))
        return -1;
    copy_field(k.device, sizeof k.device, v);
    if (!(v = field(r, "driver")))
        return -1;
    copy_field(k.driver, sizeof k.driver, v);
    if (field_u64(r, "source-hash", UINT64_MAX, &k.source_hash) != 0 ||
        field_u64(r, "source-bytes", UINT64_MAX, &k.source_bytes) != 0 || !(v = field(r, "options")))
        return -1;
    copy_field(k.options, sizeof k.options, v);
    if (field_u64(r, "group-size", UINT64_MAX, &k.group_size) != 0 || field_unsigned(r, "cap", &e->cap) != 0 ||
        field_unsigned(r, "registers", &e->registers) != 0 || field_unsigned(r, "stack", &e->stack_bytes) != 0 ||
        field_unsigned(r, "spill", &e->spill_bytes) != 0 ||
        field_unsigned(r, "full-occupancy-registers", &e->full_occupancy_registers) != 0 || !(v = field(r, "note")))
        return -1;
    copy_field(e->note, sizeof e->note, v);
    if (ck_line_next(r) >= 0 || r->error || e->cap > 255u)
        return -1; /* more lines than an entry has, or a read error */
    *mismatch = strcmp(k.device, want->device)                                               ? "device"
                : strcmp(k.driver, want->driver)                                             ? "driver"
                : k.source_hash != want->source_hash || k.source_bytes != want->source_bytes ? "megakernel source"
                : strcmp(k.options, want->options)                                           ? "build options"
                : k.group_size != want->group_size                                           ? "work-group size"
                                                                                             : "";
    return 0;
}

ck_cap_cache_result ck_cap_cache_load(const char *dir, const ck_cap_cache_key *key, ck_cap_cache_entry *entry,
                                      char *warn, size_t warn_len)
{
    char path[4096], err[512];
    memset(entry, 0, sizeof *entry);
    if (ck_cap_cache_path(dir, key, path, sizeof path) != 0) {
        snprintf(warn, warn_len, "the register cap's cache folder '%s' is too long a path: not used", dir);
        return CK_CAP_CACHE_IGNORED;
    }
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return CK_CAP_CACHE_MISS;
    FILE *f = ck_file_open_read(path, 0, err, sizeof err);
    if (!f) {
        snprintf(warn, warn_len, "the register cap's cache entry is unusable (%s): ignored", err);
        return CK_CAP_CACHE_IGNORED;
    }
    ck_line_reader r;
    ck_line_reader_init(&r, f);
    const char *mismatch = "";
    int bad = read_entry(&r, key, entry, &mismatch);
    ck_line_reader_free(&r);
    fclose(f);
    if (bad) {
        memset(entry, 0, sizeof *entry);
        snprintf(warn, warn_len,
                 "the register cap's cache entry '%s' is not an entry of this library's format: ignored", path);
        return CK_CAP_CACHE_IGNORED;
    }
    if (*mismatch) {
        memset(entry, 0, sizeof *entry);
        snprintf(warn, warn_len, "the register cap's cache entry '%s' was written for another %s: ignored", path,
                 mismatch);
        return CK_CAP_CACHE_IGNORED;
    }
    return CK_CAP_CACHE_HIT;
}

/* mkdir for the folder and, if missing, its parent (e.g. ~/.cache). */
static int make_dir(const char *dir, char *warn, size_t warn_len)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        snprintf(warn, warn_len, "the register cap's cache folder '%s' is not a folder: the decision is not kept",
                 dir);
        return -1;
    }
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        if (stat(parent, &st) != 0 && mkdir(parent, 0700) != 0 && errno != EEXIST) {
            snprintf(warn, warn_len, "cannot make the folder '%s' for the register cap's cache: %s", parent,
                     strerror(errno));
            return -1;
        }
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(warn, warn_len, "cannot make the register cap's cache folder '%s': %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

int ck_cap_cache_store(const char *dir, const ck_cap_cache_key *key, const ck_cap_cache_entry *entry, char *warn,
                       size_t warn_len)
{
    char path[4096], err[512], note[sizeof entry->note];
    if (ck_cap_cache_path(dir, key, path, sizeof path) != 0) {
        snprintf(warn, warn_len, "the register cap's cache folder '%s' is too long a path: the decision is not kept",
                 dir);
        return -1;
    }
    if (make_dir(dir, warn, warn_len) != 0)
        return -1;
    ck_file_writer w;
    if (ck_file_writer_open(&w, path, 0, err, sizeof err) != 0) {
        snprintf(warn, warn_len, "the register cap's decision is not kept: %s", err);
        return -1;
    }
    copy_field(note, sizeof note, entry->note);
    fprintf(w.f,
            FORMAT_LINE "\ndevice %s\ndriver %s\nsource-hash 0x%016" PRIx64 "\nsource-bytes %" PRIu64
                        "\noptions %s\ngroup-size %" PRIu64
                        "\ncap %u\nregisters %u\nstack %u\nspill %u\nfull-occupancy-registers %u\nnote %s\n",
            key->device, key->driver, key->source_hash, key->source_bytes, key->options, key->group_size, entry->cap,
            entry->registers, entry->stack_bytes, entry->spill_bytes, entry->full_occupancy_registers, note);
    if (ck_file_writer_commit(&w, err, sizeof err) != 0) {
        snprintf(warn, warn_len, "the register cap's decision is not kept: %s", err);
        return -1;
    }
    return 0;
}
