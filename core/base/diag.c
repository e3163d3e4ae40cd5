/* diag.c - diagnostics list (see diag.h). */
#include "diag.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"

void diag_init(struct diag_list *d, struct arena *a)
{
    memset(d, 0, sizeof *d);
    d->a = a;
}

struct diag *diag_addv(struct diag_list *d, enum diag_severity sev,
                       uint32_t start, uint32_t end, const char *code,
                       const char *fmt, va_list ap)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        d->items = arena_grow(d->a, d->items, d->cap * sizeof *d->items,
                              cap * sizeof *d->items);
        d->cap = cap;
    }
    struct buf b;
    buf_init(&b, d->a);
    buf_vprintf(&b, fmt, ap);
    struct diag *g = &d->items[d->n++];
    g->sev = sev;
    g->start = start;
    g->end = end < start ? start : end;
    g->code = code;
    g->message = buf_cstr(&b);
    g->detail = NULL;
    g->witness = NULL;
    if (sev == DIAG_ERROR)
        d->n_errors++;
    else if (sev == DIAG_WARNING)
        d->n_warnings++;
    return g;
}

struct diag *diag_add(struct diag_list *d, enum diag_severity sev,
                      uint32_t start, uint32_t end, const char *code,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct diag *g = diag_addv(d, sev, start, end, code, fmt, ap);
    va_end(ap);
    return g;
}

void diag_set_witness(struct diag_list *d, const char *witness)
{
    if (d->n)
        d->items[d->n - 1].witness = witness;
}

void diag_truncate(struct diag_list *d, size_t n)
{
    while (d->n > n) {
        enum diag_severity sev = d->items[--d->n].sev;
        d->n_errors -= sev == DIAG_ERROR;
        d->n_warnings -= sev == DIAG_WARNING;
    }
}

/* Group = a diagnostic plus the notes recorded right after it.  Insertion
 * sort of groups by start keeps it stable and allocation-free. */
void diag_sort(struct diag_list *d)
{
    for (size_t i = 1; i < d->n; i++) {
        if (d->items[i].sev == DIAG_NOTE)
            continue;
        size_t len = 1;
        while (i + len < d->n && d->items[i + len].sev == DIAG_NOTE)
            len++;
        size_t j = i;
        while (j > 0) {
            size_t g = j - 1;
            while (g > 0 && d->items[g].sev == DIAG_NOTE)
                g--;
            if (d->items[g].start <= d->items[i].start)
                break;
            j = g;
        }
        if (j < i) {
            struct diag tmp[len];
            memcpy(tmp, &d->items[i], len * sizeof tmp[0]);
            memmove(&d->items[j + len], &d->items[j], (i - j) * sizeof tmp[0]);
            memcpy(&d->items[j], tmp, len * sizeof tmp[0]);
        }
        i += len - 1;
    }
}
