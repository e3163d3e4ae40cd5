/* api_int.h - what the files of the library's top layer share.
 *
 * api.c (context, entry points, order of results), api_run.c (the stages
 * of one run), api_out.c (records, dumps, statistics), api_target.c
 * (writing and checking targets), api_jobs.c (parallel runs) and
 * api_stream.c (standard input a stretch at a time) implement pcx.h
 * together.  A run is computed without
 * touching the context (so workers can compute runs in parallel) and
 * then committed, in input order, by the thread that owns the context.
 */
#ifndef PCX_API_INT_H
#define PCX_API_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "pcx/pcx.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "base/report.h"
#include "base/source.h"
#include "expand/expand.h"
#include "io/config.h"
#include "io/file.h"
#include "lisp/intern.h"
#include "syntax/read.h"
#include "syntax/splice.h"

struct pcx_ctx {
    struct pcx_options o;   /* as given; sinks resolved */
    struct report_opts rep; /* rendering of diagnostics, from o */
    struct pcx_stats stats; /* over all runs */
    enum pcx_status status; /* highest so far */
    struct arena *talk;     /* one page, reserved for messages outside runs */
    struct arena_mark empty;/* talk with nothing allocated but its page */
    uint64_t start_ns;      /* when the context was made (--stats time-ms) */
    bool golden;            /* golden mode ran: its own summary, no notes */
    struct arena *cfg_arena;/* the configurations loaded (owner thread only) */
    struct config_set *configs;
    struct api_library *lib;/* the files read for requires (api_load.c; any
                               thread, under its lock) */
    bool out_failed;        /* writing to the output sink failed (said once):
                               the run stops, nothing more can reach it */
};

/* One input: data, or else path, or else stream. */
struct input {
    const char *name;     /* for diagnostics */
    const uint8_t *data;  /* bytes given by the caller, or NULL */
    size_t len;           /* bytes in data */
    const char *path;     /* file to read, or NULL */
    FILE *stream;         /* stream to read, or NULL */
    const char *rel;      /* --out-dir: the path under the directory, when
                             found under a DIR operand; NULL: from name */
    const char *error;    /* set: the operand could not be listed, or its
                             target is refused; say this instead of running */
    const char *error_code; /* the error's code (NULL: "io") */
    bool serial;          /* another input has the same target: write it at
                             commit, in input order */
    const struct config *cfg; /* its configuration (NULL: defaults) */
    bool cfg_failed;      /* its configuration file is invalid: say
                             cfg_msgs and fail the input */
    const char *cfg_msgs; /* the configuration's errors (once per file) */
    size_t cfg_msgs_len;
    unsigned threads;     /* the only input of a run with -j N: its parts are
                             computed by up to N threads (0, 1: one after the
                             other by the calling thread; api_split.c) */
};

/* The coding-system checks of a run (read_check_coding). */
enum {
    RUN_CODING_START = 1u << 0, /* the -*- line */
    RUN_CODING_END = 1u << 1,   /* a Local Variables block at the end */
};

/* One replaced form. */
struct run_site {
    struct value *orig;       /* the form as read */
    struct value *expansion;  /* its replacement */
    const char *head;         /* "pcase", "cond*", "match*" (stray keyword) */
    size_t form;              /* index of its top-level form */
    struct expand_stats st;   /* cost of expanding it alone (records) */
};

/* The libraries whose functions the expansions call (api_requires.c):
 * bit 1 << K for library K of its table. */
#define RUN_LIBS 3
struct run_libs {
    unsigned need;         /* called by a site's expansion and not named in
                              the form it replaced */
    uint32_t at[RUN_LIBS]; /* the first such site's start (a text offset) */
    unsigned has;          /* required at run time, or provided, by the text */
    unsigned noted;        /* said already (and by the earlier stretches of
                              standard input: api_stream.c) */
};

/* State of one run; lives in the run's arena.  A streamed input is run a
 * stretch at a time, each its own run (api_stream.c). */
