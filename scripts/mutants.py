#!/usr/bin/env python3
"""Mutation testing of the decision targets: `make mutants`.

Each mutant is a small change to a rule (a flipped comparison, `&&` for
`||`, a boolean literal, a negated or removed condition, another enum case
returned); a good unit-test suite fails on it. The script writes every
mutant of a target into a copy of the package at once, each behind a switch
read at run time (mutant schemata: `(__dflMutant(17) ? mutated : original)`),
builds that copy once, and runs the target's unit tests once per mutant with
DFL_MUTANT=17. A mutant that does not type-check is found from the
compiler's errors, reported "not compiled" and left out of the next build.

The copy lives in build/mutants/<Target>/package with a manifest cut down to
the target's test target and what it needs, so that a build of one target
compiles nothing else; its build folder is kept between runs. The working
tree is never written to. Python's standard library only.
"""

import argparse
import concurrent.futures
import fnmatch
import glob
import json
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The decision targets: the module, its unit-test target, and the files
# mutated (globs relative to the repository). A new rule file is one more
# glob here.
TARGETS = [
    ("AgentWorkflows", "AgentWorkflowsTests", ["Sources/AgentWorkflows/*.swift"]),
    ("DesktopAppCore", "DesktopAppCoreTests", ["Sources/DesktopAppCore/*.swift"]),
    ("PanelIndicator", "PanelIndicatorTests", ["Sources/PanelIndicator/*.swift"]),
    (
        "SleepTimerCore",
        "SleepTimerCoreTests",
        [
            "Sources/SleepTimerCore/Domain/*.swift",
            "Sources/SleepTimerCore/Platform/*.swift",
            "Sources/SleepTimerCore/Text/*.swift",
            "Sources/SleepTimerCore/Limits/*.swift",
            "Sources/SleepTimerCore/Support/JSON.swift",
        ],
    ),
    ("LinkOpening", "LinkOpeningTests", ["Sources/LinkOpening/AppFailure+BusError.swift"]),
    (
        "WebViewBridge",
        "WebViewBridgeTests",
        [
            "Sources/WebViewBridge/TokenRequestRule.swift",
            "Sources/WebViewBridge/BridgeSessionMachine.swift",
            "Sources/WebViewBridge/TokenRenewalMachine.swift",
            "Sources/WebViewBridge/CallGateMachine.swift",
            "Sources/WebViewBridge/AgentIdentityRule.swift",
            "Sources/WebViewBridge/UpsertMachine.swift",
        ],
    ),
]

ENV_VAR = "DFL_MUTANT"
SWITCH = "__dflMutant"
SWITCH_FILE = "DFLMutantSwitch.swift"

# --------------------------------------------------------------------------
# Lexing: just enough Swift to tell code from comments and strings, and
# operators from generic brackets.

OPERATOR_CHARS = set("/=-+!*%<>&|^~?")
PUNCT = set("()[]{},;:")


class Token:
    __slots__ = ("kind", "text", "start", "end", "line", "ws_before", "nl_before")

    def __init__(self, kind, text, start, end, line, ws_before, nl_before):
        self.kind = kind  # ident, number, string, op, punct, dot, attr, pound
        self.text = text
        self.start = start
        self.end = end
        self.line = line
        self.ws_before = ws_before
        self.nl_before = nl_before

    def __repr__(self):
        return "Token(%s %r @%d)" % (self.kind, self.text, self.line)


def _skip_string(src, i):
    """The end of the string literal starting at src[i] (after any #s)."""
    n = len(src)
    hashes = 0
    while i < n and src[i] == "#":
        hashes += 1
        i += 1
    multiline = src.startswith('"""', i)
    quote = '"""' if multiline else '"'
    i += len(quote)
    closing = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < n:
        if src.startswith(escape, i):
            j = i + len(escape)
            if j < n and src[j] == "(":
                # An interpolation: code up to the matching parenthesis.
                depth = 0
                k = j
                while k < n:
                    c = src[k]
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    elif c == '"' or (c == "#" and src.startswith('"', k + 1)):
                        k = _skip_string(src, k) - 1
                    k += 1
                i = k + 1
            else:
                i = j + 1
            continue
        if src.startswith(closing, i):
            return i + len(closing)
        if not multiline and src[i] == "\n":
            return i  # unterminated: leave it
        i += 1
    return n


