/* indent_gen.c - generated code for the indent-region check (suite 'indent').
 *
 * Builds a deterministic set of realistic nested forms (let, if, cond,
 * lambda, funcall, condition-case, setq, backquote, quoted data, vectors,
 * dotted pairs, multi-line strings, re-emitted comments, cl-flet's local
 * definitions, heads named def... without a spec ...), prints each
 * with pretty_print at several columns and widths, and writes them to
 * stdout as one Emacs Lisp file.  testdata/indent/indent-check.el runs
 * indent-region over that file in emacs-lisp-mode and fails if any line
 * moves.  Each form sits inside a wrapper whose head line puts the form's
 * first line at the wanted column.
 *
 * With --sites FILE..., the files are expanded by the whole pipeline
 * (driver, pcase and cond* front ends, splicer) and the text that
 * replaced each form is printed in such a wrapper instead.
 *
 * With --deep, the forms are nested tests and bindings (as in a pcase
 * expansion) that pass the 100 levels of Emacs's parser state, in one to
 * four lists (a wrapper line per list).
 * With --emulate, the layout follows that state at every line break
 * even where nothing nests so deep (a check of that model).
 *
 * Usage: indent_gen [--emulate] [--deep] [N]
 *                                   (N forms per width/column pair; default 12)
 *        indent_gen [--emulate] --sites FILE... (expansions of real files)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "expand/expand.h"
#include "expand/gensym.h"
#include "expand/pcase_macros.h"
#include "lisp/intern.h"
#include "syntax/pretty.h"
#include "syntax/splice.h"

static uint64_t seed = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned n)
{
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return (unsigned)((seed >> 33) % n);
}

static struct lisp *L;

static bool emulate; /* --emulate */

/* --deep: no keyword.  A line that starts with one sends Emacs's
 * indent-region through a walk back over the elements before it, which
 * fails (scan-error) where its parser state has lost the line's list. */
static bool no_keywords;

static struct value *sym(const char *s) { return intern_cstr(L, s); }

static struct value *num(long i) { return value_int(L->a, i); }

static struct value *str(const char *s)
{
    return value_string(L->a, s, strlen(s), false);
}

static struct value *cons(struct value *a, struct value *d)
{
    return value_cons(L->a, a, d);
}

/* A list of n items made by f at depth d, after head h (NULL: none). */
static struct value *list_of(struct value *h, int n,
                             struct value *(*f)(int), int d)
{
    struct value *items[16];
    int k = 0;
    if (h)
        items[k++] = h;
    for (int i = 0; i < n && k < 16; i++)
        items[k++] = f(d);
    return lisp_list(L, (size_t)k, items);
}

static const char *const names[] = {
    "x", "y", "val", "pcx--x0", "pcx--x1", "result", "a-rather-long-variable-name",
    "buffer-file-name", "n", ":key", "foo-bar", "other", "ignore", "tail",
};

static const char *const funcs[] = {
    "car-safe", "cdr-safe", "consp", "eq", "equal", "memq", "list", "concat",
    "format", "my-function-with-a-long-name", "define-thing", "1+", "message",
    "string-match", "nth", "aref", "vectorp", "integerp", "f", "g",
};

#define PICK(a) (a[rnd(sizeof(a) / sizeof(a[0]))])

/* A symbol of names[]; not a keyword under no_keywords. */
static struct value *name(void)
{
    const char *s = PICK(names);
    return sym(no_keywords && s[0] == ':' ? s + 1 : s);
}

static struct value *form(int d);
static struct value *datum(int d);

static struct value *atom(void)
{
    switch (rnd(9)) {
    case 0: return num((long)rnd(2000) - 50);
    case 1: return str(rnd(4) ? "some text" : "a string\nwith two lines");
    case 2: return lisp_listv(L, L->quote, name(), NULL);
    case 3: return L->nil;
    case 4: return L->t;
    default: return name();
    }
}

static struct value *call(int d)
{
    return list_of(sym(PICK(funcs)), (int)rnd(4), form, d - 1);
}

