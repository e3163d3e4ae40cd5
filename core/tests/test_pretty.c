/* test_pretty.c - layout of generated code (cli.md section 8).
 *
 * The examples of cli.md printed exactly; layout rules (binding lists,
 * if/let/lambda/cond/setq shapes, filling to the width, the column and
 * the text after the form); source text of atoms; re-emitted comments;
 * multi-line strings; CRLF; the one-line canonical printer against
 * print_value; deep and circular values; the indentation model and the
 * indent table.  Whether Emacs's indent-region leaves the output alone
 * is checked against Emacs itself by the 'indent' suite
 * (testdata/indent/indent-check.el with the indent_gen program).
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "lisp/print.h"
#include "syntax/pretty.h"
#include "syntax/pretty_doc.h"
#include "syntax/read.h"

struct fx {
    struct arena *a;
    struct lisp *L;
    struct read_result r;
    struct pretty_opts o;
};

static struct fx *fx_new(void)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    f->o.width = 80;
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

static struct value *rd(struct fx *f, const char *text)
{
    assert_true(read_source(f->L, (const uint8_t *)text, strlen(text), &f->r));
    assert_int_equal(f->r.n_forms, 1);
    f->o.src = &f->r;
    return f->r.forms[0].v;
}

/* Pretty-print text's form at column col (after col dots) with trail. */
static const char *pp_at(struct fx *f, const char *text, int col, int trail)
{
    struct value *v = rd(f, text);
    struct buf b;
    buf_init(&b, f->a);
    for (int i = 0; i < col; i++)
        buf_putc(&b, '.');
    assert_true(pretty_print(f->L, &f->o, &b, v, col, trail));
    return buf_cstr(&b);
}

static const char *pp(struct fx *f, const char *text) { return pp_at(f, text, 0, 0); }

static const char *compact(struct fx *f, const struct value *v)
{
    struct buf b;
    buf_init(&b, f->a);
    assert_true(pretty_compact(f->L, &f->o, &b, v));
    return buf_cstr(&b);
}

#define PP(text, want) assert_string_equal(pp(f, (text)), (want))

/* ---- the examples of cli.md ---- */

static void test_spec_examples(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    PP("(cond ((eql x 1) 'one) ((stringp x) 'str) ((consp x) (let* ((pcx--x0 "
       "(car-safe x)) (pcx--x1 (cdr-safe x))) (let ((a pcx--x0) (b pcx--x1)) "
       "(+ a b)))) (t 'other))",
       "(cond\n"
       " ((eql x 1) 'one)\n"
       " ((stringp x) 'str)\n"
       " ((consp x)\n"
       "  (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x)))\n"
       "    (let ((a pcx--x0) (b pcx--x1)) (+ a b))))\n"
       " (t 'other))");
    PP("(if (consp x) (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x))) "
       "(let ((a pcx--x0) (b pcx--x1)) (+ a b))) 'other)",
       "(if (consp x)\n"
       "    (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x)))\n"
       "      (let ((a pcx--x0) (b pcx--x1)) (+ a b)))\n"
       "  'other)");
    fx_free(f);
}

/* ---- layout rules ---- */

