#!/usr/bin/env python3
"""The translation template and catalogs (po/).

    scripts/translations.py pot      regenerate po/dreamsforlittles.pot from the sources
    scripts/translations.py merge    regenerate it, and merge it into every po/*.po

The translatable text of the sources is every string literal given to
tr("…"), trn("…", "…", count:) and trc("context", "…") (SleepTimerCore's
Localization.swift), and the Name, GenericName, Comment and Keywords of the
desktop entries in packaging/desktop, packaging/autostart and
packaging/search (which the package build merges back with msgfmt
--desktop), and the texts of the
AppStream metainfo in packaging/metainfo (merged back with msgfmt --xml).
xgettext has no Swift parser; its C parser reads
these calls correctly as long as each literal sits on one line, outside any
string interpolation: Tests/Translations/test_catalogs.py checks that with a
scan of its own. Also a module: the tests use `extract`, `read_po`,
`swift_literals`, `desktop_literals` and `metainfo_literals`.
"""

import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PO_DIR = os.path.join(REPO, "po")
DOMAIN = "dreamsforlittles"
TEMPLATE = os.path.join(PO_DIR, DOMAIN + ".pot")

# The marking functions; the default C keywords (gettext, _, …) are off, so
# nothing else is taken.
KEYWORDS = ["--keyword=", "--keyword=tr", "--keyword=trn:1,2", "--keyword=trc:1c,2"]

# A call of a marking function: its name, and everything up to the first
# character that is neither space nor the opening quote of a literal.
CALL = re.compile(r'(?<![A-Za-z0-9_.])(tr|trn|trc)\(')
LITERAL = r'"((?:[^"\\\n]|\\.)*)"'
LITERALS = {
    "tr": re.compile(r'\(\s*' + LITERAL + r'\s*\)'),
    "trn": re.compile(r'\(\s*' + LITERAL + r'\s*,\s*' + LITERAL + r'\s*,'),
    "trc": re.compile(r'\(\s*' + LITERAL + r'\s*,\s*' + LITERAL + r'\s*\)'),
}


def sources():
    """Every Swift file under Sources/, relative to the repository, sorted."""
    found = []
    for directory, _, files in os.walk(os.path.join(REPO, "Sources")):
        for name in files:
            if name.endswith(".swift"):
                found.append(os.path.relpath(os.path.join(directory, name), REPO))
    return sorted(found)


# The keys of a desktop entry that a person reads (xgettext's defaults for
# the Desktop language).
DESKTOP_KEYS = ("Name", "GenericName", "Comment", "Keywords")
COMMON = ["--from-code=UTF-8", "--add-comments=TRANSLATORS:", "--add-location=file", "--sort-by-file",
          "--package-name=" + DOMAIN, "--msgid-bugs-address=desktop@dreamsforlittles.example",
          "--copyright-holder=Dreams for Littles"]


# Where the desktop entries the package installs are: the applications'
# entries, the autostart entry, and KRunner's runner (packaging/search).
DESKTOP_DIRECTORIES = ("packaging/desktop", "packaging/autostart", "packaging/search")


def desktop_files():
    """The desktop entries the package installs, relative to the repository."""
    return sorted(os.path.join(directory, name) for directory in DESKTOP_DIRECTORIES
                  for name in os.listdir(os.path.join(REPO, directory)) if name.endswith(".desktop"))


# The AppStream metainfo files the package installs, which the package
# build merges back with msgfmt --xml.
METAINFO_DIRECTORY = "packaging/metainfo"


def metainfo_files():
    """The AppStream metainfo files, relative to the repository."""
    return sorted(os.path.join(METAINFO_DIRECTORY, name) for name in os.listdir(os.path.join(REPO, METAINFO_DIRECTORY))
                  if name.endswith(".metainfo.xml"))


