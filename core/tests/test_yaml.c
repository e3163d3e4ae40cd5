/* test_yaml.c - YAML trees from libfyaml, positions, errors, emitting. */
#include "support.h"

#include <string.h>

#include "base/report.h"
#include "io/yaml.h"

struct parsed {
    struct source src;
    struct diag_list d;
    struct yaml_node *root;
    bool ok;
};

static void parse(struct arena *a, const char *text, struct parsed *p)
{
    source_init(&p->src, a, "t.yaml", (const uint8_t *)text, strlen(text));
    diag_init(&p->d, a);
    p->ok = yaml_parse(a, &p->src, "config", &p->d, &p->root);
}

/* The diagnostics of p in GNU format. */
static const char *messages(struct arena *a, struct parsed *p)
{
    struct buf b;
    buf_init(&b, a);
    struct report_opts o = {REPORT_GNU, false, false};
    report_render(&b, &p->src, &p->d, &o);
    return buf_cstr(&b);
}

static struct source_pos pos_of(struct parsed *p, const struct yaml_node *n)
{
    return source_pos(&p->src, n->pos);
}

static void tree_and_positions(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct parsed p;
    parse(a, "version: 1\nlist: [a, \"b c\"]\nmap:\n  k: v\nempty:\nq: 'x'\n", &p);
    assert_true(p.ok);
    assert_int_equal(p.root->kind, YAML_MAP);
    assert_int_equal(p.root->n, 5);
    const struct yaml_node *v = yaml_map_get(p.root, "version");
    assert_string_equal(v->text, "1");
    assert_int_equal(v->style, YAML_STYLE_PLAIN);
    assert_int_equal(pos_of(&p, v).line, 1);
    assert_int_equal(pos_of(&p, v).col, 10);
    const struct yaml_node *l = yaml_map_get(p.root, "list");
    assert_int_equal(l->kind, YAML_SEQ);
    assert_int_equal(l->n, 2);
    assert_string_equal(l->kids[1]->text, "b c");
    assert_int_equal(l->kids[1]->style, YAML_STYLE_DOUBLE);
    /* a double-quoted scalar starts just after its quote */
    assert_int_equal(pos_of(&p, l->kids[1]).col, 12);
    const struct yaml_node *m = yaml_map_get(p.root, "map");
    assert_string_equal(yaml_map_get(m, "k")->text, "v");
    assert_int_equal(pos_of(&p, m).line, 4);
    const struct yaml_node *e = yaml_map_get(p.root, "empty");
    assert_int_equal(e->kind, YAML_NULL);
    assert_int_equal(pos_of(&p, e).line, 5); /* at its key */
    assert_int_equal(yaml_map_get(p.root, "q")->style, YAML_STYLE_SINGLE);
    assert_null(yaml_map_get(p.root, "missing"));
    assert_null(yaml_map_get(v, "version"));
    arena_free(a);
}

static void empty_text_is_null(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct parsed p;
    parse(a, "# only a comment\n", &p);
    assert_true(p.ok);
    assert_int_equal(p.root->kind, YAML_NULL);
    parse(a, "", &p);
    assert_true(p.ok);
    assert_int_equal(p.root->kind, YAML_NULL);
    arena_free(a);
}

static void errors_have_positions_and_hints(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct parsed p;
    parse(a, "a: 1\na: 2\n", &p);
    assert_false(p.ok);
    assert_string_equal(messages(a, &p), "t.yaml:2:1: error: duplicate key [config]\n");
    parse(a, "x: 1\nexpand: `(and ,v)\n", &p);
    assert_false(p.ok);
    assert_string_equal(messages(a, &p),
                        "t.yaml:2:9: error: plain scalar cannot start with '`'; "
                        "quote the value or use a | block [config]\n");
    parse(a, "a: [x, y\nb: 2\n", &p);
    assert_false(p.ok);
    assert_non_null(strstr(messages(a, &p), "not closed is earlier in the file"));
    /* columns count characters, not bytes */
    parse(a, "\xC3\xA9\xC3\xA9: `x`\n", &p);
    assert_false(p.ok);
    assert_non_null(strstr(messages(a, &p), "t.yaml:1:5: error:"));
    arena_free(a);
}

static void aliases_and_complex_keys_rejected(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct parsed p;
    parse(a, "a: &x 1\nb: *x\n", &p);
    assert_false(p.ok);
    assert_string_equal(messages(a, &p),
                        "t.yaml:2:4: error: aliases are not supported here [config]\n");
    parse(a, "? [a]\n: b\n", &p);
    assert_false(p.ok);
    assert_non_null(strstr(messages(a, &p), "a mapping key must be a scalar"));
    arena_free(a);
}