static void test_shapes(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.width = 30;
    PP("(let ((alpha (car-safe x)) (beta (cdr-safe x))) (list alpha beta))",
       "(let ((alpha (car-safe x))\n"
       "      (beta (cdr-safe x)))\n"
       "  (list alpha beta))");
    PP("(lambda (a b) (message \"hello\" a) (list a b))",
       "(lambda (a b)\n"
       "  (message \"hello\" a)\n"
       "  (list a b))");
    PP("(setq alpha (car-safe x) beta (cdr-safe xs) gamma 3)",
       "(setq alpha (car-safe x)\n"
       "      beta (cdr-safe xs)\n"
       "      gamma 3)");
    PP("(condition-case err (funcall f x) (error (message \"%s\" err)))",
       "(condition-case err\n"
       "    (funcall f x)\n"
       "  (error (message \"%s\" err)))");
    PP("(progn (first-thing) (second-thing) (third))",
       "(progn\n"
       "  (first-thing)\n"
       "  (second-thing)\n"
       "  (third))");
    PP("(and (consp x) (eq (car x) 'quote) (null (cddr x)))",
       "(and (consp x)\n"
       "     (eq (car x) 'quote)\n"
       "     (null (cddr x)))");
    /* Emacs 30: a name starting with "def" is no indent spec (28.2
     * indented it as a defun); a defun-spec head still is one. */
    PP("(define-thing name (args) (body) (more))",
       "(define-thing name\n"
       "              (args)\n"
       "              (body)\n"
       "              (more))");
    PP("(defvar some-variable (list 1 2 3) \"Its doc.\")",
       "(defvar some-variable\n"
       "  (list 1 2 3)\n"
       "  \"Its doc.\")");
    PP("(a-very-long-function-name (another-long-call-here x) y)",
       "(a-very-long-function-name\n"
       " (another-long-call-here x)\n"
       " y)");
    PP("(cond (t (message \"other %s\" x) (list 1 2 3)))",
       "(cond\n"
       " (t\n"
       "  (message \"other %s\" x)\n"
       "  (list 1 2 3)))");
    PP("'(alpha beta gamma delta epsilon zeta eta theta)",
       "'(alpha beta gamma delta\n"
       "        epsilon zeta eta\n"
       "        theta)");
    fx_free(f);
}

/* Emacs 30 indents each local definition of cl-flet & co (the elements
 * of their element 1) as a defun, whatever its head; the layout keeps
 * name and argument list on the head line.  Emacs 28.2 lined the body
 * up under the argument list. */
static void test_local_definitions(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.width = 40;
    PP("(cl-labels ((walk (node) (if (consp node) (walk (car node)) node))) (walk tree))",
       "(cl-labels ((walk (node)\n"
       "              (if (consp node)\n"
       "                  (walk (car node))\n"
       "                node)))\n"
       "  (walk tree))");
    /* Whatever the definition's head: a spec of its own, a list. */
    PP("(cl-flet ((if (a b) (message \"%s\" a) (list a b))) (if 1 2))",
       "(cl-flet ((if (a b)\n"
       "            (message \"%s\" a)\n"
       "            (list a b)))\n"
       "  (if 1 2))");
    PP("(cl-macrolet (((x y) (message \"%s\" x) (list x y))) y)",
       "(cl-macrolet (((x y)\n"
       "                (message \"%s\" x)\n"
       "                (list x y)))\n"
       "  y)");
    /* Behind a reader prefix, in data: the same. */
    PP("`(cl-flet ((f (x) ,first-form-here ,@other-forms)) (f 1))",
       "`(cl-flet\n"
       "     ((f (x) ,first-form-here\n"
       "        ,@other-forms))\n"
       "   (f 1))");
    /* Not a definition: an element of another element, or of another
     * head's bindings. */
    PP("(cl-letf ((f (x) (message \"%s\" x) (list x y))) y)",
       "(cl-letf ((f (x)\n"
       "             (message \"%s\" x)\n"
       "             (list x y)))\n"
       "  y)");
    fx_free(f);
}

/* Every line within the width unless it holds one unbreakable atom. */
static void test_fill(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.width = 40;
    const char *out = pp(f, "(defun f (x) (let ((y (g x)) (z (h x 1 2 3 4 5 6 7 8 9 10 11 12))) "
                            "(if (and y z (memq y '(a b c d e f g h i j k l m n o p))) "
                            "(list y z (format \"%s %s\" y z)) (cons z y))))");
    int lines = 1;
    for (const char *p = out; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        assert_true(n <= 40);
        assert_true(n == 0 || p[n - 1] != ' ');
        p += n + (e ? 1 : 0);
        lines += e != NULL;
    }
    assert_true(lines > 4);
    /* An atom longer than the width stays whole. */
    f->o.width = 10;
    PP("(f a-symbol-longer-than-ten b)",
       "(f\n a-symbol-longer-than-ten\n b)");
    fx_free(f);
}