def tokenize(src):
    """Tokens of Swift source, without comments, strings kept whole, and the
    lines of `#if`, `#elseif`, `#else` and `#endif` left out."""
    tokens = []
    i = 0
    n = len(src)
    line = 1
    ws = True
    nl = True
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            ws = nl = True
            i += 1
            continue
        if c in " \t\r":
            ws = True
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            ws = True
            continue
        if src.startswith("/*", i):
            depth = 0
            j = i
            while j < n:
                if src.startswith("/*", j):
                    depth += 1
                    j += 2
                elif src.startswith("*/", j):
                    depth -= 1
                    j += 2
                    if depth == 0:
                        break
                else:
                    j += 1
            line += src.count("\n", i, j)
            if "\n" in src[i:j]:
                nl = True
            ws = True
            i = j
            continue
        start = i
        if c == '"' or (c == "#" and re.match(r'#+"', src[i:i + 8])):
            i = _skip_string(src, i)
            kind = "string"
        elif c == "#" and re.match(r"#(if|elseif|else|endif)\b", src[i:i + 8]):
            # A compiler directive: the whole line is left alone.
            j = src.find("\n", i)
            i = n if j < 0 else j
            ws = True
            continue
        elif c == "#":
            i += 1
            while i < n and (src[i].isalnum() or src[i] == "_"):
                i += 1
            kind = "pound"
        elif c == "@":
            i += 1
            while i < n and (src[i].isalnum() or src[i] == "_"):
                i += 1
            kind = "attr"
        elif c == "`":
            j = src.find("`", i + 1)
            i = j + 1
            kind = "ident"
        elif c.isalpha() or c == "_" or c == "$":
            i += 1
            while i < n and (src[i].isalnum() or src[i] == "_"):
                i += 1
            kind = "ident"
        elif c.isdigit():
            i += 1
            while i < n and (src[i].isalnum() or src[i] in "_."):
                if src[i] == "." and not (i + 1 < n and src[i + 1].isdigit()):
                    break
                i += 1
            kind = "number"
        elif c == "." and i + 1 < n and src[i + 1] in ".<":
            # A dot operator: ..., ..<
            i += 1
            while i < n and (src[i] in OPERATOR_CHARS or src[i] == "."):
                i += 1
            kind = "op"
        elif c == ".":
            i += 1
            kind = "dot"
        elif c in OPERATOR_CHARS:
            i += 1
            while i < n and src[i] in OPERATOR_CHARS:
                # `a?.b`, `a!.b`, `a?` are postfix; a comment may follow.
                if src.startswith("//", i) or src.startswith("/*", i):
                    break
                i += 1
            kind = "op"
        elif c in PUNCT:
            i += 1
            kind = "punct"
        else:
            i += 1
            kind = "other"
        text = src[start:i]
        tokens.append(Token(kind, text, start, i, line, ws, nl))
        line += text.count("\n")
        ws = nl = False
    return tokens


# --------------------------------------------------------------------------
# Finding mutants.

RELATIONAL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LOGICAL = {"&&": "||", "||": "&&"}
ASSIGNMENT = {"=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", "&+=", "&-=", "&*="}
COMPARISON = set(RELATIONAL) | {"===", "!==", "~="}
# Where an operand ends, whatever the operator.
STOP_WORDS = {
    "return", "if", "guard", "while", "else", "case", "where", "let", "var", "in", "throw", "throws",
    "switch", "repeat", "for", "do", "catch", "yield", "defer", "try", "await", "func", "init",
    "static", "public", "private", "internal", "fileprivate", "default", "break", "continue",
}
DECLARATION_WORDS = {
    "extension", "func", "struct", "class", "enum", "protocol", "init", "subscript", "typealias",
    "associatedtype", "actor",
}
OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = {v: k for k, v in OPENERS.items()}


def is_binary(tokens, i):
    """An operator with whitespace on both sides (Swift's binary form);
    `Set<String>` and `a?.b` are not."""
    t = tokens[i]
    if t.kind != "op" or not t.ws_before:
        return False
    return i + 1 < len(tokens) and tokens[i + 1].ws_before


def _stops(op, level, side):
    """Whether a binary operator `op` ends the operand on `side` ("left",
    "right") of an operator of `level` ("cmp", "and", "or"): by Swift's
    precedence, `&&` and `||` group to the left."""
    if op in ASSIGNMENT or op in ("?", "->"):
        return True
    if level == "cmp":
        return op in COMPARISON or op in LOGICAL
    if level == "and":
        return op == "||" or (side == "right" and op == "&&")
    return side == "right" and op == "||"


def left_start(tokens, i, level):
    """The index of the first token of the left operand of tokens[i]."""
    j = i - 1
    while j >= 0:
        t = tokens[j]
        nxt = tokens[j + 1]
        # A new line continues the expression only after or before a binary
        # operator, or before `.member`.
        if nxt.nl_before and not (is_binary(tokens, j + 1) or nxt.kind == "dot" or is_binary(tokens, j)):
            return j + 1
        if t.kind == "punct":
            if t.text in CLOSERS:
                j = _match_back(tokens, j)
                if j < 0:
                    return 0
                j -= 1
                continue
            return j + 1  # an opener, a comma, a colon
        if t.kind == "ident" and t.text in STOP_WORDS:
            return j + 1
        if t.kind in ("attr", "pound"):
            return j + 1
        if t.kind == "op" and is_binary(tokens, j) and _stops(t.text, level, "left"):
            return j + 1
        j -= 1
    return 0


