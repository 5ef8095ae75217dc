#!/usr/bin/python3
"""Walks every menu, dialog and page of the Spanish Faro window through AT-SPI and fails on any visible string
that is not Spanish: an untranslated label, button, menu item, window title, tooltip, dialog text or status line.

Two checks on every string the walk sees (names, tooltips, labels' text) at every step (Tests/UI/spanish_strings.py):
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
import os
import sys
import time

os.environ.setdefault("FARO_LANG", "es")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faro_ui  # noqa: E402  (sets dogtail's configuration up first)
from faro_ui import TEXT, fail, press, wait_for  # noqa: E402
from dogtail import rawinput  # noqa: E402
import spanish_strings  # noqa: E402
from spanish_strings import MATCHERS, PATTERNS, walked  # noqa: E402

# What this walk types into the forms: shown back as it was typed.
spanish_strings.TYPED.update({"no es un correo", "12ab", "Ana López", "ana@ejemplo.com", "5512345678", "Faro SA"})
check = spanish_strings.check


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
    # Each row's chart says which way its beacon moves, in the words the session's list builder gave the row.
    trends = {"Acercándose", "Alejándose", "Sin cambios"}
    charts = wait_for("the rows' charts", lambda: [
        chart for row in faro_ui.beacon_rows(window)
        for chart in row.findChildren(lambda n: n.roleName == "drawing area")])
    said = {chart.description for chart in charts}
    if not said <= trends:
        fail(f"the rows' charts say {sorted(said)!r}")
    print(f"OK trend {sorted(said)!r}", flush=True)

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
    spanish_strings.run_window(walk, "the Spanish window")
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
