"""What the Spanish walks check on screen (Tests/UI/spanish_walk.py; any walk of the Spanish window may import it):
every string visible through AT-SPI must be Spanish. `check(view, root)` collects the names, tooltips and label
texts showing under `root` and records each string that is an English msgid of po/es.po or holds common English
words (`findings`), or is not made of Spanish messages, GTK's Spanish, numbers and units, or data the window shows
as it is (`unknown`); `report()` prints them and says whether there were any. Environment: FARO_PO (the catalog),
FARO_DATA (the data folder: the demo catalog and sites are the data), HOME (the folders a file chooser lists).
"""
import gettext
import glob
import html
import json
import os
import re

import pyatspi
from atspi_driver import fail

def unquote(text):
    """A .po string's value: \\n, \\t, \\" and \\\\ unescaped."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def catalog(path):
    """(msgid, translations) of every entry of a .po file, msgid_plural entries as two msgids."""
    entries, msgids, strings, current = [], [], [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n") + [""]
    for line in lines:
        if line.startswith("#"):
            continue
        match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
        if match:
            current = match.group(1)
            value = unquote(match.group(2))
            (msgids if current.startswith("msgid") else strings).append(value)
        elif line.startswith('"') and current:
            value = unquote(line[1:-1])
            target = msgids if current.startswith("msgid") else strings
            target[-1] += value
        elif not line.strip():
            if msgids and msgids[0]:
                entries.append((msgids, strings))
            msgids, strings, current = [], [], None
    return entries


def shown(text):
    """A message as a widget shows it: mnemonic underscores dropped, spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"_(?=\w)", "", text)).strip()


def spanish_strings(path):
    """Every Spanish translation as shown, to prove the walk sees the window at all."""
    return {shown(s) for _, strings in catalog(path) for s in strings if s}


def english_matchers(path):
    """One (msgid, test) per English message that has a different Spanish translation."""
    matchers = []
    for msgids, strings in catalog(path):
        spanish = {shown(s) for s in strings}
        for msgid in msgids:
            english = shown(msgid)
            if not english or english in spanish or len(english) < 2:
                continue
            if "%@" in english:
                pattern = re.compile("^" + ".+".join(re.escape(p) for p in english.split("%@")) + "$")
                matchers.append((msgid, pattern.match))
            elif msgid.endswith(": "):
                matchers.append((msgid, lambda text, e=english: text.startswith(e)))
            else:
                matchers.append((msgid, lambda text, e=english: text == e))
    return matchers


def spanish_templates(path):
    """(exact strings, [(regex, pieces)] for msgstrs with %@, [prefixes]) of every Spanish translation as shown."""
    exact, patterns, prefixes = set(), [], []
    for _, strings in catalog(path):
        for s in strings:
            text = shown(s)
            if not text:
                continue
            if "%@" in text:
                parts = text.split("%@")
                patterns.append(re.compile("^" + "(.+?)".join(re.escape(p) for p in parts) + "$", re.S))
            elif s.endswith(": ") or s.endswith(" "):
                prefixes.append(text + " " if s.endswith(" ") and not text.endswith(":") else text)
            exact.add(text)
    return exact, patterns, prefixes


def gtk_spanish():
    """GTK's own Spanish messages (the file chooser, the about dialog's buttons) as shown, and those with a printf
    placeholder as patterns."""
    found, patterns = set(), []
    for path in glob.glob("/usr/share/locale/es/LC_MESSAGES/gtk30*.mo"):
        with open(path, "rb") as f:
            translations = gettext.GNUTranslations(f)
        for value in translations._catalog.values():  # noqa: SLF001  (the catalog's msgstrs)
            if value:
                # As GTK shows them: markup dropped, and sentence by sentence (a label joins several).
                plain = shown(html.unescape(re.sub(r"<[^>]+>", "", value)))
                found.update({shown(value), plain})
                found.update(p.strip() + ("." if not p.endswith(".") else "") for p in plain.split(". ") if p.strip())
                for line in html.unescape(re.sub(r"<[^>]+>", "", value)).split("\n"):
                    parts = re.split(r"%(?:\d+\$)?'?[-+ #0]*\d*(?:\.\d+)?(?:l|ll|h|z|j|t|L|q|I64)?[sdiuf]", shown(line))
                    if 1 < len(parts) <= 4 and any(re.search(r"[^\W\d_]{3,}", p) for p in parts):
                        patterns.append(re.compile("^" + "(.+?)".join(re.escape(p) for p in parts) + "$", re.S))
    return found, patterns


