/* test_dtree.c - match trees, knowledge rules and the decision DAG.
 *
 * The builder (match/dtree) on IR patterns made directly: test order and
 * knowledge propagation (identical guards merged unless they mention a
 * variable, Emacs 30.1's exclusive predicates, constants, `not`), `or` of constants
 * as one membership test, app sharing and skipped calls, leaves, the
 * linear size of an `and` of `or`s, the computed cache changing nothing,
 * hash-consed decision nodes, the sets of temporaries the code below a
 * node reads (also past 64 of them), the dumps (match/dump) that pin the
 * structure, own-key objects beside keyed entries in one table, and long
 * lists made across arena pages and table doublings.
 */
#include "support.h"
#include "match_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lisp/print.h"
#include "match/dump.h"
#include "match/emit.h"
#include "match/fold.h"
#include "match/know.h"
#include "syntax/read.h"

static struct value *rd(struct match_fx *f, const char *text)
{
    return match_fx_read(f, text);
}

/* Short constructors for the IR. */
static const struct pat *Q(struct match_fx *f, const char *c) { return pat_quote(&f->m, rd(f, c)); }
static const struct pat *P(struct match_fx *f, const char *fun) { return pat_pred(&f->m, rd(f, fun)); }
static const struct pat *G(struct match_fx *f, const char *e) { return pat_guard(&f->m, rd(f, e)); }
static const struct pat *V(struct match_fx *f, const char *s) { return pat_var(&f->m, rd(f, s)); }
static const struct pat *A(struct match_fx *f, const char *fun, const struct pat *p)
{
    return pat_app(&f->m, rd(f, fun), p);
}
static const struct pat *AND2(struct match_fx *f, const struct pat *a, const struct pat *b)
{
    const struct pat *v[2] = {a, b};
    return pat_and(&f->m, v, 2);
}
static const struct pat *OR2(struct match_fx *f, const struct pat *a, const struct pat *b)
{
    const struct pat *v[2] = {a, b};
    return pat_or(&f->m, v, 2);
}

/* A test that tells nothing about any leaf. */
static struct mt_split nothing_known(void *arg, const struct pat *leaf)
{
    (void)arg;
    (void)leaf;
    return (struct mt_split){MT_UNKNOWN, MT_UNKNOWN};
}

static const char *dtree_text(struct match_fx *f, const struct pat *const *pats, size_t n)
{
    const struct dnode *d = dtree_build(&f->m, f->root, pats, n);
    assert_non_null(d);
    struct buf b;
    buf_init(&b, f->a);
    dump_dtree(&f->m, &b, f->root, d);
    return buf_cstr(&b);
}

static void constants_dispatch(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[3] = {Q(f, "a"), Q(f, "1"), pat_any(&f->m)};
    assert_string_equal(dtree_text(f, p, 3),
                        "n0: if (eq x 'a) then n1 else n2\n"
                        "n1: clause 0 []\n"
                        "n2: if (eql x 1) then n3 else n4\n"
                        "n3: clause 1 []\n"
                        "n4: clause 2 []\n");
    arena_free(f->a);
}

/* E#20: the second copy of an identical guard is answered by the first. */
static void identical_guards_merge(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *g = G(f, "(tick)");
    const struct pat *p[3] = {AND2(f, Q(f, "1"), g), g, pat_any(&f->m)};
    assert_string_equal(dtree_text(f, p, 3),
                        "n0: if (eql x 1) then n1 else n4\n"
                        "n1: if (tick) then n2 else n3\n"
                        "n2: clause 0 []\n"
                        "n3: clause 2 []\n"
                        "n4: if (tick) then n5 else n3\n"
                        "n5: clause 1 []\n");
    arena_free(f->a);
}

/* bug#14773: guards mentioning a bound variable are not merged. */
static void guards_with_variables_do_not_merge(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *g = G(f, "v");
    const struct pat *p[2] = {AND2(f, A(f, "car", V(f, "v")), g),
                              AND2(f, A(f, "cdr", V(f, "v")), g)};
    const char *t = dtree_text(f, p, 2);
    assert_non_null(strstr(t, "if $1 then"));
    assert_non_null(strstr(t, "if $2 then"));
    assert_non_null(strstr(t, "clause 1"));
    arena_free(f->a);
}

/* Emacs 30.1's sets of leaf types per predicate, as exclusive.el stored
 * them (one line: NAME LEAF...): the number of predicates read, their
 * names in names[] and a bit per distinct leaf name in sets[]. */
#define MAX_PREDS 80
static size_t read_pred_sets(char *text, char **names, uint64_t *sets)
{
    char *leaves[64];
    size_t n_leaves = 0, n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        assert_true(n < MAX_PREDS);
        names[n] = line;
        sets[n] = 0;
        char *sp = strchr(line, ' ');
        assert_non_null(sp);
        *sp = '\0';
        for (char *w = sp + 1; *w;) {
            char *end = strchr(w, ' ');
            if (end)
                *end = '\0';
            size_t k = 0;
            while (k < n_leaves && strcmp(leaves[k], w) != 0)
                k++;
            if (k == n_leaves) {
                assert_true(n_leaves < 64);
                leaves[n_leaves++] = w;
            }
            sets[n] |= UINT64_C(1) << k;
            w = end ? end + 1 : w + strlen(w);
        }
        n++;
    }
    return n;
}

