/* test_explain.c - what a compiled pattern form does, in words.
 *
 * match/explain on IR patterns and DAGs made directly: the words of
 * tests (type predicates, constants, membership, negated and unknown
 * preds, guards), the names of parts (car, cdr, elements, lengths, the
 * value of an app), bindings (repeated variables, an or whose
 * alternatives bind differently), examples, the calls of functions and
 * guards (how often at most, which come before which, an order that
 * depends on the value), values no clause matches, and the rendered text.
 */
#include "support.h"
#include "match_fixture.h"

#include <string.h>

#include "match/explain.h"

static struct value *rd(struct match_fx *f, const char *text)
{
    return match_fx_read(f, text);
}

#define Q match_fx_quote
#define P match_fx_pred
#define V match_fx_var
#define A match_fx_app
#define OR2 match_fx_or2

static const struct pat *AND(struct match_fx *f, const struct pat *a, const struct pat *b,
                             const struct pat *c)
{
    const struct pat *v[3] = {a, b, c};
    return pat_and(&f->m, v, c ? 3 : 2);
}
/* The when and binds lines of pattern p, one per line. */
static const char *words(struct match_fx *f, const struct pat *p)
{
    struct explain_section sec;
    memset(&sec, 0, sizeof sec);
    explain_subject(&f->m, &sec, f->root, rd(f, "x"));
    struct explain_clause c;
    memset(&c, 0, sizeof c);
    explain_clause(&f->m, &sec, f->root, p, &c);
    explain_example(&f->m, f->root, p, &c);
    struct buf b;
    buf_init(&b, f->a);
    for (size_t i = 0; i < c.n_when; i++)
        buf_printf(&b, "when %s\n", c.when[i]);
    for (size_t i = 0; i < c.n_binds; i++)
        buf_printf(&b, "bind %s\n", c.binds[i]);
    buf_printf(&b, "e.g. %s\n", c.example ? c.example : "-");
    return buf_cstr(&b);
}

static void tests_in_words(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    assert_string_equal(words(f, P(f, "stringp")), "when x is a string\ne.g. \"\"\n");
    assert_string_equal(words(f, P(f, "(not consp)")),
                        "when x is not a cons\ne.g. foo\n");
    assert_string_equal(words(f, P(f, "(< 3)")), "when (< 3 x) is non-nil\ne.g. -\n");
    assert_string_equal(words(f, Q(f, "quote")), "when x is the symbol `quote'\ne.g. quote\n");
    assert_string_equal(words(f, Q(f, ":k")), "when x is the keyword :k\ne.g. :k\n");
    assert_string_equal(words(f, Q(f, "\"s\"")), "when x is the string \"s\"\ne.g. \"s\"\n");
    assert_string_equal(words(f, Q(f, "nil")), "when x is nil\ne.g. nil\n");
    assert_string_equal(words(f, pat_member(&f->m, rd(f, "memq"), rd(f, "(a b)"))),
                        "when x is one of the symbols `a', `b'\ne.g. a\n");
    assert_string_equal(words(f, pat_guard(&f->m, rd(f, "(ready)"))),
                        "when (ready) is non-nil\ne.g. -\n");
    arena_free(f->a);
}

static void parts_and_bindings(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    /* `(quote ,k) */
    const struct pat *tail = AND(f, P(f, "consp"), A(f, "car-safe", V(f, "k")),
                                 A(f, "cdr-safe", Q(f, "nil")));
    const struct pat *p = AND(f, P(f, "consp"), A(f, "car-safe", Q(f, "quote")),
                              A(f, "cdr-safe", tail));
    assert_string_equal(words(f, p),
                        "when x is a cons\n"
                        "when the car of x is the symbol `quote'\n"
                        "when the cdr of x is a cons\n"
                        "when the rest of x after 2 elements is nil\n"
                        "bind k = element 1 of x\n"
                        "e.g. 'foo\n");
    /* a repeated variable, a length, an element of a vector */
    const struct pat *v = AND(f, A(f, "length", Q(f, "2")), A(f, "(aref _ 0)", V(f, "a")),
                              A(f, "(aref _ 1)", V(f, "a")));
    assert_string_equal(words(f, v),
                        "when the length of x is the integer 2\n"
                        "when element 1 of x is eql to a (element 0 of x)\n"
                        "bind a = element 0 of x\n"
                        "e.g. [foo foo]\n");
    /* an or whose alternatives bind a at different places */
    const struct pat *o = OR2(f, AND(f, P(f, "consp"), A(f, "car-safe", V(f, "a")), NULL),
                              AND(f, P(f, "symbolp"), V(f, "a"), NULL));
    assert_string_equal(words(f, o),
                        "when one of: (1) x is a cons; (2) x is a symbol\n"
                        "bind a = the car of x if (1) matched, x if (2) matched\n"
                        "e.g. (foo)\n");
    assert_string_equal(words(f, A(f, "string-to-number", V(f, "n"))),
                        "bind n = the value of (string-to-number x)\ne.g. -\n");
    arena_free(f->a);
}

