/* config.c - reading and validating .pcexpand.yaml (config.h).
 *
 * A file is parsed by yaml.c into a tree, then each key is applied, in
 * document order, over the configuration it extends (or the built-in
 * defaults): scalar settings replace, maps (indent, pattern-macros,
 * structs, warnings) replace entry by entry, lists replace.  Every
 * mistake is a diagnostic at its YAML position, code "config".
 */
#include "io/config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- tables ---- */

/* ORDER: enum expand_head */
const char *const config_heads[] = {
    "pcase", "pcase-exhaustive", "pcase-let", "pcase-let*",
    "pcase-dolist", "pcase-setq", "pcase-lambda", "cond*", NULL,
};

/* ORDER: enum pcase_macros_builtin */
static const char *const builtins[] = {
    "seq", "map", "rx", "cl-type", "cl-struct", "eieio", NULL,
};

/* The warning codes of cli.md section 10 (and nested-backquote, the
 * warning pcase.md section 9 asks for), sorted. */
static const char *const warning_codes[] = {
    "cond-star-keyword-outside", "deprecated-t-pattern", "emacs-divergence",
    "exhaustive-can-fail", "exhaustive-never-fails", "golden-obsolete",
    "indent-spec-unsupported", "library-unreadable", "map-default-ignored", "nested-backquote",
    "pred-without-function", "splice-in-backquote", "underscore-argument",
    "unreachable-clause", "unused-variable", NULL,
};

/* ORDER: enum config_gensyms */
const char *const config_gensym_words[] = {"rename", "hash", "circle", NULL};

/* ORDER: enum config_struct_type */
static const char *const struct_types[] = {"record", "vector", "list", NULL};

#define ALL_BITS(n) ((1u << (n)) - 1)

static unsigned count(const char *const *words)
{
    unsigned n = 0;
    while (words[n])
        n++;
    return n;
}

static const char *table_name(const char *const *words, unsigned i)
{
    return i < count(words) ? words[i] : NULL;
}

const char *config_head_name(unsigned i) { return table_name(config_heads, i); }
const char *config_builtin_name(unsigned i) { return table_name(builtins, i); }
const char *config_warning_code(unsigned i) { return table_name(warning_codes, i); }

static const struct config defaults = {
    .width = 80,
    .gensyms = CONFIG_GENSYMS_RENAME,
    .gensym_prefix = "pcx--",
    .builtins = ALL_BITS(6),
};

const struct config *config_defaults(void) { return &defaults; }

/* ---- the loader ---- */

/* The files being loaded, innermost last (for extends cycles). */
#define MAX_EXTENDS 8 /* ORDER: the message of base_of */

struct loader {
    struct config_check k;  /* errors go to d, code "config" */
    struct arena *a;
    const struct config_params *p;
    struct config *cfg;     /* being filled */
    const char *path, *dir; /* the file, its directory */
    struct source src;      /* its text */
    struct diag_list d;     /* its errors */
    struct lisp *L;         /* scratch symbols for checking snippets */
    const char **chain;     /* absolute paths of the files being loaded */
    size_t depth;
};

/* "section.key" for messages. */
static const char *dotted(struct loader *ld, const char *section, const char *key)
{
    struct buf b;
    buf_init(&b, ld->a);
    buf_printf(&b, "%s.%s", section, key);
    return buf_cstr(&b);
}

/* A map of the configuration being extended by this file: a copy of the
 * base's entries (the base is left as it was), indexed by name. */
struct entries {
    void *arr;
    size_t n, cap, sz;
    struct config_index x;
};

static void entries_open(struct loader *ld, struct entries *e, const void *arr,
                         size_t n, size_t sz)
{
    e->n = e->cap = n;
    e->sz = sz;
    e->arr = n ? memcpy(arena_alloc(ld->a, n * sz), arr, n * sz) : NULL;
    config_index_init(&e->x, ld->a, e->arr, n, sz);
}

/* The entry named name: the existing one, or a new zeroed one with that
 * name, added at the end. */
static void *entries_at(struct loader *ld, struct entries *e, const char *name)
{
    size_t i = config_index_get(&e->x, e->arr, e->n, e->sz, name);
    if (i == e->n) {
        e->arr = config_array_push(ld->a, e->arr, &e->n, &e->cap, e->sz);
        *(const char **)((char *)e->arr + i * e->sz) = name;
        config_index_add(&e->x, e->arr, e->n, e->sz);
    }
    return (char *)e->arr + i * e->sz;
}

