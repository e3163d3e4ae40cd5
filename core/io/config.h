/* config.h - the configuration file .pcexpand.yaml (cli.md section 12).
 *
 * Layer io: finds the file for an input (upward from its directory),
 * reads it with yaml.h, validates every key with positions in the YAML
 * file, follows `extends:`, and keeps each file loaded once per context.
 * Lisp snippets are read through the caller's reader (struct config_lisp:
 * io sits below syntax/ and expand/), which also turns the configuration
 * into the Lisp values of one run (config_values).
 *
 * Wiring (core/api.c; options named as cli.md section 17):
 *   context:  cx->configs = config_set_new(arena_of_the_context, &params)
 *             with params.mode (--no-config: CONFIG_NONE, --config=FILE:
 *             CONFIG_FILE + params.file, else CONFIG_DISCOVER),
 *             params.stdin_path (--stdin-filepath), params.report (the
 *             context's report_opts), params.lisp (a reader and a template
 *             check, see struct config_lisp).  During a run, give that
 *             arena the run's out-of-memory jump as well (arena_on_oom).
 *   run:      cfg = config_for(cx->configs, path of the input or NULL for
 *             standard input, &r->msgs); NULL: the input fails with status
 *             2 (the errors are in msgs; printed once per file).
 *             A file found under a DIR operand is skipped when
 *             config_excludes(r->a, cfg, path).
 *   expand:   command-line values win over cfg: width, gensyms,
 *             gensym_prefix, skip_heads; pretty_opts.user gets cfg->indent
 *             (same layout as struct pretty_indent); after expand_init and
 *             pcase_macros_new: config_values(cfg, L, &params.lisp, &v),
 *             then pcase_macros_define_template for each v.templates,
 *             pcase_macros_define_struct for each v.structs, and
 *             pcase_macros_set_builtins(m, cfg->builtins).
 *   report:   config_filter_diags(cfg, &r->diags) before diag_sort.
 *   --print-config: config_print(cfg for the first input, &buf), after
 *             copying command-line values into a copy of *cfg.
 */
#ifndef PCX_CONFIG_H
#define PCX_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/report.h"
#include "io/file.h"
#include "io/yaml.h"
#include "lisp/intern.h"

struct stat;

/* File names looked for, in this order, in each directory. */
#define CONFIG_NAME ".pcexpand.yaml"
#define CONFIG_NAME_ALT ".pcexpand.yml"

/* How temporaries are printed.  ORDER: enum pcx_gensyms */
enum config_gensyms {
    CONFIG_GENSYMS_RENAME,
    CONFIG_GENSYMS_HASH,
    CONFIG_GENSYMS_CIRCLE,
};

/* Indent specs other than a number of distinguished arguments.
 * ORDER: PRETTY_NONE, PRETTY_DEFUN of syntax/pretty.h */
enum {
    CONFIG_INDENT_NIL = -1,   /* nil: standard function-call indentation */
    CONFIG_INDENT_DEFUN = -2, /* defun: the rest is a body */
};

/* One row of `indent:`; laid out as struct pretty_indent. */
struct config_indent {
    const char *name;
    int spec; /* >= 0, CONFIG_INDENT_NIL or CONFIG_INDENT_DEFUN */
};

/* Lisp text from the configuration, with where it was written. */
struct config_snippet {
    const char *text;
    size_t len;
    const struct yaml_node *node; /* its scalar (for positions) */
    struct source *src;           /* the YAML file it is in */
};

/* One entry of `pattern-macros:`. */
struct config_template {
    const char *name;
    struct config_snippet args;   /* a lambda list; "()" when not given */
    struct config_snippet expand; /* one backquote form */
};

/* Representation of a struct.  ORDER: enum pcase_macros_struct_type */
enum config_struct_type {
    CONFIG_STRUCT_RECORD,
    CONFIG_STRUCT_VECTOR,
    CONFIG_STRUCT_LIST,
};

/* One entry of `structs:`. */
struct config_struct {
    const char *name;
    enum config_struct_type type;
    bool named;         /* vector/list: the type tag occupies slot 0 */
    const char **slots; /* in order, inherited ones included */
    size_t n_slots;
};

