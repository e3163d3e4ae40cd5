/* api_load.c - the load path: the files of the features an input requires.
 *
 * A (require 'F) at the top level of an input, or of a file it requires,
 * makes the run read F.el, else F.el.gz, from the first directory of its
 * load path that has one: the input's own directory, the -L directories,
 * then the configuration's load-path (cli.md 12); directories are not
 * searched recursively, as in Emacs.  The file is read, never expanded
 * nor printed, and learned from (learn.h): its struct layouts and pattern
 * macros at once, its calls of macros of the required files (definer
 * macros) as they come, its defuns, defmacros and constants when an
 * evaluated macro needs them; its requires are followed in turn.  Each
 * file is learned once per run, so cycles end.  A feature not found is no
 * error (Emacs's own features need not be on the load path); a file that
 * does not read is a warning (library-unreadable) and what it defines
 * before the error is still learned.
 *
 * Each file is read once per context (struct api_library, shared by the
 * -j threads under a lock): the reader's values are made in a scratch
 * arena and only the text of each top-level form that matters is kept,
 * with what it defines (a summary); a run reads the forms it needs from
 * that text into its own values.  A file is never read twice, and the
 * memory a context keeps is at most the size of the files read.
 */
#include "api_int.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "expand/learn.h"
#include "expand/pcase_macros.h"
#include "io/file.h"

/* The text of a required file, decompressed. */
#define LOAD_MAX_TEXT ((size_t)8 << 20)
/* Memory to read one required file with (its values, in scratch). */
#define LOAD_MAX_MEMORY ((size_t)512 << 20)

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the summary of a file ---- */

enum entry_kind {
    E_REQUIRE,    /* (require 'FEATURE [FILE]) */
    E_DEFINITION, /* cl-defstruct, pcase-defmacro: learned at once */
    E_CALL,       /* a call that may be of a definer macro */
    E_FUNCTION,   /* defun, defsubst, cl-defun, defalias... */
    E_MACRO,      /* defmacro, cl-defmacro */
    E_VARIABLE,   /* defvar, defconst with a value */
};

struct entry {
    enum entry_kind kind;
    const char *name;    /* the feature, the name defined, the head called */
    const char *file;    /* E_REQUIRE: its FILE argument, or NULL */
    const uint8_t *text; /* the form's text (not for E_REQUIRE) */
    size_t len;
};

struct lib_file {
    const char *path;    /* as found: DIR/F.el or DIR/F.el.gz */
    struct entry *e;     /* in file order */
    size_t n;
    const char *warning; /* why it was not read in full, or NULL */
};

struct api_library {
    pthread_mutex_t lock;
    struct arena *a;         /* the summaries */
    struct lib_file **slots; /* hash of paths */
    size_t n, cap;
};

struct api_library *api_library_new(void)
{
    struct api_library *lib = calloc(1, sizeof *lib);
    if (!lib)
        return NULL;
    lib->a = arena_new(NULL);
    if (!lib->a || pthread_mutex_init(&lib->lock, NULL) != 0) {
        arena_free(lib->a);
        free(lib);
        return NULL;
    }
    return lib;
}

void api_library_free(struct api_library *lib)
{
    if (!lib)
        return;
    pthread_mutex_destroy(&lib->lock);
    arena_free(lib->a);
    free(lib);
}

static size_t hash_name(const char *s)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * UINT64_C(1099511628211);
    return (size_t)(h ^ (h >> 29));
}

/* The slot of path in lib's hash (its file, or an empty slot). */
static struct lib_file **lib_slot(struct api_library *lib, const char *path)
{
    for (size_t j = hash_name(path) & (lib->cap - 1);; j = (j + 1) & (lib->cap - 1))
        if (!lib->slots[j] || strcmp(lib->slots[j]->path, path) == 0)
            return &lib->slots[j];
}

/* Insert f (lib_reserve made room). */
static void lib_insert(struct api_library *lib, struct lib_file *f)
{
    *lib_slot(lib, f->path) = f;
    lib->n++;
}

/* Heads of top-level forms that define nothing pcexpand uses and are
 * not definer macros (standard macros and functions); sorted.  Any other
 * call is kept, in case a required file makes it a macro. */
