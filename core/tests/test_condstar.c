/* test_condstar.c - the cond* front end (condstar.c, matchstar.c, bquote.c).
 *
 * Unit tests: the head table; backquote lowering against the expansions
 * Emacs 28.2 gives (testdata/expand/cond-star/backquote.tsv); every case of
 * the conformance suite (testdata/conformance/cond-star/cases.tsv) expands
 * or fails as expected, with the expected warnings, no input cons copied
 * twice (each datum, condition and value is evaluated at most once) and no
 * cond* or pcase-family head left; the goldens of
 * testdata/expand/cond-star/ (output and diagnostics, memo cache on and
 * off).  With PCX_UPDATE_GOLDENS=1 the goldens are rewritten instead.
 *
 * `test_condstar --compact FILE` expands FILE the way `pcexpand --compact`
 * does (one line per top-level form, GNU diagnostics on stderr, status 2
 * on errors), for the conformance runner (run.sh).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/report.h"
#include "base/source.h"
#include "expand/bquote.h"
#include "expand/condstar.h"
#include "expand/expand.h"
#include "expand/gensym.h"
#include "expand/matchstar.h"
#include "lisp/print.h"
#include "syntax/pretty.h"
#include "syntax/read.h"
#include "syntax/splice.h"

/* ---- one run: read, expand, print ---- */

struct run {
    struct arena *a;
    struct lisp *L;
    struct read_result rr;
    struct diag_list dl;
    struct expand_ctx x;
    const uint8_t *text;
    size_t len;
    struct splice_site *sites; /* replaced sites of all forms, in order */
    size_t n_sites;
    struct value **out;        /* expansion of each top-level form (NULL: error) */
    bool failed;               /* some form had an error */
};

/* Read text (kept by reference) and expand every top-level form. */
static void run_text(struct run *r, struct arena *a, const char *text,
                     size_t len, bool memo)
{
    memset(r, 0, sizeof *r);
    r->a = a;
    r->L = intern_new(a);
    r->text = (const uint8_t *)text;
    r->len = len;
    diag_init(&r->dl, a);
    assert_true(read_source(r->L, r->text, len, &r->rr));
    expand_init(&r->x, r->L, &r->dl, &r->rr);
    r->x.memo = memo;
    r->out = ARENA_NEWN(a, struct value *, r->rr.n_forms + 1);
    r->sites = ARENA_NEWN(a, struct splice_site, 1);
    size_t cap = 1;
    for (size_t i = 0; i < r->rr.n_forms; i++) {
        r->out[i] = expand_form(&r->x, r->rr.forms[i].v);
        r->failed |= r->out[i] == NULL;
        for (size_t j = 0; r->out[i] && j < r->x.n_sites; j++) {
            if (r->n_sites == cap) {
                r->sites = arena_grow(a, r->sites, cap * sizeof *r->sites,
                                      2 * cap * sizeof *r->sites);
                cap *= 2;
            }
            r->sites[r->n_sites++] =
                (struct splice_site){r->x.sites[j].orig, r->x.sites[j].expansion};
        }
    }
}

static const struct value *origin(void *ctx, const struct value *v)
{
    return expand_origin(ctx, v);
}

static void begin_form(void *ctx, unsigned floor)
{
    gensym_begin_form(expand_gensyms(ctx), floor);
}

/* Default-mode output (cli.md 4.1): the input with the forms replaced. */
static const char *run_output(struct run *r)
{
    struct splice_in in;
    memset(&in, 0, sizeof in);
    in.L = r->L;
    in.text = r->text;
    in.len = r->len;
    in.src = &r->rr;
    in.sites = r->sites;
    in.n_sites = r->n_sites;
    in.pretty.width = 80;
    in.pretty.sym_text = gensym_text;
    in.pretty.sym_ctx = expand_gensyms(&r->x);
    in.origin = origin;
    in.origin_ctx = &r->x;
    in.begin_form = begin_form;
    in.begin_ctx = &r->x;
    struct buf b;
    buf_init(&b, r->a);
    assert_true(splice_source(&in, &b, NULL));
    return buf_cstr(&b);
}

/* The diagnostics in GNU format, the file named name. */
static const char *run_diags(struct run *r, const char *name)
{
    struct source s;
    source_init(&s, r->a, name, r->text, r->len);
    struct report_opts o = {REPORT_GNU, false, false};
    struct buf b;
    buf_init(&b, r->a);
    diag_sort(&r->dl);
    report_render(&b, &s, &r->dl, &o);
    return buf_cstr(&b);
}

