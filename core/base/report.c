/* report.c - diagnostics rendered as GNU, JSON or GitHub lines (report.h).
 *
 * One function per format builds one line from a "located" diagnostic
 * (name, optional start/end positions, severity word, message, code), so
 * positioned and unpositioned diagnostics share the same renderers.
 */
#include "report.h"

#include <stdint.h>
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

/* What one character of a name or message is, for showing it. */
enum shown_as {
    SHOW_PLAIN,   /* printable: as it is */
    SHOW_CONTROL, /* a C0 or C1 control character or DEL: escaped */
    SHOW_INVALID, /* a byte that starts no UTF-8 sequence: escaped */
};

/* The character at p (NUL-terminated): its length in bytes and how it
 * is shown.  A terminal acts on the controls (ESC starts an escape
 * sequence, U+009B is CSI), and JSON must be valid UTF-8, so only
 * printable RFC 3629 characters pass; *cp gets the code point. */
static size_t classify(const unsigned char *p, enum shown_as *how, uint32_t *cp)
{
    *cp = p[0];
    if (p[0] < 0x80) {
        *how = p[0] < 0x20 || p[0] == 0x7F ? SHOW_CONTROL : SHOW_PLAIN;
        return 1;
    }
    size_t avail = strnlen((const char *)p, 4);
    int n = source_char_len(p, avail);
    uint32_t c = n == 2 ? (uint32_t)(p[0] & 0x1F) : n == 3 ? (uint32_t)(p[0] & 0x0F)
                                                           : (uint32_t)(p[0] & 0x07);
    for (int i = 1; i < n; i++)
        c = c << 6 | (p[i] & 0x3F);
    if (n == 1 || c > 0x10FFFF) { /* Emacs's extended characters are not UTF-8 */
        *how = SHOW_INVALID;
        return 1;
    }
    *cp = c;
    *how = c < 0xA0 ? SHOW_CONTROL : SHOW_PLAIN;
    return (size_t)n;
}

/* \xHH for each of the n bytes at p. */
static void put_hex_bytes(struct buf *b, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf_printf(b, "\\x%02x", p[i]);
}

void report_put_text(struct buf *b, const char *s)
{
    static const char *const named[0x20] = {['\t'] = "\\t", ['\n'] = "\\n",
                                            ['\r'] = "\\r"};
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        enum shown_as how;
        uint32_t cp;
        size_t n = classify(p, &how, &cp);
        if (how == SHOW_PLAIN)
            buf_put(b, p, n);
        else if (cp < 0x20 && named[cp])
            buf_puts(b, named[cp]);
        else
            put_hex_bytes(b, p, n);
        p += n;
    }
}

static void gnu_line(struct buf *b, const struct line *l)
{
    report_put_text(b, l->name);
    if (l->has_pos)
        buf_printf(b, ":%u:%u", l->start.line, l->start.col);
    buf_printf(b, ": %s: ", sev_word(l->sev));
    report_put_text(b, l->message);
    if (l->code)
        buf_printf(b, " [%s]", l->code);
    buf_putc(b, '\n');
}

/* JSON string: quotes, backslashes and control characters escaped, a
 * byte that is no UTF-8 becomes U+FFFD (as in the records of
 * --format=json), so that the line is valid JSON whatever the name. */
static void put_json_string(struct buf *b, const char *s)
{
    buf_putc(b, '"');
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        enum shown_as how;
        uint32_t cp;
        size_t n = classify(p, &how, &cp);
        if (how == SHOW_INVALID)
            buf_puts(b, "\\ufffd");
        else if (cp == '\n')
            buf_puts(b, "\\n");
        else if (how == SHOW_CONTROL)
            buf_printf(b, "\\u%04x", (unsigned)cp);
        else if (cp == '"' || cp == '\\')
            buf_printf(b, "\\%c", (char)cp);
        else
            buf_put(b, p, n);
        p += n;
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
 * property values.  Other controls and bytes that are no UTF-8 as
 * report_put_text shows them. */
static void put_github(struct buf *b, const char *s, bool property)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        enum shown_as how;
        uint32_t cp;
        size_t n = classify(p, &how, &cp);
        if (cp == '%' || cp == '\r' || cp == '\n' ||
            (property && (cp == ':' || cp == ',')))
            buf_printf(b, "%%%02X", (unsigned)cp);
        else if (how != SHOW_PLAIN)
            put_hex_bytes(b, p, n);
        else
            buf_put(b, p, n);
        p += n;
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
        report_put_text(b, message);
        buf_putc(b, '\n');
        return;
    }
    struct line l = {NULL, false, {0, 0}, {0, 0}, shown(sev, o), NULL, message, NULL};
    emit(b, &l, o);
}
