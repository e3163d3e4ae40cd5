/* report.c - diagnostics rendered as GNU, JSON or GitHub lines (report.h).
 *
 * One function per format builds one line from a "located" diagnostic
 * (name, optional start/end positions, severity word, message, code), so
 * positioned and unpositioned diagnostics share the same renderers.
 */
#include "report.h"

#include <string.h>

/* A diagnostic ready to print. */
struct line {
    const char *name;           /* file name as given */
    bool has_pos;               /* start/end are meaningful */
    struct source_pos start;    /* 1-based */
    struct source_pos end;      /* 1-based, just after the span */
    enum diag_severity sev;     /* after --werror */
    const char *code;           /* "read", "io", ...; NULL for none */
    const char *message;        /* text, may contain any bytes */
    const char *witness;        /* JSON's "witness" field, or NULL */
};

static const char *sev_word(enum diag_severity s)
{
    return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" : "note";
}

/* Message text on one line: LF and CR become visible escapes. */
static void put_oneline(struct buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            buf_puts(b, "\\n");
        else if (*s == '\r')
            buf_puts(b, "\\r");
        else
            buf_putc(b, *s);
    }
}

static void gnu_line(struct buf *b, const struct line *l)
{
    buf_puts(b, l->name);
    if (l->has_pos)
        buf_printf(b, ":%u:%u", l->start.line, l->start.col);
    buf_printf(b, ": %s: ", sev_word(l->sev));
    put_oneline(b, l->message);
    if (l->code)
        buf_printf(b, " [%s]", l->code);
    buf_putc(b, '\n');
}

/* JSON string: quotes, backslashes and control characters escaped; other
 * bytes pass through unchanged (names and messages are UTF-8 in practice). */
static void put_json_string(struct buf *b, const char *s)
{
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            buf_printf(b, "\\%c", *p);
        else if (*p == '\n')
            buf_puts(b, "\\n");
        else if (*p < 0x20)
            buf_printf(b, "\\u%04x", *p);
        else
            buf_putc(b, (char)*p);
    }
    buf_putc(b, '"');
}

static void json_line(struct buf *b, const struct line *l)
{
    buf_puts(b, "{\"file\":");
    if (l->name)
        put_json_string(b, l->name);
    else
        buf_puts(b, "null");
    if (l->has_pos)
        buf_printf(b, ",\"line\":%u,\"column\":%u,\"end_line\":%u,"
                      "\"end_column\":%u",
                   l->start.line, l->start.col, l->end.line, l->end.col);
    buf_printf(b, ",\"severity\":\"%s\",\"code\":", sev_word(l->sev));
    if (l->code)
        put_json_string(b, l->code);
    else
        buf_puts(b, "null");
    buf_puts(b, ",\"message\":");
    put_json_string(b, l->message);
    if (l->witness) {
        buf_puts(b, ",\"witness\":");
        put_json_string(b, l->witness);
    }
    buf_puts(b, "}\n");
}

/* GitHub's escaping: '%', CR and LF everywhere; also ':' and ',' inside
 * property values. */
static void put_github(struct buf *b, const char *s, bool property)
{
    for (; *s; s++) {
        if (*s == '%' || *s == '\r' || *s == '\n' ||
            (property && (*s == ':' || *s == ',')))
            buf_printf(b, "%%%02X", (unsigned char)*s);
        else
            buf_putc(b, *s);
    }
}

static void github_line(struct buf *b, const struct line *l)
{
    buf_printf(b, "::%s",
               l->sev == DIAG_ERROR ? "error" : l->sev == DIAG_WARNING ? "warning"
                                                                      : "notice");
    if (l->name) {
        buf_puts(b, " file=");
        put_github(b, l->name, true);
    }
    if (l->has_pos)
        buf_printf(b, ",line=%u,col=%u,endLine=%u,endColumn=%u", l->start.line,
                   l->start.col, l->end.line, l->end.col);
    buf_puts(b, "::");
    put_github(b, l->message, false);
    if (l->code) {
        buf_puts(b, " [");
        put_github(b, l->code, false);
        buf_putc(b, ']');
    }
    buf_putc(b, '\n');
}

static void emit(struct buf *b, const struct line *l, const struct report_opts *o)
{
    switch (o->format) {
    case REPORT_JSON:
        json_line(b, l);
        break;
    case REPORT_GITHUB:
        github_line(b, l);
        break;
    default:
        gnu_line(b, l);
        break;
    }
}

static enum diag_severity shown(enum diag_severity s, const struct report_opts *o)
{
    return s == DIAG_WARNING && o->werror ? DIAG_ERROR : s;
}

void report_render(struct buf *b, struct source *s, const struct diag_list *d,
                   const struct report_opts *o)
{
    for (size_t i = 0; i < d->n; i++) {
        const struct diag *g = &d->items[i];
        if (g->sev == DIAG_NOTE && o->quiet)
            continue;
        struct line l = {s->name, true, source_pos(s, g->start),
                         source_pos(s, g->end), shown(g->sev, o), g->code,
                         g->message, g->witness};
        emit(b, &l, o);
    }
}

void report_plain(struct buf *b, const char *name, enum diag_severity sev,
                  const char *code, const char *message,
                  const struct report_opts *o)
{
    if (sev == DIAG_NOTE && o->quiet)
        return;
    struct line l = {name, false, {0, 0}, {0, 0}, shown(sev, o), code, message, NULL};
    emit(b, &l, o);
}

void report_tool(struct buf *b, enum diag_severity sev, const char *message,
                 const struct report_opts *o)
{
    if (sev == DIAG_NOTE && o->quiet)
        return;
    if (o->format == REPORT_GNU) {
        /* The program speaks in its own name, as GNU tools do; a note
         * is plain text (cli.md section 11). */
        buf_puts(b, "pcexpand: ");
        if (sev != DIAG_NOTE)
            buf_printf(b, "%s: ", sev_word(shown(sev, o)));
        put_oneline(b, message);
        buf_putc(b, '\n');
        return;
    }
    struct line l = {NULL, false, {0, 0}, {0, 0}, shown(sev, o), NULL, message, NULL};
    emit(b, &l, o);
}
