/* file.c - whole-file input and directory walking (file.h).
 *
 * POSIX only.  Memory comes from the caller's arena; the only resources
 * held across calls are none: every descriptor and DIR handle is closed
 * before returning.
 */
#include "file_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/buf.h"

const char *file_errmsg(struct arena *a, const char *what, int err)
{
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "%s: %s", what, strerror(err));
    return buf_cstr(&b);
}

static bool fail(struct arena *a, struct file_data *out, const char *what,
                 int err)
{
    out->error = file_errmsg(a, what, err);
    return false;
}

/* fn(ctx), during which running out of memory in arena a first calls
 * release(ctx) and then goes on to a's own handler (the run's exit): the
 * FILE and DIR handles held while allocating are never stranded. */
static bool guarded(struct arena *a, bool (*fn)(void *), void (*release)(void *),
                    void *ctx)
{
    jmp_buf *outer = a->oom;
    jmp_buf jb;
    if (setjmp(jb)) {
        release(ctx);
        arena_on_oom(a, outer);
        if (outer)
            longjmp(*outer, 1);
        abort();
    }
    arena_on_oom(a, &jb);
    bool ok = fn(ctx);
    arena_on_oom(a, outer);
    return ok;
}

/* Read f to its end; hint is the expected size (0 = unknown). */
static bool read_all(struct arena *a, FILE *f, size_t hint,
                     struct file_data *out)
{
    size_t cap = (hint ? hint : 64 * 1024) + 1, len = 0;
    uint8_t *p = arena_alloc(a, cap + 1);
    for (;;) {
        if (len == cap) {
            if (cap > FILE_MAX_SIZE)
                return fail(a, out, "cannot read", EFBIG);
            p = arena_grow(a, p, cap + 1, cap * 2 + 1);
            cap *= 2;
        }
        size_t got = fread(p + len, 1, cap - len, f);
        len += got;
        if (got == 0 || len < cap) {
            if (ferror(f))
                return fail(a, out, "cannot read", errno ? errno : EIO);
            if (feof(f))
                break;
        }
    }
    if (len > FILE_MAX_SIZE)
        return fail(a, out, "cannot read", EFBIG);
    p[len] = 0;
    out->data = p;
    out->len = len;
    return true;
}

/* read_all on an open file, for guarded. */
struct reading {
    struct arena *a;
    FILE *f;
    size_t hint;
    struct file_data *out;
};

static bool reading_run(void *ctx)
{
    struct reading *r = ctx;
    return read_all(r->a, r->f, r->hint, r->out);
}

static void reading_close(void *ctx)
{
    fclose(((struct reading *)ctx)->f);
}

bool file_read(struct arena *a, const char *path, struct file_data *out)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(a, out, "cannot open", errno);
    struct stat st;
    int err = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (err) {
        close(fd);
        return fail(a, out, "cannot read", err);
    }
    if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > FILE_MAX_SIZE) {
        close(fd);
        return fail(a, out, "cannot read", EFBIG);
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        err = errno;
        close(fd);
        return fail(a, out, "cannot read", err);
    }
    if (S_ISREG(st.st_mode))
        out->stamp = (struct file_stamp){true, st.st_dev, st.st_ino, st.st_size,
                                         st.st_mtim};
    errno = 0;
    struct reading r = {a, f, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, out};
    bool ok = guarded(a, reading_run, reading_close, &r);
    fclose(f);
    return ok;
}

bool file_read_stream(struct arena *a, FILE *f, const char *name,
                      struct file_data *out)
{
    (void)name; /* the caller renders the name with the message */
    memset(out, 0, sizeof *out);
    errno = 0;
    return read_all(a, f, 0, out);
}

/* ---- gzip ---- */

/* Decompressing a gzip file, for guarded. */
struct unzipping {
    struct arena *a;
    gzFile z;
    size_t max;
    struct file_data *out;
};

