/* file_write.c - writing targets (file.h): a regular file replaced
 * atomically, keeping what it had; a device or FIFO written through;
 * anything else refused; the sweep of killed runs' temporaries.
 *
 * POSIX and the extended-attribute calls of glibc.  While a temporary is
 * open no arena memory is taken (running out would jump away and strand
 * it): a failure is kept as a struct fault and worded once the temporary
 * is closed and removed.
 */
#include "file_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/buf.h"

/* A temporary is ".NAME.PID-K" TEMP_SUFFIX beside its target, NAME being
 * at most TEMP_NAME_KEEP bytes of the target's name, so that the whole
 * fits NAME_MAX (255) with room for the rest (28 bytes at most). */
#define TEMP_SUFFIX ".pcexpand.tmp"
#define TEMP_NAME_KEEP 200

/* ---- what a target is ---- */

static const struct {
    mode_t type;
    enum file_way way;
    const char *what;
} kinds[] = {
    {S_IFREG, FILE_WAY_REPLACE, "a regular file"},
    {S_IFCHR, FILE_WAY_THROUGH, "a character device"},
    {S_IFIFO, FILE_WAY_THROUGH, "a FIFO"},
    {S_IFDIR, FILE_WAY_REFUSE, "a directory"},
    {S_IFBLK, FILE_WAY_REFUSE, "a block device"},
    {S_IFSOCK, FILE_WAY_REFUSE, "a socket"},
};

/* Names of the process's own descriptors.  Followed as links, they lead
 * to the file behind the descriptor (replacing it would ignore the
 * descriptor's offset and append mode) or, for a pipe, to nowhere. */
static const struct {
    const char *name;
    int fd; /* -1: the number follows the name */
} descriptor_names[] = {
    {"/dev/stdin", 0},  {"/dev/stdout", 1},      {"/dev/stderr", 2},
    {"/dev/fd/", -1},   {"/proc/self/fd/", -1},
};

/* The descriptor number spelled by s (digits only), or -1. */
static int fd_number(const char *s)
{
    long v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > INT_MAX / 10)
            return -1;
        v = v * 10 + (*p - '0');
    }
    return *s && v <= INT_MAX ? (int)v : -1;
}

/* The descriptor that path names, or -1. */
static int descriptor(const char *path)
{
    for (size_t i = 0; i < sizeof descriptor_names / sizeof descriptor_names[0]; i++) {
        size_t n = strlen(descriptor_names[i].name);
        if (strncmp(path, descriptor_names[i].name, n) != 0)
            continue;
        int fd = descriptor_names[i].fd;
        return fd < 0 ? fd_number(path + n) : path[n] ? -1 : fd;
    }
    return -1;
}

enum file_way file_way(const char *path, const char **what)
{
    *what = "the name of a file descriptor";
    if (descriptor(path) >= 0)
        return FILE_WAY_THROUGH;
    struct stat st;
    *what = "a new file";
    if (lstat(path, &st) != 0)
        return FILE_WAY_REPLACE; /* made, or the directory's error said */
    *what = "a symbolic link that leads nowhere";
    if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
        return FILE_WAY_REFUSE;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if ((st.st_mode & S_IFMT) == kinds[i].type) {
            *what = kinds[i].what;
            return kinds[i].way;
        }
    }
    *what = "not a file";
    return FILE_WAY_REFUSE;
}

/* "doing: it is WHAT, not a regular file" in arena a. */
static const char *refusal(struct arena *a, const char *doing, const char *what)
{
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "%s: it is %s, not a regular file", doing, what);
    return buf_cstr(&b);
}

bool file_check_in_place(struct arena *a, const char *path, const char **error)
{
    const char *what;
    struct stat st;
    if (file_way(path, &what) != FILE_WAY_REPLACE) {
        *error = refusal(a, "cannot write in place", what);
        return false;
    }
    if (stat(path, &st) != 0 || st.st_nlink <= 1)
        return true; /* a missing input is the reader's error to say */
    struct buf b;
    buf_init(&b, a);
    buf_printf(&b, "cannot write in place: the file has %ju hard links "
                   "(replacing it would separate them)", (uintmax_t)st.st_nlink);
    *error = buf_cstr(&b);
    return false;
}

bool file_changed(const char *path, const struct file_stamp *seen)
{
    struct stat st;
    if (!seen || !seen->set)
        return false;
    return stat(path, &st) != 0 || st.st_dev != seen->dev ||
           st.st_ino != seen->ino || st.st_size != seen->size ||
           st.st_mtim.tv_sec != seen->mtime.tv_sec ||
           st.st_mtim.tv_nsec != seen->mtime.tv_nsec;
}

/* ---- failures while a temporary is open ---- */

struct fault {
    const char *what; /* static: "cannot write" */
    int err;          /* errno, or 0: what says it all */
    char attr[XATTR_NAME_MAX + 1]; /* the attribute that could not be kept */
};

static bool failed(struct fault *f, const char *what, int err)
{
    f->what = what;
    f->err = err;
    return false;
}