def demo_data(folder):
    """Every string of the demo catalog (names, businesses, addresses, URLs) and the demo sites' text: what the
    backend serves and the window shows as it is."""
    strings, corpus = set(), []

    def walk_json(value):
        if isinstance(value, str):
            strings.add(shown(value))
        elif isinstance(value, dict):
            for v in value.values():
                walk_json(v)
        elif isinstance(value, list):
            for v in value:
                walk_json(v)

    with open(os.path.join(folder, "demo", "beacons.json"), encoding="utf-8") as f:
        walk_json(json.load(f))
    for path in glob.glob(os.path.join(folder, "demo", "sites", "**", "*.htm*"), recursive=True):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", f.read(), flags=re.S | re.I)
        for attr in re.findall(r'(?:alt|title)="([^"]*)"', text):
            strings.add(shown(html.unescape(attr)))
        corpus.append(shown(html.unescape(re.sub(r"<[^>]+>", " ", text))))
    return strings, " \n ".join(corpus)


# Common English words no Spanish message has: a string holding one is English, whatever else matched.
ENGLISH_WORDS = re.compile(
    r"\b(the|is|was|were|nothing|could|cannot|not|and|of|with|from|this|that|stored|found|failed|please|"
    r"beyond|outside|must|readings?|offset|device|distance|stated|saved|loaded|error:)\b", re.I)
# Numbers with the units and symbols the window shows beside them.
NEUTRAL = re.compile(r"^[\s\d.,:;+\-−–—±≈~%()/·•…°×|#*<>=\[\]]*(?:(?:dBm|dB|m|s|ms|km|MB|KB|kB|GB|Hz|bytes?)\b"
                     r"[\s\d.,:;+\-−–—±≈~%()/·…]*)*$")
# A date and time as GLib formats them in Spanish ("5 dic 2026, 11:27"): Spanish month names only.
SPANISH_DATE = re.compile(r"^(\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.?( \d{4})?)?(,? ?\d{1,2}:\d{2})?$")
# Services the share menu names, and the tables protocol's generations "Probar conexión" names: the same names in
# every language.
BRANDS = {"Facebook", "LinkedIn", "Telegram", "WhatsApp", "X", "2.0.0 (Azure Mobile Apps)", "3.0.0 (Datasync)"}

MATCHERS = english_matchers(os.environ["FARO_PO"])
SPANISH = spanish_strings(os.environ["FARO_PO"])
EXACT, PATTERNS, PREFIXES = spanish_templates(os.environ["FARO_PO"])
GTK, GTK_PATTERNS = gtk_spanish()
DATA, SITES = demo_data(os.environ.get("FARO_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data")))
# What a walk typed into the window (it adds its own), and what the window shows of the test's own machine.
TYPED = set()
FOLDERS = set()
for folder in (os.environ.get("HOME", ""), os.getcwd(), "/"):
    try:
        names = os.listdir(folder) + [os.path.basename(folder.rstrip("/"))]
        FOLDERS.update(names + [shown(n) for n in names])
    except OSError:
        pass
findings = {}
unknown = {}
walked = []