/* special-form-p is exclusive with neither symbolp nor fboundp, though
 * Emacs 30.1's table makes it so (pcase.md 3.5, E#52). */
static bool special_symbol_pair(const char *a, const char *b)
{
    return !strcmp(a, "special-form-p") && (!strcmp(b, "symbolp") || !strcmp(b, "fboundp"));
}

/* Every pair of predicates of Emacs 30.1's table is exclusive exactly
 * when Emacs says so, but for the special-form-p pairs; the table has
 * Emacs's predicates and no other. */
static void exclusion_matches_emacs(void **state)
{
    (void)state;
    assert_int_equal(know_check_table(), -1);
    size_t len;
    char *text = support_slurp(support_testdata("conformance/pcase/exclusive.txt"), &len);
    char *names[MAX_PREDS];
    uint64_t sets[MAX_PREDS];
    size_t n = read_pred_sets(text, names, sets);
    assert_true(n > 40);
    size_t ours = 0;
    while (know_pred_name(ours))
        ours++;
    assert_int_equal(ours, n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(know_pred_name(i), names[i]);
        for (size_t j = 0; j < n; j++) {
            bool emacs = (sets[i] & sets[j]) == 0;
            if (special_symbol_pair(names[i], names[j]) ||
                special_symbol_pair(names[j], names[i])) {
                assert_true(emacs);
                emacs = false;
            }
            if (know_exclusive_names(names[i], names[j]) != emacs)
                fail_msg("%s / %s: Emacs says %sexclusive", names[i], names[j],
                         emacs ? "" : "not ");
        }
        assert_false(know_exclusive_names(names[i], "nlistp"));
    }
    test_free(text);
}

static void exclusion_table(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    assert_true(know_exclusive(rd(f, "consp"), rd(f, "stringp")));
    assert_true(know_exclusive(rd(f, "null"), rd(f, "consp"))); /* not in 28.2 */
    assert_false(know_exclusive(rd(f, "symbolp"), rd(f, "special-form-p")));
    assert_false(know_exclusive(rd(f, "(not consp)"), rd(f, "consp")));
    /* after (pred consp) succeeds, a stringp clause is dropped; a quoted
     * string constant is not (Emacs 28.2 took its type for a stringp) */
    const struct pat *p[3] = {AND2(f, P(f, "consp"), G(f, "nil")), P(f, "stringp"),
                              Q(f, "\"s\"")};
    const char *t = dtree_text(f, p, 3);
    assert_string_equal(t, "n0: if (consp x) then n1 else n6\n"
                           "n1: if nil then n2 else n3\n"
                           "n2: clause 0 []\n"
                           "n3: if (equal x \"s\") then n4 else n5\n"
                           "n4: clause 2 []\n"
                           "n5: fail\n"
                           "n6: if (stringp x) then n7 else n3\n"
                           "n7: clause 1 []\n");
    arena_free(f->a);
}

static void not_swaps_outcomes(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    /* (pred (not consp)) after consp failed is known to succeed */
    const struct pat *p[2] = {AND2(f, P(f, "consp"), G(f, "nil")),
                              P(f, "(not consp)")};
    const char *t = dtree_text(f, p, 2);
    assert_null(strstr(t, "(not (consp x))"));
    assert_non_null(strstr(t, "clause 1"));
    arena_free(f->a);
}

static const char *member_of(struct match_fx *f, const char *a, const char *b,
                             const char *c)
{
    const struct pat *v[3] = {Q(f, a), Q(f, b), Q(f, c)};
    const struct pat *p[1] = {pat_or(&f->m, v, 3)};
    return dtree_text(f, p, 1);
}

/* 3.6: constants of an `or` become one test, reversed, with the
 * narrowest membership function. */
static void or_of_constants(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    assert_non_null(strstr(member_of(f, "a", "b", "c"), "(memq x '(c b a))"));
    assert_non_null(strstr(member_of(f, "a", "1", "c"), "(memql x '(c 1 a))"));
    assert_non_null(strstr(member_of(f, "1", "\"s\"", "c"), "(member x '(c \"s\" 1))"));
    /* constants go first even after a non-constant alternative (E#28) */
    const struct pat *v[3] = {Q(f, "a"), P(f, "f"), Q(f, "b")};
    const struct pat *p[1] = {pat_or(&f->m, v, 3)};
    assert_string_equal(dtree_text(f, p, 1),
                        "n0: if (memq x '(b a)) then n1 else n2\n"
                        "n1: clause 0 []\n"
                        "n2: if (f x) then n1 else n3\n"
                        "n3: fail\n");
    arena_free(f->a);
}

/* E#22 and E#32: one call of the same FUN per path; unread results are
 * not computed, but an app on a value still needs that value. */
