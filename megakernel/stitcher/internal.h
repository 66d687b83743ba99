/* internal.h: types shared by the stitcher's modules (not installed): memory arena,
 * string buffer and diagnostics (util.c), tokens (lexer.c), the statement-level syntax
 * tree and program model (parse_*.c), and the entry points of each pass. */
#ifndef CK_STITCHER_INTERNAL_H
#define CK_STITCHER_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include "stitcher.h"

/* ---- util.c: arena, string buffer, diagnostics ------------------------------------- */

typedef struct st_arena_block st_arena_block;
typedef struct {
  st_arena_block *head;
  int failed; /* an allocation failed */
} st_arena;

void *st_alloc(st_arena *a, size_t n); /* zeroed; NULL on failure */
char *st_strndup(st_arena *a, const char *s, size_t n);
char *st_strdup(st_arena *a, const char *s);
char *st_fmt(st_arena *a, const char *fmt, ...);
void st_arena_free(st_arena *a);

typedef struct {
  char *p;
  size_t len, cap;
  int failed;
} st_buf;

void sb_put(st_buf *b, const char *s, size_t n);
void sb_puts(st_buf *b, const char *s);
void sb_printf(st_buf *b, const char *fmt, ...);
void sb_free(st_buf *b);

/* Where the user's own #line directives move the presumed file and line: from physical
 * line phys + 1 on, line numbers count from line, in file. */
typedef struct {
  int phys, line;
  const char *file;
} st_line_mark;

typedef struct {
  char *err;
  size_t err_len;
  const char *file; /* the input's name */
  int failed;
  st_line_mark *marks; /* in order of phys; filled by the lexer */
  size_t n_marks, cap_marks;
  st_buf warnings;          /* "file:line: warning: ...\n" lines, in the order found */
  int error_noted;          /* the recorded error came from st_error_at: a note may follow */
  struct st_listed *listed; /* listed errors (st_error_list_at), with their notes */
  size_t cap_listed;
  int n_listed;    /* errors listed */
  int list_failed; /* an allocation for the list failed */
} st_diag;

/* Errors after which the checks go on (the rule checks): each one is listed with its note;
 * st_errors_end then fails the stitch with the first ST_MAX_ERRORS of them in source order
 * (by the position of the error) as the message, and a last note counts those not shown.
 * st_listed_free releases the list (st_errors_end does not). */
#define ST_MAX_ERRORS 20
struct token_s;
void st_error_list_at(st_diag *d, const struct token_s *t, const char *fmt, ...);
void st_note_list(st_diag *d, const struct token_s *t, const char *fmt, ...);
/* 0 when nothing was listed (or an error is already recorded: -1); else records the
 * listed errors as the stitch's error and returns -1. */
int st_errors_end(st_diag *d);
void st_listed_free(st_diag *d);

/* Records "file:line: error: <message>" unless an error is already recorded; returns -1.
 * line is a physical line of the input; it is reported where #line directives put it. */
int st_error(st_diag *d, int line, const char *fmt, ...);
/* Appends "file:line: warning: <message>\n" to d->warnings (a failed allocation marks the
 * buffer failed; the stitch then fails with "out of memory"). */
void st_warn(st_diag *d, int line, const char *fmt, ...);
/* Compiler-style diagnostics at a token: "file:line:col: error|warning: <message>" (col
 * counts from 1). A note ("file:line:col: note: <message>") goes on its own line after the
 * error (st_note_error: only right after the st_error_at that recorded the error) or after
 * the last warning (st_note_warn). */
struct token_s;
int st_error_at(st_diag *d, const struct token_s *t, const char *fmt, ...);
void st_note_error(st_diag *d, const struct token_s *t, const char *fmt, ...);
void st_warn_at(st_diag *d, const struct token_s *t, const char *fmt, ...);
void st_note_warn(st_diag *d, const struct token_s *t, const char *fmt, ...);
/* Appends "file:line:col: note: <msg>\n" at token t to b. */
void st_note_line(st_diag *d, st_buf *b, const struct token_s *t, const char *msg);
/* The presumed line (and file, if file is non-NULL) of physical line phys. */
int st_user_line(const st_diag *d, int phys, const char **file);

