/* test_pcase.c - the pcase front end (pcase.c, pcase_norm.c, pcase_compile.c).
 *
 * Unit tests: the head tables; every case of the conformance suite
 * (testdata/conformance/pcase/cases.tsv) expands or fails as expected,
 * with the expected warnings and no pcase-family head left; the goldens of
 * testdata/expand/pcase/ (output, diagnostics and output vocabulary, memo
 * cache on and off; testdata/expand/pcase/verify.el runs them in Emacs);
 * diagnostic positions; linear output for an `and` of `or`s; deep and wide
 * input fail cleanly or work; pattern macros declared as configuration
 * templates; the dumps; the cache counters of --stats;
 * temporaries in the three --gensyms modes; the cond* interface.  With
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

#include "expand/gensym.h"
#include "expand/pcase.h"
#include "expand/pcase_macros.h"

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
    struct support_run r;
    support_run_text(&r, a, w->form, strlen(w->form), true);
    const char *codes = support_diag_codes(r.a, &r.dl, 0);
    if (!strncmp(w->expected, "XERROR:", 7)) {
        char want[128];
        snprintf(want, sizeof want, "error:%s", w->expected + 7);
        if (!r.failed || !strstr(codes, want))
            fail_msg("%s: expected %s, got [%s]", w->id, w->expected, codes);
    } else {
        if (r.failed)
            fail_msg("%s: failed [%s]", w->id, codes);
        if (support_has_forbidden_head(a, r.out[0], r.L->quote))
            fail_msg("%s: a pcase-family head remains: %s", w->id, support_run_compact(&r, 0));
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

/* Calls f on every row of data (a TSV text, modified; # lines skipped);
 * returns the number of rows. */
static int each_row(char *data, void (*f)(const struct row *w))
{
    int rows = 0;
    char *save = NULL;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct row w;
        if (line[0] == '#' || !split_row(line, &w))
            continue;
        f(&w);
        rows++;
    }
    return rows;
}

static void test_conformance_cases(void **state)
{
    (void)state;
    size_t n;
    char *data = support_slurp(support_testdata("conformance/pcase/cases.tsv"), &n);
    assert_true(each_row(data, check_case) >= 90);
    test_free(data);
}

/* ---- goldens ---- */

/* Every case of manifest.yaml: output and diagnostics, memo cache on and
 * off, and the output vocabulary of cli.md section 9. */
static void test_goldens(void **state)
{
    (void)state;
    assert_true(support_goldens("expand/pcase", support_vocabulary) >= 60);
}

/* ---- diagnostics ---- */

