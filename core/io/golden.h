/* golden.h - golden mode: expected expansions listed in a manifest
 * (cli.md sections 6 and 13).
 *
 * Layer io: reads and validates the manifest (yaml.h, config.h's
 * checkers), runs each selected case through an expansion function lent
 * by the caller (io sits below the pipeline), compares the result with the
 * golden files, writes them on --update (atomically), prints diffs, lists
 * and the summary, and warns about golden files no case refers to.
 *
 * Wiring (core/api.c and the program):
 *   -g, --manifest, --update[=all|missing], -d, -l, -q and the operands
 *   (case names or globs) fill struct golden_params; the manifest path
 *   is --manifest=FILE (manifest_from_cli true), else cfg->manifest_path
 *   of the configuration found for the current directory, else a usage
 *   error.  expand is api.c's function that
 *   runs one struct golden_job like pcx_run_buffer in default mode, with
 *   the job's options over the configuration found from job->config_from,
 *   restricted to job's form, and copies the output and the GNU-format
 *   diagnostics into the arena it is given.  Then:
 *     st = golden_run(arena, &params, &out, &err);
 *   write out to the output sink and err to the diagnostic sink; st is
 *   the exit status.
 */
#ifndef PCX_GOLDEN_H
#define PCX_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/report.h"
#include "base/source.h"
#include "io/config.h"

enum golden_expect {
    GOLDEN_EXPECT_OK,      /* an expansion golden; no diagnostics */
    GOLDEN_EXPECT_WARNING, /* an expansion golden and a .err golden */
    GOLDEN_EXPECT_ERROR,   /* a .err golden only */
};

/* Which part of a case's file is the golden. */
enum golden_form {
    GOLDEN_FORM_ALL,   /* the whole file's default-mode output */
    GOLDEN_FORM_LINE,  /* the form --at=LINE selects, in its top-level form */
    GOLDEN_FORM_DEFUN, /* the top-level definition named defun */
    GOLDEN_FORM_NTH,   /* the nth top-level form (0-based) */
};

/* Options of a case: the manifest's defaults, then the case's own. */
struct golden_options {
    unsigned width;            /* fill column (80) */
    enum config_gensyms gensyms; /* rename */
    const char *gensym_prefix; /* "pcx--" */
    unsigned skip_heads;       /* heads kept as written (config.h bit order) */
};

struct golden_case {
    const char *name;
    const struct yaml_node *node; /* its entry in the manifest */
    const struct yaml_node *file_node; /* its `file:` value, or NULL */
    const char *source;           /* inline text, or NULL */
    size_t source_len;
    const char *file;             /* as written (relative to the manifest) */
    const char *file_path;        /* the same from the current directory */
    enum golden_form form;
    unsigned long line, nth;      /* GOLDEN_FORM_LINE, GOLDEN_FORM_NTH */
    const char *defun;            /* GOLDEN_FORM_DEFUN */
    const struct yaml_node *golden_node; /* its `golden:` value, or NULL */
    const char *golden;           /* the expansion golden (manifest-relative) */
    const char *golden_path;      /* the same from the current directory */
    const char *err;              /* the .err golden */
    const char *err_path;
    enum golden_expect expect;
    struct golden_options opts;
};

struct golden_manifest {
    const char *path;          /* as given */
    const char *dir;           /* its directory */
    const char *golden_dir;    /* defaults.golden-dir as written ("goldens") */
    const char *golden_dir_path;
    const struct yaml_node *golden_dir_node; /* NULL: not given */
    const char *project;       /* the project directory, symbolic links
                                  resolved: goldens and inputs are in it */
    struct golden_options defaults;
    struct golden_case *cases; /* in manifest order */
    size_t n_cases;
    struct source *src;        /* its text (positions of cases) */
};

/**
 * golden_load - read and validate the manifest at path into *m (arena a).
 * Errors are "FILE:LINE:COL: error: ... [manifest]" lines appended to
 * msgs in format ro.  Returns false after any error.
 */
bool golden_load(struct arena *a, const char *path, const struct report_opts *ro,
                 struct golden_manifest *m, struct buf *msgs);

/**
 * golden_load_text - golden_load of a manifest already read: text (len
 * bytes, outliving *m) is the content of path.
 */
bool golden_load_text(struct arena *a, const char *path, const uint8_t *text,
                      size_t len, const struct report_opts *ro,
                      struct golden_manifest *m, struct buf *msgs);

/* One case to expand. */
struct golden_job {
    const struct golden_case *c;
    const char *name;        /* the input's name in diagnostics: the case's
                                file as written, or CASE.el */
    const char *config_from; /* a file whose directory's configuration applies
                                (the case's file, or the manifest) */
    const uint8_t *text;     /* the input */
    size_t len;
};

/* What pcexpand printed for a job. */
struct golden_result {
    const char *out;  /* default-mode output (of the selected top-level
                         form only, for a form selector) */
    size_t out_len;
    const char *err;  /* the diagnostics, GNU format */
    size_t err_len;
    int status;       /* 0; 2 when the input has errors (or the
                         configuration, or the selector selects nothing);
                         3 for an internal error */
    const char *shown; /* the diagnostics as the user sees them
                          (--message-format, -q); NULL: err */
    size_t shown_len;
};

/* Expands a job: everything the result points to comes from arena a. */
typedef void (*golden_expand_fn)(void *ctx, struct arena *a,
                                 const struct golden_job *job,
                                 struct golden_result *res);

enum golden_action {
    GOLDEN_CHECK,          /* compare, write nothing */
    GOLDEN_UPDATE_ALL,     /* --update, --update=all: write stale and missing */
    GOLDEN_UPDATE_MISSING, /* --update=missing: write missing ones only */
};

struct golden_params {
    const char *manifest;       /* its path */
    const char *label;          /* its name in golden headers; NULL: its path
                                   from the directory of the configuration
                                   file found for it, else its file name */
    bool manifest_from_cli;     /* the accept command repeats --manifest */
    const char *const *select;  /* case names or globs; none = every case */
    size_t n_select;
    enum golden_action action;
    bool diff;                  /* -d: unified diffs golden -> fresh output */
    bool list;                  /* -l: names of failed and missing cases */
    bool obsolete;              /* warn about unreferenced golden files */
    struct report_opts report;  /* format, quiet, werror */
    golden_expand_fn expand;
    void *ctx;
};

/**
 * golden_run - check (or update) the selected cases of the manifest.
 * Diffs and lists go to out; per-case notes, diagnostics of broken
 * cases, golden-obsolete warnings and the summary
 * "pcexpand: N passed, N failed, N missing" (then "pcexpand: run:
 * pcexpand -g --update CASE..." when some case needs accepting) go to
 * err.  Returns the exit status: 0 all passed (or were written), 1 some
 * golden is stale or missing, or a case's diagnostics contradict its
 * expect (an expect: error case without error, an expect: ok case with
 * warnings: --update does not accept those), 2 a case with errors where
 * none are expected, a bad manifest or selection, an unwritable golden,
 * 3 an internal error.
 */
int golden_run(struct arena *a, const struct golden_params *p, struct buf *out,
               struct buf *err);

/**
 * golden_text - the golden file of case c for the output out: the fixed
 * header (file name, case, manifest label, options), a blank line, then
 * out with a final newline.
 */
void golden_text(const struct golden_case *c, const char *label, const char *out,
                 size_t len, struct buf *b);

#endif
