/* test_splice.c - the whole input with replaced forms printed in.
 *
 * Bytes outside replaced spans unchanged (comments, CRLF, page breaks, no
 * final newline); the example of cli.md 4.2 exactly; comment attachment
 * (own-line, trailing, symbols, repeated anchors, copies through the
 * origin map); comments and empty lines of pcase clauses before the
 * branch that carries the clause (in order, an unreachable clause's with
 * the next, comments inside a pattern, the first copy only); the user's
 * code keeping its text; the line break inserted before an expansion
 * that starts with comments; CRLF output; per-form callbacks with label
 * floors; the per-site texts; atoms kept apart from their neighbours;
 * failures.  Expansions are built by hand from pieces of the input, as a
 * front end would build them, and the expander's clause marks likewise
 * (a table of code -> clause).
 */
#include "support.h"

#include <string.h>

#include "syntax/splice.h"

struct fx {
    struct arena *a;
    struct lisp *L;
    struct read_result r;
    struct splice_in in;
    struct splice_site sites[8];
    unsigned floors[4];
    int n_begun;
    const struct value *code[8], *clause[8]; /* the expander's clause marks */
    int n_marks;
};

/* The clause marks of fixture ctx (splice_in.clause_of). */
static const struct value *clause_of(void *ctx, const struct value *v)
{
    struct fx *f = ctx;
    for (int i = 0; i < f->n_marks; i++)
        if (f->code[i] == v || f->clause[i] == v)
            return f->clause[i];
    return NULL;
}

/* code carries clause (and so the clause is carried). */
static void carries(struct fx *f, const struct value *code, const struct value *clause)
{
    f->code[f->n_marks] = code;
    f->clause[f->n_marks++] = clause;
    f->in.clause_of = clause_of;
    f->in.origin_ctx = f;
}

static struct fx *fx_new(const char *text)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    assert_true(read_source(f->L, (const uint8_t *)text, strlen(text), &f->r));
    f->in.L = f->L;
    f->in.text = (const uint8_t *)text;
    f->in.len = strlen(text);
    f->in.src = &f->r;
    f->in.sites = f->sites;
    f->in.pretty.width = 80;
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

/* Element n of list l (0-based). */
static struct value *nth(struct value *l, int n)
{
    while (n--)
        l = value_cdr(l);
    return value_car(l);
}

static struct value *S(struct fx *f, const char *s) { return intern_cstr(f->L, s); }

static struct value *x_of(struct fx *f) { return S(f, "x"); }

static void add_site(struct fx *f, struct value *orig, struct value *exp)
{
    f->sites[f->in.n_sites++] = (struct splice_site){orig, exp};
}

static const char *run(struct fx *f, struct splice_text *texts)
{
    struct buf b;
    buf_init(&b, f->a);
    assert_true(splice_source(&f->in, &b, texts));
    return buf_cstr(&b);
}

static void test_unchanged(void **state)
{
    (void)state;
    const char *text = ";;; x.el -*- lexical-binding: t -*-\r\n(a b)  \r\n\f\r\n"
                       "(c ;; comment\r\n   d)\t; trailing\r\n\r\n(e \"str\r\nx\")";
    struct fx *f = fx_new(text);
    assert_string_equal(run(f, NULL), text);
    assert_true(splice_crlf(f->in.text, f->in.len));
    fx_free(f);
}

/* Output from a start byte on: the text before it is not printed, and a
 * site after it comes out as in the whole output (the parts of -j). */
static void test_start(void **state)
{
    (void)state;
    const char *text = "(a b)\n;; c\n(x y)\n(z)\n";
    struct fx *f = fx_new(text);
    add_site(f, f->r.forms[1].v, lisp_listv(f->L, S(f, "q"), NULL));
    const char *whole = run(f, NULL);
    f->in.start = f->r.forms[1].span.start;
    const char *tail = run(f, NULL);
    assert_string_equal(whole, "(a b)\n;; c\n(q)\n(z)\n");
    assert_string_equal(tail, "(q)\n(z)\n");
    fx_free(f);
}

static const char *kind_text =
    "(defun kind (x)\n"
    "  (pcase x\n"
    "    ;; Small numbers.\n"
    "    ((pred integerp)\n"
    "     ;; Tag it.\n"
    "     (list 'int x))                     ; exact\n"
    "    (_ 'other)))\n";

