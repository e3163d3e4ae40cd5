/* lex.h - Emacs Lisp source bytes -> tokens, each with its leading trivia.
 *
 * Stage 1a of the pipeline, below read.c.  The lexer works on the raw bytes
 * of a source text and decodes Emacs's extended UTF-8 on the fly
 * (elisp-syntax.md 1.1).  Every token records the span of the trivia before
 * it (whitespace, `;` comments, `#!` lines, `#@` skipped text) and its own
 * span, so the trivia and token spans of a text, followed by the trailing
 * trivia of the final LK_EOF token, reproduce the text byte for byte.
 *
 * Character literals and radix integers are fully scanned here (their
 * extent depends on their escapes); strings and symbol-or-number atoms are
 * delimited here and decoded by read.c.
 */
#ifndef PCX_LEX_H
#define PCX_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum lex_kind {
    LK_EOF,          /* end of input (its lead span is the trailing trivia) */
    LK_LPAREN,       /* ( */
    LK_RPAREN,       /* ) */
    LK_LBRACK,       /* [ */
    LK_RBRACK,       /* ] */
    LK_QUOTE,        /* ' */
    LK_BACKQUOTE,    /* ` */
    LK_COMMA,        /* , */
    LK_COMMA_AT,     /* ,@ */
    LK_FUNCTION,     /* #' */
    LK_DOT,          /* a dotted-pair dot (1.10's follower rule) */
    LK_ATOM,         /* symbol or number; LEX_ESCAPED / LEX_NONASCII flags */
    LK_STRING,       /* "..." including the quotes */
    LK_CHAR,         /* ?x: value in ival */
    LK_RADIX,        /* #x.. #o.. #b.. #NrD..: radix in ival, digits at start+aux */
    LK_EMPTY_SYMBOL, /* ## */
    LK_UNINTERNED,   /* #:NAME (name at start+2, may be empty) */
    LK_NOSHORTHAND,  /* #_NAME (name at start+2, never empty) */
    LK_RECORD,       /* #s( */
    LK_PROPSTRING,   /* #( */
    LK_BYTECODE,     /* #[ */
    LK_CHARTABLE,    /* #^[ */
    LK_SUBCHARTABLE, /* #^^[ */
    LK_BOOLVEC,      /* #& */
    LK_LABEL_DEF,    /* #N= : N in ival */
    LK_LABEL_REF,    /* #N# : N in ival */
    LK_LOAD_NAME,    /* #$ */
    LK_SKIP_END,     /* #@00: the rest of the input, reads as nil */
};

/* Token flags. */
#define LEX_ESCAPED 1  /* the token contains a backslash */
#define LEX_NONASCII 2 /* the token contains a byte >= 0x80 */

struct lex_token {
    uint32_t lead;  /* start of the leading trivia */
    uint32_t start; /* first byte of the token (== end of the trivia) */
    uint32_t end;   /* one past the token's last byte */
    uint32_t aux;   /* LK_RADIX: offset of the sign/digits from start */
    uint8_t kind;   /* enum lex_kind */
    uint8_t flags;  /* LEX_* */
    int64_t ival;   /* LK_CHAR value, LK_RADIX radix, LK_LABEL_* number */
};

/* Where and how lexing failed: Emacs's error symbol and data string. */
struct lex_error {
    uint32_t pos;        /* byte offset of the offending character (len at EOF) */
    const char *symbol;  /* "end-of-file", "invalid-read-syntax", "error" */
    const char *message; /* static, or points into struct lex's msg */
};

struct lex {
    const uint8_t *text; /* the whole source */
    size_t len;          /* its length (< 4 GiB) */
    size_t pos;          /* next byte to look at */
    struct lex_error err; /* set when a function returns false */
    char msg[320];       /* room for formatted messages */
};

/* Emacs's character modifier bits (elisp-syntax.md 1.6). */
#define LEX_CHAR_ALT (INT64_C(1) << 22)
#define LEX_CHAR_SUPER (INT64_C(1) << 23)
#define LEX_CHAR_HYPER (INT64_C(1) << 24)
#define LEX_CHAR_SHIFT (INT64_C(1) << 25)
#define LEX_CHAR_CTL (INT64_C(1) << 26)
#define LEX_CHAR_META (INT64_C(1) << 27)
#define LEX_CHAR_MODS INT64_C(0xFC00000)

/* Start lexing text[start..len).  len must be below 4 GiB. */
void lex_init(struct lex *lx, const uint8_t *text, size_t len, size_t start);

