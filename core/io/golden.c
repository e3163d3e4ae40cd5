/* golden.c - the golden manifest and golden mode (golden.h).
 *
 * golden_load validates the manifest of cli.md section 13 into cases with
 * resolved options and paths.  golden_run expands each selected case
 * through the caller's function, renders the golden files (fixed header +
 * output; diagnostics for .err goldens), compares them byte for byte with
 * what is on disk, and writes them on --update.  A case is passed, failed
 * (stale golden), missing (no golden) or broken (errors where none are
 * expected); only failed and missing ones can be accepted by --update.
 */
#include "io/golden.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diff.h"
#include "io/file.h"

static const struct golden_options builtin_options = {
    80, CONFIG_GENSYMS_RENAME, "pcx--", 0,
};

/* ---- the manifest ---- */

struct mload {
    struct config_check k;
    struct arena *a;
    struct golden_manifest *m;
};

static const char *dotted(struct arena *a, const char *x, const char *y)
{
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "%s.%s", x, y);
    return buf_cstr(&b);
}

/* width, gensyms, gensym-prefix, only, skip of node (a mapping) over *o. */
static void read_options(struct mload *ld, const struct yaml_node *v,
                         const char *what, struct golden_options *o)
{
    const struct yaml_node *w = yaml_map_get(v, "width");
    const struct yaml_node *g = yaml_map_get(v, "gensyms");
    const struct yaml_node *p = yaml_map_get(v, "gensym-prefix");
    const struct yaml_node *only = yaml_map_get(v, "only"), *skip = yaml_map_get(v, "skip");
    long n;
    int k;
    unsigned bits;
    if (w && config_check_int(&ld->k, w, dotted(ld->a, what, "width"), 1, 10000, &n))
        o->width = (unsigned)n;
    if (g && config_check_word(&ld->k, g, dotted(ld->a, what, "gensyms"),
                               config_gensym_words, &k))
        o->gensyms = (enum config_gensyms)k;
    if (p)
        config_check_string(&ld->k, p, dotted(ld->a, what, "gensym-prefix"),
                            &o->gensym_prefix);
    if (only && skip)
        config_error(&ld->k, skip, "'%s' takes 'only' or 'skip', not both", what);
    else if (only && config_check_bits(&ld->k, only, dotted(ld->a, what, "only"),
                                       config_heads, &bits))
        o->skip_heads = 0xffu & ~bits;
    else if (skip && config_check_bits(&ld->k, skip, dotted(ld->a, what, "skip"),
                                       config_heads, &bits))
        o->skip_heads = bits;
}

static void read_defaults(struct mload *ld, const struct yaml_node *v)
{
    static const char *const keys[] = {"golden-dir", "width", "gensyms",
                                       "gensym-prefix", "only", "skip", NULL};
    struct golden_manifest *m = ld->m;
    m->defaults = builtin_options;
    m->golden_dir = "goldens";
    if (v && config_check_map(&ld->k, v, "defaults")) {
        config_check_keys(&ld->k, v, "defaults", keys);
        const struct yaml_node *dir = yaml_map_get(v, "golden-dir");
        if (dir && config_check_string(&ld->k, dir, "defaults.golden-dir", &m->golden_dir))
            m->golden_dir_node = dir;
        read_options(ld, v, "defaults", &m->defaults);
    }
    m->golden_dir_path = config_path_join(ld->a, m->dir, m->golden_dir);
}

/* form: {line: N} | {defun: NAME} | {nth: N} */
static void read_form(struct mload *ld, const struct yaml_node *v, const char *what,
                      struct golden_case *c)
{
    static const char *const keys[] = {"line", "defun", "nth", NULL};
    long n = 0;
    if (!config_check_map(&ld->k, v, what))
        return;
    config_check_keys(&ld->k, v, what, keys);
    if (v->n != 1) {
        config_error(&ld->k, v, "'%s' takes exactly one of line, defun or nth", what);
        return;
    }
    const char *key = v->kids[0]->text;
    const struct yaml_node *val = v->kids[1];
    if (strcmp(key, "defun") == 0) {
        c->form = GOLDEN_FORM_DEFUN;
        config_check_string(&ld->k, val, dotted(ld->a, what, key), &c->defun);
    } else if (config_check_int(&ld->k, val, dotted(ld->a, what, key),
                                key[0] == 'l' ? 1 : 0, 10000000, &n)) {
        c->form = key[0] == 'l' ? GOLDEN_FORM_LINE : GOLDEN_FORM_NTH;
        c->line = c->nth = (unsigned long)n;
    }
}