/* Growable pointer vector stored in the arena (old storage is simply abandoned). */
typedef struct {
  void **v;
  size_t n, cap;
} st_vec;
int st_vec_push(st_arena *a, st_vec *v, void *item);

/* String-keyed hash map stored in the arena (open addressing; old tables are abandoned
 * when it grows). Keys are not copied: they must outlive the map (arena or token text). */
typedef struct {
  const char **keys;
  void **vals;
  size_t n, cap;
} st_map;
/* The value stored under key, or NULL if there is none. */
void *st_map_get(const st_map *m, const char *key);
/* Stores val under key, replacing an earlier value; -1 when out of memory. */
int st_map_put(st_arena *a, st_map *m, const char *key, void *val);

/* Limits that keep every input's cost bounded (README.md, Limits). */
#define ST_MAX_NESTING 256                /* statements nested inside one another */
#define ST_MAX_LINE (1 << 30)             /* largest #line number */
#define ST_MAX_SOURCE ((size_t)1 << 30)   /* largest input, in bytes */
#define ST_OUTPUT_FACTOR 64               /* output cap: 64 times the input ... */
#define ST_OUTPUT_SLACK ((size_t)1 << 20) /* ... plus 1 MiB */
#define ST_MAX_INLINE_DEPTH 8             /* helpers with fork points nested in one another */

/* ---- lexer.c ------------------------------------------------------------------------ */

typedef enum { TK_EOF, TK_IDENT, TK_NUMBER, TK_STRING, TK_CHAR, TK_PUNCT, TK_PP } tok_kind;

typedef struct symbol symbol;

typedef struct token_s {
  tok_kind kind;
  char *s;          /* NUL-terminated text (for TK_PP: the whole directive, spliced, comments
                  replaced by a space) */
  int line;         /* line of its first character in the user's file */
  int col;          /* characters before it on its (spliced) line */
  size_t off;       /* offset of its first character in the spliced source */
  size_t end;       /* offset one past its last character */
  int match;        /* index of the matching bracket for ( ) [ ] { }, else -1 */
  const char *repl; /* if non-NULL, emitted instead of s ("" drops it) */
  symbol *sym;      /* identifiers in function bodies: what the name resolved to (resolve.c) */
} token;

typedef struct {
  token *t;
  size_t n; /* tokens, the last one TK_EOF */
} token_list;

int st_lex(st_arena *a, st_diag *d, const char *src, token_list *out);
int st_tok_is(const token *t, const char *s);

/* ---- syntax tree and program model (parse_*.c) ------------------------------------- */

typedef enum {
  ST_BLOCK,
  ST_DECL,
  ST_EXPR,
  ST_IF,
  ST_FOR,
  ST_WHILE,
  ST_DO,
  ST_SWITCH,
  ST_CASE,
  ST_DEFAULT,
  ST_LABEL,
  ST_BREAK,
  ST_CONTINUE,
  ST_RETURN,
  ST_GOTO,
  ST_EMPTY,
  ST_PP,
  ST_PRIM
} st_kind;

typedef enum {
  PRIM_NONE,
  PRIM_OFFER_KILL,
  PRIM_REQUEST_FORK,
  PRIM_GLOBAL_BARRIER,
  PRIM_RESIZING_BARRIER
} prim_kind;

typedef struct func func;
typedef struct stmt stmt;

typedef struct {
  int d0, d1;       /* declarator tokens, initializer excluded */
  int name;         /* token index of the declared name */
  int init0, init1; /* initializer tokens after '='; init0 < 0 if none */
  int is_ptr, is_array, is_func, incomplete_array;
  int hoisted; /* removed from the body: a local variable or a kernel constant */
  symbol *sym;
} declarator;

typedef struct {
  int s0, s1; /* declaration specifier tokens */
  int t0, t1; /* whole declaration; t1 is one past the ';' (for-init: excluded) */
  size_t n;
  declarator *d;
  int is_typedef, is_transmit, is_local, is_constant, is_const;
  int transmit_tok, local_tok;
} decl;

typedef struct fork_point fork_point;