/* An effective configuration: built-in defaults, overridden by a file
 * (and the files it extends).  Everything lives in the set's arena. */
struct config {
    const char *path;       /* the file; NULL for the built-in defaults */
    const char *abs_dir;    /* its directory, absolute (for exclude) */
    const char **chain;     /* the files read: path, what it extends, ... */
    size_t n_chain;
    unsigned skip_heads;    /* heads not expanded; bit i = head i of
                               config_head_name (ORDER: enum expand_head) */
    unsigned width;         /* fill column, 80 by default */
    enum config_gensyms gensyms;
    const char *gensym_prefix;
    struct config_indent *indent; /* sorted by name, names unique */
    size_t n_indent;
    struct config_template *templates; /* in order; names unique */
    size_t n_templates;
    unsigned builtins;      /* bit i = family i of config_builtin_name
                               (ORDER: enum pcase_macros_builtin) */
    struct config_struct *structs; /* in order; names unique */
    size_t n_structs;
    unsigned warnings_off;  /* bit i = warning i of config_warning_code */
    const char **exclude;   /* globs for DIR walking */
    size_t n_exclude;
    const char **load_path; /* load-path: directories as written */
    const char **load_dirs; /* ... relative to the current directory */
    size_t n_load_path;
    const char *manifest;      /* goldens.manifest as written, or NULL */
    const char *manifest_path; /* the same, relative to the current directory */
};

/* Reads a Lisp snippet: text must be exactly one complete form, read into
 * L.  Returns it, or NULL with *err_off (a byte offset in text) and *why
 * (a message) set. */
typedef struct value *(*config_read_fn)(void *ctx, struct lisp *L,
                                        const char *text, size_t len,
                                        size_t *err_off, const char **why);

/* Would pcase_macros_define_template accept the template (name args
 * body)?  NULL when it would, else the whole message of the error. */
typedef const char *(*config_template_fn)(void *ctx, struct lisp *L,
                                          struct value *name,
                                          struct value *args,
                                          struct value *body);

/* The reader and the template check lent by the caller.  read NULL:
 * snippets are not checked when loading (config_values then fails). */
struct config_lisp {
    config_read_fn read;
    config_template_fn check; /* may be NULL */
    void *ctx;
};

enum config_mode {
    CONFIG_DISCOVER, /* the closest file upward from each input */
    CONFIG_FILE,     /* --config=FILE for every input */
    CONFIG_NONE,     /* --no-config: the built-in defaults */
};

struct config_params {
    enum config_mode mode;
    const char *file;          /* CONFIG_FILE: the file */
    const char *stdin_path;    /* --stdin-filepath, or NULL */
    struct report_opts report; /* how errors are rendered */
    struct config_lisp lisp;
};

/* Configurations loaded for a context, by file. */
struct config_set;

/**
 * config_defaults - the built-in defaults (no file): every head, width
 * 80, gensyms rename with prefix "pcx--", all built-in pattern macros,
 * every warning on, nothing else.
 */
const struct config *config_defaults(void);

/**
 * config_set_new - an empty set whose configurations live in arena a (it
 * must outlive every config_for result).  p is copied.
 */
struct config_set *config_set_new(struct arena *a, const struct config_params *p);

/**
 * config_for - the configuration of an input: @input is its path as
 * given (NULL: standard input, found from params.stdin_path or the current
 * directory).  Loads the file on first use.  Returns NULL when the file
 * is invalid: its errors ("FILE:LINE:COL: error: ... [config]", in
 * params.report's format) are appended to msgs the first time only (msgs
 * NULL: not yet; a later call with msgs gets them).  A discovered file
 * owned by another user than the caller and root, in a directory that
 * others can write to, is ignored (the search goes on above it) with a
 * warning "FILE: warning: configuration ignored: ... [config]", given to
 * msgs the same way while the result is not NULL.  Not thread-safe:
 * call it from the thread that owns the set.
 */
const struct config *config_for(struct config_set *s, const char *input,
                                struct buf *msgs);