static struct value *binding(int d)
{
    return lisp_listv(L, name(), form(d), NULL);
}

static struct value *clause(int d)
{
    return list_of(form(d), 1 + (int)rnd(2), form, d);
}

static struct value *body_of(struct value *head, struct value *first, int d)
{
    struct value *b = list_of(NULL, 1 + (int)rnd(3), form, d - 1);
    return cons(head, first ? cons(first, b) : b);
}

static struct value *lambda(int d)
{
    static const char *const lists[] = {NULL, "x", "pcx--x0"};
    const char *a = PICK(lists);
    struct value *args = a ? lisp_listv(L, sym(a), sym("b"), NULL) : L->nil;
    return body_of(L->lambda, args, d);
}

/* A local definition of cl-flet & co: (NAME ARGS BODY...), NAME possibly
 * a head with a spec of its own, or a list or string in front (Emacs 30
 * indents all of them as defuns). */
static struct value *local_def(int d)
{
    static const char *const fnames[] = {"walk", "if", "pcx--f", "let"};
    struct value *args = lisp_listv(L, sym("node"), NULL);
    switch (rnd(5)) {
    case 0: return body_of(lisp_listv(L, sym("x"), sym("y"), NULL), args, d);
    case 1: return body_of(str("s"), args, d);
    default: return body_of(sym(PICK(fnames)), args, d);
    }
}

/* Forms whose indentation changed in Emacs 30: local definitions, heads
 * that got a spec, definers whose spec is no longer guessed from "def". */
static struct value *emacs30(int d)
{
    static const char *const locals[] = {
        "cl-flet", "cl-flet*", "cl-labels", "cl-macrolet", "cl-symbol-macrolet",
    };
    static const char *const one[] = {"while-let", "with-memoization", "cl-once-only"};
    switch (rnd(5)) {
    case 0:
    case 1: return body_of(sym(PICK(locals)), list_of(NULL, 1 + (int)rnd(2), local_def, d - 1), d);
    case 2: return body_of(sym(PICK(one)), form(d - 1), d);
    case 3: return lisp_listv(L, sym("oclosure-lambda"), form(d - 1), form(d - 1),
                              form(d - 1), form(d - 1), NULL);
    default: return body_of(sym(rnd(2) ? "defvar" : "defcustom"), sym("name"), d);
    }
}

/* Heads with other indent specs, keyword arguments, odd first elements. */
static struct value *more(int d)
{
    switch (rnd(10)) {
    case 8:
    case 9: return emacs30(d);
    case 0: return body_of(sym(rnd(2) ? "cl-defun" : "defmacro"),
                           lisp_listv(L, sym("name"), lisp_listv(L, sym("a"), NULL), NULL), d);
    case 1: return body_of(sym(rnd(2) ? "unwind-protect" : "catch"), form(d - 1), d);
    case 2: return body_of(sym(rnd(2) ? "with-temp-buffer" : "prog1"), NULL, d);
    case 3: return lisp_listv(L, sym("macroexp-let2"), L->nil, sym("x"), form(d - 1),
                              form(d - 1), form(d - 1), NULL);
    case 4: return lisp_listv(L, sym("make-thing"), sym(no_keywords ? "key" : ":key"),
                              form(d - 1), sym(no_keywords ? "other" : ":other"),
                              form(d - 1), NULL);
    case 5: return list_of(str("doc"), 2, form, d - 1);
    case 6: return cons(value_vector(L->a, VK_VECTOR, 0), list_of(NULL, 2, form, d - 1));
    default: return list_of(num(1), 2 + (int)rnd(3), form, d - 1);
    }
}