static void app_sharing_and_skipping(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[2] = {A(f, "f", Q(f, "1")), A(f, "f", Q(f, "2"))};
    assert_string_equal(dtree_text(f, p, 2),
                        "n0: let $1 = (f x) -> n1\n"
                        "n1: if (eql $1 1) then n2 else n3\n"
                        "n2: clause 0 []\n"
                        "n3: if (eql $1 2) then n4 else n5\n"
                        "n4: clause 1 []\n"
                        "n5: fail\n");
    const struct pat *q[1] = {A(f, "f", pat_any(&f->m))};
    assert_string_equal(dtree_text(f, q, 1), "n0: clause 0 []\n");
    const struct pat *r[1] = {A(f, "g", A(f, "f", pat_any(&f->m)))};
    const char *t = dtree_text(f, r, 1);
    assert_non_null(strstr(t, "let $1 = (g x)"));
    assert_non_null(strstr(t, "use $1"));
    assert_null(strstr(t, "(f "));
    arena_free(f->a);
}

/* fold_call's answer for FUN on ARG (both read), printed, or "fails". */
static const char *folded(struct match_fx *f, const char *fun, const char *arg)
{
    struct value *out;
    if (!fold_call(f->L, rd(f, fun), rd(f, arg), &out))
        return "fails";
    struct buf b;
    buf_init(&b, f->a);
    struct print_opts o = print_opts_compact();
    print_value(f->L, &b, out, &o);
    return buf_cstr(&b);
}

/* The calls Emacs 30.1 makes on constants while compiling: built-ins of
 * the table as Emacs computes them (errors fail), lambdas of constants,
 * their argument and those built-ins; anything else fails. */
static void fold_calls(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    assert_int_equal(fold_check_table(), -1);
    assert_string_equal(folded(f, "car", "(a . b)"), "a");
    assert_string_equal(folded(f, "car", "nil"), "nil");
    assert_string_equal(folded(f, "car", "\"s\""), "fails");
    assert_string_equal(folded(f, "car-safe", "\"s\""), "nil");
    assert_string_equal(folded(f, "cadr", "(1 2)"), "2");
    assert_string_equal(folded(f, "length", "(1 2 3)"), "3");
    assert_string_equal(folded(f, "length", "(1 . 2)"), "fails");
    assert_string_equal(folded(f, "length", "\"\u00e9t\u00e9\""), "3");
    assert_string_equal(folded(f, "length", "[a b]"), "2");
    assert_string_equal(folded(f, "length", "a"), "fails");
    assert_string_equal(folded(f, "type-of", "1.5"), "float");
    assert_string_equal(folded(f, "type-of", "#s(point 1 2)"), "point");
    assert_string_equal(folded(f, "symbol-name", "foo"), "\"foo\"");
    assert_string_equal(folded(f, "symbol-name", "5"), "fails");
    assert_string_equal(folded(f, "keywordp", ":k"), "t");
    assert_string_equal(folded(f, "natnump", "-1"), "nil");
    assert_string_equal(folded(f, "nth", "(1 2)"), "fails"); /* one argument */
    assert_string_equal(folded(f, "1+", "42"), "43");
    assert_string_equal(folded(f, "1+", "-1"), "0");
    assert_string_equal(folded(f, "1-", "0"), "-1");
    assert_string_equal(folded(f, "1-", "-9"), "-10");
    assert_string_equal(folded(f, "1+", "1.5"), "2.5");
    assert_string_equal(folded(f, "1+", "9223372036854775807"), "9223372036854775808");
    assert_string_equal(folded(f, "1-", "-9223372036854775808"), "-9223372036854775809");
    assert_string_equal(folded(f, "1+", "-9223372036854775809"), "-9223372036854775808");
    assert_string_equal(folded(f, "1+", "1180591620717411303424"), "1180591620717411303425");
    assert_string_equal(folded(f, "1-", "1180591620717411303424"), "1180591620717411303423");
    assert_string_equal(folded(f, "1+", "t"), "fails");
    assert_string_equal(folded(f, "user-function", "1"), "fails");
    assert_string_equal(folded(f, "(nth 1)", "(1 2)"), "fails"); /* not a function */
    assert_string_equal(folded(f, "(lambda (_) 'k)", "1"), "k");
    assert_string_equal(folded(f, "(lambda (x) (cons x (nth 1 '(a b))))", "1"), "(1 . b)");
    assert_string_equal(folded(f, "(lambda (&rest r) r)", "1"), "(1)");
    assert_string_equal(folded(f, "(lambda (&optional a b) (list a b))", "1"), "(1 nil)");
    assert_string_equal(folded(f, "(lambda () 1)", "1"), "fails");
    assert_string_equal(folded(f, "(lambda (a b) 1)", "1"), "fails");
    assert_string_equal(folded(f, "(lambda (_) outer)", "1"), "fails"); /* unbound */
    assert_string_equal(folded(f, "(lambda (_) (tick 1))", "1"), "fails");
    assert_string_equal(folded(f, "(lambda (_) (if _ 1 2))", "1"), "fails");
    assert_string_equal(folded(f, "(lambda (_))", "1"), "nil");
    arena_free(f->a);
}

/* Emacs 30.1 refines a later constant through an app on its subject:
 * the call is then made (its result is tested), and a cons constant is
 * tested by parts, so that '(nil) matches any non-cons through car-safe
 * and cdr-safe (as in Emacs).  A call that fails leaves the constant. */
