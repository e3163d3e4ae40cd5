/* support.h - shared helpers for the cmocka unit tests.
 *
 * Arenas checked for leaks, test data files, and for the tests of the
 * expansion front ends: one whole run of the pipeline on a text, the
 * output-vocabulary check of cli.md section 9, and golden files. */
#ifndef PCX_TEST_SUPPORT_H
#define PCX_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/arena.h"
#include "base/diag.h"
#include "expand/expand.h"
#include "syntax/read.h"
#include "syntax/splice.h"

/* Arena whose pages come from cmocka's test_malloc, so a page never
 * released fails the test. */
struct arena *support_arena(void);

/* Bytes arena a has handed out; the difference of two readings is what
 * was taken between them (a page's unused tail counts once a new page
 * is begun). */
size_t support_arena_used(const struct arena *a);

/* Backing allocator that fails allocation number fail_at (1-based; 0 =
 * never) and counts the others in *count. */
struct support_failing {
    long fail_at;  /* which allocation fails */
    long count;    /* allocations seen */
};
struct arena_backing support_failing_backing(struct support_failing *f);

/* Path of a file under testdata/ (from $PCX_TESTDATA, default "testdata"). */
const char *support_testdata(const char *rel);

/* Bytes written to a pcx_sink, in a test_malloc'd growing buffer
 * (support_capture_write is the sink's write; free data with test_free). */
struct support_capture {
    char *data; /* NUL-terminated; NULL until something is written */
    size_t len;
};
bool support_capture_write(void *ctx, const void *p, size_t n);

/* Whole file into a test_malloc'd buffer (NUL-terminated); *n gets the size.
 * Fails the test if it cannot be read. */
char *support_slurp(const char *path, size_t *n);

/* ---- one run of the pipeline on a text (front-end tests) ---- */

/* A text read and every top-level form expanded, as pcexpand does it. */
struct support_run {
    struct arena *a;
    struct lisp *L;
    struct read_result rr;
    struct diag_list dl;
    struct expand_ctx x;
    const uint8_t *text;
    size_t len;
    struct splice_site *sites; /* replaced sites of all forms, in order */
    size_t n_sites, cap_sites;
    struct value **out;        /* expansion of each top-level form (NULL: error) */
    bool failed;               /* some form had an error */
    struct value *library;     /* the forms of the files the input requires, as
                                  one list (golden cases): names they mention
                                  count as the input's for support_vocabulary */
};

/* Read text (kept by reference, must read without error) and expand every
 * top-level form with the memo cache on or off; everything lives in a. */
void support_run_text(struct support_run *r, struct arena *a, const char *text,
                      size_t len, bool memo);

/* support_run_text calling setup (if not NULL) after the text is read and
 * before anything is expanded: to declare pattern macros or structs as a
 * configuration would. */
void support_run_setup(struct support_run *r, struct arena *a, const char *text,
                       size_t len, bool memo, void (*setup)(struct support_run *r));

/* Default-mode output (cli.md 4.1): the input with the forms replaced,
 * width 80, temporaries renamed. */
const char *support_run_output(struct support_run *r);

/* The diagnostics, sorted, in GNU format, the file named name. */
const char *support_run_diags(struct support_run *r, const char *name);

/* Top-level form i's expansion on one line (--compact), temporaries named. */
const char *support_run_compact(struct support_run *r, size_t i);

/* Assert that the diagnostics of text (file "t.el") are exactly want. */
void support_expect_diags(const char *text, const char *want);

/* v printed with the default options (prin1), in L's arena. */
const char *support_print(struct lisp *L, const struct value *v);

/* "error", "warning" or "note", as the GNU format writes severities. */
const char *support_severity(enum diag_severity s);

/* "SEVERITY:CODE" of diagnostics from..dl->n, separated by spaces, in a. */
const char *support_diag_codes(struct arena *a, const struct diag_list *dl, size_t from);

/* ---- properties of expansions ---- */

/* Is h a head that never occurs in generated code (cli.md section 9):
 * pcase, pcase-*, cond*, match*, bind*, bind-and*, pcase*, backquote?
 * Temporaries (uninterned) never count. */
bool support_forbidden_head(const struct value *h);

/* Call f on every cons of v outside quoted data (car == quote), without
 * recursion; f returns false to stop.  Returns false when f stopped. */
bool support_each_cons(struct arena *a, const struct value *v,
                       const struct value *quote,
                       bool (*f)(void *ctx, const struct value *c), void *ctx);

/* Does a forbidden head occur in v outside quoted data? */
bool support_has_forbidden_head(struct arena *a, const struct value *v,
                                const struct value *quote);

/* The output-vocabulary check of cli.md section 9 on one expansion of r:
 * NULL when every form pcexpand generated (a cons in a code position
 * that is not user code copied from the input) has a head of the allowed
 * vocabulary or a function the input names, and no forbidden head occurs
 * anywhere; else a message naming the offending head and form.  The
 * input must not be circular. */
const char *support_vocabulary(struct support_run *r, const struct value *expansion);

/* support_vocabulary where also the symbols of `also` (NULL: none) count
 * as named by the input - for functions the input names through a macro,
 * such as the `append' of a backquoted match* pattern. */
const char *support_vocabulary_also(struct support_run *r,
                                    const struct value *expansion,
                                    const struct value *also);

/* ---- golden files ---- */

/* Compare text with the file testdata/rel, or (PCX_UPDATE_GOLDENS=1)
 * write text there instead. */
void support_golden(const char *rel, const char *text);

/* A check of one expansion for the golden runner: NULL when fine, else
 * what is wrong (support_vocabulary is one). */
typedef const char *(*support_expansion_check)(struct support_run *r,
                                               const struct value *expansion);

/* Golden case dir/id/ (dir under testdata/): input.el expands with an
 * error iff expect is "error"; the output (expected.el, unless error) and
 * the diagnostics (expected.err, unless expect is "ok", when there must be
 * none) are the goldens and identical with the memo cache on and off;
 * check (may be NULL) passes on every replaced site.  Requires are
 * followed as pcexpand follows them: the load path is the case's
 * directory, then dir/id/load_path when load_path is not NULL (as -L). */
void support_check_golden(const char *dir, const char *id, const char *expect,
                          const char *load_path, support_expansion_check check);

/* support_check_golden on every case of dir/manifest.yaml ("- id: ID"
 * lines, each followed by an "expect: ok|warning|error" line, and
 * optionally a "load-path: DIR" line before it); returns the number of
 * cases. */
int support_goldens(const char *dir, support_expansion_check check);

/* cmocka returns the number of failures; exit 0/1 for meson. */
#define SUPPORT_RUN(tests) (cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0)

#endif
