/* cli.c - option table, parsing, usage text, exit codes (cli.h).
 *
 * Adding an option is one row in `options` (kept sorted by long name) and
 * one setter.  Long options take "--opt=VALUE" or "--opt VALUE"; short
 * ones may be bundled ("-qv") and take "-jN" or "-j N"; "--" ends the
 * options (cli.md section 17).
 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool usage(struct cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool usage(struct cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
    c->action = CLI_USAGE;
    return false;
}

/* ---- setters, one per option ---- */

static bool set_compact(struct cli *c, const char *v)
{
    (void)v;
    c->opts.compact = true;
    return true;
}

static bool set_help(struct cli *c, const char *v)
{
    (void)v;
    c->action = CLI_HELP;
    return true;
}

static bool set_no_expand(struct cli *c, const char *v)
{
    (void)v;
    c->opts.no_expand = true;
    return true;
}

static bool set_quiet(struct cli *c, const char *v)
{
    (void)v;
    c->opts.quiet = true;
    return true;
}

static bool set_version(struct cli *c, const char *v)
{
    (void)v;
    c->action = CLI_VERSION;
    return true;
}

static bool set_werror(struct cli *c, const char *v)
{
    (void)v;
    c->opts.werror = true;
    return true;
}

static bool set_stdin_filepath(struct cli *c, const char *v)
{
    if (!*v)
        return usage(c, "--stdin-filepath needs a non-empty path");
    c->stdin_name = v;
    c->opts.stdin_filepath = v;
    return true;
}

static bool set_gensym_prefix(struct cli *c, const char *v)
{
    if (!*v)
        return usage(c, "--gensym-prefix needs a non-empty string");
    c->opts.gensym_prefix = v;
    return true;
}

static bool set_width(struct cli *c, const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (*v < '0' || *v > '9' || *end || errno || n < 1 || n > 10000)
        return usage(c, "invalid --width '%s' (expected a number from 1 to 10000)", v);
    c->opts.width = (unsigned)n;
    return true;
}

/* Index of v in the NULL-terminated list of words, or -1. */
static int word_index(const char *const *words, const char *v)
{
    for (int i = 0; words[i]; i++)
        if (strcmp(words[i], v) == 0)
            return i;
    return -1;
}

static bool set_gensyms(struct cli *c, const char *v)
{
    /* ORDER: enum pcx_gensyms */
    static const char *const words[] = {"rename", "hash", "circle", NULL};
    int i = word_index(words, v);
    if (i < 0)
        return usage(c, "invalid --gensyms '%s' (expected rename, hash or circle)", v);
    c->opts.gensyms = (enum pcx_gensyms)i;
    c->opts.gensyms_given = true;
    return true;
}

static bool set_message_format(struct cli *c, const char *v)
{
    /* ORDER: enum pcx_message_format */
    static const char *const words[] = {"gnu", "json", "github", NULL};
    int i = word_index(words, v);
    if (i < 0)
        return usage(c, "invalid --message-format '%s' (expected gnu, json or github)", v);
    c->opts.message_format = (enum pcx_message_format)i;
    return true;
}

static bool set_format(struct cli *c, const char *v)
{
    /* ORDER: enum pcx_format */
    static const char *const words[] = {"lisp", "yaml", "json", "dot", NULL};
    int i = word_index(words, v);
    if (i < 0)
        return usage(c, "invalid --format '%s' (expected lisp, yaml, json or dot)", v);
    c->opts.format = (enum pcx_format)i;
    return true;
}

static bool set_dump(struct cli *c, const char *v)
{
    /* ORDER: enum pcx_dump, after PCX_DUMP_NONE */
    static const char *const words[] = {"pat", "dtree", "clean", NULL};
    int i = word_index(words, v);
    if (i < 0)
        return usage(c, "invalid --dump '%s' (expected pat, dtree or clean)", v);
    c->opts.dump = (enum pcx_dump)(i + 1);
    return true;
}

/* A decimal number from lo to hi, the whole of text [v, end); false
 * otherwise. */
