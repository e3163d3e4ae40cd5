/* support.c - shared helpers for the unit tests (see support.h). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "base/report.h"
#include "base/source.h"
#include "expand/gensym.h"
#include "io/file.h"
#include "expand/pcase_macros.h"
#include "lisp/print.h"
#include "syntax/pretty.h"
#include "syntax/walk.h"

static void *t_alloc(void *ctx, size_t n) { (void)ctx; return test_malloc(n); }
static void t_free(void *ctx, void *p) { (void)ctx; test_free(p); }

static const struct arena_backing cmocka_backing = {t_alloc, t_free, NULL};

struct arena *support_arena(void)
{
    struct arena *a = arena_new(&cmocka_backing);
    assert_non_null(a);
    return a;
}

size_t support_arena_used(const struct arena *a)
{
    return a->total - (size_t)(a->end - a->cur);
}

static void *f_alloc(void *ctx, size_t n)
{
    struct support_failing *f = ctx;
    if (++f->count == f->fail_at)
        return NULL;
    return test_malloc(n);
}

struct arena_backing support_failing_backing(struct support_failing *f)
{
    struct arena_backing b = {f_alloc, t_free, f};
    return b;
}

const char *support_testdata(const char *rel)
{
    static char path[4096];
    const char *root = getenv("PCX_TESTDATA");
    snprintf(path, sizeof path, "%s/%s", root ? root : "testdata", rel);
    return path;
}

char *support_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = test_malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, f);
    fclose(f);
    assert_int_equal(got, (size_t)len);
    buf[len] = 0;
    *n = (size_t)len;
    return buf;
}

/* ---- one run of the pipeline ---- */

static void add_sites(struct support_run *r)
{
    for (size_t j = 0; j < r->x.n_sites; j++) {
        if (r->n_sites == r->cap_sites) {
            size_t cap = r->cap_sites * 2 + 4;
            r->sites = arena_grow(r->a, r->sites, r->cap_sites * sizeof *r->sites,
                                  cap * sizeof *r->sites);
            r->cap_sites = cap;
        }
        r->sites[r->n_sites++] =
            (struct splice_site){r->x.sites[j].orig, r->x.sites[j].expansion};
    }
}

void support_run_text(struct support_run *r, struct arena *a, const char *text,
                      size_t len, bool memo)
{
    support_run_setup(r, a, text, len, memo, NULL);
}

/* The load path of the golden being checked (support_check_golden). */
static struct {
    struct api_library *lib;
    const char *input;
    const char *dirs[2];
    size_t n_dirs;
} golden_load;

static void attach_loader(struct support_run *r)
{
    api_load_attach(&r->x, golden_load.lib, golden_load.input, golden_load.dirs,
                    golden_load.n_dirs);
}

void support_run_setup(struct support_run *r, struct arena *a, const char *text,
                       size_t len, bool memo, void (*setup)(struct support_run *r))
{
    memset(r, 0, sizeof *r);
    r->a = a;
    r->L = intern_new(a);
    r->text = (const uint8_t *)text;
    r->len = len;
    diag_init(&r->dl, a);
    assert_true(read_source(r->L, r->text, len, &r->rr));
    expand_init(&r->x, r->L, &r->dl, &r->rr);
    r->x.macros = pcase_macros_new(r->L); /* learns the file's definitions, as the CLI */
    r->x.memo = memo;
    if (setup)
        setup(r);
    r->out = ARENA_NEWN(a, struct value *, r->rr.n_forms + 1);
    for (size_t i = 0; i < r->rr.n_forms; i++) {
        r->out[i] = expand_form(&r->x, r->rr.forms[i].v);
        r->failed |= r->out[i] == NULL;
        if (r->out[i])
            add_sites(r);
    }
}

static const struct value *origin(void *ctx, const struct value *v)
{
    return expand_origin(ctx, v);
}

static void begin_form(void *ctx, unsigned floor)
{
    gensym_begin_form(expand_gensyms(ctx), floor);
}

const char *support_run_output(struct support_run *r)
{
    struct splice_in in;
    memset(&in, 0, sizeof in);
    in.L = r->L;
    in.text = r->text;
    in.len = r->len;
    in.src = &r->rr;
    in.sites = r->sites;
    in.n_sites = r->n_sites;
    in.pretty.width = 80;
    in.pretty.sym_text = gensym_text;
    in.pretty.sym_ctx = expand_gensyms(&r->x);
    in.origin = origin;
    in.origin_ctx = &r->x;
    in.begin_form = begin_form;
    in.begin_ctx = &r->x;
    struct buf b;
    buf_init(&b, r->a);
    assert_true(splice_source(&in, &b, NULL));
    return buf_cstr(&b);
}

