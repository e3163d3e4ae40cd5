/* test_pat.c - the pattern IR (match/pat) and its context (match/memo).
 *
 * Hash-consing: equal patterns are one pointer, Lisp values inside them are
 * compared with Emacs's `equal` (1 and 1.0 differ, text properties do
 * not count); the value hash agrees with value_equal; the symbol scan
 * (Emacs's fgrep) finds symbols in lists and vectors, never in strings,
 * and survives deep input; the predicate table is sorted.
 */
#include "support.h"
#include "match_fixture.h"

#include <string.h>

#include "match/pat.h"
#include "syntax/read.h"

static struct value *rd(struct match_fx *f, const char *text)
{
    return match_fx_read(f, text);
}

static void equal_values_share_patterns(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_ctx *m = &f->m;
    assert_ptr_equal(pat_quote(m, rd(f, "1")), pat_quote(m, rd(f, "1")));
    assert_ptr_not_equal(pat_quote(m, rd(f, "1")), pat_quote(m, rd(f, "1.0")));
    assert_ptr_equal(pat_quote(m, rd(f, "(a \"b\" [1 2])")),
                     pat_quote(m, rd(f, "(a \"b\" [1 2])")));
    assert_ptr_equal(pat_quote(m, rd(f, "\"abc\"")),
                     pat_quote(m, rd(f, "#(\"abc\" 0 1 (face bold))")));
    assert_ptr_not_equal(pat_quote(m, rd(f, "0.0")), pat_quote(m, rd(f, "-0.0")));
    assert_ptr_equal(pat_pred(m, rd(f, "(> 3)")), pat_pred(m, rd(f, "(> 3)")));
    assert_ptr_not_equal(pat_pred(m, rd(f, "(> 3)")), pat_guard(m, rd(f, "(> 3)")));
    assert_ptr_equal(pat_var(m, rd(f, "x")), pat_var(m, rd(f, "x")));
    /* symbols are `equal' when they are one symbol: an uninterned x is
     * not the interned one, and its hash is its own */
    struct value *u1 = intern_uninterned(f->L, "x", 1), *u2 = intern_uninterned(f->L, "x", 1);
    assert_ptr_not_equal(pat_val(m, u1), pat_val(m, rd(f, "x")));
    assert_ptr_not_equal(pat_val(m, u1), pat_val(m, u2));
    assert_ptr_equal(pat_val(m, u1), pat_val(m, u1));
    assert_ptr_equal(pat_val(m, rd(f, "x"))->v, rd(f, "x"));
    /* a symbol's wrapper is found without the value walk: same hash */
    assert_int_equal(pat_val(m, rd(f, "x"))->o.h.hash, pat_value_hash(rd(f, "x")));
    assert_int_equal(pat_val(m, u1)->o.h.hash, pat_value_hash(u1));
    arena_free(f->a);
}

