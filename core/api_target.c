/* api_target.c - targets: writing, checking, diffing, listing (cli.md 5).
 *
 * Every input has a target: the output sink, the input file itself (-w,
 * or -c/-d/-l alone), the -o file, or its mirror under --out-dir.  While
 * the run is computed (in a worker with -j), a check compares the fresh
 * output with the target's bytes and keeps the diff or list text, and a
 * write replaces the target (unless another input has the same target:
 * then it is written at commit, in input order).  Messages and the diff
 * or list text are printed at commit, in input order.
 */
#include "api_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diff.h"
#include "io/file.h"

/* Has path a ".." component? */
static bool has_dotdot(const char *path)
{
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return true;
        p += n;
        p += *p == '/';
    }
    return false;
}

const char *target_mirror(struct arena *a, const struct pcx_options *o,
                          const struct input *in, const char **error)
{
    const char *rel = in->rel;
    if (!rel && in->stream && strcmp(in->name, "<stdin>") == 0) {
        *error = "--out-dir needs --stdin-filepath to name standard input";
        return NULL;
    }
    if (!rel && in->name[0] == '/')
        rel = strrchr(in->name, '/') + 1;
    else if (!rel)
        rel = in->name;
    if (!*rel || has_dotdot(rel)) {
        *error = "cannot mirror a path with '..' components under --out-dir";
        return NULL;
    }
    struct buf b;
    buf_init(&b, a);
    size_t n = strlen(o->target_path);
    buf_puts(&b, o->target_path);
    if (n == 0 || o->target_path[n - 1] != '/')
        buf_putc(&b, '/');
    buf_puts(&b, rel);
    return buf_cstr(&b);
}

const char *target_of(struct arena *a, const struct pcx_options *o,
                      const struct input *in)
{
    const char *error = NULL;
    switch (o->target) {
    case PCX_TARGET_FILE:
        return o->target_path;
    case PCX_TARGET_DIR:
        return target_mirror(a, o, in, &error);
    default:
        return in->path;
    }
}

/* ---- before the runs ---- */

/* path without "." components and repeated slashes: two spellings of one
 * target compare equal. */
static const char *plain_path(struct arena *a, const char *path)
{
    struct buf b;
    buf_init(&b, a);
    if (*path == '/')
        buf_putc(&b, '/');
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n && !(n == 1 && *p == '.')) {
            if (b.len && b.data[b.len - 1] != '/')
                buf_putc(&b, '/');
            buf_put(&b, p, n);
        }
        p += n;
        p += *p == '/';
    }
    return buf_cstr(&b);
}

/* A target and the input it belongs to. */
struct planned {
    const char *path;
    size_t i;
};

static int by_path(const void *x, const void *y)
{
    const struct planned *a = x, *b = y;
    int d = strcmp(a->path, b->path);
    return d ? d : (a->i > b->i) - (a->i < b->i);
}

/* Refuse in, whose --out-dir target is also other's. */
static void refuse_shared(struct arena *a, struct input *in, const char *target,
                          const struct input *other)
{
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "its --out-dir target %s is also the target of %s", target,
               other->name);
    in->error = buf_cstr(&b);
    in->error_code = "usage";
}

/* Inputs x and y are one file given twice. */
static bool same_input(const struct input *x, const struct input *y)
{
    return x->path && y->path && file_same(x->path, y->path);
}

/* The target of in, spelled plainly; NULL when it has none (the run
 * says why) or when in is refused for being its own target. */
static const char *planned_target(struct arena *a, const struct pcx_options *o,
                                  struct input *in)
{
    const char *err = NULL;
    if (o->target != PCX_TARGET_DIR)
        return in->path ? plain_path(a, in->path) : NULL;
    const char *t = target_mirror(a, o, in, &err);
    if (t && in->path && file_same(in->path, t)) {
        in->error = "its --out-dir target is the file itself: it would be "
                    "rewritten in place (only -w rewrites inputs)";
        in->error_code = "usage";
        return NULL;
    }
    return t ? plain_path(a, t) : NULL;
}