const char *support_run_diags(struct support_run *r, const char *name)
{
    struct source s;
    source_init(&s, r->a, name, r->text, r->len);
    struct report_opts o = {REPORT_GNU, false, false};
    struct buf b;
    buf_init(&b, r->a);
    diag_sort(&r->dl);
    report_render(&b, &s, &r->dl, &o);
    return buf_cstr(&b);
}

const char *support_run_compact(struct support_run *r, size_t i)
{
    struct pretty_opts o;
    memset(&o, 0, sizeof o);
    o.sym_text = gensym_text;
    o.sym_ctx = expand_gensyms(&r->x);
    gensym_begin_form(expand_gensyms(&r->x), 0);
    struct buf b;
    buf_init(&b, r->a);
    assert_true(pretty_compact(r->L, &o, &b, r->out[i]));
    return buf_cstr(&b);
}

void support_expect_diags(const char *text, const char *want)
{
    struct arena *a = support_arena();
    struct support_run r;
    support_run_text(&r, a, text, strlen(text), true);
    assert_string_equal(support_run_diags(&r, "t.el"), want);
    arena_free(a);
}

const char *support_print(struct lisp *L, const struct value *v)
{
    struct buf b;
    struct print_opts o = print_opts_default();
    buf_init(&b, L->a);
    print_value(L, &b, v, &o);
    return buf_cstr(&b);
}

const char *support_severity(enum diag_severity s)
{
    return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" : "note";
}

const char *support_diag_codes(struct arena *a, const struct diag_list *dl, size_t from)
{
    struct buf b;
    buf_init(&b, a);
    for (size_t k = from; k < dl->n; k++)
        buf_printf(&b, "%s%s:%s", k > from ? " " : "", support_severity(dl->items[k].sev),
                   dl->items[k].code);
    return buf_cstr(&b);
}

/* ---- properties of expansions ---- */

/* The "never" list of cli.md section 9 (besides every pcase- name). */
static const char *const forbidden_names[] = {
    "`", "bind*", "bind-and*", "cond*", "match*", "pcase", "pcase*",
};

static bool in_table(const char *name, const char *const *table, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, table[i]) == 0)
            return true;
    return false;
}

bool support_forbidden_head(const struct value *h)
{
    if (!value_symbolp(h) || !h->u.sym.interned)
        return false;
    const char *n = h->u.sym.name;
    return in_table(n, forbidden_names, sizeof forbidden_names / sizeof *forbidden_names) ||
           strncmp(n, "pcase-", 6) == 0;
}

bool support_each_cons(struct arena *a, const struct value *v,
                       const struct value *quote,
                       bool (*f)(void *ctx, const struct value *c), void *ctx)
{
    size_t cap = 64, n = 0;
    const struct value **stack = ARENA_NEWN(a, const struct value *, cap);
    stack[n++] = v;
    while (n) {
        const struct value *c = stack[--n];
        if (!value_consp(c) || value_car(c) == quote)
            continue;
        if (!f(ctx, c))
            return false;
        for (; value_consp(c); c = value_cdr(c)) {
            if (n == cap) {
                stack = arena_grow(a, stack, cap * sizeof *stack, 2 * cap * sizeof *stack);
                cap *= 2;
            }
            stack[n++] = value_car(c);
        }
    }
    return true;
}

static bool head_allowed(void *ctx, const struct value *c)
{
    (void)ctx;
    return !support_forbidden_head(value_car(c));
}

bool support_has_forbidden_head(struct arena *a, const struct value *v,
                                const struct value *quote)
{
    return !support_each_cons(a, v, quote, head_allowed, NULL);
}

/* The heads generated code may use (cli.md section 9), besides functions
 * the input names: special forms, lambda and funcall, standard macros,
 * and the functions pcexpand generates. */
static const char *const vocabulary[] = {
    /* special forms */
    "and", "catch", "cond", "condition-case", "function", "if", "let", "let*",
    "or", "prog1", "progn", "quote", "setq", "unwind-protect", "while",
    "lambda", "funcall",
    /* standard macros */
    "when", "unless", "dolist",
    /* generated function calls */
    "car", "cdr", "car-safe", "cdr-safe", "nth", "nthcdr", "consp", "null",
    "not", "vectorp", "stringp", "numberp", "length", "aref", "cons", "eq",
    "eql", "equal", "=", "memq", "memql", "member", "ignore", "error",
    "string-match", "match-string", "concat", "rx-to-string",
    /* an expansion error in the form of an ERT assertion */
    "signal",
    /* from the pattern macros of seq, map, cl-lib and eieio */
    "seqp", "seq--elt-safe", "seq-drop", "mapp", "map-elt", "cl-typep", "cl-struct-slot-value",
    "eieio-object-p", "eieio-oref",
};