static void test_positions(void **state)
{
    (void)state;
    support_expect_diags("(pcase x\n  (`(1 ,@rest) rest))",
                 "t.el:2:8: error: Unsupported QPAT: (\\,@ rest) (Emacs 30 rejects it; "
                 "Emacs 28.2 matched it as literal structure) [splice-in-backquote]\n");
    support_expect_diags("(pcase x ((and 1 nil) 2))",
                 "t.el:1:18: error: Unknown pattern `nil' [malformed-pattern]\n");
    support_expect_diags("(pcase x\t((or 1) 2))",
                 "t.el:1:18: error: Please avoid it: (or) needs at least two "
                 "alternatives [malformed-pattern]\n");
    support_expect_diags("(pcase x (`(a ,(foo y)) 1))",
                 "t.el:1:16: error: Unknown foo pattern: (foo y) [unknown-pattern]\n"
                 "t.el:1:16: note: pattern macro 'foo' is not defined in this file or the "
                 "files it requires, nor under pattern-macros [unknown-pattern]\n");
    /* unreachable clause and the clause that shadows it */
    support_expect_diags("(pcase x\n  (_ 1)\n  ('a 2))",
                 "t.el:3:3: warning: this clause can never be reached [unreachable-clause]\n"
                 "t.el:2:3: note: because this clause matches first [unreachable-clause]\n");
    support_expect_diags("(pcase x (`(,a ,_b) 1))",
                 "t.el:1:14: warning: variable `a' is bound by the pattern but never "
                 "used [unused-variable]\n");
    /* the clause that covers it is named, not the nearest reached one */
    support_expect_diags("(pcase x\n  ((pred consp) 1)\n  ((pred atom) 2)\n  (`(1 ,_) 3))",
                         "t.el:4:3: warning: this clause can never be reached "
                         "[unreachable-clause]\n"
                         "t.el:2:3: note: because this clause matches first "
                         "[unreachable-clause]\n");
    /* shadowed by two clauses together: both are named */
    support_expect_diags("(pcase x\n  ((or 'a 'b) 1)\n  ('c 2)\n  ((or 'a 'c) 3))",
                         "t.el:4:3: warning: this clause can never be reached "
                         "[unreachable-clause]\n"
                         "t.el:2:3: note: because this clause matches some of its cases "
                         "first [unreachable-clause]\n"
                         "t.el:3:3: note: because this clause matches some of its cases "
                         "first [unreachable-clause]\n");
    /* code before the binding sees an outer y: the pattern's y is unused */
    support_expect_diags("(pcase x ((and (guard (g y)) y) 1))",
                         "t.el:1:30: warning: variable `y' is bound by the pattern but "
                         "never used [unused-variable]\n");
    support_expect_diags("(pcase x ((and y (guard (g y))) 1))", "");
    /* an error in a clause nothing reaches is not an error (as in Emacs) */
    support_expect_diags("(pcase x (_ 1) (1.5 2))",
                 "t.el:1:16: warning: this clause can never be reached [unreachable-clause]\n"
                 "t.el:1:10: note: because this clause matches first [unreachable-clause]\n");
}

/* ---- shapes and sizes ---- */

static const char *compact1(struct arena *a, const char *text)
{
    struct support_run *r = ARENA_NEW(a, struct support_run);
    support_run_text(r, a, text, strlen(text), true);
    assert_false(r->failed);
    return support_run_compact(r, 0);
}

static void test_shapes(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    assert_string_equal(compact1(a, "(pcase x (1 'one) ((pred stringp) 'str) "
                                    "(`(,a . ,b) (+ a b)) (_ 'other))"),
                        "(cond ((eql x 1) 'one) ((stringp x) 'str) ((consp x) "
                        "(let ((a (car x)) (b (cdr x))) (+ a b))) (t 'other))");
    /* the subject is evaluated once even when nothing reads it */
    assert_string_equal(compact1(a, "(pcase (f))"), "(progn (f) nil)");
    /* two clauses in a row reaching one body: one clause */
    assert_string_equal(compact1(a, "(pcase (f) ((or 'a (pred g)) (h) (k)))"),
                        "(let ((pcx--val0 (f))) "
                        "(cond ((or (eq pcx--val0 'a) (g pcx--val0)) (h) (k))))");
    /* shapes tested in one and, a failure going on with the next clause */
    assert_string_equal(compact1(a, "(pcase x (`(a ,y) (f y)) ('b 2) (_ (g x)))"),
                        "(cond ((and (eq (car-safe x) 'a) (consp (cdr x)) "
                        "(null (cdr (cdr x)))) (let ((y (car (cdr x)))) (f y))) "
                        "((eq x 'b) 2) (t (g x)))");
    /* a body reached from several places, not small (nor small enough
     * to be written in each, pass unshare): one copy, after the decision,
     * which sets a variable where it would run it */
    const char *big = "(g x (list 1 2 3 4 5 6 7 8) (list 5 6 7 8 9 10 11 12 13) "
                      "(list 10 11 12 13 14 15 16 17 18) (list 19 20 21 22 23 24 25))";
    char text[256];
    snprintf(text, sizeof text, "(pcase x (`(a ,y) (f y)) (`(b ,y) (h y)) (_ %s))", big);
    char want[1024];
    snprintf(want, sizeof want,
             "(let* ((pcx--goto0 nil) (pcx--res0 (let ((pcx--x0 (car-safe x))) "
             "(cond ((eq pcx--x0 'a) (let ((pcx--x1 (cdr x))) (if (and (consp pcx--x1) "
             "(null (cdr pcx--x1))) (let ((y (car pcx--x1))) (f y)) (setq pcx--goto0 t)))) "
             "((eq pcx--x0 'b) (let ((pcx--x1 (cdr x))) (if (and (consp pcx--x1) "
             "(null (cdr pcx--x1))) (let ((y (car pcx--x1))) (h y)) (setq pcx--goto0 t)))) "
             "(t (setq pcx--goto0 t)))))) "
             "(if pcx--goto0 %s pcx--res0))", big);
    assert_string_equal(compact1(a, text), want);
    /* pcase-let: unchecked; the tests that could signal stay (car),
     * those that cannot go: (ignore (consp v)) as v is read next anyway */
    assert_string_equal(compact1(a, "(pcase-let ((`(,a) v)) a)"), "(let ((a (car-safe v))) a)");
    assert_string_equal(compact1(a, "(pcase-let (((and `(,a) (app car b)) v)) (list a b))"),
                        "(let ((a (car-safe v)) (b (car v))) (list a b))");
    arena_free(a);
}