/**
 * config_discover - the configuration file for a file in directory dir:
 * dir and its parents are searched for CONFIG_NAME then CONFIG_NAME_ALT,
 * stopping after a directory that contains .git or .hg.  Returns its path
 * (relative when dir is, e.g. "../.pcexpand.yaml"; arena a) or NULL.
 */
const char *config_discover(struct arena *a, const char *dir);

/**
 * config_root - the project directory of dir: the first of dir and its
 * parents that holds a configuration file, .git or .hg (where discovery
 * stops), as an absolute path (arena a); NULL when there is none.
 */
const char *config_root(struct arena *a, const char *dir);

/**
 * config_load - read and validate the file at path (and what it
 * extends), starting from the defaults.  Errors go to d; those located in
 * a file are rendered at once to msgs with that file's text.  Returns
 * NULL on any error.  Used by config_for; exposed for tests.
 */
const struct config *config_load(struct arena *a, const char *path,
                                 const struct config_params *p, struct buf *msgs);

/**
 * config_load_text - config_load of a file already read: text (len
 * bytes; it must outlive the configuration) is the content of path.
 */
const struct config *config_load_text(struct arena *a, const char *path,
                                      const uint8_t *text, size_t len,
                                      const struct config_params *p, struct buf *msgs);

/**
 * config_print - the effective configuration cfg as YAML (all keys,
 * defaults filled in) after a comment line naming where it came from, as
 * --print-config shows it.  The text is a valid configuration file.
 */
void config_print(const struct config *cfg, struct arena *a, struct buf *out);

/* The configuration as values of one run. */
struct config_values {
    struct config_value_template {
        struct value *name, *args, *body;
    } *templates;
    size_t n_templates;
    struct config_value_struct {
        struct value *name;
        enum config_struct_type type;
        bool named;
        struct value *slots; /* a list of symbols */
    } *structs;
    size_t n_structs;
};

/**
 * config_values - read cfg's templates and intern its struct names and
 * slots in L (lisp->read of the params); returns false only when a
 * snippet no longer reads (it was checked when loading) or there is no
 * reader.
 */
bool config_values(const struct config *cfg, struct lisp *L,
                   const struct config_lisp *lisp, struct config_values *out);

/**
 * config_filter_diags - drop the warnings whose code cfg disables
 * (`warnings:`), with the notes that follow them.
 */
void config_filter_diags(const struct config *cfg, struct diag_list *d);

/**
 * config_warning_on - is warning code enabled in cfg?  Unknown codes are.
 */
bool config_warning_on(const struct config *cfg, const char *code);

/**
 * config_excludes - does an `exclude:` glob of cfg match path (a file
 * found under a DIR operand; a: scratch memory)?  Globs with a '/' match the path relative
 * to the configuration file's directory ("**" spans directories, "*" and
 * "?" do not); globs without one match the file name.
 */
bool config_excludes(struct arena *a, const struct config *cfg, const char *path);

/**
 * config_glob - does glob match text?  '*' and '?' do not match '/' when
 * path is true; "**" matches anything, and "**" followed by '/'
 * also matches nothing.  "[...]" is a character class ("[!...]" negated).
 * Work memory comes from a and is released.
 */
bool config_glob(struct arena *a, const char *glob, const char *text, bool path);

/* Names of the tables, NULL past the end (for --print-config, tests and
 * the golden manifest's options). */
const char *config_head_name(unsigned i);
const char *config_builtin_name(unsigned i);
const char *config_warning_code(unsigned i);

/* Largest configuration or manifest file read. */
#define CONFIG_MAX_SIZE ((size_t)16 << 20)

/**
 * config_read_file - read a configuration or a manifest: a regular file
 * (or a link to one) of at most CONFIG_MAX_SIZE bytes; anything else
 * (a FIFO, a device, /dev/zero) fails at once with out->error set
 * ("cannot read: not a regular file"), without blocking or reading it.
 */
bool config_read_file(struct arena *a, const char *path, struct file_data *out);

