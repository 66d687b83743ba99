/* cl_build_report: builds one OpenCL C source file (for example the whole
 * megakernel source that CK_DUMP_SOURCE writes) for the first GPU with the
 * given options and prints what NVIDIA's compiler reported for one kernel:
 * its registers, stack frame and spills (-cl-nv-verbose). With a third
 * argument, also writes the program's binary (PTX on NVIDIA) there.
 * A measurement aid for the lent NVIDIA machine (tools/bench/README.md):
 * it compares source variants of the megakernel without a rebuild of the
 * library. Exit status: 0 built and reported, 1 the build failed or said
 * nothing about the kernel, 2 bad arguments or no GPU.
 * usage: cl_build_report SOURCE "OPTIONS" [BINARY_OUT] (kernel: CL_BUILD_KERNEL, default ck_megakernel) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)))
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: cl_build_report SOURCE \"OPTIONS\" [BINARY_OUT]\n");
        return 2;
    }
    const char *kernel = getenv("CL_BUILD_KERNEL") ? getenv("CL_BUILD_KERNEL") : "ck_megakernel";
    char *src = read_file(argv[1]);
    if (!src) {
        fprintf(stderr, "cl_build_report: cannot read %s\n", argv[1]);
        return 2;
    }
    cl_platform_id platforms[16];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint i = 0; i < np && !dev; ++i)
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "cl_build_report: no OpenCL GPU (is the vendor's ICD registered?)\n");
        return 2;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (!ctx) {
        fprintf(stderr, "cl_build_report: clCreateContext failed (%d)\n", err);
        return 2;
    }
    const char *text = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    if (!prog) {
        fprintf(stderr, "cl_build_report: clCreateProgramWithSource failed (%d)\n", err);
        return 2;
    }
    cl_int built = clBuildProgram(prog, 1, &dev, argv[2], NULL, NULL);
    size_t len = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) == CL_SUCCESS &&
        (log = calloc(1, len + 1)))
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL);
    if (built != CL_SUCCESS) {
        printf("build failed (%d)\n%.4000s\n", built, log ? log : "");
        return 1;
    }
    /* The report has a "Compiling entry function 'NAME'" line per kernel,
     * then its lines; print those of the kernel asked for. */
    int mine = 0, said = 0;
    for (char *line = log ? strtok(log, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        if (strstr(line, "entry function"))
            mine = strstr(line, kernel) != NULL;
        if (mine && (strstr(line, "registers") || strstr(line, "spill"))) {
            const char *p = strstr(line, ": ");
            printf("%s%s", said++ ? "; " : "", p ? p + 2 : line);
        }
    }
    printf("\n");
    if (argc == 4) {
        size_t size = 0;
        unsigned char *bin = NULL;
        FILE *o = NULL;
        if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size ||
            !(bin = malloc(size)) ||
            clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS ||
            !(o = fopen(argv[3], "wb")) || fwrite(bin, 1, size, o) != size) {
            fprintf(stderr, "cl_build_report: could not write the binary to %s\n", argv[3]);
            return 1;
        }
        fclose(o);
    }
    return said ? 0 : 1;
}