/* libfyaml reads up to a NUL byte and builds the first document only:
 * the rest of such a file would be dropped unseen. */
static void nul_byte_and_second_document_rejected(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct parsed p;
    static const char nul[] = "version: 1\nwidth: 1\0tail: [\n";
    source_init(&p.src, a, "t.yaml", (const uint8_t *)nul, sizeof nul - 1);
    diag_init(&p.d, a);
    assert_false(yaml_parse(a, &p.src, "config", &p.d, &p.root));
    assert_string_equal(messages(a, &p), "t.yaml:2:9: error: a NUL byte: a YAML file "
                                         "is text (nothing after it would be read) "
                                         "[config]\n");
    parse(a, "version: 1\n---\nversion: 2\n", &p);
    assert_false(p.ok);
    assert_string_equal(messages(a, &p), "t.yaml:2:1: error: a second YAML document: "
                                         "the file must hold exactly one [config]\n");
    parse(a, "---\nversion: 1\n...\n", &p); /* one document, marked */
    assert_true(p.ok);
    parse(a, "a: 1\n...\n---\nb: [\n", &p); /* the second one's errors too */
    assert_false(p.ok);
    assert_non_null(strstr(messages(a, &p), "t.yaml:3:1: error: a second YAML document"));
    /* a directive after the start was dropped; one with a byte that is
     * not UTF-8 made libfyaml loop forever */
    parse(a, "version: 1\n%exclude: [x]\n", &p);
    assert_false(p.ok);
    assert_string_equal(messages(a, &p), "t.yaml:2:1: error: a line starting with '%' "
                                         "is a YAML directive, which may only come before "
                                         "the document; indent or quote the text [config]\n");
    parse(a, "%\xC6\nversion: 1\n", &p);
    assert_false(p.ok);
    assert_string_equal(messages(a, &p), "t.yaml:1:2: error: a byte that is not UTF-8: "
                                         "a YAML file is UTF-8 text [config]\n");
    /* in a | block, libfyaml returned other bytes than the text's */
    parse(a, "k: |\n  \x1c a\n  b\n", &p);
    assert_false(p.ok);
    assert_string_equal(messages(a, &p), "t.yaml:2:3: error: a control character: a YAML "
                                         "file is printable text (write it as an escape "
                                         "in a double-quoted string) [config]\n");
    parse(a, "k: \"\\x1c\\t\"\nl: \"\xC2\x85\"\n", &p); /* escapes, NEL: fine */
    assert_true(p.ok);
    parse(a, "# c\n%YAML 1.2\n---\nversion: 1\n", &p); /* directives first: fine */
    assert_true(p.ok);
    arena_free(a);
}

/* Duplicate keys, however quoted, in any mapping; finding them compares
 * each key with few others (libfyaml compared it with every earlier one:
 * 20,000 keys took seconds). */
static void duplicate_keys_in_linear_time(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct parsed p;
    parse(a, "m:\n  a: 1\n  \"a\": 2\n  b: {x: 1, 'x': 2}\n  ? \n  : 3\n  ? \n  : 4\n"
             "  \"\": 5\n", &p);
    assert_false(p.ok);
    diag_sort(&p.d);
    /* an empty key is said at its value */
    assert_string_equal(messages(a, &p), "t.yaml:3:4: error: duplicate key [config]\n"
                                         "t.yaml:4:14: error: duplicate key [config]\n"
                                         "t.yaml:8:5: error: duplicate key [config]\n");
    enum { N = 20000 };
    struct buf b;
    buf_init(&b, a);
    for (int i = 0; i < N; i++)
        buf_printf(&b, "key-%d: %d\n", i, i);
    size_t before = yaml_key_compares();
    parse(a, buf_cstr(&b), &p);
    assert_true(p.ok);
    assert_int_equal(p.root->n, N);
    size_t compares = yaml_key_compares() - before;
    print_message("%d distinct keys: %zu key comparisons\n", N, compares);
    assert_true(compares < 2 * (size_t)N);
    buf_printf(&b, "key-%d: again\n", N / 2);
    parse(a, buf_cstr(&b), &p);
    assert_false(p.ok);
    assert_int_equal(p.d.n, 1);
    arena_free(a);
}

static void too_deep_is_an_error(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    char text[1024] = "a: ";
    for (int i = 0; i < 300; i++)
        strcat(text, "[");
    struct parsed p;
    parse(a, text, &p);
    assert_false(p.ok);
    assert_true(p.d.n_errors >= 1);
    arena_free(a);
}

