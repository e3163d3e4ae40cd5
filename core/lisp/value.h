/* value.h - Lisp values: tagged, immutable once built, arena-allocated.
 *
 * Layer `lisp`: knows Lisp data, nothing about text positions.  Values never
 * carry source positions (those live in the reader's origin map), so equal
 * sub-values may be shared freely by the compiler.
 *
 * Symbols are interned per `struct lisp` (see intern.h): `eq` on interned
 * symbols is pointer equality.  Uninterned symbols (`#:x`, temporaries) are
 * separate objects with interned == false.
 *
 * Strings use Emacs's own two representations:
 *   unibyte   - one byte per character; bytes >= 0x80 are raw bytes;
 *   multibyte - Emacs's internal encoding: characters 0..0x3FFF7F as
 *               extended UTF-8 (1..5 bytes), raw bytes 0x80..0xFF (chars
 *               0x3FFF80..0x3FFFFF) as the two bytes C0/C1 + (b & 0x3F | 0x80).
 * So two strings are `equal` iff their bytes are equal and either both have
 * the same multibyteness or both are pure ASCII.
 */
#ifndef PCX_VALUE_H
#define PCX_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/arena.h"

/* Emacs's fixnum range on 64-bit hosts (62-bit). */
#define VALUE_FIXNUM_MAX INT64_C(2305843009213693951)
#define VALUE_FIXNUM_MIN (-VALUE_FIXNUM_MAX - 1)

enum value_kind {
    VK_INT,          /* u.i: any integer that fits in int64 */
    VK_BIGNUM,       /* u.big: integer outside int64 */
    VK_FLOAT,        /* u.f: IEEE double, NaN payload and -0.0 preserved */
    VK_SYMBOL,       /* u.sym */
    VK_STRING,       /* u.str */
    VK_CONS,         /* u.cons */
    VK_VECTOR,       /* u.vec: [a b c] */
    VK_RECORD,       /* u.vec: #s(type slot...), items[0] is the type */
    VK_BYTECODE,     /* u.vec: #[args code consts depth ...] */
    VK_CHARTABLE,    /* u.vec: #^[...] */
    VK_SUBCHARTABLE, /* u.vec: #^^[depth minchar ...] */
    VK_BOOLVEC,      /* u.bv: #&N"..." */
    VK_HASHTABLE,    /* u.hash: #s(hash-table ...) */
};

struct value;

struct value_symbol {
    const char *name;   /* bytes in Emacs's internal (multibyte) encoding, NUL-terminated */
    uint32_t len;       /* bytes in name */
    uint32_t hash;      /* hash of name (interned symbols) */
    bool interned;      /* false for #:x and generated temporaries */
    bool multibyte;     /* name has non-ASCII characters */
    uint8_t row[7];     /* lookup caches, see value_sym_row */
    uint8_t plain;      /* print_symbol's cache: 0 not known yet, 1 the name
                           prints as it is, 2 it needs backslashes */
    uint32_t id;        /* intern order (interned) or creation order (uninterned):
                           a stable number for deterministic ordering */
    uint32_t temp;      /* uninterned temporaries: 1 + their index in the
                           expander's table of temporaries (expand/gensym),
                           which checks it is its own; 0 for other symbols */
};

struct value_string {
    const uint8_t *data; /* bytes (see header comment) */
    size_t len;          /* bytes in data */
    size_t nchars;       /* characters */
    bool multibyte;      /* representation; see header comment */
    struct value *props; /* text properties: NULL for none, else a list
                            (B0 E0 P0 B1 E1 P1 ...) of maximal intervals in
                            order, character positions, non-nil plists only */
};

struct value_cons {
    struct value *car;
    struct value *cdr;
};

struct value_vec {
    struct value **items; /* elements */
    size_t n;             /* number of elements */
};

struct value_bignum {
    const char *digits;       /* decimal magnitude, no leading zeros,
                                 NUL-terminated; NULL until a radix
                                 literal's value is needed: read it with
                                 value_big_digits */
    const char *radix_digits; /* a radix literal's digits (no sign, no
                                 leading zero), radix_len of them */
    size_t radix_len;
    struct arena *a;          /* where its decimal digits will go */
    int radix;
    bool neg;                 /* sign */
};

struct value_boolvec {
    size_t nbits;        /* length N */
    const uint8_t *bits; /* ceil(N/8) bytes, bit j of byte i = element 8i+j */
};

/* A hash table as Emacs 30 keeps and prints it: its test, weakness and
 * purecopy flag, and the data after insertion (repeated keys keep the
 * last value, first position).  Emacs 30 ignores sizes and rehash
 * parameters. */
struct value_hash {
    struct value *test;     /* symbol eql/eq/equal/other */
    struct value *weakness; /* NULL or symbol */
    bool purecopy;
    struct value *data;     /* list (K V K V ...) */
};

