/* ckcheck: checks an OpenCL C file the way ck_context_build would, without a
 * device: it runs the stitcher on the file with the given cooperative kernels
 * and prints the stitcher's errors, warnings and notes on stderr; with --fix
 * it writes the file with the inferred transmit qualifiers on stdout. For
 * editors and CI. Exit status: 0 clean (warnings allowed unless --werror), 1 errors (or
 * warnings with --werror), 2 bad command line or unreadable file (also a
 * FIFO, a folder or a device, refused without blocking). */
#define _POSIX_C_SOURCE 200809L
#include "ck_sched_layout.h"
#include "cli.h"
#include "file_io.h"
#include "stitcher.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Most cooperative kernel names one command line may give. */
#define MAX_COOP 256

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ckcheck FILE.cl [options]\n"
            "Stitches FILE.cl as ck_context_build does (no device, no OpenCL) and prints the\n"
            "stitcher's errors and warnings on stderr, one diagnostic per line.\n"
            "  --cooperative LIST  the file's cooperative kernels, comma-separated, 1..%d names\n"
            "                      (default: none, every kernel is ordinary)\n"
            "  --transmit MODE     infer (default, as ck_context_build): a variable that a\n"
            "                      forked group reads before assigning it is transmitted when\n"
            "                      its value can travel, with a note naming it; declared: every\n"
            "                      such read is an error (ck_context_options.transmit_mode)\n"
            "  --fix               write FILE.cl to stdout with 'transmit ' written in front\n"
            "                      of every declaration whose transmit was inferred (the file\n"
            "                      unchanged when none was); implies --transmit infer\n"
            "  --werror            warnings count as errors (exit status 1); notes do not\n"
            "  --version           print the version and exit\n"
            "  --help              this text\n"
            "Exit status: 0 clean (warnings allowed), 1 errors (or warnings with --werror),\n"
            "2 bad command line or unreadable file (one line on stderr).\n",
            MAX_COOP);
}

/* Splits the comma-separated list into names (pointers into `list`, which is
 * modified); an empty list or entry, or too many names, is a usage error. */
