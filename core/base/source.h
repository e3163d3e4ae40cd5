/* source.h - one input text and the map from byte offsets to positions.
 *
 * Layer base: spans everywhere in the pipeline are byte offsets into a
 * source; only when a diagnostic is rendered is an offset turned into a
 * 1-based line and screen column (cli.md section 10).  The line-start
 * table is built on the first such request, so a clean run never pays.
 */
#ifndef PCX_SOURCE_H
#define PCX_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* A stretch of a text that begins a line: from byte off on, the text is
 * the input's from line `line` (1-based) on. */
struct source_seg {
    uint32_t off;
    uint32_t line;
};

struct source {
    const char *name;      /* as shown in diagnostics ("<stdin>", a path) */
    const uint8_t *text;   /* the bytes, not owned, not NUL-terminated */
    size_t len;            /* bytes in text (< 4 GiB: spans are 32-bit) */
    struct arena *a;       /* where the line table is allocated */
    uint32_t *lines;       /* byte offset of each line start; NULL until needed */
    size_t n_lines;        /* entries in lines */
    /* The last position computed (line index + 1, 0 for none): the next
     * one on the same line counts columns on from there, so positions
     * on a long line are not each counted from its start. */
    size_t last_line;
    uint32_t last_off, last_col;
    /* The text is pieces of a longer input (a stretch of standard input,
     * with definitions read before it): where each begins, by offset
     * (NULL: the text is the input, its first line line 1). */
    const struct source_seg *segs;
    size_t n_segs;
};

/* 1-based line and screen column of a byte offset. */
struct source_pos {
    uint32_t line;
    uint32_t col;
};

/* Columns advance to the next multiple of this at a TAB, as
 * compilation-mode counts them (cli.md section 10). */
#define SOURCE_TAB_WIDTH 8

/* Describe text (len bytes, kept by reference) named name.  The line
 * table, when built, comes from arena a. */
void source_init(struct source *s, struct arena *a, const char *name,
                 const uint8_t *text, size_t len);

/* Position of byte offset off (clamped to len), in the input (segs).  The column counts
 * characters of extended UTF-8 (an undecodable byte is one character),
 * with TAB advancing to the next multiple of SOURCE_TAB_WIDTH; an offset in
 * the middle of a character gives that character's column.  An offset just
 * after a LF is on the next line. */
struct source_pos source_pos(struct source *s, uint32_t off);

/* Byte length (1..5) of the character starting at p (n > 0 bytes
 * available), decoding as Emacs decodes utf-8-emacs: valid sequences up to
 * 0x3FFF7F are one character, any other byte is a raw-byte character. */
int source_char_len(const uint8_t *p, size_t n);

#endif
