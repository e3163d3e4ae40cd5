/* fuzz_pattern.c - libFuzzer target: structure-aware pattern trees.
 *
 * The fuzzer's bytes are choices in a small grammar of pcase-family and
 * cond* forms (nested and/or/pred/app/guard/let, backquote and vector
 * patterns, the library pattern macros, pattern macros defined in the
 * input, match*, bind* and pcase* clauses, nested expandable forms in
 * bodies), so that deep combinations are reached quickly instead of
 * mostly read errors.  The generated text is run twice, computed cache on and off:
 * the outputs and diagnostics must be identical, free of internal errors,
 * and a successful output must read back.  With PCX_FUZZ_SHOW set in the
 * environment the generated text is printed to standard error.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits that keep one input's text small and its expansion fast. */
#define GEN_MAX_DEPTH 14
#define GEN_MAX_TEXT (16 * 1024)

struct gen {
    const uint8_t *p; /* choices left */
    size_t n;
    char *text;       /* generated source (malloc'd) */
    size_t len, cap;
    int depth;
};

/* A choice among k; 0 once the bytes are used up (the shortest forms). */
static unsigned pick(struct gen *g, unsigned k)
{
    if (g->n == 0 || k <= 1)
        return 0;
    g->n--;
    return *g->p++ % k;
}

static void put(struct gen *g, const char *s)
{
    size_t n = strlen(s);
    if (g->len + n + 1 > g->cap) {
        size_t cap = (g->len + n + 1) * 2;
        char *t = realloc(g->text, cap);
        if (!t)
            abort();
        g->text = t;
        g->cap = cap;
    }
    memcpy(g->text + g->len, s, n + 1);
    g->len += n;
}

static void put_of(struct gen *g, const char *const *words, size_t n)
{
    put(g, words[pick(g, (unsigned)n)]);
}

#define PUT_OF(g, words) put_of((g), (words), sizeof(words) / sizeof(words)[0])

/* Room for more structure? */
static bool deep(const struct gen *g)
{
    return g->depth >= GEN_MAX_DEPTH || g->len > GEN_MAX_TEXT || g->n == 0;
}

static const char *const vars[] = {"x", "y", "z", "a", "b", "_", "_v", "val", "x"};
static const char *const atoms[] = {
    "1", "0", "-1", "42", "1.0", "-0.0", "nil", "t", "foo", ":key", "\"s\"",
    "\"\"", "?a", "#x10", "most-positive-fixnum", "123456789012345678901234",
    "[1 2]", "(1 . 2)", "\"\\n\\t\"", "?\\C-a", "1e3", "#s(r 1)", "\\,",
};
static const char *const funs[] = {
    "consp", "integerp", "stringp", "symbolp", "null", "numberp", "vectorp",
    "p1", "identity", "(lambda (v) (> v 1))", "#'car", "car", "cdr",
    "(not consp)", "(eq 'foo)", "(< 2)", "(memq _ '(a b))", "(f1 _ 1)",
    "(f2 1 _)", "(f3 x)", "(> _ x)",
};

static void gen_pat(struct gen *g);
static void gen_expr(struct gen *g);
static void gen_form(struct gen *g);

/* n items produced by f, separated by spaces. */
static void gen_list(struct gen *g, void (*f)(struct gen *), unsigned max)
{
    unsigned n = pick(g, max + 1);
    for (unsigned i = 0; i < n && !deep(g); i++) {
        put(g, " ");
        f(g);
    }
}

/* Backquote pattern inside "`": structure with , and ,@. */
static void gen_qpat(struct gen *g)
{
    if (deep(g)) {
        PUT_OF(g, atoms);
        return;
    }
    g->depth++;
    switch (pick(g, 8)) {
    case 0: PUT_OF(g, atoms); break;
    case 1: case 2: put(g, ","); gen_pat(g); break;
    case 3: put(g, "("); gen_qpat(g); put(g, " . "); gen_qpat(g); put(g, ")"); break;
    case 4: put(g, "("); gen_qpat(g); gen_list(g, gen_qpat, 4); put(g, ")"); break;
    case 5: put(g, "["); gen_list(g, gen_qpat, 3); put(g, "]"); break;
    case 6: put(g, ",@"); gen_pat(g); break;
    default: put(g, "()"); break;
    }
    g->depth--;
}