static const char *worded(struct arena *a, const struct fault *f)
{
    struct buf b;
    buf_init(&b, a);
    buf_puts(&b, f->what);
    if (f->attr[0])
        buf_printf(&b, " %s", f->attr);
    if (f->err)
        buf_printf(&b, ": %s", strerror(f->err));
    return buf_cstr(&b);
}

/* Write all n bytes to fd, retrying short writes; false with errno set. */
static bool write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* ---- extended attributes ---- */

/* Fills buf (n bytes; n == 0 asks for the size needed), as the xattr calls
 * do. */
typedef ssize_t (*fetch_fn)(const char *path, const char *name, void *buf,
                            size_t n);

static ssize_t list_names(const char *path, const char *name, void *buf, size_t n)
{
    (void)name;
    return listxattr(path, buf, n);
}

/* What fn gives, in *out (malloc'd; NULL when empty); -1 with errno set.
 * The size is asked again when the value grew between the two calls. */
static ssize_t fetch(fetch_fn fn, const char *path, const char *name, char **out)
{
    *out = NULL;
    for (;;) {
        ssize_t size = fn(path, name, NULL, 0);
        if (size <= 0)
            return size;
        char *p = malloc((size_t)size);
        if (!p) {
            errno = ENOMEM;
            return -1;
        }
        ssize_t got = fn(path, name, p, (size_t)size);
        if (got >= 0) {
            *out = p;
            return got;
        }
        free(p);
        if (errno != ERANGE)
            return -1;
    }
}

/* Give the temporary fd the value of attribute name of file from. */
static bool copy_attr(const char *from, int fd, const char *name, struct fault *f)
{
    char *v;
    ssize_t n = fetch(getxattr, from, name, &v);
    bool ok = n >= 0 && fsetxattr(fd, name, v ? v : "", (size_t)n, 0) == 0;
    int err = errno;
    free(v);
    if (ok)
        return true;
    snprintf(f->attr, sizeof f->attr, "%s", name);
    return failed(f, "cannot keep the extended attribute", err);
}

/* Give the temporary fd the extended attributes of file from (none when
 * its file system has none). */
static bool copy_attrs(const char *from, int fd, struct fault *f)
{
    char *names;
    ssize_t n = fetch(list_names, from, NULL, &names);
    if (n < 0)
        return errno == ENOTSUP ||
               failed(f, "cannot read the extended attributes", errno);
    bool ok = true;
    for (ssize_t i = 0; ok && i < n; i += (ssize_t)strlen(names + i) + 1)
        ok = copy_attr(from, fd, names + i, f);
    free(names);
    return ok;
}

/* ---- replacing a regular file ---- */

/* Create a new temporary beside target; *tmp gets its name (from arena
 * a, taken before the file exists).  The name starts with "." so that a
 * concurrent walk skips it. */
static int create_temp(struct arena *a, const char *target, int mode,
                       const char **tmp)
{
    const char *slash = strrchr(target, '/');
    int dir_len = slash ? (int)(slash - target + 1) : 0;
    const char *base = target + dir_len;
    size_t keep = strlen(base);
    if (keep > TEMP_NAME_KEEP)
        keep = TEMP_NAME_KEEP;
    while (keep > 0 && ((unsigned char)base[keep] & 0xC0) == 0x80)
        keep--; /* not in the middle of a UTF-8 sequence */
    for (unsigned k = 0; k < 100;) {
        struct buf b;
        buf_init(&b, a);
        buf_printf(&b, "%.*s.%.*s.%ld-%u" TEMP_SUFFIX, dir_len, target,
                   (int)keep, base, (long)getpid(), k);
        *tmp = buf_cstr(&b);
        int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0 || (errno != EEXIST && (errno != ENAMETOOLONG || keep == 0)))
            return fd;
        if (errno == ENAMETOOLONG)
            keep = 0; /* a file system with shorter names */
        else
            k++;
    }
    errno = EEXIST;
    return -1;
}

/* Give the temporary the owner, group, extended attributes and
 * permission bits of the file it replaces, in that order: a change of
 * owner drops the set-user-ID bit and the file capabilities. */
static bool keep_attributes(int fd, const char *target, const struct stat *old,
                            struct fault *f)
{
    struct stat now;
    if (fstat(fd, &now) != 0)
        return failed(f, "cannot write", errno);
    if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
        fchown(fd, old->st_uid, old->st_gid) != 0)
        return failed(f, "cannot keep the owner and group", errno);
    if (!copy_attrs(target, fd, f))
        return false;
    if (fchmod(fd, old->st_mode & 07777) != 0)
        return failed(f, "cannot keep the permission bits", errno);
    return true;
}

/* Fill and close the temporary.  A file that replaces an existing one is
 * flushed to disk before the rename, so a crash cannot leave the old
 * contents lost and the new ones not yet written.  A new file has no old
 * contents to lose (its input still exists), and flushing each of the
 * files of a whole tree written to a fresh --out-dir took most of that
 * run's time. */
