/* test_pcase.c - the pcase front end (pcase.c, pcase_norm.c, pcase_compile.c).
 *
 * Unit tests: the head tables; every case of the conformance suite
 * (testdata/conformance/pcase/cases.tsv) expands or fails as expected,
 * with the expected warnings and no pcase-family head left; the goldens of
 * testdata/expand/pcase/ (output and diagnostics, memo cache on and off);
 * diagnostic positions; linear output for an `and` of `or`s; deep and wide
 * input fail cleanly or work; the dumps; the cond* interface.  With
 * PCX_UPDATE_GOLDENS=1 the goldens are rewritten instead.
 *
 * `test_pcase --conformance CASES` prints one line per case, "ID TAB
 * EXPANSION-or-XERROR TAB SEVERITY:CODE...", for the Emacs runner
 * (testdata/conformance/pcase/run.sh).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/report.h"
#include "base/source.h"
#include "expand/expand.h"
#include "expand/gensym.h"
#include "expand/pcase.h"
#include "expand/pcase_macros.h"
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
    size_t n_sites, cap_sites;
    struct value **out;        /* expansion of each top-level form (NULL: error) */
    bool failed;               /* some form had an error */
};

static void add_sites(struct run *r)
{
    for (size_t j = 0; j < r->x.n_sites; j++) {
        if (r->n_sites == r->cap_sites) {
            size_t cap = r->cap_sites * 2 + 4;
            r->sites = arena_grow(r->a, r->sites, r->cap_sites * sizeof *r->sites,
                                  cap * sizeof *r->sites);
            r->cap_sites = cap;
        }
        r->sites[r->n_sites++] =
            (struct splice_site){r->x.sites[j].orig, r->x.sites[j].expansion};
    }
}

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
    r->x.macros = pcase_macros_new(r->L); /* learns from the file, as the CLI */
    r->x.memo = memo;
    r->out = ARENA_NEWN(a, struct value *, r->rr.n_forms + 1);
    for (size_t i = 0; i < r->rr.n_forms; i++) {
        r->out[i] = expand_form(&r->x, r->rr.forms[i].v);
        r->failed |= r->out[i] == NULL;
        if (r->out[i])
            add_sites(r);
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

/* Heads that must not remain in code (cli.md section 9). */
static bool forbidden_head(const struct value *h)
{
    if (!value_symbolp(h) || !h->u.sym.interned) /* temporaries are uninterned */
        return false;
    const char *n = h->u.sym.name;
    return !strcmp(n, "pcase") || !strncmp(n, "pcase-", 6) || !strcmp(n, "`") ||
           !strcmp(n, "cond*");
}

/* Does a forbidden head occur outside quoted data? */
static bool has_forbidden(struct arena *a, const struct value *v, const struct value *quote)
{
    size_t cap = 64, n = 0;
    const struct value **stack = ARENA_NEWN(a, const struct value *, cap);
    stack[n++] = v;
    while (n) {
        const struct value *c = stack[--n];
        if (!value_consp(c) || value_car(c) == quote)
            continue;
        if (forbidden_head(value_car(c)))
            return true;
        for (; value_consp(c); c = value_cdr(c)) {
            if (n == cap) {
                stack = arena_grow(a, stack, cap * sizeof *stack, 2 * cap * sizeof *stack);
                cap *= 2;
            }
            stack[n++] = value_car(c);
        }
    }
    return false;
}

/* "severity:code ..." of the diagnostics recorded since index from. */
static const char *diag_codes(struct run *r, size_t from)
{
    static const char *const sev[] = {"error", "warning", "note"};
    struct buf b;
    buf_init(&b, r->a);
    for (size_t k = from; k < r->dl.n; k++)
        buf_printf(&b, "%s%s:%s", k > from ? " " : "", sev[r->dl.items[k].sev],
                   r->dl.items[k].code);
    return buf_cstr(&b);
}

/* ---- tables ---- */

static void test_heads_sorted(void **state)
{
    (void)state;
    assert_int_equal(pcase_check_tables(), -1);
}

/* ---- conformance cases ---- */

struct row {
    char *id, *form, *expected, *log, *diags;
};

static bool split_row(char *line, struct row *w)
{
    char *cols[6] = {NULL};
    int n = 0;
    for (char *p = line; n < 6; n++) {
        cols[n] = p;
        char *tab = strchr(p, '\t');
        if (!tab) {
            n++;
            break;
        }
        *tab = 0;
        p = tab + 1;
    }
    if (n < 3)
        return false;
    *w = (struct row){cols[0], cols[1], cols[2], cols[3] ? cols[3] : "",
                      cols[4] ? cols[4] : ""};
    return true;
}

static void check_case(const struct row *w)
{
    struct arena *a = support_arena();
    struct run r;
    run_text(&r, a, w->form, strlen(w->form), true);
    const char *codes = diag_codes(&r, 0);
    if (!strncmp(w->expected, "XERROR:", 7)) {
        char want[128];
        snprintf(want, sizeof want, "error:%s", w->expected + 7);
        if (!r.failed || !strstr(codes, want))
            fail_msg("%s: expected %s, got [%s]", w->id, w->expected, codes);
    } else {
        if (r.failed)
            fail_msg("%s: failed [%s]", w->id, codes);
        if (has_forbidden(a, r.out[0], r.L->quote))
            fail_msg("%s: a pcase-family head remains: %s", w->id, run_compact(&r, 0));
        char *want = strdup(w->diags);
        for (char *c = strtok(want, " "); c; c = strtok(NULL, " ")) {
            char code[128];
            snprintf(code, sizeof code, "warning:%s", c);
            if (!strstr(codes, code))
                fail_msg("%s: no %s warning [%s]", w->id, c, codes);
        }
        free(want);
    }
    arena_free(a);
}

static void test_conformance_cases(void **state)
{
    (void)state;
    size_t n;
    char *data = support_slurp(support_testdata("conformance/pcase/cases.tsv"), &n);
    int cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct row w;
        if (line[0] == '#' || !split_row(line, &w))
            continue;
        check_case(&w);
        cases++;
    }
    assert_true(cases >= 90);
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
 * and off; no pcase-family head left. */
static void check_golden(const char *id, const char *expect)
{
    char rel[512];
    snprintf(rel, sizeof rel, "expand/pcase/%s/input.el", id);
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
            if (has_forbidden(a, on.sites[i].expansion, on.L->quote))
                fail_msg("%s: a pcase-family head remains:\n%s", id, out);
        snprintf(rel, sizeof rel, "expand/pcase/%s/expected.el", id);
        golden(rel, out);
    }
    if (strcmp(expect, "ok") != 0) {
        snprintf(rel, sizeof rel, "expand/pcase/%s/expected.err", id);
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
    char *data = support_slurp(support_testdata("expand/pcase/manifest.yaml"), &n);
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
    assert_true(cases >= 25);
    test_free(data);
}

/* ---- diagnostics ---- */

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
    expect_diags("(pcase x\n  (`(1 ,@rest) rest))",
                 "t.el:2:8: error: Unsupported QPAT: (\\,@ rest) (Emacs 30 rejects it; "
                 "Emacs 28.2 matched it as literal structure) [splice-in-backquote]\n");
    expect_diags("(pcase x ((and 1 nil) 2))",
                 "t.el:1:18: error: Unknown pattern `nil' [malformed-pattern]\n");
    expect_diags("(pcase x\t((or 1) 2))",
                 "t.el:1:18: error: Please avoid it: (or) needs at least two "
                 "alternatives [malformed-pattern]\n");
    expect_diags("(pcase x (`(a ,(foo y)) 1))",
                 "t.el:1:16: error: Unknown foo pattern: (foo y) [unknown-pattern]\n"
                 "t.el:1:16: note: pattern macro 'foo' is not declared (add it under "
                 "pattern-macros) [unknown-pattern]\n");
    /* unreachable clause and the clause that shadows it */
    expect_diags("(pcase x\n  (_ 1)\n  ('a 2))",
                 "t.el:3:3: warning: this clause can never be reached [unreachable-clause]\n"
                 "t.el:2:3: note: because this clause matches first [unreachable-clause]\n");
    expect_diags("(pcase x (`(,a ,_b) 1))",
                 "t.el:1:14: warning: variable `a' is bound by the pattern but never "
                 "used [unused-variable]\n");
    /* an error in a clause nothing reaches is not an error (as in Emacs) */
    expect_diags("(pcase x (_ 1) (1.5 2))",
                 "t.el:1:16: warning: this clause can never be reached [unreachable-clause]\n"
                 "t.el:1:10: note: because this clause matches first [unreachable-clause]\n");
}