static void literal_block_offsets(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct parsed p;
    const char *text = "m:\n  expand: |\n    `(and\n\n      ,v)\n";
    parse(a, text, &p);
    assert_true(p.ok);
    const struct yaml_node *e = yaml_map_get(yaml_map_get(p.root, "m"), "expand");
    assert_string_equal(e->text, "`(and\n\n  ,v)\n");
    assert_int_equal(e->style, YAML_STYLE_LITERAL);
    /* "`" is at line 3, column 5; ",v" at line 5, column 7 */
    struct source_pos q = source_pos(&p.src, yaml_text_offset(&p.src, e, 0));
    assert_int_equal(q.line, 3);
    assert_int_equal(q.col, 5);
    q = source_pos(&p.src, yaml_text_offset(&p.src, e, 9));
    assert_int_equal(q.line, 5);
    assert_int_equal(q.col, 7);
    /* quoted on one line: the offset is added */
    parse(a, "k: \"(a b)\"\n", &p);
    q = source_pos(&p.src, yaml_text_offset(&p.src, yaml_map_get(p.root, "k"), 3));
    assert_int_equal(q.col, 8);
    arena_free(a);
}

/* Emit s as a value, parse it back, and compare. */
/* s as the value of a top-level key, an item of a list, and the value
 * of keys two and three levels down (pattern-macros.NAME.expand). */
static void round_trip(struct arena *a, const char *s, size_t n)
{
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "k", yaml_new_string(a, s, n));
    struct yaml_node *l = yaml_new(a, YAML_SEQ);
    yaml_push(a, l, yaml_new_string(a, s, n));
    yaml_put(a, m, "l", l);
    struct yaml_node *deep = yaml_new(a, YAML_MAP), *deeper = yaml_new(a, YAML_MAP);
    yaml_put(a, deeper, "expand", yaml_new_string(a, s, n));
    yaml_put(a, deep, "name", deeper);
    yaml_put(a, m, "deep", deep);
    struct buf b;
    buf_init(&b, a);
    yaml_emit(&b, m, YAML_EMIT_BLOCK);
    struct parsed p;
    parse(a, buf_cstr(&b), &p);
    if (!p.ok)
        fail_msg("emitted YAML does not parse: %s%s", buf_cstr(&b), messages(a, &p));
    const struct yaml_node *k = yaml_map_get(p.root, "k");
    const struct yaml_node *i = yaml_map_get(p.root, "l")->kids[0];
    const struct yaml_node *e =
        yaml_map_get(yaml_map_get(yaml_map_get(p.root, "deep"), "name"), "expand");
    if (k->len != n || memcmp(k->text, s, n) != 0 || i->len != n ||
        memcmp(i->text, s, n) != 0 || !e || e->len != n || memcmp(e->text, s, n) != 0)
        fail_msg("no round trip for [%.*s]: %s", (int)n, s, buf_cstr(&b));
}

