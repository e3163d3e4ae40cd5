/* test_pcase_macros.c - pattern macros and the rx translation.
 *
 * cases.txt: directives with the exact rewrite and diagnostics (code,
 * message, source text) each must produce; rx-cases.tsv: regexps and
 * errors Emacs 30.1's rx gives, definitions included (gen-rx-cases.el);
 * then table order, regexp-opt, the rx definition environment, per-file
 * forgetting and deep input that must be an error, not a crash.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand/expand.h"
#include "expand/learn.h"
#include "expand/pcase_macros.h"
#include "expand/rx.h"
#include "lisp/print.h"
#include "syntax/read.h"

/* ---- fixture ---- */

struct fx {
    struct arena *a;
    struct lisp *L;
    struct diag_list diags;
    struct expand_ctx x;
    size_t seen;               /* diagnostics already reported */
    const struct read_result *src;
};

static struct fx *fx_new(void)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->a = support_arena();
    f->L = intern_new(f->a);
    diag_init(&f->diags, f->a);
    expand_init(&f->x, f->L, &f->diags, NULL);
    f->x.max_depth = 300; /* cases.txt expects this rewrite limit */
    return f;
}

static void fx_free(struct fx *f)
{
    arena_free(f->a);
    test_free(f);
}

static const char *show(struct fx *f, const struct value *v)
{
    return support_print(f->L, v);
}

/* Read the one form of text, keeping its origins for diagnostics. */
static struct value *read_text(struct fx *f, const char *text)
{
    struct read_result *r = ARENA_NEW(f->a, struct read_result);
    size_t n = strlen(text);
    if (!read_source(f->L, (const uint8_t *)text, n, r) || r->n_forms != 1)
        fail_msg("cannot read one form from: %s", text);
    f->src = r;
    f->x.src = r;
    return r->forms[0].v;
}

/* ---- cases.txt ---- */

struct lines {
    const char **v;
    size_t n, cap;
};

static void lines_add(struct fx *f, struct lines *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap * 2 + 8;
        l->v = arena_grow(f->a, l->v, l->cap * sizeof *l->v, cap * sizeof *l->v);
        l->cap = cap;
    }
    l->v[l->n++] = s;
}

/* New diagnostics as "SEV CODE: MESSAGE @ TEXT" lines. */
static void collect_diags(struct fx *f, const char *text, struct lines *out)
{
    for (; f->seen < f->diags.n; f->seen++) {
        const struct diag *d = &f->diags.items[f->seen];
        struct buf b;
        buf_init(&b, f->a);
        buf_printf(&b, "%s %s: %s", support_severity(d->sev), d->code, d->message);
        if (text && d->end > d->start && d->end <= strlen(text))
            buf_printf(&b, " @ %.*s", (int)(d->end - d->start), text + d->start);
        lines_add(f, out, buf_cstr(&b));
    }
}

static enum pcase_macros_struct_type struct_type(const char *s)
{
    if (strcmp(s, "vector") == 0)
        return PCASE_STRUCT_VECTOR;
    return strcmp(s, "list") == 0 ? PCASE_STRUCT_LIST : PCASE_STRUCT_RECORD;
}

/* struct NAME TYPE named|unnamed (SLOTS...) */
static void do_struct(struct fx *f, const char *arg)
{
    char name[64], type[16], named[16];
    int used = 0;
    if (sscanf(arg, "%63s %15s %15s %n", name, type, named, &used) != 3)
        fail_msg("bad struct directive: %s", arg);
    pcase_macros_define_struct(&f->x, intern_cstr(f->L, name), struct_type(type),
                               strcmp(named, "named") == 0, read_text(f, arg + used));
}