static bool number(const char *v, const char *end, unsigned long lo,
                   unsigned long hi, unsigned *out)
{
    unsigned long n = 0;
    if (v == end || end - v > 9)
        return false;
    for (const char *p = v; p < end; p++) {
        if (*p < '0' || *p > '9')
            return false;
        n = n * 10 + (unsigned long)(*p - '0');
    }
    if (n < lo || n > hi)
        return false;
    *out = (unsigned)n;
    return true;
}

static bool set_jobs(struct cli *c, const char *v)
{
    unsigned n;
    if (!number(v, v + strlen(v), 0, 1024, &n))
        return usage(c, "invalid -j '%s' (expected a number from 0 to 1024)", v);
    c->opts.jobs = n;
    c->jobs_auto = n == 0;
    return true;
}

static bool set_at(struct cli *c, const char *v)
{
    const char *colon = strchr(v, ':');
    const char *end = v + strlen(v);
    unsigned line, col = 0;
    if (!number(v, colon ? colon : end, 1, 999999999, &line) ||
        (colon && !number(colon + 1, end, 1, 999999999, &col)))
        return usage(c, "invalid --at '%s' (expected LINE or LINE:COL, from 1)", v);
    c->opts.at_line = line;
    c->opts.at_col = col;
    return true;
}

/* Bits of a comma-separated list of head names; 0 after a usage error. */
static unsigned head_list(struct cli *c, const char *opt, const char *v)
{
    unsigned bits = 0;
    for (const char *p = v;; p++) {
        size_t n = strcspn(p, ",");
        char name[32];
        unsigned bit = 0;
        if (n > 0 && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = 0;
            bit = pcx_head_bit(name);
        }
        if (!bit)
            return usage(c, "invalid --%s '%s' (expected names from: pcase, "
                            "pcase-exhaustive, pcase-let, pcase-let*, pcase-setq, "
                            "pcase-dolist, pcase-lambda, cond*)", opt, v), 0u;
        bits |= bit;
        p += n;
        if (!*p)
            return bits;
    }
}

static bool set_only(struct cli *c, const char *v)
{
    unsigned bits = head_list(c, "only", v);
    c->opts.skip_heads |= PCX_HEADS_ALL & ~bits;
    c->opts.heads_given = true;
    return bits != 0;
}

static bool set_skip(struct cli *c, const char *v)
{
    unsigned bits = head_list(c, "skip", v);
    c->opts.skip_heads |= bits;
    c->opts.heads_given = true;
    return bits != 0;
}

/* --no-clean=PASS[,PASS...] or all: switch clean-up passes off. */
static bool set_no_clean(struct cli *c, const char *v)
{
    if (!strcmp(v, "all")) {
        for (int i = 0; pcx_clean_pass_name(i); i++)
            c->opts.no_clean |= 1u << i;
        return true;
    }
    for (const char *p = v;;) {
        size_t n = strcspn(p, ",");
        int k = pcx_clean_pass(p, n);
        if (k < 0) {
            char names[256] = "";
            for (int i = 0; pcx_clean_pass_name(i); i++) {
                strncat(names, pcx_clean_pass_name(i), sizeof names - strlen(names) - 1);
                strncat(names, ", ", sizeof names - strlen(names) - 1);
            }
            return usage(c, "invalid --no-clean '%s' (expected all or names from: %sseparated "
                            "by commas)", v, names);
        }
        c->opts.no_clean |= 1u << k;
        p += n;
        if (!*p++)
            return true;
    }
}

static bool set_config(struct cli *c, const char *v)
{
    if (!*v)
        return usage(c, "--config needs a non-empty file name");
    c->opts.config = PCX_CONFIG_FILE;
    c->opts.config_file = v;
    return true;
}

static bool set_manifest(struct cli *c, const char *v)
{
    if (!*v)
        return usage(c, "--manifest needs a non-empty file name");
    c->opts.manifest = v;
    c->goldens = true;
    return true;
}

static bool set_update(struct cli *c, const char *v)
{
    /* ORDER: enum pcx_update, after PCX_UPDATE_NONE */
    static const char *const words[] = {"all", "missing", NULL};
    int i = v ? word_index(words, v) : 0;
    if (i < 0)
        return usage(c, "invalid --update '%s' (expected all or missing)", v);
    c->opts.update = (enum pcx_update)(i + 1);
    return true;
}

/* -L DIR: kept at the end of the operands array (operands and
 * directories together are fewer than argc), put in order at the end. */