def extract(output):
    """Runs xgettext over the sources that call a marking function, then
    over the desktop entries and the metainfo, into one template."""
    marked = [path for path in sources() if swift_literals(path)[0]]
    subprocess.run(["xgettext", "--language=C", *KEYWORDS, *COMMON, "--output=" + output, *marked],
                   cwd=REPO, check=True)
    subprocess.run(["xgettext", "--language=Desktop", "--join-existing", *COMMON, "--output=" + output,
                    *desktop_files()], cwd=REPO, check=True)
    # gettext's own ITS rules for AppStream (metainfo.its) say which
    # elements are translated; translate="no" keeps the brand as it is.
    subprocess.run(["xgettext", "--language=AppData", "--join-existing", *COMMON, "--output=" + output,
                    *metainfo_files()], cwd=REPO, check=True)


def desktop_literals(path):
    """The (None, msgid, None) of every translatable key of a desktop entry,
    read without xgettext."""
    found = []
    with open(os.path.join(REPO, path), encoding="utf-8") as handle:
        for line in handle:
            key, equals, value = line.rstrip("\n").partition("=")
            if equals and key.strip() in DESKTOP_KEYS:
                found.append((None, value.strip(), None))
    return found


# The elements of a metainfo file that gettext's metainfo.its translates.
METAINFO_ELEMENTS = ("name", "summary", "developer_name", "developer/name", "description/p", "description/ul/li",
                     "description/ol/li", "screenshots/screenshot/caption", "keywords/keyword",
                     "releases/release/description/p", "releases/release/description/ul/li")


def metainfo_literals(path):
    """The (None, msgid, None) of every translatable text of a metainfo
    file, read without xgettext: its white space collapsed, as the ITS
    rules' default space handling does; translate="no" leaves it out."""
    import xml.etree.ElementTree as ElementTree
    root = ElementTree.parse(os.path.join(REPO, path)).getroot()
    found = []
    for element_path in METAINFO_ELEMENTS:
        for element in root.findall("./" + element_path):
            if element.get("translate") != "no":
                found.append((None, " ".join("".join(element.itertext()).split()), None))
    return found


CODE, STRING, INTERPOLATED = range(3)


def _scan(text):
    """`text` with its comments blanked (so that a comment naming tr( is no
    call, and a "//" inside a string is no comment), and for each character
    where it sits: CODE, STRING (text, where "tr(" is no call) or
    INTERPOLATED (code inside a string's "\\(…)", where xgettext cannot see
    a call)."""
    code = list(text)
    where = [CODE] * len(text)
    stack = []  # ["string", terminator, raw] or ["interpolation", open parentheses]
    i = 0
    while i < len(text):
        top = stack[-1] if stack else None
        if top is not None and top[0] == "string":
            where[i] = STRING
        elif any(frame[0] == "interpolation" for frame in stack):
            where[i] = INTERPOLATED
        if top is None or top[0] == "interpolation":
            end = None
            if text.startswith("//", i):
                end = text.find("\n", i)
            elif text.startswith("/*", i):
                end = text.find("*/", i) + 2
            if end is not None:
                end = len(text) if end < i else end
                code[i:end] = [c if c == "\n" else " " for c in text[i:end]]
                i = end
                continue
            raw = re.match(r'(#+)("""|")', text[i:i + 8])
            if raw:
                stack.append(["string", raw.group(2) + raw.group(1), True])
                i += len(raw.group(0))
            elif text.startswith('"""', i) or text[i] == '"':
                quote = '"""' if text.startswith('"""', i) else '"'
                stack.append(["string", quote, False])
                i += len(quote)
            elif top and text[i] == "(":
                top[1] += 1
                i += 1
            elif top and text[i] == ")":
                if top[1] == 0:
                    stack.pop()
                else:
                    top[1] -= 1
                i += 1
            else:
                i += 1
            continue
        if not top[2] and text.startswith("\\(", i):
            stack.append(["interpolation", 0])
            i += 2
        elif not top[2] and text[i] == "\\":
            i += 2
        elif text.startswith(top[1], i):
            stack.pop()
            i += len(top[1])
        else:
            i += 1
    return "".join(code), where