static const char *const not_definers[] = {
    "add-hook", "add-to-list", "advice-add", "autoload", "cl-defgeneric", "cl-defmethod",
    "custom-add-option", "custom-autoload", "declare-function", "defadvice", "defclass",
    "defcustom", "defface", "defgroup", "define-abbrev-table", "define-derived-mode",
    "define-error", "define-globalized-minor-mode", "define-key", "define-minor-mode",
    "define-obsolete-face-alias", "define-obsolete-function-alias",
    "define-obsolete-variable-alias", "defvar-keymap", "defvar-local", "defvaralias",
    "easy-menu-define", "eval-after-load", "function-put", "if", "let", "let*",
    "make-obsolete", "make-obsolete-variable", "make-variable-buffer-local", "provide",
    "put", "set-advertised-calling-convention", "setq", "setq-default", "unless", "when",
    "with-eval-after-load",
};

static int str_cmp(const void *key, const void *row)
{
    return strcmp(key, *(const char *const *)row);
}

/* Reading one file into its summary (scratch values, kept text). */
struct distill {
    struct api_library *lib;
    struct lisp *L;             /* scratch */
    const struct read_result *rd;
    const uint8_t *text;
    struct entry *e;
    size_t n, cap;
};

static const char *keep_name(struct distill *d, const struct value *sym)
{
    return arena_strndup(d->lib->a, sym->u.sym.name, sym->u.sym.len);
}

static void add_entry(struct distill *d, enum entry_kind kind, const struct value *name,
                      const struct value *form)
{
    struct span sp = {0, 0};
    if (kind != E_REQUIRE && !read_origin_span(d->rd, form, &sp))
        return;
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 32;
        d->e = arena_grow(d->lib->a, d->e, d->cap * sizeof *d->e, cap * sizeof *d->e);
        d->cap = cap;
    }
    struct entry *e = &d->e[d->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->name = keep_name(d, name);
    if (kind != E_REQUIRE) {
        e->len = sp.end - sp.start;
        uint8_t *t = arena_alloc(d->lib->a, e->len + 1);
        memcpy(t, d->text + sp.start, e->len);
        t[e->len] = 0;
        e->text = t;
    }
}

static struct value *nth(struct lisp *L, struct value *form, size_t n)
{
    for (; n > 0 && value_consp(form); n--)
        form = value_cdr(form);
    return value_consp(form) ? value_car(form) : L->nil;
}

/* (quote SYM) -> SYM, else NULL. */
static struct value *quoted(struct lisp *L, struct value *v)
{
    if (!value_consp(v) || value_car(v) != L->quote)
        return NULL;
    struct value *s = nth(L, v, 1);
    return value_symbolp(s) && s != L->nil ? s : NULL;
}

static void distill_require(struct distill *d, struct value *form)
{
    struct value *feature = quoted(d->L, nth(d->L, form, 1));
    struct value *file = nth(d->L, form, 2);
    if (!feature)
        return;
    add_entry(d, E_REQUIRE, feature, form);
    if (value_is(file, VK_STRING))
        d->e[d->n - 1].file = arena_strndup(d->lib->a, (const char *)file->u.str.data,
                                            file->u.str.len);
}

/* What one top-level form (or a form of a progn-like body) is to the
 * summary; *from gets the index of the body forms to look at (0: none). */
static size_t distill_one(struct distill *d, struct value *form)
{
    struct value *head = value_car(form), *name = nth(d->L, form, 1);
    const char *h = head->u.sym.name;
    static const char *const bodies[] = {"eval-and-compile", "eval-when-compile", "progn",
                                         "with-no-warnings"};
    if (bsearch(h, bodies, NELEM(bodies), sizeof *bodies, str_cmp))
        return 1;
    if (strcmp(h, "cl-eval-when") == 0)
        return 2;
    if (strcmp(h, "require") == 0)
        distill_require(d, form);
    else if (strcmp(h, "defmacro") == 0 || strcmp(h, "cl-defmacro") == 0)
        add_entry(d, E_MACRO, name, form);
    else if (strcmp(h, "defun") == 0 || strcmp(h, "defsubst") == 0 ||
             strcmp(h, "cl-defun") == 0 || strcmp(h, "cl-defsubst") == 0)
        add_entry(d, E_FUNCTION, name, form);
    else if (strcmp(h, "defalias") == 0 && quoted(d->L, name))
        add_entry(d, E_FUNCTION, quoted(d->L, name), form);
    else if ((strcmp(h, "defvar") == 0 || strcmp(h, "defconst") == 0) &&
             value_consp(value_cdr(value_cdr(form))))
        add_entry(d, E_VARIABLE, name, form);
    else if (strcmp(h, "cl-defstruct") == 0 || strcmp(h, "pcase-defmacro") == 0 ||
             strcmp(h, "rx-define") == 0)
        add_entry(d, E_DEFINITION, value_consp(name) ? value_car(name) : name, form);
    else if (!bsearch(h, not_definers, NELEM(not_definers), sizeof *not_definers, str_cmp))
        add_entry(d, E_CALL, head, form);
    return 0;
}