static void app_refines_later_constants(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[2] = {AND2(f, A(f, "car-safe", pat_any(&f->m)), P(f, "p")),
                              Q(f, "(nil)")};
    assert_string_equal(dtree_text(f, p, 2),
                        "n0: let $1 = (car-safe x) -> n1\n"
                        "n1: if (p x) then n2 else n3\n"
                        "n2: clause 0 []\n"
                        "n3: if (null $1) then n4 else n7\n"
                        "n4: let $2 = (cdr-safe x) -> n5\n"
                        "n5: if (null $2) then n6 else n7\n"
                        "n6: clause 1 []\n"
                        "n7: fail\n");
    const struct pat *q[2] = {AND2(f, A(f, "length", pat_any(&f->m)), P(f, "p")),
                              Q(f, "(1 . 2)")};
    assert_null(strstr(dtree_text(f, q, 2), "length"));
    const struct pat *r[2] = {AND2(f, A(f, "length", pat_any(&f->m)), P(f, "p")),
                              Q(f, "(1 2)")};
    assert_string_equal(dtree_text(f, r, 2),
                        "n0: let $1 = (length x) -> n1\n"
                        "n1: if (p x) then n2 else n3\n"
                        "n2: clause 0 []\n"
                        "n3: if (eql $1 2) then n4 else n6\n"
                        "n4: if (equal x '(1 2)) then n5 else n6\n"
                        "n5: clause 1 []\n"
                        "n6: fail\n");
    arena_free(f->a);
}

/* Emacs rebuilds every and/or of a remaining branch at each test: an
 * empty `and' succeeds, and a succeeding alternative absorbs its `or',
 * with the bindings of the others; a one-item `and' is unwrapped, so that
 * its constant joins the constants of its `or'. */
static void remaining_branches_are_rebuilt(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *vb[1] = {V(f, "b")};
    const struct pat *p[2] = {Q(f, "-1"),
                              OR2(f, pat_and(&f->m, vb, 1), pat_and(&f->m, NULL, 0))};
    assert_string_equal(dtree_text(f, p, 2),
                        "n0: if (eql x -1) then n1 else n2\n"
                        "n1: clause 0 []\n"
                        "n2: clause 1 []\n");
    const struct pat *qa[1] = {Q(f, "a")};
    const struct pat *alts[3] = {pat_and(&f->m, qa, 1), G(f, "(g)"), Q(f, "b")};
    const struct pat *q[2] = {Q(f, "1"), pat_or(&f->m, alts, 3)};
    assert_string_equal(dtree_text(f, q, 2),
                        "n0: if (eql x 1) then n1 else n2\n"
                        "n1: clause 0 []\n"
                        "n2: if (memq x '(b a)) then n3 else n4\n"
                        "n3: clause 1 []\n"
                        "n4: if (g) then n3 else n5\n"
                        "n5: fail\n");
    arena_free(f->a);
}

/* In a pcase-let (a "don't care" clause follows), a failing test is
 * ignored: the way goes on as if it had succeeded, and a test repeated
 * after the `or' can still fail, leading to the `or''s next alternative:
 * that branch is kept (as Emacs keeps it). */
static void ignored_failures_keep_alternatives(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *three[3] = {OR2(f, pat_any(&f->m), V(f, "a")), Q(f, "x"), Q(f, "x")};
    const struct pat *p[2] = {pat_and(&f->m, three, 3), pat_dontcare(&f->m)};
    assert_string_equal(dtree_text(f, p, 2),
                        "n0: if (eq x 'x) then n1 else n4\n"
                        "n1: if (eq x 'x) then n2 else n3\n"
                        "n2: clause 0 []\n"
                        "n3: clause 0 [a=x]\n"
                        "n4: dontcare\n");
    arena_free(f->a);
}

/* A leaf lists its bindings by name creation, whatever order they were
 * bound in, and both ways through an `or' end at that one leaf. */
static void leaves_sort_their_bindings(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *va = V(f, "a"), *vb = V(f, "b");
    const struct pat *three[3] = {OR2(f, P(f, "p"), P(f, "q")), A(f, "car", vb),
                                  A(f, "cdr", va)};
    const struct pat *p[1] = {pat_and(&f->m, three, 3)};
    assert_string_equal(dtree_text(f, p, 1),
                        "n0: if (p x) then n1 else n4\n"
                        "n1: let $1 = (car x) -> n2\n"
                        "n2: let $2 = (cdr x) -> n3\n"
                        "n3: clause 0 [a=$2 b=$1]\n"
                        "n4: if (q x) then n1 else n5\n"
                        "n5: fail\n");
    assert_ptr_equal(mtree_succeed(&f->m), mtree_succeed(&f->m));
    arena_free(f->a);
}

/* A second app of the same FUN on the same value while the first result
 * is still bound gets a temporary of its own (a new generation); once the
 * first result is no longer needed, the second call reuses its temporary. */