/* (if (integerp x) BODY 'other) with BODY the clause body as read. */
static struct value *kind_expansion(struct fx *f, struct value *body)
{
    return lisp_listv(f->L, S(f, "if"), lisp_listv(f->L, S(f, "integerp"), S(f, "x"), NULL),
                      body, lisp_listv(f->L, f->L->quote, S(f, "other"), NULL), NULL);
}

/* cli.md 4.2's example: the comment before the clause goes before the
 * branch that carries its body; the trailing one stays at its end. */
static void test_spec_example(void **state)
{
    (void)state;
    struct fx *f = fx_new(kind_text);
    struct value *pc = nth(f->r.forms[0].v, 3);
    struct value *c1 = nth(pc, 2), *c2 = nth(pc, 3);
    add_site(f, pc, kind_expansion(f, nth(c1, 1)));
    carries(f, nth(c1, 1), c1);
    struct splice_text t;
    assert_string_equal(run(f, &t),
                        "(defun kind (x)\n"
                        "  (if (integerp x)\n"
                        "      ;; Small numbers.\n"
                        "      ;; Tag it.\n"
                        "      (list 'int x)                     ; exact\n"
                        "    'other))\n");
    assert_string_equal(t.text,
                        "(if (integerp x)\n"
                        "      ;; Small numbers.\n"
                        "      ;; Tag it.\n"
                        "      (list 'int x)                     ; exact\n"
                        "    'other)");
    /* Without the expander's marks the clause's comment goes before the
     * expansion. */
    f->n_marks = 0;
    assert_string_equal(run(f, NULL),
                        "(defun kind (x)\n"
                        "  ;; Small numbers.\n"
                        "  (if (integerp x)\n"
                        "      ;; Tag it.\n"
                        "      (list 'int x)                     ; exact\n"
                        "    'other))\n");
    (void)c2;
    fx_free(f);
}

/* A copy stands for its original through the origin map; without the
 * map it does not survive and its comments go before the expansion, in
 * source order. */
struct alias {
    const struct value *copy, *orig;
};

static const struct value *origin(void *ctx, const struct value *v)
{
    const struct alias *al = ctx;
    return v == al->copy ? al->orig : v;
}

static void test_copies(void **state)
{
    (void)state;
    struct fx *f = fx_new(kind_text);
    struct value *pc = nth(f->r.forms[0].v, 3);
    struct value *body = nth(nth(pc, 2), 1);
    struct value *copy = value_cons(f->a, value_car(body), value_cdr(body));
    add_site(f, pc, kind_expansion(f, copy));
    assert_string_equal(run(f, NULL),
                        "(defun kind (x)\n"
                        "  ;; Small numbers.\n"
                        "  ;; Tag it.\n"
                        "                                        ; exact\n"
                        "  (if (integerp x) (list 'int x) 'other))\n");
    struct alias al = {copy, body};
    f->in.origin = origin;
    f->in.origin_ctx = &al;
    assert_string_equal(run(f, NULL),
                        "(defun kind (x)\n"
                        "  ;; Small numbers.\n"
                        "  (if (integerp x)\n"
                        "      ;; Tag it.\n"
                        "      (list 'int x)                     ; exact\n"
                        "    'other))\n");
    fx_free(f);
}

/* The anchor printed twice: comments only before the first. */
static void test_repeated_anchor(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase x\n  (1\n   ;; one\n   (f x))\n  (_ (g)))");
    struct value *pc = f->r.forms[0].v;
    struct value *body = nth(nth(pc, 2), 1);
    add_site(f, pc, lisp_listv(f->L, S(f, "or"), body, body, NULL));
    assert_string_equal(run(f, NULL),
                        "(or\n"
                        " ;; one\n"
                        " (f x)\n"
                        " (f x))");
    fx_free(f);
}

/* Trailing comments: the datum starting on the line and ending last
 * before the comment; it stays at the end of the line where that datum
 * ends, at its column when there is room, which makes the next element
 * start a line.  A symbol is found through its list cell only: this y is
 * in another list, so its comment goes before the expansion. */