static void test_column_and_trail(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.width = 40;
    /* 35 columns: fits from column 5, not with one more column after it. */
    const char *form = "(if (consp x) (car x) (list 1 2 3))";
    assert_string_equal(pp_at(f, form, 0, 0), form);
    assert_string_equal(pp_at(f, form, 5, 0), ".....(if (consp x) (car x) (list 1 2 3))");
    assert_string_equal(pp_at(f, form, 5, 1),
                        ".....(if (consp x)\n"
                        "         (car x)\n"
                        "       (list 1 2 3))");
    fx_free(f);
}

/* Widths and columns count display columns: a wide character two, not
 * its three bytes. */
static void test_display_width(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.width = 40; /* 34 columns, 44 bytes: one line */
    PP("(message \"日本日本日本日本日本\" x)",
       "(message \"日本日本日本日本日本\" x)");
    /* Filled data: the string ends at column 12 (16 in bytes), so four
     * symbols fit after it on a line of 20. */
    f->o.width = 20;
    PP("'(\"日本日本\" a b c d e f g h)",
       "'(\"日本日本\" a b c d\n  e f g h)");
    /* Wide characters far into the text (past the whole words of the
     * check for printable ASCII, then in its last bytes). */
    f->o.width = 55;
    PP("(list aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \"日本日本日本\")",
       "(list aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \"日本日本日本\")");
    f->o.width = 52; /* 52 columns, 53 bytes */
    PP("(list aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \"日\")",
       "(list aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \"日\")");
    fx_free(f);
}

/* A document rebuilt in the memory of the last one (pretty_rebuild) lays
 * out as a fresh one, whatever the sizes of the two. */
static void test_rebuild(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    f->o.width = 30;
    static const char *const forms[] = {
        "(let ((alpha (car-safe x)) (beta (cdr-safe x))) (list alpha beta))",
        "x",
        "[1 2 (a b) \"s\"]",
        "(cond ((eql x 1) 'one) ((stringp x) (message \"日本 %s\" x)) (t (list x x x x x x x x x)))",
        "(if (consp x) (car x) 'other)",
    };
    struct pretty_doc *doc = NULL, *first = NULL;
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
            const char *want = pp(f, forms[i]);
            struct buf b;
            buf_init(&b, f->a);
            doc = pretty_rebuild(doc, f->L, &f->o, f->r.forms[0].v);
            assert_non_null(doc);
            if (!first)
                first = doc;
            assert_ptr_equal(doc, first);
            pretty_layout(doc, &f->o, &b, 0, 0);
            assert_string_equal(buf_cstr(&b), want);
        }
    }
    fx_free(f);
}

/* A temporary's text is asked for once per occurrence, in print order
 * (circle names: #1= first, #1# after); an uninterned symbol that is not
 * one prints with #:. */
struct first_then {
    const struct value *temp;
    int asked;
};

static const char *first_then_text(void *ctx, const struct value *sym, size_t *n)
{
    struct first_then *ft = ctx;
    if (sym != ft->temp)
        return NULL;
    const char *t = ft->asked++ ? "#1#" : "#1=t";
    *n = strlen(t);
    return t;
}

static void test_temporaries(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct lisp *L = f->L;
    struct value *t = intern_uninterned(L, "t", 1), *u = intern_uninterned(L, "u", 1);
    struct first_then ft = {t, 0};
    f->o.sym_text = first_then_text;
    f->o.sym_ctx = &ft;
    struct value *v = lisp_listv(
        L, intern_cstr(L, "let"),
        lisp_listv(L, lisp_listv(L, t, value_int(f->a, 1), NULL), NULL),
        lisp_listv(L, intern_cstr(L, "f"), t, u, t, NULL), NULL);
    struct buf b;
    buf_init(&b, f->a);
    assert_true(pretty_print(L, &f->o, &b, v, 0, 0));
    assert_string_equal(buf_cstr(&b), "(let ((#1=t 1)) (f #1# #:u #1#))");
    assert_int_equal(ft.asked, 3);
    fx_free(f);
}

static void test_source_atoms(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    PP("(lambda () (f ?a #x10 \"\\x41\" 1. (quote (a . b)) (function car) `(a ,b ,@c) (\\, d) [1 ?b \"s\"]))",
       "(lambda () (f ?a #x10 \"\\x41\" 1. '(a . b) #'car `(a ,b ,@c) (\\, d) [1 ?b \"s\"]))");
    assert_string_equal(compact(f, f->r.forms[0].v),
                        "(lambda nil (f 97 16 \"A\" 1 '(a . b) #'car `(a ,b ,@c) (\\, d) [1 98 \"s\"]))");
    PP("(let () (defun g () nil))", "(let () (defun g () nil))");
    fx_free(f);
}

