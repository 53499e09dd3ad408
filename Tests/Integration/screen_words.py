"""Words read off a screenshot with tesseract, each with where it is on the
screen, so that a test can find a button by what it says and click its
middle, as a person looks for it.

A screen is never read once: what is drawn may still be sliding in, or a
busy machine may not have drawn it yet when the screenshot is taken. Each
reading here is taken again, with a new screenshot, until it says what the
test waits for (`wait_for_words`, `wait_for_text`), and a failure says
what was last read."""

import os
import shutil
import subprocess
import uuid

from harness import PATIENCE, read_until

# A part of the screen is enlarged this much before it is read: tesseract
# reads a panel's or a popup's small type far better at twice its size.
SCALE = 2


def require_tesseract():
    if shutil.which("tesseract") is None:
        raise AssertionError("tesseract is needed to read the screen: "
                             "install the Debian packages tesseract-ocr tesseract-ocr-eng")
    if shutil.which("convert") is None:
        raise AssertionError("convert is needed to cut the screenshot: install the Debian package imagemagick")


def words(png, box, scratch, page=False):
    """The words tesseract reads in `box` (x, y, width, height) of the
    screenshot `png`: dicts with text, x, y (the word's middle, in screen
    pixels), line (block, paragraph and line numbers) and confidence.

    With `page`, the box is read as a page (a web page's columns and
    buttons): tesseract's search for sparse text skips the light words of
    a web page's dark buttons, which it reads in a page's layout."""
    x0, y0, width, height = (int(v) for v in box)
    part = os.path.join(scratch, "read-%d-%d.png" % (x0, y0))
    subprocess.run(["convert", png, "-crop", "%dx%d+%d+%d" % (width, height, x0, y0), "+repage",
                    "-resize", "%d%%" % (SCALE * 100), "-colorspace", "gray", part], check=True, timeout=PATIENCE)
    result = tesseract(part, "--psm", "3" if page else "11", "tsv")
    found = []
    for row in result.splitlines()[1:]:
        fields = row.split("\t")
        if len(fields) < 12 or not fields[11].strip():
            continue
        left, top, w, h = (int(v) for v in fields[6:10])
        found.append({"text": fields[11].strip(), "confidence": float(fields[10]),
                      "line": tuple(int(v) for v in fields[2:5]),
                      "x": x0 + (left + w / 2) / SCALE, "y": y0 + (top + h / 2) / SCALE})
    return found


def tesseract(picture, *options):
    """What tesseract prints for `picture`; its failure is the test's, with
    what it said, not a reading of no words."""
    result = subprocess.run(["tesseract", picture, "-", *options], capture_output=True, text=True, timeout=PATIENCE)
    if result.returncode != 0:
        raise AssertionError("tesseract failed on %s: %s" % (picture, result.stderr.strip()))
    return result.stdout


def block(png, box, scratch, scale=3):
    """The text tesseract reads in `box` (x, y, width, height) of `png` as
    one block, enlarged `scale` times, from the picture and from its
    negative (dark text on light and the reverse), joined by a line break."""
    x0, y0, width, height = (int(v) for v in box)
    texts = []
    for extra in ([], ["-negate"]):
        part = os.path.join(scratch, "block-%s.png" % uuid.uuid4().hex[:8])
        subprocess.run(["convert", png, "-crop", "%dx%d+%d+%d" % (width, height, x0, y0), "+repage",
                        "-resize", "%d%%" % (scale * 100), "-colorspace", "gray", *extra, part],
                       check=True, timeout=PATIENCE)
        try:
            texts.append(tesseract(part, "--psm", "6"))
        finally:
            os.remove(part)
    return "\n".join(texts)


def wait_for_words(screenshot, box, scratch, ready, what, timeout=PATIENCE):
    """The words of `box` (see words()) from a new screenshot each time,
    once `ready(words)` holds. `box` may be a function that gives the box
    for each reading: a window that moves is read where it is now. A
    timeout says what `what` last read."""
    boxes = []

    def read():
        boxes.append(box() if callable(box) else box)
        return words(screenshot(), boxes[-1], scratch)
    return read_until(read, ready, "the words of %s" % what, timeout=timeout,
                      describe=lambda found: "%r in %r (x, y, width, height; the first reading's box %r)"
                      % (text(found), boxes[-1], boxes[0]))


def wait_for_text(screenshot, box, scratch, ready, what, timeout=PATIENCE):
    """As wait_for_words, with the block of text of block()."""
    boxes = []

    def read():
        boxes.append(box() if callable(box) else box)
        return block(screenshot(), boxes[-1], scratch)
    return read_until(read, ready, "the text of %s" % what, timeout=timeout,
                      describe=lambda found: "%r in %r (x, y, width, height)" % (found, boxes[-1]))


def text(found):
    return " ".join(w["text"] for w in found)


def find(found, word):
    """The first word that reads `word` (letters only, any case), or None."""
    wanted = "".join(c for c in word.lower() if c.isalnum())
    return next((w for w in found if "".join(c for c in w["text"].lower() if c.isalnum()) == wanted), None)


def _letters(text):
    return "".join(c for c in text.lower() if c.isalnum())


def find_phrase(found, phrase):
    """The first word of `phrase` where the words that follow it on its line
    read the rest of it: its middle, or None."""
    wanted = [_letters(w) for w in phrase.split()]
    for i, word in enumerate(found):
        run = found[i:i + len(wanted)]
        if len(run) == len(wanted) and all(w["line"] == word["line"] for w in run) and \
                [_letters(w["text"]) for w in run] == wanted:
            return word
    return None
