/* match_fixture.h - a match-layer context for the unit tests of match/.
 *
 * test_pat.c and test_dtree.c build patterns and decision DAGs directly,
 * without the pcase front end: an arena checked for leaks, a Lisp, and a
 * memo context whose hooks make plain uninterned temporaries and copy user
 * code unchanged; the root subject is the symbol x (copyable).
 */
#ifndef PCX_TEST_MATCH_FIXTURE_H
#define PCX_TEST_MATCH_FIXTURE_H

#include <stdbool.h>

#include "match/mtree.h"

struct match_fx {
    struct arena *a;          /* support_arena(): release with arena_free */
    struct lisp *L;
    struct memo_ctx m;        /* computed cache as asked */
    const struct subj *root;  /* the subject x */
};

/* A fresh fixture (cache: the computed cache on or off). */
struct match_fx *match_fx_new(bool cache);

/* The first datum of text, read in f's Lisp (fails the test on error). */
struct value *match_fx_read(struct match_fx *f, const char *text);

/* Patterns from text, for the tests: 'C, (pred FUN), VAR, (app FUN P),
 * (and A B), (or A B). */
const struct pat *match_fx_quote(struct match_fx *f, const char *c);
const struct pat *match_fx_pred(struct match_fx *f, const char *fun);
const struct pat *match_fx_var(struct match_fx *f, const char *s);
const struct pat *match_fx_app(struct match_fx *f, const char *fun, const struct pat *p);
const struct pat *match_fx_and2(struct match_fx *f, const struct pat *a, const struct pat *b);
const struct pat *match_fx_or2(struct match_fx *f, const struct pat *a, const struct pat *b);

#endif
