/* diag.h - diagnostics collected per run, rendered later.
 *
 * A function that fails on user input records one diagnostic and returns
 * false/NULL; nothing here prints.  Spans are byte offsets into the run's
 * source text; line/column are computed only when rendering (source.h).
 */
#ifndef PCX_DIAG_H
#define PCX_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

enum diag_severity {
    DIAG_ERROR,
    DIAG_WARNING,
    DIAG_NOTE,
};

struct diag {
    enum diag_severity sev; /* error / warning / note */
    uint32_t start, end;    /* byte span in the source (end >= start) */
    const char *code;       /* "read", "malformed-pattern", ... (static string) */
    const char *message;    /* formatted, arena-owned */
    const char *witness;    /* exhaustive-can-fail: a value no clause
                               matches, printed readably (arena), or NULL */
    const void *detail;     /* what the recording layer attached (the
                               expander: Emacs's error), or NULL; valid
                               only while the run expands */
};

struct diag_list {
    struct arena *a;     /* owner of items and messages */
    struct diag *items;  /* in order of recording */
    size_t n, cap;       /* used / allocated */
    size_t n_errors;     /* items with DIAG_ERROR */
    size_t n_warnings;   /* items with DIAG_WARNING */
};

void diag_init(struct diag_list *d, struct arena *a);

/* Record a diagnostic; fmt is printf-style.  Returns the new item. */
struct diag *diag_add(struct diag_list *d, enum diag_severity sev,
                      uint32_t start, uint32_t end, const char *code,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
struct diag *diag_addv(struct diag_list *d, enum diag_severity sev,
                       uint32_t start, uint32_t end, const char *code,
                       const char *fmt, va_list ap);

/* Attach witness (an arena string) to the last item recorded. */
void diag_set_witness(struct diag_list *d, const char *witness);

/* Forget the items from index n on (their counts too). */
void diag_truncate(struct diag_list *d, size_t n);

/* Stable sort by start position (ties keep recording order; notes stay
 * after the diagnostic they follow). */
void diag_sort(struct diag_list *d);

#endif
