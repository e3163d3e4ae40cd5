/* file.h - whole-file input, atomic output, directory walking.
 *
 * Layer io (the edge of the world): the pipeline itself works on byte
 * buffers; this module gets them from files, streams and directories, and
 * writes results so that a reader never sees a partial file.  Failures are
 * returned as a message without the file name ("cannot open: Permission
 * denied", arena-owned) for the caller to render; nothing is printed here.
 */
#ifndef PCX_FILE_H
#define PCX_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"

/* Largest input accepted: spans are 32-bit byte offsets. */
#define FILE_MAX_SIZE ((size_t)UINT32_MAX - 1)

struct file_data {
    uint8_t *data;     /* contents (arena-owned), NUL-terminated after len */
    size_t len;        /* bytes in data */
    const char *error; /* NULL on success, else why it failed (arena-owned) */
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

/* Replace the file at path by data atomically: write a temporary file in
 * the same directory, fsync it, give it the permission bits of the existing
 * file (or the defaults of a new file under the umask), and rename it over
 * path.  On failure the temporary is removed, path is unchanged, and
 * *error gets a message from arena a.  Returns true on success. */
bool file_write_atomic(struct arena *a, const char *path, const void *data,
                       size_t len, const char **error);

/* What a path names, following symbolic links. */
enum file_kind {
    FILE_KIND_MISSING, /* does not exist (or cannot be examined) */
    FILE_KIND_DIR,     /* a directory */
    FILE_KIND_OTHER,   /* a regular file, pipe, device... */
};
enum file_kind file_kind(const char *path);

/* Size of the regular file at path; 0 when it is not one or is missing. */
size_t file_size(const char *path);

/* The Emacs Lisp files under directory dir, as cli.md section 2 finds
 * them: regular files (or links to them) whose names end in ".el", in
 * subdirectories at any depth; names starting with "." are skipped, and
 * symbolic links to directories are not followed.  *paths gets "dir/..."
 * paths from arena a, sorted byte-wise; *n their number.  A subdirectory
 * that cannot be opened fails the walk with *error set.  Returns true on
 * success. */
bool file_walk_dir(struct arena *a, const char *dir, const char ***paths,
                   size_t *n, const char **error);

#endif