/* The interned symbols of the input, anywhere in its forms. */
struct named {
    const struct value **v;
    size_t n, cap;
};

static void push(struct arena *a, const struct value ***v, size_t *n, size_t *cap,
                 const struct value *x)
{
    if (*n == *cap) {
        *v = arena_grow(a, *v, *cap * sizeof **v, 2 * *cap * sizeof **v);
        *cap *= 2;
    }
    (*v)[(*n)++] = x;
}

static void note_symbol(struct arena *a, struct named *s, const struct value *sym)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == sym)
            return;
    push(a, &s->v, &s->n, &s->cap, sym);
}

/* Every symbol of the forms of r and of also (conses and vectors,
 * quoted data too). */
static void input_symbols(struct support_run *r, const struct value *also,
                          struct named *s)
{
    size_t cap = 64, n = 0;
    const struct value **stack = ARENA_NEWN(r->a, const struct value *, cap);
    if (also)
        push(r->a, &stack, &n, &cap, also);
    for (size_t i = 0; i < r->rr.n_forms; i++)
        push(r->a, &stack, &n, &cap, r->rr.forms[i].v);
    while (n) {
        const struct value *v = stack[--n];
        if (value_consp(v)) {
            push(r->a, &stack, &n, &cap, value_car(v));
            push(r->a, &stack, &n, &cap, value_cdr(v));
        } else if (value_is(v, VK_VECTOR)) {
            for (size_t i = 0; i < v->u.vec.n; i++)
                push(r->a, &stack, &n, &cap, v->u.vec.items[i]);
        } else if (value_symbolp(v) && v->u.sym.interned) {
            note_symbol(r->a, s, v);
        }
    }
}

struct vocab {
    struct support_run *r;
    struct named names;  /* symbols the input mentions */
    const char *bad;     /* the message, once something is wrong */
};

static bool named_by_input(const struct vocab *c, const struct value *sym)
{
    for (size_t i = 0; i < c->names.n; i++)
        if (c->names.v[i] == sym)
            return true;
    return false;
}

/* A cons in a code position: user code (read, or a copy of read code
 * with a nested form replaced) is taken as it is; generated code must
 * stay inside the vocabulary. */
static enum walk_status check_head(struct walker *w, struct value *form)
{
    struct vocab *c = w->ctx;
    struct span sp;
    if (read_origin_span(&c->r->rr, expand_origin(&c->r->x, form), &sp))
        return WALK_CONTINUE;
    const struct value *h = value_car(form);
    if (value_symbolp(h) && h->u.sym.interned &&
        (in_table(h->u.sym.name, vocabulary, sizeof vocabulary / sizeof *vocabulary) ||
         named_by_input(c, h)))
        return WALK_CONTINUE;
    struct buf b;
    buf_init(&b, c->r->a);
    struct print_opts o = print_opts_default();
    buf_puts(&b, "generated form outside the output vocabulary: ");
    print_value(c->r->L, &b, form, &o);
    c->bad = buf_cstr(&b);
    return WALK_ABORT;
}

const char *support_vocabulary(struct support_run *r, const struct value *expansion)
{
    return support_vocabulary_also(r, expansion, r->library);
}

const char *support_vocabulary_also(struct support_run *r,
                                    const struct value *expansion,
                                    const struct value *also)
{
    if (support_has_forbidden_head(r->a, expansion, r->L->quote))
        return "a pcase-family or cond* head remains";
    struct vocab c = {r, {NULL, 0, 16}, NULL};
    c.names.v = ARENA_NEWN(r->a, const struct value *, c.names.cap);
    input_symbols(r, also, &c.names);
    struct walker w;
    walk_init(&w, r->L, check_head, &c);
    if (walk_form(&w, (struct value *)expansion))
        return NULL;
    return c.bad ? c.bad : "the expansion is too deep or circular to walk";
}

/* ---- golden files ---- */

void support_golden(const char *rel, const char *text)
{
    const char *path = support_testdata(rel);
    if (getenv("PCX_UPDATE_GOLDENS")) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
        return;
    }
    size_t n;
    char *want = support_slurp(path, &n);
    if (strcmp(want, text) != 0)
        fail_msg("%s differs; got:\n%s", rel, text);
    test_free(want);
}