/* pretty_compact prints exactly what print_value prints for --compact. */
static void test_compact_matches_printer(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "(a b . c)", "(quote x y)", "(quote . x)", "(quote)", "(function . f)",
        "'(a 'b #'c)", "`(a ,b ,@c (d ,(e ,f)) . ,g)", "``(a ,,b)", "`',x",
        "(a quote b)", "[a (b . c) [d]]", "[]", "(\"str\\nwith\\tescapes\" ?\\n)",
        "(foo.bar \\1 \\, \\,@ \\` nil t)", "(1.0 -0.0 1e21 0.1 1.0e+INF)",
        "#s(rec 1 \"a\")", "(#:g ##)", "(\"\\377\" \"é\")", "((((((deep))))))",
        "(a . [b c])", "(,a ,@b)", "(\\` a b)", "(\\, a . b)",
    };
    struct fx *f = fx_new();
    struct print_opts po = print_opts_compact();
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        struct value *v = rd(f, inputs[i]);
        struct buf b;
        buf_init(&b, f->a);
        print_value(f->L, &b, v, &po);
        assert_string_equal(compact(f, v), buf_cstr(&b));
    }
    fx_free(f);
}

/* ---- comments ---- */

struct marks {
    struct arena *a;
    const char *anchor; /* printed text of the node that gets the comments */
    struct lisp *L;
    int calls;
};

static struct pretty_comment *mk(struct arena *a, const char *text,
                                 struct pretty_comment *next)
{
    struct pretty_comment *c = arena_zalloc(a, sizeof *c);
    c->text = (const uint8_t *)text;
    c->len = strlen(text);
    c->next = next;
    return c;
}

/* Comments go before the first node whose printed form is m->anchor. */
static void hook(void *ctx, const struct value *v, const struct value *holder,
                 struct pretty_hook_reply *r)
{
    struct marks *m = ctx;
    (void)holder;
    m->calls++;
    struct print_opts o = print_opts_default();
    struct buf b;
    buf_init(&b, m->a);
    print_value(m->L, &b, v, &o);
    if (!m->anchor || strcmp(buf_cstr(&b), m->anchor) != 0)
        return;
    m->anchor = NULL;
    r->comments = mk(m->a, ";; Tag it.", mk(m->a, "; exact", NULL));
}

static void test_comments(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct marks m = {f->a, "(list 'int x)", f->L, 0};
    f->o.comments = hook;
    f->o.comment_ctx = &m;
    assert_string_equal(pp_at(f, "(if (integerp x) (list 'int x) 'other)", 2, 1),
                        "..(if (integerp x)\n"
                        "      ;; Tag it.\n"
                        "                                        ; exact\n"
                        "      (list 'int x)\n"
                        "    'other)");
    assert_true(m.calls > 5);
    /* On the first element: hoisted before the list, which the caller
     * prints (pretty_take_root_comments). */
    m.anchor = "foo";
    struct value *v = rd(f, "(foo (bar) baz)");
    struct pretty_doc *d = pretty_build(f->L, &f->o, v);
    struct pretty_comment *root = pretty_take_root_comments(d);
    assert_non_null(root);
    assert_string_equal((const char *)root->text, ";; Tag it.");
    struct buf b;
    buf_init(&b, f->a);
    pretty_layout(d, &f->o, &b, 0, 0);
    assert_string_equal(buf_cstr(&b), "(foo (bar) baz)");
    /* On a distinguished argument: it moves to its own line. */
    m.anchor = "(integerp x)";
    assert_string_equal(pp(f, "(if (integerp x) 1 2)"),
                        "(if\n"
                        "    ;; Tag it.\n"
                        "                                        ; exact\n"
                        "    (integerp x)\n"
                        "    1\n"
                        "  2)");
    fx_free(f);
}