static struct value *special(int d)
{
    switch (rnd(15)) {
    case 14: return more(d);
    case 0: return lisp_listv(L, sym("if"), form(d - 1), form(d - 1), form(d - 1), NULL);
    case 1: return body_of(sym(rnd(2) ? "let" : "let*"), list_of(NULL, 1 + (int)rnd(3), binding, d - 1), d);
    case 2: return list_of(sym("cond"), 1 + (int)rnd(4), clause, d - 1);
    case 3: return lambda(d);
    case 4: return lisp_listv(L, sym("funcall"), lambda(d - 1), form(d - 1), NULL);
    case 5: return body_of(sym(rnd(2) ? "progn" : "save-excursion"), NULL, d);
    case 6: return list_of(sym(rnd(2) ? "and" : "or"), 2 + (int)rnd(3), form, d - 1);
    case 7: return body_of(sym(rnd(2) ? "when" : "unless"), form(d - 1), d);
    case 8: return lisp_listv(L, sym("setq"), sym("x"), form(d - 1), sym("y"), form(d - 1), NULL);
    case 9: return lisp_listv(L, sym("condition-case"), sym("err"), form(d - 1),
                              list_of(sym("error"), 1, form, d - 1), NULL);
    case 10: return lisp_listv(L, sym("function"), lambda(d - 1), NULL);
    case 11: return lisp_listv(L, L->quote, datum(d - 1), NULL);
    case 12: return lisp_listv(L, L->backquote,
                               lisp_listv(L, sym("a"), lisp_listv(L, L->comma, form(d - 1), NULL),
                                          lisp_listv(L, L->comma_at, sym("rest"), NULL), NULL), NULL);
    default: return body_of(sym(rnd(2) ? "dolist" : "while"),
                            rnd(2) ? lisp_listv(L, sym("x"), form(d - 1), NULL) : form(d - 1), d);
    }
}

/* Nested tests and bindings, as in a pcase expansion, d lists deep
 * (at: lists around it).  Past 100 levels each list that closes costs
 * Emacs's parser a level for good, and a line on a level it no longer
 * has stops indent-region with an error: forms come after the deepest
 * part only on levels past what it can lose (40). */
static struct value *chain(int d, int at)
{
    static const char *const temps[] = {"pcx--x0", "pcx--x1", "pcx--x12", "val"};
    static const char *const tests[] = {"consp", "stringp", "null", "integerp"};
    if (d <= 2)
        return form(2);
    bool after = at > 40;
    switch (rnd(5)) {
    case 0:
        return lisp_listv(L, sym("let*"),
                          lisp_listv(L, lisp_listv(L, sym(PICK(temps)),
                                                   lisp_listv(L, sym(rnd(2) ? "car-safe" : "cdr-safe"),
                                                              sym(PICK(temps)), NULL),
                                                   NULL),
                                     NULL),
                          chain(d - 1, at + 1), NULL);
    case 1:
        return lisp_listv(L, sym("if"), lisp_listv(L, sym(PICK(tests)), sym(PICK(temps)), NULL),
                          chain(d - 1, at + 1), after ? form(2) : NULL, NULL);
    case 2:
        return lisp_listv(L, sym("cond"),
                          lisp_listv(L, lisp_listv(L, sym(PICK(tests)), name(), NULL),
                                     chain(d - 2, at + 2), NULL),
                          after ? lisp_listv(L, L->t, form(1), NULL) : NULL, NULL);
    case 3:
        return lisp_listv(L, sym("funcall"), body_of(L->lambda, lisp_listv(L, sym("x"), NULL), 1),
                          chain(d - 1, at + 1), NULL);
    default:
        return lisp_listv(L, sym(PICK(funcs)), form(1), chain(d - 1, at + 1), NULL);
    }
}

static struct value *datum(int d)
{
    if (d <= 0 || rnd(3) == 0)
        return rnd(5) ? name() : num((long)rnd(100));
    switch (rnd(4)) {
    case 0: return cons(name(), num((long)rnd(9)));
    case 1: {
        struct value *v = value_vector(L->a, VK_VECTOR, 3);
        for (int i = 0; i < 3; i++)
            v->u.vec.items[i] = datum(d - 1);
        return v;
    }
    default: return list_of(NULL, 1 + (int)rnd(8), datum, d - 1);
    }
}

static struct value *form(int d)
{
    if (d <= 0 || rnd(5) == 0)
        return atom();
    return rnd(3) ? special(d) : call(d);
}

