/* file.h - whole-file input, atomic output, directory walking.
 *
 * Layer io (the edge of the world): the pipeline itself works on byte
 * buffers; this module gets them from files, streams and directories, and
 * writes results so that a reader never sees a partial file.  Failures are
 * returned as a message without the file name ("cannot open: Permission
 * denied", arena-owned) for the caller to render; nothing is printed here.
 * Reading and walking are in file.c, writing in file_write.c.
 */
#ifndef PCX_FILE_H
#define PCX_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "base/arena.h"

/* Largest input accepted: spans are 32-bit byte offsets. */
#define FILE_MAX_SIZE ((size_t)UINT32_MAX - 1)

/* Which file was read, and how it was then: an in-place write refuses
 * to replace a file that an edit changed since (file_write). */
struct file_stamp {
    bool set;              /* a regular file was read */
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime; /* to the nanosecond where the file system has it */
};

struct file_data {
    uint8_t *data;     /* contents (arena-owned), NUL-terminated after len */
    size_t len;        /* bytes in data */
    const char *error; /* NULL on success, else why it failed (arena-owned) */
    struct file_stamp stamp; /* file_read of a regular file */
};

/* Read the whole file at path into arena a.  A directory, a file that
 * cannot be opened or read, and a file larger than FILE_MAX_SIZE fail with
 * out->error set.  Pipes and devices are read until end of file.  Returns
 * true on success. */
bool file_read(struct arena *a, const char *path, struct file_data *out);

/* Read the gzip-compressed file at path (a file of Emacs's Lisp
 * directory, F.el.gz) into arena a, decompressed; more than max bytes
 * (FILE_MAX_SIZE at most) fail with out->error set, as does data that is
 * not gzip.  Returns true on success. */
bool file_read_gzip(struct arena *a, const char *path, size_t max, struct file_data *out);

/* Same for an open stream (standard input); name is used in the error
 * message only.  The stream is not closed. */
bool file_read_stream(struct arena *a, FILE *f, const char *name,
                      struct file_data *out);

/* ---- writing (file_write.c) ---- */

/* How a target is written.  Only a regular file (or nothing yet) is
 * replaced; a device or FIFO is never renamed over, it may only be
 * written through; what is neither is refused. */
enum file_way {
    FILE_WAY_REPLACE, /* missing, or a regular file (through symbolic links):
                         a temporary beside it is renamed over it */
    FILE_WAY_THROUGH, /* a character device, a FIFO, or the name of a
                         descriptor (/dev/stdout, /dev/fd/N): written as is */
    FILE_WAY_REFUSE,  /* a directory, block device, socket, dangling link */
};

/* How path would be written; *what (static) names what it is ("a FIFO"),
 * for messages. */
enum file_way file_way(const char *path, const char **what);

/* Is path fit for an in-place rewrite (-w): a regular file, through
 * symbolic links, with one hard link?  False with *error set (from arena
 * a) otherwise.  Checked before the file is read, so that a FIFO's bytes
 * are not consumed for nothing, and again by file_write. */
bool file_check_in_place(struct arena *a, const char *path, const char **error);

/* Has the file at path changed since it was read as *seen? */
bool file_changed(const char *path, const struct file_stamp *seen);

struct file_write_opts {
    bool in_place;   /* the target is the input (-w): it must pass
                        file_check_in_place, and is not replaced if it
                        changed since it was read as *seen */
    const struct file_stamp *seen;
    bool through;    /* FILE_WAY_THROUGH targets are written through (else
                        refused) */
};

/* Write data to the target at path, as file_way says.  A replaced file
 * keeps its owner, group, permission bits and extended attributes (as far
 * as the file system has them; an owner that cannot be kept is an error);
 * a new file gets the defaults under the umask.  The temporary, named
 * ".NAME.PID-K.pcexpand.tmp" (NAME shortened to fit NAME_MAX), is written,
 * flushed to disk when it replaces a file, and renamed over the target.
 * A symbolic link stays a link: its target is replaced.  On failure the
 * temporary is removed, the target is unchanged, and *error gets a
 * message from arena a.  Returns true on success. */
bool file_write(struct arena *a, const char *path, const void *data,
                size_t len, const struct file_write_opts *o,
                const char **error);

/* file_write with no options: replace a regular file or make a new one,
 * nothing else. */
bool file_write_atomic(struct arena *a, const char *path, const void *data,
                       size_t len, const char **error);

/* Remove the temporaries of file_write in directory dir whose process no
 * longer exists (a run that was killed); a live run's are kept.  Errors
 * are ignored: the sweep only tidies. */
void file_sweep_temporaries(const char *dir);

/* What a path names, following symbolic links. */
enum file_kind {
    FILE_KIND_MISSING, /* does not exist (or cannot be examined) */
    FILE_KIND_DIR,     /* a directory */
    FILE_KIND_OTHER,   /* a regular file, pipe, device... */
};
enum file_kind file_kind(const char *path);

/* Size of the regular file at path; 0 when it is not one or is missing. */
size_t file_size(const char *path);

/* Do paths a and b name the same file or directory (the same device and
 * inode, whatever the path)?  False when either cannot be examined. */
bool file_same(const char *a, const char *b);

/* The Emacs Lisp files under directory dir, as cli.md section 2 finds
 * them: regular files (or links to them) whose names end in ".el", in
 * subdirectories at any depth; names starting with "." are skipped, and
 * symbolic links to directories are not followed.  *paths gets "dir/..."
 * paths from arena a, sorted byte-wise; *n their number.  A subdirectory
 * that cannot be opened fails the walk with *error set.  Returns true on
 * success. */
bool file_walk_dir(struct arena *a, const char *dir, const char ***paths,
                   size_t *n, const char **error);

/* file_walk_dir, leaving out the subdirectory that is the directory
 * `skip` names (the same directory, whatever the path to it; skip NULL
 * or missing: none).  *skipped gets its path under dir when it was met,
 * else NULL. */
bool file_walk_dir_except(struct arena *a, const char *dir, const char *skip,
                          const char ***paths, size_t *n, const char **skipped,
                          const char **error);

#endif