def _trailing_closures(tokens, i):
    """Whether a `{` after tokens[i] can be a trailing closure: not in the
    condition of an `if`, `guard`, `while`, `for` or `switch`, where it
    opens the body."""
    j = i - 1
    while j >= 0:
        t = tokens[j]
        if t.kind == "punct" and t.text in CLOSERS:
            j = _match_back(tokens, j) - 1
            continue
        if t.kind == "punct" and t.text in ("(", "["):
            return True
        if t.kind == "punct" and t.text in ("{", "}", ";"):
            return True
        if t.kind == "ident" and t.text in ("if", "guard", "while", "for", "switch", "where"):
            return False
        if t.nl_before and not (is_binary(tokens, j) or t.kind == "dot" or (j > 0 and is_binary(tokens, j - 1))):
            return True  # the statement's first line
        j -= 1
    return True


def right_end(tokens, i, level):
    """The index of the last token of the right operand of tokens[i]."""
    n = len(tokens)
    j = i + 1
    last = i
    trailing = None
    while j < n:
        t = tokens[j]
        if j > i + 1 and t.nl_before and not (is_binary(tokens, j) or t.kind == "dot" or is_binary(tokens, j - 1)):
            return last
        if t.kind == "punct":
            if t.text == "{" and j > i + 1 and not t.nl_before and tokens[j - 1].kind in ("ident", "punct") \
                    and tokens[j - 1].text not in ("{", "(", "[", ",", ":"):
                if trailing is None:
                    trailing = _trailing_closures(tokens, i)
                if trailing:
                    j = _match_forward(tokens, j)
                    if j < 0:
                        return last
                    last = j
                    j += 1
                    continue
            if t.text in ("(", "["):
                j = _match_forward(tokens, j)
                if j < 0:
                    return last
                last = j
                j += 1
                continue
            return last  # `{`, a closer, a comma, a colon
        if t.kind == "ident" and t.text in STOP_WORDS:
            return last
        if t.kind in ("attr", "pound"):
            return last
        if t.kind == "op" and is_binary(tokens, j) and _stops(t.text, level, "right"):
            return last
        last = j
        j += 1
    return last


def _match_back(tokens, j):
    depth = 0
    while j >= 0:
        t = tokens[j]
        if t.kind == "punct" and t.text in CLOSERS:
            depth += 1
        elif t.kind == "punct" and t.text in OPENERS:
            depth -= 1
            if depth == 0:
                return j
        j -= 1
    return -1


def _match_forward(tokens, j):
    depth = 0
    while j < len(tokens):
        t = tokens[j]
        if t.kind == "punct" and t.text in OPENERS:
            depth += 1
        elif t.kind == "punct" and t.text in CLOSERS:
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


class Mutant:
    """One change: the tokens [first, last] of the source become `mutated`
    (a function of the rendering of what lies inside)."""

    PRIORITY = {"removed guard": 0, "negated condition": 1, "logical": 2, "relational": 3,
                "boolean literal": 4, "enum case": 4}

    def __init__(self, operator, first, last, line, original, replacement, op_index=None, new_text=None):
        self.operator = operator
        self.first = first
        self.last = last
        self.line = line
        self.original = original
        self.replacement = replacement
        self.op_index = op_index  # the token replaced, for operators and literals
        self.new_text = new_text
        self.id = 0
        self.file = ""
        self.dropped = None

    def describe(self):
        return "%s → %s" % (self.original, self.replacement)


def enum_cases(sources):
    """{enum name: [(case, has payload)]} of the enums declared in the
    given sources."""
    enums = {}
    for src in sources:
        tokens = tokenize(src)
        for k, t in enumerate(tokens):
            if t.kind != "ident" or t.text != "enum" or k + 1 >= len(tokens):
                continue
            name = tokens[k + 1].text
            j = k + 2
            while j < len(tokens) and tokens[j].text != "{":
                j += 1
            if j >= len(tokens):
                continue
            end = _match_forward(tokens, j)
            depth = 0
            cases = []
            m = j + 1
            while m < end:
                u = tokens[m]
                if u.kind == "punct" and u.text in OPENERS:
                    depth += 1
                elif u.kind == "punct" and u.text in CLOSERS:
                    depth -= 1
                elif depth == 0 and u.kind == "ident" and u.text == "case":
                    m += 1
                    while m < end:
                        v = tokens[m]
                        if v.kind != "ident":
                            break
                        payload = m + 1 < end and tokens[m + 1].text == "("
                        cases.append((v.text.strip("`"), payload))
                        m += 1
                        if payload:
                            m = _match_forward(tokens, m) + 1
                        if m < end and tokens[m].text == "=":
                            m += 2
                        if m < end and tokens[m].text == ",":
                            m += 1
                            continue
                        break
                    continue
                m += 1
            enums.setdefault(name, cases)
    return enums


def _return_type(tokens, i):
    """The last name of the nearest `-> Type` before tokens[i]."""
    j = i - 1
    while j >= 0:
        if tokens[j].kind == "op" and tokens[j].text == "->":
            name = None
            k = j + 1
            while k < len(tokens) and tokens[k].kind in ("ident", "dot"):
                if tokens[k].kind == "ident":
                    name = tokens[k].text
                k += 1
            return name
        j -= 1
    return None