static const char *rendered(struct match_fx *f, const struct pat *const *pats, size_t n)
{
    const struct dnode *d = dtree_build(&f->m, f->root, pats, n);
    assert_non_null(d);
    struct explain_section sec;
    memset(&sec, 0, sizeof sec);
    sec.kind = EXPLAIN_MATCH;
    explain_subject(&f->m, &sec, f->root, rd(f, "x"));
    struct explain_clause *cl = test_calloc(n, sizeof *cl);
    for (size_t i = 0; i < n; i++) {
        cl[i].index = (uint32_t)i;
        explain_clause(&f->m, &sec, f->root, pats[i], &cl[i]);
    }
    sec.clauses = cl;
    sec.n_clauses = n;
    explain_no_match(&f->m, &sec, f->root, d, WITNESS_NO_MATCH);
    explain_calls(&f->m, &sec, f->root, d);
    struct buf b;
    buf_init(&b, f->a);
    explain_render(f->L, &b, &sec);
    test_free(cl);
    return buf_cstr(&b);
}

static void calls_and_no_match(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[3] = {
        AND(f, P(f, "integerp"), A(f, "1+", P(f, "big-p")), NULL),
        AND(f, P(f, "valid-p"), A(f, "1+", P(f, "big-p")), NULL),
        Q(f, "a"),
    };
    assert_string_equal(rendered(f, p, 3),
                        "subject: x (a variable, read by each test: reading it runs no code)\n"
                        "clause 1: (implicit)\n"
                        "  chosen when:\n"
                        "    x is an integer\n"
                        "    (big-p (1+ x)) is non-nil\n"
                        "clause 2: (implicit)\n"
                        "  chosen when:\n"
                        "    (valid-p x) is non-nil\n"
                        "    (big-p (1+ x)) is non-nil\n"
                        "  only if clause 1 did not match\n"
                        "clause 3: (implicit)\n"
                        "  chosen when: x is the symbol `a'\n"
                        "  only if clauses 1 and 2 did not match\n"
                        "no match: depends on what these return: (valid-p x), (big-p (1+ x))\n"
                        "calls:\n"
                        "  (1+ x) [app]: at most once, after (valid-p x) where those run too\n"
                        "  (big-p (1+ x)) [pred]: at most once, after (1+ x), (valid-p x) "
                        "where those run too\n"
                        "  (valid-p x) [pred]: at most once\n");
    /* f before g on integers, g before f on the rest */
    const struct pat *o[2] = {AND(f, P(f, "integerp"), P(f, "f"), P(f, "g")),
                              AND(f, P(f, "g"), P(f, "f"), NULL)};
    const char *t = rendered(f, o, 2);
    assert_non_null(strstr(t, "calls:\n"
                              "  (f x) [pred]: at most once; its order with others depends on "
                              "the value\n"
                              "  (g x) [pred]: at most once; its order with others depends on "
                              "the value\n"));
    const struct pat *q[2] = {P(f, "symbolp"), pat_any(&f->m)};
    assert_non_null(strstr(rendered(f, q, 2),
                           "no match: never (some clause matches every value)\n"
                           "calls: none (only type tests and car/cdr/length/aref)\n"));
    arena_free(f->a);
}

static void table_sorted(void **state)
{
    (void)state;
    assert_int_equal(explain_check_table(), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tests_in_words),
        cmocka_unit_test(parts_and_bindings),
        cmocka_unit_test(calls_and_no_match),
        cmocka_unit_test(table_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