/* Skip trivia and scan the next token into *t.  Returns false on a lexical
 * error (lx->err says which); lx->pos is then unspecified. */
bool lex_next(struct lex *lx, struct lex_token *t);

/* First position at or after p that is not trivia (text[0..n)): the lead
 * span lex_next gives the token there.  Stops at `#@00`, a token. */
size_t lex_skip_trivia(const uint8_t *text, size_t n, size_t p);

/* The first position at or after q of a `"`, a backslash or a byte >=
 * 0x80 in text[0..n), or n: for a string whose text starts at q, the
 * closing quote when the string is plain ASCII without escapes. */
size_t lex_plain_string_end(const uint8_t *text, size_t n, size_t q);

/* Where the escape whose backslash is at q in text[0..n) ends, as Emacs
 * reads a string: a backslash hides one character, but after a modifier
 * prefix (`\M-`, `\^`, ...) the character it applies to is taken
 * whatever it is (a quote too), and `\N{...}` runs to its brace; n when
 * the input ends first.  Only finds the end: lex_escape decodes. */
size_t lex_string_escape_end(const uint8_t *text, size_t n, size_t q);

/* Bytes that end a plain run of symbol-or-number bytes: whitespace and
 * controls, delimiters, the backslash and every byte >= 0x80 (1 = stop). */
extern const uint8_t lex_atom_stop[256];

/* Trivia text[from, to) (blanks and comments, the text between two
 * tokens): does it hold a line break (*newline), and a line of blanks
 * only after one (*empty: an empty line in the text)? */
void lex_trivia_lines(const uint8_t *text, size_t from, size_t to, bool *newline,
                      bool *empty);

/* End of the run of bytes from q (<= n) on that lex_atom_stop lets
 * through: the end of an atom whose bytes are plain ASCII constituents,
 * when the byte there (if any) is not a backslash or >= 0x80.  Inline:
 * the reader scans most atoms with it, eight bytes a step. */
static inline size_t lex_plain_end(const uint8_t *text, size_t n, size_t q)
{
    while (n - q >= 8) {
        if (lex_atom_stop[text[q]])
            return q;
        if (lex_atom_stop[text[q + 1]])
            return q + 1;
        if (lex_atom_stop[text[q + 2]])
            return q + 2;
        if (lex_atom_stop[text[q + 3]])
            return q + 3;
        if (lex_atom_stop[text[q + 4]])
            return q + 4;
        if (lex_atom_stop[text[q + 5]])
            return q + 5;
        if (lex_atom_stop[text[q + 6]])
            return q + 6;
        if (lex_atom_stop[text[q + 7]])
            return q + 7;
        q += 8;
    }
    while (q < n && !lex_atom_stop[text[q]])
        q++;
    return q;
}

/* lex_plain_end over pointers: the end of the run from q (<= end). */
static inline const uint8_t *lex_plain_run(const uint8_t *q, const uint8_t *end)
{
    while (end - q >= 8) {
        if (lex_atom_stop[q[0]])
            return q;
        if (lex_atom_stop[q[1]])
            return q + 1;
        if (lex_atom_stop[q[2]])
            return q + 2;
        if (lex_atom_stop[q[3]])
            return q + 3;
        if (lex_atom_stop[q[4]])
            return q + 4;
        if (lex_atom_stop[q[5]])
            return q + 5;
        if (lex_atom_stop[q[6]])
            return q + 6;
        if (lex_atom_stop[q[7]])
            return q + 7;
        q += 8;
    }
    while (q < end && !lex_atom_stop[*q])
        q++;
    return q;
}

/* Read the escape sequence whose backslash is just before *pos (a string
 * escape when in_string).  On success *out is the value with its modifier
 * bits, or -1: in a string "nothing" (backslash-newline, backslash-space),
 * in a character literal the input ending after a modifier prefix (Emacs
 * 30.1 reads ?\C- at the end as -1); *pos is just after the escape.
 * False on error (lx->err). */
bool lex_escape(struct lex *lx, size_t *pos, bool in_string, int64_t *out);

/* Decode one character of source text at p (n > 0 bytes available) as
 * Emacs's extended UTF-8 decoder does; *len gets its byte length.  A byte
 * that starts no valid sequence is the raw-byte character 0x3FFF00 + b. */
uint32_t lex_decode(const uint8_t *p, size_t n, int *len);

/* Number of characters in p[0..n) by lex_decode. */
size_t lex_count_chars(const uint8_t *p, size_t n);

#endif