def is_data(text):
    return (text in DATA or text in TYPED or text in FOLDERS or text in GTK or text in BRANDS
            or re.match(r"^[0-9a-f]{16,}$", text) is not None
            or (len(text) >= 4 and text in SITES) or re.match(r"^(https?://|file://|/)\S*$", text) is not None
            or re.match(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(:\d+:\d+)?$", text)
            is not None or re.match(r"^([0-9A-F]{2}:){5}[0-9A-F]{2}$", text) is not None)


def accepted(text, depth=0):
    """Whether `text` is made only of Spanish messages, numbers and units, and data (see the module's docstring)."""
    text = text.strip()
    if not text or NEUTRAL.match(text) or not re.search(r"[^\W\d_]", text) or SPANISH_DATE.match(text):
        return True
    if "\n" in text or "  " in text:  # lines, or parts a label sets apart with two spaces
        return all(accepted(part, depth) for part in re.split(r"\n|  +", text))
    text = shown(text)
    if text in EXACT or is_data(text):
        return True
    if depth > 4:
        return False
    for pattern in PATTERNS + GTK_PATTERNS:
        match = pattern.match(text)
        if match and all(accepted(g, depth + 1) for g in match.groups()):
            return True
    for prefix in PREFIXES:
        if text.startswith(prefix) and accepted(text[len(prefix):], depth + 1):
            return True
    # A message appended to data ("Conchas — Panadería Santa Clara (copia guardada)").
    for suffix in EXACT:
        if len(suffix) > 3 and text.endswith(" " + suffix) and accepted(text[: -len(suffix) - 1], depth + 1):
            return True
    for separator in ("\n", " · ", " — ", ", ", ". ", "; ", ": "):
        if separator in text:
            pieces = [p for p in text.split(separator)]
            if len(pieces) > 1 and all(accepted(p if separator != ". " or i == len(pieces) - 1 else p + ".",
                                                depth + 1) for i, p in enumerate(pieces)):
                return True
    # Two messages side by side ("Hoy" "desde las 11:51"): each half must pass on its own.
    words = text.split(" ")
    if depth < 3 and 1 < len(words) <= 12:
        for i in range(1, len(words)):
            if accepted(" ".join(words[:i]), 4) and accepted(" ".join(words[i:]), 4):
                return True
    return False


def english(text):
    """An English word outside the data the window shows as it is."""
    return not is_data(text) and ENGLISH_WORDS.search(text) is not None


def visible_strings(root):
    """(role, what, text) of every node showing under root: its name, its description (GTK gives the tooltip
    there) and, for labels, the text drawn."""
    found = []

    def visit(node, depth):
        if depth > 60:
            return
        try:
            # The application itself is never "showing"; everything under it is looked at only while it is.
            if depth > 0 and not node.getState().contains(pyatspi.STATE_SHOWING):
                return
            role = node.roleName
            for what, text in (("name", node.name), ("tooltip", node.description)):
                if text:
                    found.append((role, what, text))
            if role in ("label", "status bar", "alert", "progress bar"):
                try:
                    drawn = node.queryText().getText(0, -1)
                except Exception:
                    drawn = ""
                if drawn and drawn != node.name:
                    found.append((role, "text", drawn))
            children = node.children if role != "text" else []  # a text view's content is the site's, not ours
        except Exception:  # the tree changes under us while the app updates
            return
        for child in children:
            visit(child, depth + 1)

    visit(root, 0)
    return found


def check(view, root):
    """Records every English string showing under root, for the view named `view`."""
    strings = visible_strings(root)
    walked.append(view)
    # A walk that sees no translated string at all is blind (the tree was not read), not clean.
    translated = [t for _, _, t in strings if shown(t) in SPANISH]
    if not translated:
        fail(f"the walk saw no Spanish string in {view}: {strings[:20]}")
    for role, what, text in strings:
        for piece in [text] + [p for p in text.split(" · ") if p != text]:
            for msgid, test in MATCHERS:
                if test(shown(piece)):
                    findings.setdefault((role, what, shown(piece)), (view, msgid))
        if english(shown(text)):
            findings.setdefault((role, what, shown(text)), (view, "an English word"))
        elif not accepted(text):
            unknown.setdefault((role, what, shown(text)), view)
    print(f"VIEW {view} {len(strings)} strings, {len(translated)} translated", flush=True)


def report():
    """Prints every finding; True when there was none."""
    for (role, what, text), (view, msgid) in sorted(findings.items()):
        print(f"ENGLISH {view} {role} {what}: {text!r} (msgid {msgid!r})", flush=True)
    for (role, what, text), view in sorted(unknown.items()):
        print(f"UNKNOWN {view} {role} {what}: {text!r} (not a Spanish message of po/es.po, nor demo data)", flush=True)
    return not findings and not unknown


def run_window(walk, what):
    """Starts the Spanish window (faro_ui.start_app), runs `walk(app, window)` with its checks, ends the window, and
    fails when the checks found any English or unknown string in `what`."""
    import faro_ui

    process, app, window = faro_ui.start_app()
    try:
        walk(app, window)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except Exception:
            process.kill()
    if not report():
        fail(f"{len(findings)} English and {len(unknown)} unknown string(s) in {what}")