/* builtins NAME... (the families to leave enabled) */
static void do_builtins(struct fx *f, const char *arg)
{
    static const struct { const char *name; unsigned bit; } fam[] = {
        {"seq", PCASE_MACROS_SEQ}, {"map", PCASE_MACROS_MAP},
        {"rx", PCASE_MACROS_RX}, {"cl-type", PCASE_MACROS_CL_TYPE},
        {"cl-struct", PCASE_MACROS_CL_STRUCT}, {"eieio", PCASE_MACROS_EIEIO},
    };
    unsigned mask = 0;
    for (size_t i = 0; i < sizeof fam / sizeof *fam; i++)
        if (strstr(arg, fam[i].name))
            mask |= fam[i].bit;
    pcase_macros_set_builtins(f->x.macros, mask);
}

/* Run one directive; its output lines go to out. */
static void run_directive(struct fx *f, const char *line, struct lines *out)
{
    const char *sp = strchr(line, ' ');
    size_t klen = sp ? (size_t)(sp - line) : strlen(line);
    const char *arg = sp ? sp + 1 : "";
    if (!f->x.macros)
        f->x.macros = pcase_macros_new(f->L);
    if (strncmp(line, "expand", klen) == 0) {
        struct value *r = pcase_macros_expand(&f->x, read_text(f, arg));
        lines_add(f, out, r ? show(f, r) : "NULL");
    } else if (strncmp(line, "learn", klen) == 0) {
        struct value *form = read_text(f, arg);
        bool ok = pcase_macros_learn(&f->x, form);
        lines_add(f, out, ok ? "learned" : "ignored");
        if (!ok) /* what expand_form reports for it */
            pcase_macros_check_definition(&f->x, form);
    } else if (strncmp(line, "define", klen) == 0) {
        struct value *v = read_text(f, arg);
        bool ok = pcase_macros_define_template(&f->x, value_car(v),
            value_car(value_cdr(v)), value_car(value_cdr(value_cdr(v))));
        lines_add(f, out, ok ? "defined" : "rejected");
    } else if (strncmp(line, "struct", klen) == 0)
        do_struct(f, arg);
    else if (strncmp(line, "builtins", klen) == 0)
        do_builtins(f, arg);
    else if (strncmp(line, "newfile", klen) == 0)
        pcase_macros_begin_file(f->x.macros);
    else
        fail_msg("unknown directive: %s", line);
    collect_diags(f, arg, out);
}

static void compare(const char *directive, size_t lineno, const struct lines *want,
                    const struct lines *got)
{
    for (size_t i = 0; i < want->n || i < got->n; i++) {
        const char *w = i < want->n ? want->v[i] : "(nothing)";
        const char *g = i < got->n ? got->v[i] : "(nothing)";
        if (strcmp(w, g) != 0)
            fail_msg("cases.txt:%zu: %s\n  want: %s\n  got:  %s", lineno, directive,
                     w, g);
    }
}

/* Next line of *p (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **p)
{
    if (!*p || !**p)
        return NULL;
    char *line = *p, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else
        *p = line + strlen(line);
    return line;
}

static void test_cases_file(void **state)
{
    (void)state;
    size_t n;
    char *text = support_slurp(support_testdata("expand/pcase-macros/cases.txt"), &n);
    struct fx *f = fx_new();
    const char *directive = NULL;
    size_t at = 0, lineno = 0, ran = 0;
    struct lines want = {0}, got = {0};
    char *rest = text;
    for (char *line = next_line(&rest);; line = next_line(&rest)) {
        lineno++;
        if (line && strncmp(line, "=> ", 3) == 0) {
            lines_add(f, &want, line + 3);
            continue;
        }
        if (directive) {
            compare(directive, at, &want, &got);
            ran++;
        }
        if (!line)
            break;
        directive = NULL;
        want.n = got.n = 0;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        directive = line;
        at = lineno;
        run_directive(f, line, &got);
    }
    assert_true(ran > 50);
    fx_free(f);
    test_free(text);
}

/* ---- rx-cases.tsv ---- */