def _in_case_pattern(tokens, i):
    """Whether tokens[i] is in a `case` pattern (before its `:`, `=` or
    `where`), where a literal is no expression a switch could replace:
    `case .saving(waitingForNetwork: true):` stays exhaustive."""
    enclosing = 0  # the parentheses and brackets around tokens[i]
    depth = 0
    for j in range(i - 1, -1, -1):
        t = tokens[j]
        if t.kind == "punct" and t.text in CLOSERS:
            depth += 1
        elif t.kind == "punct" and t.text in OPENERS:
            if depth > 0:
                depth -= 1
            elif t.text == "{":
                break
            else:
                enclosing += 1
    j = i - 1
    depth = 0
    outer = 0  # of those, the ones left behind
    while j >= 0:
        t = tokens[j]
        if t.kind == "punct" and t.text in CLOSERS:
            depth += 1
        elif t.kind == "punct" and t.text in OPENERS:
            if depth > 0:
                depth -= 1
            elif t.text == "{":
                return False
            else:
                outer += 1
        elif depth == 0:
            if t.text == "case":
                return True
            if t.text in ("where", "}", ";", "if", "guard", "return"):
                return False
            if outer == enclosing and t.text in (":", "="):
                return False
        j -= 1
    return False


def _generic_where(tokens, i):
    """Whether the `==` at tokens[i] is a same-type requirement of a
    declaration's `where` clause."""
    j = i - 1
    saw_where = False
    while j >= 0:
        t = tokens[j]
        if t.kind == "ident" and t.text == "where":
            saw_where = True
        if saw_where and t.kind == "ident" and t.text in DECLARATION_WORDS:
            return True
        if t.text in ("{", "}", ";") or (t.nl_before and not saw_where):
            return False
        if t.nl_before and saw_where:
            return False
        j -= 1
    return False


def _condition_clauses(tokens, k):
    """The clauses of the condition after `if`/`guard`/`while` at
    tokens[k]: [(first, last)], and the index of `{` or `else` ending it."""
    keyword = tokens[k].text
    j = k + 1
    clauses = []
    first = j
    while j < len(tokens):
        t = tokens[j]
        if t.kind == "punct" and t.text in ("(", "["):
            j = _match_forward(tokens, j)
            if j < 0:
                return [], None
            j += 1
            continue
        if keyword == "guard" and t.kind == "ident" and t.text == "else":
            break
        if t.kind == "punct" and t.text == "{" and keyword != "guard":
            break
        if t.kind == "punct" and t.text == "{" and keyword == "guard":
            # A closure in a guard's condition: skip it.
            j = _match_forward(tokens, j)
            if j < 0:
                return [], None
            j += 1
            continue
        if t.kind == "punct" and t.text == ",":
            clauses.append((first, j - 1))
            first = j + 1
        j += 1
    if j >= len(tokens):
        return [], None
    clauses.append((first, j - 1))
    return clauses, j


def _plain_boolean(tokens, first, last):
    if first > last:
        return False
    head = tokens[first]
    if head.text in ("let", "var", "case", "#available", "#unavailable", "try", "await"):
        return False
    for t in tokens[first:last + 1]:
        if (t.kind == "op" and t.text == "=") or t.text in ("let", "var"):
            return False
    return True


def _single_equality(tokens, first, last):
    """Whether a clause is one `A == B` or `A != B` at its top level, whose
    negation is the same mutant as the operator's."""
    ops = []
    depth = 0
    for j in range(first, last + 1):
        t = tokens[j]
        if t.kind == "punct" and t.text in OPENERS:
            depth += 1
        elif t.kind == "punct" and t.text in CLOSERS:
            depth -= 1
        elif depth == 0 and t.kind == "op" and is_binary(tokens, j) and (t.text in COMPARISON or t.text in LOGICAL):
            ops.append(t.text)
    return ops in (["=="], ["!="])


