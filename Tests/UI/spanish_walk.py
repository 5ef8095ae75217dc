#!/usr/bin/python3
"""Walks every menu, dialog and page of the Spanish Faro window through AT-SPI and fails on any visible string
that is still in English msgid form: an untranslated label, button, menu item, window title or tooltip.

The English msgids come from po/es.po (every message whose Spanish differs from its English), so a string the code
forgot to pass through gettext, or one missing from the catalog, shows up as soon as it is on screen. Matching:
mnemonics dropped ("_Save page" is shown as "Save page"), "%@" standing for any text, a msgid ending in ": "
matching as a prefix (the code appends the details).

Run by Tests/UI/with-display.sh (a private X server and session bus) with FARO_LANG=es; started by
Tests/WindowEndToEndTests/SpanishWalkTests.swift. Environment as for faro_ui.py (FARO, FARO_ARGS, XDG_* folders), plus
FARO_PO (the catalog). Prints `VIEW <name> <n>` per view walked, `ENGLISH <view> <role> <what>: <text>` per finding,
then `OK spanish-walk …` or `FAIL …`.
"""
import os
import re
import sys
import time

os.environ.setdefault("FARO_LANG", "es")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faro_ui  # noqa: E402  (sets dogtail's configuration up first)
from faro_ui import TEXT, fail, press, wait_for  # noqa: E402
import pyatspi  # noqa: E402


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


MATCHERS = english_matchers(os.environ["FARO_PO"])
SPANISH = spanish_strings(os.environ["FARO_PO"])
findings = {}
walked = []


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

    # The primary menu (a popover from a menu model).
    press(window.child(name=TEXT["menu"], roleName="toggle button"))
    wait_for("the menu", lambda: app.child(name=TEXT["about"], roleName="push button"))
    check("main-menu", app)
    press(window.child(name=TEXT["menu"], roleName="toggle button"))

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
    if findings:
        fail(f"{len(findings)} English string(s) in the Spanish window")
    print(f"OK spanish-walk views={len(walked)} matchers={len(MATCHERS)}", flush=True)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException:
        import traceback
        print("FAIL " + traceback.format_exc().replace("\n", "\n     "), flush=True)
        sys.exit(1)
