/* read_int.h - state shared by the reader's files (not a public interface).
 *
 * Stage 1b of the pipeline.  read.c runs the explicit-stack machine over
 * the text's tokens (its own scan, lex.c for the rarer ones) and builds
 * lists, vectors and atoms; read_forms.c builds the `#` objects that need
 * validation (records, hash tables, byte-code, char-tables, bool-vectors,
 * text properties) and resolves `#N=` labels; read_origin.c keeps the
 * value -> span map.
 */
#ifndef PCX_READ_INT_H
#define PCX_READ_INT_H

#include "lex.h"
#include "read.h"

/* A finished object and the span of its text. */
struct item {
    struct value *v; /* the object */
    uint32_t start;  /* first byte of its text (prefixes and labels included) */
    uint32_t end;    /* one past its last byte */
};

/* start and end are read together, as a struct span. */
_Static_assert(offsetof(struct item, end) == offsetof(struct item, start) + 4 &&
                   offsetof(struct span, end) == 4 && sizeof(struct span) == 8,
               "an item's start and end are laid out as a struct span");

enum frame_kind {
    FR_LIST,    /* ( ... ) */
    FR_RECORD,  /* #s( ... ): read as a list, then converted */
    FR_VECTOR,  /* [ ... ], #[ ... ], #^[ ... ], #^^[ ... ] */
    FR_PROPS,   /* #( "string" BEG END PLIST ... ): elements kept, then
                   checked and applied at `)` */
    FR_PREFIX,  /* ' ` , ,@ #' waiting for their object */
    FR_LABEL,   /* #N= waiting for its object */
};

/* Frame flags. */
#define FRAME_REFERENCED 1 /* FR_LABEL: #N# used inside the object */
#define FRAME_IN_LIST 2    /* FR_LIST, FR_PREFIX pushed by the machine: the
                              frame below is a list before its dot, so the
                              object goes there when this frame finishes */

/* One open construct on the explicit stack. */
struct frame {
    uint8_t kind;     /* enum frame_kind */
    uint8_t dot;      /* lists: 0 no dot yet, 1 after the dot, 2 after the cdr */
    uint8_t sub;      /* FR_VECTOR: value kind; FR_PREFIX: enum lex_kind */
    uint8_t flags;    /* FRAME_* */
    uint32_t start;   /* first byte of the opening token */
    uint32_t tok_end; /* end of the opening token (not kept for FR_LIST) */
    uint32_t base;    /* first element of this frame on the item stack */
    union {
        struct item tail;        /* lists: the object after the dot */
        struct value *ph;        /* FR_LABEL: the placeholder cons */
        uint32_t run;            /* FR_PREFIX: the prefix this many times,
                                    each token right after the one before
                                    (a row of quotes takes one frame) */
    } u;
    int64_t label;    /* FR_LABEL: N */
};

/* #N= labels of the current top-level form: open addressing on N. */
struct label_slot {
    int64_t n;          /* label number; -1 = empty */
    struct value *v;    /* current object (or placeholder) */
    int32_t frame;      /* index of the FR_LABEL frame still reading it, or -1 */
};

struct reader {
    struct lisp *L;
    struct arena *a;
    struct lex lx;            /* the lexer, for the tokens read.c does not
                                 scan itself */
    struct lex_token tok;     /* the token read_next_token returned last */
    size_t pos;               /* end of the last token the lexer read or
                                 whose item went to a frame other than a
                                 list: where read_next_token goes on, and
                                 where a top-level object ends */
    const uint8_t *text;      /* the source */
    size_t len;
    struct frame *frames;     /* the explicit stack */
    size_t nframes, capframes;
    size_t most_frames;       /* the most nframes has been in this form */
    struct item *items;       /* elements of open lists and vectors */
    size_t nitems, capitems;
    struct label_slot *labels; /* NULL until the first #N= of a form */
    size_t capl, nlabels;
    bool labels_used;         /* some #N= occurred in this top-level form */
    uint32_t n_heads;         /* head tokens of this top-level form so far */
    uint32_t heads[READ_HEADS_MAX]; /* where the first ones start */
    struct read_origin *origin;
    struct intern_slot *islots; /* the symbol table's slots and capacity */
    size_t imask;               /* less one, as of the last intern by the
                                   machine (intern_slow) or its start */
    struct read_error err;
};

/* ---- errors (read.c) ---- */
/* Record an error with a message string as its only data.  Returns false. */
bool read_fail(struct reader *R, size_t pos, const char *symbol, const char *msg);
/* Record an error whose data is msg (NULL: none) followed by the values. */
bool read_failv(struct reader *R, size_t pos, const char *symbol, const char *msg,
                struct value *x, struct value *y);

