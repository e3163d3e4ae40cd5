/* pretty_doc.h - the document tree shared by pretty.c and pretty_layout.c.
 *
 * Private to the pretty module.  pretty.c builds it from a value (print
 * order, atom texts decided); pretty_layout.c lays it out.  A node is an
 * atom, a list or a vector, possibly behind reader prefixes ('x, #'f,
 * `x, ,x, ,@x, and chains of them).
 */
#ifndef PCX_PRETTY_DOC_H
#define PCX_PRETTY_DOC_H

#include <stdbool.h>
#include <stdint.h>

#include "syntax/pretty.h"

enum pnode_kind {
    PN_ATOM,   /* text */
    PN_LIST,   /* ( kids ) */
    PN_VECTOR, /* [ kids ] */
};

struct pnode {
    uint8_t kind;                   /* enum pnode_kind */
    bool multiline;                 /* never on one line: a kid spans lines or has comments */
    bool has_nl;                    /* atom: the text contains a line break */
    bool data;                      /* inside a quote: laid out as data (filled) */
    bool dotted;                    /* list: kids[n - 1] is the tail after " . " */
    bool clause;                    /* a clause of cond: test, then body lines */
    uint16_t prefix_len;            /* bytes of prefix */
    const char *prefix;             /* reader prefixes, e.g. "'" or "#'" */
    const char *text;               /* atom text */
    size_t len;                     /* bytes of text */
    int width;                      /* display width on one line, prefix included */
    struct pnode **kids;            /* list / vector elements */
    uint32_t n;                     /* number of kids */
    struct pretty_comment *comments;/* to emit on lines before this node */
};

struct pretty_doc {
    struct arena *a;      /* where layout scratch comes from */
    struct pnode *root;
};

/* Display width of a prefix or an atom text without line breaks. */
int pretty_width(const char *text, size_t len);

/* Emacs's classification of a list's first element for indentation. */
enum phead {
    PH_SYMBOL, /* starts with a word or symbol character: a function name */
    PH_LIST,   /* a list or vector: elements line up under it */
    PH_OTHER,  /* a string, a prefixed object ...: elements line up under it */
};

/* Class of a list's first element; for PH_SYMBOL, *name / *len get the
 * text lisp-indent-function looks up (reader prefixes skipped, as Emacs's
 * parser skips them). */
enum phead pretty_head_class(const struct pnode *kid0, const char **name,
                             size_t *len);

/* The same from the text of the first element as written. */
enum phead pretty_head_class_text(const char *text, size_t n,
                                  const char **name, size_t *len);

/* Append node on one line (Emacs's prin1 spacing) to out. */
void pretty_flat(const struct pnode *node, struct buf *out);

#endif