/* One top-level form's expansion on one line, temporaries named. */
static const char *run_compact(struct run *r, size_t i)
{
    struct pretty_opts o;
    memset(&o, 0, sizeof o);
    o.sym_text = gensym_text;
    o.sym_ctx = expand_gensyms(&r->x);
    gensym_begin_form(expand_gensyms(&r->x), 0);
    struct buf b;
    buf_init(&b, r->a);
    assert_true(pretty_compact(r->L, &o, &b, r->out[i]));
    return buf_cstr(&b);
}

/* ---- properties of an expansion ---- */

/* Heads that must not remain in generated code (cli.md section 9). */
static bool forbidden_head(const struct value *h)
{
    static const char *const names[] = {"cond*", "match*", "bind*", "bind-and*",
                                        "pcase*", "pcase", "`"};
    if (!value_symbolp(h) || !h->u.sym.interned) /* temporaries are uninterned */
        return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(h->u.sym.name, names[i]) == 0)
            return true;
    return strncmp(h->u.sym.name, "pcase-", 6) == 0;
}

/* Visit every cons of v outside quoted data; f returns false to stop. */
static bool each_cons(struct arena *a, const struct value *v, const struct value *quote,
                      bool (*f)(void *, const struct value *), void *ctx)
{
    size_t cap = 64, n = 0;
    const struct value **stack = ARENA_NEWN(a, const struct value *, cap);
    stack[n++] = v;
    while (n) {
        const struct value *c = stack[--n];
        if (!value_consp(c) || value_car(c) == quote)
            continue;
        if (!f(ctx, c))
            return false;
        for (; value_consp(c); c = value_cdr(c)) {
            if (n == cap) {
                stack = arena_grow(a, stack, cap * sizeof *stack, 2 * cap * sizeof *stack);
                cap *= 2;
            }
            stack[n++] = value_car(c);
        }
    }
    return true;
}

static bool head_allowed(void *ctx, const struct value *c)
{
    (void)ctx;
    return !forbidden_head(value_car(c));
}

/* Input conses met in an expansion (by identity). */
struct seen {
    const struct read_result *src; /* tells input conses from generated ones */
    const struct value **v;
    size_t n, cap;
    struct arena *a;
};

static bool note_cons(void *ctx, const struct value *c)
{
    struct seen *s = ctx;
    struct span sp;
    if (!read_origin_span(s->src, c, &sp))
        return true; /* generated (accessors are shared on purpose) */
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == c)
            return false;
    if (s->n == s->cap) {
        s->v = arena_grow(s->a, s->v, s->cap * sizeof *s->v, 2 * s->cap * sizeof *s->v);
        s->cap *= 2;
    }
    s->v[s->n++] = c;
    return true;
}

/* No cons of the input occurs twice in the expansion: nothing (a datum,
 * a condition, a bind* value) is copied into two places, so nothing is
 * evaluated twice.  Quoted data is not looked into. */
static bool no_copies(struct run *r, const struct value *e)
{
    struct seen s = {&r->rr, NULL, 0, 16, r->a};
    s.v = ARENA_NEWN(r->a, const struct value *, s.cap);
    return each_cons(r->a, e, r->L->quote, note_cons, &s);
}

/* ---- the head table and backquote ---- */

static void test_heads_sorted(void **state)
{
    (void)state;
    assert_true(matchstar_heads_sorted());
}