/* ---- sections ---- */

static bool set_expand(struct loader *ld, const struct yaml_node *v)
{
    static const char *const keys[] = {"only", "skip", NULL};
    if (!config_check_map(&ld->k, v, "expand"))
        return false;
    config_check_keys(&ld->k, v, "expand", keys);
    const struct yaml_node *only = yaml_map_get(v, "only"), *skip = yaml_map_get(v, "skip");
    unsigned bits;
    if (only && skip)
        return config_error(&ld->k, v->kids[2],
                            "'expand' takes 'only' or 'skip', not both");
    if (!only && !skip)
        return true;
    if (!config_check_bits(&ld->k, only ? only : skip, only ? "expand.only" : "expand.skip",
                  config_heads, &bits))
        return false;
    ld->cfg->skip_heads = only ? ALL_BITS(8) & ~bits : bits;
    return true;
}

static bool set_output(struct loader *ld, const struct yaml_node *v)
{
    static const char *const keys[] = {"width", "gensyms", "gensym-prefix", NULL};
    if (!config_check_map(&ld->k, v, "output"))
        return false;
    config_check_keys(&ld->k, v, "output", keys);
    const struct yaml_node *w = yaml_map_get(v, "width");
    const struct yaml_node *g = yaml_map_get(v, "gensyms");
    const struct yaml_node *p = yaml_map_get(v, "gensym-prefix");
    struct config *c = ld->cfg;
    long n;
    int k;
    bool ok = true;
    if (w && config_check_int(&ld->k, w, "output.width", 1, 10000, &n))
        c->width = (unsigned)n;
    else if (w)
        ok = false;
    if (g && config_check_word(&ld->k, g, "output.gensyms", config_gensym_words, &k))
        c->gensyms = (enum config_gensyms)k;
    else if (g)
        ok = false;
    if (p && !config_check_string(&ld->k, p, "output.gensym-prefix", &c->gensym_prefix))
        ok = false;
    return ok;
}

static bool indent_spec(struct loader *ld, const struct yaml_node *v,
                        const char *name, int *spec)
{
    long n = 0;
    bool plain = v->kind == YAML_SCALAR && v->style == YAML_STYLE_PLAIN;
    if (plain && (strcmp(v->text, "defun") == 0 || strcmp(v->text, "nil") == 0)) {
        *spec = v->text[0] == 'd' ? CONFIG_INDENT_DEFUN : CONFIG_INDENT_NIL;
        return true;
    }
    if (!plain || v->text[0] < '0' || v->text[0] > '9')
        return config_error(&ld->k, v,
                            "indent spec of '%s' must be an integer, defun or nil", name);
    bool ok = config_check_int(&ld->k, v, dotted(ld, "indent", name), 0, 1000, &n);
    *spec = (int)n;
    return ok;
}

static int by_name(const void *x, const void *y)
{
    return strcmp(((const struct config_indent *)x)->name,
                  ((const struct config_indent *)y)->name);
}

static bool set_indent(struct loader *ld, const struct yaml_node *v)
{
    if (!config_check_map(&ld->k, v, "indent"))
        return false;
    bool ok = true;
    struct config *c = ld->cfg;
    struct entries e;
    entries_open(ld, &e, c->indent, c->n_indent, sizeof *c->indent);
    for (size_t i = 0; i < v->n; i++) {
        const char *name = v->kids[2 * i]->text;
        int spec = CONFIG_INDENT_NIL;
        if (!indent_spec(ld, v->kids[2 * i + 1], name, &spec)) {
            ok = false;
            continue;
        }
        *(struct config_indent *)entries_at(ld, &e, name) = (struct config_indent){name, spec};
    }
    c->indent = e.arr;
    c->n_indent = e.n;
    if (c->n_indent > 1) /* qsort may not be given NULL, even for 0 */
        qsort(c->indent, c->n_indent, sizeof *c->indent, by_name);
    return ok;
}

/* Read a snippet with the caller's reader: exactly one form. */
static struct value *check_snippet(struct loader *ld, const struct yaml_node *v,
                                   const char *what)
{
    size_t off = 0;
    const char *why = "not one complete form";
    if (!ld->p->lisp.read)
        return ld->L->nil;
    struct value *form = ld->p->lisp.read(ld->p->lisp.ctx, ld->L, v->text, v->len,
                                          &off, &why);
    if (form)
        return form;
    uint32_t pos = yaml_text_offset(&ld->src, v, off);
    diag_add(&ld->d, DIAG_ERROR, pos, pos, "config",
             "'%s' must read as exactly one Lisp form: %s; quote the value or "
             "use a | block", what, why);
    return NULL;
}

