/* test_witness.c - which values reach a place of a decision DAG.
 *
 * match/witness on DAGs of IR patterns made directly, through its text
 * dump (witness_dump): a value for every clause a value reaches and for
 * the places no clause matches, each checked by running the DAG; "no
 * value" for clauses every way to which contradicts itself (a catch-all
 * before, constants of a type already excluded, a pred implied by an
 * earlier one, an or of the same constants, car and car-safe of a cons
 * being one value, lengths); "unknown" with the forms that decide, for
 * functions and guards; a constant subject; the search bound; the
 * predicate table.
 */
#include "support.h"
#include "match_fixture.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "match/witness.h"

static struct value *rd(struct match_fx *f, const char *text)
{
    return match_fx_read(f, text);
}

#define Q match_fx_quote
#define P match_fx_pred
#define V match_fx_var
#define A match_fx_app
#define AND2 match_fx_and2
#define OR2 match_fx_or2

static const char *dump(struct match_fx *f, const struct pat *const *pats, size_t n)
{
    const struct dnode *d = dtree_build(&f->m, f->root, pats, n);
    assert_non_null(d);
    struct buf b;
    buf_init(&b, f->a);
    witness_dump(&f->m, &b, d, f->root, n);
    return buf_cstr(&b);
}

static void types_and_constants(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    /* "foo" after stringp; 42 after integerp; nil after symbolp */
    const struct pat *p[4] = {P(f, "stringp"), Q(f, "\"foo\""), P(f, "integerp"), Q(f, "42")};
    assert_string_equal(dump(f, p, 4),
                        "clause 0: \"\"\n"
                        "clause 1: no value\n"
                        "clause 2: 0\n"
                        "clause 3: no value\n"
                        "no match: foo\n");
    const struct pat *q[3] = {P(f, "symbolp"), P(f, "null"), P(f, "consp")};
    assert_string_equal(dump(f, q, 3),
                        "clause 0: foo\n"
                        "clause 1: no value\n"
                        "clause 2: (nil)\n"
                        "no match: 0\n");
    arena_free(f->a);
}

static void implied_preds(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[3] = {P(f, "numberp"), P(f, "integerp"), P(f, "natnump")};
    assert_string_equal(dump(f, p, 3),
                        "clause 0: 0\n"
                        "clause 1: no value\n"
                        "clause 2: no value\n"
                        "no match: foo\n");
    /* natnump first: integerp still takes the negative ones */
    const struct pat *q[2] = {P(f, "natnump"), P(f, "integerp")};
    assert_string_equal(dump(f, q, 2),
                        "clause 0: 0\n"
                        "clause 1: -1\n"
                        "no match: foo\n");
    /* an or of preds including it */
    const struct pat *r[2] = {OR2(f, P(f, "stringp"), P(f, "symbolp")), P(f, "stringp")};
    assert_string_equal(dump(f, r, 2),
                        "clause 0: \"\"\n"
                        "clause 1: no value\n"
                        "no match: 0\n");
    /* atom and consp cover every value */
    const struct pat *s[3] = {P(f, "atom"), P(f, "consp"), pat_any(&f->m)};
    assert_string_equal(dump(f, s, 3),
                        "clause 0: foo\n"
                        "clause 1: (nil)\n"
                        "clause 2: no value\n"
                        "no match: no value\n");
    arena_free(f->a);
}

static void or_of_constants(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[3] = {OR2(f, Q(f, "a"), Q(f, "b")), Q(f, "a"), Q(f, "c")};
    assert_string_equal(dump(f, p, 3),
                        "clause 0: b\n"
                        "clause 1: no value\n"
                        "clause 2: c\n"
                        "no match: foo\n");
    arena_free(f->a);
}

static void structure(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    /* (and (pred consp) (app car 'a)) then (app car-safe 'a) under consp */
    const struct pat *c0 = AND2(f, P(f, "consp"), A(f, "car", Q(f, "a")));
    const struct pat *c1 = AND2(f, P(f, "consp"), A(f, "car-safe", Q(f, "a")));
    const struct pat *c2 = AND2(f, P(f, "consp"), A(f, "cdr-safe", AND2(f, P(f, "consp"),
                                                                       A(f, "car-safe", V(f, "y")))));
    const struct pat *p[3] = {c0, c1, c2};
    assert_string_equal(dump(f, p, 3),
                        "clause 0: (a)\n"
                        "clause 1: no value\n"
                        "clause 2: (foo foo)\n"
                        "no match: (foo . foo)\n");
    /* a vector of length 2; one of another length with b at 1 */
    const struct pat *v = AND2(f, P(f, "vectorp"), A(f, "length", Q(f, "2")));
    const struct pat *q[2] = {v, AND2(f, P(f, "vectorp"), A(f, "(aref _ 1)", Q(f, "b")))};
    assert_string_equal(dump(f, q, 2),
                        "clause 0: [nil nil]\n"
                        "clause 1: [nil b nil]\n"
                        "no match: [nil foo nil]\n");
    arena_free(f->a);
}