static void test_trailing(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase x\n  (1 (f x) ; after f\n     y) ; after y\n  (_ z))");
    struct value *pc = f->r.forms[0].v;
    struct value *fx_ = nth(nth(pc, 2), 1);
    add_site(f, pc, lisp_listv(f->L, S(f, "progn"), fx_, S(f, "y"), NULL));
    assert_string_equal(run(f, NULL),
                        "                                        ; after y\n"
                        "(progn\n"
                        "  (f x)    ; after f\n"
                        "  y)");
    /* at the end of the expansion nothing follows on its line: on a line
     * before it */
    f->in.n_sites = 0;
    add_site(f, pc, fx_);
    assert_string_equal(run(f, NULL),
                        "                                        ; after f\n"
                        "                                        ; after y\n"
                        "(f x)");
    fx_free(f);
}

/* A symbol's comment goes before it when its list is printed (kept from
 * the input, with the list's text). */
static void test_symbol_cells(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase x\n  (1 (list a\n           ;; b next\n           b)))");
    struct value *pc = f->r.forms[0].v;
    add_site(f, pc, nth(nth(pc, 2), 1));
    assert_string_equal(run(f, NULL),
                        "(list a\n"
                        "      ;; b next\n"
                        "      b)");
    fx_free(f);
}

static const char *clauses_text =
    "(pcase x\n"
    "  ;; one\n"
    "  (1 (a))\n"
    "\n"
    "  ;; two\n"
    "  ((or 2 ;; inside\n"
    "       5)\n"
    "   (b))\n"
    "  ;; three\n"
    "  (3 (c))\n"
    "\n"
    "  (_ (d) ; end\n"
    "     (e)))\n";

/* (cond ((eql x N) BODY)... (t (d) (e))) with the clauses' bodies as
 * read, each clause marked as the expander marks it (skip: an
 * unreachable clause, not marked, not printed). */
static struct value *clauses_expansion(struct fx *f, int skip)
{
    struct value *pc = f->r.forms[0].v, *items[6];
    int n = 0;
    items[n++] = S(f, "cond");
    for (int k = 2; k <= 5; k++) {
        struct value *c = nth(pc, k), *body = value_cdr(c);
        if (k == skip)
            continue;
        carries(f, value_car(body), c);
        struct value *test = k == 5 ? f->L->t
                           : lisp_listv(f->L, S(f, "eql"), S(f, "x"), value_int(f->a, k - 1), NULL);
        items[n++] = value_cons(f->a, test, body);
    }
    return lisp_list(f->L, (size_t)n, items);
}

/* Comments of clauses (before them, and one inside a pattern) and the
 * empty lines between them go before the cond clauses that carry their
 * bodies, in order; no empty line after the head. */
static void test_clauses(void **state)
{
    (void)state;
    struct fx *f = fx_new(clauses_text);
    add_site(f, f->r.forms[0].v, clauses_expansion(f, 0));
    assert_string_equal(run(f, NULL),
                        "(cond\n"
                        " ;; one\n"
                        " ((eql x 1) (a))\n"
                        "\n"
                        " ;; two\n"
                        " ;; inside\n"
                        " ((eql x 2) (b))\n"
                        " ;; three\n"
                        " ((eql x 3) (c))\n"
                        "\n"
                        " (t\n"
                        "  (d)    ; end\n"
                        "  (e)))\n");
    fx_free(f);
}

static const char *margin_text =
    "(pcase x\n"
    "  (1 ; one\n"
    "   (a))\n"
    "  ((or 2 ;; inside\n"
    "       5)\n"
    "   (b))\n"
    "  (3 (c))   ; three\n"
    "  (_ (d)\n"
    "     (e)))\n";

/* A comment with one `;` on the right of a clause's pattern, or of the
 * whole clause, ends the line of the test of the cond clause that
 * carries the body (as people write it), which then starts a line; a
 * `;;` comment goes before the clause. */
static void test_margin_comments(void **state)
{
    (void)state;
    struct fx *f = fx_new(margin_text);
    add_site(f, f->r.forms[0].v, clauses_expansion(f, 0));
    assert_string_equal(run(f, NULL),
                        "(cond\n"
                        " ((eql x 1) ; one\n"
                        "  (a))\n"
                        " ;; inside\n"
                        " ((eql x 2) (b))\n"
                        " ((eql x 3) ; three\n"
                        "  (c))\n"
                        " (t (d) (e)))\n");
    fx_free(f);
}