static bool snippet(struct loader *ld, const struct yaml_node *v, const char *what,
                    struct config_snippet *out, struct value **form)
{
    if (!config_check_scalar(&ld->k, v, what))
        return false;
    *out = (struct config_snippet){v->text, v->len, v, &ld->src};
    *form = check_snippet(ld, v, what);
    return *form != NULL;
}

static bool set_template(struct loader *ld, struct entries *e, const char *name,
                         const struct yaml_node *v)
{
    static const char *const keys[] = {"args", "expand", NULL};
    const char *what = dotted(ld, "pattern-macros", name);
    if (!config_check_map(&ld->k, v, what))
        return false;
    config_check_keys(&ld->k, v, what, keys);
    const struct yaml_node *args = yaml_map_get(v, "args"), *ex = yaml_map_get(v, "expand");
    if (!ex)
        return config_error(&ld->k, v->kind == YAML_MAP && v->n ? v->kids[0] : v,
                            "'%s' needs 'expand' (one backquote form)", what);
    struct config_template t = {name, {"()", 2, ex, &ld->src}, {0}};
    struct value *fa = ld->L->nil, *fe, *sym = intern_cstr(ld->L, name);
    bool ok = !args || snippet(ld, args, dotted(ld, what, "args"), &t.args, &fa);
    if (!snippet(ld, ex, dotted(ld, what, "expand"), &t.expand, &fe) || !ok)
        return false;
    const char *why = ld->p->lisp.check ? ld->p->lisp.check(ld->p->lisp.ctx, ld->L,
                                                            sym, fa, fe) : NULL;
    if (why)
        return config_error(&ld->k, ex, "%s", why);
    *(struct config_template *)entries_at(ld, e, name) = t;
    return true;
}

static bool set_templates(struct loader *ld, const struct yaml_node *v)
{
    if (!config_check_map(&ld->k, v, "pattern-macros"))
        return false;
    bool ok = true;
    struct config *c = ld->cfg;
    struct entries e;
    entries_open(ld, &e, c->templates, c->n_templates, sizeof *c->templates);
    for (size_t i = 0; i < v->n; i++)
        ok &= set_template(ld, &e, v->kids[2 * i]->text, v->kids[2 * i + 1]);
    c->templates = e.arr;
    c->n_templates = e.n;
    return ok;
}

static bool set_builtins(struct loader *ld, const struct yaml_node *v)
{
    unsigned bits;
    if (!config_check_bits(&ld->k, v, "builtin-pattern-macros", builtins, &bits))
        return false;
    ld->cfg->builtins = bits;
    return true;
}

/* A list of non-empty strings. */
static bool get_strings(struct loader *ld, const struct yaml_node *v,
                        const char *what, const char ***out, size_t *n)
{
    if (!config_check_seq(&ld->k, v, what))
        return false;
    const char **list = ARENA_NEWN(ld->a, const char *, v->n + 1);
    bool ok = true;
    for (size_t i = 0; i < v->n; i++)
        ok &= config_check_string(&ld->k, v->kids[i], what, &list[i]);
    *out = list;
    *n = v->n;
    return ok;
}

static bool set_struct(struct loader *ld, struct entries *e, const char *name,
                       const struct yaml_node *v)
{
    static const char *const keys[] = {"type", "named", "slots", NULL};
    const char *what = dotted(ld, "structs", name);
    if (!config_check_map(&ld->k, v, what))
        return false;
    config_check_keys(&ld->k, v, what, keys);
    struct config_struct s = {name, CONFIG_STRUCT_RECORD, false, NULL, 0};
    const struct yaml_node *type = yaml_map_get(v, "type");
    const struct yaml_node *named = yaml_map_get(v, "named");
    const struct yaml_node *slots = yaml_map_get(v, "slots");
    int k = 0;
    bool ok = !type || config_check_word(&ld->k, type, dotted(ld, what, "type"),
                                         struct_types, &k);
    s.type = (enum config_struct_type)k;
    ok &= !named || config_check_bool(&ld->k, named, dotted(ld, what, "named"), &s.named);
    if (!slots)
        return config_error(&ld->k, v->kind == YAML_MAP && v->n ? v->kids[0] : v,
                            "'%s' needs 'slots' (the slot names in order)", what);
    ok &= get_strings(ld, slots, dotted(ld, what, "slots"), &s.slots, &s.n_slots);
    if (!ok)
        return false;
    *(struct config_struct *)entries_at(ld, e, name) = s;
    return true;
}