static void gen_fun(struct gen *g) { PUT_OF(g, funs); }

/* seq / map / rx / cl-type / cl-struct / eieio patterns. */
static void gen_lib_pat(struct gen *g)
{
    static const char *const rx[] = {
        "\"a\"", "(or \"a\" \"b\")", "(let v (+ digit))", "(backref 1)",
        "(seq bol (* any) eol)", "(group-n 2 (any \"a-z\"))", "(literal x)",
        "(regexp x)", "(let x (? \"b\"))", "(= 3 \"x\")", "nonl",
    };
    static const char *const types[] = {"integer", "(or null string)",
                                        "(integer 0 9)", "list", "cons", "frob"};
    switch (pick(g, 7)) {
    case 0: put(g, "(seq"); gen_list(g, gen_pat, 3);
        if (pick(g, 2)) { put(g, " &rest "); gen_pat(g); }
        put(g, ")"); break;
    case 1: put(g, "(map");
        for (unsigned i = pick(g, 4); i > 0 && !deep(g); i--) {
            put(g, pick(g, 2) ? " :k" : " ('k ");
            if (g->text[g->len - 1] == ' ') { gen_pat(g);
                if (pick(g, 2)) { put(g, " "); gen_expr(g); } put(g, ")"); }
        }
        put(g, ")"); break;
    case 2: put(g, "(rx"); for (unsigned i = pick(g, 4); i > 0; i--) { put(g, " "); PUT_OF(g, rx); }
        put(g, ")"); break;
    case 3: put(g, "(cl-type "); PUT_OF(g, types); put(g, ")"); break;
    case 4: put(g, "(cl-struct pt"); gen_list(g, gen_pat, 2);
        if (pick(g, 2)) { put(g, " (y "); gen_pat(g); put(g, ")"); }
        put(g, ")"); break;
    case 5: put(g, "(eieio"); gen_list(g, gen_pat, 2);
        if (pick(g, 2)) { put(g, " (slot "); gen_pat(g); put(g, ")"); }
        put(g, ")"); break;
    default: put(g, "(mine"); gen_list(g, gen_pat, 2); put(g, ")"); break;
    }
}

static void gen_pat_compound(struct gen *g)
{
    switch (pick(g, 16)) {
    case 0: put(g, "(pred "); gen_fun(g); put(g, ")"); break;
    case 1: put(g, "(app "); gen_fun(g); put(g, " "); gen_pat(g); put(g, ")"); break;
    case 2: case 3: put(g, "(and"); gen_list(g, gen_pat, 4); put(g, ")"); break;
    case 4: case 5: put(g, "(or"); gen_list(g, gen_pat, 4); put(g, ")"); break;
    case 6: put(g, "(guard "); gen_expr(g); put(g, ")"); break;
    case 7: put(g, "(let "); gen_pat(g); put(g, " "); gen_expr(g); put(g, ")"); break;
    case 8: case 9: put(g, "`"); gen_qpat(g); break;
    case 10: gen_lib_pat(g); break;
    case 11: put(g, "'"); PUT_OF(g, atoms); break;
    case 12: put(g, "(pred)"); break;
    case 13: put(g, "[x]"); break;
    case 14: put(g, "(app "); gen_fun(g); put(g, ")"); break;
    default: put(g, "(or (and "); gen_pat(g); put(g, " (pred p1)) (and "); gen_pat(g);
        put(g, " (pred p2)))"); break;
    }
}

static void gen_pat(struct gen *g)
{
    if (deep(g)) {
        put(g, pick(g, 2) ? vars[pick(g, 9)] : "_");
        return;
    }
    g->depth++;
    switch (pick(g, 6)) {
    case 0: PUT_OF(g, vars); break;
    case 1: PUT_OF(g, atoms); break;
    default: gen_pat_compound(g); break;
    }
    g->depth--;
}

