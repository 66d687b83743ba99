/* inline_internal.h: what the two halves of the inlining share. inline.c finds the helpers
 * with fork points and writes the inlined program; inline_lower.c rewrites the statements
 * that call such a helper where an expression stands (a condition, a loop header, a return
 * value, an operand), so that each call becomes an inlined copy before the statement. */
#ifndef CK_STITCHER_INLINE_INTERNAL_H
#define CK_STITCHER_INLINE_INTERNAL_H

#include "internal.h"

/* The function whose tokens are being written, with its renaming. */
typedef struct ictx ictx;
struct ictx {
  func *fn;         /* whose body tokens are emitted */
  int inst;         /* instance number; 0: a function that is not inlined (no renaming) */
  ictx *up;         /* the caller's context: arguments are its tokens */
  int *arg0, *arg1; /* per parameter: the substituted argument's tokens, arg0 < 0: none */
  int need_end;     /* a goto to ck_iN_end was written */
};

/* The inlining pass over one program. */
typedef struct {
  program *pg;
  token *t;
  emitter e;
  unsigned char *ren;   /* per token: names a variable or parameter of an inlined helper */
  stmt **site;          /* per token: the statement (call, return, lowered) that starts there */
  unsigned char *acc;   /* per token: the name of a call that is inlined (accepted or lowered) */
  unsigned char *low;   /* per token: the statement that starts there is lowered */
  int *sub_end;         /* per token: > 0, tokens [i, sub_end[i]) are written as sub_txt[i] */
  const char **sub_txt; /* the text that stands for them (a copy's result, a flag) */
  int gen;              /* write tokens as generated text on the current line */
  int n_inst;           /* copies written so far (instance numbers) */
  int n_low;            /* temporaries of the lowering written so far */
  int read_at;          /* the lowering: the end of the range whose residual reads the
                         * stand-ins being made (a later call before it: transmit them) */
} inl;

/* The helper with fork points that token i calls, or NULL. */
func *st_inl_callee(inl *x, int i);

/* The call token of statement s if s is an accepted call of a helper with fork points (a
 * statement 'h(...);', 'x = h(...);' or 'T x = h(...);'), else -1. */
int st_inl_site_call(inl *x, stmt *s);

/* "request_fork() on line N": what makes the inlined helper fn inlined. */
const char *st_inl_why(inl *x, func *fn);

/* Writes tokens [a, b) of c's function with c's renaming and substitutions (and the
 * lowering's stand-in texts); sites: statements that are sites are expanded. Returns -1
 * after reporting an error. */
int st_inl_emit_range(inl *x, ictx *c, int a, int b, int sites);

/* Writes the copy of the helper called at token call (its arguments are c's tokens):
 * "[[transmit] R ck_iN_ret;] { parameters... body [ck_iN_end: ;] }", the parameters on
 * line `line`, transmit when tx_ret. Returns N (>= 1), or -1 after reporting an error;
 * *is_void tells whether h returns void. */
int st_inl_emit_copy(inl *x, ictx *c, int call, int line, int tx_ret, int *is_void);

/* Is statement s, of function fn, one that calls a helper with fork points where an
 * expression stands (and is therefore lowered)? Marks its calls in x->acc when it is. */
int st_lower_site(inl *x, func *fn, stmt *s);

/* Writes statement s lowered: its calls of helpers with fork points inlined before it in
 * an order that C allows (short-circuit operators and commas kept), the statement
 * rewritten to use their results. Returns -1 after reporting an error. */
int st_lower_emit(inl *x, ictx *c, stmt *s);

#endif
