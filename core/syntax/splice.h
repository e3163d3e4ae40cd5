/* splice.h - lossless output: the input with replaced forms printed in.
 *
 * Last stage of the pipeline in default mode (cli.md 4.1, 4.2).  Every
 * byte outside the replaced forms is copied unchanged; each replaced form
 * is printed by the pretty printer at the column where it started, the
 * user's code in it keeping its text, with the comments that were inside
 * it re-emitted: with the code they were attached to when that code
 * survives in the expansion, the comments of a pcase clause (and the
 * empty line before it) before the branch that carries its body, else
 * just before the expansion.  Line ends follow the input (CRLF when its
 * first line ends in CRLF, cli.md section 2).
 */
#ifndef PCX_SPLICE_H
#define PCX_SPLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "lisp/intern.h"
#include "syntax/pretty.h"
#include "syntax/read.h"

/* One change of the text kept between sites: the bytes [start, end)
 * are replaced by text (len bytes; start == end inserts).  Edits lie in
 * kept text, in text order, not overlapping (--add-requires). */
struct splice_edit {
    size_t start, end;
    const char *text;
    size_t len;
};

/* One replaced form. */
struct splice_site {
    const struct value *orig;      /* the form as read (its span is replaced) */
    const struct value *expansion; /* what is printed instead */
};

/* The datum of the input that a value of an expansion stands for (the
 * value itself, or the read form a copy was made from); NULL = identity. */
typedef const struct value *(*splice_origin_fn)(void *ctx, const struct value *v);

/* The clause (PATTERN BODY...) of a pcase form of the input whose body
 * the code v of an expansion carries (v is a list, or the list cell
 * holding an atom); for such a clause itself, the clause when some code
 * carries it; NULL for anything else. */
typedef const struct value *(*splice_clause_fn)(void *ctx, const struct value *v);

/* Called before the first site of each top-level form is printed, with
 * the highest #N= label of that form's text (restarts temporaries'
 * numbering; see gensym_begin_form_cb). */
typedef void (*splice_form_fn)(void *ctx, unsigned label_floor);

struct splice_in {
    struct lisp *L;                 /* arena and symbols */
    const uint8_t *text;            /* the whole input */
    size_t len;
    size_t start;                   /* output begins here (0: the whole
                                       text; no site may start before) */
    const struct read_result *src;  /* its top-level forms and origin map */
    const struct splice_site *sites;/* in text order, not overlapping */
    size_t n_sites;
    struct pretty_opts pretty;      /* width, user indent table, sym_text;
                                       src, comments and newline are set here */
    splice_origin_fn origin;        /* copy -> original (may be NULL) */
    splice_clause_fn clause_of;     /* code -> clause (may be NULL: comments
                                       of clauses go before the expansion) */
    splice_clause_fn rider_of;      /* clause -> the next clause whose code
                                       joined it (may be NULL) */
    void *origin_ctx;               /* of origin, clause_of and rider_of */
    splice_form_fn begin_form;      /* may be NULL */
    void *begin_ctx;
    const struct splice_edit *edits;/* changes of the kept text (may be NULL;
                                       one in a replaced span is an error) */
    size_t n_edits;
    const char *newline;            /* generated line ends; NULL: CRLF when
                                       the text's first line ends in CRLF,
                                       else LF */
};

/* What replaced one site, for --format=yaml|json: the text as printed
 * from the site's first column (re-emitted comments first), without the
 * line break that may precede it. */
struct splice_text {
    const char *text;
    size_t len;
};

/* Append the whole output to out.  texts, when not NULL, gets one entry
 * per site.  Returns false (out then holds a prefix of the output) when a
 * site has no span in the source, an expansion cannot be printed (it
 * contains itself) or an edit falls in a replaced span - all internal
 * errors. */
bool splice_source(const struct splice_in *in, struct buf *out,
                   struct splice_text *texts);

/* The read labels of text[start..end), which starts at a token, found by
 * the lexer (never in strings or comments): *defines, some `#N=`;
 * *refers, some `#N#`.  Returns the largest N defined (below 10^9), 0 if
 * none. */
unsigned splice_labels(const uint8_t *text, size_t len, uint32_t start, uint32_t end,
                       bool *defines, bool *refers);

/* The largest N of the `#N=` labels in text[start..end) (a top-level
 * form), 0 if none: circle-mode labels of that form start above it. */
unsigned splice_label_floor(const uint8_t *text, size_t len, uint32_t start,
                            uint32_t end);

/* Does the first line of text end in CRLF? */
bool splice_crlf(const uint8_t *text, size_t len);

#endif