/* Each template of backquote.tsv lowers to what Emacs's macroexpand gave. */
static void test_backquote_like_emacs(void **state)
{
    (void)state;
    size_t n;
    char *data = support_slurp(support_testdata("expand/cond-star/backquote.tsv"), &n);
    int rows = 0;
    for (char *line = strtok(data, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = 0;
        struct arena *a = support_arena();
        struct run r;
        run_text(&r, a, line, strlen(line), true);
        struct condstar_syms S;
        condstar_syms_init(&S, r.L);
        struct condstar_at at = {r.rr.forms[0].v, NULL};
        struct value *e = bquote_expand(&r.x, &S, r.rr.forms[0].v, at);
        assert_non_null(e);
        struct buf b;
        buf_init(&b, a);
        struct print_opts o = print_opts_default();
        print_value(r.L, &b, e, &o);
        if (strcmp(buf_cstr(&b), tab + 1) != 0)
            fail_msg("%s: got %s, Emacs gives %s", line, buf_cstr(&b), tab + 1);
        arena_free(a);
        rows++;
    }
    assert_true(rows >= 40);
    test_free(data);
}

/* ---- the conformance cases ---- */

/* Columns of one row of cases.tsv (the line is cut up in place). */
struct row {
    char *id, *form, *expected, *log, *diag;
};

static bool split_row(char *line, struct row *w)
{
    char *col[6] = {0};
    int k = 0;
    for (char *p = line; k < 6; k++) {
        col[k] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = 0;
    }
    if (k < 4)
        return false;
    *w = (struct row){col[0], col[1], col[2], col[3], col[4] ? col[4] : ""};
    return true;
}

/* Do the warnings of r agree with the row's diagnostics column? */
static void check_warnings(struct run *r, const struct row *w)
{
    size_t divergence = 0;
    for (size_t i = 0; i < r->dl.n; i++) {
        const struct diag *d = &r->dl.items[i];
        if (d->sev == DIAG_WARNING && strcmp(d->code, "emacs-divergence") == 0)
            divergence++;
        else if (d->sev == DIAG_WARNING)
            fail_msg("%s: unexpected warning %s: %s", w->id, d->code, d->message);
    }
    if (strcmp(w->diag, "emacs-divergence") == 0 && divergence == 0)
        fail_msg("%s: no emacs-divergence warning", w->id);
    if (strcmp(w->diag, "emacs-divergence") != 0 && divergence > 0)
        fail_msg("%s: unexpected emacs-divergence warning", w->id);
}

static void check_case(const struct row *w)
{
    struct arena *a = support_arena();
    struct run r;
    run_text(&r, a, w->form, strlen(w->form), true);
    assert_int_equal(r.rr.n_forms, 1);
    if (strncmp(w->expected, "XERROR:", 7) == 0) {
        if (!r.failed)
            fail_msg("%s: expanded, expected an error", w->id);
        assert_true(r.dl.n_errors > 0);
        assert_string_equal(r.dl.items[r.dl.n - 1].code, w->expected + 7);
    } else {
        if (r.failed)
            fail_msg("%s: %s", w->id, r.dl.items[r.dl.n - 1].message);
        check_warnings(&r, w);
        if (!each_cons(a, r.out[0], r.L->quote, head_allowed, NULL))
            fail_msg("%s: a cond* or pcase head remains", w->id);
        if (!strstr(w->form, "pcase*") && !no_copies(&r, r.out[0]))
            fail_msg("%s: an input form occurs twice in the expansion", w->id);
    }
    arena_free(a);
}

static void test_conformance_cases(void **state)
{
    (void)state;
    size_t n;
    char *data = support_slurp(support_testdata("conformance/cond-star/cases.tsv"), &n);
    int cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct row w = {0};
        if (line[0] == '#')
            continue;
        assert_true(split_row(line, &w));
        check_case(&w);
        cases++;
    }
    assert_true(cases >= 150);
    test_free(data);
}

/* ---- goldens ---- */

/* Compare text with the golden file rel (or write it when updating). */
static void golden(const char *rel, const char *text)
{
    const char *path = support_testdata(rel);
    if (getenv("PCX_UPDATE_GOLDENS")) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
        return;
    }
    size_t n;
    char *want = support_slurp(path, &n);
    if (strcmp(want, text) != 0)
        fail_msg("%s differs; got:\n%s", rel, text);
    test_free(want);
}

/* One golden case: the same output and diagnostics with the memo cache on
 * and off; expansions without cond* or pcase heads. */
static void check_golden(const char *id, const char *expect)
{
    char rel[512];
    snprintf(rel, sizeof rel, "expand/cond-star/%s/input.el", id);
    size_t n;
    char *text = support_slurp(support_testdata(rel), &n);
    struct arena *a = support_arena();
    struct run on, off;
    run_text(&on, a, text, n, true);
    run_text(&off, a, text, n, false);
    const char *diags = run_diags(&on, "input.el");
    assert_string_equal(diags, run_diags(&off, "input.el"));
    bool error = strcmp(expect, "error") == 0;
    if (on.failed != error)
        fail_msg("%s: %s", id, on.failed ? diags : "expanded without error");
    if (!error) {
        const char *out = run_output(&on);
        assert_string_equal(out, run_output(&off));
        for (size_t i = 0; i < on.n_sites; i++)
            if (!each_cons(a, on.sites[i].expansion, on.L->quote, head_allowed, NULL))
                fail_msg("%s: a cond* or pcase head remains:\n%s", id, out);
        snprintf(rel, sizeof rel, "expand/cond-star/%s/expected.el", id);
        golden(rel, out);
    }
    if (strcmp(expect, "ok") != 0) {
        snprintf(rel, sizeof rel, "expand/cond-star/%s/expected.err", id);
        golden(rel, diags);
    } else if (on.dl.n) {
        fail_msg("%s: unexpected diagnostics:\n%s", id, diags);
    }
    arena_free(a);
    test_free(text);
}