/* ---- shared helpers (read.c) ---- */
/* The next token, or NULL after recording the lexical error that comes
 * next.  The token stays valid until the following call. */
const struct lex_token *read_next_token(struct reader *R);
struct value *read_make_string(struct reader *R, const uint8_t *data, size_t len,
                               bool multibyte, size_t nchars);
/* Decode the string token t (escapes, unibyte/multibyte rules). */
bool read_string_token(struct reader *R, const struct lex_token *t, struct value **out);

/* ---- # objects (read_forms.c) ---- */
/* Turn the list read for #s( ... ) into a record or a hash table. */
bool read_make_record(struct reader *R, struct value *list, uint32_t start,
                      struct value **out);
/* Validate and convert a finished #[ #^[ #^^[ vector in place. */
bool read_check_vector(struct reader *R, struct value *v, uint32_t start);
/* #( at its `)` [pos, end): the string and the BEG END PLIST triples are
 * the frame's elements; apply them (Emacs's checks, in its order). */
bool read_props_finish(struct reader *R, struct frame *f, uint32_t pos, uint32_t end,
                       struct item *out);
/* #&N with its string s (read at pos): the bool-vector, or an error. */
bool read_make_boolvec(struct reader *R, uint64_t nbits, const struct value *s,
                       uint32_t pos, struct value **out);
/* #N=: define, reference, finish (NULL after an error). */
void read_label_begin(struct reader *R, struct frame *f, size_t frame_index);
bool read_label_ref(struct reader *R, const struct lex_token *t, struct value **out);
struct value *read_label_finish(struct reader *R, struct frame *f, struct value *v);
void read_labels_reset(struct reader *R);

/* ---- origin map (read_origin.c) ---- */

/* One value's entry. */
struct origin_slot {
    const struct value *key; /* the value this entry describes */
    struct span span;        /* text of the value */
    struct span car;         /* conses: text of the car */
};

/* Entries are appended in reading order; a value's `origin` field is the
 * index of its entry, checked against the entry's key.  They are kept in
 * chunks of ORIGIN_CHUNK entries, so the map takes memory as it fills
 * (a table sized for the densest text left most of itself unused on
 * most texts) and never copies itself; entry i is entry i % ORIGIN_CHUNK
 * of chunk i / ORIGIN_CHUNK. */
#define ORIGIN_CHUNK_BITS 12
#define ORIGIN_CHUNK ((size_t)1 << ORIGIN_CHUNK_BITS)

struct read_origin {
    struct arena *a;
    struct origin_slot **chunks; /* entry 0 of chunk 0 unused: index 0 means none */
    size_t nchunks, capchunks;
    struct origin_slot *last;    /* the last chunk */
    struct origin_slot *next;    /* its first unused entry (entry n) */
    struct origin_slot *end;     /* and its end (entry lim) */
    uint32_t first;              /* index of its first entry */
    uint32_t lim;                /* index past its last entry */
    uint32_t n;                  /* entries used, entry 0 included */
    const uint8_t *text;         /* the source, for read_origin_text */
};

struct read_origin *read_origin_new(struct arena *a, const uint8_t *text, size_t len);
/* Out of line and rare: calls to it are kept off the reader's hot paths. */
#ifdef __GNUC__
#define READ_COLD __attribute__((cold, noinline))
#else
#define READ_COLD
#endif

/* Room for one more entry at least (a new chunk when the last one is full). */
READ_COLD void read_origin_grow(struct read_origin *o);

/* n (> 0) consecutive new entries for values the reader has just built
 * (which have none yet), the first of index *index, or NULL when the
 * last chunk has fewer than n left (then take them one at a time).  The
 * caller fills them and sets each value's origin to its entry's index.
 * Inline: the reader records a value per token. */
static inline struct origin_slot *read_origin_take(struct read_origin *o, size_t n,
                                                   uint32_t *index)
{
    struct origin_slot *e = o->next;
    if ((size_t)((char *)o->end - (char *)e) < n * sizeof *e) {
        if (n > 1)
            return NULL;
        read_origin_grow(o);
        e = o->next;
    }
    o->next = e + n;
    *index = o->n;
    o->n += (uint32_t)n;
    return e;
}

/* Record the span of v (and, for conses, of its car). */
void read_origin_put(struct read_origin *o, const struct value *v, uint32_t start,
                     uint32_t end, uint32_t car_start, uint32_t car_end);
/* Give v the origin recorded for from (used for #N= placeholders). */
void read_origin_copy(struct read_origin *o, const struct value *v,
                      const struct value *from);

#endif