static void compound_patterns_share(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_ctx *m = &f->m;
    const struct pat *a[2] = {pat_var(m, rd(f, "x")), pat_quote(m, rd(f, "1"))};
    const struct pat *b[2] = {pat_var(m, rd(f, "x")), pat_quote(m, rd(f, "1"))};
    const struct pat *and1 = pat_and(m, a, 2), *and2 = pat_and(m, b, 2);
    assert_ptr_equal(and1, and2);
    assert_ptr_not_equal(and1, pat_or(m, a, 2));
    assert_int_equal(and1->items->len, 2);
    assert_ptr_equal(pat_app(m, rd(f, "car"), and1), pat_app(m, rd(f, "car"), and2));
    assert_ptr_not_equal(pat_app(m, rd(f, "car"), and1), pat_app(m, rd(f, "cdr"), and1));
    assert_ptr_equal(pat_app_val(m, pat_val(m, rd(f, "car")), and1),
                     pat_app(m, rd(f, "car"), and1));
    assert_ptr_not_equal(pat_app_val(m, pat_val(m, rd(f, "car")), and1),
                         pat_app(m, rd(f, "car"), pat_any(m)));
    assert_ptr_equal(pat_and(m, NULL, 0), pat_and(m, NULL, 0));
    assert_ptr_equal(pat_bad(m, rd(f, "1.0"), PAT_BAD_UNKNOWN),
                     pat_bad(m, rd(f, "1.0"), PAT_BAD_UNKNOWN));
    assert_ptr_not_equal(pat_bad(m, rd(f, "1.0"), PAT_BAD_UNKNOWN),
                         pat_quote(m, rd(f, "1.0")));
    /* no padding between the fields: the int fields are together */
    assert_int_equal(sizeof(struct pat),
                     sizeof(struct memo_obj) + 2 * sizeof(int) + 4 * sizeof(void *));
    const struct pat *one[1] = {pat_var(m, rd(f, "x"))};
    assert_int_equal(pat_or(m, one, 1)->items->len, 1); /* kept for its error */
    assert_ptr_not_equal(pat_any(m), pat_dontcare(m));
    const struct pat *mem = pat_member(m, rd(f, "memq"), rd(f, "(a b)"));
    assert_ptr_equal(mem, pat_member(m, rd(f, "memq"), rd(f, "(a b)")));
    assert_ptr_not_equal(mem, pat_member(m, rd(f, "memql"), rd(f, "(a b)")));
    arena_free(f->a);
}

/* A value whose hash is 0, the mark of an empty slot, is still found
 * again (its wrapper is stored under another slot hash), and the pattern
 * made from it is shared. */
static void zero_hash_value_found_again(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_ctx *m = &f->m;
    struct value *a = value_int(f->L->a, -533336354), *b = value_int(f->L->a, -533336354);
    assert_int_equal(pat_value_hash(a), 0);
    assert_ptr_equal(pat_val(m, a), pat_val(m, b));
    assert_int_equal(pat_val(m, a)->o.h.hash, 0);
    assert_ptr_equal(pat_quote(m, a), pat_quote(m, b));
    arena_free(f->a);
}

