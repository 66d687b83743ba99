/* apps/common/graph_read_galois.c: the Galois binary graph (.gr, version 1)
 * reader (see graph.h: app_read_galois). Layout, all little-endian:
 *   u64 version (1), u64 bytes of edge data per edge, u64 nodes, u64 edges,
 *   u64 out-index per node (the END of its edges), u32 destination per edge
 *   (4 bytes of padding when the edge count is odd), edge data per edge. */
#define _POSIX_C_SOURCE 200809L
#include "file_io.h"
#include "graph.h"
#include "graph_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t le64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | b[i];
    return v;
}

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

#define CHUNK 65536 /* elements read at a time */

int app_read_galois(const char *path, app_edges *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    char reason[768];
    FILE *f = ck_file_open_read(path, 1, reason, sizeof reason);
    if (!f)
        return app_graph_fail(err, err_len, "Galois graph: %s", reason);
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        return app_graph_fail(err, err_len, "Galois graph: cannot examine '%s': %s", path, strerror(e));
    }
    uint64_t size = (uint64_t)st.st_size;
    unsigned char hdr[32];
    if (size < sizeof hdr || fread(hdr, 1, sizeof hdr, f) != sizeof hdr) {
        fclose(f);
        return app_graph_fail(err, err_len, "%s: byte %llu: file ends inside the 32-byte Galois header", path,
                              (unsigned long long)size);
    }
    uint64_t version = le64(hdr), esize = le64(hdr + 8), n = le64(hdr + 16), m = le64(hdr + 24);
    const char *why = NULL;
    unsigned long long at = 0;
    if (version != 1)
        why = "version must be 1", at = 0;
    else if (esize != 0 && esize != 4)
        why = "edge data must be 0 or 4 bytes (none, or 32-bit weights)", at = 8;
    else if (n == 0 || n > APP_MAX_NODES)
        why = "node count must be 1..2^30", at = 16;
    else if (m > INT32_MAX)
        why = "edge count must be at most 2^31-1", at = 24;
    if (why) {
        fclose(f);
        return app_graph_fail(err, err_len,
                              "%s: byte %llu: %s (header: version %llu, edge data %llu, nodes %llu, "
                              "edges %llu)",
                              path, at, why, (unsigned long long)version, (unsigned long long)esize,
                              (unsigned long long)n, (unsigned long long)m);
    }
    /* Every count is now small enough that the sizes below fit in 64 bits. */
    uint64_t idx_at = 32, dst_at = idx_at + 8 * n, dst_bytes = 4 * m + (m % 2 ? 4 : 0);
    uint64_t w_at = dst_at + dst_bytes, need = w_at + esize * m;
    if (size != need && !(esize && size == need + (need % 8 ? 8 - need % 8 : 0))) {
        fclose(f);
        return app_graph_fail(err, err_len,
                              "%s: byte %llu: the header's %llu nodes and %llu edges need %llu bytes, "
                              "the file has %llu (%s)",
                              path, (unsigned long long)(size < need ? size : need), (unsigned long long)n,
                              (unsigned long long)m, (unsigned long long)need, (unsigned long long)size,
                              size < need ? "truncated" : "trailing bytes");
    }
    unsigned char *buf = malloc(CHUNK * 8);
    uint64_t *ends = malloc((size_t)n * sizeof *ends);
    int rc = 0;
    if (!buf || !ends || app_edges_reserve(out, (size_t)m)) {
        rc = app_graph_fail(err, err_len, "%s: out of memory for %llu nodes and %llu edges", path,
                            (unsigned long long)n, (unsigned long long)m);
        goto done;
    }
    out->n = (int32_t)n;
    if (esize && !(out->w = malloc((m ? (size_t)m : 1) * sizeof *out->w))) {
        rc = app_graph_fail(err, err_len, "%s: out of memory for %llu weights", path, (unsigned long long)m);
        goto done;
    }
    /* Out-indices: non-decreasing, the last one m. */
    uint64_t prev = 0;
    for (uint64_t i = 0; i < n && !rc; i += CHUNK) {
        size_t k = (size_t)(n - i < CHUNK ? n - i : CHUNK);
        if (fread(buf, 8, k, f) != k) {
            rc = app_graph_fail(err, err_len, "%s: byte %llu: read error in the out-indices", path,
                                (unsigned long long)(idx_at + 8 * i));
            break;
        }
        for (size_t j = 0; j < k; ++j) {
            uint64_t e = le64(buf + 8 * j);
            if (e < prev || e > m) {
                rc = app_graph_fail(err, err_len, "%s: byte %llu: out-index %llu of node %llu is outside %llu..%llu",
                                    path, (unsigned long long)(idx_at + 8 * (i + j)), (unsigned long long)e,
                                    (unsigned long long)(i + j), (unsigned long long)prev, (unsigned long long)m);
                break;
            }
            ends[i + j] = prev = e;
        }
    }
    if (!rc && prev != m)
        rc = app_graph_fail(err, err_len, "%s: byte %llu: the last out-index is %llu, the header says %llu edges",
                            path, (unsigned long long)(dst_at - 8), (unsigned long long)prev, (unsigned long long)m);
    /* Destinations, with their sources from the out-indices. */
    uint64_t node = 0;
    for (uint64_t i = 0; i < m && !rc; i += CHUNK) {
        size_t k = (size_t)(m - i < CHUNK ? m - i : CHUNK);
        if (fread(buf, 4, k, f) != k) {
            rc = app_graph_fail(err, err_len, "%s: byte %llu: read error in the destinations", path,
                                (unsigned long long)(dst_at + 4 * i));
            break;
        }
        for (size_t j = 0; j < k; ++j) {
            uint32_t d = le32(buf + 4 * j);
            if (d >= n) {
                rc = app_graph_fail(err, err_len,
                                    "%s: byte %llu: destination %u of edge %llu is not a node (0..%llu)", path,
                                    (unsigned long long)(dst_at + 4 * (i + j)), d, (unsigned long long)(i + j),
                                    (unsigned long long)n - 1);
                break;
            }
            while (ends[node] <= i + j)
                ++node;
            out->src[i + j] = (int32_t)node;
            out->dst[i + j] = (int32_t)d;
        }
    }
    if (!rc && esize && fseek(f, (long)w_at, SEEK_SET) != 0)
        rc = app_graph_fail(err, err_len, "%s: byte %llu: cannot seek to the edge data", path,
                            (unsigned long long)w_at);
    for (uint64_t i = 0; esize && i < m && !rc; i += CHUNK) {
        size_t k = (size_t)(m - i < CHUNK ? m - i : CHUNK);
        if (fread(buf, 4, k, f) != k) {
            rc = app_graph_fail(err, err_len, "%s: byte %llu: read error in the edge data", path,
                                (unsigned long long)(w_at + 4 * i));
            break;
        }
        for (size_t j = 0; j < k; ++j) {
            int32_t w = (int32_t)le32(buf + 4 * j);
            if (w < 1) {
                rc = app_graph_fail(err, err_len, "%s: byte %llu: weight %d of edge %llu is not 1..2^31-1", path,
                                    (unsigned long long)(w_at + 4 * (i + j)), w, (unsigned long long)(i + j));
                break;
            }
            out->w[i + j] = w;
        }
    }
    if (!rc)
        out->m = (size_t)m;
done:
    free(buf);
    free(ends);
    fclose(f);
    if (rc)
        app_edges_free(out);
    return rc;
}