static bool head_is(struct fx *f, struct value *form, const char *name)
{
    return value_consp(form) && value_car(form) == intern_cstr(f->L, name);
}

/* The expected column of one row of rx-cases.tsv (rx-case.el): an
 * rx-define row defines for the rows after it ("defined"), an rx-let row
 * translates its form inside its scopes. */
static void rx_row(struct fx *f, struct rx_env *env, struct value *form,
                   struct buf *b)
{
    struct print_opts o = print_opts_default();
    o.escape_newlines = o.escape_control = true;
    struct rx_error err = {RX_ERR_NONE, NULL, NULL};
    struct value *r = NULL;
    size_t scopes = 0;
    if (head_is(f, form, "rx-define")) {
        buf_puts(b, rx_define_form(env, form, &err) ? "defined" : "");
        form = NULL;
    }
    while (form && head_is(f, form, "rx-let")) {
        if (!rx_env_push_let(env, value_car(value_cdr(form)), &err)) {
            form = NULL;
            break;
        }
        scopes++;
        form = value_car(value_cdr(value_cdr(form)));
    }
    if (form && (r = rx_translate(f->L, env, true, form, &err)))
        print_value(f->L, b, r, &o);
    else if (err.kind != RX_ERR_NONE) {
        buf_puts(b, "ERROR\t");
        /* control characters as rx-case.el writes them: \OOO */
        for (const char *m = err.message ? err.message : "(no message)"; *m; m++) {
            unsigned char c = (unsigned char)*m;
            if (c < 0x20 || c == 0x7F)
                buf_printf(b, "\\%03o", c);
            else
                buf_putc(b, (char)c);
        }
    }
    while (scopes-- > 0)
        rx_env_pop(env);
}

static void test_rx_cases(void **state)
{
    (void)state;
    size_t n, rows = 0, bad = 0;
    char *text = support_slurp(support_testdata("expand/pcase-macros/rx-cases.tsv"), &n);
    struct fx *f = fx_new();
    struct rx_env *env = rx_env_new(f->L);
    char *rest = text;
    for (char *line = next_line(&rest); line; line = next_line(&rest)) {
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = '\0';
        struct buf b;
        buf_init(&b, f->a);
        rx_row(f, env, read_text(f, line), &b);
        if (strcmp(buf_cstr(&b), tab + 1) != 0) {
            print_message("rx %s\n  want: %s\n  got:  %s\n", line, tab + 1, buf_cstr(&b));
            bad++;
        }
        rows++;
    }
    assert_int_equal(bad, 0);
    assert_true(rows > 500);
    fx_free(f);
    test_free(text);
}

/* ---- direct tests ---- */

static void test_tables_sorted(void **state)
{
    (void)state;
    assert_true(pcase_macros_tables_sorted());
    assert_true(rx_tables_sorted());
    assert_true(learn_tables_sorted());
    assert_true(learn_is_definition_head("defmacro"));
    assert_false(learn_is_definition_head("defcustom")); /* listed, learns nothing */
}

/* learn_form: definitions in progn-like bodies, defalias, constants read
 * by an evaluated pattern macro, a definer macro that defines a helper
 * function and a pattern macro, a macro that expands to itself. */