/* An unreachable clause (no code carries it) leaves its comments to the
 * next clause that has code. */
static void test_unreachable_clause(void **state)
{
    (void)state;
    struct fx *f = fx_new(clauses_text);
    add_site(f, f->r.forms[0].v, clauses_expansion(f, 3));
    assert_string_equal(run(f, NULL),
                        "(cond\n"
                        " ;; one\n"
                        " ((eql x 1) (a))\n"
                        " ;; two\n"
                        " ;; inside\n"
                        " ;; three\n"
                        " ((eql x 3) (c))\n"
                        "\n"
                        " (t\n"
                        "  (d)    ; end\n"
                        "  (e)))\n");
    fx_free(f);
}

/* cond* clauses have no marks: a clause's comments go before the branch
 * that carries the first printed datum read inside it (a clause with
 * none, only symbols, cannot be found). */
static void test_condstar_clauses(void **state)
{
    (void)state;
    struct fx *f = fx_new("(cond*\n ;; add\n ((eq op 'add) '+)\n\n ;; pow\n"
                          " ((match* (list 'pow n) op) (list 'expt n))\n ;; else\n (t op))");
    struct value *cs = f->r.forms[0].v, *c1 = nth(cs, 1), *c2 = nth(cs, 2);
    struct value *t2 = lisp_listv(f->L, S(f, "consp"), S(f, "op"), NULL);
    add_site(f, cs, lisp_listv(f->L, S(f, "cond"), c1,
                               lisp_listv(f->L, t2, nth(c2, 1), NULL),
                               lisp_listv(f->L, f->L->t, S(f, "op"), NULL), NULL));
    assert_string_equal(run(f, NULL),
                        ";; else\n"
                        "(cond\n"
                        " ;; add\n"
                        " ((eq op 'add) '+)\n"
                        "\n"
                        " ;; pow\n"
                        " ((consp op) (list 'expt n))\n"
                        " (t op))");
    fx_free(f);
}

/* A body printed twice: the clause's comments go before the first copy
 * only; an atom body is marked by the list cell that holds it. */
static void test_first_copy(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase x\n  ;; a cons\n  ((pred consp) (f x))\n  ;; the rest\n  (_ nil))");
    struct value *pc = f->r.forms[0].v, *c1 = nth(pc, 2), *c2 = nth(pc, 3);
    struct value *body = nth(c1, 1);
    struct value *rest = lisp_listv(f->L, f->L->nil, NULL); /* the else cell */
    struct value *exp = value_cons(f->a, S(f, "if"), lisp_listv(f->L, lisp_listv(f->L, S(f, "consp"), S(f, "x"), NULL),
                                                  lisp_listv(f->L, S(f, "progn"), body, body, NULL), NULL));
    value_cdr(value_cdr(exp))->u.cons.cdr = rest; /* (if TEST THEN nil) */
    add_site(f, pc, exp);
    carries(f, body, c1);
    carries(f, rest, c2);
    assert_string_equal(run(f, NULL),
                        "(if (consp x)\n"
                        "    ;; a cons\n"
                        "    (progn (f x) (f x))\n"
                        "  ;; the rest\n"
                        "  nil)");
    fx_free(f);
}

/* A body shared by a lambda bound first: its clause's comments go before
 * the binding when another comes before it, else before the whole let*
 * (comments before the first binding would go before the bindings). */
static void test_shared_binding(void **state)
{
    (void)state;
    struct fx *f = fx_new("(pcase x\n  ;; shared\n  ((pred p) (f x))\n  (_ (g)))");
    struct value *pc = f->r.forms[0].v, *c1 = nth(pc, 2), *c2 = nth(pc, 3);
    struct value *lam = lisp_listv(f->L, f->L->lambda, f->L->nil, nth(c1, 1), NULL);
    struct value *fn = S(f, "fn"), *v = S(f, "v");
    struct value *call = lisp_listv(f->L, S(f, "funcall"), fn, NULL);
    struct value *body = lisp_listv(f->L, S(f, "if"), lisp_listv(f->L, S(f, "p"), x_of(f), NULL),
                                    call, nth(c2, 1), NULL);
    for (int first = 0; first < 2; first++) {
        struct value *binds = lisp_listv(f->L, lisp_listv(f->L, fn, lam, NULL), NULL);
        if (!first)
            binds = value_cons(f->a, lisp_listv(f->L, v, value_int(f->a, 1), NULL), binds);
        f->in.n_sites = 0;
        f->n_marks = 0;
        add_site(f, pc, lisp_listv(f->L, S(f, "let*"), binds, body, NULL));
        carries(f, lam, c1);
        carries(f, call, c1);
        carries(f, nth(c2, 1), c2);
        assert_string_equal(run(f, NULL),
                            first ? ";; shared\n"
                                    "(let* ((fn (lambda () (f x)))) (if (p x) (funcall fn) (g)))"
                                  : "(let* ((v 1)\n"
                                    "       ;; shared\n"
                                    "       (fn (lambda () (f x))))\n"
                                    "  (if (p x) (funcall fn) (g)))");
    }
    fx_free(f);
}