static void strings_read_back(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    static const char *const cases[] = {
        "plain", "cond*", "pcase-let*", " lead", "trail ", "#foo", "a #b", "",
        "yes", "No", "null", "~", "true", "80", "-1", "0x10", ".5", "-", "- x",
        "x: y", "[a]", "{a}", "a,b", "*-autoloads.el", "vendor/**", "`(a ,b)",
        "(funcall #'f x)", "'q", "\"dq\"", "back\\slash", "tab\there",
        "two\nlines", "two\nlines\n", "ends\n\n\n", "\nlead newline",
        "  indented\nblock\n", "\n", "\n\n", "cr\r\nlf", "nul\001x", "\x7f",
        "\xC3\xA9t\xC3\xA9", "u2028\xE2\x80\xA8x", "bom\xEF\xBB\xBF", "@at",
        "%pct", "&amp", "!bang", "|pipe", ">gt", "?q", "line\n  indented\n",
        "trailing space \nline\n", "a\n \nb\n", "\tlead tab\nx\n",
        "# not a comment\n  - item: x\n", "crlf\r\nin block\n", "--- \n...\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        round_trip(a, cases[i], strlen(cases[i]));
    round_trip(a, "a\0b", 3); /* was written plain, the NUL raw */
    arena_free(a);
}

static void block_layout(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct yaml_node *m = yaml_new(a, YAML_MAP);
    yaml_put(a, m, "version", yaml_new_int(a, 1));
    struct yaml_node *out = yaml_new(a, YAML_MAP);
    yaml_put(a, out, "width", yaml_new_int(a, 80));
    yaml_put(a, out, "named", yaml_new_bool(a, true));
    yaml_put(a, m, "output", out);
    struct yaml_node *l = yaml_new(a, YAML_SEQ);
    yaml_push(a, l, yaml_new_string(a, "pcase", 5));
    yaml_push(a, l, yaml_new_string(a, "cond*", 5));
    yaml_put(a, m, "only", l);
    yaml_put(a, m, "none", yaml_new(a, YAML_SEQ));
    yaml_put(a, m, "nomap", yaml_new(a, YAML_MAP));
    yaml_put(a, m, "code", yaml_new_string(a, "`(a\n  ,b)\n", 10));
    struct buf b;
    buf_init(&b, a);
    yaml_emit(&b, m, YAML_EMIT_BLOCK);
    assert_string_equal(buf_cstr(&b), "version: 1\n"
                                      "output:\n"
                                      "  width: 80\n"
                                      "  named: true\n"
                                      "only: [pcase, cond*]\n"
                                      "none: []\n"
                                      "nomap: {}\n"
                                      "code: |\n"
                                      "  `(a\n"
                                      "    ,b)\n");
    buf_init(&b, a);
    yaml_emit(&b, m, YAML_EMIT_JSON);
    assert_string_equal(buf_cstr(&b),
                        "{\"version\":1,\"output\":{\"width\":80,\"named\":true},"
                        "\"only\":[\"pcase\",\"cond*\"],\"none\":[],\"nomap\":{},"
                        "\"code\":\"`(a\\n  ,b)\\n\"}");
    /* a list whose item is a list of lists (was "- []") */
    struct yaml_node *outer = yaml_new(a, YAML_SEQ), *mid = yaml_new(a, YAML_SEQ);
    struct yaml_node *inner = yaml_new(a, YAML_SEQ);
    yaml_push(a, inner, yaml_new_string(a, "pc", 2));
    yaml_push(a, mid, inner);
    yaml_push(a, outer, mid);
    buf_init(&b, a);
    yaml_emit(&b, outer, YAML_EMIT_BLOCK);
    assert_string_equal(buf_cstr(&b), "-\n  - [pc]\n");
    struct parsed p;
    parse(a, buf_cstr(&b), &p);
    assert_true(p.ok);
    assert_string_equal(p.root->kids[0]->kids[0]->kids[0]->text, "pc");
    arena_free(a);
}

static void json_escapes(void **state)
{
    (void)state;
    struct arena *a = support_arena();
    struct buf b;
    buf_init(&b, a);
    yaml_emit(&b, yaml_new_string(a, "q\"\\\t\001\xff\xE2\x80\xA8", 9), YAML_EMIT_JSON);
    assert_string_equal(buf_cstr(&b), "\"q\\\"\\\\\\t\\u0001\\ufffd\xE2\x80\xA8\"");
    arena_free(a);
}

/* Parse with the arena's page allocation number n failing. */
static void parse_failing_at(long n)
{
    const char *text = "version: 1\nlist: [a, b, c]\nm: {k: v}\n";
    struct support_failing f = {n, 0};
    struct arena_backing back = support_failing_backing(&f);
    struct arena *a = arena_new(&back);
    if (!a)
        return; /* the arena's own header failed */
    jmp_buf jb;
    if (setjmp(jb) == 0) {
        arena_on_oom(a, &jb);
        struct parsed *p = ARENA_NEW(a, struct parsed);
        parse(a, text, p);
        assert_true(p->ok);
    }
    arena_free(a);
}

/* Every allocation of a parse may fail: the arena reports it, and no
 * libfyaml memory is left behind (valgrind and ASan check that). */
static void out_of_memory_leaks_nothing(void **state)
{
    (void)state;
    for (long n = 1; n < 40; n++)
        parse_failing_at(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_and_positions),
        cmocka_unit_test(empty_text_is_null),
        cmocka_unit_test(errors_have_positions_and_hints),
        cmocka_unit_test(aliases_and_complex_keys_rejected),
        cmocka_unit_test(nul_byte_and_second_document_rejected),
        cmocka_unit_test(duplicate_keys_in_linear_time),
        cmocka_unit_test(too_deep_is_an_error),
        cmocka_unit_test(literal_block_offsets),
        cmocka_unit_test(strings_read_back),
        cmocka_unit_test(block_layout),
        cmocka_unit_test(json_escapes),
        cmocka_unit_test(out_of_memory_leaks_nothing),
    };
    return SUPPORT_RUN(tests);
}