/* ---- comments: some nodes get one, decided by a counter ---- */

static void comment_hook(void *ctx, const struct value *v, const struct value *holder,
                         struct pretty_hook_reply *r)
{
    unsigned *count = ctx;
    (void)v;
    (void)holder;
    if (rnd(9) != 0)
        return;
    static const char *const kinds[] = {";; note", "; right", ";;; section", ";;"};
    struct pretty_comment *c = arena_zalloc(L->a, sizeof *c);
    char *t = arena_alloc(L->a, 32);
    snprintf(t, 32, "%s %u", kinds[rnd(4)], (*count)++);
    c->text = (const uint8_t *)t;
    c->len = strlen(t);
    r->comments = c;
}

static void emit(struct value *v, int col, int width, bool comments)
{
    static unsigned count;
    struct pretty_opts o = {.width = width, .depth = col ? 1 : 0, .emulate = emulate};
    if (comments) {
        o.comments = comment_hook;
        o.comment_ctx = &count;
    }
    struct buf b;
    buf_init(&b, L->a);
    if (col == 0) {
        buf_puts(&b, "");
    } else if (col == 1) {
        buf_puts(&b, "(");
    } else {
        buf_puts(&b, "(");
        for (int i = 0; i < col - 2; i++)
            buf_putc(&b, 'w');
        buf_putc(&b, ' ');
    }
    if (!pretty_print(L, &o, &b, v, col, col ? 1 : 0)) {
        fprintf(stderr, "indent_gen: cannot print a generated form\n");
        exit(2);
    }
    if (col)
        buf_putc(&b, ')');
    printf(";; width %d column %d\n%s\n\n", width, col, buf_cstr(&b));
}

/* v inside `depth` lists, one wrapper line each: "(w" at columns 0,
 * 1, ... and v after the last one. */
static void emit_deep(struct value *v, int depth, int width, bool comments)
{
    static unsigned count;
    struct pretty_opts o = {.width = width, .depth = depth, .emulate = emulate};
    if (comments) {
        o.comments = comment_hook;
        o.comment_ctx = &count;
    }
    struct buf b;
    buf_init(&b, L->a);
    for (int k = 0; k < depth; k++) {
        for (int i = 0; i < k; i++)
            buf_putc(&b, ' ');
        buf_puts(&b, k + 1 < depth ? "(w\n" : "(w ");
    }
    if (!pretty_print(L, &o, &b, v, depth + 2, depth)) {
        fprintf(stderr, "indent_gen: cannot print a generated form\n");
        exit(2);
    }
    for (int k = 0; k < depth; k++)
        buf_putc(&b, ')');
    printf(";; width %d depth %d\n%s\n\n", width, depth, buf_cstr(&b));
}

/* ---- expansions of real files ---- */

static const struct value *origin(void *ctx, const struct value *v)
{
    return expand_origin(ctx, v);
}

/* Display column where site span sp starts; *alone: only blanks
 * precede it on its line. */
static int site_column(const uint8_t *text, struct span sp, bool *alone)
{
    size_t ls = sp.start;
    while (ls > 0 && text[ls - 1] != '\n')
        ls--;
    *alone = true;
    for (size_t k = ls; k < sp.start; k++)
        if (text[k] != ' ' && text[k] != '\t')
            *alone = false;
    return pretty_advance(text + ls, sp.start - ls, 0);
}

/* Every replaced form of the file, each in a wrapper that puts its first
 * line at its column: "(ww x" + newline + indentation + text + ")".  (A
 * form whose expansion and the lists around it in the file pass 100
 * levels is laid out for those lists, not the wrapper's one: the corpus
 * check, which indents it in its file, covers those.) */
