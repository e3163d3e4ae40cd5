/* pretty.h - layout of generated code (cli.md section 8).
 *
 * Stage "print" of the pipeline, between the expander and the splicer.
 * Two phases: pretty_build turns a value into a document tree in print
 * order (atom texts fixed: source text for atoms read from the input,
 * canonical text for generated ones, names for temporaries, comments to
 * re-emit attached to nodes); pretty_layout fills it to the width with
 * the line breaks and indentation Emacs 30.1's indent-region would keep
 * (emacs-lisp-mode, indent-tabs-mode nil).  pretty_compact prints one
 * line, canonical, for --compact.  Nothing here recurses on the depth of
 * the value: both phases use explicit stacks.
 */
#ifndef PCX_PRETTY_H
#define PCX_PRETTY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "lisp/intern.h"
#include "syntax/read.h"

/* Indent specs (the value of a head's lisp-indent-function property). */
enum {
    PRETTY_NONE = -1,        /* standard function-call indentation */
    PRETTY_DEFUN = -2,       /* `defun': the rest is a body */
    PRETTY_UNSUPPORTED = -3, /* a function or list: treated as PRETTY_NONE */
};

/* One row of an indent table: name -> spec (>= 0: number of
 * distinguished arguments, or a PRETTY_* value). */
struct pretty_indent {
    const char *name;
    int spec;
};

/* A comment to re-emit with a node (cli.md 4.2): on a line of its own
 * before the node, or - a trailing comment - at the end of the line
 * where the node's code ends, when a line break follows there. */
struct pretty_comment {
    const uint8_t *text;          /* from its first ';' to the end of its line */
    size_t len;                   /* bytes, without the line end */
    struct pretty_comment *next;  /* later comments of the same node */
    int col;                      /* display column of its ';' in the input */
    bool trailing;                /* code came before it on its line */
};

/* The text to print for one occurrence of symbol sym, in print order, or
 * NULL when sym is not a temporary (then it prints as usual).  Never
 * asked about interned symbols (temporaries are uninterned). */
typedef const char *(*pretty_sym_fn)(void *ctx, const struct value *sym,
                                     size_t *n);

/* What the comment hook says of one printed node. */
struct pretty_hook_reply {
    /* Comments of the node: own-line ones go on lines before it; a
     * trailing one goes at the end of the line where the node's code
     * ends, when the layout can break the line after it there (a later
     * element of a list around it follows: it then starts a line), else
     * on a line before it too. */
    struct pretty_comment *comments;
    /* Comments for the branch of generated code that carries the node:
     * the node or the nearest list around it that is a clause of a
     * `cond`, a then- or else-part of an `if` or a binding of a `let` or
     * `let*` but the first (whose comments would go before the bindings
     * list) - not looking above a node whose reply said `user` (the node
     * under it is taken then), nor above the whole value.  They go
     * on lines before that branch, after what it already has. */
    struct pretty_comment *carried;
    bool blank;   /* an empty line before that branch, unless it is the
                     first element of its list or the whole value */
    bool user;    /* the node stands for a datum of the input */
};

/* The hook asked about every printed node, in print order: v, and the
 * list cell whose car v is (NULL for the whole value, the elements of a
 * vector and a dotted tail); *out comes zeroed.  The callee decides
 * which occurrence of a datum gets its comments (the first). */
typedef void (*pretty_comment_fn)(void *ctx, const struct value *v,
                                  const struct value *holder,
                                  struct pretty_hook_reply *out);

struct pretty_opts {
    int width;                         /* fill column; <= 0 means 80 */
    const struct read_result *src;     /* atoms read from it keep their text; may be NULL */
    const struct pretty_indent *user;  /* the configuration's indent: map, sorted by name */
    size_t n_user;
    pretty_sym_fn sym_text;            /* naming of temporaries (may be NULL) */
    void *sym_ctx;
    pretty_comment_fn comments;        /* comment attachment (may be NULL) */
    void *comment_ctx;
    const char *newline;               /* "\n" (default when NULL) or "\r\n" */
    int depth;                         /* lists and vectors open around the value
                                          in its top-level form, as Emacs's
                                          parser counts them */
    bool keep_text;                    /* lists and vectors read from src keep
                                          their text: their line breaks, blank
                                          lines and spaces between elements on
                                          a line, and their symbols' and quote
                                          forms' spelling (the indentation of
                                          their lines is still Emacs's);
                                          needs src with its origin map */
    bool emulate;                      /* follow Emacs's parser state at every
                                          line break, not only where lists nest
                                          100 deep (a check of that model) */
};

