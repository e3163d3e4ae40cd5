/* test_clean.c - the clean-up passes (match/clean), one by one.
 *
 * Each case is generated code written as text: a symbol $NAME is a
 * temporary (printed NAME), (@user FORM) is FORM marked as user code,
 * (@member FORM) a membership test the emitter made.  The code runs
 * through one pass (every other one switched off) and is printed; each
 * pass has cases it rewrites and cases it must leave alone, these being
 * what would change the meaning.  Then the driver: the order of the
 * passes, the switches, the dumps' hook, deep code left as it is.
 */
#include "support.h"
#include "match_fixture.h"

#include <stdio.h>
#include <string.h>

#include "lisp/print.h"
#include "match/clean.h"

long clean_check_heads(void);
long clean_facts_check_table(void);

struct cx {
    struct match_fx *f;
    struct clean_marks *marks;
    struct value *temps[32];
    size_t n_temps;
    unsigned next_temp;
    unsigned made;            /* temporaries made by the passes */
    struct value *user, *member;
};

static struct value *temp(struct cx *c, const char *name, size_t len)
{
    for (size_t i = 0; i < c->n_temps; i++)
        if (c->temps[i]->u.sym.len == len && !memcmp(c->temps[i]->u.sym.name, name, len))
            return c->temps[i];
    struct value *t = intern_uninterned(c->f->L, name, len);
    t->u.sym.temp = ++c->next_temp;
    assert_true(c->n_temps < 32);
    return c->temps[c->n_temps++] = t;
}

/* v with its $temps made temporaries and its (@user X) and (@member X)
 * marked. */