static bool set_structs(struct loader *ld, const struct yaml_node *v)
{
    if (!config_check_map(&ld->k, v, "structs"))
        return false;
    bool ok = true;
    struct config *c = ld->cfg;
    struct entries e;
    entries_open(ld, &e, c->structs, c->n_structs, sizeof *c->structs);
    for (size_t i = 0; i < v->n; i++)
        ok &= set_struct(ld, &e, v->kids[2 * i]->text, v->kids[2 * i + 1]);
    c->structs = e.arr;
    c->n_structs = e.n;
    return ok;
}

static bool set_warnings(struct loader *ld, const struct yaml_node *v)
{
    if (!config_check_map(&ld->k, v, "warnings"))
        return false;
    bool ok = true;
    for (size_t i = 0; i < v->n; i++) {
        const struct yaml_node *k = v->kids[2 * i];
        int code = config_word(warning_codes, k->text);
        bool on;
        if (code < 0)
            ok = config_error(&ld->k, k, "unknown warning code '%s' (expected %s)", k->text,
                              config_words(ld->a, warning_codes));
        else if (!config_check_bool(&ld->k, v->kids[2 * i + 1],
                                    dotted(ld, "warnings", k->text), &on))
            ok = false;
        else if (on)
            ld->cfg->warnings_off &= ~(1u << code);
        else
            ld->cfg->warnings_off |= 1u << code;
    }
    return ok;
}

/* Directories searched for required features, relative to this file's
 * directory (kept as written, for --print-config, and resolved). */
static bool set_load_path(struct loader *ld, const struct yaml_node *v)
{
    struct config *c = ld->cfg;
    if (!get_strings(ld, v, "load-path", &c->load_path, &c->n_load_path))
        return false;
    c->load_dirs = ARENA_NEWN(ld->a, const char *, c->n_load_path + 1);
    for (size_t i = 0; i < c->n_load_path; i++)
        c->load_dirs[i] = config_path_join(ld->a, ld->dir, c->load_path[i]);
    return true;
}

static bool set_exclude(struct loader *ld, const struct yaml_node *v)
{
    return get_strings(ld, v, "exclude", &ld->cfg->exclude, &ld->cfg->n_exclude);
}

static bool set_goldens(struct loader *ld, const struct yaml_node *v)
{
    static const char *const keys[] = {"manifest", NULL};
    if (!config_check_map(&ld->k, v, "goldens"))
        return false;
    config_check_keys(&ld->k, v, "goldens", keys);
    const struct yaml_node *m = yaml_map_get(v, "manifest");
    if (!m)
        return true;
    if (!config_check_string(&ld->k, m, "goldens.manifest", &ld->cfg->manifest))
        return false;
    ld->cfg->manifest_path = config_path_join(ld->a, ld->dir, ld->cfg->manifest);
    return true;
}

/* Top-level keys, sorted; version and extends are handled first. */
static const struct {
    const char *key;
    bool (*set)(struct loader *ld, const struct yaml_node *v);
} sections[] = {
    {"builtin-pattern-macros", set_builtins},
    {"exclude", set_exclude},
    {"expand", set_expand},
    {"extends", NULL},
    {"goldens", set_goldens},
    {"indent", set_indent},
    {"load-path", set_load_path},
    {"output", set_output},
    {"pattern-macros", set_templates},
    {"structs", set_structs},
    {"version", NULL},
    {"warnings", set_warnings},
};

static bool apply(struct loader *ld, const struct yaml_node *key,
                  const struct yaml_node *v)
{
    size_t n = sizeof sections / sizeof sections[0];
    for (size_t i = 0; i < n; i++)
        if (strcmp(sections[i].key, key->text) == 0)
            return !sections[i].set || sections[i].set(ld, v);
    struct buf b;
    buf_init(&b, ld->a);
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", sections[i].key);
    return config_error(&ld->k, key, "unknown key '%s' (expected one of %s)", key->text,
                        buf_cstr(&b));
}