def find_mutants(src, enums=None):
    """Every mutant of one Swift source, in source order, and what was
    skipped ([(line, reason)])."""
    tokens = tokenize(src)
    enums = enums or {}
    mutants = []
    skipped = []

    def text(first, last):
        return " ".join(src[tokens[first].start:tokens[last].end].split())

    for i, t in enumerate(tokens):
        prev = tokens[i - 1] if i > 0 else None
        if t.kind == "op" and t.text in RELATIONAL and is_binary(tokens, i):
            if prev is not None and prev.text in ("func", "operator"):
                continue
            if t.text == "==" and _generic_where(tokens, i):
                skipped.append((t.line, "same-type requirement `==` of a `where` clause"))
                continue
            a = left_start(tokens, i, "cmp")
            b = right_end(tokens, i, "cmp")
            if a >= i or b <= i:
                skipped.append((t.line, "operand not found for `%s`" % t.text))
                continue
            new = RELATIONAL[t.text]
            mutants.append(Mutant("relational", a, b, t.line, t.text, new, op_index=i, new_text=new))
        elif t.kind == "op" and t.text in LOGICAL and is_binary(tokens, i):
            level = "and" if t.text == "&&" else "or"
            a = left_start(tokens, i, level)
            b = right_end(tokens, i, level)
            if a >= i or b <= i:
                skipped.append((t.line, "operand not found for `%s`" % t.text))
                continue
            new = LOGICAL[t.text]
            mutants.append(Mutant("logical", a, b, t.line, t.text, new, op_index=i, new_text=new))
        elif t.kind == "ident" and t.text in ("true", "false"):
            if prev is not None and prev.kind == "dot":
                continue
            if prev is not None and prev.text == "while":
                skipped.append((t.line, "`while %s`, which the compiler reads for the flow of control" % t.text))
                continue
            if _in_case_pattern(tokens, i):
                skipped.append((t.line, "`%s` in a case pattern" % t.text))
                continue
            new = "false" if t.text == "true" else "true"
            mutants.append(Mutant("boolean literal", i, i, t.line, t.text, new, op_index=i, new_text=new))
        elif t.kind == "ident" and t.text in ("if", "guard") and (prev is None or prev.kind != "dot"):
            if i + 1 < len(tokens) and tokens[i + 1].text == "case":
                continue
            clauses, end = _condition_clauses(tokens, i)
            if end is None:
                continue
            for first, last in clauses:
                if not _plain_boolean(tokens, first, last):
                    continue
                clause = text(first, last)
                if t.text == "guard":
                    mutants.append(Mutant("removed guard", first, last, tokens[first].line, clause, "true"))
                if not _single_equality(tokens, first, last):
                    mutants.append(Mutant("negated condition", first, last, tokens[first].line, clause,
                                          "!(%s)" % clause))
        elif t.kind == "ident" and t.text == "return" and i + 2 < len(tokens):
            dot, name = tokens[i + 1], tokens[i + 2]
            if dot.kind != "dot" or name.kind != "ident" or dot.nl_before:
                continue
            after = tokens[i + 3] if i + 3 < len(tokens) else None
            if after is not None and not (after.nl_before or after.text in ("}", ";")):
                continue
            case = name.text
            candidates = [e for e, cases in enums.items()
                          if (case, False) in cases and sum(1 for c in cases if not c[1]) > 1]
            if not candidates:
                continue
            if len(candidates) > 1:
                wanted = _return_type(tokens, i)
                if wanted in candidates:
                    candidates = [wanted]
            plain = [c for c, payload in enums[candidates[0]] if not payload]
            other = plain[(plain.index(case) + 1) % len(plain)]
            mutants.append(Mutant("enum case", i + 1, i + 2, t.line, "." + case, "." + other,
                                  new_text="." + other))
    mutants.sort(key=lambda m: (tokens[m.first].start, -tokens[m.last].end, Mutant.PRIORITY[m.operator]))
    return tokens, mutants, skipped


# --------------------------------------------------------------------------
# Writing the schemata.


def render(src, tokens, mutants):
    """The source with every mutant behind its switch, and for each mutant
    the spans (start, end) of the output it owns: [(whole, mutated part)]."""
    spans = {}
    out = []
    pos = [0]

    def emit(s):
        out.append(s)
        pos[0] += len(s)

    def region(a, b, ms):
        """Emits src[a:b] with the mutants ms (sorted, inside [a, b))."""
        cursor = a
        k = 0
        while k < len(ms):
            m = ms[k]
            ma, mb = tokens[m.first].start, tokens[m.last].end
            inner = []
            k += 1
            while k < len(ms):
                n = ms[k]
                na, nb = tokens[n.first].start, tokens[n.last].end
                if na >= mb:
                    break
                if nb <= mb:
                    inner.append(n)
                else:
                    n.dropped = "overlaps mutant %d" % m.id
                k += 1
            emit(src[cursor:ma])
            whole_start = pos[0]
            emit("(%s(%d) ? (" % (SWITCH, m.id))
            mutated_start = pos[0]
            if m.operator in ("relational", "logical"):
                op = tokens[m.op_index]
                region(ma, op.start, [n for n in inner if tokens[n.last].end <= op.start])
                emit(m.new_text)
                region(op.end, mb, [n for n in inner if tokens[n.first].start >= op.end])
            elif m.operator == "negated condition":
                emit("!(")
                region(ma, mb, inner)
                emit(")")
            elif m.operator == "removed guard":
                emit("true")
            else:
                emit(m.new_text)
            mutated_end = pos[0]
            emit(") : (")
            region(ma, mb, inner)
            emit("))")
            spans.setdefault(m.id, []).append(((whole_start, pos[0]), (mutated_start, mutated_end)))
            cursor = mb
        emit(src[cursor:b])

    live = [m for m in mutants if not getattr(m, "dropped", None)]
    region(0, len(src), live)
    return "".join(out), spans


SWITCH_SOURCE = """\
// Mutation testing: the mutant switched on for this process, from the
// environment, read once.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private let dflActiveMutant: Int = {
    guard let raw = getenv("%s") else { return 0 }
    return Int(String(cString: raw)) ?? 0
}()

@inline(never)
public func %s(_ id: Int) -> Bool { id == dflActiveMutant }
""" % (ENV_VAR, SWITCH)


# --------------------------------------------------------------------------
# The copy of the package.