/* ---- shapes and sizes ---- */

static const char *compact1(struct arena *a, const char *text)
{
    struct run *r = ARENA_NEW(a, struct run);
    run_text(r, a, text, strlen(text), true);
    assert_false(r->failed);
    return run_compact(r, 0);
}

static void test_shapes(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    assert_string_equal(compact1(a, "(pcase x (1 'one) ((pred stringp) 'str) "
                                    "(`(,a . ,b) (+ a b)) (_ 'other))"),
                        "(cond ((eql x 1) 'one) ((stringp x) 'str) ((consp x) "
                        "(let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x))) "
                        "(let ((a pcx--x0) (b pcx--x1)) (+ a b)))) (t 'other))");
    /* the subject is evaluated once even when nothing reads it */
    assert_string_equal(compact1(a, "(pcase (f))"), "(progn (f) nil)");
    /* a shared body is one lambda */
    assert_string_equal(compact1(a, "(pcase (f) ((or 'a (pred g)) (h) (k)))"),
                        "(let* ((pcx--val0 (f)) (pcx--pcase-0 (lambda nil (h) (k)))) "
                        "(cond ((eq pcx--val0 'a) (funcall pcx--pcase-0)) "
                        "((g pcx--val0) (funcall pcx--pcase-0))))");
    /* pcase-let: unchecked, tests still evaluated */
    assert_string_equal(compact1(a, "(pcase-let ((`(,a) v)) a)"),
                        "(progn (ignore (consp v)) (let* ((pcx--x0 (car-safe v)) "
                        "(pcx--x1 (cdr-safe v))) (ignore (null pcx--x1)) "
                        "(let ((a pcx--x0)) a)))");
    arena_free(a);
}