static bool set_directory(struct cli *c, const char *v)
{
    if (!*v)
        return usage(c, "-L needs a non-empty directory name");
    c->operands[c->room - 1 - c->opts.n_load_path++] = v;
    return true;
}

/* The -L directories in command-line order. */
static void order_directories(struct cli *c)
{
    size_t n = c->opts.n_load_path;
    const char **d = c->operands + c->room - n;
    for (size_t i = 0; i < n / 2; i++) {
        const char *t = d[i];
        d[i] = d[n - 1 - i];
        d[n - 1 - i] = t;
    }
    c->opts.load_path = n ? d : NULL;
}

static bool set_output(struct cli *c, const char *v)
{
    if (!*v)
        return usage(c, "-o needs a non-empty file name");
    c->output = v;
    return true;
}

static bool set_out_dir(struct cli *c, const char *v)
{
    if (!*v)
        return usage(c, "--out-dir needs a non-empty directory name");
    c->out_dir = v;
    return true;
}

/* Flags: one setter per bit or boolean. */
#define FLAG_SETTER(fn, stmt)                        \
    static bool fn(struct cli *c, const char *v)     \
    {                                                \
        (void)v;                                     \
        stmt;                                        \
        return true;                                 \
    }
FLAG_SETTER(set_write, c->write = true)
FLAG_SETTER(set_check, c->opts.check |= PCX_CHECK_STATUS)
FLAG_SETTER(set_diff, c->opts.check |= PCX_CHECK_DIFF)
FLAG_SETTER(set_list, c->opts.check |= PCX_CHECK_LIST)
FLAG_SETTER(set_stats, c->opts.stats = true)
FLAG_SETTER(set_verbose, c->opts.verbose = true)
FLAG_SETTER(set_no_memo, c->opts.no_memo = true)
FLAG_SETTER(set_whole, c->opts.whole = true)
FLAG_SETTER(set_no_config, c->opts.config = PCX_CONFIG_NONE)
FLAG_SETTER(set_print_config, c->print_config = true)
FLAG_SETTER(set_goldens, c->goldens = true)
FLAG_SETTER(set_keep_going, c->opts.keep_going = true)
FLAG_SETTER(set_explain, c->opts.explain = true)
FLAG_SETTER(set_add_requires, c->opts.add_requires = true)

/* ---- the table ---- */

