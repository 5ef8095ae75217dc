#!/usr/bin/python3
"""Drives the real Faro window through AT-SPI (dogtail), as a user would, and takes screenshots.

Run by Tests/UI/run-scenario.sh inside a private X server and session bus; started by the Swift UI tests
(Tests/WindowEndToEndTests). Prints `OK <scenario> ...` lines on success; any failure raises and exits non-zero with the
reason. Environment: FARO (the faro binary), FARO_ARGS (its GUI arguments), SHOTS (screenshot folder), FARO_LANG
(es|en), plus XDG_* folders for the app's data; FARO_UI_OPENED (the file where the test's stand-in browser writes
the URLs it is given), FARO_UI_EXPORT_TO (where "export" saves), FARO_UI_LINGER (seconds to keep the app running
after the scenarios) and FARO_UI_STOP (a file whose appearance ends that wait early).
"""
import os
import re
import subprocess
import sys
import time

from atspi_driver import fail, press, wait_for  # noqa: E402  (sets dogtail up first)
from dogtail import rawinput, tree  # noqa: E402  (must come after the config)
import pyatspi  # noqa: E402

LANG = os.environ.get("FARO_LANG", "en")
TEXT = {
    "en": {"menu": "Main menu", "contact": "My contact details", "register": "Register my business",
           "name": "Name", "email": "E-mail", "phone": "Phone", "company": "Company", "save": "Save", "send": "Send",
           "digits": "10 digits",
           "disclaimer": "*Your details are stored on your device and shared with the authors of the sites you choose, "
                         "so that they can get in touch with you.",
           "list": "Nearby beacons", "about": "About Faro", "content": "Site content", "save_page": "Save page",
           "saved_ok": "Saved in Guardados.", "rate": "Rate site", "four": "4 stars", "send_rating": "Send rating",
           "send_details": "Send my details", "details_sent": "Details sent", "comment": "Comment (optional)",
           "saved_tab": "Saved", "back": "Back to the beacons", "unknown": "Unknown beacon",
           "saved_list": "Saved pages", "open_prefix": "Open ", "share": "Share", "copy_link": "Copy link",
           "qr": "QR code", "qr_of": "QR code of ", "delete_prefix": "Delete ",
           "thanks": "Thank you: you rated this site 4 of 5.", "saved_copy": "(saved copy)",
           "export_prefix": "Export ", "export_title": "Export saved page", "export": "Export"},
    "es": {"menu": "Menú principal", "contact": "Mis datos de contacto", "register": "Registrar mi negocio",
           "name": "Nombre", "email": "Email", "phone": "Teléfono", "company": "Empresa", "save": "Guardar",
           "send": "Enviar", "digits": "10 dígitos",
           "disclaimer": "*Tus datos serán almacenados en tú dispositivo y serán compartidos con los autores de los "
                         "sitios que tú decidas con el propósito de que puedan comunicarse contigo.",
           "list": "Beacons cercanos", "about": "Acerca de Faro", "content": "Contenido del sitio",
           "save_page": "Guardar página", "saved_ok": "Guardada en Guardados.", "rate": "Calificar sitio",
           "four": "4 estrellas", "send_rating": "Enviar calificación", "send_details": "Enviar mis datos",
           "details_sent": "Datos enviados", "comment": "Comentario (opcional)", "saved_tab": "Guardados",
           "back": "Volver a los beacons", "unknown": "Beacon desconocido", "saved_list": "Páginas guardadas", "open_prefix": "Abrir ", "share": "Compartir",
           "copy_link": "Copiar enlace", "qr": "Código QR", "qr_of": "Código QR de ", "delete_prefix": "Eliminar ",
           "thanks": "Gracias: calificaste este sitio con 4 de 5.", "saved_copy": "(copia guardada)",
           "export_prefix": "Exportar ", "export_title": "Exportar página guardada", "export": "Exportar"},
}[LANG]


def screenshot(node, name):
    folder = os.environ.get("SHOTS")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{name}.png")
    x, y, w, h = node.extents
    display = os.environ["DISPLAY"]
    subprocess.run(["import", "-display", display, "-window", "root", "-crop", f"{w}x{h}+{max(x,0)}+{max(y,0)}",
                    "+repage", path], check=True)
    print(f"SHOT {path}", flush=True)