static void keep_going(struct support_run *r)
{
    r->x.keep_going = true;
}

/* An rx-let Emacs refuses is an error at its bad binding and is kept as
 * written (Emacs expands nothing in it); with --keep-going the forms
 * around it are still expanded. */
static void test_rx_let_refused(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    const char *text = "(progn (rx-let ((bad)) (pcase s ((rx \"a\") 1))) "
                       "(rx-let ((ok \"b\")) (pcase s ((rx ok) 2))))";
    struct support_run *r = ARENA_NEW(a, struct support_run);
    support_run_setup(r, a, text, strlen(text), true, keep_going);
    assert_string_equal(support_run_diags(r, "t.el"),
                        "t.el:1:17: error: Bad `rx' definition of bad: nil "
                        "[malformed-pattern]\n");
    assert_string_equal(support_run_compact(r, 0),
                        "(progn (rx-let ((bad)) (pcase s ((rx \"a\") 1))) "
                        "(rx-let ((ok \"b\")) (if (and (stringp s) (string-match \"b\" s)) "
                        "2)))");
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
    assert_true(n10 > 200);
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
    struct support_run r;
    support_run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_true(r.failed);
    assert_string_equal(r.dl.items[r.dl.n - 1].code, "nesting-too-deep");
    buf_init(&b, a);
    buf_puts(&b, "(pcase x (`(");
    for (int i = 0; i < 300; i++)
        buf_printf(&b, " %d", i);
    buf_puts(&b, ") 1))");
    support_run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_false(r.failed);
    buf_init(&b, a);
    buf_puts(&b, "(pcase x");
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, " (%d %d)", i, i);
    buf_puts(&b, ")");
    support_run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    if (r.failed)
        assert_string_equal(r.dl.items[r.dl.n - 1].code, "nesting-too-deep");
    buf_init(&b, a);
    buf_puts(&b, "(pcase x");
    for (int i = 0; i < 500; i++)
        buf_printf(&b, " (%d %d)", i, i);
    buf_puts(&b, ")");
    support_run_text(&r, a, buf_cstr(&b), strlen(buf_cstr(&b)), true);
    assert_false(r.failed);
    arena_free(a);
}

/* One run whose allocation number at fails (0: none): true when it took
 * the out-of-memory exit; *count gets the allocations it asked for. */
static bool run_failing(const char *text, long at, long *count)
{
    struct support_failing fl = {at, 0};
    struct arena_backing back = support_failing_backing(&fl);
    struct arena *a = arena_new(&back);
    volatile bool oom = true;
    if (a) {
        jmp_buf jb;
        if (setjmp(jb) == 0) {
            arena_on_oom(a, &jb);
            struct support_run r;
            support_run_text(&r, a, text, strlen(text), true);
            assert_false(r.failed);
            oom = false;
        }
        arena_free(a);
    }
    *count = fl.count;
    return oom;
}