/* Sorted by long name (a unit test checks it); see cli.md section 17. */
static const struct cli_option options[] = {
    {"add-requires", 0, NULL, "require the libraries the expansions call; drop a "
     "(require 'pcase) nothing needs", set_add_requires},
    {"at", 0, "LINE[:COL]", "expand only the form at this position (one input)",
     set_at},
    {"check", 'c', NULL, "write nothing; exit 1 if a target is stale", set_check},
    {"compact", 0, NULL, "print each top-level form on one line, canonically",
     set_compact},
    {"config", 0, "FILE", "use this configuration file for every input",
     set_config},
    {"diff", 'd', NULL, "print a unified diff target -> output; exit 1 if any",
     set_diff},
    {"directory", 'L', "DIR", "search DIR for required features (repeatable)",
     set_directory},
    {"dump", 0, "pat|dtree|clean", "print a compiler stage of each form instead of code",
     set_dump},
    {"explain", 0, NULL, "say in words what each form does: conditions, bindings, "
     "unreachable clauses, a value no clause matches, calls", set_explain},
    {"format", 0, "lisp|yaml|json|dot", "print Lisp, or one record per replaced form "
     "(dot: with --dump=dtree)", set_format},
    {"gensym-prefix", 0, "STR", "prefix of renamed temporaries (default pcx--)",
     set_gensym_prefix},
    {"gensyms", 0, "rename|hash|circle", "how temporaries are printed (default rename)",
     set_gensyms},
    {"goldens", 'g', NULL, "golden mode: operands are cases of the manifest",
     set_goldens},
    {"help", 'h', NULL, "print this help and exit", set_help},
    {"jobs", 'j', "N", "N threads: files in parallel, a large file's parts (0: one per CPU; default 1)",
     set_jobs},
    {"keep-going", 'k', NULL, "expand what can be, keep failing forms as written, write "
     "every output (exit 2 on errors)", set_keep_going},
    {"list", 'l', NULL, "print the names of stale targets; exit 1 if any",
     set_list},
    {"manifest", 0, "FILE", "the golden manifest (implies -g)", set_manifest},
    {"message-format", 0, "gnu|json|github", "format of diagnostics (default gnu)",
     set_message_format},
    {"no-clean", 0, "LIST", "switch these clean-up passes off (comma-separated, or all)",
     set_no_clean},
    {"no-config", 0, NULL, "ignore configuration files", set_no_config},
    {"no-expand", 0, NULL, "do not expand: print the input as read", set_no_expand},
    {"no-memo", 0, NULL, "expand without the compiler's cache (same output)",
     set_no_memo},
    {"only", 0, "LIST", "expand only these heads (comma-separated)", set_only},
    {"out-dir", 0, "DIR", "write each result under DIR, mirroring input paths",
     set_out_dir},
    {"output", 'o', "FILE", "write the result of the single input to FILE",
     set_output},
    {"print-config", 0, NULL, "print the configuration of the first input and exit",
     set_print_config},
    {"quiet", 'q', NULL, "no notes and no summary lines", set_quiet},
    {"skip", 0, "LIST", "expand every head except these (comma-separated)",
     set_skip},
    {"stats", 0, NULL, "print counters to standard error after the run",
     set_stats},
    {"stdin-filepath", 0, "PATH", "name of standard input in diagnostics",
     set_stdin_filepath},
    {"update", 0, "[=all|missing]", "golden mode: write stale (or only missing) goldens",
     set_update},
    {"verbose", 'v', NULL, "say more about each input", set_verbose},
    {"version", 0, NULL, "print the version and exit", set_version},
    {"werror", 0, NULL, "treat warnings as errors", set_werror},
    {"whole", 0, NULL, "compute each input in one piece, not a large one in parts",
     set_whole},
    {"width", 0, "N", "fill column of generated code (default 80)", set_width},
    {"write", 'w', NULL, "rewrite each input file in place", set_write},
};

const struct cli_option *cli_table(size_t *n)
{
    *n = sizeof options / sizeof options[0];
    return options;
}