static bool fill_temp(int fd, const char *target, const void *data, size_t len,
                      const struct stat *old, struct fault *f)
{
    bool ok = write_all(fd, data, len) || failed(f, "cannot write", errno);
    ok = ok && (!old || keep_attributes(fd, target, old, f));
    ok = ok && (!old || fsync(fd) == 0 || failed(f, "cannot write", errno));
    if (close(fd) != 0 && ok)
        return failed(f, "cannot write", errno);
    return ok;
}

/* Rename the temporary over target, unless what is there now must not
 * be replaced: an input edited since it was read, or something that is
 * no longer a regular file. */
static bool settle(const char *tmp, const char *target,
                   const struct file_write_opts *o, struct fault *f)
{
    struct stat st;
    if (o->in_place && file_changed(target, o->seen))
        return failed(f, "not written: the file changed since it was read", 0);
    if (lstat(target, &st) == 0 && !S_ISREG(st.st_mode))
        return failed(f, "not written: it is no longer a regular file", 0);
    return rename(tmp, target) == 0 || failed(f, "cannot write", errno);
}

static bool replace(struct arena *a, const char *path, const void *data,
                    size_t len, const struct file_write_opts *o,
                    const char **error)
{
    struct stat st;
    bool exists = stat(path, &st) == 0;
    /* Write through a symbolic link, so the link stays a link. */
    char resolved[PATH_MAX]; /* not malloc'd: the arena may jump out below */
    char *real = exists ? realpath(path, resolved) : NULL;
    if (exists && !real) {
        *error = file_errmsg(a, "cannot resolve the path", errno);
        return false;
    }
    const char *target = real ? arena_strndup(a, real, strlen(real)) : path;
    if (o->in_place && !file_check_in_place(a, target, error))
        return false;
    const char *tmp;
    int fd = create_temp(a, target, exists ? 0600 : 0666, &tmp);
    if (fd < 0) {
        *error = file_errmsg(a, "cannot create temporary file", errno);
        return false;
    }
    struct fault f = {NULL, 0, ""};
    if (fill_temp(fd, target, data, len, exists ? &st : NULL, &f) &&
        settle(tmp, target, o, &f))
        return true;
    unlink(tmp);
    *error = worded(a, &f);
    return false;
}

/* ---- writing through ---- */

static bool write_through(struct arena *a, const char *path, const void *data,
                          size_t len, const char **error)
{
    int own = descriptor(path);
    int fd = own >= 0 ? own : open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *error = file_errmsg(a, "cannot open", errno);
        return false;
    }
    struct stat st;
    struct fault f = {NULL, 0, ""};
    /* Opened without truncating: it must not have become a regular file
     * since file_way looked. */
    bool ok = own >= 0 || (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) ||
              failed(&f, "not written: it became a regular file", 0);
    ok = ok && (write_all(fd, data, len) || failed(&f, "cannot write", errno));
    if (own < 0 && close(fd) != 0 && ok)
        ok = failed(&f, "cannot write", errno);
    if (!ok)
        *error = worded(a, &f);
    return ok;
}

/* ---- entry points ---- */

bool file_write(struct arena *a, const char *path, const void *data,
                size_t len, const struct file_write_opts *o,
                const char **error)
{
    const char *what;
    switch (file_way(path, &what)) {
    case FILE_WAY_REPLACE:
        return replace(a, path, data, len, o, error);
    case FILE_WAY_THROUGH:
        if (o->through && !o->in_place)
            return write_through(a, path, data, len, error);
        break;
    case FILE_WAY_REFUSE:
        break;
    }
    *error = refusal(a, o->in_place ? "cannot write in place" : "cannot write",
                     what);
    return false;
}

bool file_write_atomic(struct arena *a, const char *path, const void *data,
                       size_t len, const char **error)
{
    static const struct file_write_opts plain = {false, NULL, false};
    return file_write(a, path, data, len, &plain, error);
}

/* ---- temporaries of killed runs ---- */

/* Start of the digits that end just before end (not before lo). */
static const char *digits_before(const char *lo, const char *end)
{
    while (end > lo && end[-1] >= '0' && end[-1] <= '9')
        end--;
    return end;
}

/* The process id in the name of a temporary (".NAME.PID-K" TEMP_SUFFIX),
 * or 0 when name is not one. */
static long temp_pid(const char *name)
{
    size_t n = strlen(name), s = strlen(TEMP_SUFFIX);
    if (name[0] != '.' || n < s + 5 || strcmp(name + n - s, TEMP_SUFFIX) != 0)
        return 0;
    const char *k_end = name + n - s, *k = digits_before(name + 1, k_end);
    if (k == k_end || k[-1] != '-')
        return 0;
    const char *pid_end = k - 1, *pid = digits_before(name + 1, pid_end);
    if (pid == pid_end || pid_end - pid > 9 || pid - 1 <= name || pid[-1] != '.')
        return 0;
    return strtol(pid, NULL, 10);
}

void file_sweep_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = temp_pid(e->d_name);
        struct stat st;
        /* kill(pid, 0) fails with ESRCH only when no such process exists
         * (EPERM: it exists, another user's) */
        if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode))
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}