void target_plan(struct arena *a, const struct pcx_options *o, struct input *ins,
                 size_t n)
{
    bool dir = o->target == PCX_TARGET_DIR;
    if (!dir && (o->check || o->target != PCX_TARGET_INPUT))
        return;
    struct planned *v = ARENA_NEWN(a, struct planned, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = ins[i].error || ins[i].cfg_failed
                            ? NULL : planned_target(a, o, &ins[i]);
        if (t)
            v[k++] = (struct planned){t, i};
    }
    qsort(v, k, sizeof *v, by_path);
    for (size_t j = 0, e; j < k; j = e) {
        struct input *first = &ins[v[j].i];
        for (e = j + 1; e < k && strcmp(v[e].path, v[j].path) == 0; e++) {
            struct input *in = &ins[v[e].i];
            if (!dir || same_input(first, in)) {
                in->serial = true; /* written after the first, in order */
                continue;
            }
            refuse_shared(a, in, v[e].path, first);
            if (!first->error)
                refuse_shared(a, first, v[j].path, in);
        }
    }
}

/* ---- one run ---- */

/* Set r->target; false (r->target_error set) when there is none. */
static bool find_target(struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    switch (o->target) {
    case PCX_TARGET_FILE:
        r->target = o->target_path;
        break;
    case PCX_TARGET_DIR:
        r->target = target_mirror(r->a, o, r->in, &r->target_error);
        break;
    default: /* the input itself; standard input is compared, never written */
        r->target = r->in->path ? r->in->path : r->in->name;
        if (!r->in->path && !o->check)
            r->target_error = "standard input cannot be written in place";
        break;
    }
    return !r->target_error && r->target;
}

/* The target's current bytes; *missing when it does not exist.  False
 * (r->target_error set) when it exists but cannot be read, or is no
 * regular file: a device or FIFO has no bytes to compare with (and
 * reading one may wait forever). */
static bool current(struct run *r, const uint8_t **p, size_t *n, bool *missing)
{
    *missing = false;
    bool itself = r->cx->o.target == PCX_TARGET_INPUT ||
                  r->cx->o.target == PCX_TARGET_STDOUT;
    if (itself) {
        *p = r->src.text;
        *n = r->src.len;
        return true;
    }
    const char *what;
    if (file_way(r->target, &what) != FILE_WAY_REPLACE) {
        struct buf b;
        buf_init(&b, r->a);
        buf_printf(&b, "cannot compare: it is %s, not a regular file", what);
        r->target_error = buf_cstr(&b);
        return false;
    }
    if (file_kind(r->target) == FILE_KIND_MISSING) {
        *missing = true;
        *p = (const uint8_t *)"";
        *n = 0;
        return true;
    }
    struct file_data fd;
    if (!file_read(r->a, r->target, &fd)) {
        r->target_error = fd.error;
        return false;
    }
    *p = fd.data;
    *n = fd.len;
    return true;
}

/* Check modes: compare, and prepare what -l and -d print. */
static void compare(struct run *r)
{
    const uint8_t *old;
    size_t n;
    bool missing;
    if (!current(r, &old, &n, &missing))
        return;
    r->compared = true;
    r->stale = missing || n != r->out.len ||
               memcmp(old, r->out.data ? r->out.data : "", n) != 0;
    if (!r->stale)
        return;
    unsigned check = r->cx->o.check;
    if (check & PCX_CHECK_LIST) {
        report_put_text(&r->report, r->target);
        buf_putc(&r->report, '\n');
    }
    if (check & PCX_CHECK_DIFF) {
        struct buf a, b;
        buf_init(&a, r->a);
        buf_init(&b, r->a);
        buf_puts(&a, missing ? "/dev/null" : "a/");
        if (!missing)
            report_put_text(&a, r->target);
        buf_puts(&b, "b/");
        report_put_text(&b, r->target);
        diff_unified(r->a, old, n, (const uint8_t *)r->out.data, r->out.len,
                     buf_cstr(&a), buf_cstr(&b), &r->report);
    }
}

/* Is the directory that holds path there?  A look-up takes no lock
 * that the -j threads share, while a mkdir that finds the directory
 * there takes its parent's: two threads writing files of one tree made
 * each other wait at every ancestor of every file. */
static bool parent_there(char *p)
{
    char *slash = strrchr(p, '/');
    if (!slash || slash == p)
        return true;
    *slash = 0;
    struct stat st;
    bool there = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
    *slash = '/';
    return there;
}

/* Create the missing directories above path (as mkdir -p would). */
static bool make_parents(struct arena *a, const char *path, const char **error)
{
    char *p = arena_strndup(a, path, strlen(path));
    if (parent_there(p))
        return true;
    for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            struct buf b;
            buf_init(&b, a);
            buf_printf(&b, "cannot create directory %s: %s", p, strerror(errno));
            *error = buf_cstr(&b);
            return false;
        }
        *s = '/';
    }
    return true;
}