static const struct cli_option *find_long(const char *name, size_t len)
{
    size_t lo = 0, hi = sizeof options / sizeof options[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = strncmp(options[mid].name, name, len);
        if (d == 0 && options[mid].name[len] == 0)
            return &options[mid];
        if (d == 0) /* the row's name is longer: it sorts after */
            d = 1;
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static const struct cli_option *find_short(char ch)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (options[i].short_name == ch)
            return &options[i];
    return NULL;
}

/* ---- parsing ---- */

struct cursor {
    int argc;
    char *const *argv;
    int i; /* index of the next word to read */
};

/* "--name", "--name=value" or "--name value". */
static bool parse_long(struct cli *c, struct cursor *k, const char *word)
{
    const char *name = word + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const struct cli_option *o = find_long(name, len);
    if (!o)
        return usage(c, "unrecognized option '--%.*s'", (int)len, name);
    if (!o->arg && eq)
        return usage(c, "option '--%s' doesn't allow an argument", o->name);
    const char *value = eq ? eq + 1 : NULL;
    if (o->arg && o->arg[0] != '[' && !value) { /* "[=...]": optional */
        if (k->i >= k->argc)
            return usage(c, "option '--%s' requires an argument", o->name);
        value = k->argv[k->i++];
    }
    return o->set(c, value);
}

/* "-q", "-qv", "-jN", "-j N". */
static bool parse_short(struct cli *c, struct cursor *k, const char *word)
{
    for (const char *p = word + 1; *p; p++) {
        const struct cli_option *o = find_short(*p);
        if (!o)
            return usage(c, "invalid option -- '%c'", *p);
        if (!o->arg) {
            if (!o->set(c, NULL) || c->action != CLI_RUN)
                return c->action != CLI_USAGE;
            continue;
        }
        if (p[1])
            return o->set(c, p + 1);
        if (k->i >= k->argc)
            return usage(c, "option requires an argument -- '%c'", *p);
        return o->set(c, k->argv[k->i++]);
    }
    return true;
}

static bool add_operand(struct cli *c, const char *word)
{
    if (strcmp(word, "-") == 0) {
        for (size_t i = 0; i < c->n_operands; i++)
            if (strcmp(c->operands[i], "-") == 0)
                return usage(c, "'-' (standard input) may be given only once");
    }
    c->operands[c->n_operands++] = word;
    return true;
}

/* ---- combinations (cli.md sections 3, 4.5, 4.6, 5) ---- */

/* An option that may be given, by the name messages use. */
struct given {
    bool on;
    const char *name;
};

/* Name of the first option of g[0..n) that is given, or NULL. */
static const char *first_given(const struct given *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (g[i].on)
            return g[i].name;
    return NULL;
}

static bool reads_stdin(const struct cli *c)
{
    for (size_t i = 0; i < c->n_operands; i++)
        if (strcmp(c->operands[i], "-") == 0)
            return true;
    return c->n_operands == 0;
}

/* -w rewrites files: nothing else may decide where results go. */
static bool check_write(struct cli *c)
{
    const struct pcx_options *o = &c->opts;
    const struct given g[] = {
        {c->output != NULL, "-o"},
        {c->out_dir != NULL, "--out-dir"},
        {(o->check & PCX_CHECK_STATUS) != 0, "-c"},
        {(o->check & PCX_CHECK_DIFF) != 0, "-d"},
        {(o->check & PCX_CHECK_LIST) != 0, "-l"},
        {o->compact, "--compact"},
        {o->format != PCX_FORMAT_LISP, "--format"},
        {o->dump != PCX_DUMP_NONE, "--dump"},
        {o->explain, "--explain"},
    };
    const char *with = first_given(g, sizeof g / sizeof g[0]);
    if (with)
        return usage(c, "-w cannot be combined with %s", with);
    if (reads_stdin(c))
        return usage(c, "-w cannot rewrite standard input (name files to rewrite)");
    return true;
}

/* --format=dot is the picture of the decision DAG only. */
static bool check_dot(struct cli *c)
{
    const struct pcx_options *o = &c->opts;
    if (o->format == PCX_FORMAT_DOT && o->dump != PCX_DUMP_DTREE)
        return usage(c, "--format=dot needs --dump=dtree");
    return true;
}

/* Records, dumps and explanations are printed, never written or compared. */
static bool check_printing(struct cli *c)
{
    const struct pcx_options *o = &c->opts;
    const char *mode = o->explain ? "--explain" : o->dump ? "--dump" : "--format=yaml|json";
    const struct given targets[] = {
        {c->output != NULL, "-o"},
        {c->out_dir != NULL, "--out-dir"},
        {o->check != 0, "-c, -d and -l"},
    };
    const struct given dump[] = {
        {o->format != PCX_FORMAT_LISP && o->format != PCX_FORMAT_DOT, "--format"},
        {o->compact, "--compact"},
        {o->no_expand, "--no-expand"},
    };
    const struct given explain[] = {
        {o->dump != PCX_DUMP_NONE, "--dump"},
        {o->compact, "--compact"},
        {o->no_expand, "--no-expand"},
    };
    const char *with = first_given(targets, sizeof targets / sizeof targets[0]);
    if (!with && o->explain)
        with = first_given(explain, sizeof explain / sizeof explain[0]);
    if (!with && o->dump)
        with = first_given(dump, sizeof dump / sizeof dump[0]);
    if (with)
        return usage(c, "%s cannot be combined with %s", mode, with);
    return check_dot(c);
}

/* Golden mode has its own targets (cli.md section 6). */
static bool check_goldens(struct cli *c)
{
    const struct pcx_options *o = &c->opts;
    if (!c->goldens)
        return !o->update || usage(c, "--update needs -g or --manifest");
    const struct given g[] = {
        {c->write, "-w"},
        {c->output != NULL, "-o"},
        {c->out_dir != NULL, "--out-dir"},
        {o->compact, "--compact"},
        {o->format != PCX_FORMAT_LISP, "--format"},
        {o->dump != PCX_DUMP_NONE, "--dump"},
        {o->explain, "--explain"},
        {o->at_line != 0, "--at"},
        {o->no_expand, "--no-expand"},
        {o->add_requires, "--add-requires"},
        {c->print_config, "--print-config"},
    };
    const char *with = first_given(g, sizeof g / sizeof g[0]);
    return !with || usage(c, "-g cannot be combined with %s", with);
}

/* --add-requires changes the text around the forms: output that is that
 * text, whole. */
static bool check_add_requires(struct cli *c)
{
    const struct pcx_options *o = &c->opts;
    const struct given g[] = {
        {o->compact, "--compact"},
        {o->no_expand, "--no-expand"},
        {o->format != PCX_FORMAT_LISP, "--format"},
        {o->dump != PCX_DUMP_NONE, "--dump"},
        {o->explain, "--explain"},
        {o->at_line != 0, "--at"},
    };
    const char *with = o->add_requires ? first_given(g, sizeof g / sizeof g[0]) : NULL;
    return !with || usage(c, "--add-requires cannot be combined with %s", with);
}

/* The rules of a complete command line; then opts.target. */
static bool check_combination(struct cli *c)
{
    struct pcx_options *o = &c->opts;
    if (!check_goldens(c))
        return false;
    if (c->goldens || c->print_config)
        return true; /* operands are case names, or a file to configure */
    if (c->write && !check_write(c))
        return false;
    if (!check_add_requires(c))
        return false;
    if ((o->format != PCX_FORMAT_LISP || o->dump || o->explain) && !check_printing(c))
        return false;
    if (c->output && c->out_dir)
        return usage(c, "-o cannot be combined with --out-dir");
    if (c->output && c->n_operands > 1)
        return usage(c, "-o needs exactly one input");
    if (o->at_line && c->n_operands > 1)
        return usage(c, "--at needs exactly one input");
    o->target = c->write ? PCX_TARGET_INPUT
                : c->output ? PCX_TARGET_FILE
                : c->out_dir ? PCX_TARGET_DIR
                : o->check ? PCX_TARGET_INPUT : PCX_TARGET_STDOUT;
    o->target_path = c->output ? c->output : c->out_dir;
    o->stream = true;
    return true;
}

bool cli_parse(struct cli *c, int argc, char *const *argv,
               const char **operands)
{
    memset(c, 0, sizeof *c);
    c->action = CLI_RUN;
    c->stdin_name = "<stdin>";
    c->operands = operands;
    c->room = argc > 0 ? (size_t)argc : 0;
    struct cursor k = {argc, argv, 1};
    bool options_done = false;
    while (k.i < argc && c->action == CLI_RUN) {
        const char *w = argv[k.i++];
        bool ok;
        if (options_done || w[0] != '-' || strcmp(w, "-") == 0)
            ok = add_operand(c, w);
        else if (strcmp(w, "--") == 0)
            ok = options_done = true;
        else if (w[1] == '-')
            ok = parse_long(c, &k, w);
        else
            ok = parse_short(c, &k, w);
        if (!ok)
            return false;
    }
    order_directories(c);
    return c->action != CLI_RUN || check_combination(c);
}

/* ---- help and exit codes ---- */

void cli_print_help(FILE *f)
{
    fputs("Usage: pcexpand [OPTION]... [FILE|DIR|-]...\n"
          "Expand pcase-family and cond* forms in Emacs Lisp into plain Emacs Lisp.\n"
          "With no FILE, or with -, read standard input.  DIRs are searched for *.el.\n"
          "\n"
          "Options:\n",
          f);
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        const struct cli_option *o = &options[i];
        char head[64];
        bool optional = o->arg && o->arg[0] == '[';
        snprintf(head, sizeof head, "%c%c%s--%s%s%s",
                 o->short_name ? '-' : ' ', o->short_name ? o->short_name : ' ',
                 o->short_name ? ", " : "  ", o->name, o->arg && !optional ? "=" : "",
                 o->arg ? o->arg : "");
        fprintf(f, "  %-34s %s\n", head, o->help);
    }
    fputs("\n"
          "Exit status: 0 success, 1 stale targets found by a check,\n"
          "2 errors in the input or the command line, 3 internal error.\n",
          f);
}

int cli_exit_code(const struct cli *c, enum pcx_status run)
{
    switch (c->action) {
    case CLI_USAGE:
        return PCX_STATUS_ERROR;
    case CLI_HELP:
    case CLI_VERSION:
        return PCX_STATUS_OK;
    default:
        return (int)run;
    }
}