static void unknown_functions(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[2] = {P(f, "valid-p"), P(f, "stringp")};
    assert_string_equal(dump(f, p, 2),
                        "clause 0: unknown: (valid-p x)\n"
                        "clause 1: unknown: (valid-p x)\n"
                        "no match: unknown: (valid-p x)\n");
    /* a pred of a function that is not known does not hide a type
     * exclusion after it */
    const struct pat *q[3] = {P(f, "valid-p"), P(f, "stringp"), Q(f, "\"s\"")};
    assert_string_equal(dump(f, q, 3),
                        "clause 0: unknown: (valid-p x)\n"
                        "clause 1: unknown: (valid-p x)\n"
                        "clause 2: no value\n"
                        "no match: unknown: (valid-p x)\n");
    /* a guard is never evaluated: every way past it is unknown */
    const struct pat *r[2] = {pat_guard(&f->m, rd(f, "(ready)")), P(f, "symbolp")};
    assert_string_equal(dump(f, r, 2),
                        "clause 0: unknown: (ready)\n"
                        "clause 1: unknown: (ready)\n"
                        "no match: unknown: (ready)\n");
    arena_free(f->a);
}

static void reach_all(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[4] = {P(f, "stringp"), Q(f, "\"foo\""), P(f, "valid-p"), Q(f, "a")};
    const struct dnode *d = dtree_build(&f->m, f->root, p, 4);
    bool reached[4], all[4] = {true, true, true, true};
    assert_true(witness_reach(&f->m, d, f->root, all, reached, 4));
    assert_true(reached[0]);
    assert_false(reached[1]);
    assert_true(reached[2]);
    assert_true(reached[3]);
    /* only the wanted clauses are answered: the search stops once they
     * are reached, and says nothing of the others */
    bool last[4] = {false, false, false, true};
    assert_true(witness_reach(&f->m, d, f->root, last, reached, 4));
    assert_false(reached[0]);
    assert_false(reached[2]);
    assert_true(reached[3]);
    /* an unreachable wanted clause is told from one the search missed */
    bool second[4] = {false, true, false, false};
    assert_true(witness_reach(&f->m, d, f->root, second, reached, 4));
    assert_false(reached[1]);
    arena_free(f->a);
}

/* An `and' of 16 `or's has 2^16 ways to its leaf, more than the search's
 * bound: a search of every way stops at the bound, while the search for
 * the wanted clauses ends at the first way to each. */
static void reach_past_the_bound(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *alts[16];
    char p[8], q[8];
    for (int i = 0; i < 16; i++) {
        snprintf(p, sizeof p, "p%d", i);
        snprintf(q, sizeof q, "q%d", i);
        const struct pat *or2[2] = {P(f, p), P(f, q)};
        alts[i] = pat_or(&f->m, or2, 2);
    }
    const struct pat *c[2] = {pat_and(&f->m, alts, 16), pat_any(&f->m)};
    const struct dnode *d = dtree_build(&f->m, f->root, c, 2);
    assert_non_null(d);
    bool reached[2], want[2] = {true, true};
    assert_true(witness_reach(&f->m, d, f->root, want, reached, 2));
    assert_true(reached[0]);
    assert_true(reached[1]);
    struct witness_result r; /* a clause with no leaf: every way is tried */
    witness_find(&f->m, d, f->root, 5, false, &r);
    assert_true(r.budget);
    arena_free(f->a);
}

/* What a search with a scratch arena for its facts leaves in the run's
 * arena (once per pcase form) is little for a small DAG: a stack of 256
 * frames taken there from the start was 10 KiB a form, half the memory
 * of a file of small pcase forms. */
static void a_small_search_keeps_little(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    const struct pat *p[4] = {P(f, "stringp"), Q(f, "\"foo\""), P(f, "valid-p"), Q(f, "a")};
    const struct dnode *d = dtree_build(&f->m, f->root, p, 4);
    struct arena *scratch = arena_new(NULL);
    assert_non_null(scratch);
    f->m.a = scratch; /* the facts go there, as in pcase_compile */
    bool reached[4], all[4] = {true, true, true, true};
    assert_true(witness_reach(&f->m, d, f->root, all, reached, 4)); /* symbols interned */
    size_t before = support_arena_used(f->m.L->a);
    assert_true(witness_reach(&f->m, d, f->root, all, reached, 4));
    size_t kept = support_arena_used(f->m.L->a) - before;
    assert_true(kept < 4096); /* 1,632; 11,568 with that stack */
    assert_true(reached[0] && !reached[1] && reached[2] && reached[3]);
    f->m.a = f->a;
    arena_free(scratch);
    arena_free(f->a);
}

static void table_sorted(void **state)
{
    (void)state;
    assert_int_equal(witness_check_table(), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(types_and_constants),
        cmocka_unit_test(implied_preds),
        cmocka_unit_test(or_of_constants),
        cmocka_unit_test(structure),
        cmocka_unit_test(unknown_functions),
        cmocka_unit_test(reach_all),
        cmocka_unit_test(reach_past_the_bound),
        cmocka_unit_test(a_small_search_keeps_little),
        cmocka_unit_test(table_sorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