static void test_multiline_string_and_crlf(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    PP("(message \"two\nlines\" x)", "(message \"two\nlines\"\n         x)");
    f->o.newline = "\r\n";
    f->o.width = 20;
    PP("(when (consp x) (car x) (cdr x))", "(when (consp x)\r\n  (car x)\r\n  (cdr x))");
    fx_free(f);
}

/* ---- robustness ---- */

static void test_deep_and_circular(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *v = f->L->nil;
    for (int i = 0; i < 100000; i++)
        v = value_cons(f->a, v, f->L->nil);
    struct buf b;
    buf_init(&b, f->a);
    assert_true(pretty_print(f->L, &f->o, &b, v, 0, 0));
    assert_true(b.len > 200000);
    buf_init(&b, f->a);
    assert_true(pretty_compact(f->L, &f->o, &b, v));
    assert_int_equal(b.len, 100000 * 2 + 3);
    /* A list whose tail comes back, and one that contains itself. */
    struct value *c = value_cons(f->a, f->L->t, f->L->nil);
    struct value *c2 = value_cons(f->a, f->L->nil, c);
    c->u.cons.cdr = c2;
    assert_false(pretty_print(f->L, &f->o, &b, c, 0, 0));
    struct value *self = value_cons(f->a, f->L->nil, f->L->nil);
    self->u.cons.car = self;
    assert_false(pretty_compact(f->L, &f->o, &b, self));
    fx_free(f);
}

/* ---- the indentation model and tables ---- */

static void test_specs(void **state)
{
    (void)state;
    bool found;
    assert_int_equal(pretty_check_table(), -1);
    assert_int_equal(pretty_indent_spec(NULL, "if", 2, &found), 2);
    assert_true(found);
    assert_int_equal(pretty_indent_spec(NULL, "lambda", 6, &found), PRETTY_DEFUN);
    assert_int_equal(pretty_indent_spec(NULL, "progn", 5, &found), 0);
    assert_int_equal(pretty_indent_spec(NULL, "funcall", 7, &found), PRETTY_NONE);
    assert_false(found);
    /* Emacs 30: only the property counts, not a name "def..." */
    assert_int_equal(pretty_indent_spec(NULL, "defthing", 8, &found), PRETTY_NONE);
    assert_false(found);
    assert_int_equal(pretty_indent_spec(NULL, "def", 3, &found), PRETTY_NONE);
    assert_int_equal(pretty_indent_spec(NULL, "defvar", 6, &found), PRETTY_DEFUN);
    assert_true(found);
    /* Specs that Emacs 30.1 added. */
    assert_int_equal(pretty_indent_spec(NULL, "oclosure-lambda", 15, &found), 2);
    assert_int_equal(pretty_indent_spec(NULL, "while-let", 9, &found), 1);
    assert_int_equal(pretty_indent_spec(NULL, "with-memoization", 16, &found), 1);
    assert_int_equal(pretty_indent_spec(NULL, "iff", 2, &found), 2); /* prefix "if" */
    static const struct pretty_indent user[] = {
        {"if", PRETTY_NONE}, {"my-with", 1}, {"weird", PRETTY_UNSUPPORTED},
    };
    struct pretty_opts o = {.user = user, .n_user = 3};
    assert_int_equal(pretty_indent_spec(&o, "my-with", 7, &found), 1);
    assert_int_equal(pretty_indent_spec(&o, "if", 2, &found), PRETTY_NONE);
    assert_int_equal(pretty_indent_spec(&o, "weird", 5, &found), PRETTY_NONE);
    assert_true(found);
}

/* The hashed index of Emacs's table answers as the table's binary
 * search does, the user's table first. */