/* ---- files ---- */

static const struct config *load(struct arena *a, const char *path,
                                 const struct config_params *p, struct buf *msgs,
                                 const char **chain, size_t depth);

static bool check_version(struct loader *ld, const struct yaml_node *root)
{
    if (root->kind == YAML_NULL)
        return config_error(&ld->k, root,
                            "empty configuration: it needs at least 'version: 1'");
    if (root->kind != YAML_MAP)
        return config_error(&ld->k, root, "a configuration must be a mapping of keys");
    const struct yaml_node *v = yaml_map_get(root, "version");
    if (!v)
        return config_error(&ld->k, root, "missing 'version: 1' (required)");
    if (v->kind != YAML_SCALAR || v->style != YAML_STYLE_PLAIN || strcmp(v->text, "1"))
        return config_error(&ld->k, v, "unsupported version '%s' (only version 1 exists)",
                            v->kind == YAML_SCALAR ? v->text : "");
    return true;
}

/* config_error() for functions that return a pointer. */
static void *fail_null(struct loader *ld, const struct yaml_node *at,
                       const char *msg, const char *arg)
{
    config_error(&ld->k, at, msg, arg);
    return NULL;
}

/* The configuration this file starts from: what `extends:` names, or the
 * defaults.  NULL after an error. */
static struct config *base_of(struct loader *ld, const struct yaml_node *root,
                              struct buf *msgs)
{
    struct config *cfg = ARENA_NEW(ld->a, struct config);
    const struct yaml_node *ext = yaml_map_get(root, "extends");
    const char *rel;
    *cfg = defaults;
    if (!ext)
        return cfg;
    if (!config_check_string(&ld->k, ext, "extends", &rel))
        return NULL;
    const char *path = config_path_join(ld->a, ld->dir, rel);
    const char *abs = config_path_abs(ld->a, path);
    for (size_t i = 0; i <= ld->depth; i++)
        if (strcmp(ld->chain[i], abs) == 0)
            return fail_null(ld, ext, "'extends' makes a cycle: '%s' is already "
                             "being read", rel);
    if (ld->depth + 1 >= MAX_EXTENDS)
        return fail_null(ld, ext, "'extends' goes deeper than %s files", "8");
    struct stat st;
    const char *why = config_file_check(path, &st);
    if (why) {
        config_error(&ld->k, ext, "'extends': cannot read '%s': %s", rel, why);
        return NULL;
    }
    ld->chain[ld->depth + 1] = abs;
    const struct config *base = load(ld->a, path, ld->p, msgs, ld->chain, ld->depth + 1);
    if (!base)
        return fail_null(ld, ext, "'extends': '%s' has errors", rel);
    *cfg = *base;
    return cfg;
}

/* Fill ld->cfg from the parsed root; false after an error. */
static bool load_tree(struct loader *ld, const struct yaml_node *root, struct buf *msgs)
{
    if (!check_version(ld, root))
        return false;
    ld->cfg = base_of(ld, root, msgs);
    if (!ld->cfg)
        return false;
    bool ok = true;
    for (size_t i = 0; i < root->n; i++)
        ok &= apply(ld, root->kids[2 * i], root->kids[2 * i + 1]);
    const char **chain = ARENA_NEWN(ld->a, const char *, ld->cfg->n_chain + 1);
    chain[0] = ld->path;
    if (ld->cfg->n_chain)
        memcpy(chain + 1, ld->cfg->chain, ld->cfg->n_chain * sizeof *chain);
    ld->cfg->chain = chain;
    ld->cfg->n_chain++;
    ld->cfg->path = ld->path;
    ld->cfg->abs_dir = config_path_abs(ld->a, ld->dir);
    return ok;
}

/* The configuration in text (the file path, already read). */
static const struct config *load_text(struct arena *a, const char *path,
                                      const uint8_t *text, size_t len,
                                      const struct config_params *p, struct buf *msgs,
                                      const char **chain, size_t depth)
{
    struct loader ld = {.a = a, .p = p, .path = path, .chain = chain, .depth = depth};
    ld.k = (struct config_check){a, &ld.d, "config"};
    ld.dir = config_path_dir(a, path);
    ld.L = intern_new(a);
    source_init(&ld.src, a, path, text, len);
    diag_init(&ld.d, a);
    struct yaml_node *root;
    bool ok = yaml_parse(a, &ld.src, "config", &ld.d, &root) &&
              load_tree(&ld, root, msgs);
    diag_sort(&ld.d);
    report_render(msgs, &ld.src, &ld.d, &p->report);
    return ok && ld.d.n_errors == 0 ? ld.cfg : NULL;
}