struct value {
    uint8_t kind;    /* enum value_kind */
    uint32_t origin; /* the reader's origin map: index of this value's
                        entry in the map of the read that made it (0 for
                        none).  The map checks the entry's key, so a stale
                        or foreign index finds nothing; nothing else reads
                        it.  Every constructor sets 0. */
    union {
        int64_t i;
        double f;
        struct value_bignum big;
        struct value_symbol sym;
        struct value_string str;
        struct value_cons cons;
        struct value_vec vec;
        struct value_boolvec bv;
        struct value_hash hash;
    } u;
};

/* ---- constructors (all allocate from a) ---- */
struct value *value_int(struct arena *a, int64_t i);
/* digits: decimal magnitude (leading zeros allowed, stripped); returns a
 * VK_INT when the value fits in int64, else a VK_BIGNUM. */
struct value *value_integer_from_decimal(struct arena *a, const char *digits,
                                         size_t n, bool neg);
/* A radix literal's integer beyond int64 (n digits in radix 2..36, no
 * sign, no leading zero; copied): the decimal digits are computed only
 * when asked for.  An untouched literal is printed from its text, so
 * reading a file never pays for the conversion (n^1.59). */
struct value *value_bignum_radix(struct arena *a, const char *digits, size_t n,
                                 int radix, bool neg);
/* The decimal magnitude of bignum v (computed and kept the first time). */
const char *value_big_digits(const struct value *v);
struct value *value_float(struct arena *a, double f);
struct value *value_cons(struct arena *a, struct value *car, struct value *cdr);
/* data is copied; nchars is computed; props start as NULL (none). */
struct value *value_string(struct arena *a, const void *data, size_t len,
                           bool multibyte);
struct value *value_vector(struct arena *a, enum value_kind kind, size_t n);

/* ---- per-symbol lookup caches ----
 * Modules that look a symbol up in a static table by name (once per
 * visited form) keep the answer on the symbol: a pure function of the
 * name, so it is a cache, not a change of the value.  Each symbol belongs
 * to one run, so no two threads write the same byte. */
enum value_row_cache {
    VALUE_ROW_WALK, VALUE_ROW_EXPAND, VALUE_ROW_PATTERN, VALUE_ROW_WITNESS, VALUE_ROW_LEARN,
    VALUE_ROW_CLEAN, VALUE_ROW_FACTS
};
#define VALUE_ROW_NONE 255 /* not in the table; 0 = not looked up yet */

/* Row of sym in cache `which` (0-based), or -1 when not in the table;
 * find(name) is called once per symbol and must return a row < 254. */
static inline int value_sym_row(const struct value *sym, enum value_row_cache which,
                                int (*find)(const char *name))
{
    uint8_t c = sym->u.sym.row[which];
    if (c == 0) {
        int r = find(sym->u.sym.name);
        c = r < 0 ? VALUE_ROW_NONE : (uint8_t)(r + 1);
        ((struct value *)sym)->u.sym.row[which] = c;
    }
    return c == VALUE_ROW_NONE ? -1 : c - 1;
}

/* ---- predicates and accessors ---- */
static inline bool value_is(const struct value *v, enum value_kind k) { return v->kind == k; }
static inline bool value_consp(const struct value *v) { return v->kind == VK_CONS; }
static inline bool value_symbolp(const struct value *v) { return v->kind == VK_SYMBOL; }
static inline bool value_integerp(const struct value *v)
{
    return v->kind == VK_INT || v->kind == VK_BIGNUM;
}
static inline bool value_numberp(const struct value *v)
{
    return value_integerp(v) || v->kind == VK_FLOAT;
}
static inline struct value *value_car(const struct value *v) { return v->u.cons.car; }
static inline struct value *value_cdr(const struct value *v) { return v->u.cons.cdr; }

/* Is v an integer in Emacs's fixnum range (so `eq` compares it by value)? */
bool value_fixnump(const struct value *v);

/* Emacs's `eql` and `equal` (equal ignores text properties, as Emacs does;
 * hash tables compare by identity).  equal does not recurse on the C stack
 * along cdr chains; it uses an explicit stack for cars and vector items. */
bool value_eql(const struct value *x, const struct value *y);
bool value_equal(const struct value *x, const struct value *y);

/* Number of elements of a proper list; -1 if v is not a proper list
 * (dotted, or circular). nil is the empty list: pass it in. */
long value_list_length(const struct value *v, const struct value *nil);

/* ---- characters ---- */
/* Highest character code; raw bytes are 0x3FFF80..0x3FFFFF. */
#define VALUE_MAX_CHAR 0x3FFFFF
#define VALUE_RAW_BYTE_BASE 0x3FFF00

/* Append character c (0..VALUE_MAX_CHAR) in internal multibyte encoding to
 * out (at least 5 bytes); returns the bytes written. */
int value_char_encode(uint32_t c, uint8_t *out);
/* Decode one character of internal encoding at p (n bytes available);
 * stores the byte length in *len.  Invalid sequences decode as raw bytes of
 * one byte. */
uint32_t value_char_decode(const uint8_t *p, size_t n, int *len);

#endif
