/* stitcher.h: public API of the stitcher, the source-to-source transform that turns a
 * user's OpenCL C program (cooperative and ordinary kernels) into the kernel functions,
 * types and dispatcher of the persistent megakernel, plus the launch metadata the host
 * runtime needs to pack arguments. See README.md in this directory for the transform. */
#ifndef CK_STITCHER_H
#define CK_STITCHER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a kernel parameter travels in a launch packet. */
typedef enum {
  CK_PARAM_SCALAR,       /* scalar or vector by value: its bytes, little end first */
  CK_PARAM_GLOBAL_PTR,   /* byte offset into the device arena; ~0 means NULL */
  CK_PARAM_CONSTANT_PTR, /* same as global (the kernel receives a global const pointer) */
  CK_PARAM_LOCAL_PTR     /* number of bytes of local memory the launch requests */
} ck_param_kind;

typedef struct {
  char *name; /* parameter name */
  char *type; /* type as written, address spaces normalised to global/constant/
                         local/private, arrays as pointers: "global int *", "float4" */
  ck_param_kind kind;
  size_t size;        /* bytes of the value: scalar/vector size (3-vectors as 4-vectors);
                         8 for any pointer (arena offset, or the local byte count) */
  size_t word_offset; /* index of its first 64-bit word in the packet's argument area;
                         it occupies ceil(size / 8) consecutive words */
} ck_stitch_param;

typedef struct {
  char *name;      /* kernel name as written by the user */
  int line;        /* line of the kernel's name in the user's file */
  int cooperative; /* nonzero if named in ck_stitch_input.cooperative */
  size_t n_params;
  ck_stitch_param *params; /* in declaration order */
  size_t arg_words;        /* total 64-bit words of the argument area */
  unsigned n_fork_points;  /* request_fork + resizing_global_barrier call sites; resume
                             points are numbered 1..n_fork_points in source order */
  size_t reqd_wg_size;     /* X of reqd_work_group_size(X,1,1); 0 if not given */
} ck_stitch_kernel;

typedef struct {
  char *source;     /* generated OpenCL C, NUL-terminated; goes after the prelude */
  size_t n_kernels; /* kernel index k (ck_dispatch's ck_kernel) = position here */
  ck_stitch_kernel *kernels;
  char *warnings;       /* NULL, or lines "file:line[:col]: warning: sentence\n", each
                             possibly followed by a line "file:line:col: note: sentence\n":
                             code that stitches but is not portable or breaks a rule of
                             the model in a way the stitcher cannot prove (README.md,
                             Warnings and Rule checks); with infer_transmit, also one
                             line "file:line:col: note: sentence\n" of its own for every
                             variable whose transmit was inferred, at its declaration */
  char *annotated;      /* with infer_transmit and at least one variable inferred: the
                             input's source with "transmit " written in front of each
                             inferred declaration (what the user would write; it
                             stitches without inference); else NULL. Also NULL when
                             an inferred declaration cannot be found in the input's
                             text (a macro that expands to it): then warnings hold a
                             note "...cannot be written into the source..." for it */
  size_t n_inferred;    /* variables whose transmit was inferred */
  char *cl20_atomic;    /* the first OpenCL C 2.0 atomic type, function, memory order or
                             scope of the input (atomic_int, atomic_load, memory_order_...),
                             which only the cl20 path compiles; NULL when there is none */
  char *cl20_atomic_at; /* where it is: "file:line:col"; NULL when there is none */
} ck_stitch_result;

typedef struct {
  const char *source;             /* the user's OpenCL C program, NUL-terminated */
  const char *file_name;          /* name used in messages and #line; NULL: "<input>" */
  const char *const *cooperative; /* names of the kernels that are cooperative */
  size_t n_cooperative;
  int infer_transmit; /* nonzero: a private variable that a forked group reads
                                       before it assigns it is transmitted as if declared
                                       transmit, when its value can travel (README.md,
                                       Transmit inference); 0: such a read is an error */
} ck_stitch_input;

/* Stitches a program.
 * On success returns 0 and fills *out (release it with ck_stitch_result_free); warnings,
 * if any, are in out->warnings.
 * On failure returns -1, leaves *out zeroed, and writes one NUL-terminated message
 * "file:line:col: error: sentence" (or "file:line: error: sentence" where no single token
 * is at fault), possibly followed by "\nfile:line:col: note: sentence" (the fork point of
 * a rule check), into err (truncated to err_len; err may be NULL when err_len is 0). The
 * rule checks list every violation they find, in the order found, each with its note, one
 * per line ("\n" between them): at most 20, then a line "file: note: N more errors not
 * shown ..."; the parser's errors stop the stitch at the first.
 * Failures: in or out or in->source NULL; a lexical or syntax error the
 * stitcher's statement-level parser detects; any restriction listed in README.md
 * (primitive outside a cooperative kernel or not written as a statement, fork point in a
 * switch, goto or labels next to fork points, transmit misuse, local variables in helper
 * functions, a primitive inside a #define body, identifiers starting with "ck_", a
 * variable that is not transmit read after a fork point before it is assigned,
 * unsupported parameter types, unknown cooperative kernel names, ...); a NULL entry in
 * in->cooperative (reported on line 0, naming its index); one of the limits that bound
 * every input's cost (README.md, Limits): statements nested more than 256 levels deep,
 * generated source over 64 times the input plus 1 MiB, a #line number above 2^30, a
 * source of 1 GiB or more; out of memory. */
int ck_stitch(const ck_stitch_input *in, ck_stitch_result *out, char *err, size_t err_len);

/* Same as ck_stitch, with a deadline hook: stop(stop_arg) is called before each pass
 * and before each kernel's metadata; a nonzero answer stops the stitch, which then
 * fails (-1) with "<file>:0: error: stitching stopped: <reason>" (reason NULL:
 * "cancelled"). A single pass is not interrupted. stop may be NULL. */
int ck_stitch_until(const ck_stitch_input *in, ck_stitch_result *out, char *err, size_t err_len,
                    int (*stop)(void *stop_arg), void *stop_arg, const char *reason);

/* Releases everything ck_stitch allocated in *r and zeroes it. NULL or an already freed
 * (zeroed) result is accepted. Cannot fail. */
void ck_stitch_result_free(ck_stitch_result *r);

/* Returns the kernel index of the kernel called name in r, or -1 if there is none. */
int ck_stitch_find_kernel(const ck_stitch_result *r, const char *name);

#ifdef __cplusplus
}
#endif

#endif