/* Every allocation of a run of text fails in turn: each such run takes
 * the out-of-memory exit and nothing leaks (cmocka checks every page).
 * Returns the allocations the run asks for when none fails. */
static long fail_each(const char *text)
{
    long n, count;
    assert_false(run_failing(text, 0, &n));
    for (long at = 1; at <= n; at++)
        if (!run_failing(text, at, &count))
            fail_msg("allocation %ld of %ld failed, but the run completed", at, n);
    return n;
}

/* A pcase whose body holds a pcase of n clauses (a compilation larger
 * than the scratch arena's first page when n is large). */
static char *nested_text(struct arena *a, size_t n)
{
    struct buf b;
    buf_init(&b, a);
    buf_puts(&b, "(pcase (f) (`(,a . ,b) (pcase a");
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, " (`(k%zu ,x . ,y) (g%zu x y b))", i, i);
    buf_puts(&b, " (_ (pcase-let ((`(,c) b)) c)))) (_ 0))");
    return (char *)buf_cstr(&b);
}

/* Out of memory at any allocation, also inside a compilation and inside
 * a nested one, takes the run's exit (the scratch arena's pages are the
 * run's memory): the run's arena and its page, then the page that holds
 * the scratch arena's; a large nested compilation grows the scratch
 * arena past its first page while the outer one is under way. */
static void test_out_of_memory(void **state)
{
    (void)state;
    const char *text = "(pcase (f) (`(,a . ,b) (pcase a (1 b) ((pred g) (h))"
                       " (_ (pcase-let ((`(,c) b)) c)))) (_ 0))";
    assert_true(fail_each(text) >= 3);
    struct arena *a = support_arena();
    assert_true(fail_each(nested_text(a, 300)) >= 4);
    arena_free(a);
}

/* The compilations of a run share one scratch arena whose pages are
 * taken from the run's arena: a run of 200 compilations asks for the
 * pages its text and output need, not two allocations a compilation. */
static void test_scratch_reused(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    for (int i = 0; i < 200; i++)
        buf_printf(&b, "(pcase x (`(a ,y) (f%d y)) ((pred g) 1) (_ 2))\n", i);
    long one, many;
    assert_false(run_failing("(pcase x (`(a ,y) (f y)) ((pred g) 1) (_ 2))", 0, &one));
    assert_false(run_failing(buf_cstr(&b), 0, &many));
    assert_true(one <= 4);
    assert_true(many <= 20); /* the run's arena grows with the text */
    arena_free(a);
}

/* ---- pattern macros declared in the configuration ---- */

/* The templates of cli.md 12 (an &optional default, a ,@ splice), as
 * config_values hands them over. */