static void gen_expr(struct gen *g)
{
    if (deep(g)) {
        PUT_OF(g, vars);
        return;
    }
    g->depth++;
    switch (pick(g, 7)) {
    case 0: case 1: PUT_OF(g, vars); break;
    case 2: PUT_OF(g, atoms); break;
    case 3: put(g, "(f "); PUT_OF(g, vars); put(g, ")"); break;
    case 4: gen_form(g); break;
    case 5: put(g, "(let ((x 1)) "); gen_expr(g); put(g, ")"); break;
    default: put(g, "(setq x "); gen_expr(g); put(g, ")"); break;
    }
    g->depth--;
}

static void gen_clause(struct gen *g)
{
    put(g, "(");
    gen_pat(g);
    gen_list(g, gen_expr, 2);
    put(g, ")");
}

/* cond* patterns (match*): the constructor style of cond-star.md. */
static void gen_cpat(struct gen *g)
{
    if (deep(g)) {
        PUT_OF(g, vars);
        return;
    }
    g->depth++;
    switch (pick(g, 14)) {
    case 0: PUT_OF(g, vars); break;
    case 1: PUT_OF(g, atoms); break;
    case 2: put(g, "(cons "); gen_cpat(g); put(g, " "); gen_cpat(g); put(g, ")"); break;
    case 3: put(g, "(list"); gen_list(g, gen_cpat, 4); put(g, ")"); break;
    case 4: put(g, "(vector"); gen_list(g, gen_cpat, 3); put(g, ")"); break;
    case 5: put(g, "(cdr "); gen_cpat(g); put(g, ")"); break;
    case 6: put(g, "(cdr-ignore "); gen_cpat(g); put(g, ")"); break;
    case 7: put(g, "(constrain "); PUT_OF(g, vars); put(g, " "); gen_expr(g); put(g, ")"); break;
    case 8: put(g, "(or"); gen_list(g, gen_cpat, 3); put(g, ")"); break;
    case 9: put(g, "(and"); gen_list(g, gen_cpat, 3); put(g, ")"); break;
    case 10: put(g, "(pred "); gen_fun(g); put(g, ")"); break;
    case 11: put(g, "'"); PUT_OF(g, atoms); break;
    case 12: put(g, "`"); gen_qpat(g); break;
    default: put(g, "(apply f"); gen_list(g, gen_cpat, 2); put(g, ")"); break;
    }
    g->depth--;
}

static void gen_binding(struct gen *g)
{
    put(g, "(");
    PUT_OF(g, vars);
    put(g, " ");
    gen_expr(g);
    put(g, ")");
}

static void gen_cond_head(struct gen *g)
{
    switch (pick(g, 7)) {
    case 0: put(g, "(match* "); gen_cpat(g); put(g, " "); gen_expr(g); put(g, ")"); break;
    case 1: put(g, "(pcase* "); gen_pat(g); put(g, " "); gen_expr(g); put(g, ")"); break;
    case 2: put(g, "(bind*"); gen_list(g, gen_binding, 3); put(g, ")"); break;
    case 3: put(g, "(bind-and*"); gen_list(g, gen_binding, 3); put(g, ")"); break;
    case 4: put(g, "t"); break;
    case 5: put(g, "(match* "); gen_cpat(g); put(g, ")"); break;
    default: gen_expr(g); break;
    }
}

static void gen_cond_clause(struct gen *g)
{
    put(g, "(");
    gen_cond_head(g);
    gen_list(g, gen_expr, 2);
    if (pick(g, 4) == 0)
        put(g, " :non-exit");
    put(g, ")");
}

static void gen_let_binding(struct gen *g)
{
    put(g, "(");
    gen_pat(g);
    put(g, " ");
    gen_expr(g);
    put(g, ")");
}

static void gen_lambda_arg(struct gen *g)
{
    static const char *const kw[] = {"&optional ", "&rest ", "", "", ""};
    PUT_OF(g, kw);
    gen_pat(g);
}

