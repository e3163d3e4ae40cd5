/* fuzz_read.c - libFuzzer target: the reader and the printer alone.
 *
 * Reads the bytes as a source file (with and without the origin map, which
 * must agree), prints every form read, and checks the printer's round trip:
 * with print-circle and print-gensym on (print-quoted off), reading the
 * printed text back and printing it again gives the same text.  Also feeds the bytes to
 * read_one (read-from-string) and the coding-cookie check.
 */
#include "fuzz.h"

#include <setjmp.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "lisp/intern.h"
#include "lisp/print.h"
#include "lisp/value.h"
#include "syntax/read.h"

/* Printed text of v, print-circle and print-gensym on.  print-quoted is
 * off: Emacs's own `,@' shorthand for (\\, @) inside a backquote does not
 * read back as what it printed. */
static void print_circle(struct lisp *L, struct buf *b, const struct value *v)
{
    struct print_opts o = print_opts_default();
    o.circle = true;
    o.gensym = true;
    o.quoted = false;
    print_value(L, b, v, &o);
}

/* The printed text (a multibyte string, in Emacs's internal encoding) as
 * Emacs writes it to a file in utf-8-emacs.  False when that file would
 * not read back as the same characters, in Emacs too: a surrogate code
 * point (written, but not decoded back) or a raw byte (printed unescaped
 * in a symbol, so that neighbouring raw bytes can form a UTF-8 sequence). */
static bool externalize(struct buf *out, const struct buf *in)
{
    const uint8_t *p = (const uint8_t *)in->data;
    for (size_t k = 0; k < in->len;) {
        int l;
        uint32_t c = value_char_decode(p + k, in->len - k, &l);
        if ((c >= 0xD800 && c <= 0xDFFF) || c >= VALUE_RAW_BYTE_BASE)
            return false;
        buf_put(out, p + k, (size_t)l);
        k += (size_t)l;
    }
    return true;
}

/* Does the name of symbol x hold a raw byte? */
static bool raw_in_name(const struct value *x)
{
    const uint8_t *p = (const uint8_t *)x->u.sym.name;
    for (size_t k = 0; k < x->u.sym.len;) {
        int l;
        if (value_char_decode(p + k, x->u.sym.len - k, &l) >= VALUE_RAW_BYTE_BASE)
            return true;
        k += (size_t)l;
    }
    return false;
}

/* Has v a symbol whose name holds a raw byte?  Printed unescaped, raw
 * bytes next to each other may form a UTF-8 sequence in the file, which
 * reads back as another character (in Emacs too).  Hash tables and
 * values too large to search count as having one. */
static bool raw_byte_symbol(struct arena *a, const struct value *v)
{
    size_t cap = 64, top = 0, seen = 0;
    const struct value **st = ARENA_NEWN(a, const struct value *, cap);
    st[top++] = v;
    while (top) {
        const struct value *x = st[--top];
        if (++seen > 100000 || x->kind == VK_HASHTABLE)
            return true;
        if (x->kind == VK_SYMBOL && raw_in_name(x))
            return true;
        size_t n = x->kind == VK_CONS ? 2
                 : x->kind >= VK_VECTOR && x->kind <= VK_SUBCHARTABLE ? x->u.vec.n : 0;
        if (top + n > cap) {
            st = arena_grow(a, st, cap * sizeof *st, (top + n) * 2 * sizeof *st);
            cap = (top + n) * 2;
        }
        if (x->kind == VK_CONS) {
            st[top++] = value_car(x);
            st[top++] = value_cdr(x);
        } else {
            for (size_t i = 0; i < n; i++)
                st[top++] = x->u.vec.items[i];
        }
    }
    return false;
}

/* Read printed text b1 (from the fuzzer's data) back as one form and
 * print it again into b2; false when the text has no file form. */
static bool reprint(struct arena *a, const uint8_t *data, size_t size,
                    struct buf *b1, struct buf *b2)
{
    struct buf file;
    buf_init(&file, a);
    if (!externalize(&file, b1))
        return false;
    struct lisp *L2 = intern_new(a);
    struct read_result rd;
    if (!read_source_opts(L2, (const uint8_t *)file.data, file.len,
                          READ_NO_ORIGIN, &rd) || rd.n_forms != 1)
        fuzz_fail("printed form does not read back as one form", data, size,
                  buf_cstr(b1));
    buf_init(b2, a);
    print_circle(L2, b2, rd.forms[0].v);
    return true;
}

/* Does the text label a string ("#N=\"")?  Emacs labels a string shared
 * below the top level only (elisp-syntax.md 2.6), so its label may be
 * the only mention printed: read back, the string is shared no more and
 * the label goes. */
static bool labels_a_string(const struct buf *b)
{
    for (const char *p = b->data; p && (p = strstr(p, "=\"")) != NULL; p++) {
        const char *q = p;
        while (q > b->data && q[-1] >= '0' && q[-1] <= '9')
            q--;
        if (q < p && q > b->data && q[-1] == '#')
            return true;
    }
    return false;
}

/* The printed text of a form, written to a file, must read back as one
 * form that prints the same; or, when a string label is what differs,
 * as one whose printed text is that fixed point. */
static void round_trip(struct arena *a, const uint8_t *data, size_t size,
                       struct lisp *L, const struct value *v)
{
    struct buf b1, b2, b3;
    if (raw_byte_symbol(a, v))
        return;
    buf_init(&b1, a);
    print_circle(L, &b1, v);
    if (!reprint(a, data, size, &b1, &b2))
        return;
    if (b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0)
        return;
    if (labels_a_string(&b1) && reprint(a, data, size, &b2, &b3) &&
        b2.len == b3.len && memcmp(b2.data, b3.data, b2.len) == 0)
        return;
    buf_puts(&b1, "\n--- printed again\n");
    buf_put(&b1, b2.data, b2.len);
    fuzz_fail("print/read/print is not stable", data, size, buf_cstr(&b1));
}

static void read_and_print(struct arena *a, const uint8_t *data, size_t size)
{
    struct lisp *L = intern_new(a);
    struct read_result rd, rd2;
    bool ok = read_source(L, data, size, &rd);
    struct lisp *L2 = intern_new(a);
    bool ok2 = read_source_opts(L2, data, size, READ_NO_ORIGIN, &rd2);
    if (ok != ok2 || rd.n_forms != rd2.n_forms ||
        (!ok && rd.err.pos != rd2.err.pos))
        fuzz_fail("reading with and without origins differs", data, size, NULL);
    struct print_opts dflt = print_opts_default();
    struct print_opts comp = print_opts_compact();
    for (size_t i = 0; i < rd.n_forms; i++) {
        struct buf b;
        buf_init(&b, a);
        print_value(L, &b, rd.forms[i].v, &dflt);
        print_value(L, &b, rd.forms[i].v, &comp);
        if (rd.forms[i].span.end > size || rd.forms[i].span.start > rd.forms[i].span.end)
            fuzz_fail("form span out of the text", data, size, NULL);
        round_trip(a, data, size, L, rd.forms[i].v);
    }
    struct value *v;
    size_t consumed;
    struct read_error err;
    if (read_one(L, data, size, &v, &consumed, &err)) {
        struct buf b;
        buf_init(&b, a);
        print_value(L, &b, v, &dflt);
    }
    struct span name;
    read_check_coding(data, size, &name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct arena *a = arena_new(NULL);
    if (!a)
        return 0;
    a->limit = FUZZ_MEMORY_LIMIT;
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        read_and_print(a, data, size);
    }
    arena_free(a);
    return 0;
}
