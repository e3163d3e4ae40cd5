/* config_find.c - which configuration applies to an input (config.h).
 *
 * Discovery walks from the input's directory upward, lexically (no link
 * is resolved, as clang-format and ruff do), and stops at a repository
 * root.  The set keeps each file's result, so a directory of many inputs
 * reads its configuration once and reports its errors once.  Also here:
 * the lexical path helpers and the glob matcher of `exclude:`.
 */
#include "io/config.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "io/file.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ---- lexical paths ---- */

/* Append component c (n bytes) to the normalised path in b: "." is
 * dropped; ".." removes the previous component, stays when there is none
 * in a relative path, and is dropped after "/". */
static void push_component(struct buf *b, const char *c, size_t n, bool absolute)
{
    size_t floor = absolute ? 1 : 0; /* a leading "/" stays */
    if (n == 0 || (n == 1 && c[0] == '.'))
        return;
    if (n == 2 && c[0] == '.' && c[1] == '.') {
        size_t start = b->len;
        while (start > floor && b->data[start - 1] != '/')
            start--;
        bool last = b->len > floor;
        bool last_dots = last && b->len - start == 2 &&
                         memcmp(b->data + start, "..", 2) == 0;
        if (last && !last_dots) {
            b->len = start > floor ? start - 1 : floor;
            b->data[b->len] = 0;
            return;
        }
        if (absolute)
            return;
    }
    if (b->len > floor)
        buf_putc(b, '/');
    buf_put(b, c, n);
}

/* path without "." components, empty ones and "x/.." pairs. */
static const char *normalise(struct arena *a, const char *path)
{
    struct buf b;
    buf_init(&b, a);
    bool absolute = path[0] == '/';
    if (absolute)
        buf_putc(&b, '/');
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        push_component(&b, p, n, absolute);
        p += n + (p[n] == '/');
    }
    if (b.len == 0)
        buf_putc(&b, '.');
    return buf_cstr(&b);
}

const char *config_path_dir(struct arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    while (slash > path && slash[-1] == '/')
        slash--;
    return slash == path ? "/" : arena_strndup(a, path, (size_t)(slash - path));
}

const char *config_path_join(struct arena *a, const char *dir, const char *rel)
{
    if (rel[0] == '/' || strcmp(dir, ".") == 0)
        return rel;
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", rel);
    return buf_cstr(&b);
}

const char *config_path_abs(struct arena *a, const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return normalise(a, path);
    return normalise(a, config_path_join(a, cwd, path));
}

/* ---- discovery ---- */

static bool exists(struct arena *a, const char *dir, const char *name)
{
    return file_kind(config_path_join(a, dir, name)) != FILE_KIND_MISSING;
}

/* The parent of rel (a normalised path) as the user would write it:
 * "a/b" -> "a", "a" -> ".", "." -> "..", ".." -> "../..". */
static const char *up(struct arena *a, const char *rel)
{
    size_t n = strlen(rel);
    bool dots = strcmp(rel, ".") == 0 ||
                (n >= 2 && strcmp(rel + n - 2, "..") == 0 && (n == 2 || rel[n - 3] == '/'));
    if (dots)
        return strcmp(rel, ".") == 0 ? ".." : config_path_join(a, rel, "..");
    return config_path_dir(a, rel);
}

const char *config_discover(struct arena *a, const char *dir)
{
    static const char *const names[] = {CONFIG_NAME, CONFIG_NAME_ALT};
    const char *abs = config_path_abs(a, dir), *rel = normalise(a, dir);
    for (;;) {
        for (size_t i = 0; i < 2; i++) {
            const char *p = config_path_join(a, rel, names[i]);
            if (file_kind(p) == FILE_KIND_OTHER)
                return p;
        }
        if (exists(a, rel, ".git") || exists(a, rel, ".hg") || strcmp(abs, "/") == 0)
            return NULL;
        abs = config_path_dir(a, abs);
        rel = rel[0] == '/' ? abs : up(a, rel);
    }
}

const char *config_root(struct arena *a, const char *dir)
{
    static const char *const marks[] = {CONFIG_NAME, CONFIG_NAME_ALT, ".git", ".hg"};
    const char *abs = config_path_abs(a, dir);
    for (;;) {
        for (size_t i = 0; i < 4; i++)
            if (exists(a, abs, marks[i]))
                return abs;
        if (strcmp(abs, "/") == 0)
            return NULL;
        abs = config_path_dir(a, abs);
    }
}

/* ---- the set ---- */

struct config_entry {
    const char *abs;           /* the file, absolute */
    const struct config *cfg;  /* NULL: it has errors */
    struct buf errs;           /* they, rendered */
    bool reported;             /* errs went to a caller's msgs */
};

struct config_set {
    struct arena *a;
    struct config_params p;
    struct config_entry *e;
    size_t n;
};

struct config_set *config_set_new(struct arena *a, const struct config_params *p)
{
    struct config_set *s = ARENA_NEW(a, struct config_set);
    s->a = a;
    s->p = *p;
    return s;
}

