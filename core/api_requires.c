/* api_requires.c - the libraries the output calls (cli.md 10, 17).
 *
 * Pattern macros of other libraries expand to calls of that library's
 * functions (map-elt, cl-typep, eieio-oref...).  Emacs loads the library
 * when it expands the pattern; the expanded file no longer uses the
 * pattern, so unless it requires the library itself, compiling it warns
 * that the function is not known to be defined, and loading it may leave
 * the function undefined when the code runs.  After expansion each run
 * finds the libraries its sites' expansions call (a function the form as
 * written already named is the user's own call, not the expansion's) and
 * those its top-level forms require at run time or provide, or the files
 * read for its requires (on its load path) require; the first
 * site of a library the text lacks gets the note missing-require, or,
 * with --add-requires, the text gets the requires (after its own, else
 * before its first form) and loses a (require 'pcase) that nothing in the
 * output needs any more.  seq is not in the table: Emacs preloads it.
 */
#include "api_int.h"

#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The libraries, in the order their requires are added. */
static const struct {
    const char *name;
    const char *also; /* another feature that loads the functions, or NULL */
} libs[RUN_LIBS] = {
    {"cl-lib", "cl-macs"},
    {"eieio", "eieio-core"},
    {"map", NULL},
};

/* The functions pattern macros expand to, with their library (cli.md 9). */
static const struct {
    const char *name;
    unsigned lib;
} calls[] = {
    {"cl-struct-slot-value", 0}, {"cl-typep", 0},  {"eieio-object-p", 1},
    {"eieio-oref", 1},           {"map-elt", 2},   {"mapp", 2},
};

/* ---- walking values ---- */

/* A visitor of symbols: true stops the walk. */
typedef bool (*sym_fn)(const struct value *sym, void *ctx);

/* Visit every symbol in v (conses and vectors walked with a stack of
 * their own: no recursion); true when fn stopped it. */
static bool walk_symbols(struct arena *a, const struct value *v, sym_fn fn, void *ctx)
{
    size_t cap = 64, n = 0;
    const struct value **st = ARENA_NEWN(a, const struct value *, cap);
    st[n++] = v;
    while (n) {
        v = st[--n];
        for (; value_consp(v) || value_is(v, VK_VECTOR) || value_is(v, VK_RECORD);
             v = value_cdr(v)) {
            size_t more = value_consp(v) ? 1 : v->u.vec.n;
            if (n + more > cap) {
                size_t c2 = 2 * cap + more;
                st = arena_grow(a, st, cap * sizeof *st, c2 * sizeof *st);
                cap = c2;
            }
            if (!value_consp(v)) {
                for (size_t i = 0; i < v->u.vec.n; i++)
                    st[n++] = v->u.vec.items[i];
                v = NULL;
                break;
            }
            st[n++] = value_car(v);
        }
        if (v && value_symbolp(v) && fn(v, ctx))
            return true;
    }
    return false;
}

/* The functions of the table, as symbols of the run (NULL: none read or
 * made, so nothing calls it). */
struct named {
    const struct value *sym[NELEM(calls)];
    unsigned found; /* libraries of the symbols met */
};

static bool note_call(const struct value *sym, void *ctx)
{
    struct named *k = ctx;
    for (size_t i = 0; i < NELEM(calls); i++)
        if (k->sym[i] == sym)
            k->found |= 1u << calls[i].lib;
    return false;
}

/* Libraries whose functions v names. */
static unsigned named_in(struct run *r, struct named *k, const struct value *v)
{
    k->found = 0;
    walk_symbols(r->a, v, note_call, k);
    return k->found;
}

/* ---- the text's requires ---- */

static const struct value *nth(const struct run *r, const struct value *form, size_t i)
{
    for (; i > 0 && value_consp(form); i--)
        form = value_cdr(form);
    return value_consp(form) ? value_car(form) : r->L->nil;
}

static bool head_is(const struct value *form, const char *name)
{
    return value_consp(form) && value_symbolp(value_car(form)) &&
           strcmp(value_car(form)->u.sym.name, name) == 0;
}

/* The feature of (require 'F ...) or (provide 'F ...), else NULL. */
static const char *feature_of(const struct run *r, const struct value *form,
                              const char *head)
{
    const struct value *q = nth(r, form, 1);
    if (!head_is(form, head) || !head_is(q, "quote") || !value_symbolp(nth(r, q, 1)))
        return NULL;
    return nth(r, q, 1)->u.sym.name;
}

