/* config_find.c - which configuration applies to an input (config.h).
 *
 * Discovery walks from the input's directory upward, lexically (no link
 * is resolved, as clang-format and ruff do), and stops at a repository
 * root.  The set keeps each file's result, so a directory of many inputs
 * reads its configuration once and reports its errors once.  Also here:
 * the lexical path helpers and the glob matcher of `exclude:`.
 */
#include "io/config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* ---- reading ---- */

const char *config_file_check(const char *path, struct stat *st)
{
    if (stat(path, st) != 0)
        return errno == ENOENT ? "no such file" : strerror(errno);
    if (!S_ISREG(st->st_mode))
        return S_ISDIR(st->st_mode) ? "a directory, not a regular file"
                                    : "not a regular file";
    if ((uintmax_t)st->st_size > CONFIG_MAX_SIZE)
        return "larger than 16 MiB";
    return NULL;
}

static bool read_fail(struct arena *a, struct file_data *out, const char *what,
                      const char *why)
{
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "%s: %s", what, why);
    out->error = buf_cstr(&b);
    return false;
}

/* Read fd (at most CONFIG_MAX_SIZE bytes; size: what fstat says, which
 * /proc files leave at 0) into arena memory. */
static bool read_fd(struct arena *a, int fd, size_t size, struct file_data *out)
{
    size_t cap = size + 1, len = 0; /* one byte more: growth is seen */
    uint8_t *p = arena_alloc(a, cap + 1);
    for (;;) {
        ssize_t got = read(fd, p + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return read_fail(a, out, "cannot read", strerror(errno));
        if (got == 0)
            break;
        len += (size_t)got;
        if (len > CONFIG_MAX_SIZE)
            return read_fail(a, out, "cannot read", "larger than 16 MiB");
        if (len == cap) {
            size_t more = cap * 2 > CONFIG_MAX_SIZE + 1 ? CONFIG_MAX_SIZE + 1 : cap * 2;
            p = arena_grow(a, p, cap + 1, more + 1);
            cap = more;
        }
    }
    p[len] = 0;
    out->data = p;
    out->len = len;
    return true;
}

bool config_read_file(struct arena *a, const char *path, struct file_data *out)
{
    memset(out, 0, sizeof *out);
    /* never blocks on a FIFO: its kind is refused before any read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return read_fail(a, out, "cannot open", strerror(errno));
    struct stat st;
    const char *why = fstat(fd, &st) != 0 ? strerror(errno)
                      : !S_ISREG(st.st_mode) ? "not a regular file"
                      : (uintmax_t)st.st_size > CONFIG_MAX_SIZE ? "larger than 16 MiB"
                      : NULL;
    if (why) {
        close(fd);
        return read_fail(a, out, "cannot read", why);
    }
    /* running out of memory closes the file before the arena's exit */
    jmp_buf *outer = a->oom, jb;
    if (setjmp(jb) != 0) {
        close(fd);
        arena_on_oom(a, outer);
        if (outer)
            longjmp(*outer, 1);
        abort(); /* what the arena does without a handler */
    }
    arena_on_oom(a, &jb);
    bool ok = read_fd(a, fd, (size_t)st.st_size, out);
    arena_on_oom(a, outer);
    close(fd);
    return ok;
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
    const struct config *cfg;  /* NULL: it has errors, or is ignored */
    struct buf errs;           /* they (or the warning), rendered */
    bool reported;             /* errs went to a caller's msgs */
};

struct config_set {
    struct arena *a;
    struct config_params p;
    struct config_entry *e; /* by first use */
    size_t n, cap;
    struct config_index by_path;
};

struct config_set *config_set_new(struct arena *a, const struct config_params *p)
{
    struct config_set *s = ARENA_NEW(a, struct config_set);
    s->a = a;
    s->p = *p;
    config_index_init(&s->by_path, a, NULL, 0, sizeof *s->e);
    return s;
}

/* The entry of the file abs when there is one: memory taken since m is
 * then given back. */
static struct config_entry *known(struct config_set *s, const char *abs,
                                  struct arena_mark m)
{
    size_t i = config_index_get(&s->by_path, s->e, s->n, sizeof *s->e, abs);
    if (i == s->n)
        return NULL;
    arena_release(s->a, m);
    return &s->e[i];
}

static struct config_entry *add(struct config_set *s, struct config_entry e)
{
    s->e = config_array_push(s->a, s->e, &s->n, &s->cap, sizeof *s->e);
    s->e[s->n - 1] = e;
    config_index_add(&s->by_path, s->e, s->n, sizeof *s->e);
    return &s->e[s->n - 1];
}

/* The entry of file path, loaded on first use. */
static struct config_entry *get(struct config_set *s, const char *path,
                                struct arena_mark m)
{
    const char *abs = config_path_abs(s->a, path);
    struct config_entry *e = known(s, abs, m);
    if (e)
        return e;
    struct buf errs;
    buf_init(&errs, s->a);
    const struct config *cfg = config_load(s->a, path, &s->p, &errs);
    return add(s, (struct config_entry){abs, cfg, errs, false});
}

/* The configuration of an entry; its errors (or its warning) go to msgs
 * once. */
static const struct config *use(struct config_entry *e, struct buf *msgs)
{
    if (e->errs.len && msgs && !e->reported) {
        buf_put(msgs, e->errs.data, e->errs.len);
        e->reported = true;
    }
    return e->cfg;
}

/* Why a discovered file is not to be trusted, or NULL.  As git's
 * safe.directory: a file that another user (not root) owns, in a
 * directory that anyone may write to (such as /tmp), may have been put
 * there to change what every checkout below it produces. */
static const char *distrust(struct arena *a, const char *path)
{
    struct stat f, d;
    if (stat(path, &f) != 0 || f.st_uid == geteuid() || f.st_uid == 0)
        return NULL;
    if (stat(config_path_dir(a, path), &d) != 0 || !(d.st_mode & S_IWOTH))
        return NULL;
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "configuration ignored: it is owned by user %ju, in a directory "
               "that others can write to", (uintmax_t)f.st_uid);
    return buf_cstr(&b);
}

/* The entry of a distrusted file: its warning, made once. */
static struct config_entry *ignored(struct config_set *s, const char *path,
                                    const char *why, struct arena_mark m)
{
    const char *abs = config_path_abs(s->a, path);
    struct config_entry *e = known(s, abs, m);
    if (e)
        return e;
    struct buf warn;
    buf_init(&warn, s->a);
    report_plain(&warn, path, DIAG_WARNING, "config", why, &s->p.report);
    return add(s, (struct config_entry){abs, NULL, warn, false});
}

/* Does directory dir end the search (a repository's top, or "/")? */
static bool search_ends(struct arena *a, const char *dir)
{
    return exists(a, dir, ".git") || exists(a, dir, ".hg") ||
           strcmp(config_path_abs(a, dir), "/") == 0;
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
    const char *dir = named ? config_path_dir(s->a, named) : ".";
    for (;;) {
        const char *path = config_discover(s->a, dir), *why = NULL;
        if (path && !(why = distrust(s->a, path)))
            return use(get(s, path, m), msgs);
        if (path) { /* as if it were not there: the search goes on above */
            use(ignored(s, path, why, m), msgs);
            m = arena_mark(s->a);
            dir = config_path_dir(s->a, path);
        }
        if (!path || search_ends(s->a, dir)) {
            arena_release(s->a, m);
            return config_defaults();
        }
        dir = config_path_join(s->a, dir, "..");
    }
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
