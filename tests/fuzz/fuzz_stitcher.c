/* fuzz_stitcher.c: the stitcher's fuzz target, LLVMFuzzerTestOneInput. An
 * input is a header line naming the cooperative kernels (comma-separated,
 * up to FUZZ_MAX_COOP names, the rest of the line ignored) followed by the
 * OpenCL C source, which ends at the input's end or its first NUL byte. The
 * target stitches it twice, without and with transmit inference, and checks
 * what the API promises: on success a source and kernels that
 * ck_stitch_find_kernel finds, and, where inference transmitted variables,
 * an annotated source that stitches without inference; on failure a zeroed
 * result and a non-empty message with "error:". A broken promise aborts, and so a
 * fuzzer reports it like a crash. Built by libFuzzer (clang) and by
 * fuzz_driver.c (any compiler). */
#include "stitcher.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_COOP 8
#define FUZZ_MAX_NAME 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_stitcher: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* Parses the header line data[0..len) into names (stored in buf). */
static size_t parse_names(const uint8_t *data, size_t len, char buf[][FUZZ_MAX_NAME], const char **names)
{
    size_t n = 0, at = 0;
    for (size_t i = 0; i <= len && n < FUZZ_MAX_COOP; ++i) {
        if (i == len || data[i] == ',') {
            if (at > 0) {
                buf[n][at] = 0;
                names[n] = buf[n];
                ++n;
            }
            at = 0;
        } else if (at + 1 < FUZZ_MAX_NAME && data[i] != ' ' && data[i] != '\r') {
            buf[n][at++] = (char)data[i];
        }
    }
    return n;
}

/* One stitch of src, with transmit inference or without: a success has a
 * complete result, and with inference its annotated source stitches without
 * inference; a failure a zeroed result and an error message. */
static void stitch_once(char *src, const char *const *names, size_t n_names, int infer)
{
    ck_stitch_input in = {.source = src,
                          .file_name = "fuzz.cl",
                          .cooperative = names,
                          .n_cooperative = n_names,
                          .infer_transmit = infer};
    ck_stitch_result r;
    static char err[16384];
    err[0] = 0;
    if (ck_stitch(&in, &r, err, sizeof err) == 0) {
        if (!r.source)
            broken("success without a source", NULL);
        for (size_t k = 0; k < r.n_kernels; ++k) {
            if (!r.kernels[k].name)
                broken("a kernel without a name", NULL);
            int at = ck_stitch_find_kernel(&r, r.kernels[k].name);
            if (at < 0 || strcmp(r.kernels[at].name, r.kernels[k].name) != 0)
                broken("ck_stitch_find_kernel misses a stitched kernel", r.kernels[k].name);
            for (size_t p = 0; p < r.kernels[k].n_params; ++p)
                if (!r.kernels[k].params[p].name || !r.kernels[k].params[p].type)
                    broken("a parameter without a name or type", r.kernels[k].name);
        }
        int unplaced = r.warnings && strstr(r.warnings, "cannot be written into the source");
        if ((r.n_inferred != 0) != (r.annotated != NULL || unplaced) || (r.n_inferred && !infer))
            broken("inferred variables without an annotated source, or the reverse", NULL);
        if (r.annotated) {
            ck_stitch_input again = in;
            again.source = r.annotated;
            again.infer_transmit = 0;
            ck_stitch_result r2;
            if (ck_stitch(&again, &r2, err, sizeof err) != 0)
                broken("the annotated source does not stitch without inference", err);
            ck_stitch_result_free(&r2);
        }
        ck_stitch_result_free(&r);
    } else {
        if (r.source || r.kernels || r.n_kernels || r.warnings || r.annotated || r.cl20_atomic)
            broken("failure left a non-zeroed result", err);
        if (!strstr(err, "error:"))
            broken("failure without an error message", err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t head = nl ? (size_t)(nl - data) : 0;
    size_t body = nl ? head + 1 : 0;
    char name_buf[FUZZ_MAX_COOP][FUZZ_MAX_NAME];
    const char *names[FUZZ_MAX_COOP];
    size_t n_names = parse_names(data, head, name_buf, names);

    size_t src_len = size - body;
    char *src = malloc(src_len + 1);
    if (!src)
        return 0;
    memcpy(src, data + body, src_len);
    src[src_len] = 0;

    for (int infer = 0; infer < 2; ++infer)
        stitch_once(src, names, n_names, infer);
    free(src);
    return 0;
}
