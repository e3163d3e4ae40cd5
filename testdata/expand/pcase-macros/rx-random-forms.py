#!/usr/bin/env python3
"""Random rows for rx-forms.txt: rx forms built from every rx construct,
and rx-let rows whose definitions take parameters and &rest.

Usage: rx-random-forms.py SEED PLAIN LET  (rows on standard output)

The rows of rx-forms.txt's random section come from
`rx-random-forms.py 2025 300 200`; gen-rx-cases.el then gives Emacs's
answers.  The lazy operators *? +? ?? are left out: inside the error
messages of `not' and `intersection' Emacs 30 prints them unescaped
(pcexpand's printer escapes every ?).
"""
import random
import sys

seed, n_plain, n_let = (int(a) for a in sys.argv[1:4])
R = random.Random(seed)

CHARS = ['a', 'b', 'c', 'z', 'A', '0', '9', '-', '^', ']', '[', '\\\\', '.', '*',
         '?', '$', 'é', 'ü', ' ', '\\n', '\\t', ',', '/', '_', '~']
CHARLITS = ['?a', '?b', '?-', '?^', '?\\]', '?\\\\', '?é', '?\\n', '?z', '?0', '?\\s',
            '?.', '?,']
SYMS = ['nonl', 'anychar', 'unmatchable', 'bol', 'eol', 'bos', 'eos', 'point', 'bow',
        'eow', 'word-boundary', 'not-word-boundary', 'symbol-start', 'symbol-end',
        'not-wordchar', 'digit', 'space', 'alpha', 'word', 'upper', 'lower', 'xdigit',
        'punct', 'ascii', 'nonascii', 'blank', 'cntrl', 'graph', 'print', 'alnum',
        'any', 'bot', 'eot']
CLASSES = ['digit', 'space', 'alpha', 'word', 'upper', 'lower', 'xdigit', 'punct',
           'ascii', 'blank', 'alnum']


def string(k=None):
    k = R.choice([0, 1, 1, 1, 2, 3]) if k is None else k
    return '"' + ''.join(R.choice(CHARS) for _ in range(k)) + '"'


def char():
    return R.choice(CHARLITS)


def any_arg():
    c = R.random()
    if c < 0.4:
        return string(R.choice([1, 2, 3, 4]))
    if c < 0.6:
        return char()
    if c < 0.75:
        return '(%s . %s)' % (char(), char())
    return R.choice(CLASSES)


def charset(d):
    c = R.random()
    if c < 0.3 or d > 3:
        return '(any %s)' % ' '.join(any_arg() for _ in range(R.randint(0, 3)))
    if c < 0.45:
        return char()
    if c < 0.55:
        return string(1)
    if c < 0.65:
        return R.choice(['nonl', 'anychar', 'unmatchable'] + CLASSES)
    if c < 0.75:
        return '(not %s)' % charset(d + 1)
    if c < 0.87:
        return '(or %s)' % ' '.join(charset(d + 1) for _ in range(R.randint(0, 3)))
    return '(intersection %s)' % ' '.join(charset(d + 1) for _ in range(R.randint(0, 3)))


def rx(d=0):
    if d > 3 or R.random() < 0.2:
        return R.choice([string(), char(), R.choice(SYMS)])

    def items():
        return ' '.join(rx(d + 1) for _ in range(R.randint(0, 3)))
    forms = [
        lambda: '(seq %s)' % items(),
        lambda: '(or %s)' % items(),
        lambda: '(or %s)' % ' '.join(R.choice([string(), char(), charset(d + 1), rx(d + 1)])
                                     for _ in range(R.randint(1, 4))),
        lambda: charset(d),
        lambda: '(not %s)' % R.choice([charset(d + 1), rx(d + 1), '(syntax word)',
                                        '(category latin)', 'word-boundary']),
        lambda: '(%s %s)' % (R.choice(['*', '+', '?', 'zero-or-more', 'one-or-more',
                                        'opt']), items()),
        lambda: '(%s %d %s)' % (R.choice(['=', '>=', 'repeat']), R.randint(0, 3), items()),
        lambda: '(** %d %d %s)' % (R.randint(0, 2), R.randint(0, 3), items()),
        lambda: '(group %s)' % items(),
        lambda: '(group-n %d %s)' % (R.randint(1, 3), items()),
        lambda: '(backref %d)' % R.randint(1, 3),
        lambda: '(%s %s)' % (R.choice(['syntax', 'not-syntax']),
                             R.choice(['word', 'whitespace', 'punctuation', 'symbol', '?w',
                                       '?-', '_', 'open-parenthesis'])),
        lambda: '(category %s)' % R.choice(['latin', 'greek', 'base', '?a']),
        lambda: '(literal %s)' % string(),
        lambda: '(regexp %s)' % R.choice(['"a"', '"ab"', '"[ab]"', '"\\\\(a\\\\)"',
                                          '"a\\\\|b"', '"\\\\w"', '""']),
        lambda: '(eval (quote %s))' % rx(d + 1),
        lambda: '(not-char %s)' % ' '.join(any_arg() for _ in range(R.randint(0, 2))),
        lambda: '(minimal-match %s)' % rx(d + 1),
        lambda: '(maximal-match %s)' % rx(d + 1),
    ]
    return R.choice(forms)()


def use():
    c = R.random()
    if c < 0.2:
        return 'd1'
    if c < 0.35:
        return '(d2 %s %s)' % (rx(2), rx(2))
    if c < 0.5:
        return '(d3 %s)' % ' '.join(rx(3) for _ in range(R.randint(0, 3)))
    if c < 0.6:
        return R.choice(['(not d4)', '(or d4 "zz")', '(intersection d4 (any "a-m"))',
                         '(or d1 d4)'])
    if c < 0.7:
        return '(d5 %s)' % char()
    if c < 0.75:
        return R.choice(['d2', '(d1)', '(d2 "a")', '(d5)', '(d5 ?a ?b)'])
    return rx(1)


def let_row():
    defs = '(d1 %s) (d2 (a b) %s) (d3 (&rest r) %s) (d4 %s) (d5 (x) %s)' % (
        rx(2),
        R.choice(['(seq a b)', '(or a b "c")', '(seq (* a) (+ b))',
                  '(seq (group a) (backref 1) b)', '(not a)', '(any a)']),
        R.choice(['(or r)', '(seq r)', '(seq "<" r ">")', '(any r)']),
        charset(2),
        R.choice(['(any (x . ?z))', '(seq x x)', '(not x)']))
    row = '(rx-let (%s) (seq %s))' % (defs, ' '.join(use() for _ in range(R.randint(1, 3))))
    if R.random() < 0.3:
        row = '(rx-let ((%s %s)) %s)' % (R.choice(['d0', 'd1']), rx(2), row)
    return row


for _ in range(n_plain):
    print('(seq %s)' % ' '.join(rx() for _ in range(R.randint(1, 3))))
for _ in range(n_let):
    print(let_row())
