/* report.h - diagnostics rendered as text for people and tools.
 *
 * Layer base, the last step of a run: a diag_list (byte spans) plus its
 * source become lines in one of the formats of cli.md section 10 (GNU,
 * JSON Lines, GitHub workflow commands), appended to a buffer that the
 * caller writes out.  Positions are computed here, lazily, via source.h.
 */
#ifndef PCX_REPORT_H
#define PCX_REPORT_H

#include <stdbool.h>

#include "buf.h"
#include "diag.h"
#include "source.h"

enum report_format {
    REPORT_GNU,    /* FILE:LINE:COL: error: message [code] */
    REPORT_JSON,   /* {"file":...,"line":...,...} per line */
    REPORT_GITHUB, /* ::error file=F,line=L,col=C,...::message [code] */
};

struct report_opts {
    enum report_format format;
    bool werror; /* warnings are printed as errors */
    bool quiet;  /* notes are left out */
};

/* Append s as shown on a line of text: a control character (C0, DEL,
 * C1) as \t, \n, \r or \xHH per byte, a byte that is no UTF-8 as \xHH;
 * everything else as it is.  Names and messages go through it in every
 * format, so that no file name can move a terminal's cursor, colour a CI
 * log or break a line in two (JSON: \u escapes, U+FFFD for a bad byte). */
void report_put_text(struct buf *b, const char *s);

/* Append every diagnostic of d, in list order, for source s to b.  Each
 * diagnostic is exactly one line (newlines inside messages are escaped). */
void report_render(struct buf *b, struct source *s, const struct diag_list *d,
                   const struct report_opts *o);

/* Append one diagnostic that has no position in a text (an unreadable
 * file, out of memory): "NAME: error: message [code]" in GNU format. */
void report_plain(struct buf *b, const char *name, enum diag_severity sev,
                  const char *code, const char *message,
                  const struct report_opts *o);

/* Append an unpositioned message of the program itself ("pcexpand: note:
 * ...") in the chosen format; notes are dropped when quiet. */
void report_tool(struct buf *b, enum diag_severity sev, const char *message,
                 const struct report_opts *o);

#endif
