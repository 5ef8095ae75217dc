#!/usr/bin/python3
"""Walks every menu, dialog and page of the Spanish Faro window through AT-SPI and fails on any visible string
that is not Spanish: an untranslated label, button, menu item, window title, tooltip, dialog text or status line.

Two checks on every string the walk sees (names, tooltips, labels' text) at every step:
- an English msgid of po/es.po shown as is (below), and
- every string must be made of Spanish: a msgstr of po/es.po (its `%@` filled with text that passes this same
  check, a msgstr ending in ": " followed by such text), GTK's own Spanish catalog (the file chooser), numbers and
  units, or data the window shows as it is: the demo catalog's strings (data/demo/beacons.json, the demo sites'
  pages), what the walk typed, the names of the folders the file chooser lists. Anything else is reported as
  `UNKNOWN`, and any string with common English words ("the", "was", "nothing"…) as `ENGLISH`.

The English msgids come from po/es.po (every message whose Spanish differs from its English), so a string the code
forgot to pass through gettext, or one missing from the catalog, shows up as soon as it is on screen. Matching:
mnemonics dropped ("_Save page" is shown as "Save page"), "%@" standing for any text, a msgid ending in ": "
matching as a prefix (the code appends the details).

Run by Tests/UI/with-display.sh (a private X server and session bus) with FARO_LANG=es; started by
Tests/WindowEndToEndTests/SpanishWalkTests.swift. Environment as for faro_ui.py (FARO, FARO_ARGS, XDG_* folders), plus
FARO_PO (the catalog) and FARO_DATA (the data folder). Prints `VIEW <name> <n>` per view walked,
`ENGLISH <view> <role> <what>: <text>` or `UNKNOWN <view> <role> <what>: <text>` per finding, then
`OK spanish-walk …` or `FAIL …`.
"""
import gettext
import glob
import html
import json
import os
import re
import sys
import time

os.environ.setdefault("FARO_LANG", "es")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faro_ui  # noqa: E402  (sets dogtail's configuration up first)
from faro_ui import TEXT, fail, press, wait_for  # noqa: E402
import pyatspi  # noqa: E402
from dogtail import rawinput  # noqa: E402


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
# Services the share menu names: the same names in every language.
BRANDS = {"Facebook", "LinkedIn", "Telegram", "WhatsApp", "X"}

MATCHERS = english_matchers(os.environ["FARO_PO"])
SPANISH = spanish_strings(os.environ["FARO_PO"])
EXACT, PATTERNS, PREFIXES = spanish_templates(os.environ["FARO_PO"])
GTK, GTK_PATTERNS = gtk_spanish()
DATA, SITES = demo_data(os.environ.get("FARO_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data")))
# What the walk types into the forms, and what the window shows of the test's own machine.
TYPED = {"no es un correo", "12ab", "Ana López", "ana@ejemplo.com", "5512345678", "Faro SA"}
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


def close_dialog(app, name, button):
    dialog = wait_for(f"the dialog {name}", lambda: app.child(name=name, roleName="dialog"))
    press(dialog.child(name=button, roleName="push button"))
    wait_for(f"the dialog {name} to close",
             lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == name))


def open_from_menu(app, window, label):
    faro_ui.open_menu_item(app, window, label)