/* The summary of the forms read: an explicit stack for progn bodies. */
static void distill_forms(struct distill *d)
{
    size_t cap = 64, top = 0;
    struct value **st = ARENA_NEWN(d->L->a, struct value *, cap);
    for (size_t i = d->rd->n_forms; i-- > 0;) {
        if (top == cap) {
            st = arena_grow(d->L->a, st, cap * sizeof *st, 2 * cap * sizeof *st);
            cap *= 2;
        }
        st[top++] = d->rd->forms[i].v;
    }
    while (top) {
        struct value *f = st[--top];
        if (!value_consp(f) || !value_symbolp(value_car(f)) || !value_car(f)->u.sym.interned)
            continue;
        size_t from = distill_one(d, f);
        if (!from)
            continue;
        struct value *body = f;
        for (size_t k = 0; k < from && value_consp(body); k++)
            body = value_cdr(body);
        long n = value_list_length(body, d->L->nil);
        if (n <= 0)
            continue;
        while (top + (size_t)n > cap) {
            st = arena_grow(d->L->a, st, cap * sizeof *st, 2 * cap * sizeof *st);
            cap *= 2;
        }
        for (long k = n - 1; k >= 0; k--, body = value_cdr(body))
            st[top + (size_t)k] = value_car(body);
        top += (size_t)n;
    }
}

/* "LINE:COL: MESSAGE" of a reader error in text. */
static const char *read_error_where(struct arena *a, struct lisp *L, const uint8_t *text,
                                    size_t len, const struct read_error *err)
{
    size_t line = 1, col = 1;
    for (size_t i = 0; i < err->pos && i < len; i++, col++)
        if (text[i] == '\n') {
            line++;
            col = 0;
        }
    struct buf b;
    buf_init(&b, a);
    (void)L;
    buf_printf(&b, "line %zu, column %zu: %s%s%s", line, col, err->symbol,
               err->message && *err->message ? ": " : "", err->message ? err->message : "");
    return buf_cstr(&b);
}