static void app_generations(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *v = V(f, "v"), *w = V(f, "w");
    const struct pat *p[1] = {AND2(f, A(f, "f", v), A(f, "f", w))};
    assert_string_equal(dtree_text(f, p, 1),
                        "n0: let $1 = (f x) -> n1\n"
                        "n1: let $2 = (f x) -> n2\n"
                        "n2: clause 0 [v=$1 w=$2]\n");
    const struct pat *q[1] = {AND2(f, A(f, "f", Q(f, "1")), A(f, "f", w))};
    assert_string_equal(dtree_text(f, q, 1),
                        "n0: let $1 = (f x) -> n1\n"
                        "n1: if (eql $1 1) then n2 else n4\n"
                        "n2: let $1 = (f x) -> n3\n"
                        "n3: clause 0 [w=$1]\n"
                        "n4: fail\n");
    arena_free(f->a);
}

static void repeated_variable_is_eql(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[1] = {AND2(f, A(f, "car", V(f, "v")), A(f, "cdr", V(f, "v")))};
    const char *t = dtree_text(f, p, 1);
    assert_non_null(strstr(t, "if (eql $1 $2)"));
    assert_non_null(strstr(t, "clause 0 [v=$1]"));
    arena_free(f->a);
}

/* (and (or p1 q1) ... (or pk qk)): Emacs's tree has 2^k paths; the DAG
 * stays linear and so does the number of states built. */
static size_t and_of_ors(struct match_fx *f, int k, size_t *states)
{
    const struct pat **ors = ARENA_NEWN(f->a, const struct pat *, (size_t)k);
    for (int i = 0; i < k; i++) {
        char p[32], q[32];
        snprintf(p, sizeof p, "p%d", i);
        snprintf(q, sizeof q, "q%d", i);
        ors[i] = OR2(f, P(f, p), P(f, q));
    }
    const struct pat *pats[2] = {pat_and(&f->m, ors, (size_t)k), Q(f, "z")};
    const struct dnode *d = dtree_build(&f->m, f->root, pats, 2);
    assert_non_null(d);
    size_t n;
    dtree_visit(&f->m, d, &n);
    *states = f->m.states;
    return n;
}

static void and_of_ors_is_linear(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    size_t s10, s40;
    size_t n10 = and_of_ors(f, 10, &s10);
    struct match_fx *g = match_fx_new(true);
    size_t n40 = and_of_ors(g, 40, &s40);
    assert_true(n10 >= 20);
    assert_true(n40 <= 5 * n10);
    assert_true(s40 <= 5 * s10);
    arena_free(f->a);
    arena_free(g->a);
}

static void cache_changes_nothing(void **state)
{
    (void)state;
    const char *texts[2];
    size_t hits[2], states[2];
    for (int on = 0; on < 2; on++) {
        struct match_fx *f = match_fx_new(on);
        const struct pat *g = G(f, "(h)");
        const struct pat *p[4] = {
            AND2(f, OR2(f, P(f, "p"), Q(f, "a")), OR2(f, P(f, "q"), g)),
            AND2(f, A(f, "f", V(f, "y")), g),
            OR2(f, Q(f, "b"), A(f, "f", Q(f, "3"))),
            V(f, "z")};
        texts[on] = strdup(dtree_text(f, p, 4));
        hits[on] = f->m.hits;
        states[on] = f->m.states;
        arena_free(f->a);
    }
    assert_string_equal(texts[0], texts[1]);
    assert_int_equal(hits[0], 0);
    assert_true(hits[1] > 0);
    /* a state reached again is recorded once, answered or not */
    assert_int_equal(states[0], states[1]);
    free((void *)texts[0]);
    free((void *)texts[1]);
}

/* Decision nodes are hash-consed whether or not the cache is on: the same
 * clauses give the same root, and both alternatives of an `or' continue
 * into one node (so a conjunction of `or's stays a DAG, not a tree). */
static void nodes_are_hash_consed(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(false);
    const struct pat *p[2] = {
        AND2(f, OR2(f, P(f, "p1"), P(f, "q1")), OR2(f, P(f, "p2"), P(f, "q2"))), V(f, "z")};
    const struct dnode *d = dtree_build(&f->m, f->root, p, 2);
    assert_non_null(d);
    size_t states = f->m.states; /* the budget's count, over the context */
    assert_true(states > 0);
    assert_ptr_equal(d, dtree_build(&f->m, f->root, p, 2));
    assert_int_equal(f->m.states, states); /* the same states again */
    assert_int_equal(d->kind, DN_TEST);
    assert_int_equal(d->els->kind, DN_TEST);
    assert_ptr_equal(d->then, d->els->then); /* after p1, and after q1 */
    assert_int_equal(d->then->kind, DN_TEST);
    assert_ptr_equal(d->then->els->els, d->els->els); /* the z clause, once */
    assert_int_equal(f->m.hits, 0);
    arena_free(f->a);
}

/* (and (app f0 v0) ... (app f69 v69)): a chain of 70 bindings over a
 * leaf reading them all.  Below the binding of the i-th temporary the
 * code reads the i before it, in id order, past the first word of the
 * sets too. */