def walk(app, window):
    wait_for("a catalogued beacon", lambda: [r for r in faro_ui.beacon_rows(window) if TEXT["unknown"] not in r.name])
    check("beacons", app)

    # "Calibrar a 1 m" from a row's context menu (a real right click), until its result (or refusal) shows.
    rows = faro_ui.beacon_rows(window)
    row = ([r for r in rows if TEXT["unknown"] in r.name] or rows)[0]
    x, y, w, h = row.extents
    rawinput.click(x + w // 3, y + h // 2, button=3)
    press(wait_for("the calibrate item", lambda: app.child(name="Calibrar a 1 m…", roleName="menu item"), timeout=10))
    calibration = wait_for("the calibration dialog", lambda: app.child(name="Calibrar a 1 m", roleName="dialog"))
    check("calibration-dialog", app)
    result = calibration.child(name="Resultado de la calibración")
    wait_for("the calibration's result", lambda: (result.queryText().getText(0, -1) or "").strip(), timeout=90)
    print(f"RESULT calibration {result.queryText().getText(0, -1)!r}", flush=True)
    check("calibration-result", app)
    close_dialog(app, "Calibrar a 1 m", CANCEL)

    # The primary menu (a popover from a menu model).
    press(window.child(name=TEXT["menu"], roleName="toggle button"))
    wait_for("the menu", lambda: app.child(name=TEXT["about"], roleName="push button"))
    check("main-menu", app)

    # Preferencias, with "Probar conexión" against an address where nothing answers (its result is worded by the
    # window, not the network layer); the field is put back before the dialog closes.
    press(wait_for("the Preferencias item", lambda: app.child(name="Preferencias", roleName="push button")))
    prefs = wait_for("the Preferencias dialog", lambda: app.child(name="Preferencias", roleName="dialog"))
    url = prefs.child(name="URL del servidor", roleName="text")
    original = url.text
    url.text = "http://127.0.0.1:1"
    press(prefs.child(name="Probar conexión", roleName="push button"))
    result = prefs.child(name="Resultado de la prueba de conexión")
    wait_for("the probe's answer", lambda: (result.text or "").startswith("Sin respuesta"), timeout=30)
    print(f"RESULT probe {result.text!r}", flush=True)
    check("preferences", app)
    url.text = original
    url.grabFocus()
    rawinput.pressKey("Escape")
    wait_for("Preferencias to close",
             lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == "Preferencias"), timeout=10)

    # "Mis datos de contacto": empty, then every field wrong, then saved (so "Enviar mis datos" is offered later).
    open_from_menu(app, window, TEXT["contact"])
    dialog = wait_for("the contact dialog", lambda: app.child(name=TEXT["contact"], roleName="dialog"))
    check("contact-dialog", app)
    faro_ui.fill(dialog, TEXT["email"], "no es un correo")
    faro_ui.fill(dialog, TEXT["phone"], "12ab")
    press(dialog.child(name=TEXT["save"], roleName="push button"))
    wait_for("the inline messages", lambda: len([n for n in dialog.findChildren(
        lambda n: n.roleName == "label" and n.showing and "@" in (n.name or ""))]) >= 1)
    check("contact-dialog-errors", app)
    faro_ui.fill(dialog, TEXT["name"], "Ana López")
    faro_ui.fill(dialog, TEXT["email"], "ana@ejemplo.com")
    faro_ui.fill(dialog, TEXT["phone"], "5512345678")
    faro_ui.fill(dialog, TEXT["company"], "Faro SA")
    press(dialog.child(name=TEXT["save"], roleName="push button"))
    wait_for("the contact dialog to close",
             lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == TEXT["contact"]))

    # "Registrar mi negocio": empty, with its messages, then cancelled.
    open_from_menu(app, window, TEXT["register"])
    dialog = wait_for("the registration dialog", lambda: app.child(name=TEXT["register"], roleName="dialog"))
    check("register-dialog", app)
    press(dialog.child(name=TEXT["send"], roleName="push button"))
    time.sleep(0.5)
    check("register-dialog-errors", app)
    close_dialog(app, TEXT["register"], CANCEL)

    # "Acerca de".
    open_from_menu(app, window, TEXT["about"])
    about = wait_for("the about dialog", lambda: app.child(roleName="dialog"))
    check("about-dialog", app)
    press(about.child(name=faro_ui.CLOSE, roleName="push button"))
    wait_for("the about dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog"))

    # Guardados, empty.
    press(window.child(name=TEXT["saved_tab"], roleName="radio button"))
    wait_for("Guardados", lambda: window.child(roleName="list box", name=TEXT["saved_list"]))
    check("saved-empty", app)
    press(window.child(name=BEACONS_TAB, roleName="radio button"))

    # A site: its page, the share menu, the QR code, the rating and "send my details" dialogs, saving.
    faro_ui.open_first_site(app, window)
    check("site", app)
    press(window.child(name=TEXT["share"], roleName="toggle button"))
    wait_for("the share menu", lambda: app.child(name=TEXT["qr"], roleName="menu item"))
    check("share-menu", app)
    press(app.child(name=TEXT["qr"], roleName="menu item"))
    wait_for("the QR code", lambda: app.findChildren(
        lambda n: n.roleName == "drawing area" and (n.name or "").startswith(TEXT["qr_of"])))
    check("qr-dialog", app)
    close_dialog(app, TEXT["qr"], faro_ui.CLOSE)

    press(window.child(name=TEXT["rate"], roleName="push button"))
    dialog = wait_for("the rating dialog", lambda: app.child(name=TEXT["rate"], roleName="dialog"))
    check("rating-dialog", app)
    press(dialog.child(name=TEXT["four"], roleName="push button"))
    check("rating-dialog-4", app)
    close_dialog(app, TEXT["rate"], CANCEL)

    press(wait_for("'Enviar mis datos'", lambda: window.child(name=TEXT["send_details"], roleName="push button")))
    wait_for("the comment dialog", lambda: app.child(name=TEXT["send_details"], roleName="dialog"))
    check("send-details-dialog", app)
    close_dialog(app, TEXT["send_details"], CANCEL)

    press(window.child(name=TEXT["save_page"], roleName="push button"))
    wait_for("the page to be saved", lambda: window.child(name=TEXT["saved_ok"], roleName="label"), timeout=30)
    check("site-saved", app)

    # Guardados with a page: the list, the export file chooser, the saved copy.
    press(faro_ui.saved_page_button(window, TEXT["export_prefix"], "a saved page's export button"))
    wait_for("the file chooser", lambda: [d for d in app.children if d.name == TEXT["export_title"]])
    check("export-chooser", app)
    chooser = [d for d in app.children if d.name == TEXT["export_title"]][0]
    press(chooser.child(name=CANCEL, roleName="push button"))
    wait_for("the file chooser to close", lambda: not [d for d in app.children if d.name == TEXT["export_title"]])
    check("saved-list", app)
    press(faro_ui.saved_page_button(window, TEXT["open_prefix"], "a saved page's open button"))
    wait_for("the saved copy", lambda: window.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").endswith(TEXT["saved_copy"])))
    check("saved-copy", app)

    # "Lugares visitados": the places this walk passed, with their times.
    press(window.child(name="Lugares visitados", roleName="radio button"))
    wait_for("the visits list", lambda: window.child(name="Lugares visitados", roleName="list box"))
    time.sleep(0.5)
    check("visits", app)

    # Last (a page window covers the list without a window manager): a beacon's page from its row's context menu.
    press(window.child(name=BEACONS_TAB, roleName="radio button"))
    rows = wait_for("the beacon rows", lambda: faro_ui.beacon_rows(window))
    x, y, w, h = rows[0].extents
    rawinput.click(x + w // 3, y + h // 2, button=3)
    press(wait_for("the Detalles item", lambda: app.child(name="Detalles", roleName="menu item"), timeout=10))
    page = wait_for("the beacon's page", lambda: [f for f in app.children if f.name == "Detalles"], timeout=15)[0]
    wait_for("the page's chart", lambda: page.child(name="Señal de los últimos 5 minutos"), timeout=10)
    check("beacon-page", app)


CANCEL = "Cancelar"
BEACONS_TAB = "Beacons"


def main():
    process, app, window = faro_ui.start_app()
    try:
        walk(app, window)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except Exception:
            process.kill()
    for (role, what, text), (view, msgid) in sorted(findings.items()):
        print(f"ENGLISH {view} {role} {what}: {text!r} (msgid {msgid!r})", flush=True)
    for (role, what, text), view in sorted(unknown.items()):
        print(f"UNKNOWN {view} {role} {what}: {text!r} (not a Spanish message of po/es.po, nor demo data)", flush=True)
    if findings or unknown:
        fail(f"{len(findings)} English and {len(unknown)} unknown string(s) in the Spanish window")
    print(f"OK spanish-walk views={len(walked)} matchers={len(MATCHERS)} templates={len(PATTERNS)}", flush=True)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException:
        import traceback
        print("FAIL " + traceback.format_exc().replace("\n", "\n     "), flush=True)
        sys.exit(1)