static bool gzipped(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* Read and distill the file f->path into f (under lib's lock); scratch
 * holds the values; f->warning says what went wrong. */
static void load_into(struct api_library *lib, struct arena *scratch, struct lib_file *f)
{
    struct file_data fd;
    bool ok = gzipped(f->path) ? file_read_gzip(scratch, f->path, LOAD_MAX_TEXT, &fd)
                               : file_read(scratch, f->path, &fd);
    if (ok && fd.len > LOAD_MAX_TEXT) {
        ok = false;
        fd.error = "cannot read: File too large";
    }
    if (!ok) {
        f->warning = arena_strndup(lib->a, fd.error, strlen(fd.error));
        return;
    }
    struct lisp *L = intern_new(scratch);
    struct read_result rd;
    bool read = read_source(L, fd.data, fd.len, &rd);
    struct distill d = {lib, L, &rd, fd.data, NULL, 0, 0};
    distill_forms(&d);
    f->e = d.e;
    f->n = d.n;
    if (!read) {
        const char *w = read_error_where(scratch, L, fd.data, fd.len, &rd.err);
        f->warning = arena_strndup(lib->a, w, strlen(w));
    }
}

/* Room in lib's hash for one more file: inserting it needs no memory. */
static void lib_reserve(struct api_library *lib)
{
    if (2 * (lib->n + 1) <= lib->cap)
        return;
    size_t old = lib->cap;
    struct lib_file **slots = lib->slots;
    lib->cap = old ? 2 * old : 64;
    lib->slots = arena_zalloc(lib->a, lib->cap * sizeof *lib->slots);
    for (size_t i = 0; i < old; i++)
        if (slots[i])
            *lib_slot(lib, slots[i]->path) = slots[i];
}

/* The summary of the file at path, read on first use (under the lock,
 * with the out-of-memory jump of the memory it takes).  Thread-safe. */
static const struct lib_file *lib_get(struct api_library *lib, const char *path)
{
    static const struct lib_file oom = {NULL, NULL, 0, "out of memory"};
    pthread_mutex_lock(&lib->lock);
    struct lib_file *volatile f = lib->cap ? *lib_slot(lib, path) : NULL;
    if (f) {
        pthread_mutex_unlock(&lib->lock);
        return f;
    }
    jmp_buf jb;
    struct arena *volatile scratch = NULL;
    if (setjmp(jb) == 0) {
        arena_on_oom(lib->a, &jb);
        lib_reserve(lib);
        struct lib_file *g = ARENA_NEW(lib->a, struct lib_file);
        g->path = arena_strndup(lib->a, path, strlen(path));
        f = g;
        scratch = arena_new(NULL);
        if (scratch) {
            scratch->limit = LOAD_MAX_MEMORY;
            arena_on_oom(scratch, &jb);
            load_into(lib, scratch, g);
        } else {
            g->warning = oom.warning;
        }
    } else if (f) {
        /* a huge file: nothing of it is kept */
        f->e = NULL;
        f->n = 0;
        f->warning = "cannot read: too large (more than 512 MiB of memory to read it)";
    }
    arena_on_oom(lib->a, NULL);
    arena_free(scratch);
    if (f)
        lib_insert(lib, f); /* room was reserved */
    pthread_mutex_unlock(&lib->lock);
    return f ? f : &oom;
}

/* ---- a run's loader ---- */

/* A definition of a file learned this run. */
struct ref {
    const char *name;
    bool variable;
    const struct lib_file *f;
    const struct entry *e;
};

/* A file being learned from: its next entry. */
struct pending {
    const struct lib_file *f;
    size_t next;
    const char *by;         /* the file that required it (NULL: the input) */
    const char *feature;
    struct buf *learned;    /* --verbose: what it defined, for the note */
};

/* A require met while a file is being learned from (a definer macro's
 * expansion may contain one). */
struct queued {
    struct value *feature, *file;
};

struct loader {
    struct expand_ctx *x;
    struct api_library *lib;
    const char *const *dirs;
    size_t n_dirs;
    struct learn_loader hooks;
    bool have_input;            /* the input is a file: */
    dev_t in_dev;               /* ... never learned as a library */
    ino_t in_ino;
    const char **features;      /* required this run (each once) */
    size_t n_features, cap_features;
    const char **by_files;      /* of those, required by a file read (each once) */
    size_t n_by_files, cap_by_files;
    const char **paths;         /* files learned this run (each once) */
    size_t n_paths, cap_paths;
    struct ref *refs;           /* hash of the definitions of those files */
    size_t n_refs, cap_refs;
    struct pending *stack;
    size_t top, cap;
    struct queued *queue;
    size_t n_queue, cap_queue;
    bool busy;
    const struct value *at;     /* the input's form that required */
};

static void *grow(struct arena *a, void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? 2 * *cap : 16;
    p = arena_grow(a, p, *cap * size, c * size);
    *cap = c;
    return p;
}

static bool once(struct loader *ld, const char ***set, size_t *n, size_t *cap, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*set)[i], s) == 0)
            return false;
    *set = grow(ld->x->L->a, *set, cap, *n, sizeof **set);
    (*set)[(*n)++] = s;
    return true;
}

static size_t ref_slot(const struct loader *ld, const char *name, bool variable)
{
    size_t j = (hash_name(name) * 2 + variable) & (ld->cap_refs - 1);
    while (ld->refs[j].name &&
           (ld->refs[j].variable != variable || strcmp(ld->refs[j].name, name) != 0))
        j = (j + 1) & (ld->cap_refs - 1);
    return j;
}

static void add_ref(struct loader *ld, const struct ref *r)
{
    if (2 * (ld->n_refs + 1) > ld->cap_refs) {
        struct ref *old = ld->refs;
        size_t n = ld->cap_refs;
        ld->cap_refs = n ? 2 * n : 256;
        ld->refs = arena_zalloc(ld->x->L->a, ld->cap_refs * sizeof *ld->refs);
        for (size_t i = 0; i < n; i++)
            if (old[i].name)
                ld->refs[ref_slot(ld, old[i].name, old[i].variable)] = old[i];
    }
    size_t j = ref_slot(ld, r->name, r->variable);
    if (!ld->refs[j].name)
        ld->n_refs++;
    ld->refs[j] = *r; /* the file learned last wins */
}