static const char *and_of_ors(struct arena *a, int k)
{
    struct buf b;
    buf_init(&b, a);
    buf_puts(&b, "(pcase x ((and");
    for (int i = 0; i < k; i++)
        buf_printf(&b, " (or (pred p%d) (pred q%d))", i, i);
    buf_puts(&b, ") 'yes) (_ 'no))");
    return compact1(a, buf_cstr(&b));
}

static void test_linear_growth(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    size_t n10 = strlen(and_of_ors(a, 10)), n40 = strlen(and_of_ors(a, 40));
    assert_true(n10 > 500);
    assert_true(n40 < 5 * n10);
    arena_free(a);
}

/* Deep or wide input: a diagnostic or a result, never a crash. */
static void test_deep_and_wide(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    buf_puts(&b, "(pcase x (");
    for (int i = 0; i < 5000; i++)
        buf_puts(&b, "(app car ");
    buf_puts(&b, "1");
    for (int i = 0; i < 5000; i++)
        buf_puts(&b, ")");
    buf_puts(&b, " 1))");
    struct run r;
    run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_true(r.failed);
    assert_string_equal(r.dl.items[r.dl.n - 1].code, "nesting-too-deep");
    buf_init(&b, a);
    buf_puts(&b, "(pcase x (`(");
    for (int i = 0; i < 300; i++)
        buf_printf(&b, " %d", i);
    buf_puts(&b, ") 1))");
    run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_false(r.failed);
    buf_init(&b, a);
    buf_puts(&b, "(pcase x");
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, " (%d %d)", i, i);
    buf_puts(&b, ")");
    run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    if (r.failed)
        assert_string_equal(r.dl.items[r.dl.n - 1].code, "nesting-too-deep");
    buf_init(&b, a);
    buf_puts(&b, "(pcase x");
    for (int i = 0; i < 500; i++)
        buf_printf(&b, " (%d %d)", i, i);
    buf_puts(&b, ")");
    run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_false(r.failed);
    arena_free(a);
}