static void declare_templates(struct support_run *r)
{
    static const char *const defs[][3] = {
        {"my-pos", "(v)", "`(and (pred integerp) ,v (guard (> ,v 0)))"},
        {"my-kv", "(k &optional (v '_))", "`(and (pred consp) (app car ,k) (app cdr ,v))"},
        {"my-any", "(&rest ps)", "`(or ,@ps)"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
        struct value *v[2];
        for (int k = 0; k < 2; k++) {
            struct read_result *rr = ARENA_NEW(r->a, struct read_result);
            const char *t = defs[i][k + 1];
            assert_true(read_source(r->L, (const uint8_t *)t, strlen(t), rr));
            v[k] = rr->forms[0].v;
        }
        assert_true(pcase_macros_define_template(&r->x, intern_cstr(r->L, defs[i][0]),
                                                 v[0], v[1]));
    }
}

/* A use of a declared template expands exactly as the pattern it stands
 * for; without the declaration it is an unknown head. */
static void test_config_templates(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"(pcase x ((my-pos n) (list n)) (_ 'no))",
         "(pcase x ((and (pred integerp) n (guard (> n 0))) (list n)) (_ 'no))"},
        {"(pcase x ((my-kv 'a) 1) ((my-kv 'b (my-pos w)) w))",
         "(pcase x ((and (pred consp) (app car 'a) (app cdr _)) 1)"
         " ((and (pred consp) (app car 'b) (app cdr (and (pred integerp) w"
         " (guard (> w 0))))) w))"},
        {"(pcase-let (((my-any `(,a) `[,a]) v)) a)", "(pcase-let (((or `(,a) `[,a]) v)) a)"},
    };
    struct arena *a = support_arena();
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct support_run use, plain;
        support_run_setup(&use, a, pairs[i][0], strlen(pairs[i][0]), true, declare_templates);
        support_run_text(&plain, a, pairs[i][1], strlen(pairs[i][1]), true);
        assert_false(use.failed);
        assert_int_equal(use.dl.n, 0);
        assert_string_equal(support_run_compact(&use, 0), support_run_compact(&plain, 0));
        support_run_text(&use, a, pairs[i][0], strlen(pairs[i][0]), true);
        assert_true(use.failed);
        assert_non_null(strstr(support_diag_codes(a, &use.dl, 0), "error:unknown-pattern"));
    }
    arena_free(a);
}

/* ---- dumps and the cond* interface ---- */

static void test_dump(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct support_run r;
    const char *text = "(pcase-let* ((`(,a) (f)) ((or 'k b) a)) b)";
    support_run_text(&r, a, text, strlen(text), true);
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
    /* one DAG per compilation, innermost first; n5 is shared by two
     * failure edges (hash-consed nodes) */
    buf_init(&b, a);
    assert_true(pcase_dump(&r.x, r.rr.forms[0].v, PCASE_DUMP_DTREE, &b));
    assert_string_equal(buf_cstr(&b),
                        "n0: if (eq a 'k) then n1 else n2\n"
                        "n1: clause 0 []\n"
                        "n2: clause 0 [b=a]\n"
                        "\n"
                        "n0: if (consp $0) then n1 else n5\n"
                        "n1: let $1 = (car-safe $0) -> n2\n"
                        "n2: let $2 = (cdr-safe $0) -> n3\n"
                        "n3: if (null $2) then n4 else n5\n"
                        "n4: clause 0 [a=$1]\n"
                        "n5: dontcare\n");
    arena_free(a);
}

/* --stats: the computed cache answers states met again (an `and' of
 * `or's reaches the same rest from both alternatives); without the cache
 * it is never consulted (no hits, no misses) and the output is the same. */
static void test_memo_stats(void **state)
{
    (void)state;
    const char *text = "(pcase x ((and (or (pred p1) (pred q1)) (or (pred p2) (pred q2))"
                       " (or (pred p3) (pred q3))) (f) (g)) (_ 'no))\n"
                       "(pcase x ((and (or (pred p1) (pred q1)) (or (pred p2) (pred q2))"
                       " (or (pred p3) (pred q3))) (f) (g)) (_ 'no))";
    struct arena *a = support_arena();
    struct support_run on, off;
    support_run_text(&on, a, text, strlen(text), true);
    support_run_text(&off, a, text, strlen(text), false);
    assert_true(on.x.stats.memo_hits >= 2); /* hits in each of the two forms */
    assert_int_equal(on.x.stats.memo_hits % 2, 0);
    assert_true(on.x.stats.memo_misses > 0);
    assert_int_equal(off.x.stats.memo_hits, 0); /* never consulted */
    assert_int_equal(off.x.stats.memo_misses, 0);
    assert_string_equal(support_run_output(&on), support_run_output(&off));
    arena_free(a);
}

/* cli.md 7 through a whole expansion: rename skips an input symbol, hash
 * keeps the numbering, circle labels temporaries only (the quoted list
 * constant is not labelled).  Each row: the first occurrence and the later
 * ones of the subject and of the two element temporaries. */