/* Every form of the other Lisp files under a golden case's directory
 * (the files its input requires), as one list in r's values. */
static void read_library(struct support_run *r, const char *case_dir)
{
    const char **paths;
    size_t n;
    const char *err;
    r->library = r->L->nil;
    if (!file_walk_dir(r->a, case_dir, &paths, &n, &err))
        return;
    for (size_t i = 0; i < n; i++) {
        const char *base = strrchr(paths[i], '/') + 1;
        if (strcmp(base, "input.el") == 0 || strcmp(base, "expected.el") == 0)
            continue;
        struct file_data fd;
        struct read_result rd;
        assert_true(file_read(r->a, paths[i], &fd));
        assert_true(read_source(r->L, fd.data, fd.len, &rd));
        for (size_t k = 0; k < rd.n_forms; k++)
            r->library = value_cons(r->a, rd.forms[k].v, r->library);
    }
}

/* The expansions of one golden pass check. */
static void check_sites(struct support_run *r, const char *id,
                        support_expansion_check check)
{
    for (size_t i = 0; check && i < r->n_sites; i++) {
        const char *bad = check(r, r->sites[i].expansion);
        if (bad)
            fail_msg("%s: %s", id, bad);
    }
}

void support_check_golden(const char *dir, const char *id, const char *expect,
                          const char *load_path, support_expansion_check check)
{
    char rel[512], case_dir[4096], extra[4608], input[4096];
    snprintf(rel, sizeof rel, "%s/%s/input.el", dir, id);
    size_t n;
    char *text = support_slurp(support_testdata(rel), &n);
    struct arena *a = support_arena();
    snprintf(input, sizeof input, "%s", support_testdata(rel));
    snprintf(case_dir, sizeof case_dir, "%s", input);
    *strrchr(case_dir, '/') = 0;
    snprintf(extra, sizeof extra, "%s/%s", case_dir, load_path ? load_path : "");
    golden_load.lib = api_library_new();
    assert_non_null(golden_load.lib);
    golden_load.input = input;
    golden_load.dirs[0] = case_dir;
    golden_load.dirs[1] = extra;
    golden_load.n_dirs = load_path ? 2 : 1;
    struct support_run on, off;
    support_run_setup(&on, a, text, n, true, attach_loader);
    support_run_setup(&off, a, text, n, false, attach_loader);
    api_library_free(golden_load.lib);
    const char *diags = support_run_diags(&on, "input.el");
    assert_string_equal(diags, support_run_diags(&off, "input.el"));
    bool error = strcmp(expect, "error") == 0;
    if (on.failed != error)
        fail_msg("%s: %s", id, on.failed ? diags : "expanded without error");
    if (!error) {
        read_library(&on, case_dir);
        const char *out = support_run_output(&on);
        assert_string_equal(out, support_run_output(&off));
        check_sites(&on, id, check);
        snprintf(rel, sizeof rel, "%s/%s/expected.el", dir, id);
        support_golden(rel, out);
    }
    if (strcmp(expect, "ok") != 0) {
        snprintf(rel, sizeof rel, "%s/%s/expected.err", dir, id);
        support_golden(rel, diags);
    } else if (on.dl.n) {
        fail_msg("%s: unexpected diagnostics:\n%s", id, diags);
    }
    arena_free(a);
    test_free(text);
}

int support_goldens(const char *dir, support_expansion_check check)
{
    char rel[512];
    snprintf(rel, sizeof rel, "%s/manifest.yaml", dir);
    size_t n;
    char *data = support_slurp(support_testdata(rel), &n);
    char id[256] = "", load[256] = "";
    int cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char word[256];
        if (sscanf(line, " - id: %255s", word) == 1) {
            strcpy(id, word);
            load[0] = 0;
        } else if (sscanf(line, " load-path: %255s", word) == 1) {
            strcpy(load, word);
        } else if (sscanf(line, " expect: %255s", word) == 1 && id[0]) {
            support_check_golden(dir, id, word, load[0] ? load : NULL, check);
            cases++;
            id[0] = 0;
        }
    }
    test_free(data);
    return cases;
}

bool support_capture_write(void *ctx, const void *p, size_t n)
{
    struct support_capture *c = ctx;
    char *d = test_realloc(c->data, c->len + n + 1);
    assert_non_null(d);
    memcpy(d + c->len, p, n);
    c->data = d;
    c->len += n;
    d[c->len] = 0;
    return true;
}