struct stmt {
  st_kind kind;
  stmt *parent;
  int line;
  int t0, t1;       /* token range of the whole statement */
  int kw;           /* first keyword / label token */
  int lp, rp;       /* parentheses of if/for/while/switch/do-while */
  int e0, e1;       /* condition / expression / case value range */
  int semi1, semi2; /* for: the two ';' inside the parentheses */
  int s0, s1;       /* for: step range */
  int else_kw, while_kw, colon, end_semi;
  int attr0, attr1;        /* loops: leading __attribute__((...)) tokens, attr0 == attr1 if none */
  stmt *init, *body, *els; /* for-init (ST_DECL/ST_EXPR/NULL), bodies */
  stmt **items;            /* ST_BLOCK */
  size_t n_items;
  decl *decl;       /* ST_DECL */
  prim_kind prim;   /* ST_PRIM */
  fork_point *fork; /* ST_PRIM that is a fork point */
  st_vec peeled;    /* loops: fork points whose outermost enclosing loop this is */
};

/* A transmit variable (one declarator of a transmit declaration in a cooperative kernel,
 * in any block or for-init). */
typedef struct {
  const char *name;
  const char *field; /* field in ck_tx_<kernel>_t (name, or ck_tx<N>_name if declared twice) */
  decl *dc;
  declarator *dr;
  symbol *sym;
} tvar;

struct fork_point {
  int index; /* 1-based resume point number */
  stmt *st;
  st_vec tx;        /* tvar* in scope at the call */
  stmt *outer_loop; /* outermost loop containing it, NULL if none */
};

typedef struct {
  const char *name; /* field name in ck_locals_<kernel>_t */
  decl *dc;
  declarator *dr;
} hoisted_local;

typedef struct {
  const char *name; /* file-scope name */
  decl *dc;
  declarator *dr;
} hoisted_const;

typedef struct {
  int t0, t1;      /* tokens of the parameter */
  int name;        /* token index of its name, -1 if unnamed */
  char *type;      /* normalised type text (metadata) */
  char *cast_type; /* type used by the dispatcher */
  ck_param_kind kind;
  size_t size;
  size_t word_offset;
  int is_vector, vec_n, is_bool;
  const char *vec_elem;
} param;

typedef enum {
  SYM_VAR,
  SYM_TYPEDEF,
  SYM_FUNC,
  SYM_PARAM,
  SYM_LOCAL,
  SYM_TRANSMIT,
  SYM_CONST
} sym_kind;

struct symbol {
  const char *name;
  sym_kind kind;
  const char *field; /* SYM_LOCAL: replacement text; SYM_CONST: file-scope name */
  func *fn;          /* SYM_FUNC */
  tvar *tv;          /* SYM_TRANSMIT */
  param *pm;         /* SYM_PARAM */
  decl *dc;          /* its declaration (file-scope typedefs, body declarations) */
  declarator *dr;
  func *owner;  /* declared in the body of this function (NULL: file scope, param) */
  int var_id;   /* body variables (SYM_VAR, SYM_TRANSMIT): 0..owner->n_vars-1 */
  int for_init; /* declared in the init of a for statement */
};