static size_t split_names(char *list, const char **names)
{
    char allowed[80];
    snprintf(allowed, sizeof allowed, "1..%d comma-separated kernel names, none empty", MAX_COOP);
    if (!*list)
        cli_bad_value("--cooperative", "''", "empty list", allowed);
    static char shown[256];
    snprintf(shown, sizeof shown, "%s", list);
    size_t n = 0;
    for (char *p = list;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        if (!*p)
            cli_bad_value("--cooperative", shown, "empty entry in the list", allowed);
        if (n == MAX_COOP)
            cli_bad_value("--cooperative", shown, "too many names", allowed);
        names[n++] = p;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

/* Opens the kernel file if it is a regular file (file_io.h: the open cannot
 * block, and a FIFO, a device or a folder is refused); exits 2 with one
 * line otherwise. */
static FILE *open_regular(const char *path)
{
    char err[512];
    FILE *f = ck_file_open_read(path, 1, err, sizeof err);
    if (!f) {
        fprintf(stderr, "ckcheck: kernel file: %s; give an OpenCL C source file\n", err);
        exit(CLI_EXIT_USAGE);
    }
    return f;
}

/* Reads the whole file; exits 2 with one line if it cannot. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = open_regular(path);
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (;;) {
        if (!text) {
            fprintf(stderr, "ckcheck: out of memory reading '%s'\n", path);
            exit(CLI_EXIT_USAGE);
        }
        n += fread(text + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(text, cap * 2);
        if (!bigger)
            free(text);
        text = bigger;
        cap *= 2;
    }
    if (ferror(f)) {
        fprintf(stderr, "ckcheck: kernel file: cannot read '%s': %s\n", path, strerror(errno));
        exit(CLI_EXIT_USAGE);
    }
    fclose(f);
    text[n] = 0;
    *len = n;
    return text;
}

/* Prints `text` (lines) to stderr, ending it with a newline if it lacks one. */
static void print_lines(const char *text)
{
    size_t n = strlen(text);
    if (!n)
        return;
    fputs(text, stderr);
    if (text[n - 1] != '\n')
        fputc('\n', stderr);
}

int main(int argc, char **argv)
{
    const char *names[MAX_COOP];
    size_t n_names = 0;
    int werror = 0, declared = 0, fix = 0;
    enum { OPT_COOP = 256, OPT_WERROR, OPT_VERSION, OPT_TRANSMIT, OPT_FIX };
    static const struct option longopts[] = {{"cooperative", required_argument, NULL, OPT_COOP},
                                             {"werror", no_argument, NULL, OPT_WERROR},
                                             {"transmit", required_argument, NULL, OPT_TRANSMIT},
                                             {"fix", no_argument, NULL, OPT_FIX},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    cli_init("ckcheck");
    int c;
    /* '+' would stop at the file name; permuting lets options follow it. */
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_VERSION: cli_print_version(); return 0;
        case OPT_WERROR: werror = 1; break;
        case OPT_FIX: fix = 1; break;
        case OPT_TRANSMIT:
            if (!strcmp(optarg, "infer"))
                declared = 0;
            else if (!strcmp(optarg, "declared"))
                declared = 1;
            else
                cli_bad_value("--transmit", optarg, "unknown mode", "infer or declared");
            break;
        case OPT_COOP:
            if (n_names)
                cli_usage_error("--cooperative given twice; list every name in one comma-separated value");
            n_names = split_names(optarg, names);
            break;
        default: cli_getopt_error(c, argv);
        }
    }
    if (optind == argc)
        cli_usage_error("no kernel file given");
    const char *path = argv[optind++];
    cli_no_operands(argc, argv);
    if (fix && declared)
        cli_usage_error("--fix writes the qualifiers that inference finds; it cannot go with --transmit declared");

    size_t len;
    char *text = read_file(path, &len);
    if (strlen(text) != len) {
        fprintf(stderr, "%s: error: NUL byte at offset %zu; an OpenCL C source file is text\n", path, strlen(text));
        free(text);
        return 1;
    }

    ck_stitch_input in = {.source = text,
                          .file_name = path,
                          .cooperative = names,
                          .n_cooperative = n_names,
                          .infer_transmit = !declared};
    ck_stitch_result r;
    char err[16384]; /* up to 20 errors, each with its note */
    int rc = ck_stitch(&in, &r, err, sizeof err);
    if (rc != 0) {
        free(text);
        print_lines(err);
        return 1;
    }
    int status = 0;
    if (r.warnings && *r.warnings) {
        print_lines(r.warnings);
        if (strstr(r.warnings, ": warning: "))
            status = werror;
    }
    if (r.cl20_atomic)
        fprintf(stderr,
                "%s: note: '%s' is an OpenCL C 2.0 atomic: only the cl20 path builds it (NVIDIA's OpenCL "
                "offers the cl12 path alone; the calls of ck_cooperative.h work on both)\n",
                r.cl20_atomic_at, r.cl20_atomic);
    if (fix && r.n_inferred && !r.annotated) {
        fprintf(stderr,
                "ckcheck: --fix: %s: an inferred transmit declaration cannot be written into the source "
                "(see the note above); declare it transmit by hand\n",
                path);
        status = 1;
    } else if (fix) {
        const char *fixed = r.annotated ? r.annotated : text;
        if (fputs(fixed, stdout) == EOF || fflush(stdout) != 0) {
            fprintf(stderr, "ckcheck: --fix: cannot write the source to stdout: %s\n", strerror(errno));
            status = 1;
        }
    }
    free(text);
    /* ck_context_build's own check of the stitched metadata: a launch
     * packet carries at most CK_MAX_ARG_WORDS words of arguments. */
    for (size_t k = 0; k < r.n_kernels; ++k)
        if (r.kernels[k].arg_words > CK_MAX_ARG_WORDS) {
            fprintf(stderr,
                    "%s:%d: error: kernel '%s' has %zu 64-bit words of arguments; a launch carries at most %u\n",
                    path, r.kernels[k].line, r.kernels[k].name, r.kernels[k].arg_words, CK_MAX_ARG_WORDS);
            status = 1;
        }
    ck_stitch_result_free(&r);
    return status;
}