static const struct config *load(struct arena *a, const char *path,
                                 const struct config_params *p, struct buf *msgs,
                                 const char **chain, size_t depth)
{
    struct file_data fd;
    if (!config_read_file(a, path, &fd)) {
        report_plain(msgs, path, DIAG_ERROR, "config", fd.error, &p->report);
        return NULL;
    }
    return load_text(a, path, fd.data, fd.len, p, msgs, chain, depth);
}

/* A new chain of files being loaded, path first. */
static const char **new_chain(struct arena *a, const char *path)
{
    const char **chain = ARENA_NEWN(a, const char *, MAX_EXTENDS);
    chain[0] = config_path_abs(a, path);
    return chain;
}

const struct config *config_load_text(struct arena *a, const char *path,
                                      const uint8_t *text, size_t len,
                                      const struct config_params *p, struct buf *msgs)
{
    return load_text(a, path, text, len, p, msgs, new_chain(a, path), 0);
}

const struct config *config_load(struct arena *a, const char *path,
                                 const struct config_params *p, struct buf *msgs)
{
    return load(a, path, p, msgs, new_chain(a, path), 0);
}

/* ---- using a configuration ---- */

/* Read one snippet of cfg again, into L. */
static struct value *reread(const struct config_lisp *lisp, struct lisp *L,
                            const struct config_snippet *sn)
{
    size_t off;
    const char *why;
    return lisp->read ? lisp->read(lisp->ctx, L, sn->text, sn->len, &off, &why) : NULL;
}

bool config_values(const struct config *cfg, struct lisp *L,
                   const struct config_lisp *lisp, struct config_values *out)
{
    memset(out, 0, sizeof *out);
    out->templates = ARENA_NEWN(L->a, struct config_value_template, cfg->n_templates + 1);
    out->structs = ARENA_NEWN(L->a, struct config_value_struct, cfg->n_structs + 1);
    for (size_t i = 0; i < cfg->n_templates; i++) {
        const struct config_template *t = &cfg->templates[i];
        struct config_value_template *v = &out->templates[out->n_templates++];
        v->name = intern_cstr(L, t->name);
        v->args = reread(lisp, L, &t->args);
        v->body = reread(lisp, L, &t->expand);
        if (!v->args || !v->body)
            return false;
    }
    for (size_t i = 0; i < cfg->n_structs; i++) {
        const struct config_struct *s = &cfg->structs[i];
        struct value **slots = ARENA_NEWN(L->a, struct value *, s->n_slots + 1);
        for (size_t k = 0; k < s->n_slots; k++)
            slots[k] = intern_cstr(L, s->slots[k]);
        out->structs[out->n_structs++] = (struct config_value_struct){
            intern_cstr(L, s->name), s->type, s->named, lisp_list(L, s->n_slots, slots)};
    }
    return true;
}

bool config_warning_on(const struct config *cfg, const char *code)
{
    int k = code ? config_word(warning_codes, code) : -1;
    return k < 0 || !(cfg->warnings_off & (1u << k));
}

void config_filter_diags(const struct config *cfg, struct diag_list *d)
{
    size_t k = 0;
    bool dropping = false;
    for (size_t i = 0; i < d->n; i++) {
        struct diag *g = &d->items[i];
        if (g->sev != DIAG_NOTE)
            dropping = g->sev == DIAG_WARNING && !config_warning_on(cfg, g->code);
        if (dropping && g->sev == DIAG_WARNING)
            d->n_warnings--;
        if (!dropping)
            d->items[k++] = *g;
    }
    d->n = k;
}

/* ---- printing ---- */

/* The names of the bits of mask, in table order. */
static struct yaml_node *bit_list(struct arena *a, const char *const *words,
                                  unsigned mask)
{
    struct yaml_node *l = yaml_new(a, YAML_SEQ);
    for (unsigned i = 0; words[i]; i++)
        if (mask & (1u << i))
            yaml_push(a, l, yaml_new_string(a, words[i], strlen(words[i])));
    return l;
}

