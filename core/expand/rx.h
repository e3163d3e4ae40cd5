/* rx.h - the rx notation (rx.el) translated to an Emacs regexp.
 *
 * Used by the `rx` pattern macro (pcase.md 2.7): the regexp is computed at
 * expansion time as Emacs 28.2's rx--to-expr computes it.  Names rx does
 * not define and non-constant `eval` forms give a run-time rx-to-string.
 */
#ifndef PCX_RX_H
#define PCX_RX_H

#include <stdbool.h>
#include <stdint.h>

#include "lisp/intern.h"

enum rx_error_kind {
    RX_ERR_NONE,
    RX_ERR_FORM,      /* Emacs's rx error: message is its text */
    RX_ERR_TOO_DEEP,  /* nesting beyond RX_MAX_DEPTH */
    RX_ERR_RUNTIME,   /* a non-builtin name or eval together with a run-time
                         literal/regexp: neither translation is possible */
};

struct rx_error {
    enum rx_error_kind kind;
    const char *message;       /* formatted, arena-owned */
    const struct value *at;    /* offending sub-form (may be generated) */
};

/* Deepest rx nesting translated (deeper input is an error, not a crash). */
#define RX_MAX_DEPTH 500

/* Translate the rx form (normally (seq RX...)) to a Lisp expression
 * yielding the regexp, as rx--to-expr does: a string when everything is
 * constant, else (concat ...) / (regexp-quote E) / E for `literal` and
 * `regexp` forms with non-constant arguments, or (rx-to-string 'FORM t)
 * when FORM uses a name rx does not define or a non-constant `eval`.
 * Returns NULL and fills *err on error. */
struct value *rx_translate(struct lisp *L, struct value *form,
                           struct rx_error *err);

/* Are all of rx's name tables sorted and free of duplicates (for tests)? */
bool rx_tables_sorted(void);

/* Characters of an Emacs string as rx and regexp-opt handle them: unibyte
 * bytes >= 0x80 are kept as raw-byte characters (0x3FFF00 + byte). */
struct rx_str {
    uint32_t *c;  /* characters */
    size_t n;     /* used */
    size_t cap;   /* allocated */
    bool mb;      /* the Emacs string would be multibyte */
};

struct rx_str *rx_str_new(struct arena *a);
void rx_str_putc(struct arena *a, struct rx_str *s, uint32_t c);
/* Append ASCII text. */
void rx_str_puts(struct arena *a, struct rx_str *s, const char *t);
/* Append other (and its multibyteness, as concat does). */
void rx_str_append(struct arena *a, struct rx_str *s, const struct rx_str *o);
/* Characters of Lisp string v (v must be a string). */
struct rx_str *rx_str_of_value(struct arena *a, const struct value *v);
/* Lisp string with these characters. */
struct value *rx_str_value(struct arena *a, const struct rx_str *s);
/* (regexp-quote S) appended to out. */
void rx_str_put_quoted(struct arena *a, struct rx_str *out,
                       const struct rx_str *s);
/* Emacs's char-to-string: ASCII gives a unibyte string, else multibyte. */
struct rx_str *rx_str_of_char(struct arena *a, uint32_t c);

/* (regexp-opt STRINGS nil) of n strings (n >= 1), as Emacs 28.2's
 * regexp-opt.el computes it; NULL when the recursion would exceed
 * RX_MAX_DEPTH. */
struct rx_str *rx_regexp_opt(struct arena *a, struct rx_str **strings,
                             size_t n);

#endif