/* The cases of manifest.yaml: "- id: ID" lines, each followed by an
 * "expect: ok|warning|error" line. */
static void test_goldens(void **state)
{
    (void)state;
    size_t n;
    char *data = support_slurp(support_testdata("expand/cond-star/manifest.yaml"), &n);
    char id[256] = "";
    int cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char word[256];
        if (sscanf(line, " - id: %255s", word) == 1)
            strcpy(id, word);
        else if (sscanf(line, " expect: %255s", word) == 1 && id[0]) {
            check_golden(id, word);
            cases++;
            id[0] = 0;
        }
    }
    assert_true(cases >= 30);
    test_free(data);
}

/* ---- positions ---- */

/* The diagnostics of text, GNU format, file "t.el". */
static void expect_diags(const char *text, const char *want)
{
    struct arena *a = support_arena();
    struct run r;
    run_text(&r, a, text, strlen(text), true);
    assert_string_equal(run_diags(&r, "t.el"), want);
    arena_free(a);
}

static void test_positions(void **state)
{
    (void)state;
    /* Q7 at the nil itself; the missing CDRPAT at its cons pattern. */
    expect_diags("(cond* ((match* (list a\n                       nil) x) a))",
                 "t.el:2:24: warning: nil sub-pattern: Emacs 30 enters the "
                 "debugger while expanding this (batch Emacs exits with status "
                 "255); pcexpand tests (eq nil VALUE) [emacs-divergence]\n");
    expect_diags("(cond* ((match* `(k ,(cons\tx)) y) x))",
                 "t.el:1:22: warning: nil sub-pattern: Emacs 30 enters the "
                 "debugger while expanding this (batch Emacs exits with status "
                 "255); pcexpand tests (eq nil VALUE) [emacs-divergence]\n");
    /* An error deep in a pattern, after a TAB (next multiple of 8). */
    expect_diags("(cond*\t((match* (list a (or)) x) a))",
                 "t.el:1:26: error: `or' subpattern with malformed or missing "
                 "arguments [malformed-pattern]\n");
    /* Only the first error of a form is reported; later forms go on. */
    expect_diags("(cond* ((match* (list) x)) ((match* (and) y)))\n"
                 "(cond* (t 1) oops)",
                 "t.el:1:17: error: `list' subpattern with malformed or "
                 "missing arguments [malformed-pattern]\n"
                 "t.el:2:14: error: cond* clause is not a list (Emacs 30 "
                 "signals wrong-type-argument listp) [malformed-pattern]\n");
}

/* The compact expansion of the single form in text. */
static void expect_compact(const char *text, const char *want)
{
    struct arena *a = support_arena();
    struct run r;
    run_text(&r, a, text, strlen(text), true);
    assert_false(r.failed);
    assert_string_equal(run_compact(&r, 0), want);
    arena_free(a);
}

/* rx: the regexp is computed while expanding, as Emacs's rx-to-string
 * computes it; names rx does not define here are left to run time. */
static void test_rx(void **state)
{
    (void)state;
    expect_compact("(cond* ((match* (rx (or \"ab\" (+ \"c\"))) s) 1))",
                   "(let ((pcx--d0 s)) (if (string-match \"ab\\\\|c+\\\\'\" pcx--d0) 1))");
    expect_compact("(cond* ((match* (rx (my-name)) s) 1))",
                   "(let ((pcx--d0 s)) (if (string-match (concat (rx-to-string "
                   "'(my-name) t) \"\\\\'\") pcx--d0) 1))");
    expect_diags("(cond* ((match* (rx (literal x)) s) 1))",
                 "t.el:1:17: error: rx pattern: literal, regexp and eval need "
                 "constant arguments here (Emacs 30 signals an error while "
                 "expanding) [malformed-pattern]\n");
}

/* Shapes that matter beyond the value: the datum is bound once and only
 * when used, Q5 carries values in one temporary per variable, and a
 * literal t condition needs no test. */