static int sites_of(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return fprintf(stderr, "indent_gen: cannot open %s\n", path), 2;
    struct arena *a = arena_new(NULL);
    struct buf in;
    buf_init(&in, a);
    char chunk[65536];
    for (size_t got; (got = fread(chunk, 1, sizeof chunk, fp)) > 0;)
        buf_put(&in, chunk, got);
    fclose(fp);
    L = intern_new(a);
    struct read_result r;
    struct diag_list diags;
    diag_init(&diags, a);
    if (!read_source(L, (const uint8_t *)in.data, in.len, &r))
        return fprintf(stderr, "indent_gen: %s does not read\n", path), 2;
    struct expand_ctx x;
    expand_init(&x, L, &diags, &r);
    x.macros = pcase_macros_new(L);
    struct splice_site *sites = NULL;
    size_t n = 0;
    for (size_t i = 0; i < r.n_forms; i++) {
        if (!expand_form(&x, r.forms[i].v))
            continue;
        sites = arena_grow(a, sites, n * sizeof *sites, (n + x.n_sites) * sizeof *sites);
        for (size_t k = 0; k < x.n_sites; k++)
            sites[n++] = (struct splice_site){x.sites[k].orig, x.sites[k].expansion};
    }
    struct splice_in si = {.L = L, .text = (const uint8_t *)in.data, .len = in.len,
                           .src = &r, .sites = sites, .n_sites = n};
    si.pretty.width = 80;
    si.pretty.emulate = emulate;
    si.pretty.sym_text = gensym_text;
    si.pretty.sym_ctx = expand_gensyms(&x);
    si.origin = origin;
    si.origin_ctx = &x;
    si.begin_form = gensym_begin_form_cb;
    si.begin_ctx = expand_gensyms(&x);
    struct splice_text *texts = arena_zalloc(a, (n + 1) * sizeof *texts);
    struct buf out;
    buf_init(&out, a);
    if (!splice_source(&si, &out, texts))
        return fprintf(stderr, "indent_gen: splicing %s failed\n", path), 2;
    for (size_t i = 0; i < n; i++) {
        struct span sp;
        read_origin_span(&r, sites[i].orig, &sp);
        bool alone;
        int col = site_column(si.text, sp, &alone);
        if ((!alone && texts[i].text[0] == ';') || col == 1)
            continue; /* on a line of its own at another column; or no wrapper */
        printf(";; %s site %zu\n", path, i);
        if (col == 0) {
            printf("%s\n\n", texts[i].text);
            continue;
        }
        putchar('(');
        for (int k = 0; k < col - 2; k++)
            putchar('w');
        printf(" x\n%*s%s)\n\n", col, "", texts[i].text);
    }
    arena_free(a);
    return 0;
}

int main(int argc, char **argv)
{
    bool deep = false;
    for (; argc > 1 && argv[1][0] == '-' && argv[1][1] == '-'; argc--, argv++) {
        if (strcmp(argv[1], "--emulate") == 0) {
            emulate = true;
        } else if (strcmp(argv[1], "--deep") == 0) {
            deep = no_keywords = true;
        } else if (strcmp(argv[1], "--sites") == 0) {
            int rc = 0;
            for (int i = 2; i < argc; i++)
                rc |= sites_of(argv[i]);
            return rc;
        }
    }
    int n = argc > 1 ? atoi(argv[1]) : 12;
    if (deep) {
        struct arena *a = arena_new(NULL);
        L = intern_new(a);
        printf(";;; generated by indent_gen --deep; checked with indent-region  -*- lexical-binding: t -*-\n\n");
        for (int i = 0; i < n; i++) /* forms passing 100 levels */
            emit_deep(chain(95 + (int)rnd(30), 0), 1 + (int)rnd(4), i % 3 ? 80 : 200, i % 4 == 1);
        arena_free(a);
        return 0;
    }
    static const int widths[] = {30, 50, 80};
    static const int cols[] = {0, 1, 3, 6, 11, 20, 33};
    struct arena *a = arena_new(NULL);
    L = intern_new(a);
    printf(";;; generated by indent_gen; checked with indent-region  -*- lexical-binding: t -*-\n\n");
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
            for (int i = 0; i < n; i++)
                emit(form(2 + (int)rnd(4)), cols[c], widths[w], i % 2 == 1);
    arena_free(a);
    return 0;
}