static const struct ref *find_ref(const struct loader *ld, const char *name, bool variable)
{
    if (!ld->cap_refs)
        return NULL;
    const struct ref *r = &ld->refs[ref_slot(ld, name, variable)];
    return r->name ? r : NULL;
}

/* The first file of the load path for FILE (a feature's name or the
 * FILE argument of require): DIR/FILE.el, else DIR/FILE.el.gz. */
static const char *find_file(struct loader *ld, const char *file)
{
    struct arena *a = ld->x->L->a;
    static const char *const suffixes[] = {".el", ".el.gz"};
    bool absolute = file[0] == '/';
    for (size_t i = 0; i < (absolute ? 1 : ld->n_dirs); i++)
        for (size_t k = 0; k < NELEM(suffixes); k++) {
            struct buf b;
            buf_init(&b, a);
            if (absolute)
                buf_printf(&b, "%s%s", file, suffixes[k]);
            else
                buf_printf(&b, "%s/%s%s", ld->dirs[i], file, suffixes[k]);
            struct stat st;
            if (stat(buf_cstr(&b), &st) == 0 && S_ISREG(st.st_mode))
                return ld->have_input && st.st_dev == ld->in_dev && st.st_ino == ld->in_ino
                           ? "" /* the input itself */
                           : buf_cstr(&b);
        }
    return NULL;
}

/* Read the form of entry e into the run's values. */
static struct value *read_entry(struct loader *ld, const struct entry *e)
{
    struct read_result rd;
    if (!read_source_opts(ld->x->L, e->text, e->len, READ_NO_ORIGIN, &rd) || rd.n_forms != 1)
        return NULL;
    return rd.forms[0].v;
}

static void note(struct loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct loader *ld, const char *fmt, ...)
{
    if (!ld->x->verbose)
        return;
    struct buf b;
    va_list ap;
    buf_init(&b, ld->x->L->a);
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    expand_diag(ld->x, DIAG_NOTE, ld->at, "require", "%s", buf_cstr(&b));
}

/* Start learning from the file of a feature (pushed on the stack). */
static void begin(struct loader *ld, const char *feature, const char *file, const char *by)
{
    if (by)
        once(ld, &ld->by_files, &ld->n_by_files, &ld->cap_by_files, feature);
    if (!once(ld, &ld->features, &ld->n_features, &ld->cap_features, feature))
        return;
    const char *path = find_file(ld, file ? file : feature);
    if (!path) {
        note(ld, "feature %s%s%s: not found on the load path", feature,
             by ? ", required by " : "", by ? by : "");
        return;
    }
    if (!*path || !once(ld, &ld->paths, &ld->n_paths, &ld->cap_paths, path))
        return;
    const struct lib_file *f = lib_get(ld->lib, path);
    if (f->warning)
        expand_diag(ld->x, DIAG_WARNING, ld->at, "library-unreadable",
                    "%s (required for %s) does not read: %s; %s", path, feature, f->warning,
                    f->n ? "the definitions after that are not learned"
                         : "nothing of it is learned");
    for (size_t i = 0; i < f->n; i++) {
        const struct entry *e = &f->e[i];
        if (e->kind == E_FUNCTION || e->kind == E_MACRO || e->kind == E_VARIABLE)
            add_ref(ld, &(struct ref){e->name, e->kind == E_VARIABLE, f, e});
    }
    ld->stack = grow(ld->x->L->a, ld->stack, &ld->cap, ld->top, sizeof *ld->stack);
    struct pending *p = &ld->stack[ld->top++];
    *p = (struct pending){f, 0, by, feature, NULL};
    if (ld->x->verbose) {
        p->learned = ARENA_NEW(ld->x->L->a, struct buf);
        buf_init(p->learned, ld->x->L->a);
    }
}

/* Is head a macro of the required files, or of the input? */
static bool macro_call(struct loader *ld, const struct entry *e)
{
    const struct ref *r = find_ref(ld, e->name, false);
    if (r)
        return r->e->kind == E_MACRO;
    const struct interp_fn *fn =
        learn_function(ld->x, intern_cstr(ld->x->L, e->name));
    return fn && fn->macro;
}