def swift_literals(path):
    """Every (context, msgid, msgid_plural) a Swift file marks, read with a
    regular expression rather than xgettext, and every call whose
    arguments are not single-line literals, as (line, text) problems."""
    with open(os.path.join(REPO, path), encoding="utf-8") as handle:
        text, where = _scan(handle.read())
    found, problems = [], []
    for call in CALL.finditer(text):
        if where[call.start()] == STRING:
            continue
        line = text.count("\n", 0, call.start()) + 1
        before = text[text.rfind("\n", 0, call.start()) + 1:call.start()]
        if re.search(r'\bfunc\s+$', before):
            continue  # the definition itself
        match = LITERALS[call.group(1)].match(text, call.end() - 1)
        if not match:
            problems.append((line, text[call.start():call.start() + 60].split("\n")[0]))
            continue
        if where[call.start()] == INTERPOLATED:
            problems.append((line, "inside a string interpolation: " + before.strip()[-40:]))
        parts = [_unescape(part) for part in match.groups()]
        if call.group(1) == "tr":
            found.append((None, parts[0], None))
        elif call.group(1) == "trn":
            found.append((None, parts[0], parts[1]))
        else:
            found.append((parts[0], parts[1], None))
    return found, problems


def _unescape(literal):
    """A Swift or C string literal's escapes, resolved."""
    simple = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "0": "\0"}

    def replace(match):
        escape = match.group(1)
        if escape.startswith("u{"):
            return chr(int(escape[2:-1], 16))
        return simple[escape]

    return re.sub(r'\\(u\{[0-9A-Fa-f]+\}|[ntr"\'\\0])', replace, literal)


def read_po(path):
    """The entries of a .po or .pot file: dicts with context, msgid,
    msgid_plural, msgstr (a list: one form, or every plural form),
    comments (the #. lines) and flags; the header entry (msgid "") first."""
    entries = []
    entry = None
    field = None

    def start():
        return {"context": None, "msgid": None, "msgid_plural": None, "msgstr": [], "comments": [], "flags": []}

    with open(path, encoding="utf-8") as handle:
        for raw in handle:
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            if line.startswith("#"):
                if entry is not None and entry["msgid"] is not None:
                    entries.append(entry)
                    entry = None
                entry = entry or start()
                if line.startswith("#."):
                    entry["comments"].append(line[2:].strip())
                elif line.startswith("#,"):
                    entry["flags"] += [flag.strip() for flag in line[2:].split(",")]
                continue
            keyword, _, rest = line.partition(" ")
            if line.startswith('"'):
                value = _unescape(line.strip()[1:-1])
                if field == "msgstr":
                    entry["msgstr"][-1] += value
                else:
                    entry[field] += value
                continue
            if keyword in ("msgctxt", "msgid") and entry is not None and entry["msgid"] is not None:
                entries.append(entry)
                entry = None
            entry = entry or start()
            value = _unescape(rest.strip()[1:-1])
            if keyword.startswith("msgstr"):
                field = "msgstr"
                entry["msgstr"].append(value)
            else:
                field = "context" if keyword == "msgctxt" else keyword
                entry[field] = value
    if entry is not None and entry["msgid"] is not None:
        entries.append(entry)
    return entries


def keys(entries):
    """The (context, msgid, msgid_plural) of every message but the header."""
    return {(e["context"], e["msgid"], e["msgid_plural"]) for e in entries if e["msgid"]}


def main(arguments):
    if arguments == ["pot"]:
        extract(TEMPLATE)
    elif arguments == ["merge"]:
        extract(TEMPLATE)
        for name in sorted(os.listdir(PO_DIR)):
            if name.endswith(".po"):
                subprocess.run(["msgmerge", "--quiet", "--update", "--backup=none", "--add-location=file",
                                "--sort-by-file", os.path.join(PO_DIR, name), TEMPLATE], check=True)
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
