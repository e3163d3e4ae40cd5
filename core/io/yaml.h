/* yaml.h - YAML documents as plain trees: parsing and emitting.
 *
 * Layer io, the only place that knows libfyaml (0.7.12, cli.md section 14).
 * yaml_parse turns a YAML text into an arena-owned tree of yaml_node whose
 * positions are byte offsets into the text, with libfyaml's errors as
 * diagnostics; the configuration (config.h) and the golden manifest
 * (golden.h) validate that tree.  yaml_emit prints a tree built with the
 * yaml_new_* functions as block YAML or as one line of JSON.
 */
#ifndef PCX_YAML_H
#define PCX_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/source.h"

enum yaml_kind {
    YAML_NULL,   /* an empty value ("key:" with nothing after it) */
    YAML_SCALAR, /* text; YAML gives it no type: callers validate */
    YAML_SEQ,    /* items */
    YAML_MAP,    /* key/value pairs in document order */
};

/* How a scalar was written, or how it is to be emitted. */
enum yaml_style {
    YAML_STYLE_PLAIN,   /* unquoted; emitted as is (numbers, true, false) */
    YAML_STYLE_SINGLE,  /* 'single-quoted' */
    YAML_STYLE_DOUBLE,  /* "double-quoted" */
    YAML_STYLE_LITERAL, /* | block */
    YAML_STYLE_FOLDED,  /* > block */
    YAML_STYLE_AUTO,    /* emit only: a string, quoted as its text needs */
};

struct yaml_node {
    enum yaml_kind kind;
    enum yaml_style style;    /* scalars */
    const char *text;         /* scalar value, NUL-terminated (arena) */
    size_t len;               /* bytes in text */
    uint32_t pos;             /* byte offset of the node in the YAML text:
                                 a scalar's first value byte (a block
                                 scalar's first content line), a
                                 collection's first item, an empty value's
                                 key */
    struct yaml_node **kids;  /* SEQ: n items; MAP: key 2i, value 2i+1 */
    size_t n;                 /* items, or pairs */
    size_t cap;               /* room in kids (building) */
};

/**
 * yaml_parse - parse the first YAML document of s->text.
 * @a: where the tree lives.
 * @s: the YAML text and its name (positions of the tree are offsets in it).
 * @code: diagnostic code of syntax errors ("config", "manifest").
 * @d: receives syntax errors (libfyaml's messages, with hints for the
 *     cases cli.md section 14 lists) at their positions in s; anchors,
 *     aliases, non-scalar keys, duplicate keys, a NUL byte and a second
 *     document are errors too.
 * @root: gets the tree; a node of kind YAML_NULL for an empty text.
 * Returns true when there was no error.  libfyaml's memory is released
 * before anything is allocated from a, so running out of arena memory
 * never leaks it.
 */
bool yaml_parse(struct arena *a, struct source *s, const char *code,
                struct diag_list *d, struct yaml_node **root);

/**
 * yaml_key_compares - how many times this thread's yaml_parse calls have
 * compared two keys of a mapping (looking for duplicates), for tests:
 * a hash of the keys keeps it about linear in the number of keys.
 */
size_t yaml_key_compares(void);

/**
 * yaml_map_get - the value of key in map (a YAML_MAP), or NULL when map
 * is not a mapping or has no such key.
 */
const struct yaml_node *yaml_map_get(const struct yaml_node *map,
                                     const char *key);

/**
 * yaml_text_offset - where byte off of scalar n's value sits in the YAML
 * text s.  Exact for plain and quoted scalars on one line without escapes
 * and for | blocks (line by line, below the block's indentation); the
 * position of the scalar otherwise.  For diagnostics about a Lisp snippet.
 */
uint32_t yaml_text_offset(const struct source *s, const struct yaml_node *n,
                          size_t off);

/* ---- building trees to emit ---- */

/* A string scalar (copied); its quoting is chosen when emitting. */
struct yaml_node *yaml_new_string(struct arena *a, const char *text,
                                  size_t len);
/* A scalar emitted as written: a number, true, false or null. */
struct yaml_node *yaml_new_plain(struct arena *a, const char *text);
struct yaml_node *yaml_new_int(struct arena *a, long long v);
struct yaml_node *yaml_new_bool(struct arena *a, bool v);
/* An empty collection of kind YAML_SEQ or YAML_MAP. */
struct yaml_node *yaml_new(struct arena *a, enum yaml_kind kind);
/* Append an item to a sequence. */
void yaml_push(struct arena *a, struct yaml_node *seq, struct yaml_node *v);
/* Append the pair (key, v) to a mapping (key copied). */
void yaml_put(struct arena *a, struct yaml_node *map, const char *key,
              struct yaml_node *v);

enum yaml_emit_mode {
    YAML_EMIT_BLOCK, /* block YAML; lists of scalars in flow style; multi-line
                        strings as | blocks */
    YAML_EMIT_JSON,  /* JSON on one line, no spaces, no final newline */
};

/**
 * yaml_emit - append root as YAML or JSON to out.  Block output ends with
 * a newline; a string is plain when YAML reads it back as the same
 * string, else a | block (several lines) or double-quoted.  Every string
 * reads back as itself (invalid UTF-8 becomes U+FFFD).
 */
void yaml_emit(struct buf *out, const struct yaml_node *root,
               enum yaml_emit_mode mode);

#endif