static void free_sets_of_many_temporaries(void **state)
{
    (void)state;
    enum { K = 70 };
    struct match_fx *f = match_fx_new(true);
    const struct pat *apps[K];
    for (int i = 0; i < K; i++) {
        char fun[16], var[16];
        snprintf(fun, sizeof fun, "f%d", i);
        snprintf(var, sizeof var, "v%d", i);
        apps[i] = A(f, fun, V(f, var));
    }
    const struct pat *p[1] = {pat_and(&f->m, apps, K)};
    const struct dnode *x = dtree_build(&f->m, f->root, p, 1);
    assert_non_null(x);
    const struct subj *bound[K];
    for (int i = 0; i < K; i++, x = x->then) {
        assert_int_equal(x->kind, DN_BIND);
        bound[i] = x->temp;
        assert_int_equal(dtree_free_count(x), i);
        const struct subj *t;
        uint32_t j = 0, k = 0;
        for (; (t = dtree_free_next(&f->m, x, &j)); j++, k++) {
            assert_ptr_equal(t, bound[k]);
            assert_true(dtree_free_has(x, t) && dtree_uses(x, t));
        }
        assert_int_equal(k, i);
        assert_false(dtree_free_has(x, bound[i]));
        assert_true(dtree_free_has(x->then, bound[i]));
    }
    assert_int_equal(x->kind, DN_LEAF);
    assert_int_equal(dtree_free_count(x), K);
    for (int i = 1; i < K; i++)
        assert_true(bound[i - 1]->o.h.id < bound[i]->o.h.id);
    arena_free(f->a);
}

/* A split whose test says nothing about any leaf gives the tree back
 * (no copy made), but still drops what a rebuild drops: a SUCCEED item of
 * an `and`. */
static const struct mtree *unknown_split(struct match_fx *f, const struct mtree *mt)
{
    const struct mtree *t, *e;
    const struct mt_splitter nothing = {nothing_known, NULL, MT_ASK_ALL};
    assert_true(mtree_split(&f->m, mt, f->root, &nothing, &t, &e));
    assert_ptr_equal(t, e);
    return t;
}

static void splits_keep_unknown_trees(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct mtree *a = mtree_make(&f->m, f->root, P(f, "consp"));
    const struct mtree *b = mtree_make(&f->m, f->root, P(f, "f"));
    struct memo_obj *ab[2] = {(struct memo_obj *)a, (struct memo_obj *)b};
    const struct mtree *and = mtree_and(&f->m, memo_list_of(&f->m, ab, 2));
    assert_ptr_equal(unknown_split(f, and), and);
    struct memo_obj *sa[2] = {(struct memo_obj *)mtree_succeed(&f->m), (struct memo_obj *)a};
    const struct mtree *with_succeed = mtree_and(&f->m, memo_list_of(&f->m, sa, 2));
    assert_ptr_equal(unknown_split(f, with_succeed), a);
    arena_free(f->a);
}

/* The code emit_form prints for d over clause bodies b0 and b1 (clause
 * 1 binds z). */
static const char *emitted(struct match_fx *f, const struct dnode *d,
                           const char *b0, const char *b1)
{
    static struct value *zvars[1];
    zvars[0] = rd(f, "z");
    struct emit_clause cl[2] = {{EMIT_BODY, rd(f, b0), false, NULL, 0, NULL},
                                {EMIT_BODY, rd(f, b1), false, zvars, 1, NULL}};
    struct value *form = emit_form(&f->m, d, f->root, NULL, cl, 2, NULL);
    assert_non_null(form);
    struct buf b;
    buf_init(&b, f->a);
    struct print_opts o = print_opts_default();
    print_value(f->L, &b, form, &o);
    return buf_cstr(&b);
}

/* A node reached from two places is copied to each when its code is
 * small (SHARE_MIN_COST), else made once as a block of the dispatch that
 * each place goes to; the emitter's per-node notes of one pass do not
 * leak into the next.  A test below a clause's whose failure goes where
 * the clauses after it go joins the clause's test: (and (q1 x) (p2 x)). */
static void shared_nodes_by_size(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[2] = {AND2(f, OR2(f, P(f, "p1"), P(f, "q1")), P(f, "p2")),
                              V(f, "z")};
    const struct dnode *d = dtree_build(&f->m, f->root, p, 2);
    assert_non_null(d);
    assert_string_equal(emitted(f, d, "((a))", "(z)"),
                        "(cond ((p1 x) (if (p2 x) (a) (let ((z x)) z))) "
                        "((and (q1 x) (p2 x)) (a)) (t (let ((z x)) z)))");
    /* p1's and q1's success reach p2 from two places: the body they
     * reach is copied, or made once when it is large */
    const struct pat *q[2] = {AND2(f, OR2(f, P(f, "p1"), AND2(f, P(f, "r"), P(f, "q1"))),
                                   P(f, "p2")),
                              V(f, "z")};
    d = dtree_build(&f->m, f->root, q, 2);
    assert_non_null(d);
    const char *small = emitted(f, d, "((a))", "(z)");
    assert_null(strstr(small, "goto"));
    char big[512] = "((a";
    for (int i = 0; i < 80; i++)
        strcat(big, " b");
    strcat(big, "))");
    const char *shared = emitted(f, d, big, "(z)");
    assert_non_null(strstr(shared, "(setq goto t)"));
    assert_non_null(strstr(shared, "(if goto (a b b"));
    assert_string_equal(emitted(f, d, big, "(z)"), shared);
    assert_string_equal(emitted(f, d, "((a))", "(z)"), small);
    arena_free(f->a);
}

