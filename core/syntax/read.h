/* read.h - the Emacs Lisp reader: bytes -> tokens with trivia -> values.
 *
 * Stage 1 of the pipeline.  Reads a whole source text the way Emacs reads
 * a file (decode extended UTF-8, loop "skip trivia; read one object"),
 * with an explicit stack (no recursion on input depth).  Produces the
 * top-level forms with their byte spans, and an origin map from the
 * values it built to the text they came from.  Reader conses are fresh
 * (never hash-consed), so every cons has exactly one origin.
 *
 * Errors carry Emacs's error symbol and message (elisp-syntax.md 1.13) and
 * the byte offset of the offending character.
 */
#ifndef PCX_READ_H
#define PCX_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lisp/intern.h"

/* Byte span [start, end) in the source text. */
struct span {
    uint32_t start;
    uint32_t end;
};

struct read_error {
    uint32_t pos;        /* byte offset of the offending character (or len at EOF) */
    const char *symbol;  /* "end-of-file", "invalid-read-syntax", "error", ... */
    const char *message; /* Emacs's data, e.g. ")" or "Invalid escape character syntax";
                            "" for end-of-file and errors without a message
                            (wrong-type-argument, args-out-of-range) */
    struct value *data;  /* the complete error data as a Lisp list, e.g.
                            (")"), ("Invalid hash table test" foo),
                            (wholenump -1); nil for end-of-file */
};

/* At most this many head tokens of a top-level form are kept. */
#define READ_HEADS_MAX 4

struct read_form {
    struct value *v;   /* the object read */
    struct span span;  /* its text, without leading whitespace/comments */
    bool labels;       /* its text defines a read label (#N=) */
    uint32_t depth;    /* lists, vectors and reader prefixes it nests at
                          most: no more lists are open anywhere in it */
    /* Its head tokens (when read_result.heads_known): the symbols whose
     * VALUE_ROW_EXPAND cache held a row when read, that many of them
     * (more than READ_HEADS_MAX: their places are not all kept), and
     * where the first READ_HEADS_MAX start.  A piece of the form's text
     * that holds none of them has no such symbol in what it reads to. */
    uint32_t n_heads;
    uint32_t heads[READ_HEADS_MAX];
};

struct read_origin; /* value -> span side map (opaque) */

struct read_result {
    struct read_form *forms;    /* top-level forms in order */
    size_t n_forms;
    struct read_origin *origin; /* for read_origin_* */
    bool ok;                    /* false: err is set, forms holds those read before it */
    bool heads_known;           /* the symbol table's head symbols had their
                                   VALUE_ROW_EXPAND rows before reading
                                   (L->heads_primed): forms' n_heads count */
    struct read_error err;
};

/* Read every top-level form of text (len bytes) into *out.  All memory
 * comes from L->a.  Returns out->ok. */
bool read_source(struct lisp *L, const uint8_t *text, size_t len,
                 struct read_result *out);

/* Flags of read_source_opts. */
enum read_flags {
    READ_NO_ORIGIN = 1u << 0, /* build no origin map: read_origin_* find nothing;
                                 for callers that only need values and form spans */
};

/* read_source with flags (read_source passes 0). */
bool read_source_opts(struct lisp *L, const uint8_t *text, size_t len,
                      unsigned flags, struct read_result *out);

/* read_source_opts of the text from byte start on, as if the bytes before
 * it were not there (start must be where a top-level form may begin);
 * positions stay offsets into text. */
bool read_source_range(struct lisp *L, const uint8_t *text, size_t start,
                       size_t len, unsigned flags, struct read_result *out);

/* Emacs's read-from-string on a multibyte string: read one object from the
 * start of text.  *consumed gets the number of *characters* consumed (as
 * the reader tables count them).  Returns false and fills *err on error. */
bool read_one(struct lisp *L, const uint8_t *text, size_t len,
              struct value **v, size_t *consumed, struct read_error *err);

/* Span of the text that produced v: a list, dotted tail (a cons cell that
 * is the cdr of another starts at its car's text), vector, string, number.
 * False for values not read from this source (generated ones, symbols). */
bool read_origin_span(const struct read_result *r, const struct value *v,
                      struct span *out);

/* Span of the car of cons cell c as written (works for symbols too). */
bool read_origin_car_span(const struct read_result *r, const struct value *c,
                          struct span *out);

/* Source text of an atom v (number, string, character literal) as written,
 * for printing it unchanged; NULL if unknown. *n gets its length. */
const uint8_t *read_origin_text(const struct read_result *r,
                                const struct value *v, size_t *n);

/* The text the spans of read_origin_span and read_origin_car_span are
 * offsets into (the whole source text); NULL without an origin map. */
const uint8_t *read_origin_bytes(const struct read_result *r);

/* Where the top-level forms of a text that arrives in pieces are
 * complete (read_bounds.c): a scan that looks at each byte once, its
 * state kept from piece to piece.  `ready` is just after the last line
 * end met outside every list, string, comment and character literal,
 * with no quote waiting for its form (or, with `anywhere`, at the first
 * blank after such a form): the text before it is complete forms, as
 * far as the lexer's rules tell (the reader decides).  A `#@00` (skip to
 * the end) makes the rest one form. */
struct read_bounds {
    size_t pos;      /* bytes scanned */
    size_t ready;    /* see above (0: none yet) */
    size_t depth;    /* lists and vectors open */
    uint8_t mode;    /* what the next byte is in (read_bounds.c) */
    uint8_t digits;  /* of a `#@` count so far */
    bool nonzero;    /* ... not all zeros */
    bool at_start;   /* the next byte starts a token (`?` is a character) */
    bool pending;    /* a quote at depth 0 waits for its form */
    bool anywhere;   /* set by the caller: ready may also be at the
                        first blank after a top-level form (where its
                        text ends), not only after a line end */
    bool blanks;     /* the last byte scanned was a blank between tokens */
};

void read_bounds_init(struct read_bounds *b);

/* Scan text[b->pos, len) (the text seen before is text[0, b->pos)). */
void read_bounds_scan(struct read_bounds *b, const uint8_t *text, size_t len);

/* The first `by` bytes of the text are gone (by <= b->ready, or the text
 * before `ready` is all gone); offsets move down. */
void read_bounds_shift(struct read_bounds *b, size_t by);

/* Check the coding system a source text declares with a `coding:` file
 * variable (in the `-*- ... -*-` line, which is the first line or the
 * second after a `#!` line, or in a Local Variables block in the last 3000
 * bytes).  True when there is none or it is a UTF-8 variant, utf-8-emacs,
 * us-ascii or undecided (with any -unix/-dos/-mac suffix).  Otherwise
 * false, and *name gets the span of the coding system's name. */
bool read_check_coding(const uint8_t *text, size_t len, struct span *name);

/* Its two halves, for a text that arrives in pieces: the `-*-` line of
 * the first piece, and the Local Variables block of the last 3000 bytes
 * (READ_CODING_TAIL) of the text. */
bool read_check_coding_start(const uint8_t *text, size_t len, struct span *name);
bool read_check_coding_end(const uint8_t *text, size_t len, struct span *name);
#define READ_CODING_TAIL 3000

#endif
