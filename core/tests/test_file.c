/* test_file.c - whole-file reads, atomic writes, the *.el directory walk. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <zlib.h>

#include "io/file.h"

static char root[64];

/* A fresh scratch directory per test, removed afterwards. */
static int make_root(void **state)
{
    (void)state;
    strcpy(root, "/tmp/pcx-test-file-XXXXXX");
    return mkdtemp(root) ? 0 : -1;
}

static int remove_root(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *path(const char *rel)
{
    static char p[8][512]; /* room for a name of NAME_MAX bytes */
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", root, rel);
    return p[k];
}

static void put(const char *rel, const char *text)
{
    FILE *f = fopen(path(rel), "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void reads_whole_file(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("a.el", "(a)\n\0tail");
    struct file_data d;
    assert_true(file_read(a, path("a.el"), &d));
    assert_int_equal(d.len, 4); /* fputs stops at the NUL */
    assert_memory_equal(d.data, "(a)\n", 4);
    assert_null(d.error);
    FILE *f = fopen(path("b.el"), "wb");
    const char bytes[] = {'(', 0, (char)0xFF, ')'};
    fwrite(bytes, 1, sizeof bytes, f);
    fclose(f);
    assert_true(file_read(a, path("b.el"), &d));
    assert_int_equal(d.len, 4);
    assert_memory_equal(d.data, bytes, 4);
    arena_free(a);
}

static void read_errors_have_reasons(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct file_data d;
    assert_false(file_read(a, root, &d));
    assert_string_equal(d.error, "cannot read: Is a directory");
    assert_false(file_read(a, path("missing.el"), &d));
    assert_string_equal(d.error, "cannot open: No such file or directory");
    arena_free(a);
}

static void reads_streams(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    FILE *f = tmpfile();
    for (int i = 0; i < 100000; i++) /* larger than the first chunk */
        fputs("(x) ", f);
    rewind(f);
    struct file_data d;
    assert_true(file_read_stream(a, f, "<stdin>", &d));
    assert_int_equal(d.len, 400000);
    assert_memory_equal(d.data + 399996, "(x) ", 4);
    fclose(f);
    arena_free(a);
}

static void atomic_write_keeps_mode(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("w.el", "old");
    assert_int_equal(chmod(path("w.el"), 0751), 0);
    const char *err = NULL;
    assert_true(file_write_atomic(a, path("w.el"), "new text", 8, &err));
    struct file_data d;
    assert_true(file_read(a, path("w.el"), &d));
    assert_int_equal(d.len, 8);
    assert_memory_equal(d.data, "new text", 8);
    struct stat st;
    assert_int_equal(stat(path("w.el"), &st), 0);
    assert_int_equal(st.st_mode & 07777, 0751);
    /* a new file; no temporary left behind */
    assert_true(file_write_atomic(a, path("n.el"), "", 0, &err));
    const char **paths;
    size_t n;
    assert_true(file_walk_dir(a, root, &paths, &n, &err));
    assert_int_equal(n, 2);
    arena_free(a);
}

static void atomic_write_through_symlink(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("real.el", "old");
    assert_int_equal(symlink("real.el", path("link.el")), 0);
    const char *err = NULL;
    assert_true(file_write_atomic(a, path("link.el"), "new", 3, &err));
    struct stat st;
    assert_int_equal(lstat(path("link.el"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    struct file_data d;
    assert_true(file_read(a, path("real.el"), &d));
    assert_memory_equal(d.data, "new", 3);
    arena_free(a);
}

static void atomic_write_failure_leaves_target(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    const char *err = NULL;
    assert_false(file_write_atomic(a, path("no/such/dir/x.el"), "x", 1, &err));
    assert_non_null(err);
    assert_non_null(strstr(err, "No such file or directory"));
    arena_free(a);
}

static void ways_of_targets(void **state)
{
    (void)state;
    const char *what;
    put("r.el", "");
    assert_int_equal(mkfifo(path("fifo"), 0600), 0);
    assert_int_equal(symlink("nowhere", path("dangling")), 0);
    assert_int_equal(symlink("r.el", path("link.el")), 0);
    assert_int_equal(file_way(path("r.el"), &what), FILE_WAY_REPLACE);
    assert_int_equal(file_way(path("link.el"), &what), FILE_WAY_REPLACE);
    assert_int_equal(file_way(path("new.el"), &what), FILE_WAY_REPLACE);
    assert_int_equal(file_way(path("fifo"), &what), FILE_WAY_THROUGH);
    assert_string_equal(what, "a FIFO");
    assert_int_equal(file_way(root, &what), FILE_WAY_REFUSE);
    assert_string_equal(what, "a directory");
    assert_int_equal(file_way(path("dangling"), &what), FILE_WAY_REFUSE);
    /* descriptor names are written through whatever stands behind them */
    assert_int_equal(file_way("/dev/stdout", &what), FILE_WAY_THROUGH);
    assert_int_equal(file_way("/dev/fd/7", &what), FILE_WAY_THROUGH);
    assert_int_equal(file_way("/proc/self/fd/12", &what), FILE_WAY_THROUGH);
    assert_string_equal(what, "the name of a file descriptor");
    assert_int_equal(file_way("/dev/fd/x1", &what), FILE_WAY_REPLACE); /* missing */
}

static void fifo_written_through_never_replaced(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    const char *err = NULL;
    assert_int_equal(mkfifo(path("fifo"), 0600), 0);
    assert_false(file_write_atomic(a, path("fifo"), "x", 1, &err));
    assert_string_equal(err, "cannot write: it is a FIFO, not a regular file");
    /* a reader is there: the write goes through it */
    int rd = open(path("fifo"), O_RDONLY | O_NONBLOCK);
    assert_true(rd >= 0);
    const struct file_write_opts through = {false, NULL, true};
    assert_true(file_write(a, path("fifo"), "(a)\n", 4, &through, &err));
    char got[8] = "";
    assert_int_equal(read(rd, got, sizeof got), 4);
    assert_memory_equal(got, "(a)\n", 4);
    close(rd);
    struct stat st;
    assert_int_equal(lstat(path("fifo"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    /* -w never writes through */
    const struct file_write_opts in_place = {true, NULL, true};
    assert_false(file_write(a, path("fifo"), "x", 1, &in_place, &err));
    assert_string_equal(err, "cannot write in place: it is a FIFO, not a regular file");
    arena_free(a);
}

static void atomic_write_keeps_xattrs(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("x.el", "old");
    if (setxattr(path("x.el"), "user.pcx-test", "kept", 4, 0) != 0)
        skip(); /* this file system has no user attributes */
    const char *err = NULL;
    assert_true(file_write_atomic(a, path("x.el"), "new", 3, &err));
    char v[16];
    assert_int_equal(getxattr(path("x.el"), "user.pcx-test", v, sizeof v), 4);
    assert_memory_equal(v, "kept", 4);
    arena_free(a);
}

static void in_place_refuses_links_and_edits(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    const char *err = NULL;
    put("h.el", "old");
    assert_int_equal(link(path("h.el"), path("h2.el")), 0);
    assert_false(file_check_in_place(a, path("h.el"), &err));
    assert_non_null(strstr(err, "has 2 hard links"));
    const struct file_write_opts hard = {true, NULL, false};
    assert_false(file_write(a, path("h.el"), "new", 3, &hard, &err));
    /* an edit after the read: the file is kept as edited */
    put("e.el", "old");
    struct file_data d;
    assert_true(file_read(a, path("e.el"), &d));
    assert_true(d.stamp.set);
    assert_false(file_changed(path("e.el"), &d.stamp));
    put("e.el", "edited");
    assert_true(file_changed(path("e.el"), &d.stamp));
    const struct file_write_opts seen = {true, &d.stamp, false};
    assert_false(file_write(a, path("e.el"), "new", 3, &seen, &err));
    assert_string_equal(err, "not written: the file changed since it was read");
    assert_true(file_read(a, path("e.el"), &d));
    assert_string_equal((const char *)d.data, "edited");
    /* unchanged: written */
    assert_true(file_write(a, path("e.el"), "new", 3, &seen, &err));
    assert_true(file_read(a, path("e.el"), &d));
    assert_string_equal((const char *)d.data, "new");
    arena_free(a);
}

/* Entries of root whose names end in ".tmp". */
static int temporaries(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "exit $(ls -A '%s' | grep -c '\\.tmp$')", root);
    return WEXITSTATUS(system(cmd));
}

static void longest_names_are_written(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    char name[256];
    memset(name, 'n', 255);
    name[255] = 0;
    memcpy(name + 252, ".el", 3);
    put(name, "old");
    const char *err = NULL;
    assert_true(file_write_atomic(a, path(name), "new", 3, &err));
    struct file_data d;
    assert_true(file_read(a, path(name), &d));
    assert_string_equal((const char *)d.data, "new");
    assert_int_equal(temporaries(), 0);
    arena_free(a);
}

static void sweep_removes_dead_runs_temporaries(void **state)
{
    (void)state;
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    assert_int_equal(waitpid(child, NULL, 0), child); /* now no such process */
    char dead[64], live[64], other[3][64];
    long pid = (long)child;
    snprintf(dead, sizeof dead, ".a.el.%ld-0.pcexpand.tmp", pid);
    snprintf(live, sizeof live, ".a.el.%ld-3.pcexpand.tmp", (long)getpid());
    /* not the temporaries' names: kept whatever their number */
    snprintf(other[0], sizeof other[0], "a.el.%ld-0.pcexpand.tmp", pid);
    snprintf(other[1], sizeof other[1], ".a.el.%ld.pcexpand.tmp", pid);
    snprintf(other[2], sizeof other[2], ".a.el.%ld-0.tmp", pid);
    put(dead, "");
    put(live, "");
    for (int i = 0; i < 3; i++)
        put(other[i], "");
    file_sweep_temporaries(root);
    struct stat st;
    assert_int_equal(lstat(path(dead), &st), -1);
    assert_int_equal(lstat(path(live), &st), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(lstat(path(other[i]), &st), 0);
}

static void walk_finds_el_files_sorted(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    assert_int_equal(mkdir(path("a"), 0755), 0);
    assert_int_equal(mkdir(path("a/sub"), 0755), 0);
    assert_int_equal(mkdir(path(".hidden"), 0755), 0);
    assert_int_equal(mkdir(path("other"), 0755), 0);
    put("a-b.el", "");
    put("a/x.el", "");
    put("a/sub/y.el", "");
    put("a/.dot.el", "");
    put("a/readme.txt", "");
    put(".hidden/h.el", "");
    put("other/o.el", "");
    put("Z.el", "");
    put(".el", "");
    assert_int_equal(symlink("other", path("linkdir")), 0);   /* not followed */
    assert_int_equal(symlink("Z.el", path("zlink.el")), 0);   /* a file: kept */
    const char **paths, *err = NULL;
    size_t n;
    assert_true(file_walk_dir(a, root, &paths, &n, &err));
    const char *want[] = {"Z.el", "a-b.el", "a/sub/y.el", "a/x.el",
                          "other/o.el", "zlink.el"};
    assert_int_equal(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(paths[i], path(want[i]));
    arena_free(a);
}

static void walk_joins_trailing_slash(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    put("f.el", "");
    char dir[128];
    snprintf(dir, sizeof dir, "%s/", root);
    const char **paths, *err = NULL;
    size_t n;
    assert_true(file_walk_dir(a, dir, &paths, &n, &err));
    assert_int_equal(n, 1);
    assert_string_equal(paths[0], path("f.el"));
    assert_false(file_walk_dir(a, path("nope"), &paths, &n, &err));
    assert_non_null(strstr(err, "cannot read directory"));
    arena_free(a);
}

/* The directory left out is found by identity, whatever its path; the
 * walk says where it met it. */
static void walk_leaves_out_a_directory(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    assert_int_equal(mkdir(path("src"), 0755), 0);
    assert_int_equal(mkdir(path("src/build"), 0755), 0);
    put("src/a.el", "");
    put("src/build/a.el", "");
    const char **paths, *err = NULL, *skipped = NULL;
    size_t n;
    char skip[256];
    snprintf(skip, sizeof skip, "%s/./src//build/", root);
    assert_true(file_walk_dir_except(a, path("src"), skip, &paths, &n, &skipped, &err));
    assert_int_equal(n, 1);
    assert_string_equal(paths[0], path("src/a.el"));
    assert_string_equal(skipped, path("src/build"));
    assert_true(file_same(skip, path("src/build")));
    assert_false(file_same(path("src"), path("src/build")));
    /* a missing directory to leave out leaves out nothing */
    assert_true(file_walk_dir_except(a, path("src"), path("none"), &paths, &n, &skipped,
                                     &err));
    assert_int_equal(n, 2);
    assert_null(skipped);
    arena_free(a);
}

static void kinds(void **state)
{
    (void)state;
    put("k.el", "");
    assert_int_equal(file_kind(root), FILE_KIND_DIR);
    assert_int_equal(file_kind(path("k.el")), FILE_KIND_OTHER);
    assert_int_equal(file_kind(path("none")), FILE_KIND_MISSING);
}

static void sizes(void **state)
{
    (void)state;
    put("s.el", "(a b)\n");
    assert_int_equal(file_size(path("s.el")), 6);
    put("e.el", "");
    assert_int_equal(file_size(path("e.el")), 0);
    assert_int_equal(file_size(root), 0); /* not a regular file */
    assert_int_equal(file_size(path("none")), 0);
}

/* rel, gzip-compressed: n bytes of text. */
static void put_gzip(const char *rel, const char *text, size_t n)
{
    gzFile z = gzopen(path(rel), "wb");
    assert_non_null(z);
    assert_int_equal(gzwrite(z, text, (unsigned)n), (int)n);
    assert_int_equal(gzclose(z), Z_OK);
}

/* F.el.gz files of the load path: decompressed whole (past the first
 * chunk), refused past the maximum, an error when damaged. */
static void reads_gzip(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    size_t n = 300000;
    char *text = test_malloc(n);
    for (size_t i = 0; i < n; i++)
        text[i] = (char)('a' + i % 26);
    put_gzip("z.el.gz", text, n);
    struct file_data d;
    assert_true(file_read_gzip(a, path("z.el.gz"), n, &d));
    assert_int_equal(d.len, n);
    assert_memory_equal(d.data, text, n);
    assert_int_equal(d.data[n], 0);
    assert_false(file_read_gzip(a, path("z.el.gz"), n - 1, &d));
    assert_string_equal(d.error, "cannot read: File too large");
    /* a truncated file: the end of the stream is missing */
    struct file_data whole;
    assert_true(file_read(a, path("z.el.gz"), &whole));
    FILE *f = fopen(path("cut.el.gz"), "wb");
    fwrite(whole.data, 1, whole.len / 2, f);
    fclose(f);
    assert_false(file_read_gzip(a, path("cut.el.gz"), n, &d));
    assert_non_null(strstr(d.error, "cannot decompress"));
    assert_false(file_read_gzip(a, root, n, &d));
    assert_string_equal(d.error, "cannot read: Is a directory");
    assert_false(file_read_gzip(a, path("none.el.gz"), n, &d));
    assert_string_equal(d.error, "cannot open: No such file or directory");
    test_free(text);
    arena_free(a);
}

#define T(f) cmocka_unit_test_setup_teardown(f, make_root, remove_root)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(reads_whole_file),
        T(sizes),
        T(read_errors_have_reasons),
        T(reads_streams),
        T(reads_gzip),
        T(atomic_write_keeps_mode),
        T(atomic_write_through_symlink),
        T(atomic_write_failure_leaves_target),
        T(ways_of_targets),
        T(fifo_written_through_never_replaced),
        T(atomic_write_keeps_xattrs),
        T(in_place_refuses_links_and_edits),
        T(longest_names_are_written),
        T(sweep_removes_dead_runs_temporaries),
        T(walk_finds_el_files_sorted),
        T(walk_joins_trailing_slash),
        T(walk_leaves_out_a_directory),
        T(kinds),
    };
    return SUPPORT_RUN(tests);
}