static void test_shapes(void **state)
{
    (void)state;
    expect_compact("(cond* ((match* _ (f)) 1))", "(progn (f) 1)");
    /* :non-exit not at the end is just a body form of an exit clause. */
    expect_compact("(cond* ((match* (cons a _) x) :non-exit a) (t a))",
                   "(let ((pcx--d0 x)) (if (consp pcx--d0) (let* ((a (car pcx--d0))) "
                   ":non-exit a) a))");
    expect_compact("(cond* ((match* (cons a _) x) (g a) :non-exit) (t a))",
                   "(let ((pcx--d0 x)) (let (pcx--ua0) (if (consp pcx--d0) "
                   "(let* ((a (car pcx--d0))) (prog1 (g a) (setq pcx--ua0 a)))) "
                   "(let* ((a pcx--ua0)) a)))");
    /* Aliases that are only assigned (the bindings are not emitted) are
     * named with `_', and nothing is stored for clauses that cannot use it. */
    expect_compact("(cond* ((match* (or (cons 'k v) 1) x)))",
                   "(let ((pcx--d0 x)) (let (_pcx--ba0) (or (or (and (consp pcx--d0) "
                   "(eq 'k (car pcx--d0)) (progn (setq _pcx--ba0 (cdr pcx--d0)) t)) "
                   "(setq _pcx--ba0 nil)) (eql 1 pcx--d0))))");
    expect_compact("(cond* ((match* (cons a b) x) (g a) :non-exit) ((progn)))",
                   "(let ((pcx--d0 x)) (if (consp pcx--d0) (let* ((b (cdr pcx--d0)) "
                   "(a (car pcx--d0))) (g a))) nil)");
    expect_compact("(cond* ((f) 1) (t 2 3))", "(if (f) 1 2 3)");
    expect_compact("(cond* ((bind* (x (f)))) (t x))", "(let* ((x (f))) x)");
}

/* Deeply nested patterns and clauses fail with a diagnostic, not a crash. */
static void test_deep(void **state)
{
    (void)state;
    size_t depth = 5000;
    struct buf b;
    struct arena *a = support_arena();
    buf_init(&b, a);
    buf_puts(&b, "(cond* ((match* ");
    for (size_t i = 0; i < depth; i++)
        buf_puts(&b, "(cons a ");
    buf_puts(&b, "b");
    for (size_t i = 0; i < depth; i++)
        buf_puts(&b, ")");
    buf_puts(&b, " x) 1))");
    struct run r;
    run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_true(r.failed);
    assert_string_equal(r.dl.items[r.dl.n - 1].code, "nesting-too-deep");
    arena_free(a);
}

/* Many clauses are folded without recursion. */
static void test_many_clauses(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    buf_puts(&b, "(cond*");
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, " ((eq x %d) %d)", i, i);
    buf_puts(&b, ")");
    struct run r;
    run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_false(r.failed);
    assert_int_equal(r.dl.n, 0);
    arena_free(a);
}

/* ---- `--compact FILE` for the conformance runner ---- */

static int compact_main(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 2;
    }
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    struct arena *a = arena_new(NULL);
    struct run r;
    memset(&r, 0, sizeof r);
    r.a = a;
    r.L = intern_new(a);
    r.text = (const uint8_t *)text;
    r.len = n;
    diag_init(&r.dl, a);
    if (!read_source(r.L, r.text, n, &r.rr)) {
        fprintf(stderr, "%s: read error\n", path);
        return 2;
    }
    expand_init(&r.x, r.L, &r.dl, &r.rr);
    r.out = ARENA_NEWN(a, struct value *, r.rr.n_forms + 1);
    for (size_t i = 0; i < r.rr.n_forms; i++) {
        r.out[i] = expand_form(&r.x, r.rr.forms[i].v);
        r.failed |= r.out[i] == NULL;
    }
    fputs(run_diags(&r, path), stderr);
    for (size_t i = 0; !r.failed && i < r.rr.n_forms; i++)
        printf("%s\n", run_compact(&r, i));
    arena_free(a);
    return r.failed ? 2 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--compact") == 0)
        return compact_main(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heads_sorted),
        cmocka_unit_test(test_backquote_like_emacs),
        cmocka_unit_test(test_conformance_cases),
        cmocka_unit_test(test_goldens),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_rx),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_deep),
        cmocka_unit_test(test_many_clauses),
    };
    return SUPPORT_RUN(tests);
}
