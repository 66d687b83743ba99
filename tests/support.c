/* Shared helpers of the integration tests (see support.h). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

ck_device *support_open_pocl(const char *path_name)
{
    ck_device_options o = {.device = "Portable Computing Language"};
    if (ck_path_parse(path_name, &o.path) != CK_OK) {
        fprintf(stderr, "bad path %s\n", path_name);
        exit(2);
    }
    ck_device *dev;
    if (ck_device_open(&o, &dev) != CK_OK) {
        fprintf(stderr, "cannot open PoCL on %s: %s\n", path_name, ck_last_error());
        exit(2);
    }
    return dev;
}

char *support_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    s[n] = 0;
    fclose(f);
    return s;
}

cl_mem support_zeroed(ck_device *dev, size_t n)
{
    cl_int err;
    cl_mem b = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, n * sizeof(cl_uint), NULL, &err);
    cl_uint zero = 0;
    if (!b || clEnqueueFillBuffer(dev->queue, b, &zero, sizeof zero, 0, n * sizeof(cl_uint), 0, NULL, NULL) ||
        clFinish(dev->queue)) {
        fprintf(stderr, "cannot create a %zu-word buffer\n", n);
        exit(2);
    }
    return b;
}

void support_read(ck_device *dev, cl_mem b, cl_uint *out, size_t n)
{
    if (clEnqueueReadBuffer(dev->queue, b, CL_TRUE, 0, n * sizeof(cl_uint), out, 0, NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "cannot read a buffer back\n");
        exit(2);
    }
}