/* "x.el" -> "x.err"; anything else gets ".err" appended. */
static const char *err_name(struct arena *a, const char *golden)
{
    size_t n = strlen(golden);
    struct buf b;
    buf_init(&b, a);
    if (n > 3 && strcmp(golden + n - 3, ".el") == 0)
        n -= 3;
    buf_put(&b, golden, n);
    buf_puts(&b, ".err");
    return buf_cstr(&b);
}

/* The golden files of c: `golden:` or GOLDEN-DIR/CASE.el (CASE.err). */
static void golden_paths(struct mload *ld, const struct yaml_node *v,
                         struct golden_case *c)
{
    const struct yaml_node *g = yaml_map_get(v, "golden");
    const char *given = NULL, *what = dotted(ld->a, c->name, "golden");
    struct buf b;
    buf_init(&b, ld->a);
    buf_printf(&b, "%s.%s", c->name, c->expect == GOLDEN_EXPECT_ERROR ? "err" : "el");
    if (g && config_check_string(&ld->k, g, what, &given))
        c->golden_node = g;
    c->golden = given ? given : config_path_join(ld->a, ld->m->golden_dir, buf_cstr(&b));
    c->err = c->expect == GOLDEN_EXPECT_ERROR ? c->golden : err_name(ld->a, c->golden);
    c->golden_path = config_path_join(ld->a, ld->m->dir, c->golden);
    c->err_path = config_path_join(ld->a, ld->m->dir, c->err);
}

/* Names become file names and command-line words: keep them tame. */
static bool name_ok(const char *s)
{
    if (!*s || *s == '.' || *s == '-')
        return false;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789-_.+") == strlen(s);
}

static void read_input(struct mload *ld, const struct yaml_node *v, const char *what,
                       struct golden_case *c)
{
    const struct yaml_node *src = yaml_map_get(v, "source");
    const struct yaml_node *file = yaml_map_get(v, "file");
    const struct yaml_node *form = yaml_map_get(v, "form");
    if ((src != NULL) == (file != NULL)) {
        config_error(&ld->k, v, "case '%s' needs either 'source' or 'file'", c->name);
    } else if (src && config_check_scalar(&ld->k, src, dotted(ld->a, what, "source"))) {
        c->source = src->text;
        c->source_len = src->len;
    } else if (file && config_check_string(&ld->k, file, dotted(ld->a, what, "file"),
                                           &c->file)) {
        c->file_path = config_path_join(ld->a, ld->m->dir, c->file);
        c->file_node = file;
    }
    if (form && !file)
        config_error(&ld->k, form, "'form' selects part of a 'file'; case '%s' has none",
                     c->name);
    else if (form)
        read_form(ld, form, dotted(ld->a, what, "form"), c);
}

static void read_case(struct mload *ld, const struct yaml_node *key,
                      const struct yaml_node *v, struct golden_case *c)
{
    static const char *const keys[] = {"source", "file", "form", "golden",
                                       "expect", "options", NULL};
    static const char *const expects[] = {"ok", "warning", "error", NULL};
    memset(c, 0, sizeof *c);
    c->name = key->text;
    c->node = key;
    c->opts = ld->m->defaults;
    if (!name_ok(c->name))
        config_error(&ld->k, key, "case name '%s' must be letters, digits, '-', '_', "
                     "'.' or '+', not starting with '.' or '-'", c->name);
    if (!config_check_map(&ld->k, v, c->name) || v->kind != YAML_MAP) {
        if (v->kind == YAML_NULL)
            config_error(&ld->k, v, "case '%s' is empty", c->name);
        return;
    }
    config_check_keys(&ld->k, v, c->name, keys);
    const struct yaml_node *ex = yaml_map_get(v, "expect"), *o = yaml_map_get(v, "options");
    int k = 0;
    if (ex)
        config_check_word(&ld->k, ex, dotted(ld->a, c->name, "expect"), expects, &k);
    c->expect = (enum golden_expect)k;
    read_input(ld, v, c->name, c);
    golden_paths(ld, v, c);
    if (o && config_check_map(&ld->k, o, dotted(ld->a, c->name, "options"))) {
        static const char *const okeys[] = {"width", "gensyms", "gensym-prefix",
                                            "only", "skip", NULL};
        config_check_keys(&ld->k, o, dotted(ld->a, c->name, "options"), okeys);
        read_options(ld, o, dotted(ld->a, c->name, "options"), &c->opts);
    }
}