static void test_gensym_modes(void **state)
{
    (void)state;
    static const struct {
        enum gensym_mode mode;
        const char *v, *v_again, *x1, *x1_again, *x2, *x2_again;
    } modes[] = {
        {GENSYM_RENAME, "pcx--val0", "pcx--val0", "pcx--x1", "pcx--x1", "pcx--x2", "pcx--x2"},
        {GENSYM_HASH, "#:val0", "#:val0", "#:x1", "#:x1", "#:x2", "#:x2"},
        {GENSYM_CIRCLE, "#1=#:val0", "#1#", "#2=#:x1", "#2#", "#3=#:x2", "#3#"},
    };
    struct arena *a = support_arena();
    struct support_run r;
    const char *text = "(pcase (f pcx--x0) (`(,a ,b ,c) (list a b c '(k))))";
    support_run_text(&r, a, text, strlen(text), true);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        gensym_configure(expand_gensyms(&r.x), modes[i].mode, NULL);
        char want[640];
        snprintf(want, sizeof want,
                 "(let ((%s (f pcx--x0))) (if (consp (cdr-safe (cdr-safe %s))) "
                 "(let* ((%s (cdr %s)) (%s (cdr %s))) "
                 "(if (null (cdr %s)) (let ((a (car %s)) (b (car %s)) (c (car %s))) "
                 "(list a b c '(k)))))))",
                 modes[i].v, modes[i].v_again,
                 modes[i].x1, modes[i].v_again, modes[i].x2, modes[i].x1_again,
                 modes[i].x2_again, modes[i].v_again, modes[i].x1_again, modes[i].x2_again);
        assert_string_equal(support_run_compact(&r, 0), want);
    }
    arena_free(a);
}

static void test_condstar_interface(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct support_run r;
    const char *text = "((`(,x) (list x))) (g) `((,y) . ,z)";
    support_run_text(&r, a, text, strlen(text), true);
    struct value *e = pcase_compile_clauses(&r.x, intern_cstr(r.L, "v"),
                                            r.rr.forms[0].v, r.rr.forms[1].v);
    if (!e)
        fail_msg("%s", support_run_diags(&r, "t.el"));
    r.out[0] = e;
    assert_string_equal(support_run_compact(&r, 0),
                        "(if (and (consp v) (null (cdr-safe v))) (let* ((pcx--x0 (car-safe v)))"
                        " (let ((x pcx--x0)) (list x))) (g))");
    struct value *body = lisp_listv(r.L, intern_cstr(r.L, "z"), NULL);
    size_t before = r.dl.n;
    e = pcase_destructure(&r.x, r.rr.forms[2].v, intern_cstr(r.L, "w"), body);
    assert_non_null(e);
    r.out[0] = e;
    assert_non_null(strstr(support_run_compact(&r, 0), "(ignore (consp w))"));
    assert_int_equal(r.dl.n - before, 0); /* cond* checks its own variables */
    arena_free(a);
}

/* ---- `--conformance CASES` for the Emacs runner ---- */

/* One line "ID TAB EXPANSION-or-XERROR TAB SEVERITY:CODE...". */
static void print_case(const struct row *w)
{
    struct arena *a = arena_new(NULL);
    struct support_run r;
    support_run_text(&r, a, w->form, strlen(w->form), true);
    printf("%s\t%s\t%s\n", w->id, r.out[0] ? support_run_compact(&r, 0) : "XERROR",
           support_diag_codes(r.a, &r.dl, 0));
    arena_free(a);
}

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
    each_row(data, print_case);
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
        cmocka_unit_test(test_rx_let_refused),
        cmocka_unit_test(test_linear_growth),
        cmocka_unit_test(test_deep_and_wide),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_scratch_reused),
        cmocka_unit_test(test_config_templates),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_memo_stats),
        cmocka_unit_test(test_gensym_modes),
        cmocka_unit_test(test_condstar_interface),
    };
    return SUPPORT_RUN(tests);
}
