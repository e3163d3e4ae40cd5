/* pcx.h - the public interface of libpcx, the pcexpand library.
 *
 * Everything a program needs to read Emacs Lisp, expand pcase-family and
 * cond* forms, and print the result.  Names are pcx_<object>_<verb>; an
 * options pointer of NULL means the defaults.
 *
 * Use: make a context with pcx_ctx_new, feed it inputs with the pcx_run_*
 * functions (each input is one run: read, expand, print, with its own
 * memory), call pcx_ctx_finish, and exit with the status it returns.
 * Output and diagnostics go to the sinks of the options; an input with
 * errors produces no output at all, only diagnostics.
 */
#ifndef PCX_PCX_H
#define PCX_PCX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#if defined(__GNUC__)
#define PCX_API __attribute__((visibility("default")))
#else
#define PCX_API
#endif

#define PCX_VERSION "0.1.0"

/* Outcome of a run, ordered by severity: when several apply, the highest
 * wins.  The values are the program's exit codes (cli.md section 11). */
enum pcx_status {
    PCX_STATUS_OK = 0,       /* success, also when nothing was expanded */
    PCX_STATUS_STALE = 1,    /* a check found a stale or missing target */
    PCX_STATUS_ERROR = 2,    /* user-fixable: usage, io, read, pattern errors */
    PCX_STATUS_INTERNAL = 3, /* an impossible state: a bug in pcexpand */
};

/* How temporaries are printed (cli.md section 7). */
enum pcx_gensyms {
    PCX_GENSYMS_RENAME = 0, /* interned PREFIX+BASE+N (default) */
    PCX_GENSYMS_HASH,       /* #:BASEN, for viewing only */
    PCX_GENSYMS_CIRCLE,     /* #K=#:BASEN ... #K# */
};

/* How diagnostics are rendered (cli.md section 10). */
enum pcx_message_format {
    PCX_MESSAGE_GNU = 0, /* FILE:LINE:COL: error: message [code] */
    PCX_MESSAGE_JSON,    /* one JSON object per line */
    PCX_MESSAGE_GITHUB,  /* GitHub Actions workflow commands */
};

/* Receives output bytes.  Returns false on failure, with errno set. */
typedef bool (*pcx_write_fn)(void *ctx, const void *data, size_t n);

/* Where text goes: the callback when set, else the stream; both unset
 * means standard output (for results) or standard error (diagnostics). */
struct pcx_sink {
    pcx_write_fn write; /* callback, or NULL */
    void *ctx;          /* passed to write */
    FILE *file;         /* used when write is NULL */
};

/* Output of the printing mode (cli.md 4.5). */
enum pcx_format {
    PCX_FORMAT_LISP = 0, /* the Lisp text (default) */
    PCX_FORMAT_YAML,     /* one YAML document per replaced form */
    PCX_FORMAT_JSON,     /* one JSON object per line per replaced form */
    PCX_FORMAT_DOT,      /* Graphviz DOT (only with PCX_DUMP_DTREE) */
};

/* Compiler stage printed instead of code (cli.md 4.6). */
enum pcx_dump {
    PCX_DUMP_NONE = 0,
    PCX_DUMP_PAT,   /* normalised pattern IR of each clause */
    PCX_DUMP_DTREE, /* the decision DAG */
    PCX_DUMP_CLEAN, /* the code after the emitter and after each clean-up pass */
};

/* Where the result of an input goes (cli.md section 5). */
enum pcx_target {
    PCX_TARGET_STDOUT = 0, /* the output sink (default) */
    PCX_TARGET_INPUT,      /* the input file itself (-w; -c/-d/-l without -o) */
    PCX_TARGET_FILE,       /* the file target_path (-o) */
    PCX_TARGET_DIR,        /* mirrored under the directory target_path */
};

/* Bits of pcx_options.check: compare with the target instead of writing. */
enum {
    PCX_CHECK_STATUS = 1u << 0, /* -c: exit 1 when a target is stale */
    PCX_CHECK_DIFF = 1u << 1,   /* -d: print a unified diff target -> output */
    PCX_CHECK_LIST = 1u << 2,   /* -l: print the names of stale targets */
};

/* Where the configuration of an input comes from (cli.md section 12). */
enum pcx_config {
    PCX_CONFIG_DISCOVER = 0, /* the closest .pcexpand.yaml upward (default) */
    PCX_CONFIG_FILE,         /* config_file, for every input (--config) */
    PCX_CONFIG_NONE,         /* the built-in defaults (--no-config) */
};

/* What golden mode does with stale and missing goldens (cli.md 6). */
enum pcx_update {
    PCX_UPDATE_NONE = 0, /* check only */
    PCX_UPDATE_ALL,      /* --update, --update=all */
    PCX_UPDATE_MISSING,  /* --update=missing */
};

/* Every head (pcx_head_bit of the eight head names). */
#define PCX_HEADS_ALL 0xffu