static void read_manifest(struct mload *ld, const struct yaml_node *root)
{
    static const char *const keys[] = {"version", "defaults", "cases", NULL};
    if (root->kind != YAML_MAP) {
        config_error(&ld->k, root, "a manifest must be a mapping with version, "
                     "defaults and cases");
        return;
    }
    config_check_keys(&ld->k, root, "the manifest", keys);
    const struct yaml_node *v = yaml_map_get(root, "version");
    if (!v)
        config_error(&ld->k, root, "missing 'version: 1' (required)");
    else if (v->kind != YAML_SCALAR || v->style != YAML_STYLE_PLAIN || strcmp(v->text, "1"))
        config_error(&ld->k, v, "unsupported version (only version 1 exists)");
    read_defaults(ld, yaml_map_get(root, "defaults"));
    const struct yaml_node *cases = yaml_map_get(root, "cases");
    if (!cases || !config_check_map(&ld->k, cases, "cases"))
        return;
    ld->m->cases = ARENA_NEWN(ld->a, struct golden_case, cases->n + 1);
    for (size_t i = 0; i < cases->n; i++)
        read_case(ld, cases->kids[2 * i], cases->kids[2 * i + 1], &ld->m->cases[i]);
    ld->m->n_cases = cases->n;
}

/* ---- where goldens and inputs may be ---- */

/* Paths as the kernel will take them, symbolic links resolved: the
 * longest part of path that exists through realpath(), the rest (which
 * --update creates as directories) lexically.  A ".." in the rest
 * comes back to existing directories, so the result is resolved once
 * more.  NULL for a path too long to resolve. */
/* Has path a ".." component (not merely two dots in a name)? */
static bool has_dot_dot(const char *path)
{
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return true;
        p += n + (p[n] == '/');
    }
    return false;
}

static const char *resolve_once(struct arena *a, const char *path, bool *again)
{
    char real[PATH_MAX];
    size_t n = strlen(path), cut = n;
    if (n == 0 || n >= PATH_MAX)
        return NULL;
    char *head = arena_strndup(a, path, n); /* path[0, cut) */
    while (!realpath(head, real)) {
        char *slash = strrchr(head, '/');
        if (!slash && !realpath(".", real))
            return NULL;
        if (!slash || slash == head) { /* "x": from ".", "/x": from "/" */
            cut = slash ? 1 : 0;
            if (slash)
                strcpy(real, "/");
            break;
        }
        *slash = 0;
        cut = (size_t)(slash - head);
    }
    const char *tail = path + cut + (path[cut] == '/');
    *again = has_dot_dot(tail);
    return config_path_abs(a, config_path_join(a, real, tail));
}

static const char *resolve(struct arena *a, const char *path)
{
    bool again = true;
    for (int i = 0; path && again && i < 4; i++)
        path = resolve_once(a, path, &again);
    return again ? NULL : path;
}

static bool inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (!path)
        return false;
    if (strcmp(dir, "/") == 0)
        return true;
    return strncmp(path, dir, n) == 0 && (path[n] == 0 || path[n] == '/');
}

/* The project directory of a manifest: the closest of its directory and
 * their parents holding .git, .hg or a configuration file, else its own
 * directory; resolved. */
static const char *project_of(struct arena *a, const struct golden_manifest *m)
{
    const char *root = config_root(a, m->dir);
    return resolve(a, root ? root : m->dir);
}

/* What one file of the manifest is, for the checks below. */
struct claim {
    const char *key;             /* "@DEV:INO" when it exists, else its path */
    const struct golden_case *c; /* the case whose golden it is (NULL: the
                                    manifest) */
};

