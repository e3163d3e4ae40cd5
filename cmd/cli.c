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

/* ---- the table ---- */

/* Sorted by long name (a unit test checks it); see cli.md section 17. */
static const struct cli_option options[] = {
    {"compact", 0, NULL, "print each top-level form on one line, canonically",
     set_compact},
    {"gensym-prefix", 0, "STR", "prefix of renamed temporaries (default pcx--)",
     set_gensym_prefix},
    {"gensyms", 0, "rename|hash|circle", "how temporaries are printed (default rename)",
     set_gensyms},
    {"help", 'h', NULL, "print this help and exit", set_help},
    {"message-format", 0, "gnu|json|github", "format of diagnostics (default gnu)",
     set_message_format},
    {"no-expand", 0, NULL, "do not expand: print the input as read", set_no_expand},
    {"quiet", 'q', NULL, "no notes and no summary lines", set_quiet},
    {"stdin-filepath", 0, "PATH", "name of standard input in diagnostics",
     set_stdin_filepath},
    {"version", 0, NULL, "print the version and exit", set_version},
    {"werror", 0, NULL, "treat warnings as errors", set_werror},
    {"width", 0, "N", "fill column of generated code (default 80)", set_width},
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
    if (o->arg && !value) {
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

bool cli_parse(struct cli *c, int argc, char *const *argv,
               const char **operands)
{
    memset(c, 0, sizeof *c);
    c->action = CLI_RUN;
    c->stdin_name = "<stdin>";
    c->operands = operands;
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
    return true;
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
        snprintf(head, sizeof head, "%c%c%s--%s%s%s",
                 o->short_name ? '-' : ' ', o->short_name ? o->short_name : ' ',
                 o->short_name ? ", " : "  ", o->name, o->arg ? "=" : "",
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