static bool unzipping_run(void *ctx)
{
    struct unzipping *u = ctx;
    size_t cap = 256 * 1024, len = 0;
    uint8_t *p = arena_alloc(u->a, cap + 1);
    for (;;) {
        if (len == cap) {
            if (cap > u->max)
                return fail(u->a, u->out, "cannot read", EFBIG);
            p = arena_grow(u->a, p, cap + 1, cap * 2 + 1);
            cap *= 2;
        }
        size_t want = cap - len > INT_MAX ? INT_MAX : cap - len;
        int got = gzread(u->z, p + len, (unsigned)want);
        int code = Z_OK;
        const char *why = got < 0 ? gzerror(u->z, &code) : NULL;
        if (got == 0) /* the end, or a stream cut short */
            why = gzerror(u->z, &code);
        if (code != Z_OK) {
            struct buf b;
            buf_init(&b, u->a);
            buf_printf(&b, "cannot decompress: %s", code == Z_ERRNO ? strerror(errno) : why);
            u->out->error = buf_cstr(&b);
            return false;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    if (len > u->max)
        return fail(u->a, u->out, "cannot read", EFBIG);
    p[len] = 0;
    u->out->data = p;
    u->out->len = len;
    return true;
}

static void unzipping_close(void *ctx)
{
    gzclose(((struct unzipping *)ctx)->z);
}

bool file_read_gzip(struct arena *a, const char *path, size_t max, struct file_data *out)
{
    memset(out, 0, sizeof *out);
    if (max > FILE_MAX_SIZE)
        max = FILE_MAX_SIZE;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(a, out, "cannot open", errno);
    struct stat st;
    int err = fstat(fd, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    gzFile z = err ? NULL : gzdopen(fd, "rb");
    if (!z) {
        err = err ? err : errno ? errno : ENOMEM;
        close(fd);
        return fail(a, out, "cannot read", err);
    }
    struct unzipping u = {a, z, max, out};
    bool ok = guarded(a, unzipping_run, unzipping_close, &u);
    gzclose(z);
    return ok;
}

enum file_kind file_kind(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return FILE_KIND_MISSING;
    return S_ISDIR(st.st_mode) ? FILE_KIND_DIR : FILE_KIND_OTHER;
}

size_t file_size(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0)
        return 0;
    return (uintmax_t)st.st_size > SIZE_MAX ? SIZE_MAX : (size_t)st.st_size;
}

bool file_same(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* ---- directory walk ---- */

/* Growable array of paths in the arena. */
struct pathvec {
    const char **items;
    size_t n, cap;
};

static void push(struct arena *a, struct pathvec *v, const char *p)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        v->items = arena_grow(a, v->items, v->cap * sizeof *v->items,
                              cap * sizeof *v->items);
        v->cap = cap;
    }
    v->items[v->n++] = p;
}

static bool is_el_name(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && strcmp(name + n - 3, ".el") == 0;
}

static const char *join(struct arena *a, const char *dir, const char *name)
{
    struct buf b;
    buf_init(&b, a);
    size_t n = strlen(dir);
    buf_put(&b, dir, n);
    if (n == 0 || dir[n - 1] != '/')
        buf_putc(&b, '/');
    buf_puts(&b, name);
    return buf_cstr(&b);
}

/* What a walk collects, and the directory it leaves out. */
struct walk {
    struct arena *a;
    struct pathvec files, dirs;
    struct stat skip;     /* the directory left out (when has_skip) */
    bool has_skip;
    const char *skipped;  /* its path, once met */
};

/* Sort one entry of a directory into files or subdirectories.  lstat
 * first, so a symbolic link is never taken for a directory to descend
 * into. */
static void classify(struct walk *w, const char *path, const char *name)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode) && w->has_skip && st.st_dev == w->skip.st_dev &&
        st.st_ino == w->skip.st_ino) {
        w->skipped = path;
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        push(w->a, &w->dirs, path);
        return;
    }
    if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
        return;
    if (S_ISREG(st.st_mode) && is_el_name(name))
        push(w->a, &w->files, path);
}

/* One directory being listed, for guarded. */
struct listing {
    struct walk *w;
    DIR *d;
    const char *dir;
};

static bool listing_run(void *ctx)
{
    struct listing *l = ctx;
    struct dirent *e;
    while ((e = readdir(l->d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        classify(l->w, join(l->w->a, l->dir, e->d_name), e->d_name);
    }
    return true;
}

static void listing_close(void *ctx)
{
    closedir(((struct listing *)ctx)->d);
}

/* Add the entries of one directory; false (errno set) if it cannot be read. */
static bool scan_dir(struct walk *w, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct listing l = {w, d, dir};
    guarded(w->a, listing_run, listing_close, &l);
    closedir(d);
    return true;
}

static int cmp_paths(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

bool file_walk_dir_except(struct arena *a, const char *dir, const char *skip,
                          const char ***paths, size_t *n, const char **skipped,
                          const char **error)
{
    struct walk w = {a, {0}, {0}, {0}, false, NULL};
    w.has_skip = skip && stat(skip, &w.skip) == 0 && S_ISDIR(w.skip.st_mode);
    push(a, &w.dirs, dir);
    /* dirs is a work list, not a recursion: depth cannot overflow. */
    for (size_t i = 0; i < w.dirs.n; i++) {
        if (!scan_dir(&w, w.dirs.items[i])) {
            struct buf b;
            buf_init(&b, a);
            buf_printf(&b, "cannot read directory %s: %s", w.dirs.items[i],
                       strerror(errno));
            *error = buf_cstr(&b);
            return false;
        }
    }
    if (w.files.n > 1)
        qsort(w.files.items, w.files.n, sizeof *w.files.items, cmp_paths);
    *paths = w.files.items;
    *n = w.files.n;
    *skipped = w.skipped;
    return true;
}

bool file_walk_dir(struct arena *a, const char *dir, const char ***paths,
                   size_t *n, const char **error)
{
    const char *skipped;
    return file_walk_dir_except(a, dir, NULL, paths, n, &skipped, error);
}