def start_app():
    args = [os.environ["FARO"]] + os.environ.get("FARO_ARGS", "").split()
    folder = os.environ.get("SHOTS") or os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    os.makedirs(folder, exist_ok=True)
    log = open(os.path.join(folder, f"faro-{os.getpid()}.log"), "w")
    process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    app = wait_for("the faro application on the accessibility bus",
                   lambda: tree.root.application("faro"), timeout=30)
    window = wait_for("the main window", lambda: app.child(roleName="frame", recursive=False))
    return process, app, window


def beacon_rows(window):
    listbox = window.child(name=TEXT["list"], roleName="list box")
    return [row for row in listbox.children if "≈" in (row.name or "")]


def distance_of(row):
    match = re.search(r"≈ ([0-9.]+) m", row.name)
    return float(match.group(1)) if match else float("inf")


def open_menu_item(app, window, label):
    press(window.child(name=TEXT["menu"], roleName="toggle button"))
    item = wait_for(f"menu item {label}", lambda: app.child(name=label, roleName="push button"))
    press(item)


def fill(dialog, label, value):
    entry = dialog.child(name=label, roleName="text")
    entry.text = value
    return entry


def scenario_beacons(app, window):
    rows = wait_for("at least three beacons with a distance", lambda: (r := beacon_rows(window)) and len(r) >= 3 and r)
    distances = [distance_of(r) for r in rows]
    if distances != sorted(distances):
        fail(f"beacons not nearest first: {distances}")
    time.sleep(1.5)
    screenshot(window, f"beacons-{LANG}")
    print(f"OK beacons {len(rows)} {distances}", flush=True)