/* The library bits feature f loads. */
static unsigned lib_bits(const char *f)
{
    unsigned bits = 0;
    for (unsigned k = 0; f && k < RUN_LIBS; k++)
        if (strcmp(f, libs[k].name) == 0 || (libs[k].also && strcmp(f, libs[k].also) == 0))
            bits |= 1u << k;
    return bits;
}

/* The libraries the files read for the run's requires require. */
static unsigned loaded_by_files(const struct run *r)
{
    unsigned bits = 0;
    for (unsigned k = 0; k < RUN_LIBS; k++)
        if (api_load_required_by_file(r->loader, libs[k].name) ||
            (libs[k].also && api_load_required_by_file(r->loader, libs[k].also)))
            bits |= 1u << k;
    return bits;
}

/* Forms whose body is run when the file is loaded, as top-level forms. */
static bool loaded_body(const struct value *form)
{
    return head_is(form, "progn") || head_is(form, "eval-and-compile") ||
           head_is(form, "with-no-warnings");
}

/* The libraries one top-level form requires at run time or provides. */
static unsigned form_has(const struct run *r, const struct value *form)
{
    unsigned bits = lib_bits(feature_of(r, form, "require")) |
                    lib_bits(feature_of(r, form, "provide"));
    if (loaded_body(form))
        for (const struct value *b = value_cdr(form); value_consp(b); b = value_cdr(b))
            bits |= lib_bits(feature_of(r, value_car(b), "require"));
    return bits;
}

void api_requires_scan(struct run *r)
{
    struct named k = {{0}, 0};
    bool any = false;
    for (size_t i = 0; i < NELEM(calls); i++) {
        k.sym[i] = intern_find(r->L, calls[i].name, strlen(calls[i].name));
        any = any || k.sym[i];
    }
    for (size_t i = r->lo; i < r->rd.n_forms; i++)
        r->libs.has |= form_has(r, r->rd.forms[i].v);
    r->libs.has |= loaded_by_files(r);
    for (size_t i = 0; any && i < r->n_sites; i++) {
        const struct run_site *s = &r->sites[i];
        unsigned fresh = named_in(r, &k, s->expansion) & ~r->libs.need;
        fresh &= fresh ? ~named_in(r, &k, s->orig) : 0;
        struct span sp = {0, 0};
        read_origin_span(&r->rd, s->orig, &sp);
        for (unsigned b = 0; b < RUN_LIBS; b++)
            if (fresh & (1u << b))
                r->libs.at[b] = sp.start;
        r->libs.need |= fresh;
    }
}

void api_requires_merge(struct run_libs *into, const struct run_libs *part)
{
    unsigned fresh = part->need & ~into->need;
    for (unsigned b = 0; b < RUN_LIBS; b++)
        if (fresh & (1u << b))
            into->at[b] = part->at[b];
    into->need |= part->need;
    into->has |= part->has;
}

void api_requires_note(struct run *r)
{
    unsigned lack = r->libs.need & ~r->libs.has & ~r->libs.noted;
    if (r->cx->o.add_requires)
        return;
    for (unsigned b = 0; b < RUN_LIBS; b++)
        if (lack & (1u << b))
            diag_add(&r->diags, DIAG_NOTE, r->libs.at[b], r->libs.at[b], "missing-require",
                     "the expansion calls functions of %s, which this file does not "
                     "require: it needs (require '%s) (--add-requires adds it)",
                     libs[b].name, libs[b].name);
    r->libs.noted |= lack;
}

/* ---- --add-requires ---- */

struct edits {
    struct splice_edit *e;
    size_t n;
};

static bool pcase_name(const struct value *sym, void *ctx)
{
    (void)ctx;
    return strncmp(sym->u.sym.name, "pcase", 5) == 0;
}

/* (require 'pcase), alone or in an eval-when-compile of its own. */
static bool pcase_require(const struct run *r, const struct value *form)
{
    const char *f = feature_of(r, form, "require");
    if (head_is(form, "eval-when-compile") && value_consp(value_cdr(form)) &&
        !value_consp(value_cdr(value_cdr(form))))
        f = feature_of(r, nth(r, form, 1), "require");
    return f && strcmp(f, "pcase") == 0;
}

/* A top-level form that requires something (the requires go after the
 * last of them). */
static bool requires_something(const struct run *r, const struct value *form)
{
    if (feature_of(r, form, "require"))
        return true;
    if (!loaded_body(form) && !head_is(form, "eval-when-compile"))
        return false;
    for (const struct value *b = value_cdr(form); value_consp(b); b = value_cdr(b))
        if (feature_of(r, value_car(b), "require"))
            return true;
    return false;
}