/**
 * config_file_check - why path cannot be read by config_read_file ("no
 * such file", "not a regular file", "larger than 16 MiB"), or NULL;
 * *st gets what stat says.
 */
const char *config_file_check(const char *path, struct stat *st);

/* ---- typed YAML values (config_check.c; also for the golden manifest) ---- */

/* Where checking errors go: diagnostics with code `code` in d. */
struct config_check {
    struct arena *a;
    struct diag_list *d;
    const char *code;
};

/* Record an error at the position of at (NULL: the start); returns false. */
bool config_error(const struct config_check *k, const struct yaml_node *at,
                  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Is v a mapping (or empty)?  A list (or empty)?  A scalar?  Each records
 * an error naming what (e.g. "output.width") when not. */
bool config_check_map(const struct config_check *k, const struct yaml_node *v,
                      const char *what);
bool config_check_seq(const struct config_check *k, const struct yaml_node *v,
                      const char *what);
bool config_check_scalar(const struct config_check *k, const struct yaml_node *v,
                         const char *what);

/* A non-empty string (any quoting). */
bool config_check_string(const struct config_check *k, const struct yaml_node *v,
                         const char *what, const char **out);
/* A plain decimal integer from lo to hi. */
bool config_check_int(const struct config_check *k, const struct yaml_node *v,
                      const char *what, long lo, long hi, long *out);
/* Plain true or false; YAML 1.1 words (yes, no, on, off) get a hint. */
bool config_check_bool(const struct config_check *k, const struct yaml_node *v,
                       const char *what, bool *out);
/* One of words (NULL-terminated); *out gets its index. */
bool config_check_word(const struct config_check *k, const struct yaml_node *v,
                       const char *what, const char *const *words, int *out);
/* A list of words, as a bit set (bit i = words[i]). */
bool config_check_bits(const struct config_check *k, const struct yaml_node *v,
                       const char *what, const char *const *words, unsigned *out);
/* Record an error for each key of map that is not in keys. */
void config_check_keys(const struct config_check *k, const struct yaml_node *map,
                       const char *what, const char *const *keys);

/* Index of w in words (NULL-terminated), or -1. */
int config_word(const char *const *words, const char *w);
/* "a, b or c" (arena a). */
const char *config_words(struct arena *a, const char *const *words);

/* The eight heads in bit order (ORDER: enum expand_head), NULL-terminated,
 * and the temporaries' modes (ORDER: enum config_gensyms). */
extern const char *const config_heads[];
extern const char *const config_gensym_words[];

/* ---- arrays of named elements (each element starts with its name) ---- */

/* A hash index of such an array: finding a name costs a few probes
 * however long the array, so that maps of the configuration (indent,
 * templates, structs) and the files of a set are built in linear time. */
struct config_index {
    struct arena *a;
    size_t *slot;        /* element index + 1; 0: empty */
    size_t cap;          /* slots, a power of two, more than twice the elements */
};

/* Index the n elements of sz bytes of arr (names unique). */
void config_index_init(struct config_index *x, struct arena *a, const void *arr,
                       size_t n, size_t sz);
/* The index of the element named name, or n when there is none. */
size_t config_index_get(const struct config_index *x, const void *arr, size_t n,
                        size_t sz, const char *name);
/* Index element n - 1 (just added, its name set; arr may have moved). */
void config_index_add(struct config_index *x, const void *arr, size_t n, size_t sz);
/* arr with one more zeroed element at *n (counted), room doubling from
 * *cap when full. */
void *config_array_push(struct arena *a, void *arr, size_t *n, size_t *cap, size_t sz);

/* ---- paths (lexical: no symbolic link is resolved) ---- */

/* The directory part of path: "a/b.el" -> "a", "b.el" -> ".", "/x" -> "/". */
const char *config_path_dir(struct arena *a, const char *path);

/* rel inside dir: rel itself when absolute or dir is ".", else "dir/rel". */
const char *config_path_join(struct arena *a, const char *dir, const char *rel);

/* path made absolute (from the current directory) without "." and ".."
 * components. */
const char *config_path_abs(struct arena *a, const char *path);

#endif