static void deep_patterns_fail_cleanly(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    f->m.max_depth = 500;
    const struct pat *p = Q(f, "1");
    for (int i = 0; i < 2000; i++)
        p = A(f, "car", p);
    const struct pat *pats[1] = {p};
    assert_null(dtree_build(&f->m, f->root, pats, 1));
    assert_true(f->m.too_deep);
    arena_free(f->a);
}

static void dontcare_keeps_tests(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[2] = {AND2(f, P(f, "consp"), A(f, "car-safe", V(f, "a"))),
                              pat_dontcare(&f->m)};
    const struct dnode *d = dtree_build(&f->m, f->root, p, 2);
    assert_non_null(d);
    assert_int_equal(d->kind, DN_TEST);
    assert_int_equal(d->els->kind, DN_DONTCARE);
    struct value *form = emit_test_form(&f->m, d->test, false);
    assert_non_null(form);
    assert_ptr_equal(value_car(form), intern_cstr(f->L, "consp"));
    arena_free(f->a);
}

static void pattern_dump(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *cons = P(f, "consp");
    const struct pat *three[3] = {cons, A(f, "car-safe", Q(f, "a")),
                                  A(f, "cdr-safe", V(f, "y"))};
    const struct pat *p[2] = {pat_and(&f->m, three, 3), OR2(f, V(f, "x"), G(f, "(g)"))};
    struct buf b;
    buf_init(&b, f->a);
    dump_pat(&f->m, &b, f->root, p, 2);
    assert_string_equal(buf_cstr(&b),
                        "clause 0: (and (pred consp $0) (app car-safe $0 -> $1)"
                        " (quote a $1) (app cdr-safe $0 -> $2) (var y $2))\n"
                        "clause 1: (or (var x $0) (guard (g)))\n");
    arena_free(f->a);
}

/* Own-key objects of the match layer share a table with keyed entries:
 * the kind in the top bits of their hash keeps a probe for one from ever
 * asking about the other, even when the rest of the hash is the same. */
static bool is_cell(const void *obj, const void *arg)
{
    assert_ptr_equal(obj, arg); /* never a keyed entry */
    return true;
}

static void own_key_objects_beside_keyed_entries(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_table t;
    memo_table_init(&t);
    t.first = 4;
    static int obj;
    static struct memo_list cell;
    struct memo_key k = {7, 1, {NULL, NULL, NULL, NULL}};
    uint32_t h = memo_key_hash(&k);
    uint32_t hk = h | (uint32_t)MEMO_KIND_LIST << (32 - MEMO_KIND_BITS);
    assert_int_equal(h >> (32 - MEMO_KIND_BITS), 0);
    assert_int_equal(memo_kind_hash(MEMO_KIND_LIST, 0) >> (32 - MEMO_KIND_BITS),
                     MEMO_KIND_LIST);
    size_t hole;
    assert_null(memo_probe_obj(&t, hk, is_cell, &cell, &hole));
    memo_insert(&f->m, &t, &k, h, &obj);
    assert_null(memo_probe_obj(&t, hk, is_cell, &cell, &hole));
    memo_add_obj(&f->m, &t, hk, &cell, hole);
    assert_ptr_equal(memo_probe_obj(&t, hk, is_cell, &cell, &hole), &cell);
    assert_ptr_equal(memo_find(&t, &k, h), &obj);
    assert_int_equal(t.n, 2);
    arena_free(f->a);
}

/* A keyed entry's hash may be 0, the mark of an empty slot: it is
 * stored as 1, beside an entry whose hash is 1, and both are found. */
static void keyed_entry_with_hash_zero(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_table t = {0};
    t.first = 4;
    static int objs[3];
    struct memo_key k0 = {7, 0, {NULL, NULL, NULL, NULL}};
    struct memo_key k1 = {7, 1, {NULL, NULL, NULL, NULL}};
    memo_insert(&f->m, &t, &k0, 0, &objs[0]);
    memo_insert(&f->m, &t, &k1, 1, &objs[1]);
    for (uint32_t i = 2; i < 40; i++) { /* grow: rehash both */
        struct memo_key k = {8, i, {NULL, NULL, NULL, NULL}};
        memo_insert(&f->m, &t, &k, memo_key_hash(&k), &objs[2]);
    }
    assert_ptr_equal(memo_find(&t, &k0, 0), &objs[0]);
    assert_ptr_equal(memo_find(&t, &k1, 1), &objs[1]);
    arena_free(f->a);
}

/* After a membership test, a constant of the set is unknown on success
 * and fails on failure; any other constant fails on success.  `equal'
 * decides: strings by contents (and length), 1 and 1.0 differ, symbols by identity. */
static void membership_knowledge(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_ctx *m = &f->m;
    const struct pat *set = pat_member(m, rd(f, "member"), rd(f, "(\"a\" 1 b)"));
    const char *in[] = {"\"a\"", "1", "b"},
               *out[] = {"\"c\"", "\"ab\"", "\"\"", "1.0", "c", "2"};
    for (size_t i = 0; i < 3; i++) {
        struct mt_split r = know_after_pred(m, set, Q(f, in[i]), NULL);
        assert_int_equal(r.then_k, MT_UNKNOWN);
        assert_int_equal(r.else_k, MT_KNOWN_FAIL);
    }
    for (size_t i = 0; i < 6; i++) {
        struct mt_split r = know_after_pred(m, set, Q(f, out[i]), NULL);
        assert_int_equal(r.then_k, MT_KNOWN_FAIL);
        assert_int_equal(r.else_k, MT_UNKNOWN);
    }
    arena_free(f->a);
}