/* Options of a context.  A zero-initialised struct means the defaults. */
struct pcx_options {
    bool no_expand;       /* --no-expand: print what was read (cli.md 4.4) */
    bool compact;         /* --compact: one canonical line per top-level form */
    bool quiet;           /* -q: no notes, no summary lines */
    bool werror;          /* --werror: warnings count and print as errors */
    bool keep_going;      /* --keep-going: a form that fails is kept as written and
                             the output of an input with errors is still made and
                             written (its status is still an error) */
    unsigned width;       /* --width: fill column of generated code; 0 = 80 */
    enum pcx_gensyms gensyms;           /* --gensyms */
    const char *gensym_prefix;          /* --gensym-prefix; NULL = "pcx--" */
    enum pcx_message_format message_format; /* --message-format */
    size_t memory_limit;  /* bytes one run may use; 0 = no limit */
    struct pcx_sink out;  /* results (default: stdout) */
    struct pcx_sink diag; /* diagnostics (default: stderr) */
    bool verbose;         /* -v: per-input details (with stats: a line per input) */
    bool stats;           /* --stats: one line of counters at pcx_ctx_finish */
    bool no_memo;         /* --no-memo: compiler cache off (same output, slower) */
    bool add_requires;    /* --add-requires: the output requires the libraries its
                             expansions call, and drops a (require 'pcase) nothing
                             needs (cli.md 4.1; plain output of whole inputs) */
    unsigned no_clean;    /* --no-clean: clean-up passes switched off, bit 1 << N
                             for the pass pcx_clean_pass names N (cli.md 4.6) */
    unsigned skip_heads;  /* heads kept as written (pcx_head_bit bits; --only/--skip) */
    unsigned at_line;     /* --at: expand only the form at this line (0 = all) */
    unsigned at_col;      /* --at column; 0 = none given */
    enum pcx_format format;     /* --format */
    enum pcx_dump dump;         /* --dump */
    bool explain;               /* --explain: each form explained in words
                                   (text, or records with --format) */
    enum pcx_target target;     /* where results go */
    const char *target_path;    /* PCX_TARGET_FILE: the file; _DIR: the directory */
    unsigned check;             /* PCX_CHECK_* bits; 0 = write the targets */
    unsigned jobs;              /* threads of pcx_run_operands: inputs in parallel, or
                                   a single large input's parts; 0 = 1 */
    bool whole;                 /* --whole: compute every input in one piece (a large
                                   input is otherwise computed in parts) */
    bool stream;                /* pcx_run_stream prints each form as soon as it is
                                   complete (only with PCX_TARGET_STDOUT, no check,
                                   no at_line) */
    enum pcx_config config;     /* --config / --no-config */
    const char *config_file;    /* PCX_CONFIG_FILE: the file */
    const char *stdin_filepath; /* --stdin-filepath: standard input's configuration
                                   is searched from its directory (NULL: ".") */
    bool gensyms_given;         /* gensyms was given: it wins over the configuration
                                   (width, gensym_prefix and skip_heads win when
                                   not 0/NULL, or when heads_given) */
    bool heads_given;           /* skip_heads was given (--only/--skip) */
    const char *const *load_path; /* -L: directories searched for required features,
                                   after the input's own and before the
                                   configuration's load-path (strings kept) */
    size_t n_load_path;
    const char *manifest;       /* golden mode: --manifest (NULL: configuration's) */
    enum pcx_update update;     /* golden mode: --update */
};

/* Counters over all runs of a context. */
struct pcx_stats {
    size_t files;     /* inputs run (including those with errors) */
    size_t forms;     /* top-level forms read */
    size_t expanded;  /* forms replaced by their expansion */
    size_t errors;    /* error diagnostics */
    size_t warnings;  /* warning diagnostics */
    size_t bytes_in;  /* input bytes read */
    size_t bytes_out; /* output bytes produced (printed or for targets) */
    size_t memo_hits;   /* compiler cache hits */
    size_t memo_misses; /* compiler cache misses */
    size_t temporaries; /* temporaries made */
    size_t checked;     /* targets compared (-c/-d/-l) */
    size_t stale;       /* of those, stale or missing */
    size_t written;     /* target files written */
    size_t parts;       /* pieces large inputs were computed in (-j N) */
    size_t held_max;    /* -j: the most bytes that computed inputs waiting
                           for their turn held at once */
    size_t bytes_read;  /* bytes the reader read, text read again counted
                           again (the definitions before a part or a
                           stretch of standard input): its work */
    size_t parts_redone; /* large inputs computed again in one piece, since
                            their text could not be cut between forms */
};

struct pcx_ctx;

/**
 * pcx_version - version of the library, e.g. "0.1.0".
 */
PCX_API const char *pcx_version(void);