static void test_spec_index(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct pretty_spec_index *x = pretty_spec_index_new(a);
    static const char *const names[] = {
        "and-let*", "with-wrapper-hook", "if", "iff", "lambda", "progn", "let",
        "let*", "letrec", "defthing", "def", "funcall", "", "cl-defmethod",
        "with-temp-buffer", "with-temp-buffe", "with-temp-buffers", "my-with", "weird",
    };
    static const struct pretty_indent user[] = {
        {"if", PRETTY_NONE}, {"my-with", 1}, {"weird", PRETTY_UNSUPPORTED},
    };
    struct pretty_opts with_user = {.user = user, .n_user = 3};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i]);
        bool found;
        assert_int_equal(pretty_spec_lookup(x, NULL, names[i], len),
                         pretty_indent_spec(NULL, names[i], len, &found));
        assert_int_equal(pretty_spec_lookup(x, &with_user, names[i], len),
                         pretty_indent_spec(&with_user, names[i], len, &found));
    }
    assert_int_equal(pretty_spec_lookup(x, NULL, "with-temp-buffer", 16), 0);
    assert_int_equal(pretty_spec_lookup(x, &with_user, "if", 2), PRETTY_NONE);
    arena_free(a);
}

static void test_indent_column(void **state)
{
    (void)state;
    /* (if TEST      lines: THEN at paren+4, ELSE at paren+2. */
    struct pretty_place pl[4] = {{0, 11}, {0, 14}, {1, 14}, {2, 12}};
    assert_int_equal(pretty_indent_column(NULL, "if", 2, 10, pl, 2, 0), 14);
    assert_int_equal(pretty_indent_column(NULL, "if", 2, 10, pl, 3, 0), 12);
    /* Standard call: under the first argument, else one after the paren. */
    struct pretty_place call[2] = {{0, 1}, {0, 5}};
    assert_int_equal(pretty_indent_column(NULL, "foo", 3, 0, call, 2, 0), 5);
    assert_int_equal(pretty_indent_column(NULL, "foo", 3, 0, call, 1, 0), 1);
    /* A list or string head: under the first element. */
    assert_int_equal(pretty_indent_column(NULL, "(a b)", 5, 0, call, 2, 0), 1);
    assert_int_equal(pretty_indent_column(NULL, "\"s\"", 3, 0, call, 2, 0), 1);
    /* defun spec: body at paren+2. */
    assert_int_equal(pretty_indent_column(NULL, "lambda", 6, 0, call, 2, 0), 2);
    /* "( foo a" (Emacs 30): whitespace after the paren puts the line
     * under the head, not under the first argument. */
    struct pretty_place spaced[2] = {{0, 2}, {0, 6}};
    assert_int_equal(pretty_indent_column(NULL, "foo", 3, 0, spaced, 2, 0), 6);
    assert_int_equal(pretty_indent_column(NULL, "foo", 3, 0, spaced, 2,
                                          PRETTY_SPACE_AFTER_PAREN), 2);
    /* ... and so does a distinguished argument past the second. */
    struct pretty_place spaced3[3] = {{0, 12}, {0, 27}, {0, 29}};
    assert_int_equal(pretty_indent_column(NULL, "macroexp-let2", 13, 10, spaced3, 3, 0), 27);
    assert_int_equal(pretty_indent_column(NULL, "macroexp-let2", 13, 10, spaced3, 3,
                                          PRETTY_SPACE_AFTER_PAREN), 12);
    /* A local definition of cl-flet & co (Emacs 30): a body at paren+2
     * on the second line whatever the head (a call, a spec, a list);
     * on later lines what calculate-lisp-indent found. */
    struct pretty_place def[3] = {{0, 11}, {0, 13}, {1, 12}};
    assert_int_equal(pretty_indent_column(NULL, "f", 1, 10, def, 2, 0), 13);
    assert_int_equal(pretty_indent_column(NULL, "f", 1, 10, def, 2, PRETTY_LOCAL_DEF), 12);
    assert_int_equal(pretty_indent_column(NULL, "if", 2, 10, def, 2, PRETTY_LOCAL_DEF), 12);
    assert_int_equal(pretty_indent_column(NULL, "(x)", 3, 10, def, 2, PRETTY_LOCAL_DEF), 12);
    assert_int_equal(pretty_indent_column(NULL, "f", 1, 10, def, 3, PRETTY_LOCAL_DEF), 12);
    assert_int_equal(pretty_indent_column(NULL, "(x)", 3, 10, def, 3, PRETTY_LOCAL_DEF), 11);
    assert_true(pretty_local_def_head("cl-flet", 7));
    assert_true(pretty_local_def_head("cl-symbol-macrolet", 18));
    assert_false(pretty_local_def_head("cl-letf", 7));
    assert_false(pretty_local_def_head("flet", 4));
    assert_true(pretty_space_after_paren((const uint8_t *)" x", 2));
    assert_true(pretty_space_after_paren((const uint8_t *)"\t", 1));
    assert_true(pretty_space_after_paren((const uint8_t *)"\xe3\x80\x80x", 4)); /* U+3000 */
    assert_false(pretty_space_after_paren((const uint8_t *)"\nx", 2));
    assert_false(pretty_space_after_paren((const uint8_t *)"\xe3\x81\x82", 3)); /* U+3042 */
    assert_false(pretty_space_after_paren((const uint8_t *)"x", 0));
    assert_int_equal(pretty_advance((const uint8_t *)"a\tb", 3, 0), 9);
    assert_int_equal(pretty_advance((const uint8_t *)"日本", 6, 1), 5);
}