/* A splitter that counts the leaves it is asked about. */
static struct mt_split count_asked(void *arg, const struct pat *leaf)
{
    (void)leaf;
    ++*(int *)arg;
    return (struct mt_split){MT_UNKNOWN, MT_UNKNOWN};
}

/* A split asks about the leaves that are tests only, unless told to ask
 * about all, or told the depth guard decides and it is at its limit. */
static void splits_ask_about_tests(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *three[3] = {P(f, "p"), A(f, "car", V(f, "x")), Q(f, "a")};
    const struct mtree *mt = mtree_make(&f->m, f->root, pat_and(&f->m, three, 3));
    const struct mtree *t, *e;
    int n = 0;
    struct mt_splitter sp = {count_asked, &n, MT_ASK_TESTS};
    assert_true(mtree_split(&f->m, mt, f->root, &sp, &t, &e));
    assert_int_equal(n, 2);
    sp.which = MT_ASK_GUARDED;
    assert_true(mtree_split(&f->m, mt, f->root, &sp, &t, &e));
    assert_int_equal(n, 4);
    sp.which = MT_ASK_ALL;
    assert_true(mtree_split(&f->m, mt, f->root, &sp, &t, &e));
    assert_int_equal(n, 7);
    sp.which = MT_ASK_GUARDED;
    f->m.max_depth = 1; /* the and enters the one level: the leaves are at the limit */
    assert_true(mtree_split(&f->m, mt, f->root, &sp, &t, &e));
    assert_int_equal(n, 10);
    arena_free(f->a);
}

/* Lists long enough to need new arena pages and several doublings of the
 * unique table on the way are still hash-consed: built again, they are
 * the same cells, with the right elements and lengths. */
static void long_lists_stay_hash_consed(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_ctx *m = &f->m;
    struct memo_obj *three[3] = {(struct memo_obj *)P(f, "p"), (struct memo_obj *)V(f, "x"),
                                 (struct memo_obj *)Q(f, "a")};
    enum { N = 3000 };
    struct memo_obj **items = ARENA_NEWN(f->a, struct memo_obj *, N);
    for (size_t i = 0; i < N; i++)
        items[i] = three[i * 7 % 3];
    size_t cap0 = m->unique.cap;
    struct memo_list *l = memo_list_of(m, items, N);
    assert_true(m->unique.cap >= cap0 * 8);
    assert_ptr_equal(memo_list_of(m, items, N), l);
    assert_ptr_equal(memo_cons(m, items[0], l->cdr), l);
    size_t i = 0;
    for (const struct memo_list *c = l; c; c = c->cdr, i++) {
        assert_ptr_equal(c->car, items[i]);
        assert_int_equal(c->len, N - i);
    }
    assert_int_equal(i, N);
    struct memo_list *twice = memo_append(m, l, l);
    assert_int_equal(twice->len, 2 * N);
    assert_ptr_equal(memo_nth(twice, N + 1), items[1]);
    assert_ptr_equal(memo_reverse(m, memo_reverse(m, twice)), twice);
    arena_free(f->a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constants_dispatch),
        cmocka_unit_test(identical_guards_merge),
        cmocka_unit_test(guards_with_variables_do_not_merge),
        cmocka_unit_test(exclusion_matches_emacs),
        cmocka_unit_test(exclusion_table),
        cmocka_unit_test(not_swaps_outcomes),
        cmocka_unit_test(or_of_constants),
        cmocka_unit_test(app_sharing_and_skipping),
        cmocka_unit_test(fold_calls),
        cmocka_unit_test(app_refines_later_constants),
        cmocka_unit_test(remaining_branches_are_rebuilt),
        cmocka_unit_test(ignored_failures_keep_alternatives),
        cmocka_unit_test(leaves_sort_their_bindings),
        cmocka_unit_test(app_generations),
        cmocka_unit_test(repeated_variable_is_eql),
        cmocka_unit_test(and_of_ors_is_linear),
        cmocka_unit_test(cache_changes_nothing),
        cmocka_unit_test(nodes_are_hash_consed),
        cmocka_unit_test(free_sets_of_many_temporaries),
        cmocka_unit_test(shared_nodes_by_size),
        cmocka_unit_test(splits_keep_unknown_trees),
        cmocka_unit_test(deep_patterns_fail_cleanly),
        cmocka_unit_test(dontcare_keeps_tests),
        cmocka_unit_test(pattern_dump),
        cmocka_unit_test(own_key_objects_beside_keyed_entries),
        cmocka_unit_test(keyed_entry_with_hash_zero),
        cmocka_unit_test(membership_knowledge),
        cmocka_unit_test(splits_ask_about_tests),
        cmocka_unit_test(long_lists_stay_hash_consed),
    };
    return SUPPORT_RUN(tests);
}