/* Does anything of the output but the pcase requires name a pcase-
 * function or macro (a head --skip kept, a pattern macro's definition)? */
static bool output_needs_pcase(struct run *r)
{
    for (size_t i = 0; i < r->rd.n_forms; i++)
        if (!pcase_require(r, r->rd.forms[i].v) &&
            walk_symbols(r->a, r->forms[i], pcase_name, NULL))
            return true;
    return false;
}

/* Where the line of text offset `at` ends (before its line break). */
static size_t line_end(const struct run *r, size_t at)
{
    while (at < r->len && r->text[at] != '\n')
        at++;
    if (at > 0 && at < r->len && r->text[at - 1] == '\r')
        at--;
    return at;
}

/* Is text [from, to) blank or a comment? */
static bool blank_or_comment(const struct run *r, size_t from, size_t to)
{
    for (; from < to && r->text[from] != ';'; from++)
        if (r->text[from] != ' ' && r->text[from] != '\t')
            return false;
    return true;
}

/* The text of form span sp with its line when nothing else is on it
 * (line break included), else the span alone. */
static struct span whole_line(const struct run *r, struct span sp)
{
    size_t ls = sp.start, le = line_end(r, sp.end);
    while (ls > 0 && (r->text[ls - 1] == ' ' || r->text[ls - 1] == '\t'))
        ls--;
    if ((ls > 0 && r->text[ls - 1] != '\n') || !blank_or_comment(r, sp.end, le))
        return sp;
    while (le < r->len && r->text[le] != '\n')
        le++;
    return (struct span){(uint32_t)ls, (uint32_t)(le < r->len ? le + 1 : le)};
}

/* The requires the output lacks, one per line: lead + each + trail. */
static const char *require_lines(struct run *r, unsigned lack, const char *nl,
                                 bool lead, bool trail, size_t *len)
{
    struct buf b;
    buf_init(&b, r->a);
    for (unsigned k = 0; k < RUN_LIBS; k++)
        if (lack & (1u << k)) {
            if (lead)
                buf_puts(&b, nl);
            buf_printf(&b, "(require '%s)", libs[k].name);
            if (!lead)
                buf_puts(&b, nl);
        }
    if (trail)
        buf_puts(&b, nl);
    *len = b.len;
    return b.len ? b.data : "";
}

static void add_edit(struct run *r, struct edits *es, struct span sp, const char *text,
                     size_t len)
{
    es->e = arena_grow(r->a, es->e, es->n * sizeof *es->e, (es->n + 1) * sizeof *es->e);
    es->e[es->n++] = (struct splice_edit){sp.start, sp.end, text, len};
}

const struct splice_edit *api_requires_edits(struct run *r, size_t *n)
{
    struct edits es = {NULL, 0};
    unsigned lack = r->libs.need & ~r->libs.has;
    bool drop = r->n_sites > 0 && !output_needs_pcase(r);
    const char *nl = r->len > 0 && memchr(r->text, '\r', line_end(r, 0) + 1) ? "\r\n" : "\n";
    long anchor = -1; /* the last require kept */
    for (size_t i = 0; i < r->rd.n_forms; i++)
        if (requires_something(r, r->rd.forms[i].v) &&
            !(drop && pcase_require(r, r->rd.forms[i].v)))
            anchor = (long)i;
    size_t len;
    bool placed = !lack || r->rd.n_forms == 0;
    for (size_t i = 0; i < r->rd.n_forms; i++) {
        struct span sp = r->rd.forms[i].span;
        if (!placed && anchor < 0 && i == 0 && !(drop && pcase_require(r, r->rd.forms[i].v))) {
            /* no require kept: before the first form, a blank line after */
            const char *t = require_lines(r, lack, nl, false, true, &len);
            add_edit(r, &es, (struct span){sp.start, sp.start}, t, len);
            placed = true;
        }
        if (drop && pcase_require(r, r->rd.forms[i].v)) {
            /* the last require dropped, with none kept: the new ones in its place */
            bool here = !placed && anchor < 0;
            struct span w = whole_line(r, sp);
            const char *t = here ? require_lines(r, lack, nl, false, false, &len) : "";
            add_edit(r, &es, w, t, here ? len : 0);
            placed = placed || here;
        } else if (!placed && (long)i == anchor) {
            size_t le = line_end(r, sp.end);
            size_t at = blank_or_comment(r, sp.end, le) ? le : sp.end;
            const char *t = require_lines(r, lack, nl, true, false, &len);
            add_edit(r, &es, (struct span){(uint32_t)at, (uint32_t)at}, t, len);
            placed = true;
        }
    }
    *n = es.n;
    return es.e;
}