static struct value *prep(struct cx *c, struct value *v)
{
    if (v->kind == VK_SYMBOL && v->u.sym.name[0] == '$')
        return temp(c, v->u.sym.name + 1, v->u.sym.len - 1);
    if (v->kind != VK_CONS)
        return v;
    if (value_car(v) == c->user || value_car(v) == c->member) {
        struct value *x = prep(c, value_car(value_cdr(v)));
        clean_mark(c->marks, x, value_car(v) == c->user ? CLEAN_USER : CLEAN_MEMBER);
        return x;
    }
    struct value *head = NULL, **tail = &head;
    for (; v->kind == VK_CONS; v = value_cdr(v)) {
        *tail = value_cons(c->f->L->a, prep(c, value_car(v)), c->f->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    *tail = v;
    return head;
}

static struct value *gensym(void *ctx, const char *base)
{
    struct cx *c = ctx;
    char name[16];
    snprintf(name, sizeof name, "%s%u", base, ++c->made);
    return temp(c, name, strlen(name));
}

static const char *text_of(struct cx *c, const struct value *v)
{
    struct buf b;
    buf_init(&b, c->f->a);
    struct print_opts o = print_opts_default();
    print_value(c->f->L, &b, v, &o);
    return buf_cstr(&b);
}

static struct cx *cx_new(void)
{
    struct match_fx *f = match_fx_new(true);
    struct cx *c = ARENA_NEW(f->a, struct cx);
    memset(c, 0, sizeof *c);
    c->f = f;
    c->user = intern_cstr(f->L, "@user");
    c->member = intern_cstr(f->L, "@member");
    return c;
}

/* The code text after the passes not switched off in off. */
static const char *run_off(struct cx *c, const char *text, uint32_t off)
{
    c->marks = clean_marks_new(c->f->L->a);
    struct value *form = prep(c, match_fx_read(c->f, text));
    struct clean_hooks h = {gensym, NULL, c, NULL, NULL, NULL, NULL};
    return text_of(c, clean_form(c->f->L, c->marks, &h, form, off));
}

/* The code text after pass p alone. */
static const char *one(struct cx *c, enum clean_pass p, const char *text)
{
    return run_off(c, text, ~(1u << p));
}

#define ONE(pass, in, want) assert_string_equal(one(c, CLEAN_PASS_##pass, in), want)
#define SAME(pass, in) assert_string_equal(one(c, CLEAN_PASS_##pass, in), run_off(c, in, ~0u))

static void tables_are_sorted(void **state)
{
    (void)state;
    assert_int_equal(clean_check_heads(), -1);
    assert_int_equal(clean_facts_check_table(), -1);
    for (int i = 0; i < CLEAN_PASS_COUNT; i++) {
        const char *n = clean_pass_name((enum clean_pass)i);
        assert_int_equal(clean_pass_find(n, strlen(n)), i);
    }
    assert_int_equal(clean_pass_find("inlin", 5), -1);
    assert_null(clean_pass_name(CLEAN_PASS_COUNT));
}

static void pass_ignore(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    /* a test of a temporary does nothing: gone */
    ONE(IGNORE, "(progn (ignore (consp $v)) (@user (f)))", "(f)");
    ONE(IGNORE, "(let (($a (car-safe $v))) (ignore (null $a)) (@user (g)))",
        "(let ((a (car-safe v))) (g))");
    /* car may signal; (ignore VAR) tells the byte compiler a variable is used */
    SAME(IGNORE, "(progn (ignore (car $v)) 1)");
    SAME(IGNORE, "(let ((y $v)) (ignore y) (@user (g y)))");
    /* a variable may be void: its test stays unless what follows reads it first */
    SAME(IGNORE, "(progn (ignore (consp x)) (@user (f)))");
    ONE(IGNORE, "(progn (ignore (consp x)) (let ((a (car-safe x))) a))",
        "(let ((a (car-safe x))) a)");
    /* a pred the user wrote is a call that counts */
    SAME(IGNORE, "(progn (ignore (markerp $v)) 1)");
    arena_free(c->f->a);
}

static void pass_not(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(NOT, "(if (not (f x)) a b)", "(if (f x) b a)");
    SAME(NOT, "(if (not (f x)) a)");
    SAME(NOT, "(if (not (f x)) a b c)");
    SAME(NOT, "(if (@user (not x)) a b)");
    arena_free(c->f->a);
}

static void pass_unused(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    /* nothing reads a, its value cannot fail: not bound; a chain too */
    ONE(UNUSED, "(if (consp x) (let* (($a (car-safe x))) 1))", "(if (consp x) 1)");
    ONE(UNUSED, "(let* (($a (cdr-safe $v)) ($b (cdr-safe $a)) ($c (car-safe $b))) 2)", "2");
    /* car may signal: the call is still made, without a binding */
    ONE(UNUSED, "(let* (($a (car $v))) nil)", "(ignore (car v))");
    /* x may be void, and was not read before */
    ONE(UNUSED, "(let* (($a (car-safe x))) 1)", "(progn (ignore (car-safe x)) 1)");
    /* one in the middle keeps its place, under a name the compiler does not report */
    const char *mid = one(c, CLEAN_PASS_UNUSED, "(let* (($a (f)) ($b (g)) ($c (h))) (list $a $c))");
    assert_non_null(strstr(mid, "(let* ((a (f)) (_"));
    assert_non_null(strstr(mid, " (g)) (c (h))) (list a c))"));
    arena_free(c->f->a);
}

static void pass_inline(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(INLINE, "(if (consp x) (let* (($a (car-safe x))) (let ((k $a)) (@user (f k)))))",
        "(if (consp x) (let ((k (car-safe x))) (f k)))");
    /* a pure value moves into a branch; one that may signal does not */
    ONE(INLINE, "(let* (($a (car-safe $v))) (if (consp $v) $a))", "(if (consp v) (car-safe v))");
    SAME(INLINE, "(let* (($a (car $v))) (if (p) $a))");
    /* op is bound again before $a's reader: $a stays (a let* reads op) */
    SAME(INLINE, "(let* (($a (cdr-safe op))) (let* ((op (car-safe op)) (b (car-safe $a))) "
                 "(@user (list op b))))");
    /* in a let the values see the outer op: it moves */
    ONE(INLINE, "(let* (($a (cdr-safe op))) (let ((op (car-safe op)) (b (car-safe $a))) "
                "(@user (list op b))))",
        "(let ((op (car-safe op)) (b (car-safe (cdr-safe op)))) (list op b))");
    /* calls keep their order: b moves (nothing runs between), a does not
     * (it would run after (g x)); user code between may change what a
     * reads */
    ONE(INLINE, "(let* (($a (f x)) ($b (g x))) (list $b $a))", "(let* ((a (f x))) (list (g x) a))");
    SAME(INLINE, "(let* (($a (car-safe x))) (@user (setcar x 1)) (list $a))");
    SAME(INLINE, "(let* (($a (car-safe x))) (setq x 2) (list $a))");
    /* not into an unknown function (a macro?), a lambda, a loop */
    SAME(INLINE, "(let* (($a (car-safe $v))) (foo $a))");
    SAME(INLINE, "(let* (($a (car-safe $v))) (lambda nil $a))");
    SAME(INLINE, "(let* (($a (car-safe $v))) (dolist (e l) (list e $a)))");
    /* read twice: stays */
    SAME(INLINE, "(let* (($a (car-safe $v))) (list $a $a))");
    /* a chain of renamings: $b's value, $a, moves to y's binding, then
     * $a's value follows it there */
    ONE(INLINE, "(let (($a (car-safe $v))) (let (($b $a)) (let ((y $b)) (@user (f y)))))",
        "(let ((y (car-safe v))) (f y))");
    arena_free(c->f->a);
}

static void pass_funcall(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(FUNCALL, "(funcall #'(lambda (a b) (@user (f a b))) 1 $v)",
        "(let ((a 1) (b v)) (f a b))");
    ONE(FUNCALL, "(funcall (@user (lambda (_) (car y))) $v)", "(car y)");
    /* y read first by the body: its voidness shows there */
    ONE(FUNCALL, "(funcall (@user (lambda (_) (car y))) y)", "(car y)");
    ONE(FUNCALL, "(funcall (@user (lambda (_) (f))) y)", "(let ((_ y)) (f))");
    SAME(FUNCALL, "(funcall #'(lambda (a) a) 1 2)");
    SAME(FUNCALL, "(funcall #'(lambda (&optional a) a) 1)");
    SAME(FUNCALL, "(funcall #'(lambda (a) (interactive) a) 1)");
    arena_free(c->f->a);
}

static void pass_lets(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(LETS, "(let* (($a 1)) (let* (($b $a)) (@user (f $b))))",
        "(let* ((a 1) (b a)) (f b))");
    ONE(LETS, "(let ((a 1) (b 2)) (let ((c 3)) (@user x)))", "(let ((a 1) (b 2) (c 3)) x)");
    ONE(LETS, "(let* ((a 1) (b 2)) (@user x))", "(let ((a 1) (b 2)) x)");
    ONE(LETS, "(let nil (@user (f)) (@user (g)))", "(progn (f) (g))");
    /* the outer list is parallel: b reads the outer a */
    SAME(LETS, "(let ((a 1) (b a)) (let ((c 2)) (@user x)))");
    /* b's value may read a special a: a let stays a let */
    SAME(LETS, "(let ((a 1) (b (f))) (@user x))");
    arena_free(c->f->a);
}

static void pass_nil(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(NIL, "(if c a nil)", "(if c a)");
    ONE(NIL, "(if (consp $v) nil)", "nil");
    ONE(NIL, "(cond (a 1) (t nil))", "(if a 1)");
    ONE(NIL, "(cond (t (f) 1))", "(progn (f) 1)");
    ONE(NIL, "(cond (a 1) (t 2 3))", "(if a 1 2 3)");
    SAME(NIL, "(cond (a 1) (b nil))");     /* b may be void */
    SAME(NIL, "(if (f) nil)");
    arena_free(c->f->a);
}

static void pass_known(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(KNOWN, "(if (consp $v) (if (null $v) 1 2) 3)", "(if (consp v) 2 3)");
    ONE(KNOWN, "(if (integerp $v) (cond ((eq $v 'a) 1) ((stringp $v) 2) (t 3)) 4)",
        "(if (integerp v) 3 4)");
    ONE(KNOWN, "(cond ((consp $v) 1) ((and (equal $v '(a)) (f)) 2) (t 3))",
        "(if (consp v) 1 3)");
    ONE(KNOWN, "(if (eq (car-safe $v) 'a) (consp $v))", "(if (eq (car-safe v) 'a) t)");
    /* a pred whose calls count is left; unknown code may change x */
    SAME(KNOWN, "(if (consp $v) (vectorp $v))");
    SAME(KNOWN, "(if (consp x) (progn (@user (f)) (consp x)))");
    ONE(KNOWN, "(if (consp $v) (progn (@user (f)) (consp $v)))",
        "(if (consp v) (progn (f) t))");
    /* the other branch of an if does not see what a branch changed */
    ONE(KNOWN, "(progn (if (consp x) (progn (setq x 1) 2) (null x)) (consp x))",
        "(progn (if (consp x) (progn (setq x 1) 2) (null x)) (consp x))");
    arena_free(c->f->a);
}

static void pass_safe(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(SAFE, "(if (consp x) (car-safe x) (cdr-safe x))", "(if (consp x) (car x) (cdr-safe x))");
    ONE(SAFE, "(if (eq (car-safe $v) 'a) (cdr-safe $v))", "(if (eq (car-safe v) 'a) (cdr v))");
    ONE(SAFE, "(let* (($a (car-safe $v))) (if (eq $a 'k) (cdr-safe $v)))",
        "(let* ((a (car-safe v))) (if (eq a 'k) (cdr v)))");
    ONE(SAFE, "(cond ((and (consp x) (consp (cdr-safe x))) (car-safe (cdr-safe x))))",
        "(cond ((and (consp x) (consp (cdr x))) (car (cdr x))))");
    /* nil is no cons */
    SAME(SAFE, "(if (eq (car-safe $v) nil) (cdr-safe $v))");
    SAME(SAFE, "(if (consp x) (progn (setq x 1) (car-safe x)))");
    SAME(SAFE, "(if (consp x) (lambda nil (car-safe x)))");
    SAME(SAFE, "(if (consp x) (progn (@user (f)) (car-safe x)))");
    ONE(SAFE, "(if (consp $v) (progn (@user (f)) (car-safe $v)))",
        "(if (consp v) (progn (f) (car v)))");
    /* unknown code in one clause's body: the next clause's test still
     * sees what its temporary is bound to */
    ONE(SAFE, "(let (($a (car-safe x))) (cond ((eq $a 'p) (@user (f)) (cdr-safe x)) "
              "((eq $a 'q) (cdr-safe x))))",
        "(let ((a (car-safe x))) (cond ((eq a 'p) (f) (cdr-safe x)) ((eq a 'q) (cdr x))))");
    SAME(SAFE, "(let (($a (car-safe x))) (progn (cond ((eq $a 'p) (@user (f)))) "
               "(if (eq $a 'q) (cdr-safe x))))");
    arena_free(c->f->a);
}

static void pass_memq(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(MEMQ, "(if (@member (memq x '(b a))) 1)", "(if (memq x '(a b)) 1)");
    ONE(MEMQ, "(cond ((@member (member x '(\"b\" 2 a))) 1))",
        "(cond ((member x '(a 2 \"b\")) 1))");
    /* its value is the tail of the list: it shows */
    SAME(MEMQ, "(list (memq x '(b a)))");
    ONE(MEMQ, "(list (@member (memq x '(b a))))", "(list (memq x '(b a)))");
    ONE(MEMQ, "(cond ((@member (memq x '(b a)))))", "(cond ((memq x '(b a))))");
    /* one the user wrote */
    SAME(MEMQ, "(if (memq x '(b a)) 1)");
    arena_free(c->f->a);
}

static void pass_merge(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(MERGE, "(cond ((eq x 'a) (f)) ((eq x 'b) (@user (g (h (i))))) ((eq x 'c) (f)) (t 0))",
        "(cond ((memq x '(a c)) (f)) ((eq x 'b) (g (h (i)))) (t 0))");
    ONE(MERGE, "(cond ((eq x 'a) (f)) ((eql x 1) (@user (g (h (i))))) ((equal x \"s\") (f)) (t 0))",
        "(cond ((member x '(a \"s\")) (f)) ((eql x 1) (g (h (i)))) (t 0))");
    /* two such clauses make a jump table: kept */
    SAME(MERGE, "(cond ((eq x 'a) (f)) ((eq x 'b) (f)) (t 0))");
    /* a clause between takes one of the constants: no */
    SAME(MERGE, "(cond ((eq x 'a) (f)) ((memq x '(b c)) (@user (g (h (i))))) ((eq x 'c) (f)) (t 0))");
    SAME(MERGE, "(cond ((eq x 'a) (f)) ((p x) (@user (g (h (i))))) ((eq x 'c) (f)) (t 0))");
    /* a pure test before (t SAME): gone */
    ONE(MERGE, "(cond ((eq x 'a) 1) ((consp $v) (f)) (t (f)))", "(if (eq x 'a) 1 (f))");
    SAME(MERGE, "(cond ((p x) (f)) (t (f)))");
    /* clauses next to each other with the same body: one clause, the
     * tests' common pure tail once; with unknown code, an or of both */
    ONE(MERGE, "(cond ((and (stringp $x) (null $y)) (setq $go 0)) ((and (symbolp $x) (null $y)) "
               "(setq $go 0)) (t (@user (e (f (g))))))",
        "(if (and (or (stringp x) (symbolp x)) (null y)) (setq go 0) (e (f (g))))");
    ONE(MERGE, "(cond ((and (p $x) (null $y)) (setq $go 0)) ((and (q $x) (null $y)) "
               "(setq $go 0)) (t (@user (e (f (g (h)))))))",
        "(if (or (and (p x) (null y)) (and (q x) (null y))) (setq go 0) (e (f (g (h)))))");
    /* the equal text of two clauses' bodies is not one body (which clause
     * a body is, and where its comments go, is the user's): no merge; nor
     * a variable the user wrote as a body */
    SAME(MERGE, "(cond ((eq x 'a) (@user (f))) ((eq x 'b) (@user (g (h (i))))) "
                "((eq x 'c) (@user (f))) (t 0))");
    SAME(MERGE, "(cond ((consp $v) form) (t form))");
    ONE(MERGE, "(cond ((consp $v) nil) (t nil))", "nil");
    /* a constant comparison is left as it is (a jump table) */
    SAME(MERGE, "(cond ((keywordp x) (f)) ((eq x 'a) (f)) ((eq x 'b) (@user (e (f (g))))))");
    /* a memq's quoted list is one level deeper than an eq's constant: no
     * merge that makes the form nest more deeply */
    SAME(MERGE, "(cond ((eq x 'a) (f)) ((eq x 'b) (g)) ((eq x 'c) (f)) (t 0))");
    arena_free(c->f->a);
}

/* The clauses of a cons's car in the cond around them, the car bound
 * around that cond. */
static void pass_hoist(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((eq $a 'p) (@user (f))) "
               "((eq $a 'q) (@user (g))) (t (@user (h)))))) (t (@user (k))))",
        "(let ((a (car-safe x))) (cond ((eq a 'p) (f)) ((eq a 'q) (g)) ((consp x) (h)) "
        "(t (k))))");
    /* an if either way; a membership test; an and beginning with one */
    ONE(HOIST, "(if (consp x) (let (($a (car x))) (if (memq $a '(p q)) (@user (f)) "
               "(@user (h)))) (@user (k)))",
        "(let ((a (car-safe x))) (cond ((memq a '(p q)) (f)) ((consp x) (h)) (t (k))))");
    ONE(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((and (eq $a 'p) (@user (g))) 1) "
               "(t 2)))) (t 3))",
        "(let ((a (car-safe x))) (cond ((and (eq a 'p) (g)) 1) ((consp x) 2) (t 3)))");
    /* the clauses after come to the same code for a cons: the default once */
    ONE(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((eq $a 'p) (@user (f))) "
               "(t (setq $go t))))) ((eq x 'w) (@user (g))) (t (setq $go t)))",
        "(let ((a (car-safe x))) (cond ((eq a 'p) (f)) ((eq x 'w) (g)) (t (setq go t))))");
    /* not when a test between may hold for a cons */
    ONE(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((eq $a 'p) 1) (t (setq $go t))))) "
               "((eq x 'w) (@user (g))) ((p x) 2) (t (setq $go t)))",
        "(let ((a (car-safe x))) (cond ((eq a 'p) 1) ((consp x) (setq go t)) ((eq x 'w) (g)) "
        "((p x) 2) (t (setq go t))))");
    /* a clause before that reads x first and does nothing else */
    ONE(HOIST, "(cond ((stringp x) 1) ((consp x) (let (($a (car x))) (cond ((eq $a 'p) 2) "
               "(t 3)))) (t 4))",
        "(let ((a (car-safe x))) (cond ((stringp x) 1) ((eq a 'p) 2) ((consp x) 3) (t 4)))");
    /* unknown code before (it could change x); y read first (it may be
     * void: the other error) */
    SAME(HOIST, "(cond ((p y) 1) ((consp x) (let (($a (car x))) (cond ((eq $a 'p) 2) "
                "(t 3)))) (t 4))");
    SAME(HOIST, "(cond ((stringp y) 1) ((consp x) (let (($a (car x))) (cond ((eq $a 'p) 2) "
                "(t 3)))) (t 4))");
    /* a test nil passes, or unknown code, where x may be no cons */
    SAME(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((null $a) 1) (t 2)))) (t 3))");
    SAME(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((eq $a nil) 1) (t 2)))) (t 3))");
    SAME(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((or (eq $a 'p) (null $a)) 1) "
                "(t 2)))) (t 3))");
    SAME(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((p $a) 1) (t 2)))) (t 3))");
    SAME(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((@user (eq $a 'p)) 1) (t 2)))) "
                "(t 3))");
    /* no default for a cons; a user's variable bound; the car of another */
    SAME(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((eq $a 'p) 1)))) (t 3))");
    SAME(HOIST, "(cond ((consp x) (let ((a (car x))) (cond ((eq a 'p) 1) (t 2)))) (t 3))");
    SAME(HOIST, "(cond ((consp x) (let (($a (car y))) (cond ((eq $a 'p) 1) (t 2)))) (t 3))");
    /* deeper where the other clauses' bodies are the deepest: undone */
    SAME(HOIST, "(cond ((consp x) (let (($a (car x))) (cond ((eq $a 'p) 1) (t 2)))) "
                "(t (@user (f (g (h (i (j))))))))");
    arena_free(c->f->a);
}

/* Shared code in blocks after the main code (match/emit): a block that
 * one place reaches goes there, one that none reaches goes; one reached
 * twice stays; with no block left the let* keeps the rest. */
static void pass_blocks(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    /* one block, one place: the carriers' values go in a let */
    ONE(BLOCKS, "(let* (($go nil) ($c0 nil) ($res (cond ((p x) (setq $go t $c0 (car x))) "
                "(t 0)))) (if $go (let (($y $c0)) (@user (f y))) $res))",
        "(cond ((p x) (let ((c0 (car x))) (let ((y c0)) (f y)))) (t 0))");
    /* two blocks: block 1 reached twice stays, block 0 once moves, the
     * subject's binding stays */
    ONE(BLOCKS, "(let* (($v (g)) ($go nil) ($res (cond ((p $v) (setq $go 0)) ((q $v) "
                "(setq $go 1)) (t (setq $go 1))))) (if (eq $go 0) (setq $res (@user (f0)))) "
                "(if (eq $go 1) (@user (f1)) $res))",
        "(let* ((v (g)) (go nil) (res (cond ((p v) (f0)) ((q v) (setq go 1)) "
        "(t (setq go 1))))) (if (eq go 1) (f1) res))");
    /* no place reaches the last block: RES is the value */
    ONE(BLOCKS, "(let* (($go nil) ($res (if (p x) 1 2))) (if $go (@user (f)) $res))",
        "(if (p x) 1 2)");
    /* reached twice: kept */
    SAME(BLOCKS, "(let* (($go nil) ($res (if (p x) (setq $go t) (setq $go t)))) "
                 "(if $go (@user (f)) $res))");
    /* reached twice, but after (consp x) the block's (eq x 'p) is nil:
     * that place gets what is left, (g); the block, reached once now,
     * goes to the other place */
    ONE(BLOCKS, "(let* (($go nil) ($res (cond ((consp x) (if (eq (car x) 'a) 1 (setq $go t))) "
                "(t (setq $go t))))) (if $go (cond ((eq x 'p) (@user (f))) (t (@user (g)))) $res))",
        "(cond ((consp x) (if (eq (car x) 'a) 1 (g))) (t (cond ((eq x 'p) (f)) (t (g)))))");
    /* not decided there (x may be p): both places go to the block */
    SAME(BLOCKS, "(let* (($go nil) ($res (cond ((p x) (if (eq x 'a) 1 (setq $go t))) "
                 "(t (setq $go t))))) (if $go (cond ((eq x 'p) (@user (f))) (t (@user (g)))) $res))");
    /* a place under a binding of a variable the block reads: not moved
     * there (the block would see that binding) */
    SAME(BLOCKS, "(let* (($go nil) ($res (cond ((consp x) (let ((x (car x))) (if (eq x 'a) 1 "
                 "(setq $go t)))) (t (setq $go t))))) (if $go (cond ((eq x 'p) (@user (f))) "
                 "(t (@user (g)))) $res))");
    /* decided down to more than a copied body: kept */
    SAME(BLOCKS, "(let* (($go nil) ($res (cond ((consp x) (if (eq (car x) 'a) 1 (setq $go t))) "
                 "(t (setq $go t))))) (if $go (cond ((eq x 'p) (@user (f))) "
                 "(t (@user (g (h 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20))))) $res))");
    /* not a dispatch (the last form is no test of a temporary): kept */
    SAME(BLOCKS, "(let* (($go nil) ($res (if (p x) (setq $go t) 1))) (if go (@user (f)) $res))");
    arena_free(c->f->a);
}

/* A small block that a few places reach: in each, where the form then
 * nests less deeply. */
static void pass_unshare(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(UNSHARE, "(let* (($go nil) ($res (cond ((p x) (if (q x) 1 (setq $go t))) "
                 "(t (setq $go t))))) (if $go (@user (f (g x))) $res))",
        "(cond ((p x) (if (q x) 1 (f (g x)))) (t (f (g x))))");
    /* the carriers' values in a let at each place */
    ONE(UNSHARE, "(let* (($go nil) ($c0 nil) ($res (cond ((p x) (setq $go t $c0 (car x))) "
                 "(t (setq $go t $c0 2))))) (if $go (let (($y $c0)) (@user (f (g y)))) $res))",
        "(cond ((p x) (let ((c0 (car x))) (let ((y c0)) (f (g y))))) "
        "(t (let ((c0 2)) (let ((y c0)) (f (g y))))))");
    /* deeper, the block being deep and its places too: kept */
    SAME(UNSHARE, "(let* (($go nil) ($res (cond ((p x) (if (q x) (if (r x) 1 (setq $go t)) "
                  "(setq $go t))) (t 2)))) (if $go (@user (f (g (h (i (j)))))) $res))");
    /* a large block; five places */
    SAME(UNSHARE, "(let* (($go nil) ($res (cond ((p x) (if (q x) 1 (setq $go t))) "
                  "(t (setq $go t))))) (if $go (@user (f (g x) 1 2 3 4 5 6 7 8 9 10 11 12 13 "
                  "14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38)) "
                  "$res))");
    SAME(UNSHARE, "(let* (($go nil) ($res (cond ((p x) (if (q x) 1 (setq $go t))) "
                  "((r x) (if (q x) 2 (setq $go t))) ((s x) (if (q x) 3 (setq $go t))) "
                  "((u x) (if (q x) 4 (setq $go t))) (t (setq $go t))))) "
                  "(if $go (@user (f (g x))) $res))");
    /* a place under a binding of a variable the block reads, or in a
     * lambda: kept */
    SAME(UNSHARE, "(let* (($go nil) ($res (cond ((p x) (let ((x (car x))) (if (q x) 1 "
                  "(setq $go t)))) (t (setq $go t))))) (if $go (@user (f (g x))) $res))");
    SAME(UNSHARE, "(let* (($go nil) ($res (cond ((p x) (lambda nil (if (q x) 1 "
                  "(setq $go t)))) (t (setq $go t))))) (if $go (@user (f (g x))) $res))");
    arena_free(c->f->a);
}

/* Two tests whose failures run the same code: one test, a let of parts
 * between around it. */
static void pass_and(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    /* the else forms: copies of one body (one object, as the emitter
     * makes them), written here as a temporary */
    ONE(AND, "(if (consp $v) (if (null (cdr $v)) (@user (f)) $e) $e)",
        "(if (and (consp v) (null (cdr v))) (f) e)");
    /* unknown tests keep their order; three in a row: one and */
    ONE(AND, "(if (p $v) (if (q $v) (if (r $v) 1 $e) $e) $e)", "(if (and (p v) (q v) (r v)) 1 e)");
    ONE(AND, "(if (consp $v) (let (($a (car-safe $v)) ($b (cdr-safe $v))) "
             "(if (integerp $a) (@user (f $a $b)) $e)) $e)",
        "(let ((a (car-safe v)) (b (cdr-safe v))) (if (and (consp v) (integerp a)) (f a b) e))");
    /* a user's variable read before on every path: not void there */
    ONE(AND, "(if (consp x) (if (consp $v) (let (($a (cdr-safe x))) (if (null $a) 1 $e)) $e) 2)",
        "(if (consp x) (let ((a (cdr-safe x))) (if (and (consp v) (null a)) 1 e)) 2)");
    /* different else forms; a part that may signal, or of a variable that
     * may be void; a test that runs unknown code (it could change the
     * value taken apart); the part read by the else or the test */
    SAME(AND, "(if (consp $v) (if (null (cdr $v)) 1 $e) $f)");
    SAME(AND, "(if (consp $v) (let (($a (car $v))) (if (null $a) 1 $e)) $e)");
    SAME(AND, "(if (consp $v) (let (($a (cdr-safe x))) (if (null $a) 1 $e)) $e)");
    SAME(AND, "(if (p $v) (let (($a (cdr-safe $v))) (if (null $a) 1 $e)) $e)");
    SAME(AND, "(if (consp $v) (let (($a (cdr-safe $v))) (if (null $a) 1 (f $a))) (f $a))");
    /* the first test the deepest part: undone */
    SAME(AND, "(if (consp (car (car (car $v)))) (if (null $w) 1 $e) $e)");
    arena_free(c->f->a);
}

/* (and (consp E) (P (car E))) of a P false on nil: (P (car-safe E)); a
 * chain absorbs again; only where the and's value stays the same. */
static void pass_consp(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(CONSP, "(if (and (consp x) (eq (car x) 'a)) 1 2)", "(if (eq (car-safe x) 'a) 1 2)");
    ONE(CONSP, "(cond ((and (p) (consp $x0) (memq (cdr $x0) '(a b)) (q)) 1))",
        "(cond ((and (p) (memq (cdr-safe x0) '(a b)) (q)) 1))");
    /* a chain: car and car-safe of the same variable read the same car */
    ONE(CONSP, "(and (consp x) (consp (car x)) (eq (car (car x)) 'set) (consp (cdr (car x))))",
        "(and (eq (car-safe (car-safe x)) 'set) (consp (cdr (car x))))");
    ONE(CONSP, "(and (consp (cdr-safe x)) (stringp (car (cdr x))))",
        "(stringp (car-safe (cdr-safe x)))");
    /* P true on nil (null, symbolp, equal to nil), a list with nil, an
     * unknown function or value: kept */
    SAME(CONSP, "(and (consp x) (null (cdr x)))");
    SAME(CONSP, "(and (consp x) (symbolp (car x)))");
    SAME(CONSP, "(and (consp x) (eq (car x) nil))");
    SAME(CONSP, "(and (consp x) (memq (car x) '(a nil)))");
    SAME(CONSP, "(and (consp x) (p (car x)))");
    /* a function that is called (no instruction): how often it runs counts */
    SAME(CONSP, "(and (consp x) (vectorp (car x)))");
    SAME(CONSP, "(and (consp x) (eq (car x) y))");
    /* another value's car; a test in between; E a call (read twice) */
    SAME(CONSP, "(and (consp x) (eq (car y) 'a))");
    SAME(CONSP, "(and (consp x) (p) (eq (car x) 'a))");
    SAME(CONSP, "(and (consp (f)) (eq (car (f)) 'a))");
    /* a temporary the consp test read is read once after it: inline
     * runs again (all passes) */
    assert_string_equal(run_off(c, "(let (($x1 (cdr x))) (if (and (consp $x1) "
                                   "(eq (car $x1) 'a)) (@user (f)) (@user (g))))", 0),
                        "(if (eq (car-safe (cdr x)) 'a) (f) (g))");
    /* the user's code: kept */
    SAME(CONSP, "(and (consp x) (@user (eq (car x) 'a)))");
    SAME(CONSP, "(@user (and (consp x) (eq (car x) 'a)))");
    arena_free(c->f->a);
}

/* A clause ((or A B) K) of a constant K: two clauses, where the form then
 * nests less deeply. */
static void pass_split(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(SPLIT, "(cond ((or (eq x 'a) (eq y 'b)) 'c) (t (f)))",
        "(cond ((eq x 'a) 'c) ((eq y 'b) 'c) (t (f)))");
    ONE(SPLIT, "(let ((v (g))) (cond ((p v) 1) ((or (eq v 'a) (eq (h v) 'b) (eq v 'd)) 2)))",
        "(let ((v (g))) (cond ((p v) 1) ((eq v 'a) 2) ((eq (h v) 'b) 2) ((eq v 'd) 2)))");
    /* no shallower: kept (the or is not on the deepest path) */
    SAME(SPLIT, "(cond ((or (eq x 'a) (eq y 'b)) 'c) (t (f (g (h (i))))))");
    /* a string, a quoted list: written twice they are two objects */
    SAME(SPLIT, "(cond ((or (eq x 'a) (eq y 'b)) \"s\") (t (f)))");
    SAME(SPLIT, "(cond ((or (eq x 'a) (eq y 'b)) '(s)) (t (f)))");
    /* an or the user wrote; a body of two forms; a body that is code */
    SAME(SPLIT, "(cond ((@user (or (eq x 'a) (eq y 'b))) 'c) (t (f)))");
    SAME(SPLIT, "(cond ((or (eq x 'a) (eq y 'b)) (f) 'c) (t (f)))");
    SAME(SPLIT, "(cond ((or (eq x 'a) (eq y 'b)) v) (t (f)))");
    arena_free(c->f->a);
}

/* A cond of two clauses, the second (t ...): an if, where the form then
 * nests less deeply. */
static void pass_if(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    ONE(IF, "(cond ((p x) (@user (f)) (@user (g))) (t (h (i (j)))))",
        "(if (p x) (progn (f) (g)) (h (i (j))))");
    ONE(IF, "(let ((v (k))) (cond ((p v) (@user (f)) 1) (t (h (i (j))) 2)))",
        "(let ((v (k))) (if (p v) (progn (f) 1) (h (i (j))) 2))");
    /* the deepest part in the first clause: no shallower, kept */
    SAME(IF, "(cond ((p x) (@user (f (g (h)))) 1) (t (i)))");
    /* three clauses; a last clause that is no (t ...) */
    SAME(IF, "(cond ((p x) (f) 1) ((q x) 2) (t (h (i (j)))))");
    SAME(IF, "(cond ((p x) (f) 1) ((q x) (h (i (j)))))");
    arena_free(c->f->a);
}

/* Every pass in its order: the example of output-style.md 2 and 3. */
static void all_passes(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    assert_string_equal(run_off(c, "(if (consp style) (let* (($x0 (car-safe style)) "
                                   "($x1 (cdr-safe style))) (let ((kind $x0) (variant $x1)) "
                                   "(@user (list kind variant)))) nil)", 0),
                        "(if (consp style) (let ((kind (car style)) (variant (cdr style))) "
                        "(list kind variant)))");
    assert_string_equal(run_off(c, "(progn (ignore (consp op)) (let* (($x0 (car-safe op)) "
                                   "($x1 (cdr-safe op))) (ignore (consp $x1)) (let* "
                                   "(($x2 (car-safe $x1)) ($x3 (cdr-safe $x1))) (let ((a $x0) "
                                   "(b $x2) (rest $x3)) (@user (list a b rest))))))", 0),
                        "(let* ((x1 (cdr-safe op)) (a (car-safe op)) (b (car-safe x1)) "
                        "(rest (cdr-safe x1))) (list a b rest))");
    /* merge runs again after blocks: a place the block was decided into
     * may now end as the clause after it, (t (g)) */
    uint32_t only = ~((1u << CLEAN_PASS_MERGE) | (1u << CLEAN_PASS_BLOCKS));
    assert_string_equal(run_off(c, "(let* (($go nil) ($res (cond ((consp x) (let (($x0 (car x))) "
                                   "(cond ((eq $x0 'a) 1) ((null $x0) (setq $go t)) (t (g))))) "
                                   "(t (setq $go t))))) (if $go (cond ((eq x 'p) (f)) (t (g))) "
                                   "$res))", only),
                        "(cond ((consp x) (let ((x0 (car x))) (if (eq x0 'a) 1 (g)))) "
                        "(t (cond ((eq x 'p) (f)) (t (g)))))");
    /* all off: the form itself */
    const char *text = "(let* (($a (car-safe x))) (list $a))";
    assert_string_equal(run_off(c, text, ~0u), "(let* ((a (car-safe x))) (list a))");
    arena_free(c->f->a);
}

static int stages;
static void count_stage(void *ctx, enum clean_pass p, struct value *form)
{
    (void)ctx;
    (void)p;
    (void)form;
    stages++;
}

/* The hook sees each pass that runs; code nested deeper than
 * CLEAN_MAX_DEPTH is not cleaned at all. */
static void hooks_and_depth(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    c->marks = clean_marks_new(c->f->L->a);
    struct clean_hooks h = {gensym, count_stage, c, NULL, NULL, NULL, NULL};
    struct value *form = prep(c, match_fx_read(c->f, "(if c a nil)"));
    stages = 0;
    clean_form(c->f->L, c->marks, &h, form, 1u << CLEAN_PASS_NIL);
    assert_true(stages >= CLEAN_PASS_COUNT - 1);
    int with_nil = stages;
    stages = 0;
    clean_form(c->f->L, c->marks, &h, form, 0);
    assert_true(stages > with_nil);
    /* (progn (progn ... (if c a nil))) deeper than the limit */
    struct value *deep = prep(c, match_fx_read(c->f, "(if c a nil)"));
    for (int i = 0; i <= CLEAN_MAX_DEPTH + 1; i++)
        deep = lisp_listv(c->f->L, intern_cstr(c->f->L, "progn"), deep, NULL);
    assert_ptr_equal(clean_form(c->f->L, c->marks, &h, deep, 0), deep);
    arena_free(c->f->a);
}

/* The hook hears of the clauses merge joins (their bodies: into, from)
 * only when the pass is kept, not when the form would nest more deeply
 * and merge is undone. */
static int joins;
static const struct value *joined_into;

static void count_join(void *ctx, const struct value *into, const struct value *from)
{
    (void)ctx;
    (void)from;
    joins++;
    joined_into = into;
}

static void merge_joins(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    c->marks = clean_marks_new(c->f->L->a);
    struct clean_hooks h = {gensym, NULL, c, NULL, NULL, count_join, NULL};
    uint32_t only = ~(1u << CLEAN_PASS_MERGE);
    struct value *kept = prep(c, match_fx_read(
        c->f, "(cond ((eq x 'a) (f)) ((eq x 'b) (@user (g (h (i))))) ((eq x 'c) (f)) (t 0))"));
    joins = 0;
    struct value *out = clean_form(c->f->L, c->marks, &h, kept, only);
    assert_int_equal(joins, 1);
    assert_string_equal(text_of(c, joined_into), "((f))");
    assert_string_equal(text_of(c, out), "(cond ((memq x '(a c)) (f)) ((eq x 'b) (g (h (i)))) (t 0))");
    struct value *undone = prep(c, match_fx_read(
        c->f, "(cond ((eq x 'a) (f)) ((eq x 'b) (g)) ((eq x 'c) (f)) (t 0))"));
    joins = 0;
    out = clean_form(c->f->L, c->marks, &h, undone, only);
    assert_int_equal(joins, 0);
    assert_string_equal(text_of(c, out), "(cond ((eq x 'a) (f)) ((eq x 'b) (g)) ((eq x 'c) (f)) (t 0))");
    arena_free(c->f->a);
}

/* The passes' copies and tables stay in the run's memory until its end:
 * for a small form they must stay small (maps and stacks begun at 64
 * entries took 11 KB a form, 3 times the memory of a file of small
 * pcase forms in one piece). */
static void a_small_form_keeps_little(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    const char *in = "(if (consp $x) (let* (($x0 (car-safe $x)) ($x1 (cdr-safe $x)))"
                     " (let ((a $x0) (b $x1)) (@user (list a b 1)))) nil)";
    run_off(c, in, 0); /* symbols interned */
    c->marks = clean_marks_new(c->f->L->a);
    struct value *form = prep(c, match_fx_read(c->f, in));
    struct clean_hooks h = {gensym, NULL, c, NULL, NULL, NULL, NULL};
    size_t before = support_arena_used(c->f->L->a);
    struct value *cleaned = clean_form(c->f->L, c->marks, &h, form, 0);
    size_t kept = support_arena_used(c->f->L->a) - before;
    const char *out = text_of(c, cleaned);
    assert_string_equal(out, "(if (consp x) (let ((a (car x)) (b (cdr x))) (list a b 1)))");
    assert_true(kept < 5000); /* 2,624 (3,712 when merge copied every form);
                                 9,600 with maps and stacks of 64 */
    arena_free(c->f->a);
}

static size_t n_copied;

static void count_copied(void *ctx, const struct value *orig, const struct value *copy)
{
    (void)ctx;
    (void)orig;
    (void)copy;
    n_copied++;
}

/* The cells cleaning text copies, with the passes not switched off in
 * off; the result must be want. */
static size_t cells_copied(struct cx *c, const char *text, uint32_t off, const char *want)
{
    c->marks = clean_marks_new(c->f->L->a);
    struct value *form = prep(c, match_fx_read(c->f, text));
    struct clean_hooks h = {gensym, NULL, c, count_copied, NULL, NULL, NULL};
    n_copied = 0;
    assert_string_equal(text_of(c, clean_form(c->f->L, c->marks, &h, form, off)), want);
    return n_copied;
}

/* A form the passes leave as it is is copied once, as every cleaning
 * begins: merge, split and if copy it (to undo their work by) only when
 * about to change it, so a cond of k clauses costs k, not 4k, cells of
 * copies; the same with every pass as with ignore alone, whatever k. */
static void a_form_left_alone_is_copied_once(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    char in[2048] = "(cond", want[2048] = "(cond";
    for (int k = 1; k <= 24; k++) {
        char cl[96];
        snprintf(cl, sizeof cl, " ((@user (p%d x)) (@user (f%d)))", k, k);
        strcat(in, cl);
        snprintf(cl, sizeof cl, " ((p%d x) (f%d))", k, k);
        strcat(want, cl);
        if (k % 8)
            continue;
        char i2[2048], w2[2048];
        snprintf(i2, sizeof i2, "%s)", in);
        snprintf(w2, sizeof w2, "%s)", want);
        size_t once = cells_copied(c, i2, ~(1u << CLEAN_PASS_IGNORE), w2);
        assert_true(once >= (size_t)k); /* a cell a clause, and more */
        assert_int_equal(cells_copied(c, i2, 0, w2), once);
    }
    arena_free(c->f->a);
}

static int runs[CLEAN_PASS_COUNT];

static void count_run(void *ctx, enum clean_pass p)
{
    (void)ctx;
    runs[p]++;
}

/* The runs of each pass cleaning text with the passes not switched off
 * in off takes; the result must be want. */
static void count_runs_off(struct cx *c, const char *text, uint32_t off, const char *want)
{
    c->marks = clean_marks_new(c->f->L->a);
    struct value *form = prep(c, match_fx_read(c->f, text));
    struct clean_hooks h = {gensym, NULL, c, NULL, NULL, NULL, count_run};
    memset(runs, 0, sizeof runs);
    assert_string_equal(text_of(c, clean_form(c->f->L, c->marks, &h, form, off)), want);
}

static void count_runs(struct cx *c, const char *text, const char *want)
{
    count_runs_off(c, text, 0, want);
}

/* A pass that changed nothing is not run again on a form nothing has
 * changed since: inline runs three times in the order of passes, unused,
 * lets and nil twice, each once here; where a pass between changes the
 * form, they run again. */
static void a_pass_that_found_nothing_runs_once(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    count_runs(c, "(let (($a (@user (g)))) (@user (f)) (list $a $a))",
               "(let ((a (g))) (f) (list a a))");
    assert_int_equal(runs[CLEAN_PASS_INLINE], 1);
    assert_int_equal(runs[CLEAN_PASS_UNUSED], 1);
    assert_int_equal(runs[CLEAN_PASS_LETS], 1);
    assert_int_equal(runs[CLEAN_PASS_NIL], 1);
    assert_int_equal(runs[CLEAN_PASS_KNOWN], 0); /* no test: nothing it needs */
    /* safe makes (car x) of (car-safe x) after unused and lets ran: they
     * run again, and nil, which ran before known, too */
    count_runs(c, "(if (consp x) (let (($a (car-safe x))) (@user (f)) (list $a $a)) nil)",
               "(if (consp x) (let ((a (car x))) (f) (list a a)))");
    assert_int_equal(runs[CLEAN_PASS_UNUSED], 2);
    assert_int_equal(runs[CLEAN_PASS_LETS], 2);
    assert_true(runs[CLEAN_PASS_INLINE] >= 2);
    arena_free(c->f->a);
}

/* blocks tries a block's code at each of its places, with known: over
 * the dispatch once (a walk that changes nothing, keeping the facts at
 * each place), then over the code at each place only, not over the
 * whole dispatch for each place; a place decided changes the dispatch,
 * which is walked again for the next. */
static void blocks_walks_a_dispatch_once(void **state)
{
    (void)state;
    struct cx *c = cx_new();
    uint32_t only = ~(1u << CLEAN_PASS_BLOCKS);
    const char *three = "(let* (($go nil) ($res (cond ((p x) (if (q x) 1 (setq $go t))) "
                        "((r x) (setq $go t)) (t (setq $go t))))) "
                        "(if $go (cond ((eq x 'p) (@user (f))) (t (@user (g)))) $res))";
    count_runs_off(c, three, only,
                   "(let* ((go nil) (res (cond ((p x) (if (q x) 1 (setq go t))) "
                   "((r x) (setq go t)) (t (setq go t))))) "
                   "(if go (cond ((eq x 'p) (f)) (t (g))) res))");
    assert_int_equal(runs[CLEAN_PASS_KNOWN], 1); /* 3 when each place walked it all */
    /* after (consp x) and after (stringp x) the block is (g): a place
     * decided changes the dispatch, walked anew for the next place (the
     * places are tried from the last: t, (p x), (stringp x), then
     * (consp x) after a walk again) */
    count_runs_off(c, "(let* (($go nil) ($res (cond ((consp x) (if (eq (car x) 'a) 1 (setq $go t))) "
                      "((stringp x) (setq $go t)) ((p x) (setq $go t)) (t (setq $go t))))) "
                      "(if $go (cond ((eq x 'p) (@user (f))) (t (@user (g)))) $res))",
                   only,
                   "(let* ((go nil) (res (cond ((consp x) (if (eq (car x) 'a) 1 (g))) "
                   "((stringp x) (g)) ((p x) (setq go t)) (t (setq go t))))) "
                   "(if go (cond ((eq x 'p) (f)) (t (g))) res))");
    assert_int_equal(runs[CLEAN_PASS_KNOWN], 2); /* 4 when each place walked it all */
    arena_free(c->f->a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tables_are_sorted),
        cmocka_unit_test(pass_ignore),
        cmocka_unit_test(pass_not),
        cmocka_unit_test(pass_unused),
        cmocka_unit_test(pass_inline),
        cmocka_unit_test(pass_funcall),
        cmocka_unit_test(pass_lets),
        cmocka_unit_test(pass_nil),
        cmocka_unit_test(pass_known),
        cmocka_unit_test(pass_safe),
        cmocka_unit_test(pass_memq),
        cmocka_unit_test(pass_hoist),
        cmocka_unit_test(pass_merge),
        cmocka_unit_test(pass_blocks),
        cmocka_unit_test(pass_unshare),
        cmocka_unit_test(pass_and),
        cmocka_unit_test(pass_consp),
        cmocka_unit_test(pass_split),
        cmocka_unit_test(pass_if),
        cmocka_unit_test(all_passes),
        cmocka_unit_test(hooks_and_depth),
        cmocka_unit_test(merge_joins),
        cmocka_unit_test(a_small_form_keeps_little),
        cmocka_unit_test(a_form_left_alone_is_copied_once),
        cmocka_unit_test(a_pass_that_found_nothing_runs_once),
        cmocka_unit_test(blocks_walks_a_dispatch_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