struct run {
    const struct pcx_ctx *cx; /* read only while computing */
    struct arena *a;          /* everything below */
    const struct input *in;
    struct source src;        /* the text, and where its lines are in the input */
    const uint8_t *text;      /* the text being run (src.text) */
    size_t len;
    struct diag_list diags;   /* positioned diagnostics (offsets into text) */
    struct lisp *L;           /* symbols and values (kept across parts) */
    struct read_result rd;    /* forms read */
    struct value **forms;     /* top-level forms to print (expanded or not) */
    bool expanding;           /* expansion is on for this run */
    struct expand_ctx x;      /* the expander */
    long at_form;             /* --at: index of the selected top-level form */
    long select_nth;          /* golden `form: {nth: N}`: expand and print only
                                 that top-level form (-1: no) */
    const char *select_defun; /* golden `form: {defun: NAME}`: the same for the
                                 definition of NAME */
    bool form_only;           /* print only the selected top-level form */
    const struct value *at_target; /* --at: the selected form */
    struct run_site *sites;   /* replaced forms, in text order */
    size_t n_sites, cap_sites;
    bool internal;            /* an internal error was recorded */
    bool oom;                 /* memory ran out; everything else is void */
    struct buf out;           /* the result: Lisp, records or dumps */
    size_t rendered;          /* --compact: top-level forms already in out
                                 (each is printed right after its expansion,
                                 while its data is still in the cache) */
    size_t begun;             /* --compact: form whose temporaries are named */
    const char *nl;           /* --compact: line end ("\r\n" for CRLF input) */
    const char *eol;          /* generated line ends as given (a stretch of
                                 standard input: those of the input's first
                                 line); NULL: from the text's first line */
    unsigned coding;          /* RUN_CODING_* checks of the text from share_lo */
    bool coding_refused;      /* ... and one of them failed */
    const struct lisp *known; /* symbols read before the text that count as
                                 the input's for temporaries' names (NULL) */
    bool stretch;             /* a stretch of standard input: its counters
                                 are said once for the whole input */
    unsigned parts;           /* a part of a split input (api_split.c):
                                 how many parts (0: not split) */
    size_t lo;                /* the first top-level form this run expands
                                 and prints (a part: its share's) */
    size_t read_lo, share_lo; /* a part: the text is read from read_lo and
                                 its share starts at byte share_lo (the
                                 forms before it are only learned from);
                                 its text ends where its share does */
    size_t diag_mark;         /* a part: its diagnostics from here on are
                                 about its share (SIZE_MAX: none) */
    bool made;                /* r->out holds the output (--keep-going: also
                                 when the run has errors) */
    struct run_libs libs;     /* libraries the output needs (api_requires.c) */
    struct api_loader *loader;/* its requires (NULL: none followed) */
    bool split_failed;        /* a part could not read its text (a cut
                                 inside a form: api_split_run runs the
                                 input in one piece) */
    struct buf msgs;          /* rendered diagnostics */
    struct pcx_stats stats;   /* this run's counters */
    uint64_t ns;              /* time spent computing */
    const char *target;       /* the target's path (NULL: output sink) */
    bool compared, stale;     /* check modes: compared with the target */
    struct buf report;        /* check modes: diff or list text */
    struct file_stamp stamp;  /* the input file as read (-w: not replaced if
                                 it changed since) */
    const char *target_error; /* an io problem with the target */
    bool write_done;          /* the target was written (or found up to date) */
    bool wrote;               /* ... and it was written */
};

/* ---- api.c ---- */

/* Write to a sink; false (errno set) on failure. */
bool api_sink_write(const struct pcx_sink *s, const void *p, size_t n);

/* Write to the output sink (api_out_flush: flush it); on the first
 * failure say so, with the reason, and set cx->out_failed, after which
 * nothing more is written or said.  Returns PCX_STATUS_ERROR on failure,
 * PCX_STATUS_OK otherwise. */
enum pcx_status api_out(struct pcx_ctx *cx, const void *p, size_t n);
enum pcx_status api_out_flush(struct pcx_ctx *cx);

/* Say something that is not about a position in a text on the
 * diagnostic sink; name NULL = the program.  Returns PCX_STATUS_ERROR for
 * an error, else PCX_STATUS_OK. */
enum pcx_status api_say(struct pcx_ctx *cx, const char *name,
                        enum diag_severity sev, const char *code,
                        const char *msg);

/* Add counters s to *to. */
void api_add_stats(struct pcx_stats *to, const struct pcx_stats *s);

/* Nanoseconds of a monotonic clock. */
uint64_t api_now(void);

/* Prepare r for input in in arena a (nothing read yet). */
void api_run_init(struct run *r, const struct pcx_ctx *cx, struct arena *a,
                  const struct input *in);

/* Compute one input in a fresh arena (*ap; NULL when even that failed).
 * Returns the run, NULL if memory ran out before it existed; r->oom when
 * it ran out later.  Touches nothing but the run: safe in a worker. */
struct run *api_compute(const struct pcx_ctx *cx, const struct input *in,
                        struct arena **ap);

/* A computed run r (in arena *ap) cut down to what api_deliver needs of
 * it, in a new arena that replaces *ap: its messages, what it prints,
 * its counters and its target's state.  A run waiting for its turn (-j)
 * then holds its output, not the memory of its computation (some 30
 * bytes per byte of text).  Returns the run to deliver (r itself when it
 * cannot be cut: out of memory, a serial input). */