static void gen_form_body(struct gen *g)
{
    switch (pick(g, 9)) {
    case 0: case 1: put(g, "(pcase "); gen_expr(g); gen_list(g, gen_clause, 5); break;
    case 2: put(g, "(pcase-exhaustive "); gen_expr(g); gen_list(g, gen_clause, 3); break;
    case 3: put(g, pick(g, 2) ? "(pcase-let (" : "(pcase-let* (");
        gen_list(g, gen_let_binding, 3); put(g, ")"); gen_list(g, gen_expr, 2); break;
    case 4: put(g, "(pcase-dolist ("); gen_pat(g); put(g, " "); gen_expr(g); put(g, ")");
        gen_list(g, gen_expr, 2); break;
    case 5: put(g, "(pcase-setq "); gen_pat(g); put(g, " "); gen_expr(g);
        if (pick(g, 2)) { put(g, " "); gen_pat(g); put(g, " "); gen_expr(g); }
        break;
    case 6: put(g, "(pcase-lambda ("); gen_list(g, gen_lambda_arg, 3); put(g, ")");
        gen_list(g, gen_expr, 2); break;
    default: put(g, "(cond*"); gen_list(g, gen_cond_clause, 4); break;
    }
    put(g, ")");
}

static void gen_form(struct gen *g)
{
    g->depth++;
    gen_form_body(g);
    g->depth--;
}

/* Definitions that later patterns may use: a pattern macro (possibly
 * recursive or ill-formed), a struct layout. */
static void gen_definition(struct gen *g)
{
    switch (pick(g, 5)) {
    case 0: put(g, "(pcase-defmacro mine (p &optional q) `(and ,p (pred consp) ,q))\n"); break;
    case 1: put(g, "(pcase-defmacro mine (p) `(or (mine ,p) ,p))\n"); break;
    case 2: put(g, "(pcase-defmacro mine (&rest ps) `(,@ps))\n"); break;
    case 3: put(g, "(cl-defstruct pt x (y 0) z)\n"); break;
    default: put(g, "(pcase-defmacro mine (p) `(app car ,p))\n"); break;
    }
}

static void generate(struct gen *g)
{
    for (unsigned i = pick(g, 3); i > 0; i--)
        gen_definition(g);
    for (unsigned i = pick(g, 3) + 1; i > 0 && g->n; i--) {
        bool wrapped = pick(g, 3) != 0;
        put(g, wrapped ? "(defun f0 (x)\n  " : "");
        gen_form(g);
        put(g, wrapped ? ")\n" : "\n");
    }
}

static void check(const uint8_t *text, size_t len)
{
    struct fuzz_result on, off;
    fuzz_run(text, len, true, false, &on);
    fuzz_run(text, len, false, false, &off);
    if (on.internal || off.internal)
        fuzz_fail("internal error", text, len, on.diags);
    if (on.oom || off.oom) {
        fuzz_result_free(&on);
        fuzz_result_free(&off);
        return;
    }
    if (on.out_len != off.out_len || memcmp(on.out, off.out, on.out_len) ||
        on.diags_len != off.diags_len || memcmp(on.diags, off.diags, on.diags_len))
        fuzz_fail("computed cache on and off differ", text, len, on.out);
    if (on.ok && !fuzz_reads((const uint8_t *)on.out, on.out_len))
        fuzz_fail("output does not read back", text, len, on.out);
    fuzz_result_free(&on);
    fuzz_result_free(&off);
    if (len % 4 != 0) /* compact rendering for a quarter of the inputs */
        return;
    struct fuzz_result c;
    fuzz_run(text, len, true, true, &c);
    if (c.internal)
        fuzz_fail("internal error (compact)", text, len, c.diags);
    fuzz_result_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gen g = {data, size, NULL, 0, 0, 0};
    put(&g, "");
    generate(&g);
    if (getenv("PCX_FUZZ_SHOW"))
        fprintf(stderr, "%s\n", g.text);
    check((const uint8_t *)g.text, g.len);
    free(g.text);
    return 0;
}