/* Does the file at path hold exactly data[0, len)? */
static bool holds(struct arena *a, const char *path, const char *data, size_t len)
{
    struct file_data fd;
    return file_read(a, path, &fd) && fd.len == len && memcmp(fd.data, data, len) == 0;
}

/* -w, -o, --out-dir: write the target unless it already holds the output
 * (its modification time is then kept).  A device or FIFO is written
 * through (-o, --out-dir), never compared.  An input changed since it was
 * read is not replaced (file_write), unless it now holds the output (the
 * same input named twice, written by an earlier run).  r->target_error
 * on failure. */
static void write_target(struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    bool in_place = o->target == PCX_TARGET_INPUT;
    const char *data = r->out.data ? r->out.data : "", *what, *err = NULL;
    r->write_done = true;
    if (in_place || file_way(r->target, &what) == FILE_WAY_REPLACE) {
        const uint8_t *old;
        size_t n;
        bool missing;
        if (!current(r, &old, &n, &missing))
            return;
        if (!missing && n == r->out.len && memcmp(old, data, n) == 0)
            return;
    }
    if (in_place && file_changed(r->target, &r->stamp) &&
        holds(r->a, r->target, data, r->out.len))
        return;
    const struct file_write_opts wo = {in_place, &r->stamp, true};
    if ((o->target == PCX_TARGET_DIR && !make_parents(r->a, r->target, &err)) ||
        !file_write(r->a, r->target, data, r->out.len, &wo, &err)) {
        r->target_error = err;
        return;
    }
    r->wrote = true;
}

/* The directory where a target at path gets its temporary: that of the
 * file a symbolic link leads to. */
static const char *temp_dir(struct arena *a, const char *path)
{
    struct stat st;
    char resolved[PATH_MAX]; /* not malloc'd: the arena may jump out */
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, resolved))
        path = arena_strndup(a, resolved, strlen(resolved));
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    return slash == path ? "/" : arena_strndup(a, path, (size_t)(slash - path));
}

static int by_string(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void target_sweep(const struct pcx_ctx *cx, struct arena *a,
                  const struct input *ins, size_t n)
{
    const struct pcx_options *o = &cx->o;
    if (o->target == PCX_TARGET_STDOUT || o->check || n == 0)
        return;
    const char **dirs = arena_alloc(a, n * sizeof *dirs), *what;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = ins[i].error ? NULL : target_of(a, o, &ins[i]);
        if (t && file_way(t, &what) == FILE_WAY_REPLACE)
            dirs[k++] = temp_dir(a, t);
    }
    qsort(dirs, k, sizeof *dirs, by_string);
    for (size_t j = 0; j < k; j++)
        if (j == 0 || strcmp(dirs[j], dirs[j - 1]) != 0)
            file_sweep_temporaries(dirs[j]);
}

void target_prepare(struct run *r)
{
    const struct pcx_options *o = &r->cx->o;
    if (o->target == PCX_TARGET_STDOUT && !o->check)
        return;
    if (!find_target(r))
        return;
    if (o->check)
        compare(r);
    else if (!r->in->serial)
        write_target(r);
}

/* ---- commit ---- */

enum pcx_status target_commit(struct pcx_ctx *cx, struct run *r)
{
    const struct pcx_options *o = &cx->o;
    bool writing = o->target != PCX_TARGET_STDOUT && !o->check;
    if (writing && !r->target_error && !r->write_done)
        write_target(r); /* an input that shares its target: in order */
    if (r->target_error)
        return api_say(cx, r->target ? r->target : r->in->name, DIAG_ERROR,
                       "io", r->target_error);
    if (writing) {
        cx->stats.written += r->wrote;
        return PCX_STATUS_OK;
    }
    if (o->check) {
        cx->stats.checked++;
        if (!r->stale)
            return PCX_STATUS_OK;
        cx->stats.stale++;
        enum pcx_status st = api_out(cx, r->report.data, r->report.len);
        return st == PCX_STATUS_OK ? PCX_STATUS_STALE : st;
    }
    return api_out(cx, r->out.data, r->out.len);
}

void target_summary(struct pcx_ctx *cx)
{
    char msg[96];
    snprintf(msg, sizeof msg, "%zu file%s checked, %zu stale", cx->stats.checked,
             cx->stats.checked == 1 ? "" : "s", cx->stats.stale);
    api_say(cx, NULL, DIAG_NOTE, NULL, msg);
}
