/* print.h - value -> text, exactly as Emacs 30.1's prin1-to-string.
 *
 * Canonical one-line printing (elisp-syntax.md section 2).  Iterative: deep
 * values do not recurse on the C stack.  The settings mirror Emacs's print
 * variables; print_opts_compact() gives what `--compact` uses (defaults with
 * print-escape-newlines = t).
 */
#ifndef PCX_PRINT_H
#define PCX_PRINT_H

#include <stdbool.h>

#include "../base/buf.h"
#include "intern.h"

struct print_opts {
    bool escape_newlines;      /* print-escape-newlines */
    bool escape_control;       /* print-escape-control-characters */
    bool escape_nonascii;      /* print-escape-nonascii: no effect, since
                                  prin1-to-string always behaves as if it
                                  were t (it prints into a multibyte buffer) */
    bool escape_multibyte;     /* print-escape-multibyte */
    bool quoted;               /* print-quoted (default true) */
    bool gensym;               /* print-gensym */
    bool circle;               /* print-circle */
    bool integers_as_chars;    /* print-integers-as-characters */
    long length;               /* print-length, -1 = nil */
    long level;                /* print-level, -1 = nil */
    const char *float_format;  /* float-output-format, NULL = nil */
    int charset_props;         /* print-charset-text-property: 0 nil, 1 t, 2 default */
    /* Source text of atoms read from input (NULL = always canonical).
     * Asked for numbers, strings and bool-vectors (never symbols: they are
     * shared); when it returns text, that text is printed instead. */
    const uint8_t *(*atom_text)(void *ctx, const struct value *v, size_t *n);
    void *atom_ctx;
    /* Text of an uninterned symbol (the printed names of temporaries),
     * or NULL for the symbol's own printed name.  Never asked about
     * interned symbols.  NULL hook = always their own.  print_tree and
     * print_tree_fast may ask once per symbol and reuse the text for its
     * other occurrences in the same call: the hook must give a symbol
     * one text throughout a call (a text that changes between the first
     * occurrence and the next, #K= then #K#, goes to print_value). */
    const char *(*sym_text)(void *ctx, const struct value *sym, size_t *n);
    void *sym_ctx;
};

/* Emacs's defaults (print-quoted t, everything else off). */
struct print_opts print_opts_default(void);
/* Defaults plus print-escape-newlines: the --compact format. */
struct print_opts print_opts_compact(void);

/* Append the printed representation of v to b. */
void print_value(struct lisp *L, struct buf *b, const struct value *v,
                 const struct print_opts *o);

/* Does `,X` fail to read back as (\, X)?  True when X is a symbol whose
 * name starts with `@`: `,@b` reads as (\,@ b).  Emacs's prin1 writes it
 * anyway; pcexpand prints such a form as (\, @b), which reads back. */
bool print_comma_needs_list(const struct value *x);

/* 'X #'X `X ,X ,@X: when quote form v prints abbreviated (print-quoted),
 * writes its prefix to b, sets *arg to X and *bq to the change it makes to
 * the backquote level (bq_level outside it: commas abbreviate only inside
 * a backquote), and returns true; false, nothing written, otherwise. */
bool print_quote_prefix(const struct lisp *L, struct buf *b, const struct value *v,
                        int bq_level, int8_t *bq, const struct value **arg);

/* Deepest value print_tree prints (frames: lists, vectors, quote forms). */
#define PRINT_TREE_MAX_DEPTH 100000

/* print_value for the common case of a tree: v made of conses, vectors
 * and atoms (strings without properties), no object inside itself, at
 * most PRINT_TREE_MAX_DEPTH deep.  Such a value prints the same whoever
 * lays it out on one line, so callers with a slower general path (the
 * layout engine's) can try this first; what it prints is always what
 * print_value prints (with print-circle, labels included).  False when v
 * is not such a tree: then b is as before the call, and o's sym_text may
 * have been asked about the symbols that come first in print order. */
bool print_tree(struct lisp *L, struct buf *b, const struct value *v,
                const struct print_opts *o);

/* print_value for a value known to be a tree (a form the reader made
 * without #N= labels: its conses are fresh): the same text, without the
 * record of the path print_value keeps to find an object inside itself,
 * and a row of quote forms printed from one frame (10 million quotes in
 * a row took 48 bytes each).  Never give it anything else: an object
 * inside itself would print forever. */
void print_known_tree(struct lisp *L, struct buf *b, const struct value *v,
                      const struct print_opts *o);

/* Deepest nesting (lists, vectors, quote forms) print_tree_fast takes. */
#define PRINT_FAST_DEPTH 200

/* print_tree's fast path alone: true when v is a tree at most
 * PRINT_FAST_DEPTH deep whose text (what print_tree prints) is at most
 * max bytes.  False, b as before, for every other value, and under
 * print-circle, print-length, print-level or o->atom_text.  It gives up
 * soon after the text passes max bytes: a caller can bound the size of
 * what it prints without measuring it first. */
bool print_tree_fast(struct lisp *L, struct buf *b, const struct value *v,
                     const struct print_opts *o, size_t max);

/* Emacs's float printing (shortest round trip, %g conventions, INF/NaN). */
void print_float(struct buf *b, double f);

/* ---- atoms (print_atom.c), also for code that lays out forms itself ---- */

/* An integer (VK_INT or VK_BIGNUM) in decimal.  With as_chars
 * (print-integers-as-characters), 0..U+10FFFF graphic characters and the
 * named escapes print as ?C / ?\C the way Emacs 30 does (print_graphic.inc
 * says which characters are graphic). */
void print_integer(struct buf *b, const struct value *v, bool as_chars);

/* A float under float-output-format (NULL = nil: shortest round trip).  A
 * format Emacs would ignore (anything but %.[P]e/f/g, P <= 15) is ignored. */
void print_float_format(struct buf *b, double f, const char *float_format);

/* A symbol as prin1 writes it: backslashes per Emacs 30's rules, `##` for the
 * empty name, and with gensym a `#:` prefix on uninterned symbols. */
void print_symbol(struct buf *b, const struct value *sym, bool gensym);
/* Does symbol sym print as its name, with no backslash, `##` or `#:`
 * (print-gensym aside)?  Kept on an interned symbol (value_symbol.plain)
 * once known. */
bool print_symbol_plain(const struct value *sym);
/* An atom (symbol, number, string without its properties, bool-vector)
 * as print_value prints it with o: a symbol as o->sym_text gives it, if
 * that is set and gives text, else by its name. */
void print_atom_opts(struct buf *b, const struct value *v, const struct print_opts *o);

/* Would a symbol token with this name (n bytes) read as a number?  Such
 * names get a backslash before their first character. */
bool print_name_is_number(const char *name, size_t n);

/* The "..." part of string s (never its text properties) under o's
 * escape settings, as prin1-to-string writes it: raw bytes and unibyte
 * bytes >= 0x80 as 3-digit octal. */
void print_string_text(struct buf *b, const struct value *s,
                       const struct print_opts *o);

/* A bool-vector #&N"..."; print-length limits the bytes shown. */
void print_boolvec(struct buf *b, const struct value *v,
                   const struct print_opts *o);

#endif
