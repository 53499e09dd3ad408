"""The translation template and catalogs in po/: each catalog compiles,
is complete and keeps every placeholder; the template is what the sources
mark (and what the desktop entries and the metainfo say), read both by xgettext and by a scan
of its own, so that a call xgettext cannot see (a literal split over lines,
or inside a string interpolation) fails here instead of going
untranslated."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import translations  # noqa: E402

# The languages shipped, with the plural rule each must declare.
PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "pt_BR": "nplurals=2; plural=(n > 1);",
}

PLACEHOLDER = re.compile(r"\{([A-Za-z_]+)\}")


def catalogs():
    return sorted(name[:-3] for name in os.listdir(translations.PO_DIR) if name.endswith(".po"))


def header(entries):
    fields = {}
    for line in entries[0]["msgstr"][0].split("\n"):
        key, _, value = line.partition(":")
        if value:
            fields[key.strip()] = value.strip()
    return fields


class CatalogTests(unittest.TestCase):
    def test_every_language_is_shipped_and_listed_in_linguas(self):
        self.assertEqual(catalogs(), sorted(PLURAL_FORMS))
        with open(os.path.join(translations.PO_DIR, "LINGUAS")) as handle:
            listed = [line.strip() for line in handle if line.strip() and not line.startswith("#")]
        self.assertEqual(sorted(listed), catalogs())

    def test_the_desktop_entries_merge_every_language(self):
        with tempfile.TemporaryDirectory() as directory:
            for entry in translations.desktop_files():
                with self.subTest(entry=entry):
                    merged = os.path.join(directory, os.path.basename(entry))
                    subprocess.run(["msgfmt", "--desktop", "--template=" + os.path.join(REPO, entry), "-d",
                                    translations.PO_DIR, "--output-file=" + merged], check=True)
                    with open(merged, encoding="utf-8") as handle:
                        text = handle.read()
                    for language in catalogs():
                        self.assertIn("\nName[%s]=" % language, text)
                    result = subprocess.run(["desktop-file-validate", merged], capture_output=True, text=True)
                    self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_the_metainfo_merges_every_language_and_still_validates(self):
        with tempfile.TemporaryDirectory() as directory:
            for metainfo in translations.metainfo_files():
                with self.subTest(metainfo=metainfo):
                    merged = os.path.join(directory, os.path.basename(metainfo))
                    subprocess.run(["msgfmt", "--xml", "--template=" + os.path.join(REPO, metainfo), "-d",
                                    translations.PO_DIR, "--output-file=" + merged], check=True)
                    with open(merged, encoding="utf-8") as handle:
                        text = handle.read()
                    for language in catalogs():
                        self.assertIn('<summary xml:lang="%s">' % language, text)
                        self.assertIn('<p xml:lang="%s">' % language, text)
                    # The brand stays as it is: no translated name at all.
                    self.assertNotIn("<name xml:lang=", text)
                    result = subprocess.run(["appstreamcli", "validate", "--no-net", merged],
                                            capture_output=True, text=True)
                    self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_every_catalog_compiles_with_msgfmt_check(self):
        for language in catalogs():
            with self.subTest(language=language):
                result = subprocess.run(
                    ["msgfmt", "--check", "--statistics", "--output-file=/dev/null",
                     os.path.join(translations.PO_DIR, language + ".po")],
                    capture_output=True, text=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                # "84 translated messages." and nothing fuzzy or untranslated.
                self.assertNotIn("fuzzy", result.stderr)
                self.assertNotIn("untranslated", result.stderr)

    def test_every_catalog_declares_its_language_plural_rule_and_utf8(self):
        for language in catalogs():
            with self.subTest(language=language):
                fields = header(translations.read_po(os.path.join(translations.PO_DIR, language + ".po")))
                self.assertEqual(fields.get("Language"), language)
                self.assertEqual(fields.get("Plural-Forms"), PLURAL_FORMS[language])
                self.assertEqual(fields.get("Content-Type"), "text/plain; charset=UTF-8")

    def test_every_catalog_translates_exactly_the_templates_messages(self):
        template = translations.keys(translations.read_po(translations.TEMPLATE))
        for language in catalogs():
            with self.subTest(language=language):
                entries = translations.read_po(os.path.join(translations.PO_DIR, language + ".po"))
                self.assertEqual(translations.keys(entries), template)
                for entry in entries[1:]:
                    self.assertNotIn("fuzzy", entry["flags"], entry["msgid"])
                    self.assertTrue(all(entry["msgstr"]), "untranslated: %r" % entry["msgid"])

    def test_every_translation_keeps_exactly_the_placeholders_of_the_english(self):
        for language in catalogs():
            entries = translations.read_po(os.path.join(translations.PO_DIR, language + ".po"))
            for entry in entries[1:]:
                english = set(PLACEHOLDER.findall(entry["msgid_plural"] or entry["msgid"]))
                for form in entry["msgstr"]:
                    with self.subTest(language=language, msgid=entry["msgid"], msgstr=form):
                        self.assertEqual(set(PLACEHOLDER.findall(form)), english)

    def test_plural_entries_have_one_form_per_plural_of_the_language(self):
        for language in catalogs():
            entries = translations.read_po(os.path.join(translations.PO_DIR, language + ".po"))
            forms = int(re.match(r"nplurals=(\d+)", PLURAL_FORMS[language]).group(1))
            for entry in entries[1:]:
                with self.subTest(language=language, msgid=entry["msgid"]):
                    self.assertEqual(len(entry["msgstr"]), forms if entry["msgid_plural"] else 1)


class TemplateTests(unittest.TestCase):
    def test_the_template_matches_the_sources(self):
        with tempfile.TemporaryDirectory() as directory:
            fresh = os.path.join(directory, "fresh.pot")
            translations.extract(fresh)
            regenerated = translations.read_po(fresh)
        committed = translations.read_po(translations.TEMPLATE)
        self.assertEqual(translations.keys(committed), translations.keys(regenerated),
                         "po/dreamsforlittles.pot is out of date: run make pot")
        # The translators' comments too: they travel with the messages.
        comments = lambda entries: {(e["context"], e["msgid"]): e["comments"] for e in entries[1:]}
        self.assertEqual(comments(committed), comments(regenerated))

    def test_every_marked_literal_in_the_sources_is_in_the_template(self):
        template = translations.keys(translations.read_po(translations.TEMPLATE))
        marked = set()
        for path in translations.sources():
            found, problems = translations.swift_literals(path)
            self.assertEqual(problems, [], "%s: tr, trn and trc take single-line literals, never inside an "
                                           "interpolation" % path)
            marked.update(found)
        for path in translations.desktop_files():
            marked.update(translations.desktop_literals(path))
        for path in translations.metainfo_files():
            marked.update(translations.metainfo_literals(path))
        self.assertTrue(marked)
        self.assertEqual(marked - template, set(), "marked in the sources but missing from the template")
        self.assertEqual(template - marked, set(), "in the template but marked nowhere")

    def test_the_scan_sees_what_xgettext_would_miss(self):
        path = os.path.join("Tests", "Translations", "fixtures", "Hidden.swift")
        found, problems = translations.swift_literals(path)
        self.assertEqual(found, [(None, "Seen", None), ("menu", "Open", None),
                                 (None, "{count} minute", "{count} minutes"), (None, "Hidden", None)])
        self.assertEqual([line for line, _ in problems], [6, 7, 8])


if __name__ == "__main__":
    unittest.main()