/**
 * pcx_clean_pass - the number N of the clean-up pass named name[0..len)
 * (bit 1 << N of pcx_options.no_clean switches it off), or -1.
 */
PCX_API int pcx_clean_pass(const char *name, size_t len);

/**
 * pcx_clean_pass_name - the name of clean-up pass N, in the order they
 * run, or NULL past the last.
 */
PCX_API const char *pcx_clean_pass_name(int n);

/**
 * pcx_ctx_new - a context for a series of runs.
 * @o: options, copied (strings in it must outlive the context); NULL for
 *     the defaults.
 * Returns NULL only when memory for the context itself is unavailable.
 */
PCX_API struct pcx_ctx *pcx_ctx_new(const struct pcx_options *o);

/**
 * pcx_ctx_free - release a context (NULL is ignored).  Does not close the
 * streams of the sinks.
 */
PCX_API void pcx_ctx_free(struct pcx_ctx *cx);

/**
 * pcx_run_buffer - process one input given as bytes.
 * @name: the name diagnostics use ("<stdin>", a path).
 * @data, @len: the text; not modified, not retained.
 * Writes the result to the output sink, or, when the input has errors,
 * nothing there and the diagnostics to the diagnostic sink.  Out of memory
 * is an error diagnostic, never a crash.
 * Returns the status of this run (also folded into the context's status).
 */
PCX_API enum pcx_status pcx_run_buffer(struct pcx_ctx *cx, const char *name,
                                       const void *data, size_t len);

/**
 * pcx_run_file - process the file at @path (named @path in diagnostics).
 * A directory or an unreadable file is an "io" error.
 */
PCX_API enum pcx_status pcx_run_file(struct pcx_ctx *cx, const char *path);

/**
 * pcx_run_stream - process everything readable from @f (standard input),
 * naming it @name in diagnostics.  @f is not closed.
 */
PCX_API enum pcx_status pcx_run_stream(struct pcx_ctx *cx, FILE *f,
                                       const char *name);

/**
 * pcx_run_path - process a command-line operand: a directory is searched
 * for *.el files (cli.md section 2) that are run in byte-wise path order;
 * anything else is run as pcx_run_file does.  Returns the highest status.
 */
PCX_API enum pcx_status pcx_run_path(struct pcx_ctx *cx, const char *path);

/**
 * pcx_run_operands - process command-line operands in order, as the
 * program does: "-" (or no operand at all, n == 0) is @in named
 * @stdin_name; a directory is searched as pcx_run_path does; anything else
 * is a file.  With options.jobs > 1, up to that many inputs are processed
 * at the same time, or a single input of over 128 KiB is computed in that
 * many parts (shares of its top-level forms); output, targets and
 * diagnostics are still written in input order, byte-identical to a run
 * with jobs 1.  Returns the highest status.
 */
PCX_API enum pcx_status pcx_run_operands(struct pcx_ctx *cx,
                                         const char *const *operands, size_t n,
                                         FILE *in, const char *stdin_name);

/**
 * pcx_print_config - print the effective configuration of @input (a file
 * path; NULL for standard input) as YAML, with the command-line values of
 * the options applied, on the output sink (cli.md section 12,
 * --print-config).  Returns PCX_STATUS_ERROR (after printing its errors)
 * when the configuration file is invalid.
 */
PCX_API enum pcx_status pcx_print_config(struct pcx_ctx *cx, const char *input);

/**
 * pcx_run_goldens - golden mode (cli.md sections 6 and 13): check, or with
 * options.update write, the goldens of the cases of the manifest
 * (options.manifest, else the configuration's goldens.manifest) selected
 * by @select (case names or shell globs; n == 0: every case).  Diffs
 * (options.check & PCX_CHECK_DIFF) and lists (PCX_CHECK_LIST) go to the
 * output sink, notes and the summary to the diagnostic sink.  Returns the
 * status (also folded into the context's).
 */
PCX_API enum pcx_status pcx_run_goldens(struct pcx_ctx *cx,
                                        const char *const *select, size_t n);

/**
 * pcx_head_bit - the bit of a head name ("pcase", "pcase-let*", "cond*")
 * for pcx_options.skip_heads, or 0 when name is not one of the eight heads.
 */
PCX_API unsigned pcx_head_bit(const char *name);

/**
 * pcx_ctx_finish - end a series of runs: flush the sinks and print the
 * closing lines (unless quiet): the note of cli.md section 11, the summary
 * of a check (section 5), and the statistics line (section 15, when
 * options.stats).  Returns the highest status of all runs, or
 * PCX_STATUS_ERROR when the output cannot be flushed.
 */
PCX_API enum pcx_status pcx_ctx_finish(struct pcx_ctx *cx);

/**
 * pcx_ctx_stats - copy the counters of all runs so far into @out.
 */
PCX_API void pcx_ctx_stats(const struct pcx_ctx *cx, struct pcx_stats *out);

#endif
