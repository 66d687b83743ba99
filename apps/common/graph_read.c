/* apps/common/graph_read.c: picks a graph file's format from its name (and
 * for .gr from its first bytes) and calls that reader (see graph.h:
 * app_graph_format_of, app_read_graph). */
#include "file_io.h"
#include "graph.h"
#include "graph_text.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a > b && !strcasecmp(s + a - b, tail);
}

app_graph_format app_graph_format_of(const char *path)
{
    if (ends_with(path, ".gr"))
        return APP_FMT_DIMACS;
    if (ends_with(path, ".graph") || ends_with(path, ".metis"))
        return APP_FMT_METIS;
    if (ends_with(path, ".mtx"))
        return APP_FMT_MTX;
    return APP_FMT_EDGES;
}

static const char *const names[] = {"edges", "dimacs", "galois", "metis", "mtx"};

const char *app_graph_format_name(app_graph_format f)
{
    return (unsigned)f < sizeof names / sizeof *names ? names[f] : "?";
}

int app_graph_format_parse(const char *name, app_graph_format *f)
{
    for (unsigned i = 0; i < sizeof names / sizeof *names; ++i)
        if (!strcmp(name, names[i])) {
            *f = (app_graph_format)i;
            return 0;
        }
    return -1;
}

/* A .gr file is Galois binary when it starts with the 8-byte little-endian
 * version 1 (or 2, which the Galois reader then refuses by name). A path
 * that is no regular file is not opened here: the DIMACS reader refuses it
 * with the reason. */
static int looks_galois(const char *path)
{
    FILE *f = ck_file_open_read(path, 1, NULL, 0);
    if (!f)
        return 0;
    unsigned char b[8];
    size_t got = fread(b, 1, sizeof b, f);
    fclose(f);
    if (got != sizeof b || (b[0] != 1 && b[0] != 2))
        return 0;
    for (int i = 1; i < 8; ++i)
        if (b[i])
            return 0;
    return 1;
}

int app_read_graph(const char *path, app_edges *out, char *err, size_t err_len)
{
    switch (app_graph_format_of(path)) {
    case APP_FMT_DIMACS:
    case APP_FMT_GALOIS:
        if (looks_galois(path))
            return app_read_galois(path, out, err, err_len);
        return app_read_dimacs(path, out, err, err_len);
    case APP_FMT_METIS: return app_read_metis(path, out, err, err_len);
    case APP_FMT_MTX: return app_read_mtx(path, out, err, err_len);
    default: return app_read_edge_list(path, out, err, err_len);
    }
}
