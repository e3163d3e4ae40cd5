/* pretty_doc.h - the document shared by pretty.c and pretty_layout.c.
 *
 * Private to the pretty module.  pretty.c builds it from a value: the
 * whole value's one-line text (Emacs's prin1 spacing, atom texts decided)
 * and one node per atom, list or vector, possibly behind reader prefixes
 * ('x, #'f, `x, ,x, ,@x, and chains of them), each naming its piece of
 * that text.  pretty_layout.c lays it out: whatever fits on a line is one
 * copy of its piece.
 */
#ifndef PCX_PRETTY_DOC_H
#define PCX_PRETTY_DOC_H

#include <stdbool.h>
#include <stdint.h>

#include "syntax/pretty.h"

/* For the steps of the build's and the layout's loops: as calls, their
 * arguments and the state they share were stored and read again at each
 * step. */
#define PRETTY_INLINE inline __attribute__((always_inline))

enum pnode_kind {
    PN_ATOM,   /* text */
    PN_LIST,   /* ( kids ) */
    PN_VECTOR, /* [ kids ] */
};

enum pnode_flag {
    PF_MULTILINE = 1, /* never on one line: a kid spans lines or has comments */
    PF_DATA = 2,      /* inside a quote: laid out as data (filled) */
    PF_DOTTED = 4,    /* list: the last kid is the tail after " . " */
    PF_CLAUSE = 8,    /* a clause of cond: test, then body lines */
    PF_ASCII = 16,    /* text of printable ASCII only (set in a document
                         whose text is not all so: measure) */
    PF_SOURCE = 32,   /* list or vector keeping its text (pretty_opts.
                         keep_text): its kids break where PF_NEWLINE says,
                         the text between kids on a line is its own */
    PF_NEWLINE = 64,  /* kid of a PF_SOURCE list that starts a line */
    PF_BLANK = 128,   /* kid after which an empty line comes first (then
                         comments, then the kid on a line of its own) */
};

/* Nodes are stored in print order (preorder): a container's first kid
 * follows it, and each kid's `next` is where its next sibling starts, so
 * a subtree is a run of nodes and its text a run of bytes. */
struct pnode {
    uint32_t start, end;            /* its text in the document's text, prefix included */
    uint32_t next;                  /* the first node after its subtree */
    int32_t width;                  /* display width on one line */
    uint16_t prefix_len;            /* bytes of reader prefixes at start */
    uint8_t kind;                   /* enum pnode_kind */
    uint8_t flags;                  /* enum pnode_flag */
    const struct value *sym;        /* an atom printed as this interned
                                       symbol's own name, else NULL */
    struct pretty_comment *comments;/* to emit on lines before this node */
};

struct pretty_spec_index; /* Emacs's indent table indexed by name */

/* An interned symbol's head class and indent spec, cached by symbol. */
struct pretty_head_memo {
    const struct value *sym;
    int8_t cls;   /* enum phead */
    int spec;
};

#define PRETTY_HEAD_MEMO 64 /* slots, a power of two */

/* The build's frames, the layout's frames and places: kept with the
 * document so that a rebuild reuses their memory. */
struct pretty_stacks {
    void *bf;             /* struct bframe (pretty.c) */
    size_t bf_cap;
    void *lf;             /* struct lframe (pretty_layout.c) */
    size_t lf_cap;
    struct pretty_place *pl;
    size_t pl_cap;
};

struct pretty_doc {
    struct arena *a;       /* where everything here comes from */
    struct pnode *nodes;   /* nodes[0] is the root */
    uint32_t n, cap;       /* nodes used, allocated */
    uint32_t depth;        /* lists and vectors nested in the deepest place */
    struct buf text;       /* the one-line text of the whole value */
    bool simple;           /* text is printable ASCII only: a piece's
                              display width is its length, and no
                              piece holds a line break or TAB */
    struct pretty_stacks st;
    struct pretty_head_memo *memo;      /* heads by symbol's id; NULL
                                           until the layout needs it */
    struct pretty_spec_index *specs;    /* NULL until the layout needs it */
    const struct pretty_indent *memo_user; /* the user table memo was made with */
};

/* Emacs's indent table indexed by name (arena-owned). */
struct pretty_spec_index *pretty_spec_index_new(struct arena *a);

/* pretty_indent_spec, with Emacs's table looked up in x. */
int pretty_spec_lookup(const struct pretty_spec_index *x,
                       const struct pretty_opts *o, const char *name, size_t len);

/* Display width of a prefix or an atom text without line breaks. */
int pretty_width(const char *text, size_t len);

/* Emacs's classification of a list's first element for indentation. */
enum phead {
    PH_SYMBOL, /* starts with a word or symbol character: a function name */
    PH_LIST,   /* a list or vector: elements line up under it */
    PH_OTHER,  /* a string, a prefixed object ...: elements line up under it */
};

/* The class of a list's first element from its text as written: for
 * PH_SYMBOL, *name / *len get the text lisp-indent-function looks up
 * (reader prefixes skipped, as Emacs's parser skips them). */
enum phead pretty_head_class_text(const char *text, size_t n,
                                  const char **name, size_t *len);

/* The model of Emacs's parser state for text nested 100 lists deep
 * (pretty_deep.c).  The layout reports what it writes, in text order:
 * lists it opens and closes, nodes it puts on one line (an atom may
 * span lines: its first and end line), the dot before a dotted tail,
 * and each line it starts with a kid; and asks where such a line goes,
 * giving its own model's answer for the places the state cannot tell. */
struct pretty_deep;
struct pretty_deep *pretty_deep_new(struct pretty_doc *d, const struct pretty_opts *po,
                                    long line);
void pretty_deep_open(struct pretty_deep *e, uint32_t node, long line, int col);
void pretty_deep_close(struct pretty_deep *e);
void pretty_deep_flat(struct pretty_deep *e, uint32_t node, long line, int col,
                      long end_line);
void pretty_deep_dot(struct pretty_deep *e, uint32_t tail, long line, int col);
int pretty_deep_indent(struct pretty_deep *e, uint32_t kid, int model);
void pretty_deep_line(struct pretty_deep *e, uint32_t kid, long line);

/* Nesting from which Emacs's parser state departs from the lines'
 * structure: it keeps 100 levels. */
#define PRETTY_DEEP_LEVELS 100

#endif