/* ---- dumps and the cond* interface ---- */

static void test_dump(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct run r;
    const char *text = "(pcase-let* ((`(,a) (f)) ((or 'k b) a)) b)";
    run_text(&r, a, text, strlen(text), true);
    struct buf b;
    buf_init(&b, a);
    assert_true(pcase_dump(&r.x, r.rr.forms[0].v, PCASE_DUMP_PAT, &b));
    assert_string_equal(buf_cstr(&b),
                        "clause 0: (or (quote k $0) (var b $0))\n"
                        "clause 1: (dontcare $0)\n"
                        "\n"
                        "clause 0: (and (pred consp $0) (app car-safe $0 -> $1) (var a $1)"
                        " (app cdr-safe $0 -> $2) (quote nil $2))\n"
                        "clause 1: (dontcare $0)\n");
    buf_init(&b, a);
    assert_true(pcase_dump(&r.x, r.rr.forms[0].v, PCASE_DUMP_DTREE, &b));
    assert_non_null(strstr(buf_cstr(&b), "n0: if (eq a 'k) then n1 else n2\n"));
    arena_free(a);
}

static void test_condstar_interface(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct run r;
    const char *text = "((`(,x) (list x))) (g) `((,y) . ,z)";
    run_text(&r, a, text, strlen(text), true);
    struct value *e = pcase_compile_clauses(&r.x, intern_cstr(r.L, "v"),
                                            r.rr.forms[0].v, r.rr.forms[1].v);
    if (!e)
        fail_msg("%s", run_diags(&r, "t.el"));
    r.out[0] = e;
    assert_string_equal(run_compact(&r, 0),
                        "(if (consp v) (let* ((pcx--x0 (car-safe v)) (pcx--x1 (cdr-safe v)))"
                        " (if (null pcx--x1) (let ((x pcx--x0)) (list x)) (g))) (g))");
    struct value *body = lisp_listv(r.L, intern_cstr(r.L, "z"), NULL);
    size_t before = r.dl.n;
    e = pcase_destructure(&r.x, r.rr.forms[2].v, intern_cstr(r.L, "w"), body);
    assert_non_null(e);
    r.out[0] = e;
    assert_non_null(strstr(run_compact(&r, 0), "(ignore (consp w))"));
    assert_int_equal(r.dl.n - before, 0); /* cond* checks its own variables */
    arena_free(a);
}

/* ---- `--conformance CASES` for the Emacs runner ---- */

static int conformance_main(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 2;
    }
    static char data[1 << 20];
    size_t n = fread(data, 1, sizeof data - 1, f);
    fclose(f);
    data[n] = 0;
    char *save = NULL;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct row w;
        if (line[0] == '#' || !split_row(line, &w))
            continue;
        struct arena *a = arena_new(NULL);
        struct run r;
        memset(&r, 0, sizeof r);
        r.a = a;
        r.L = intern_new(a);
        diag_init(&r.dl, a);
        if (!read_source(r.L, (const uint8_t *)w.form, strlen(w.form), &r.rr))
            return 2;
        expand_init(&r.x, r.L, &r.dl, &r.rr);
        r.x.macros = pcase_macros_new(r.L);
        r.out = ARENA_NEWN(a, struct value *, 2);
        r.out[0] = expand_form(&r.x, r.rr.forms[0].v);
        printf("%s\t%s\t%s\n", w.id, r.out[0] ? run_compact(&r, 0) : "XERROR",
               diag_codes(&r, 0));
        arena_free(a);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--conformance") == 0)
        return conformance_main(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heads_sorted),
        cmocka_unit_test(test_conformance_cases),
        cmocka_unit_test(test_goldens),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_linear_growth),
        cmocka_unit_test(test_deep_and_wide),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_condstar_interface),
    };
    return SUPPORT_RUN(tests);
}