def source_files():
    """The working tree's files as git sees them (tracked and new, not
    ignored), relative to the root."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                             capture_output=True, check=True).stdout.decode()
        return [p for p in out.split("\0") if p and os.path.isfile(os.path.join(ROOT, p))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for base, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "build"]
            files += [os.path.relpath(os.path.join(base, n), ROOT) for n in names]
        return files


def write_if_changed(path, data):
    """Writes only what differs, so that the copy's build stays incremental."""
    if isinstance(data, str):
        data = data.encode()
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return True


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def dependency_closure(dump, test_target):
    by_name = {t["name"]: t for t in dump["targets"]}
    keep = set()
    todo = [test_target]
    while todo:
        name = todo.pop()
        if name in keep or name not in by_name:
            continue
        keep.add(name)
        for dep in by_name[name].get("dependencies", []):
            for kind in ("byName", "target"):
                if kind in dep:
                    todo.append(dep[kind][0])
    dirs = set()
    for name in keep:
        t = by_name[name]
        if t.get("path"):
            dirs.add(t["path"].rstrip("/"))
        else:
            dirs.add(("Tests/" if t["type"] == "test" else "Sources/") + name)
    return keep, dirs


def prepare_copy(target, test_target, package, log, own=()):
    """Brings build/mutants/<target>/package up to the working tree, its
    manifest cut down to `test_target` and its dependencies. The files in
    `own` (the mutated sources, the switch) are the caller's to write."""
    files = source_files()
    manifest = read(os.path.join(ROOT, "Package.swift"))
    write_if_changed(os.path.join(package, "Package.swift"), manifest)
    dump_path = os.path.join(package, "..", "manifest.json")
    dump = None
    if os.path.exists(dump_path):
        cached = json.loads(read(dump_path))
        if cached.get("manifest") == manifest:
            dump = cached["dump"]
    if dump is None:
        log("  reading the manifest")
        out = subprocess.run(["swift", "package", "dump-package"], cwd=package, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit("mutants: swift package dump-package failed:\n" + out.stderr)
        dump = json.loads(out.stdout)
        write_if_changed(dump_path, json.dumps({"manifest": manifest, "dump": dump}))
    keep, dirs = dependency_closure(dump, test_target)
    wanted = set()
    for rel in files:
        top = rel.split("/")[0]
        if top in ("Sources", "Tests"):
            if not any(rel.startswith(d + "/") for d in dirs):
                continue
        elif rel == "Package.swift":
            continue
        wanted.add(rel)
        if rel in own:
            continue
        with open(os.path.join(ROOT, rel), "rb") as f:
            write_if_changed(os.path.join(package, rel), f.read())
    # The translations some tests read.
    for locale_file in glob.glob(os.path.join(ROOT, "build", "locale", "**", "*.mo"), recursive=True):
        rel = os.path.relpath(locale_file, ROOT)
        wanted.add(rel)
        with open(locale_file, "rb") as f:
            write_if_changed(os.path.join(package, rel), f.read())
    # Files gone from the tree go from the copy too.
    for base, subdirs, names in os.walk(package):
        subdirs[:] = [d for d in subdirs if d not in (".build", ".swiftpm")]
        for name in names:
            rel = os.path.relpath(os.path.join(base, name), package)
            if rel == "Package.swift" or rel in wanted or rel in own:
                continue
            os.remove(os.path.join(base, name))
    cut = manifest + (
        "\n// Mutation testing: only %s and what it needs.\n"
        "let dflMutantKeep: Set<String> = [%s]\n"
        "package.targets = package.targets.filter { dflMutantKeep.contains($0.name) }\n"
        "package.products = []\n" % (test_target, ", ".join('"%s"' % k for k in sorted(keep)))
    )
    write_if_changed(os.path.join(package, "Package.swift"), cut)
    return dump


# --------------------------------------------------------------------------
# Building and running.

ERROR_RE = re.compile(r"^(/[^:\n]+\.swift):(\d+):(\d+): error: (.*)$", re.M)


def build(package, log, jobs=None):
    command = ["swift", "build", "--build-tests"]
    if jobs:
        command += ["-j", str(jobs)]
    started = time.time()
    out = subprocess.run(command, cwd=package, capture_output=True, text=True)
    log("  build: %s in %.0f s" % ("ok" if out.returncode == 0 else "errors", time.time() - started))
    return out.returncode == 0, out.stdout + out.stderr


def offset_of(text, line, column):
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    if line - 1 >= len(starts):
        return len(text)
    return starts[line - 1] + max(column - 1, 0)


def blame(errors, rendered, spans_by_file):
    """The mutants the compiler's errors fall in: the innermost mutated part
    holding an error, else the innermost whole schema; None when an error is
    outside every mutant."""
    guilty = {}
    for path, line, column, message in errors:
        rel = None
        for candidate in rendered:
            if path.endswith("/" + candidate):
                rel = candidate
        if rel is None:
            return None, (path, line, message)
        offset = offset_of(rendered[rel], int(line), int(column))
        best = None
        for mid, spans in spans_by_file[rel].items():
            for (ws, we), (ms, me) in spans:
                if ms <= offset < me and (best is None or me - ms < best[0]):
                    best = (me - ms, mid)
        if best is None:
            for mid, spans in spans_by_file[rel].items():
                for (ws, we), (ms, me) in spans:
                    if ws <= offset < we and (best is None or we - ws < best[0]):
                        best = (we - ws, mid)
        if best is None:
            return None, (path, line, message)
        guilty.setdefault(best[1], message.strip())
    return guilty, None


FAIL_RE = re.compile(r"✘ Test (.+?) (?:recorded an issue|failed)")


def test_binary(package):
    """The copy's test program: run directly, it starts in a fraction of
    the time `swift test --skip-build` takes, and it holds only the one
    test target the cut-down manifest keeps."""
    found = glob.glob(os.path.join(package, ".build", "debug", "*PackageTests.xctest"))
    if not found:
        raise SystemExit("mutants: no test program in %s/.build/debug" % package)
    return found[0]


def run_tests(binary, mutant, timeout):
    """(outcome, detail, seconds) of the unit tests with one mutant on."""
    env = dict(os.environ)
    env[ENV_VAR] = str(mutant)
    command = [binary, "--testing-library", "swift-testing"]
    started = time.time()
    process = subprocess.Popen(command, cwd=os.path.dirname(os.path.dirname(os.path.dirname(binary))), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return "timeout", "no end after %d s" % timeout, time.time() - started
    seconds = time.time() - started
    output = re.sub(r"\x1b\[[0-9;]*m", "", output.decode(errors="replace"))
    if process.returncode == 0:
        return "survived", "", seconds
    found = FAIL_RE.search(output)
    if found:
        return "killed", found.group(1), seconds
    crash = re.search(r"(Fatal error[^\n]*|Precondition failed[^\n]*)", output)
    if crash:
        return "killed", "crashed: " + crash.group(1).strip(), seconds
    if process.returncode < 0:
        return "killed", "crashed: signal %d" % -process.returncode, seconds
    return "killed", "exit status %d" % process.returncode, seconds


# --------------------------------------------------------------------------


def collect(target_filter=None, file_filter=None):
    """[(target, test target, [(file, source, tokens, mutants, skipped)])].
    A mutant's id is its place among all the mutants of all the targets,
    so that it is the same in a run of one target or file."""
    plan = []
    next_id = 1
    for target, test_target, patterns in TARGETS:
        files = sorted({os.path.relpath(p, ROOT) for pat in patterns for p in glob.glob(os.path.join(ROOT, pat))})
        all_sources = [read(p) for p in glob.glob(os.path.join(ROOT, "Sources", target, "**", "*.swift"),
                                                  recursive=True)]
        enums = enum_cases(all_sources)
        entries = []
        for rel in files:
            src = read(os.path.join(ROOT, rel))
            tokens, mutants, skipped = find_mutants(src, enums)
            for m in mutants:
                m.id = next_id
                m.file = rel
                next_id += 1
            if file_filter and not any(rel == x or rel.endswith("/" + x) or fnmatch.fnmatch(rel, x)
                                       for x in file_filter):
                continue
            entries.append((rel, src, tokens, mutants, skipped))
        if entries and (not target_filter or target in target_filter):
            plan.append((target, test_target, entries))
    return plan


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", action="append", help="only this target (again for more)")
    parser.add_argument("--file", action="append", help="only this file (path, its end, or a glob)")
    parser.add_argument("--list", action="store_true", help="list the mutants; build and run nothing")
    parser.add_argument("--mutant", type=int, action="append", help="only this mutant id (again for more)")
    parser.add_argument("--timeout", type=float, default=0,
                        help="seconds a test run may take (default: ten times the clean run, at least 30)")
    parser.add_argument("--jobs", type=int, default=2, help="test runs at once (default 2)")
    parser.add_argument("--output", default=os.path.join(ROOT, "build", "mutants"))
    args = parser.parse_args(argv)
    known = [t for t, _, _ in TARGETS]
    for t in args.target or []:
        if t not in known:
            parser.error("no decision target %s (these are: %s)" % (t, ", ".join(known)))

    plan = collect(args.target, args.file)
    if not plan:
        parser.error("no file matches")

    def log(message):
        print(message, flush=True)

    if args.list:
        for target, _, entries in plan:
            for rel, _, _, mutants, skipped in entries:
                for m in mutants:
                    log("%5d %s:%d %s: %s" % (m.id, rel, m.line, m.operator, m.describe()))
                for line, reason in skipped:
                    log("    - %s:%d skipped: %s" % (rel, line, reason))
        log("%d mutants" % sum(len(e[3]) for _, _, es in plan for e in es))
        return 0

    os.makedirs(args.output, exist_ok=True)
    started = time.time()
    results = []
    summaries = {}
    failed = []
    for target, test_target, entries in plan:
        target_started = time.time()
        log("== %s" % target)
        package = os.path.join(args.output, target, "package")
        os.makedirs(package, exist_ok=True)
        switch_file = os.path.join("Sources", target, SWITCH_FILE)
        try:
            prepare_copy(target, test_target, package, log, own={e[0] for e in entries} | {switch_file})
            counts = run_target(args, target, test_target, entries, package, switch_file, results, log)
        except TargetFailed as failure:
            log("  %s FAILED: %s" % (target, failure))
            failed.append(target)
            continue
        compiled = counts["killed"] + counts["survived"] + counts["timeout"]
        score = 100.0 * (counts["killed"] + counts["timeout"]) / compiled if compiled else 100.0
        counts["score"] = round(score, 1)
        counts["seconds"] = round(time.time() - target_started)
        summaries[target] = counts
        log("  %s: %d killed, %d timeout, %d survived, %d not compiled: %.1f %% of %d compiled mutants killed (%d s)"
            % (target, counts["killed"], counts["timeout"], counts["survived"], counts["not compiled"], score,
               compiled, counts["seconds"]))
    return finish(args, summaries, results, failed, started, log)


class TargetFailed(Exception):
    pass


def run_target(args, target, test_target, entries, package, switch_file, results, log):
    """Builds the target's schemata and runs its tests once per mutant:
    the counts by outcome."""
    chosen = {m.id for _, _, _, ms, _ in entries for m in ms
              if not args.mutant or m.id in args.mutant}
    not_compiled = {}
    # Every mutant behind its switch; those the compiler refuses are left out.
    for attempt in range(12):
        rendered = {}
        spans_by_file = {}
        for rel, src, tokens, mutants, _ in entries:
            for m in mutants:
                m.dropped = None
            live = [m for m in mutants if m.id in chosen and m.id not in not_compiled]
            text, spans = render(src, tokens, live)
            for m in live:
                if m.dropped:
                    not_compiled[m.id] = m.dropped
            rendered[rel] = text
            spans_by_file[rel] = spans
            write_if_changed(os.path.join(package, rel), text)
        write_if_changed(os.path.join(package, switch_file), SWITCH_SOURCE)
        ok, output = build(package, log)
        if ok:
            break
        errors = ERROR_RE.findall(output)
        if not errors:
            raise TargetFailed("the build of %s failed without a Swift error:\n%s" % (target, output[-4000:]))
        guilty, outside = blame(errors, rendered, spans_by_file)
        if guilty is None:
            raise TargetFailed("%s does not build outside any mutant: %s:%s: %s"
                             % (target, outside[0], outside[1], outside[2]))
        log("  %d mutants do not compile: %s" % (len(guilty), ", ".join(str(g) for g in sorted(guilty))))
        not_compiled.update(guilty)
    else:
        raise TargetFailed("%s still does not build after removing mutants" % target)

    binary = test_binary(package)
    status, detail, clean_seconds = run_tests(binary, 0, 1800)
    if status != "survived":
        raise TargetFailed("%s's tests fail without any mutant (%s)" % (test_target, detail))
    timeout = args.timeout or max(30.0, 10 * clean_seconds)
    log("  clean run of %s: %.1f s; a mutant's run is stopped after %.0f s" % (test_target, clean_seconds, timeout))
    counts = {"killed": 0, "survived": 0, "timeout": 0, "not compiled": 0}
    todo = [(rel, m) for rel, _, _, mutants, _ in entries for m in mutants if m.id in chosen]

    def one(item):
        rel, m = item
        if m.id in not_compiled:
            return "not compiled", not_compiled[m.id], 0.0
        return run_tests(binary, m.id, timeout)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for (rel, m), (status, detail, seconds) in zip(todo, pool.map(one, todo)):
            counts[status] += 1
            line = "%5d %s:%d %s: %s  %s" % (m.id, rel, m.line, m.operator, m.describe(), status)
            if detail:
                line += " (%s)" % detail
            log(line)
            results.append({
                "id": m.id, "target": target, "file": rel, "line": m.line, "operator": m.operator,
                "original": m.original, "mutated": m.replacement, "status": status, "detail": detail,
                "seconds": round(seconds, 2),
            })
    return counts


def finish(args, summaries, results, failed, started, log):
    total = {k: sum(s[k] for s in summaries.values()) for k in ("killed", "survived", "timeout", "not compiled")}
    compiled = total["killed"] + total["survived"] + total["timeout"]
    score = 100.0 * (total["killed"] + total["timeout"]) / compiled if compiled else 100.0
    total["score"] = round(score, 1)
    total["seconds"] = round(time.time() - started)
    log("== in all")
    for target, s in summaries.items():
        log("  %-16s %4d killed %3d timeout %3d survived %3d not compiled  %5.1f %%"
            % (target, s["killed"], s["timeout"], s["survived"], s["not compiled"], s["score"]))
    log("  %-16s %4d killed %3d timeout %3d survived %3d not compiled  %5.1f %% (%d s)"
        % ("all", total["killed"], total["timeout"], total["survived"], total["not compiled"], score, total["seconds"]))
    report = os.path.join(args.output, "report.json")
    with open(report, "w") as f:
        json.dump({"targets": summaries, "total": total, "failed": failed, "mutants": results}, f, indent=1, ensure_ascii=False)
    log("  report: %s" % os.path.relpath(report, ROOT))
    if failed:
        log("  not run: %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