def scenario_contact(app, window):
    open_menu_item(app, window, TEXT["contact"])
    dialog = wait_for("the contact dialog", lambda: app.child(name=TEXT["contact"], roleName="dialog"))
    wait_for("the disclaimer", lambda: dialog.child(name=TEXT["disclaimer"], roleName="label"))
    fill(dialog, TEXT["name"], "Ana López")
    fill(dialog, TEXT["email"], "ana@ejemplo.com")
    fill(dialog, TEXT["phone"], "55 1234 567")
    fill(dialog, TEXT["company"], "Faro SA")
    press(dialog.child(name=TEXT["save"], roleName="push button"))
    message = wait_for("the inline phone message",
                       lambda: [n for n in dialog.findChildren(lambda n: n.roleName == "label" and TEXT["digits"] in (n.name or ""))])
    screenshot(dialog, f"contact-invalid-{LANG}")
    print(f"OK invalid-phone-rejected {message[0].name}", flush=True)
    fill(dialog, TEXT["phone"], "(55) 1234-5678")
    press(dialog.child(name=TEXT["save"], roleName="push button"))
    wait_for("the dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == TEXT["contact"]))
    print("OK contact-saved", flush=True)


def scenario_register(app, window):
    open_menu_item(app, window, TEXT["register"])
    dialog = wait_for("the registration dialog", lambda: app.child(name=TEXT["register"], roleName="dialog"))
    fill(dialog, TEXT["name"], "Panadería Santa Clara")
    fill(dialog, TEXT["email"], "no es un correo")
    fill(dialog, TEXT["phone"], "5512345678")
    press(dialog.child(name=TEXT["send"], roleName="push button"))
    wait_for("the inline e-mail message",
             lambda: dialog.findChildren(lambda n: n.roleName == "label" and "@ejemplo.com" in (n.name or "")))
    screenshot(dialog, f"register-invalid-{LANG}")
    fill(dialog, TEXT["email"], "hola@santaclara.mx")
    press(dialog.child(name=TEXT["send"], roleName="push button"))
    wait_for("the dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == TEXT["register"]))
    print("OK registration-submitted", flush=True)


def content_view(window):
    """The site page's text view, or None while the site page is not shown."""
    found = window.findChildren(lambda n: n.roleName == "text" and n.name == TEXT["content"] and n.showing)
    return found[0] if found else None


def open_first_site(app, window, business=None):
    """Opens the nearest catalogued place (or the nearest row of `business`) with a click and waits for its text.
    The list re-sorts while the first distances settle, so the row can move from under the pointer between being
    found and the click landing on another row (one not in the catalog yet opens nothing): then it clicks again."""
    # Every row is laid out, those added while another page was shown too: a row GTK never placed is not drawn,
    # and a click on the list then finds no row under the pointer.
    wait_for("every beacon row laid out", lambda: all(r.extents[3] > 1 for r in beacon_rows(window)))
    for attempt in range(3):
        rows = wait_for(f"a catalogued beacon{' of ' + business if business else ''}", lambda: [
            r for r in beacon_rows(window) if TEXT["unknown"] not in r.name and (business is None or business in r.name)])
        name = rows[0].name
        rows[0].click()
        deadline = time.time() + 5
        while time.time() < deadline and not content_view(window):
            time.sleep(0.2)
        if content_view(window):
            break
        print(f"RETRY site-open {name.split(',')[0]}: the click at {rows[0].extents} opened nothing", flush=True)
    view = wait_for("the site content", lambda: (v := content_view(window)) and len(v.text.strip()) > 20 and v)
    if business and business not in view.text:
        fail(f"the click opened another place than {business}: {view.text[:60]!r}")
    print(f"OK site-opened {name.split(',')[0]} chars={len(view.text)}", flush=True)
    return view


def scenario_site(app, window):
    view = open_first_site(app, window)
    time.sleep(1)
    screenshot(window, f"site-{LANG}")
    # Without contact details there is no "Enviar mis datos".
    if window.findChildren(lambda n: n.roleName == "push button" and n.name == TEXT["send_details"] and n.showing):
        fail("'Send my details' is offered without contact details")
    press(window.child(name=TEXT["save_page"], roleName="push button"))
    wait_for("the page to be saved", lambda: window.child(name=TEXT["saved_ok"], roleName="label"), timeout=30)
    print("OK site-saved", flush=True)
    press(window.child(name=TEXT["rate"], roleName="push button"))
    dialog = wait_for("the rating dialog", lambda: app.child(name=TEXT["rate"], roleName="dialog"))
    press(dialog.child(name=TEXT["four"], roleName="push button"))
    screenshot(dialog, f"rating-{LANG}")
    press(dialog.child(name=TEXT["send_rating"], roleName="push button"))
    wait_for("the rating dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == TEXT["rate"]))
    wait_for("'Rate site' to be hidden", lambda: not window.findChildren(
        lambda n: n.roleName == "push button" and n.name == TEXT["rate"] and n.showing))
    wait_for("the thank-you note", lambda: window.child(name=TEXT["thanks"], roleName="label"))
    print(f"OK site-rated text={view.text[:40]!r}", flush=True)


def scenario_send_details(app, window):
    open_first_site(app, window)
    button = wait_for("'Send my details'", lambda: window.child(name=TEXT["send_details"], roleName="push button"))
    press(button)
    dialog = wait_for("the comment dialog", lambda: app.child(name=TEXT["send_details"], roleName="dialog"))
    dialog.child(name=TEXT["comment"], roleName="text").text = "Quiero una cotización"
    press(dialog.child(name=TEXT["send"], roleName="push button"))
    wait_for("the dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == TEXT["send_details"]))
    sent = wait_for("'Details sent'", lambda: window.child(name=TEXT["details_sent"], roleName="push button"))
    if sent.sensitive:
        fail("'Send my details' is still enabled after sending")
    print("OK details-sent", flush=True)


def saved_page_button(window, prefix, what):
    """Shows Guardados and returns the first saved page's button whose name starts with `prefix`."""
    press(window.child(name=TEXT["saved_tab"], roleName="radio button"))
    listbox = wait_for("the saved pages", lambda: window.child(roleName="list box", name=TEXT["saved_list"]))
    return wait_for(what, lambda: [b for b in listbox.findChildren(
        lambda n: n.roleName == "push button" and (n.name or "").startswith(prefix))])[0]


def scenario_saved(app, window):
    press(saved_page_button(window, TEXT["open_prefix"], "a saved page's open button"))
    view = wait_for("the saved copy's text", lambda: (v := window.child(name=TEXT["content"], roleName="text")) and
                    len(v.text.strip()) > 20 and v)
    wait_for("the saved copy's heading", lambda: window.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").endswith(TEXT["saved_copy"])))
    screenshot(window, f"saved-{LANG}")
    print(f"OK saved-opened-offline chars={len(view.text)}", flush=True)
    # Back to Guardados: delete it, and the list says it is empty.
    press(window.child(name=TEXT["saved_tab"], roleName="radio button"))
    listbox = window.child(roleName="list box", name=TEXT["saved_list"])
    wait_for("a delete button", lambda: [b for b in listbox.findChildren(
        lambda n: n.roleName == "push button" and (n.name or "").startswith(TEXT["delete_prefix"]))])[0].doActionNamed("click")
    wait_for("the list to be empty", lambda: not listbox.findChildren(
        lambda n: n.roleName == "push button" and (n.name or "").startswith(TEXT["open_prefix"])))
    print("OK saved-deleted", flush=True)


def scenario_share(app, window):
    open_first_site(app, window)
    press(window.child(name=TEXT["share"], roleName="toggle button"))
    press(wait_for("the share menu", lambda: app.child(name=TEXT["copy_link"], roleName="menu item")))
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gdk, Gtk
    link = wait_for("the link on the clipboard",
                    lambda: Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).wait_for_text())
    if "imei" in link:
        fail(f"the shared link carries the device id: {link}")
    print(f"OK share-link {link}", flush=True)
    press(window.child(name=TEXT["share"], roleName="toggle button"))
    press(wait_for("the QR item", lambda: app.child(name=TEXT["qr"], roleName="menu item")))
    qr = wait_for("the QR code", lambda: app.findChildren(
        lambda n: n.roleName == "drawing area" and (n.name or "").startswith(TEXT["qr_of"])))
    screenshot(qr[0].parent.parent, f"qr-{LANG}")
    print(f"OK share-qr {qr[0].name}", flush=True)


CLOSE = {"en": "Close", "es": "Cerrar"}[LANG]


def scenario_about(app, window):
    open_menu_item(app, window, TEXT["about"])
    dialog = wait_for("the about dialog", lambda: app.child(roleName="dialog"))
    labels = [n.name or "" for n in dialog.findChildren(lambda n: n.roleName == "label")]
    ids = [m.group(0) for text in labels for m in [re.search(r"[0-9a-f]{32}|[0-9]{15}", text)] if m]
    if not ids:
        fail(f"no device id in the about dialog: {labels}")
    print(f"OK about-device-id {ids[0]}", flush=True)
    # Its button, not Escape: without a window manager the keyboard goes to whatever window is under the pointer.
    press(dialog.child(name=CLOSE, roleName="push button"))
    wait_for("the about dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog"))


def opened_urls():
    """The URLs handed to the desktop's browser: the test's stand-in browser appends each to FARO_UI_OPENED."""
    try:
        with open(os.environ["FARO_UI_OPENED"], encoding="utf-8") as f:
            return f.read().split()
    except FileNotFoundError:
        return []


def scenario_links(app, window):
    view = open_first_site(app, window, "Café La Parroquia")
    text = view.text
    outside = text.index("nuestra tienda en línea") + 3
    neighbour = text.index("Librería El Péndulo") + 3
    # Enter where there is no link follows nothing; Enter on a link follows it, as a keyboard or screen-reader user
    # does (the cursor placed through the accessible text).
    view.caretOffset = 0
    view.keyCombo("Return")
    view.caretOffset = outside
    view.keyCombo("Return")
    wait_for("the link followed with Enter", lambda: len(opened_urls()) >= 1, timeout=20)
    print(f"OK link-enter {opened_urls()[0]}", flush=True)
    # A click on the other link, where it is drawn on the screen.
    x, y, w, h = view.queryText().getCharacterExtents(neighbour, pyatspi.DESKTOP_COORDS)
    rawinput.click(x + w // 2, y + h // 2)
    wait_for("the link followed with a click", lambda: len(opened_urls()) >= 2, timeout=20)
    time.sleep(0.5)  # anything else that was opened would show up by now
    print(f"OK link-click {opened_urls()[1]}", flush=True)


def scenario_export(app, window):
    press(saved_page_button(window, TEXT["export_prefix"], "a saved page's export button"))
    dialog = wait_for("the file chooser", lambda: [d for d in app.children if d.name == TEXT["export_title"]])[0]
    entry = wait_for("the file name entry", lambda: [e for e in dialog.findChildren(
        lambda n: n.roleName == "text" and (n.text or "").endswith(".mht"))])[0]
    print(f"OK export-suggested {entry.text}", flush=True)
    target = os.environ["FARO_UI_EXPORT_TO"]
    entry.text = target
    screenshot(dialog, f"export-{LANG}")
    press(dialog.child(name=TEXT["export"], roleName="push button"))
    wait_for("the file chooser to close", lambda: not [d for d in app.children if d.name == TEXT["export_title"]])
    wait_for("the exported file", lambda: os.path.exists(target), timeout=20)
    print(f"OK export-written {target} {os.path.getsize(target)}", flush=True)


JAVASCRIPT = {"en": ("This site needs JavaScript to show in full", "Open in browser", "history"),
              "es": ("Este sitio necesita JavaScript para mostrarse completo", "Abrir en el navegador",
                     "historial")}[LANG]


def javascript_line(window):
    """The line that says the page needs JavaScript, and its button, when both are showing."""
    labels = window.findChildren(lambda n: n.roleName == "label" and n.name == JAVASCRIPT[0] and n.showing)
    buttons = window.findChildren(lambda n: n.roleName == "push button" and n.name == JAVASCRIPT[1] and n.showing)
    return (labels[0], buttons[0]) if labels and buttons else None


def scenario_javascript(app, window):
    """A framework page with a <noscript> (the café) shows the noscript's text and the JavaScript line; its button
    hands the site to the browser. Then a page that is all script (the bakery): the line again, not an empty view."""
    view = open_first_site(app, window, "Café La Parroquia")
    label, button = wait_for("the JavaScript line", lambda: javascript_line(window))
    if "Necesitas habilitar JavaScript para ver este sitio." not in view.text:
        fail(f"the <noscript> text is not shown: {view.text!r}")
    if JAVASCRIPT[2] not in (button.description or ""):
        fail(f"the button does not say why the device id is left out: {button.description!r}")
    screenshot(window, f"javascript-{LANG}")
    print(f"OK javascript-line {label.name!r} {button.name!r}", flush=True)
    press(button)
    wait_for("the site handed to the browser", lambda: len(opened_urls()) >= 1, timeout=20)
    print(f"OK javascript-open {opened_urls()[0]}", flush=True)
    press(window.child(name=TEXT["save_page"], roleName="push button"))
    wait_for("the page to be saved", lambda: window.child(name=TEXT["saved_ok"], roleName="label"), timeout=30)
    press(window.child(name=TEXT["back"], roleName="push button"))
    view = open_first_site(app, window, "Panadería Santa Clara")
    wait_for("the JavaScript line on the all-script page", lambda: javascript_line(window))
    print(f"OK javascript-all-script {view.text.strip()!r}", flush=True)
    # The saved café (Guardados) shows what the view showed: the noscript text and the line, whose button opens
    # the address it was saved from.
    press(saved_page_button(window, TEXT["open_prefix"], "the saved café's open button"))
    wait_for("the saved copy's heading", lambda: window.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").endswith(TEXT["saved_copy"])))
    view = wait_for("the saved copy's text", lambda: (v := content_view(window)) and
                    "Necesitas habilitar JavaScript" in v.text and v)
    label, button = wait_for("the JavaScript line on the saved copy", lambda: javascript_line(window))
    press(button)
    wait_for("the saved site handed to the browser", lambda: len(opened_urls()) >= 2, timeout=20)
    print(f"OK javascript-saved {opened_urls()[1]}", flush=True)


SCENARIOS = {"javascript": scenario_javascript, "links": scenario_links, "export": scenario_export,
             "share": scenario_share, "about": scenario_about, "site": scenario_site, "send-details": scenario_send_details, "saved": scenario_saved,"beacons": scenario_beacons, "contact": scenario_contact, "register": scenario_register}


def main():
    names = sys.argv[1:] or ["beacons"]
    process, app, window = start_app()
    try:
        for name in names:
            SCENARIOS[name](app, window)
        # Let background work (the outbox delivering what a form committed) run while the test watches the backend.
        # The test can end the wait early by creating the file FARO_UI_STOP once it has seen what it waits for.
        deadline = time.time() + float(os.environ.get("FARO_UI_LINGER", "0"))
        stop = os.environ.get("FARO_UI_STOP")
        while time.time() < deadline and not (stop and os.path.exists(stop)):
            time.sleep(0.1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    print(f"DONE exit={process.returncode}", flush=True)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException:
        import traceback
        print("FAIL " + traceback.format_exc().replace("\n", "\n     "), flush=True)
        sys.exit(1)