/* Learn from form (of an entry of p's file); --verbose: say what. */
static void learn_entry(struct loader *ld, struct pending *p, struct value *form)
{
    static const char *const words[] = {"pattern macro", "struct", "rx definition"};
    size_t before[3];
    for (int k = 0; k < 3; k++)
        before[k] = pcase_macros_count(ld->x->macros, (enum pcase_macros_kind)k);
    learn_library_form(ld->x, form, p->f->path, ld->at);
    for (int k = 0; p->learned && k < 3; k++) {
        size_t n = pcase_macros_count(ld->x->macros, (enum pcase_macros_kind)k);
        for (size_t i = before[k]; i < n; i++)
            buf_printf(p->learned, "%s%s %s", p->learned->len ? ", " : "", words[k],
                       pcase_macros_name(ld->x->macros, (enum pcase_macros_kind)k, i)
                           ->u.sym.name);
    }
}

/* The note of a file learned from: what it defined. */
static void finish(struct loader *ld, const struct pending *p)
{
    if (!p->learned)
        return;
    note(ld, "feature %s%s%s: read %s (%s)", p->feature, p->by ? ", required by " : "",
         p->by ? p->by : "", p->f->path,
         p->learned->len ? buf_cstr(p->learned) : "nothing pcexpand uses");
}

/* Learn from the files on the stack, entry by entry, until it is empty. */
static void run_stack(struct loader *ld)
{
    while (ld->top) {
        struct pending *p = &ld->stack[ld->top - 1];
        if (p->next == p->f->n) {
            finish(ld, p);
            ld->top--;
            continue;
        }
        const struct entry *e = &p->f->e[p->next++];
        if (e->kind == E_REQUIRE) {
            begin(ld, e->name, e->file, p->f->path); /* p may move */
        } else if (e->kind == E_DEFINITION || (e->kind == E_CALL && macro_call(ld, e))) {
            struct value *form = read_entry(ld, e);
            if (form)
                learn_entry(ld, p, form);
        }
    }
}

static const char *string_of(struct expand_ctx *x, const struct value *s)
{
    return arena_strndup(x->L->a, (const char *)s->u.str.data, s->u.str.len);
}

static void hook_require(void *ctx, struct expand_ctx *x, struct value *feature,
                         struct value *file, const struct value *at)
{
    struct loader *ld = ctx;
    if (ld->busy) {
        ld->queue = grow(x->L->a, ld->queue, &ld->cap_queue, ld->n_queue, sizeof *ld->queue);
        ld->queue[ld->n_queue++] = (struct queued){feature, file};
        return;
    }
    ld->busy = true;
    ld->at = at;
    begin(ld, feature->u.sym.name, file ? string_of(x, file) : NULL, NULL);
    run_stack(ld);
    for (size_t i = 0; i < ld->n_queue; i++) {
        struct queued q = ld->queue[i];
        begin(ld, q.feature->u.sym.name, q.file ? string_of(x, q.file) : NULL, NULL);
        run_stack(ld);
    }
    ld->n_queue = 0;
    ld->busy = false;
}

static struct value *hook_definition(void *ctx, struct expand_ctx *x, struct value *name,
                                     bool variable, const char **origin)
{
    struct loader *ld = ctx;
    (void)x;
    const struct ref *r = find_ref(ld, name->u.sym.name, variable);
    if (!r)
        return NULL;
    *origin = r->f->path;
    return read_entry(ld, r->e);
}

/* The loader of a run, as api_int.h names it. */
struct api_loader {
    struct loader ld;
};

bool api_load_required_by_file(const struct api_loader *l, const char *feature)
{
    for (size_t i = 0; l && i < l->ld.n_by_files; i++)
        if (strcmp(l->ld.by_files[i], feature) == 0)
            return true;
    return false;
}

struct api_loader *api_load_attach(struct expand_ctx *x, struct api_library *lib,
                                   const char *input, const char *const *dirs,
                                   size_t n_dirs)
{
    if (!lib)
        return NULL;
    struct api_loader *al = ARENA_NEW(x->L->a, struct api_loader);
    struct loader *ld = &al->ld;
    ld->x = x;
    ld->lib = lib;
    ld->dirs = dirs;
    ld->n_dirs = n_dirs;
    struct stat st;
    if (input && stat(input, &st) == 0) {
        ld->have_input = true;
        ld->in_dev = st.st_dev;
        ld->in_ino = st.st_ino;
    }
    ld->hooks = (struct learn_loader){hook_require, hook_definition, ld};
    if (!x->macros)
        x->macros = pcase_macros_new(x->L);
    learn_set_loader(x, &ld->hooks);
    return al;
}