/* ---- past 100 levels: Emacs's parser state ---- */

/* Leading spaces of line n (0-based) of text. */
static int indent_of_line(const char *text, int n)
{
    while (n-- > 0)
        text = strchr(text, '\n') + 1;
    return (int)strspn(text, " ");
}

/* Where the layout follows Emacs's parser state, it agrees with its
 * own rules as long as nothing nests 100 lists deep. */
static void test_emulation_agrees(void **state)
{
    (void)state;
    static const char *const forms[] = {
        "(let ((alpha (car-safe x)) (beta (cdr-safe x))) (list alpha beta))",
        "(cond (t (message \"other %s\" x) (list 1 2 3)) ((eq a b) (foo) . bar))",
        "(cl-flet ((f (x) (message \"%s\" x) (list x y))) (if (f 1) 2 (f 3) (f 4)))",
        "'(alpha (beta . gamma) [delta epsilon] \"zeta\\neta\" theta iota kappa)",
        "(condition-case err (funcall f x) (error (message \"%s\" err)) (quit nil))",
        "(define-thing name (args) (body) (more) #'(lambda () (more)) `(a ,b ,@c))",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        for (int depth = 0; depth <= 60; depth += 60) {
            struct fx *f = fx_new();
            f->o.width = 30;
            f->o.depth = depth;
            const char *plain = pp_at(f, forms[i], 7, 2);
            f->o.emulate = true;
            assert_string_equal(pp_at(f, forms[i], 7, 2), plain);
            fx_free(f);
        }
    }
}

/* 97 lists around: the let* lists and their bindings' lists pass 100
 * levels.  A list opened on the last level leaves Emacs's parser with
 * the list around it as the line's list, so the line under car-safe's
 * argument goes under the binding's value, one column further left
 * than the rules say (checked by indent-region; the 'indent' suite's
 * --deep forms check many more). */
static void test_past_100_levels(void **state)
{
    (void)state;
    const char *form = "(let* ((x (car-safe y))) (if (consp x) (let* ((z (car-safe x))) "
                       "(list z 'a-long-symbol-here)) 'other))";
    struct fx *f = fx_new();
    f->o.width = 30;
    f->o.depth = 97;
    const char *deep = pp_at(f, form, 99, 97);
    assert_int_equal(indent_of_line(deep, 1), 106);
    assert_int_equal(indent_of_line(deep, 5), 112);
    f->o.depth = 0; /* the rules: under car-safe's argument */
    const char *rules = pp_at(f, form, 99, 97);
    assert_int_equal(indent_of_line(rules, 1), 110);
    assert_int_equal(indent_of_line(rules, 5), 116);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_examples),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_local_definitions),
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_column_and_trail),
        cmocka_unit_test(test_display_width),
        cmocka_unit_test(test_rebuild),
        cmocka_unit_test(test_temporaries),
        cmocka_unit_test(test_source_atoms),
        cmocka_unit_test(test_compact_matches_printer),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_multiline_string_and_crlf),
        cmocka_unit_test(test_deep_and_circular),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_spec_index),
        cmocka_unit_test(test_indent_column),
        cmocka_unit_test(test_emulation_agrees),
        cmocka_unit_test(test_past_100_levels),
    };
    return SUPPORT_RUN(tests);
}