static void test_learn(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct expand_ctx *x = &f->x;
    x->macros = pcase_macros_new(f->L);
    static const char *const forms[] = {
        "(eval-and-compile (progn (defconst my-pred 'natnump)))",
        "(defalias 'my-wrap #'list)",
        "(defmacro def-pat (name fn)"
        "  `(progn (defun ,(intern (format \"%s--fn\" name)) (v) (my-wrap 'pred (list ',fn v)))"
        "          (pcase-defmacro ,name (v) (,(intern (format \"%s--fn\" name)) v))))",
        "(def-pat above-zero <)",
        "(pcase-defmacro nat (v) (list 'and (list 'pred my-pred) v))",
        "(defmacro again () '(again))",
        "(again)",
        "(progn . #1=((a) . #1#))",
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
        learn_form(x, read_text(f, forms[i]));
    assert_non_null(learn_function(x, intern_cstr(f->L, "above-zero--fn")));
    assert_true(learn_function(x, intern_cstr(f->L, "def-pat"))->macro);
    assert_null(learn_function(x, intern_cstr(f->L, "buffer-name")));
    assert_string_equal(show(f, pcase_macros_expand(x, read_text(f, "(above-zero 0)"))),
                        "(pred (< 0))");
    assert_string_equal(show(f, pcase_macros_expand(x, read_text(f, "(nat n)"))),
                        "(and (pred natnump) n)");
    assert_int_equal(f->diags.n, 0);
    fx_free(f);
}

static const char *opt(struct fx *f, const char *const *strs, size_t n)
{
    struct rx_str **v = ARENA_NEWN(f->a, struct rx_str *, n);
    for (size_t i = 0; i < n; i++) {
        v[i] = rx_str_new(f->a);
        rx_str_puts(f->a, v[i], strs[i]);
    }
    struct value *s = rx_str_value(f->a, rx_regexp_opt(f->a, v, n));
    return show(f, s);
}

/* Outputs of Emacs 30.1's (regexp-opt LIST). */
static void test_regexp_opt(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    static const char *const a[] = {"a", "ab", "b"};
    static const char *const b[] = {"abc", "abd", "xbd", ""};
    static const char *const c[] = {"foo", "bar", "baz"};
    static const char *const d[] = {"ad", "d"};
    static const char *const e[] = {"x", "x", "y"};
    static const char *const g[] = {"-", "^"};
    static const char *const h[] = {"cd", "ab", "cd", "ab", "ab"};
    assert_string_equal(opt(f, a, 3), "\"\\\\(?:ab\\\\|[ab]\\\\)\"");
    assert_string_equal(opt(f, b, 4), "\"\\\\(?:ab[cd]\\\\|xbd\\\\)?\"");
    assert_string_equal(opt(f, c, 3), "\"\\\\(?:ba[rz]\\\\|foo\\\\)\"");
    assert_string_equal(opt(f, d, 2), "\"\\\\(?:a?d\\\\)\"");
    assert_string_equal(opt(f, e, 3), "\"[xy]\"");
    assert_string_equal(opt(f, g, 2), "\"[-^]\"");
    assert_string_equal(opt(f, h, 5), "\"\\\\(?:ab\\\\|cd\\\\)\"");
    assert_string_equal(opt(f, NULL, 0), "\"\\\\(?:\\\\`a\\\\`\\\\)\"");
    fx_free(f);
}

/* ---- the rx definition environment ---- */

/* The printed translation of text in env (locals: rx-let scopes seen), or
 * "ERROR KIND: MESSAGE". */
static const char *rx_of(struct fx *f, struct rx_env *env, bool locals, const char *text)
{
    struct rx_error err;
    struct value *r = rx_translate(f->L, env, locals, read_text(f, text), &err);
    if (r)
        return show(f, r);
    struct buf b;
    buf_init(&b, f->a);
    buf_printf(&b, "ERROR %d: %s", (int)err.kind, err.message ? err.message : "");
    return buf_cstr(&b);
}

static void let(struct fx *f, struct rx_env *env, const char *bindings)
{
    struct rx_error err;
    assert_true(rx_env_push_let(env, read_text(f, bindings), &err));
}

/* rx_define_add (the entry point for definitions of other files): with
 * and without an argument list, Emacs's checks, and forgotten with the
 * file. */
static void test_rx_define_add(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct rx_env *env = rx_env_new(f->L);
    struct rx_error err;
    struct value *name = intern_cstr(f->L, "ra-num");
    assert_true(rx_define_add(env, name, NULL, read_text(f, "(+ digit)"), &err));
    assert_true(rx_define_add(env, intern_cstr(f->L, "ra-kv"), read_text(f, "(k &rest v)"),
                              read_text(f, "(seq k \"=\" v)"), &err));
    assert_string_equal(rx_of(f, env, true, "(seq (ra-kv \"a\" ra-num \"!\"))"),
                        "\"a=[[:digit:]]+!\"");
    assert_false(rx_define_add(env, intern_cstr(f->L, "digit"), NULL,
                               read_text(f, "\"d\""), &err));
    assert_int_equal(err.kind, RX_ERR_FORM);
    assert_string_equal(err.message, "Cannot redefine built-in rx name `digit'");
    assert_false(rx_define_add(env, name, read_text(f, "(a . b)"), read_text(f, "a"), &err));
    assert_string_equal(err.message, "Wrong type argument: listp, b");
    assert_false(rx_define_form(env, read_text(f, "(rx-let ((a \"b\")) 1)"), &err));
    assert_int_equal(err.kind, RX_ERR_NONE);
    /* the refused definitions left the earlier one in place */
    assert_string_equal(rx_of(f, env, true, "(seq ra-num)"), "\"[[:digit:]]+\"");
    rx_env_begin_file(env);
    assert_string_equal(rx_of(f, env, true, "(seq ra-num)"),
                        "(rx-to-string '(seq ra-num) t)");
    fx_free(f);
}

/* rx-let scopes: local over global, inner over outer, the first binding
 * of a scope, a refused scope entering nothing, and cond*'s rx (no
 * locals) seeing the global definitions only. */
static void test_rx_scopes(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct rx_env *env = rx_env_new(f->L);
    struct rx_error err;
    assert_true(rx_define_form(env, read_text(f, "(rx-define rs-a \"global\")"), &err));
    let(f, env, "((rs-a \"outer\") (rs-b (x) (seq rs-a x)))");
    assert_string_equal(rx_of(f, env, true, "(seq (rs-b \"!\"))"), "\"outer!\"");
    let(f, env, "((rs-a \"inner\") (rs-a \"second\"))");
    /* a definition's body sees the definitions where it is used */
    assert_string_equal(rx_of(f, env, true, "(seq (rs-b \"!\"))"), "\"inner!\"");
    assert_false(rx_env_push_let(env, read_text(f, "((rs-a \"x\") (1 \"y\"))"), &err));
    assert_string_equal(err.message, "Bad `rx' definition name: 1");
    assert_string_equal(rx_of(f, env, true, "(seq rs-a)"), "\"inner\"");
    assert_string_equal(rx_of(f, env, false, "(seq rs-a)"), "\"global\"");
    assert_string_equal(rx_of(f, env, false, "(seq (rs-b \"!\"))"),
                        "(rx-to-string '(seq (rs-b \"!\")) t)");
    rx_env_pop(env);
    assert_string_equal(rx_of(f, env, true, "(seq rs-a)"), "\"outer\"");
    rx_env_pop(env);
    assert_string_equal(rx_of(f, env, true, "(seq rs-a)"), "\"global\"");
    rx_env_pop(env); /* nothing open: nothing happens */
    assert_string_equal(rx_of(f, env, true, "(seq rs-a)"), "\"global\"");
    fx_free(f);
}

/* A name nobody defines here: a run-time rx-to-string, except inside
 * rx-let, whose definitions the run-time translation would not see. */
static void test_rx_unknown_in_scope(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct rx_env *env = rx_env_new(f->L);
    assert_string_equal(rx_of(f, env, true, "(seq \"a\" ru-elsewhere)"),
                        "(rx-to-string '(seq \"a\" ru-elsewhere) t)");
    let(f, env, "((ru-local \"l\"))");
    assert_string_equal(rx_of(f, env, true, "(seq ru-local ru-elsewhere)"),
                        "ERROR 3: rx name `ru-elsewhere' is not defined here, so the regexp "
                        "would be computed at run time, where the rx-let definitions around "
                        "it are not seen");
    assert_string_equal(rx_of(f, env, true, "(seq (eval (ru-f)))"),
                        "ERROR 3: rx `eval' of a non-constant expression needs the regexp "
                        "computed at run time, where the rx-let definitions around it are "
                        "not seen");
    assert_string_equal(rx_of(f, env, false, "(seq ru-elsewhere)"),
                        "(rx-to-string '(seq ru-elsewhere) t)");
    fx_free(f);
}

/* Definitions that never finish expanding end with an error at the
 * recursion, not a hang or a stack overflow: a plain name inside itself
 * (directly, through another name, through rx-let), a form that calls
 * itself, and definitions that double their text at each level. */
static void test_rx_recursion(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct rx_env *env = rx_env_new(f->L);
    struct rx_error err;
    static const char *const defs[] = {
        "(rx-define rr-self (or \"a\" rr-self))",
        "(rx-define rr-ping (seq \"p\" rr-pong))",
        "(rx-define rr-pong (* rr-ping))",
        "(rx-define rr-call (x) (seq x (rr-call x)))",
        "(rx-define rr-dbl (x) (seq x x))",
        "(rx-define rr-rest (&rest x) (rr-rest x x))",
    };
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++)
        assert_true(rx_define_form(env, read_text(f, defs[i]), &err));
    struct buf big;
    buf_init(&big, f->a);
    buf_puts(&big, "(rx-define rr-big ");
    for (int i = 0; i < 40; i++)
        buf_puts(&big, "(rr-dbl ");
    buf_puts(&big, "\"a\"");
    for (int i = 0; i < 41; i++)
        buf_putc(&big, ')');
    assert_true(rx_define_form(env, read_text(f, buf_cstr(&big)), &err));
    static const struct {
        const char *form, *message;
    } cases[] = {
        {"(seq \"x\" rr-self)", "rx definition `rr-self' expands into itself"},
        {"(seq (not rr-self))", "rx definition `rr-self' expands into itself"},
        {"(seq rr-ping)", "rx definition `rr-ping' expands into itself"},
        {"(seq (rr-call \"a\"))", "rx pattern nested too deeply"},
        {"(seq rr-big)", "rx pattern too large: more than 1000000 steps to translate "
                         "it, its definitions expanded"},
        {"(seq (rr-rest \"a\"))", "rx pattern too large: more than 1000000 steps to "
                                  "translate it, its definitions expanded"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_null(rx_translate(f->L, env, true, read_text(f, cases[i].form), &err));
        assert_int_equal(err.kind, RX_ERR_TOO_DEEP);
        assert_string_equal(err.message, cases[i].message);
        assert_non_null(err.at);
    }
    /* the self-reference is reported at the name inside the definition */
    let(f, env, "((rr-loc (seq \"b\" rr-loc)))");
    assert_null(rx_translate(f->L, env, true, read_text(f, "(seq rr-loc)"), &err));
    assert_ptr_equal(err.at, intern_cstr(f->L, "rr-loc"));
    assert_string_equal(err.message, "rx definition `rr-loc' expands into itself");
    fx_free(f);
}

/* Definitions learned from one file are forgotten for the next; declared
 * ones stay. */
static void test_begin_file(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct expand_ctx *x = &f->x;
    assert_true(pcase_macros_learn(x, read_text(f, "(pcase-defmacro ff (a) `(pred ,a))")));
    struct value *args = read_text(f, "(a)");
    assert_true(pcase_macros_define_template(x, intern_cstr(f->L, "cf"), args,
                                             read_text(f, "`(pred ,a)")));
    assert_true(pcase_macros_learn(x, read_text(f, "(cl-defstruct sf a)")));
    assert_true(pcase_macros_is_macro(x, intern_cstr(f->L, "ff")));
    pcase_macros_begin_file(x->macros);
    assert_false(pcase_macros_is_macro(x, intern_cstr(f->L, "ff")));
    assert_true(pcase_macros_is_macro(x, intern_cstr(f->L, "cf")));
    assert_true(pcase_macros_is_macro(x, intern_cstr(f->L, "seq")));
    assert_false(pcase_macros_is_macro(x, intern_cstr(f->L, "and")));
    assert_false(pcase_macros_is_macro(x, intern_cstr(f->L, "quote")));
    /* the layout is forgotten: slots are read at run time, with a note */
    assert_string_equal(show(f, pcase_macros_expand(x, read_text(f, "(cl-struct sf a)"))),
                        "(and (pred (cl-typep _ 'sf)) (app (cl-struct-slot-value 'sf 'a) a))");
    assert_int_equal(f->diags.n_errors, 0);
    assert_string_equal(f->diags.items[0].code, "struct-layout-unknown");
    assert_int_equal(f->diags.items[0].sev, DIAG_NOTE);
    fx_free(f);
}

/* Text of depth nested lists: PRE ... ATOM ... ")" */
static const char *nested(struct fx *f, const char *pre, const char *atom, int depth)
{
    struct buf b;
    buf_init(&b, f->a);
    for (int i = 0; i < depth; i++)
        buf_puts(&b, pre);
    buf_puts(&b, atom);
    for (int i = 0; i < depth; i++)
        buf_putc(&b, ')');
    return buf_cstr(&b);
}

/* Deep rx input is a nesting-too-deep error, not a stack overflow. */
static void test_deep_rx(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    struct value *p = read_text(f, nested(f, "(seq ", "\"a\"", 20000));
    struct value *pat = value_cons(f->a, intern_cstr(f->L, "rx"),
                                   value_cons(f->a, p, f->L->nil));
    assert_null(pcase_macros_expand(&f->x, pat));
    assert_int_equal(f->diags.n_errors, 1);
    assert_string_equal(f->diags.items[0].code, "nesting-too-deep");
    struct rx_error err;
    assert_null(rx_translate(f->L, NULL, true, read_text(f, nested(f, "(or \"b\" ", "\"a\"", 20000)), &err));
    assert_int_equal(err.kind, RX_ERR_TOO_DEEP);
    fx_free(f);
}

/* A template deeper than the limit is not a template, not walked
 * recursively: it is evaluated at the use, where the evaluator's depth
 * limit stops it with an error. */
static void test_deep_template(void **state)
{
    (void)state;
    struct fx *f = fx_new();
    const char *body = nested(f, "(and ", ",a", 20000);
    struct buf b;
    buf_init(&b, f->a);
    buf_printf(&b, "(pcase-defmacro deep (a) `%s)", body);
    assert_true(pcase_macros_learn(&f->x, read_text(f, buf_cstr(&b))));
    assert_true(pcase_macros_is_macro(&f->x, intern_cstr(f->L, "deep")));
    assert_null(pcase_macros_expand(&f->x, read_text(f, "(deep x)")));
    assert_int_equal(f->diags.n_errors, 1);
    assert_string_equal(f->diags.items[0].code, "nesting-too-deep");
    assert_string_equal(f->diags.items[0].message,
                        "pattern macro deep: the evaluation nested more than 500 levels deep");
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_sorted),
        cmocka_unit_test(test_learn),
        cmocka_unit_test(test_regexp_opt),
        cmocka_unit_test(test_cases_file),
        cmocka_unit_test(test_rx_cases),
        cmocka_unit_test(test_begin_file),
        cmocka_unit_test(test_rx_define_add),
        cmocka_unit_test(test_rx_scopes),
        cmocka_unit_test(test_rx_unknown_in_scope),
        cmocka_unit_test(test_rx_recursion),
        cmocka_unit_test(test_deep_rx),
        cmocka_unit_test(test_deep_template),
    };
    return SUPPORT_RUN(tests);
}
