/* splice_int.h - what splice.c and splice_notes.c share (private to the
 * splicer).
 *
 * The data of a replaced form as read (each with its text and its place
 * in the list around it), and the notes of the form: its comments and the
 * empty lines between the clauses of its pcase forms, with the printer's
 * hook that places them in the expansion (cli.md 4.2).
 */
#ifndef PCX_SPLICE_INT_H
#define PCX_SPLICE_INT_H

#include <string.h>

#include "syntax/splice.h"

/* ---- positions ---- */

static inline size_t splice_line_start(const uint8_t *text, size_t off)
{
    while (off > 0 && text[off - 1] != '\n')
        off--;
    return off;
}

static inline size_t splice_line_end(const uint8_t *text, size_t len, size_t off)
{
    const uint8_t *nl = off < len ? memchr(text + off, '\n', len - off) : NULL;
    return nl ? (size_t)(nl - text) : len;
}

/* Display column of offset off (as Emacs's current-column). */
static inline int splice_column(const uint8_t *text, size_t off)
{
    size_t ls = splice_line_start(text, off);
    return pretty_advance(text + ls, off - ls, 0);
}

static inline bool splice_blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\f'; }

static inline bool splice_only_blanks(const uint8_t *text, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++)
        if (!splice_blank(text[k]))
            return false;
    return true;
}

/* ---- data ---- */

struct datum {
    const struct value *v;      /* the value read */
    const struct value *holder; /* the list cell whose car it is; NULL for
                                   the form, a vector's element, a dotted tail */
    uint32_t start, end;        /* its text */
    uint32_t depth;             /* 0 for the replaced form itself */
    int32_t parent;             /* index of the enclosing list or vector, -1 */
    uint32_t index;             /* its position there */
    bool container;             /* a list or vector (comments can be inside) */
};

struct data {
    struct datum *d;
    size_t n, cap;
};

/* Every datum of form (read from text span sp) that has a span, breadth
 * first: a datum's parent comes before it.  No recursion; shared
 * structure (#1=) cannot loop. */
struct data splice_data(struct arena *a, const struct read_result *r,
                        const struct value *form, struct span sp,
                        const struct value *nil);

struct splice_notes;

/* The notes of orig, a replaced form whose text is sp; NULL when it has
 * nothing to place (no comment, no empty line between pcase clauses). */
struct splice_notes *splice_notes_new(const struct splice_in *in,
                                      const struct value *orig, struct span sp);

/* Forget where n's notes went (for another document of the same form;
 * nothing when n is NULL). */
void splice_notes_reset(struct splice_notes *n);

/* Make po's comment hook place n's notes in the document built with po
 * (none when n is NULL). */
void splice_notes_hook(struct splice_notes *n, struct pretty_opts *po);

/* The comments for before the expansion, in source order: those the
 * document did not take, and root (the document's root comments). */
struct pretty_comment *splice_notes_before(struct splice_notes *n,
                                           struct pretty_comment *root);

#endif