struct pretty_doc; /* a built document (arena-owned) */

/* Phase 1: the document for v.  Calls o->sym_text and o->comments in
 * print order.  Returns NULL when v cannot be printed readably (it
 * contains itself); nothing else fails.  Allocates from L->a. */
struct pretty_doc *pretty_build(struct lisp *L, const struct pretty_opts *o,
                                const struct value *v);

/* pretty_build into the memory of doc, an earlier result of this
 * function or of pretty_build (NULL: fresh memory), whose content is
 * overwritten.  Returns doc itself (a fresh document when doc is NULL),
 * or NULL when v cannot be printed (doc's memory may then be passed
 * again).  Made for callers that lay out one expansion after another:
 * the text, nodes and stacks of each reuse those of the last, grown when
 * needed.  doc's memo of heads is kept when o's user indent table is the
 * one it was made with. */
struct pretty_doc *pretty_rebuild(struct pretty_doc *doc, struct lisp *L,
                                  const struct pretty_opts *o,
                                  const struct value *v);

/* From how many lists open around doc's value (pretty_opts.depth) its
 * layout depends on that number: from there on, those and its own pass
 * the 100 levels of Emacs's parser state. */
long pretty_depth_matters(const struct pretty_doc *doc);

/* Detach and return the comments that belong before the whole document
 * (the root datum's, and those hoisted from first elements); the caller
 * prints them before the text (pretty_layout does not). */
struct pretty_comment *pretty_take_root_comments(struct pretty_doc *doc);

/* Phase 2: append the layout of doc to out.  The first line starts at
 * column col (the caller wrote what precedes it); trail columns follow
 * the last line (closing parens of the context).  Continuation lines are
 * indented relative to col as Emacs would indent them. */
void pretty_layout(struct pretty_doc *doc, const struct pretty_opts *o,
                   struct buf *out, int col, int trail);

/* Both phases.  Returns false (appending nothing) when v cannot be printed. */
bool pretty_print(struct lisp *L, const struct pretty_opts *o, struct buf *out,
                  const struct value *v, int col, int trail);

/* One line, canonical atoms (Emacs's prin1-to-string with
 * print-escape-newlines), temporaries named by o->sym_text; o->src,
 * o->comments and the width are ignored.  False when v contains itself. */
bool pretty_compact(struct lisp *L, const struct pretty_opts *o,
                    struct buf *out, const struct value *v);

/* The spec of head `name` (bytes, as printed): the user table, then
 * Emacs's table; PRETTY_NONE when neither has it.  Sets *found when a
 * table had the name. */
int pretty_indent_spec(const struct pretty_opts *o, const char *name,
                       size_t len, bool *found);

/* Where an element of a list starts: a line number (any numbering that
 * increases downwards) and a display column. */
struct pretty_place {
    long line;
    int col;
};

/* What pretty_indent_column needs to know of a list besides where its
 * elements are. */
enum pretty_list_flag {
    PRETTY_SPACE_AFTER_PAREN = 1, /* whitespace follows the open bracket */
    PRETTY_LOCAL_DEF = 2,         /* an element of the list that is element
                                     1 of a form whose head passes
                                     pretty_local_def_head */
};

/* The column at which Emacs's calculate-lisp-indent puts a line that
 * starts with element j (j >= 1) of a list whose open bracket is at
 * column paren, when elements 0..j-1 start at places[0..j-1] (no line
 * starts inside the list before element 1).  head is the text of element
 * 0 as written (its first character decides whether it names a function;
 * a symbol's indent spec is looked up as for pretty_indent_spec); flags
 * are enum pretty_list_flag. */
int pretty_indent_column(const struct pretty_opts *o, const char *head,
                         size_t head_len, int paren,
                         const struct pretty_place *places, uint32_t j,
                         unsigned flags);

/* Is text (len bytes) a head whose element 1 lists local definitions
 * (cl-flet and its kin), each indented as a defun by Emacs 30? */
bool pretty_local_def_head(const char *text, size_t len);

/* Does text (len bytes, right after an open bracket) start with a
 * character of whitespace syntax in emacs-lisp-mode? */
bool pretty_space_after_paren(const uint8_t *text, size_t len);

/* Display columns of text (TAB to the next multiple of 8 from col, wide
 * characters 2, control characters 2, raw bytes 4): the column after it. */
int pretty_advance(const uint8_t *text, size_t len, int col);

/* Index of the first unsorted row of Emacs's built-in table, or -1. */
long pretty_check_table(void);

#endif