/* The user's code keeps its text: its line breaks (the indentation is
 * Emacs's), the spaces between elements on a line, written-out quote
 * forms, the empty lines between body forms; not in a form that defines
 * a read label. */
static void test_kept_text(void **state)
{
    (void)state;
    const char *text = "(pcase x\n"
                       "  ('a (setq foo 1\n"
                       "\t\t bar  (quote b))\n"
                       "\n"
                       "      (f)))\n";
    struct fx *f = fx_new(text);
    struct value *c = nth(f->r.forms[0].v, 2);
    add_site(f, f->r.forms[0].v,
             lisp_listv(f->L, S(f, "when"), lisp_listv(f->L, S(f, "eq"), S(f, "x"),
                                                     lisp_listv(f->L, f->L->quote, S(f, "a"), NULL), NULL),
                        nth(c, 1), nth(c, 2), NULL));
    assert_string_equal(run(f, NULL),
                        "(when (eq x 'a)\n"
                        "  (setq foo 1\n"
                        "        bar  (quote b))\n"
                        "\n"
                        "  (f))\n");
    fx_free(f);
    /* a `. ,X` tail (the reader makes the list (b \, c)) keeps its text
     * inside a backquote; outside one `,` is no prefix, and the list
     * prints as Emacs prints it */
    f = fx_new("(pcase x\n  ('a `(b . ,c)))\n");
    c = nth(f->r.forms[0].v, 2);
    add_site(f, f->r.forms[0].v, nth(c, 1));
    assert_string_equal(run(f, NULL), "`(b . ,c)\n");
    fx_free(f);
    f = fx_new("(pcase x\n  ('a '(b . ,c)))\n");
    c = nth(f->r.forms[0].v, 2);
    add_site(f, f->r.forms[0].v, nth(c, 1));
    assert_string_equal(run(f, NULL), "'(b \\, c)\n");
    fx_free(f);
    /* the same in a form that defines a read label: laid out anew */
    f = fx_new("(pcase x\n  ('a (setq foo '#1=(1)\n\t\t bar  (quote b))\n      (f)))\n");
    c = nth(f->r.forms[0].v, 2);
    add_site(f, f->r.forms[0].v, lisp_listv(f->L, S(f, "progn"), nth(c, 1), nth(c, 2), NULL));
    assert_string_equal(run(f, NULL), "(progn (setq foo '(1) bar 'b) (f))\n");
    fx_free(f);
}

/* The form follows other text on its line: that whitespace becomes a
 * line break with the indentation Emacs gives an argument there; the
 * rest of the line after the form is kept. */
static void test_line_break_before(void **state)
{
    (void)state;
    struct fx *f = fx_new("(defun kind (x) (pcase x\n  ;; c1\n  (_ (foo)))) ; end\n"
                          "(list 1 (pcase y ; c2\n (_ 2)))\n");
    struct value *pc = nth(f->r.forms[0].v, 3);
    add_site(f, pc, lisp_listv(f->L, S(f, "progn"), nth(nth(pc, 2), 1), NULL));
    struct value *pc2 = nth(f->r.forms[1].v, 2);
    add_site(f, pc2, value_int(f->a, 2));
    assert_string_equal(run(f, NULL),
                        "(defun kind (x)\n"
                        "  ;; c1\n"
                        "  (progn (foo))) ; end\n"
                        "(list 1\n"
                        "                                        ; c2\n"
                        "      2)\n");
    fx_free(f);
}

