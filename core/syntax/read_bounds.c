/* read_bounds.c - where the top-level forms of a text that arrives in
 * pieces are complete (read.h).
 *
 * Standard input is run a stretch of complete forms at a time.  Reading
 * the text after the last complete form again whenever more arrives
 * costs the square of a long form; this scan looks at each byte once,
 * carrying its state from piece to piece: the nesting of lists and
 * vectors, and whether it is inside a string, a comment, a character
 * literal (`?(` is no parenthesis), a symbol's escaped character, a
 * `#@` skip, or after a quote that still waits for its form.  It follows
 * the lexer's rules (lex.c) for what can hide a parenthesis; a line end
 * met outside all of them at depth 0 ends a stretch that reads
 * completely.  The reader has the last word: a stretch that still ends
 * inside a form is not run (api_stream.c).
 */
#include "read.h"

#include <string.h>

/* The scan's states: what the next byte is in. */
enum {
    B_CODE,        /* between tokens, or in a symbol or number */
    B_STRING,      /* in a string */
    B_STRING_ESC,  /* after a backslash in a string */
    B_COMMENT,     /* up to the end of the line */
    B_SYMBOL_ESC,  /* after a backslash in a symbol: any byte */
    B_CHAR,        /* after `?` (or a modifier's `-`, or `^`): one character */
    B_CHAR_ESC,    /* after `?\` */
    B_CHAR_MOD,    /* after `?\C` and the like: a `-` may follow */
    B_COMMA,       /* after `,`: `@` may follow */
    B_HASH,        /* after `#` */
    B_HASH_NUM,    /* after `#` and digits: `#1=`, `#1#`, `#24r...` */
    B_DOCREF,      /* after `#@`: its digits */
    B_SKIP,        /* a `#@N` skip: up to and including the next 0x1F */
    B_SKIP_ALL,    /* `#@00`: the rest of the input */
};

/* The bytes that may follow `?\` and take a `-` after them (modifiers). */
static bool modifier(uint8_t c)
{
    return c == 'C' || c == 'M' || c == 'S' || c == 'H' || c == 'A' || c == 's';
}

void read_bounds_init(struct read_bounds *b)
{
    memset(b, 0, sizeof *b);
    b->at_start = true;
}

/* A token that is a form (or begins one) starts here. */
static void form_starts(struct read_bounds *b)
{
    b->pending = false;
    b->at_start = false;
}

/* A quote, backquote, comma, #' or #N= at depth 0: a form must follow. */
static void prefix(struct read_bounds *b)
{
    if (b->depth == 0)
        b->pending = true;
    b->at_start = true;
}

static void open_list(struct read_bounds *b)
{
    b->depth++;
    b->pending = false;
    b->at_start = true;
}

/* A byte between tokens or in a symbol; pos is just after it.  first:
 * the byte before it was no blank between tokens. */
static void code_byte(struct read_bounds *b, uint8_t c, size_t pos, bool first)
{
    switch (c) {
    case '(': case '[':
        open_list(b);
        return;
    case ')': case ']':
        b->depth -= b->depth > 0; /* one too many is the reader's error */
        b->at_start = true;
        return;
    case '"': form_starts(b); b->mode = B_STRING; return;
    case ';': b->mode = B_COMMENT; return;
    case '\'': case '`': prefix(b); return;
    case ',': prefix(b); b->mode = B_COMMA; return;
    case '#': form_starts(b); b->mode = B_HASH; return;
    case '\\': form_starts(b); b->mode = B_SYMBOL_ESC; return;
    case '?':
        if (b->at_start)
            b->mode = B_CHAR;
        form_starts(b);
        return;
    default:
        break;
    }
    if (c > ' ') {
        form_starts(b);
        return;
    }
    b->blanks = true;
    b->at_start = true;
    if (b->depth > 0 || b->pending)
        return;
    if (b->anywhere && first)
        b->ready = pos - 1; /* the form's text ends here */
    else if (c == '\n' && !b->anywhere)
        b->ready = pos;
}

/* After `#`: what the next byte makes of it.  Returns false when the
 * byte is to be scanned again as code. */
static bool hash_byte(struct read_bounds *b, uint8_t c)
{
    b->mode = B_CODE;
    if (c == '\'') {
        prefix(b);
    } else if (c == '(' || c == '[') {
        open_list(b);
    } else if (c == '@') {
        b->mode = B_DOCREF;
        b->digits = 0;
        b->nonzero = false;
    } else if (c == '!') {
        b->mode = B_COMMENT;
    } else if (c >= '0' && c <= '9') {
        b->mode = B_HASH_NUM;
    } else {
        return false; /* #x, #s(, #^[, #&, #:, ##...: symbol bytes, lists */
    }
    return true;
}

/* After `#@`: a count of two zeros skips the rest; any other count
 * skips past the character after it and up to the next 0x1F. */
static bool docref_byte(struct read_bounds *b, uint8_t c)
{
    if (c >= '0' && c <= '9') {
        b->nonzero |= c != '0';
        if (++b->digits == 2 && !b->nonzero)
            b->mode = B_SKIP_ALL;
        return true;
    }
    b->mode = B_SKIP;
    return b->nonzero; /* that character is skipped; else scan it again */
}

/* The byte c at pos - 1 in a state other than code; false when it is to
 * be scanned again as code. */
static bool other_byte(struct read_bounds *b, uint8_t c)
{
    switch (b->mode) {
    case B_STRING:
        b->mode = c == '\\' ? B_STRING_ESC : c == '"' ? B_CODE : B_STRING;
        b->at_start = true;
        return true;
    case B_STRING_ESC: b->mode = B_STRING; return true;
    case B_COMMENT:
        if (c != '\n')
            return true;
        b->mode = B_CODE;
        return false; /* the line end is scanned as code */
    case B_SYMBOL_ESC: b->mode = B_CODE; return true;
    case B_CHAR: b->mode = c == '\\' ? B_CHAR_ESC : B_CODE; return true;
    case B_CHAR_ESC:
        b->mode = modifier(c) ? B_CHAR_MOD : c == '^' ? B_CHAR : B_CODE;
        return true;
    case B_CHAR_MOD:
        b->mode = c == '-' ? B_CHAR : B_CODE;
        return c == '-';
    case B_COMMA:
        b->mode = B_CODE;
        return c == '@';
    case B_HASH: return hash_byte(b, c);
    case B_HASH_NUM:
        if (c >= '0' && c <= '9')
            return true;
        b->mode = B_CODE;
        if (c == '=') {
            prefix(b);
            return true;
        }
        return false; /* #1#, #24r...: symbol bytes */
    case B_DOCREF: return docref_byte(b, c);
    case B_SKIP:
        if (c == 0x1F) {
            b->mode = B_CODE;
            b->at_start = true;
        }
        return true;
    default: /* B_SKIP_ALL */
        return true;
    }
}

void read_bounds_scan(struct read_bounds *b, const uint8_t *text, size_t len)
{
    size_t p = b->pos;
    while (p < len) {
        uint8_t c = text[p++];
        bool after_blank = b->blanks;
        b->blanks = false; /* code_byte says when it is one */
        if (b->mode == B_CODE || !other_byte(b, c))
            code_byte(b, c, p, !after_blank);
    }
    b->pos = p;
}

void read_bounds_shift(struct read_bounds *b, size_t by)
{
    b->pos -= by;
    b->ready = b->ready > by ? b->ready - by : 0;
}