/* The claim key of the resolved path real (of case c, written shown,
 * said at node at): a regular file when it exists.  NULL after an
 * error. */
static const char *key_of(struct mload *ld, const struct golden_case *c,
                          const struct yaml_node *at, const char *what,
                          const char *shown, const char *real)
{
    struct stat st;
    if (!real || stat(real, &st) != 0)
        return real;
    if (!S_ISREG(st.st_mode)) {
        config_error(&ld->k, at, "case '%s': %s '%s' is not a regular file", c->name,
                     what, shown);
        return NULL;
    }
    struct buf b;
    buf_init(&b, ld->a);
    buf_printf(&b, "@%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
    return buf_cstr(&b);
}

/* Where path (a `file:` or a golden of case c) resolves: inside the
 * project, else an error.  Returns its claim key, or NULL. */
static const char *place(struct mload *ld, const struct golden_case *c,
                         const struct yaml_node *at, const char *what,
                         const char *shown, const char *path)
{
    const char *real = resolve(ld->a, path);
    if (inside(real, ld->m->project))
        return key_of(ld, c, at, what, shown, real);
    config_error(&ld->k, at, "case '%s': %s '%s' is outside the project directory %s",
                 c->name, what, shown, ld->m->project);
    return NULL;
}

struct claims {
    struct claim *v;
    size_t n, cap;
    struct config_index x;
};

/* One golden of c: in the project, and neither the manifest, nor c's own
 * input, nor the golden of another case: --update would overwrite it. */
static void claim_golden(struct mload *ld, struct claims *cl, const struct golden_case *c,
                         const char *input, const char *shown, const char *path)
{
    const struct yaml_node *at = c->golden_node ? c->golden_node : c->node;
    const char *key = place(ld, c, at, "golden", shown, path);
    if (!key)
        return;
    size_t i = config_index_get(&cl->x, cl->v, cl->n, sizeof *cl->v, key);
    if (i < cl->n && !cl->v[i].c)
        config_error(&ld->k, at, "case '%s': golden '%s' is the manifest itself",
                     c->name, shown);
    else if (i < cl->n)
        config_error(&ld->k, at, "case '%s': golden '%s' is also a golden of case '%s'",
                     c->name, shown, cl->v[i].c->name);
    else if (input && strcmp(input, key) == 0)
        config_error(&ld->k, at, "case '%s': golden '%s' is the case's own input",
                     c->name, shown);
    if (i < cl->n || (input && strcmp(input, key) == 0))
        return;
    cl->v = config_array_push(ld->a, cl->v, &cl->n, &cl->cap, sizeof *cl->v);
    cl->v[cl->n - 1] = (struct claim){key, c};
    config_index_add(&cl->x, cl->v, cl->n, sizeof *cl->v);
}

static void check_places(struct mload *ld, const struct yaml_node *root)
{
    struct golden_manifest *m = ld->m;
    struct claims cl = {0};
    m->project = project_of(ld->a, m);
    if (!m->project)
        return (void)config_error(&ld->k, root, "cannot resolve the directory of "
                                  "the manifest");
    if (!inside(resolve(ld->a, m->golden_dir_path), m->project))
        config_error(&ld->k, m->golden_dir_node ? m->golden_dir_node : root,
                     "'defaults.golden-dir' is outside the project directory %s",
                     m->project);
    config_index_init(&cl.x, ld->a, NULL, 0, sizeof *cl.v);
    struct golden_case self = {.name = "(manifest)", .node = root};
    cl.v = config_array_push(ld->a, cl.v, &cl.n, &cl.cap, sizeof *cl.v);
    /* the manifest itself may be a link to elsewhere: only its identity counts */
    cl.v[0] = (struct claim){key_of(ld, &self, root, "manifest", m->path,
                                    resolve(ld->a, m->path)), NULL};
    if (!cl.v[0].key)
        return;
    config_index_add(&cl.x, cl.v, cl.n, sizeof *cl.v);
    for (size_t i = 0; i < m->n_cases; i++) {
        const struct golden_case *c = &m->cases[i];
        const char *input = c->file_path ? place(ld, c, c->file_node, "file", c->file,
                                                 c->file_path) : NULL;
        if (!c->golden_path)
            continue;
        claim_golden(ld, &cl, c, input, c->golden, c->golden_path);
        if (c->expect == GOLDEN_EXPECT_WARNING)
            claim_golden(ld, &cl, c, input, c->err, c->err_path);
    }
}

bool golden_load(struct arena *a, const char *path, const struct report_opts *ro,
                 struct golden_manifest *m, struct buf *msgs)
{
    struct file_data fd;
    if (!config_read_file(a, path, &fd)) {
        memset(m, 0, sizeof *m);
        report_plain(msgs, path, DIAG_ERROR, "manifest", fd.error, ro);
        return false;
    }
    return golden_load_text(a, path, fd.data, fd.len, ro, m, msgs);
}

bool golden_load_text(struct arena *a, const char *path, const uint8_t *text,
                      size_t len, const struct report_opts *ro,
                      struct golden_manifest *m, struct buf *msgs)
{
    memset(m, 0, sizeof *m);
    m->path = path;
    m->dir = config_path_dir(a, path);
    struct diag_list d;
    struct yaml_node *root;
    m->src = ARENA_NEW(a, struct source);
    source_init(m->src, a, path, text, len);
    diag_init(&d, a);
    struct mload ld = {{a, &d, "manifest"}, a, m};
    if (yaml_parse(a, m->src, "manifest", &d, &root)) {
        read_manifest(&ld, root);
        check_places(&ld, root);
    }
    diag_sort(&d);
    report_render(msgs, m->src, &d, ro);
    return d.n_errors == 0;
}

/* ---- golden files ---- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* " skip=a,b" or, when most heads are skipped, " only=c,d". */
static void put_heads(struct buf *b, unsigned skip)
{
    unsigned n = 0;
    for (unsigned i = 0; config_heads[i]; i++)
        n += (skip >> i) & 1;
    bool only = n > 4;
    for (unsigned i = 0, first = 1; config_heads[i]; i++)
        if (((skip >> i) & 1) != only) {
            buf_printf(b, "%s%s", !first ? "," : only ? " only=" : " skip=",
                       config_heads[i]);
            first = 0;
        }
}

void golden_text(const struct golden_case *c, const char *label, const char *out,
                 size_t len, struct buf *b)
{
    const struct golden_options *o = &c->opts;
    buf_printf(b, ";;; %s --- pcexpand golden  -*- lexical-binding: t -*-\n",
               base_name(c->golden));
    buf_printf(b, ";; Case: %s (%s); do not edit.\n", c->name, label);
    buf_printf(b, ";; Options: width=%u gensyms=%s", o->width,
               config_gensym_words[o->gensyms]);
    if (strcmp(o->gensym_prefix, builtin_options.gensym_prefix) != 0)
        buf_printf(b, " gensym-prefix=%s", o->gensym_prefix);
    put_heads(b, o->skip_heads);
    buf_puts(b, "\n\n");
    buf_put(b, out, len);
    if (len > 0 && out[len - 1] != '\n')
        buf_putc(b, '\n');
}

/* ---- running ---- */

/* What became of a case; the order is that of worse(). */
enum verdict {
    PASSED,   /* every golden matches (or was written) */
    FAILED,   /* a golden differs: --update accepts it */
    MISSING,  /* a golden does not exist: --update writes it */
    REJECTED, /* the diagnostics contradict expect: failed, not acceptable */
    BROKEN,   /* errors where none are expected (exit 2) */
};

struct runner {
    struct arena *a;
    const struct golden_params *p;
    struct golden_manifest m;
    const char *label;
    struct buf *out, *err;
    size_t n[5];           /* cases per verdict */
    int status;
    const char **accept;   /* cases --update would fix */
    size_t n_accept;
};

static void raise_status(struct runner *R, int st)
{
    if (st > R->status)
        R->status = st;
}

static void note(struct runner *R, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A line "pcexpand: ..." on the diagnostic side (dropped under -q). */
static void note(struct runner *R, const char *fmt, ...)
{
    struct buf b;
    va_list ap;
    buf_init(&b, R->a);
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    report_tool(R->err, DIAG_NOTE, buf_cstr(&b), &R->p->report);
}

/* mkdir -p for the directory of path. */
static bool make_dirs(struct arena *a, const char *path, const char **error)
{
    char *dir = (char *)config_path_dir(a, path);
    dir = arena_strndup(a, dir, strlen(dir));
    for (char *p = dir + 1;; p++) {
        char c = *p;
        if (c != '/' && c != 0)
            continue;
        *p = 0;
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            *error = strerror(errno);
            return false;
        }
        *p = c;
        if (!c)
            return true;
    }
}

static void write_golden(struct runner *R, const char *shown, const char *path,
                         const char *text, size_t len)
{
    const char *error = "outside the project directory (a link changed since the "
                        "manifest was read)";
    if (inside(resolve(R->a, path), R->m.project) && make_dirs(R->a, path, &error) &&
        file_write_atomic(R->a, path, text, len, &error)) {
        note(R, "updated: %s", shown);
        return;
    }
    report_plain(R->err, shown, DIAG_ERROR, "io", error, &R->p->report);
    raise_status(R, 2);
}

/* Compare one golden file with fresh text; diff and update as asked. */
static enum verdict target(struct runner *R, const char *shown, const char *path,
                           const char *fresh, size_t len)
{
    struct file_data fd;
    bool exists = file_read(R->a, path, &fd);
    if (exists && fd.len == len && memcmp(fd.data, fresh, len) == 0)
        return PASSED;
    if (R->p->diff) {
        struct buf from, to;
        buf_init(&from, R->a);
        buf_init(&to, R->a);
        buf_printf(&from, "a/%s", path);
        buf_printf(&to, "b/%s", path);
        diff_unified(R->a, exists ? fd.data : (const uint8_t *)"", exists ? fd.len : 0,
                     (const uint8_t *)fresh, len, exists ? buf_cstr(&from) : "/dev/null",
                     buf_cstr(&to), R->out);
    }
    bool write = R->p->action == GOLDEN_UPDATE_ALL ||
                 (R->p->action == GOLDEN_UPDATE_MISSING && !exists);
    if (write) {
        write_golden(R, shown, path, fresh, len);
        return PASSED;
    }
    if (exists)
        note(R, "failed: %s differs from the fresh output", shown);
    else
        note(R, "missing: %s", shown);
    return exists ? FAILED : MISSING;
}

static enum verdict worse(enum verdict x, enum verdict y)
{
    return x > y ? x : y;
}

static void error_at(struct runner *R, const struct yaml_node *at, const char *code,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* An error at node `at` of the manifest: "MANIFEST:LINE:COL: error: ...". */
static void error_at(struct runner *R, const struct yaml_node *at, const char *code,
                     const char *fmt, ...)
{
    struct diag_list d;
    va_list ap;
    diag_init(&d, R->a);
    va_start(ap, fmt);
    diag_addv(&d, DIAG_ERROR, at->pos, at->pos, code, fmt, ap);
    va_end(ap);
    report_render(R->err, R->m.src, &d, &R->p->report);
}

/* The diagnostics of a case, as the user asked to see them. */
static void show_diagnostics(struct runner *R, const struct golden_result *res)
{
    if (res->shown)
        buf_put(R->err, res->shown, res->shown_len);
    else
        buf_put(R->err, res->err, res->err_len);
}

/* A case with errors where none are expected, or an internal error: its
 * diagnostics, then an error at the case in the manifest (exit 2). */
static enum verdict broken(struct runner *R, const struct golden_case *c,
                           const struct golden_result *res, const char *why)
{
    show_diagnostics(R, res);
    error_at(R, c->node, "manifest", "case '%s' %s", c->name, why);
    raise_status(R, res->status == 3 ? 3 : 2);
    return BROKEN;
}

/* A case whose diagnostics contradict its expect: it fails, and no
 * golden --update could write would make it pass. */
static enum verdict rejected(struct runner *R, const struct golden_case *c,
                             const struct golden_result *res, const char *why)
{
    show_diagnostics(R, res);
    note(R, "failed: %s %s", c->name, why);
    return REJECTED;
}

static enum verdict judge(struct runner *R, const struct golden_case *c,
                          const struct golden_result *res)
{
    if (res->status >= 3)
        return broken(R, c, res, "met an internal error");
    if (c->expect != GOLDEN_EXPECT_ERROR && res->status != 0)
        return broken(R, c, res, c->expect == GOLDEN_EXPECT_OK
                                     ? "has errors (expect: ok)"
                                     : "has errors (expect: warning)");
    if (c->expect == GOLDEN_EXPECT_ERROR && res->status == 0)
        return rejected(R, c, res, "expands without error (expect: error)");
    if (c->expect == GOLDEN_EXPECT_OK && res->err_len > 0)
        return rejected(R, c, res, "prints warnings (expect: ok; use expect: warning)");
    enum verdict v = PASSED;
    if (c->expect != GOLDEN_EXPECT_ERROR) {
        struct buf g;
        buf_init(&g, R->a);
        golden_text(c, R->label, res->out, res->out_len, &g);
        v = target(R, c->golden, c->golden_path, g.data ? g.data : "", g.len);
    }
    if (c->expect != GOLDEN_EXPECT_OK)
        v = worse(v, target(R, c->err, c->err_path, res->err ? res->err : "",
                            res->err_len));
    return v;
}

static enum verdict run_case(struct runner *R, const struct golden_case *c)
{
    struct golden_job job = {c, NULL, NULL, (const uint8_t *)c->source, c->source_len};
    struct golden_result res = {"", 0, "", 0, 0, NULL, 0};
    if (c->file) {
        struct file_data fd;
        if (!file_read(R->a, c->file_path, &fd)) {
            /* said where the manifest names the file */
            error_at(R, c->file_node ? c->file_node : c->node, "io", "case '%s': %s: %s",
                     c->name, c->file, fd.error);
            raise_status(R, 2);
            return BROKEN;
        }
        job.text = fd.data;
        job.len = fd.len;
    }
    job.name = c->file ? c->file : dotted(R->a, c->name, "el");
    job.config_from = c->file ? c->file_path : R->m.path;
    R->p->expand(R->p->ctx, R->a, &job, &res);
    enum verdict v = judge(R, c, &res);
    if ((v == FAILED || v == MISSING || v == REJECTED) && R->p->list) {
        buf_puts(R->out, c->name);
        buf_putc(R->out, '\n');
    }
    return v;
}

/* ---- selection, obsolete files, summary ---- */

static bool selected(struct runner *R, const struct golden_case *c)
{
    if (R->p->n_select == 0)
        return true;
    for (size_t i = 0; i < R->p->n_select; i++)
        if (config_glob(R->a, R->p->select[i], c->name, false))
            return true;
    return false;
}

/* Does every pattern select some case? */
static bool selection_ok(struct runner *R)
{
    bool ok = true;
    for (size_t i = 0; i < R->p->n_select; i++) {
        bool hit = false;
        for (size_t k = 0; k < R->m.n_cases && !hit; k++)
            hit = config_glob(R->a, R->p->select[i], R->m.cases[k].name, false);
        if (!hit) {
            struct buf b;
            buf_init(&b, R->a);
            buf_printf(&b, "no case of %s matches '%s'", R->m.path, R->p->select[i]);
            report_tool(R->err, DIAG_ERROR, buf_cstr(&b), &R->p->report);
            ok = false;
        }
    }
    return ok;
}

static int by_string(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Is the file dir/name the golden of some case? */
static bool referenced(struct runner *R, const char *path)
{
    const char *abs = config_path_abs(R->a, path);
    for (size_t i = 0; i < R->m.n_cases; i++) {
        const struct golden_case *c = &R->m.cases[i];
        if (strcmp(config_path_abs(R->a, c->golden_path), abs) == 0 ||
            strcmp(config_path_abs(R->a, c->err_path), abs) == 0)
            return true;
    }
    return false;
}

/* The names in d (dot files left out) into *names; may run out of memory. */
static size_t read_names(struct runner *R, DIR *d, const char ***names)
{
    size_t n = 0, cap = 16;
    const char **v = ARENA_NEWN(R->a, const char *, cap);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            v = arena_grow(R->a, v, cap * sizeof *v, 2 * cap * sizeof *v);
            cap *= 2;
        }
        v[n++] = arena_strndup(R->a, e->d_name, strlen(e->d_name));
    }
    *names = v;
    return n;
}

/* The names of the regular files of dir, sorted (none when it is missing).
 * Memory running out while the directory is open closes it before the
 * out-of-memory exit is taken. */
static size_t list_dir(struct runner *R, const char *dir, const char ***out)
{
    *out = NULL;
    DIR *volatile d = opendir(dir);
    if (!d)
        return 0;
    jmp_buf *outer = R->a->oom, jb;
    if (setjmp(jb) != 0) {
        closedir(d);
        arena_on_oom(R->a, outer);
        if (outer)
            longjmp(*outer, 1);
        abort(); /* what the arena does without a handler */
    }
    arena_on_oom(R->a, &jb);
    const char **names;
    size_t n = read_names(R, d, &names);
    arena_on_oom(R->a, outer);
    closedir(d);
    qsort(names, n, sizeof *names, by_string);
    *out = names;
    return n;
}

static void warn_obsolete(struct runner *R)
{
    const char **names;
    size_t n = list_dir(R, R->m.golden_dir_path, &names);
    for (size_t i = 0; i < n; i++) {
        const char *path = config_path_join(R->a, R->m.golden_dir_path, names[i]);
        if (file_kind(path) != FILE_KIND_OTHER || referenced(R, path))
            continue;
        report_plain(R->err, config_path_join(R->a, R->m.golden_dir, names[i]),
                     DIAG_WARNING, "golden-obsolete",
                     "golden file not referenced by any case of the manifest",
                     &R->p->report);
        if (R->p->report.werror)
            raise_status(R, 2);
    }
}

static void summary(struct runner *R)
{
    struct buf b;
    buf_init(&b, R->a);
    buf_printf(&b, "%zu passed, %zu failed, %zu missing", R->n[PASSED],
               R->n[FAILED] + R->n[REJECTED] + R->n[BROKEN], R->n[MISSING]);
    report_tool(R->err, DIAG_NOTE, buf_cstr(&b), &R->p->report);
    if (R->n_accept == 0)
        return;
    buf_init(&b, R->a);
    buf_puts(&b, "run: pcexpand -g");
    if (R->p->manifest_from_cli)
        buf_printf(&b, " --manifest=%s", R->m.path);
    buf_puts(&b, " --update");
    for (size_t i = 0; i < R->n_accept; i++)
        buf_printf(&b, " %s", R->accept[i]);
    report_tool(R->err, DIAG_NOTE, buf_cstr(&b), &R->p->report);
}

/* The manifest's name in headers, the same from any directory: its path
 * from the project directory (the one holding its configuration, .git or
 * .hg), else its file name. */
static const char *label_of(struct arena *a, const struct golden_params *p)
{
    if (p->label)
        return p->label;
    const char *abs = config_path_abs(a, p->manifest);
    const char *root = config_root(a, config_path_dir(a, p->manifest));
    if (!root)
        return base_name(abs);
    size_t n = strlen(root);
    if (strcmp(root, "/") == 0)
        return abs + 1;
    if (strncmp(abs, root, n) == 0 && abs[n] == '/')
        return abs + n + 1;
    return base_name(abs);
}

int golden_run(struct arena *a, const struct golden_params *p, struct buf *out,
               struct buf *err)
{
    struct runner R = {.a = a, .p = p, .out = out, .err = err};
    if (!golden_load(a, p->manifest, &p->report, &R.m, err))
        return 2;
    if (!selection_ok(&R))
        return 2;
    R.label = label_of(a, p);
    R.accept = ARENA_NEWN(a, const char *, R.m.n_cases + 1);
    for (size_t i = 0; i < R.m.n_cases; i++) {
        const struct golden_case *c = &R.m.cases[i];
        if (!selected(&R, c))
            continue;
        enum verdict v = run_case(&R, c);
        R.n[v]++;
        if (v == FAILED || v == MISSING)
            R.accept[R.n_accept++] = c->name;
        if (v != PASSED)
            raise_status(&R, 1);
    }
    if (p->n_select == 0 && p->obsolete)
        warn_obsolete(&R);
    summary(&R);
    return R.status;
}