/* That indentation follows Emacs 30's rules: under the head when
 * whitespace follows the open paren, at paren + 2 in a local definition
 * of cl-flet & co (28.2: under the first argument both times). */
static void test_line_break_emacs30(void **state)
{
    (void)state;
    struct fx *f = fx_new("( list 1 (pcase y ;; c2\n (_ 2)))\n"
                          "(cl-flet ((f (x) (pcase x ;; c3\n (_ 3)))) (f 1))\n");
    struct value *pc = nth(f->r.forms[0].v, 2);
    add_site(f, pc, value_int(f->a, 2));
    struct value *pc2 = nth(nth(nth(f->r.forms[1].v, 1), 0), 2);
    add_site(f, pc2, value_int(f->a, 3));
    assert_string_equal(run(f, NULL),
                        "( list 1\n"
                        "  ;; c2\n"
                        "  2)\n"
                        "(cl-flet ((f (x)\n"
                        "            ;; c3\n"
                        "            3)) (f 1))\n");
    fx_free(f);
}

/* A form 97 lists deep in its top-level form: the layout of its
 * expansion follows Emacs's parser state past 100 levels (test_pretty:
 * past_100_levels), which needs the lists around it counted in the
 * input (not a string's or a comment's parens, nor an escaped one). */
static void depth_around(bool comment)
{
    struct buf t;
    struct arena *a = support_arena();
    buf_init(&t, a);
    buf_puts(&t, "(w \"((\" ?\\( ; ((\n");
    for (int k = 1; k < 97; k++) {
        for (int i = 0; i < k; i++)
            buf_putc(&t, ' ');
        buf_puts(&t, k + 1 < 97 ? "(w\n" : comment ? "(w (pcase y (_\n ;; c\n (g 1)))"
                                                   : "(w (pcase y (_ 1))");
    }
    for (int k = 0; k < 97; k++)
        buf_putc(&t, ')');
    buf_putc(&t, '\n');
    struct fx *f = fx_new(buf_cstr(&t));
    f->in.pretty.width = 30;
    struct value *site = f->r.forms[0].v;
    for (int k = 0; k < 97; k++)
        site = nth(site, k == 0 ? 3 : 1);
    const char *form = "(let* ((x (car-safe y))) (if (consp x) (let* ((z (car-safe x))) "
                       "(list z 'a-long-symbol-here)) 'other))";
    struct read_result r;
    assert_true(read_source(f->L, (const uint8_t *)form, strlen(form), &r));
    /* with the comment: the body it is attached to in the expansion */
    add_site(f, site, comment ? lisp_listv(f->L, S(f, "let*"), f->L->nil,
                                           lisp_listv(f->L, S(f, "list"), nth(nth(site, 2), 1), NULL),
                                           NULL)
                              : r.forms[0].v);
    const char *all = run(f, NULL), *out = strstr(all, "(let*");
    assert_non_null(out);
    const char *line = strchr(out, '\n') + 1; /* "y)))" */
    if (comment) {
        /* its comments go before it: no comment line among lines whose
         * indentation follows the model of Emacs's parser state */
        const char *c = strstr(all, ";; c\n");
        assert_non_null(c);
        assert_true(c < out);
    } else {
        assert_int_equal(strspn(line, " "), 106);
    }
    fx_free(f);
    arena_free(a);
}

static void test_depth_around(void **state)
{
    (void)state;
    depth_around(false);
    depth_around(true);
}

static void begin(void *ctx, unsigned floor)
{
    struct fx *f = ctx;
    f->floors[f->n_begun++] = floor;
}