static struct yaml_node *string_list(struct arena *a, const char *const *s, size_t n)
{
    struct yaml_node *l = yaml_new(a, YAML_SEQ);
    for (size_t i = 0; i < n; i++)
        yaml_push(a, l, yaml_new_string(a, s[i], strlen(s[i])));
    return l;
}

static struct yaml_node *print_output(struct arena *a, const struct config *c)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "width", yaml_new_int(a, c->width));
    yaml_put(a, m, "gensyms", yaml_new_plain(a, config_gensym_words[c->gensyms]));
    yaml_put(a, m, "gensym-prefix",
             yaml_new_string(a, c->gensym_prefix, strlen(c->gensym_prefix)));
    return m;
}

static struct yaml_node *print_indent(struct arena *a, const struct config *c)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    for (size_t i = 0; i < c->n_indent; i++) {
        int spec = c->indent[i].spec;
        yaml_put(a, m, c->indent[i].name,
                 spec >= 0 ? yaml_new_int(a, spec)
                 : yaml_new_plain(a, spec == CONFIG_INDENT_DEFUN ? "defun" : "nil"));
    }
    return m;
}

static struct yaml_node *print_templates(struct arena *a, const struct config *c)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    for (size_t i = 0; i < c->n_templates; i++) {
        const struct config_template *t = &c->templates[i];
        struct yaml_node *e = yaml_new(a, YAML_MAP);
        yaml_put(a, e, "args", yaml_new_string(a, t->args.text, t->args.len));
        yaml_put(a, e, "expand", yaml_new_string(a, t->expand.text, t->expand.len));
        yaml_put(a, m, t->name, e);
    }
    return m;
}

static struct yaml_node *print_structs(struct arena *a, const struct config *c)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    for (size_t i = 0; i < c->n_structs; i++) {
        const struct config_struct *s = &c->structs[i];
        struct yaml_node *e = yaml_new(a, YAML_MAP);
        yaml_put(a, e, "type", yaml_new_plain(a, struct_types[s->type]));
        yaml_put(a, e, "named", yaml_new_bool(a, s->named));
        yaml_put(a, e, "slots", string_list(a, s->slots, s->n_slots));
        yaml_put(a, m, s->name, e);
    }
    return m;
}

static struct yaml_node *print_warnings(struct arena *a, const struct config *c)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    for (unsigned i = 0; warning_codes[i]; i++)
        yaml_put(a, m, warning_codes[i], yaml_new_bool(a, !(c->warnings_off & (1u << i))));
    return m;
}

/* "# pcexpand configuration: FILE (extends B, C)" or the defaults. */
static void print_source(const struct config *c, struct buf *out)
{
    if (!c->path) {
        buf_puts(out, "# pcexpand configuration: built-in defaults "
                      "(no configuration file)\n");
        return;
    }
    buf_printf(out, "# pcexpand configuration: %s", c->path);
    for (size_t i = 1; i < c->n_chain; i++)
        buf_printf(out, "%s%s", i == 1 ? " (extends " : ", ", c->chain[i]);
    buf_puts(out, c->n_chain > 1 ? ")\n" : "\n");
}

void config_print(const struct config *cfg, struct arena *a, struct buf *out)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP), *ex = yaml_new(a, YAML_MAP);
    struct yaml_node *gold = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "version", yaml_new_int(a, 1));
    yaml_put(a, ex, "only", bit_list(a, config_heads, ALL_BITS(8) & ~cfg->skip_heads));
    yaml_put(a, m, "expand", ex);
    yaml_put(a, m, "output", print_output(a, cfg));
    yaml_put(a, m, "indent", print_indent(a, cfg));
    yaml_put(a, m, "pattern-macros", print_templates(a, cfg));
    yaml_put(a, m, "builtin-pattern-macros", bit_list(a, builtins, cfg->builtins));
    yaml_put(a, m, "structs", print_structs(a, cfg));
    yaml_put(a, m, "load-path", string_list(a, cfg->load_path, cfg->n_load_path));
    yaml_put(a, m, "warnings", print_warnings(a, cfg));
    yaml_put(a, m, "exclude", string_list(a, cfg->exclude, cfg->n_exclude));
    if (cfg->manifest)
        yaml_put(a, gold, "manifest",
                 yaml_new_string(a, cfg->manifest, strlen(cfg->manifest)));
    yaml_put(a, m, "goldens", gold);
    print_source(cfg, out);
    yaml_emit(out, m, YAML_EMIT_BLOCK);
}