struct func {
  const char *name;
  int name_tok, line;
  int is_kernel, cooperative, index; /* index: kernel index */
  int t0;                            /* first token of the item */
  int lp, rp;                        /* parameter list parentheses */
  int lb;                            /* '{' of the body, -1 for a prototype */
  int t1;                            /* one past the last token */
  stmt *body;
  param *params;
  size_t n_params;
  int void_params; /* parameter list is "(void)" */
  size_t reqd_wg;
  /* analysis results */
  st_vec forks;       /* fork_point* in source order */
  st_vec prims;       /* stmt* of every primitive */
  st_vec tvars;       /* tvar* */
  st_vec locals;      /* hoisted_local* */
  st_vec consts;      /* hoisted_const* */
  st_vec calls;       /* func* called (may repeat) */
  st_vec gotos;       /* stmt* ST_GOTO and ST_LABEL */
  st_vec cond_pp;     /* stmt* conditional preprocessor directives in the body */
  int uses_gb;        /* calls global_barrier directly */
  int reaches_gb;     /* uses_gb, or calls (transitively) a function that does */
  int linted;         /* lint.c has checked it */
  st_vec callers;     /* func* definitions that call this definition (analyze.c) */
  st_map field_names; /* names of the fields of ck_locals_<kernel>_t taken so far */
  st_map field_next;  /* local name -> next numeric suffix to try for it */
  int n_vars;         /* body variables numbered by symbol.var_id */
  size_t arg_words;
  /* inline.c: helpers with fork points */
  int tx_tok;               /* first 'transmit' in the body of a helper (0: none) */
  int inl;                  /* a helper that is inlined: it reaches a fork point or offer_kill */
  stmt *inl_prim;           /* the primitive that makes it so (in it or in a helper it calls) */
  st_vec icallers;          /* func* definitions that call this definition */
  int inl_busy, inl_height; /* chain walk: on the stack; longest chain of inlined helpers */
  int varies;               /* rules.c: 0 unknown, 1 its results do not vary, 2 they may, 3 busy */
  int lock_tok;             /* lint.c: 0 unknown, -1 no lock-like swap, else the token of one */
};

/* A variable that rules.c found read after a fork point before it is assigned, and that
 * inference transmits (ck_stitch_input.infer_transmit): its declaration is made transmit
 * when the pass runs again. */
typedef struct {
  size_t off; /* offset of the declaration's first token in the pass's source */
  const char *name;
  int decl_tok;     /* token of the declared name */
  const char *file; /* its presumed file, line and column: the notes go in this order */
  int line, col;
  const char *note; /* the note the stitch reports about it (without position) */
} inferred_tx;

typedef enum { TOP_PP, TOP_DECL, TOP_FUNC, TOP_EMPTY } top_kind;

typedef struct {
  top_kind kind;
  int t0, t1;
  func *fn;
} top_item;

typedef struct {
  st_arena *ar;
  st_diag *dg;
  token_list tl;
  const char *file;
  int raw; /* parse structure only: no rewriting, no checks (tests) */
  top_item *items;
  size_t n_items;
  st_vec funcs;         /* func*, all function definitions and prototypes */
  st_vec kernels;       /* func*, kernel definitions in order */
  struct scope *fscope; /* file scope */
  const char *const *coop;
  size_t n_coop;
  int (*stop)(void *arg); /* deadline hook of ck_stitch_input (NULL: none) */
  void *stop_arg;
  const char *stop_reason;
  size_t src_len;      /* bytes of the input (the output cap is derived from it) */
  st_map const_names;  /* names of the hoisted constants of all kernels */
  st_map coop_names;   /* the names in coop */
  st_map macro_locals; /* local variable name -> macro_local (resolve.c) */
  int macro_locals_ready;
  size_t tx_bytes;        /* least output the fork points' transmit copies take */
  int inlined;            /* the source is inline.c's output: ck_i<N>_ names and labels are its */
  int infer;              /* infer transmit where the rule check finds a variable live */
  const size_t *force_tx; /* declarations (offsets of their first tokens, ascending) that
                             are transmit as if declared so: inferred by an earlier run */
  size_t n_force_tx;
  st_vec inferred; /* inferred_tx* found by st_rules in this run */
} program;

/* parse_top.c: splits the program into top-level items, finds functions and typedefs. */
int st_parse_program(program *pg);

/* parse_decl.c: declarations, declarators, type names. */
typedef struct scope scope;
struct scope {
  scope *up;
  st_map names; /* name -> the latest symbol* declared with it in this scope */
};
int st_is_decl_start(program *pg, scope *sc, int i);
int st_parse_decl(program *pg, scope *sc, int i0, int end, decl *out);
symbol *st_lookup(program *pg, scope *sc, const char *name);
symbol *st_declare(program *pg, scope *sc, const char *name, sym_kind kind);
int st_is_type_keyword(const char *s);
int st_is_qualifier_keyword(const char *s);
int st_skip_attribute(program *pg, int i); /* i at __attribute__: index after it */
int st_vector_type(const char *s, const char **elem, int *n);
/* Tokens [i0, b) declare a variable or parameter (what) but its name is a type name or a
 * keyword ("int half"): records an error saying so and returns -1; otherwise 0. */