/* Sites in several top-level forms; CRLF; the per-form callback; texts. */
static void test_forms_and_crlf(void **state)
{
    (void)state;
    struct fx *f = fx_new("(a (pcase x (_ 1)) (pcase y (_ 2)))\r\n"
                          "(b '#3=(c) #1=(pcase z))\r\n"
                          "(c)");
    struct value *a = f->r.forms[0].v, *b = f->r.forms[1].v;
    f->in.pretty.width = 12;
    add_site(f, nth(a, 1), lisp_listv(f->L, S(f, "when"), S(f, "x"), S(f, "one"), S(f, "two"), NULL));
    add_site(f, nth(a, 2), lisp_listv(f->L, S(f, "when"), S(f, "y"), S(f, "one"), S(f, "two"), NULL));
    add_site(f, nth(b, 2), S(f, "zz"));
    f->in.begin_form = begin;
    f->in.begin_ctx = f;
    struct splice_text t[3];
    assert_string_equal(run(f, t),
                        "(a (when x\r\n"
                        "     one\r\n"
                        "     two) (when y\r\n"   /* at its column in the output */
                        "            one\r\n"
                        "            two))\r\n"
                        "(b '#3=(c) #1=zz)\r\n"
                        "(c)");
    assert_int_equal(f->n_begun, 2);
    assert_int_equal(f->floors[0], 0);
    assert_int_equal(f->floors[1], 3);
    assert_string_equal(t[0].text, "(when x\r\n     one\r\n     two)");
    assert_string_equal(t[1].text, "(when y\r\n            one\r\n            two)");
    assert_string_equal(t[2].text, "zz");
    assert_int_equal(splice_label_floor(f->in.text, f->in.len, 0, (uint32_t)f->in.len), 3);
    fx_free(f);
}

/* A single-semicolon comment first, at a line start, is padded to column
 * 40 (it trails the symbol x, so it goes before the expansion); a comment
 * before a closing paren belongs to that list. */
static void test_comment_columns(void **state)
{
    (void)state;
    struct fx *f = fx_new("(progn\n  (pcase x ; first\n    (_ (f\n        ;; end of f\n        ))))");
    struct value *pc = nth(f->r.forms[0].v, 1);
    struct value *fcall = nth(nth(pc, 2), 1);
    add_site(f, pc, lisp_listv(f->L, S(f, "list"), fcall, NULL));
    assert_string_equal(run(f, NULL),
                        "(progn\n"
                        "                                        ; first\n"
                        "  (list\n"
                        "   ;; end of f\n"
                        "   (f)))");
    fx_free(f);
}

/* An atom put where a form was is kept apart from the tokens around it:
 * a form starts and ends with a delimiter, an atom does not ("??nil",
 * "xnil", "nily", "nilnil", "?(nil" and "z\(nil" would read otherwise or
 * not at all); where the neighbour is a delimiter, a blank or a read
 * label's "#N=" nothing is added. */
static void test_atoms_kept_apart(void **state)
{
    (void)state;
    struct fx *f = fx_new("(list ?\?(a) x(b)y (c)(d) ?((e) z\\((f) #1=(g))\n"); /* no trigraph */
    struct value *form = f->r.forms[0].v;
    static const int at[] = {2, 4, 6, 7, 9, 11, 12};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
        add_site(f, nth(form, at[k]), S(f, "q"));
    assert_string_equal(run(f, NULL), "(list ?\? q x q y q q ?( q z\\( q #1=q)\n");
    fx_free(f);
}

static void test_failures(void **state)
{
    (void)state;
    struct fx *f = fx_new("(a)");
    add_site(f, lisp_listv(f->L, S(f, "gen"), NULL), S(f, "x")); /* no span */
    struct buf b;
    buf_init(&b, f->a);
    assert_false(splice_source(&f->in, &b, NULL));
    f->in.n_sites = 0;
    struct value *self = value_cons(f->a, f->L->nil, f->L->nil);
    self->u.cons.car = self;
    add_site(f, f->r.forms[0].v, self); /* cannot be printed */
    buf_init(&b, f->a);
    assert_false(splice_source(&f->in, &b, NULL));
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unchanged),
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_spec_example),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_repeated_anchor),
        cmocka_unit_test(test_trailing),
        cmocka_unit_test(test_symbol_cells),
        cmocka_unit_test(test_clauses),
        cmocka_unit_test(test_margin_comments),
        cmocka_unit_test(test_unreachable_clause),
        cmocka_unit_test(test_first_copy),
        cmocka_unit_test(test_condstar_clauses),
        cmocka_unit_test(test_shared_binding),
        cmocka_unit_test(test_kept_text),
        cmocka_unit_test(test_line_break_before),
        cmocka_unit_test(test_line_break_emacs30),
        cmocka_unit_test(test_depth_around),
        cmocka_unit_test(test_forms_and_crlf),
        cmocka_unit_test(test_comment_columns),
        cmocka_unit_test(test_atoms_kept_apart),
        cmocka_unit_test(test_failures),
    };
    return SUPPORT_RUN(tests);
}