static void hash_agrees_with_equal(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    static const char *const pairs[][2] = {
        {"(1 2 (3 [4 5]) \"x\")", "(1 2 (3 [4 5]) \"x\")"},
        {"#s(r 1 2)", "#s(r 1 2)"},
        {"1180591620717411303424", "1180591620717411303424"},
        {"\"abc\"", "#(\"abc\" 0 3 (face bold))"},
        {"(a . b)", "(a . b)"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct value *x = rd(f, pairs[i][0]), *y = rd(f, pairs[i][1]);
        assert_true(value_equal(x, y));
        assert_int_equal(pat_value_hash(x), pat_value_hash(y));
    }
    /* lists longer than the hash budget: equal heads, different tails */
    struct value *l1 = f->L->nil, *l2 = f->L->nil;
    for (int i = 0; i < 500; i++) {
        l1 = value_cons(f->a, value_int(f->a, i), l1);
        l2 = value_cons(f->a, value_int(f->a, i == 0 ? -1 : i), l2);
    }
    assert_false(value_equal(l1, l2));
    assert_ptr_not_equal(pat_val(&f->m, l1), pat_val(&f->m, l2));
    arena_free(f->a);
}

static void mentions_like_fgrep(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct value *syms[3] = {rd(f, "a"), rd(f, "b"), rd(f, "c")};
    bool found[3];
    struct value *form = rd(f, "(foo [x (b)] \"a c\" . c)");
    assert_int_equal(pat_mentions(&f->m, form, syms, 3, found), 2);
    assert_false(found[0]);
    assert_true(found[1]);
    assert_true(found[2]);
    assert_int_equal(pat_mentions(&f->m, rd(f, "(x y)"), syms, 3, NULL), 0);
    assert_int_equal(pat_mentions(&f->m, rd(f, "a"), syms, 3, NULL), 1);
    /* a deeply nested form: the scan is iterative */
    struct value *deep = syms[1];
    for (int i = 0; i < 100000; i++)
        deep = value_cons(f->a, deep, f->L->nil);
    assert_int_equal(pat_mentions(&f->m, deep, syms, 3, found), 1);
    assert_true(found[1]);
    /* deep in the cdrs of nested lists: more pending forms than the walk's
     * first stack holds */
    struct value *wide = f->L->nil;
    for (int i = 0; i < 1000; i++)
        wide = value_cons(f->a, value_cons(f->a, rd(f, "x"), f->L->nil), wide);
    wide = value_cons(f->a, value_cons(f->a, syms[2], f->L->nil), wide);
    assert_int_equal(pat_mentions(&f->m, wide, syms, 3, found), 1);
    assert_true(found[2]);
    assert_int_equal(pat_mentions(&f->m, rd(f, "[[] [[[a]]] ()]"), syms, 3, NULL), 1);
    assert_int_equal(pat_mentions(&f->m, rd(f, "(x . [(y . b)])"), syms, 3, NULL), 1);
    arena_free(f->a);
}

/* Symbols that share a bit of the walk's quick filter with the ones looked
 * for (creation numbers 64 apart) are still told apart. */
static void mentions_filter_collisions(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct value *want = intern_uninterned(f->L, "w", 1), *other = NULL;
    for (int i = 0; i < 200 && !other; i++) {
        struct value *s = intern_uninterned(f->L, "o", 1);
        if (s->u.sym.id % 64 == want->u.sym.id % 64)
            other = s;
    }
    assert_non_null(other);
    struct value *form = value_cons(f->a, other, value_cons(f->a, other, f->L->nil));
    bool found[1];
    assert_int_equal(pat_mentions(&f->m, form, &want, 1, found), 0);
    assert_false(found[0]);
    form = value_cons(f->a, other, value_cons(f->a, want, f->L->nil));
    assert_int_equal(pat_mentions(&f->m, form, &want, 1, NULL), 1);
    arena_free(f->a);
}

/* A constant that contains itself ('#1=(a . #1#), or through a car):
 * the walk ends, and every symbol counts as mentioned (binding and
 * warning as if each were read). */
static void mentions_of_a_circular_constant(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct value *want = intern_uninterned(f->L, "w", 1), *a = intern_cstr(f->L, "a");
    struct value *loop = value_cons(f->a, a, f->L->nil);
    loop->u.cons.cdr = loop; /* #1=(a . #1#) */
    struct value *form = lisp_listv(f->L, f->L->quote, loop, NULL);
    bool found[1] = {false};
    assert_int_equal(pat_mentions(&f->m, form, &want, 1, found), 1);
    assert_true(found[0]);
    struct value *inner = value_cons(f->a, a, f->L->nil);
    inner->u.cons.car = inner; /* #1=(#1#) */
    found[0] = false;
    assert_int_equal(pat_mentions(&f->m, inner, &want, 1, found), 1);
    assert_true(found[0]);
    /* a finite constant is walked as before: not mentioned */
    assert_int_equal(pat_mentions(&f->m, rd(f, "'(a b (c d) [e f])"), &want, 1, NULL), 0);
    arena_free(f->a);
}

static void pure_predicates(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    assert_int_equal(pat_check_table(), -1);
    assert_true(pat_pure_pred(rd(f, "consp")));
    assert_true(pat_pure_pred(rd(f, "null")));
    assert_false(pat_pure_pred(rd(f, "functionp")));
    assert_false(pat_pure_pred(rd(f, "my-pred")));
    assert_false(pat_pure_pred(rd(f, "(lambda (x) x)")));
    arena_free(f->a);
}

static void memo_lists_and_cache(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_ctx *m = &f->m;
    struct memo_obj *items[3] = {
        (struct memo_obj *)pat_any(m), (struct memo_obj *)pat_var(m, rd(f, "x")),
        (struct memo_obj *)pat_dontcare(m)};
    struct memo_list *l = memo_list_of(m, items, 3);
    assert_ptr_equal(l, memo_list_of(m, items, 3));
    assert_int_equal(l->len, 3);
    assert_ptr_equal(memo_nth(l, 2), items[2]);
    struct memo_list *r = memo_reverse(m, l);
    assert_ptr_equal(memo_nth(r, 0), items[2]);
    assert_ptr_equal(memo_reverse(m, r), l);
    assert_ptr_equal(memo_append(m, l, NULL), l);
    assert_int_equal(memo_append(m, l, r)->len, 6);
    struct memo_key k = {999, 1, {l, NULL, NULL, NULL}};
    uint32_t h = memo_key_hash(&k);
    assert_null(memo_cache_get(m, &k, h));
    memo_cache_put(m, &k, h, l);
    assert_ptr_equal(memo_cache_get(m, &k, h), l);
    assert_int_equal(m->hits, 1);
    assert_int_equal(m->misses, 1);
    m->use_cache = false; /* off: never answers, still counts states */
    assert_null(memo_cache_get(m, &k, h));
    assert_int_equal(m->cache.n, 1);
    arena_free(f->a);
}

/* A table that starts small (first = 8) grows past it like any other:
 * every key stays findable, and it starts with 8 slots, not 64. */
static void small_first_table(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_table t = {0};
    t.first = 8;
    static int objs[100];
    for (uint32_t i = 0; i < 100; i++) {
        struct memo_key k = {7, i, {NULL, NULL, NULL, NULL}};
        memo_insert(&f->m, &t, &k, memo_key_hash(&k), &objs[i]);
        if (i == 0)
            assert_int_equal(t.cap, 8);
    }
    for (uint32_t i = 0; i < 100; i++) {
        struct memo_key k = {7, i, {NULL, NULL, NULL, NULL}};
        assert_ptr_equal(memo_find(&t, &k, memo_key_hash(&k)), &objs[i]);
    }
    struct memo_key k = {7, 100, {NULL, NULL, NULL, NULL}};
    assert_null(memo_find(&t, &k, memo_key_hash(&k)));
    assert_int_equal(t.n, 100);
    assert_int_equal(t.cap, 256); /* at most half full */
    arena_free(f->a);
}

/* The entry of key k in t, found through the slots. */
static const struct memo_entry *entry_of_key(const struct memo_table *t,
                                             const struct memo_key *k)
{
    uint32_t h = memo_slot_hash(memo_key_hash(k));
    for (size_t j = 0; j < t->cap; j++)
        if (t->hashes[j] == h && memo_entry_at(t, j)->key.small == k->small)
            return memo_entry_at(t, j);
    return NULL;
}

/* Growing a table never moves an entry: the first one is where it was
 * after a thousand more inserts. */
static void entries_stay_in_place(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_table t = {0};
    t.first = 4;
    static int objs[1000];
    struct memo_key k0 = {7, 0, {NULL, NULL, NULL, NULL}};
    memo_insert(&f->m, &t, &k0, memo_key_hash(&k0), &objs[0]);
    const struct memo_entry *e0 = entry_of_key(&t, &k0);
    assert_non_null(e0);
    for (uint32_t i = 1; i < 1000; i++) {
        struct memo_key k = {7, i, {NULL, NULL, NULL, NULL}};
        size_t hole;
        assert_null(memo_lookup(&t, &k, memo_key_hash(&k), &hole));
        memo_add(&f->m, &t, &k, memo_key_hash(&k), &objs[i], hole);
    }
    assert_true(t.cap >= 2048); /* grown many times */
    assert_ptr_equal(entry_of_key(&t, &k0), e0);
    assert_ptr_equal(e0->obj, &objs[0]);
    for (uint32_t i = 0; i < 1000; i++) {
        struct memo_key k = {7, i, {NULL, NULL, NULL, NULL}};
        assert_ptr_equal(memo_find(&t, &k, memo_key_hash(&k)), &objs[i]);
    }
    arena_free(f->a);
}

/* A table with room made for 1000 entries takes them without growing its
 * slots, and what it held before stays findable. */
static void reserved_table(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_table t = {0};
    t.first = 8;
    static int objs[1000];
    for (uint32_t i = 0; i < 1000; i++) {
        struct memo_key k = {7, i, {NULL, NULL, NULL, NULL}};
        if (i == 3) {
            memo_reserve(&f->m, &t, 1000);
            assert_int_equal(t.cap, 2048);
        }
        const uint32_t *hashes = t.hashes;
        memo_insert(&f->m, &t, &k, memo_key_hash(&k), &objs[i]);
        if (i > 3)
            assert_ptr_equal(t.hashes, hashes);
    }
    for (uint32_t i = 0; i < 1000; i++) {
        struct memo_key k = {7, i, {NULL, NULL, NULL, NULL}};
        assert_ptr_equal(memo_find(&t, &k, memo_key_hash(&k)), &objs[i]);
    }
    memo_reserve(&f->m, &t, 10); /* never shrinks */
    assert_int_equal(t.cap, 2048);
    arena_free(f->a);
}

/* An own-key object of ours: its kind hash and a number. */
struct num_obj {
    struct memo_obj o;
    uint32_t n;
};

static bool same_num(const void *obj, const void *arg)
{
    return ((const struct num_obj *)obj)->n == *(const uint32_t *)arg;
}

/* memo_obj_new's objects, made across table doublings and arena pages
 * (its slow path), are each found again, distinct and intact. */
static void own_key_objects_grow(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    struct memo_table t;
    memo_table_init(&t);
    t.first = 4;
    struct num_obj *made[3000];
    for (uint32_t i = 0; i < 3000; i++) {
        uint32_t h = memo_obj_hash(MEMO_KIND_STATE, i % 7, NULL, NULL, NULL, NULL);
        size_t hole;
        assert_null(memo_probe_obj(&t, h, same_num, &i, &hole));
        if (t.n == t.max) /* full (or no slots yet): only the slow path grows it */
            assert_null(memo_obj_quick(&f->m, &t, sizeof(struct num_obj)));
        struct num_obj *o = memo_obj_new(&f->m, &t, h, sizeof *o, &hole);
        *o = (struct num_obj){.o.h = {i, h}, .n = i};
        memo_put_obj(&t, h, o, hole);
        made[i] = o;
    }
    assert_int_equal(t.n, 3000);
    assert_true(t.cap >= 6000);
    for (uint32_t i = 0; i < 3000; i++) {
        uint32_t h = memo_obj_hash(MEMO_KIND_STATE, i % 7, NULL, NULL, NULL, NULL);
        size_t hole;
        assert_ptr_equal(memo_probe_obj(&t, h, same_num, &i, &hole), made[i]);
        assert_int_equal(made[i]->n, i);
    }
    arena_free(f->a);
}

static void depth_guard(void **state)
{
    (void)state;
    struct match_fx *f = match_fx_new(true);
    f->m.max_depth = 3;
    assert_true(memo_enter(&f->m));
    assert_true(memo_enter(&f->m));
    assert_true(memo_enter(&f->m));
    assert_false(memo_enter(&f->m));
    assert_true(f->m.too_deep);
    memo_leave(&f->m);
    assert_int_equal(f->m.depth, 2);
    arena_free(f->a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_values_share_patterns),
        cmocka_unit_test(compound_patterns_share),
        cmocka_unit_test(zero_hash_value_found_again),
        cmocka_unit_test(hash_agrees_with_equal),
        cmocka_unit_test(mentions_like_fgrep),
        cmocka_unit_test(mentions_filter_collisions),
        cmocka_unit_test(mentions_of_a_circular_constant),
        cmocka_unit_test(pure_predicates),
        cmocka_unit_test(memo_lists_and_cache),
        cmocka_unit_test(small_first_table),
        cmocka_unit_test(entries_stay_in_place),
        cmocka_unit_test(reserved_table),
        cmocka_unit_test(own_key_objects_grow),
        cmocka_unit_test(depth_guard),
    };
    return SUPPORT_RUN(tests);
}