struct run *api_slim(struct run *r, struct arena **ap);

/* Commit a computed run (api_commit), or report that in ran out of
 * memory when r is NULL or r->oom. */
enum pcx_status api_deliver(struct pcx_ctx *cx, const struct input *in,
                            struct run *r);

/* Is in run by the thread that owns the context rather than computed in
 * a worker (a listing error, or a streamed standard input)? */
bool api_inline(const struct pcx_ctx *cx, const struct input *in);

/* Everything of one computed run that touches the context and the sinks,
 * in input order: counters, diagnostics, result or target.  Returns the
 * run's status (also folded into the context's). */
enum pcx_status api_commit(struct pcx_ctx *cx, struct run *r);

/* Compute and commit one input (or run it inline); its memory is released
 * afterwards. */
enum pcx_status api_run_one(struct pcx_ctx *cx, const struct input *in);

/* ---- api_config.c ---- */

/* Make the context's configuration set; false when out of memory. */
bool api_config_init(struct pcx_ctx *cx);

/* What io/config borrows (struct config_lisp): the reader of Lisp
 * snippets (exactly one form) and the expander's template check. */
struct value *api_read_snippet(void *ctx, struct lisp *L, const char *text,
                               size_t len, size_t *err_off, const char **why);
const char *api_check_template(void *ctx, struct lisp *L, struct value *name,
                               struct value *args, struct value *body);

/* Find in's configuration (in->cfg, or in->cfg_failed with its errors in
 * arena a).  Only in the thread that owns the context, with cx->cfg_arena's
 * out-of-memory jump set. */
void api_config_input(struct pcx_ctx *cx, struct arena *a, struct input *in);

/* Does an `exclude` glob of in's configuration match it (a file found
 * under a DIR operand)?  a: scratch memory. */
bool api_config_excluded(struct arena *a, const struct input *in);

/* -v: say which configuration in used. */
void api_config_note(struct pcx_ctx *cx, const struct input *in);

/* The configuration of r's input, and the values the command line may
 * override. */
const struct config *run_config(const struct run *r);
/* The prefix of temporaries' names (options over configuration). */
const char *run_gensym_prefix(const struct run *r);
unsigned run_skip_heads(const struct run *r);
unsigned run_width(const struct run *r);

/* After expand_init and pcase_macros_new: temporaries' naming, built-in
 * families, templates and struct layouts of the configuration. */
void api_config_expander(struct run *r);

/* ---- api_load.c ---- */

/* The files read for the requires of a context's runs, each once. */
struct api_library;

/* A library with nothing read; NULL when out of memory. */
struct api_library *api_library_new(void);
void api_library_free(struct api_library *lib);

/* The requires of one run (its loader). */
struct api_loader;

/* Make x follow requires (learn.h) through lib: FEATURE.el, else
 * FEATURE.el.gz, of the first of dirs (n_dirs) that has one.  input: the
 * input's path (it is never learned as a library), or NULL.  Kept in x's
 * arena; dirs must outlive the run.  lib NULL: requires are not followed
 * (and NULL is returned). */
struct api_loader *api_load_attach(struct expand_ctx *x, struct api_library *lib,
                                   const char *input, const char *const *dirs,
                                   size_t n_dirs);

/* Does a file the run read for a require (one found on its load path)
 * itself require feature?  Then loading the input loads it too. */
bool api_load_required_by_file(const struct api_loader *ld, const char *feature);

/* api_load_attach for run r (after api_config_expander; api_run.c): its load path is
 * its input's directory (--stdin-filepath's for standard input), the -L
 * directories, then its configuration's load-path; -v sets x.verbose. */
void api_load_run(struct run *r);

/* ---- api_run.c ---- */

/* The message of a reader error, as diagnostics word it (arena L->a). */
const char *api_read_error_text(struct lisp *L, const struct read_error *e);


/* Make text (len bytes, kept by the caller) r's whole input. */
void run_set_text(struct run *r, const uint8_t *text, size_t len);

/* The whole pipeline of one input: load it, then run_text (or, for a
 * large input, api_split_run). */
void run_input(struct run *r);

/* run_text without its last step, the rendering of the diagnostics (a
 * part of a split input: they are rendered once, merged). */
void run_stages(struct run *r);

/* Render r's diagnostics (sorted, filtered by the configuration) into
 * r->msgs. */
void run_render_diagnostics(struct run *r);

/* ---- api_requires.c ---- */

/* After expansion: the libraries the sites of r's share call, and those
 * its top-level forms require at run time (r->libs). */
void api_requires_scan(struct run *r);