/* The entry of file path, loaded on first use.  Memory taken since m is
 * given back when the file was loaded before. */
static struct config_entry *get(struct config_set *s, const char *path,
                                struct arena_mark m)
{
    const char *abs = config_path_abs(s->a, path);
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].abs, abs) == 0) {
            arena_release(s->a, m);
            return &s->e[i];
        }
    struct buf errs;
    buf_init(&errs, s->a);
    const struct config *cfg = config_load(s->a, path, &s->p, &errs);
    s->e = arena_grow(s->a, s->e, s->n * sizeof *s->e, (s->n + 1) * sizeof *s->e);
    s->e[s->n] = (struct config_entry){abs, cfg, errs, false};
    return &s->e[s->n++];
}

/* The configuration of an entry; its errors go to msgs once. */
static const struct config *use(struct config_entry *e, struct buf *msgs)
{
    if (!e->cfg && msgs && !e->reported) {
        buf_put(msgs, e->errs.data, e->errs.len);
        e->reported = true;
    }
    return e->cfg;
}

const struct config *config_for(struct config_set *s, const char *input,
                                struct buf *msgs)
{
    struct arena_mark m = arena_mark(s->a);
    if (s->p.mode == CONFIG_NONE)
        return config_defaults();
    if (s->p.mode == CONFIG_FILE)
        return use(get(s, s->p.file, m), msgs);
    const char *named = input ? input : s->p.stdin_path;
    const char *path = config_discover(s->a, named ? config_path_dir(s->a, named) : ".");
    if (!path) {
        arena_release(s->a, m);
        return config_defaults();
    }
    return use(get(s, path, m), msgs);
}

/* ---- globs ---- */

/* Does character class "[...]" at g (ending before end) match c? */
static bool class_match(const char *g, const char *end, char c)
{
    bool negate = g[1] == '!' || g[1] == '^', hit = false;
    for (const char *p = g + 1 + negate; p < end; p++) {
        if (p + 2 < end && p[1] == '-') {
            hit |= c >= p[0] && c <= p[2];
            p += 2;
        } else {
            hit |= c == *p;
        }
    }
    return hit != negate;
}

/* The end of the glob element at g: one character, a class, "*", "**"
 * or "**" + "/". */
static const char *element_end(const char *g)
{
    if (g[0] == '*')
        return g[1] != '*' ? g + 1 : g[2] == '/' ? g + 3 : g + 2;
    if (g[0] == '[' && g[1]) {
        const char *close = strchr(g + 2, ']');
        return close ? close + 1 : g + 1;
    }
    return g + 1;
}

/* next[j]: the glob so far plus element [g, e) matches t[0..j), given
 * cur[j] for the glob so far. */
static void step(const char *g, const char *e, const char *t, size_t n,
                 bool path, const bool *cur, bool *next)
{
    bool any_before = false;
    for (size_t j = 0; j <= n; j++) {
        char c = j > 0 ? t[j - 1] : 0;
        if (e - g == 1 && g[0] == '*')
            next[j] = cur[j] || (j > 0 && next[j - 1] && !(path && c == '/'));
        else if (e - g == 2 && g[0] == '*')
            next[j] = cur[j] || (j > 0 && next[j - 1]);
        else if (e - g == 3 && g[0] == '*')
            next[j] = cur[j] || (j > 0 && c == '/' && any_before);
        else if (j == 0)
            next[j] = false;
        else if (g[0] == '?')
            next[j] = cur[j - 1] && !(path && c == '/');
        else if (g[0] == '[' && e - g > 1)
            next[j] = cur[j - 1] && class_match(g, e - 1, c) && !(path && c == '/');
        else
            next[j] = cur[j - 1] && c == g[0];
        any_before |= cur[j];
    }
}

bool config_glob(struct arena *a, const char *glob, const char *text, bool path)
{
    size_t n = strlen(text);
    struct arena_mark m = arena_mark(a);
    bool *cur = arena_zalloc(a, n + 1), *next = arena_zalloc(a, n + 1);
    cur[0] = true;
    for (const char *g = glob; *g;) {
        const char *e = element_end(g);
        step(g, e, text, n, path, cur, next);
        bool *t = cur;
        cur = next;
        next = t;
        g = e;
    }
    bool hit = cur[n];
    arena_release(a, m);
    return hit;
}

/* path relative to dir (both absolute, normalised) when it is inside. */
static const char *inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (strcmp(dir, "/") == 0)
        return path + 1;
    if (strncmp(path, dir, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

bool config_excludes(struct arena *a, const struct config *cfg, const char *path)
{
    if (!cfg->path || cfg->n_exclude == 0)
        return false;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *rel = inside(config_path_abs(a, path), cfg->abs_dir);
    for (size_t i = 0; i < cfg->n_exclude; i++) {
        const char *g = cfg->exclude[i];
        if (config_glob(a, g, strchr(g, '/') ? rel : base, true))
            return true;
    }
    return false;
}