int st_check_reserved_name(program *pg, int i0, int b, const char *what);

/* parse_stmt.c: function bodies. */
int st_parse_body(program *pg, func *fn, scope *file_scope);

/* resolve.c: identifier rewriting inside expression ranges and #define bodies. */
int st_resolve_range(program *pg, func *fn, scope *sc, int a, int b);
int st_rewrite_define(program *pg, token *t);
int st_is_primitive(const char *s, prim_kind *k);

/* inline.c: inlines the helpers that reach a fork point or offer_kill. *src: NULL when
 * there are none (the program is stitched as it is), else the new program text (malloc). */
int st_inline(program *pg, char **src);
/* A name inline.c generates: ck_i<digits>_... */
int st_inline_name(const char *s);
/* The user's name behind the inlined name at s (ck_i<N>_<name>, a helper's variable or
 * parameter in copy N) written to out (n bytes); returns how many characters of s the
 * inlined name takes, or 0 if s starts no inlined name or out is too small. */
size_t st_inline_user_name(const char *s, char *out, size_t n);

/* analyze.c: primitive placement, fork points, transmit, call graph. */
int st_analyze(program *pg);

/* lint.c: warnings on non-portable synchronisation in code cooperative kernels reach; the
 * names of ck_cooperative.h's synchronisation calls. */
int st_lint(program *pg);
/* *where: "file:line:col" of the program's first OpenCL C 2.0 atomic type, function, memory
 * order or scope (only the cl20 path compiles them), *name: its name; both NULL when it has
 * none (arena and token storage). -1: out of memory. */
int st_find_cl20_atomics(program *pg, char **where, const char **name);
int st_is_sync_api(const char *s);

/* rules.c: the model's rules checked on cooperative kernels with fork points (variables
 * live across a fork point, values of M used after it changes). Lists every violation
 * (st_error_list_at) and fails after the last kernel; with pg->infer, a live variable
 * whose value can travel goes to pg->inferred instead. */
int st_rules(program *pg);

/* metadata.c: kernel parameter kinds, sizes, offsets, attributes. */
int st_kernel_params(program *pg, func *fn);
int st_kernel_attributes(program *pg, func *fn);

/* emit.c: output with #line bookkeeping. */
typedef struct {
  st_buf out;
  const char *cur_file; /* the file the device compiler assigns to the current line */
  int cur_line;         /* the line the device compiler assigns to the current line */
  int out_lines;        /* newlines written so far */
  int at_bol;
  int last_tok; /* index of the last token written, -1 after generated text */
  int in_gen;   /* #line currently names the stitched output, not the user file */
  program *pg;
  size_t cap;    /* most bytes of output allowed (see ST_OUTPUT_FACTOR) */
  int over;      /* the output reached cap: nothing more is written */
  int over_line; /* physical line being emitted when it did */
  int last_line; /* physical line of the last token or primitive emitted */
  int peel_line; /* line of the loop emit_peeled is copying, 0 if none */
} emitter;
void em_init(emitter *e, program *pg);
/* The most bytes of output a program may generate: ST_OUTPUT_FACTOR times its input plus
 * ST_OUTPUT_SLACK. */
size_t st_output_cap(const program *pg);
/* Nonzero once the output would pass its cap; emitters stop walking the tree then. */
int em_over(const emitter *e);
void em_tok(emitter *e, int i);
void em_range(emitter *e, int a, int b);
void em_gen(emitter *e, const char *s);
void em_genf(emitter *e, const char *fmt, ...);
void em_sync(emitter *e, int line);
void em_generated_section(emitter *e);
void em_newline(emitter *e);

/* transform_body.c: function bodies, primitives, resume and peeling. */
void st_emit_body(emitter *e, func *fn);

/* transform_program.c: the whole generated source. */
int st_emit_program(program *pg, char **source);

/* dispatch.c: ck_dispatch and the per-program unions. */
void st_emit_dispatch(emitter *e, program *pg);

#endif