/* A part's libraries into its whole run's. */
void api_requires_merge(struct run_libs *into, const struct run_libs *part);

/* Say (note missing-require) which requires the output needs that the
 * text lacks, each once, unless --add-requires adds them. */
void api_requires_note(struct run *r);

/* --add-requires: the edits of the kept text (*n of them, in text order)
 * that add the requires the output needs after the text's own and drop a
 * (require 'pcase) nothing in the output needs. */
const struct splice_edit *api_requires_edits(struct run *r, size_t *n);

/* ---- api_split.c ---- */

/* How many threads compute the loaded input of r in parts: 0 (it runs in
 * one piece) unless the input is large and the options print whole files
 * as Lisp (and do not ask for one piece).  Whether its text can be cut is
 * found by api_split_run, which runs it in one piece when not. */
unsigned api_split_threads(const struct run *r);

/* Compute r (loaded) in parts, each in its own arena, taken in turn by
 * `threads` threads, and merge them into r: output, diagnostics and
 * counters are those of a run in one piece. */
void api_split_run(struct run *r, unsigned threads);

/* The stages after loading, on r->text: coding check, reading, expansion,
 * rendering into r->out, diagnostics into r->msgs. */
void run_text(struct run *r);

/* Could a temporary take symbol s's name: does it begin with prefix, or
 * with "_" and prefix (the names of temporaries bound for effect)? */
bool run_temp_like(const struct value_symbol *s, const char *prefix);

/* Say that the coding system named at name (a span of r->text) is
 * refused. */
void run_coding_error(struct run *r, struct span name);

/* Did the run fail (errors, or warnings under --werror)? */
bool run_failed(const struct run *r);

/* Is the run's output written to its target or sink?  When it did not
 * fail; with --keep-going, whenever it was made. */
bool run_writes(const struct run *r);

/* Position of offset off of r->text in the whole input. */
struct source_pos run_pos(struct run *r, uint32_t off);

/* ---- api_out.c ---- */

/* --format=yaml|json: one record per site into r->out.  texts[i] is the
 * text that replaced site i. */
void out_records(struct run *r, const struct splice_text *texts);

/* --dump: the stage dump of each site into r->out. */
void out_dumps(struct run *r);

/* --explain: the explanation of each replaced form (text or records). */
void out_explain(struct run *r);

/* The --stats line of counters s over ns nanoseconds, with "file=NAME "
 * first when name is not NULL. */
void out_stats_line(struct buf *b, const char *name, const struct pcx_stats *s,
                    uint64_t ns);

/* ---- api_target.c ---- */

/* After a successful computation: find r's target; in check modes,
 * compare it with r->out and prepare the diff or list text; in writing
 * modes, write it (unless r->in->serial).  Worker-safe. */
void target_prepare(struct run *r);

/* The --out-dir target of in (cli.md 5), from arena a; NULL with *error
 * set when in cannot be mirrored. */
const char *target_mirror(struct arena *a, const struct pcx_options *o,
                          const struct input *in, const char **error);

/* The path of in's target when the run writes one (o->target is not
 * PCX_TARGET_STDOUT), from arena a; NULL when there is none. */
const char *target_of(struct arena *a, const struct pcx_options *o,
                      const struct input *in);

/* Deliver the result of a successful run: print it, print the report of
 * a check, or write the target.  Returns the run's status. */
enum pcx_status target_commit(struct pcx_ctx *cx, struct run *r);

/* Before writing targets: remove the temporaries that killed runs left
 * in the directories where the targets of ins will be written
 * (file_sweep_temporaries, once per directory).  Memory from arena a. */
void target_sweep(const struct pcx_ctx *cx, struct arena *a,
                  const struct input *ins, size_t n);

/* Before any input runs: with --out-dir, refuse (in->error) an input
 * whose target is the input itself or the target of another file; with
 * -w or --out-dir, mark serial the inputs whose target an earlier input
 * also has (the same file given twice).  Scratch memory from a. */
void target_plan(struct arena *a, const struct pcx_options *o, struct input *ins,
                 size_t n);

/* The summary line of check modes ("N files checked, K stale"). */
void target_summary(struct pcx_ctx *cx);

/* ---- api_jobs.c ---- */

/* Run inputs in order with cx->o.jobs workers; stream inputs (standard
 * input) are run by the calling thread at their turn. */
enum pcx_status jobs_run(struct pcx_ctx *cx, struct input *ins, size_t n);

/* ---- api_stream.c ---- */

/* Standard input, each stretch of complete top-level forms printed as
 * soon as it has arrived (cli.md section 2; options.stream). */
enum pcx_status stream_run(struct pcx_ctx *cx, const struct input *in);

#endif
