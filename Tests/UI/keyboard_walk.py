#!/usr/bin/python3
"""Every feature from the keyboard (docs/keyboard.md), in the Spanish window under a window manager; run by
Tests/UI/keyboard-walk.sh. Only real key presses drive the window (xdotool, through the X server like a keyboard);
AT-SPI only reads what has the focus and what is shown. The walk is a list of steps (`STEPS`), each a function that
presses keys and checks what they did; a step is added by writing one and naming it there.

Prints `OK <step> …` per step, `RATED <business> <stars>` and `SENT <business> <comment>` (the test then finds
those rows at the backend), `TAB <dialog>: …` (the Tab order), the Spanish check of the views it saw, then
`OK keyboard-walk`; a failure prints `FAIL <reason>` and exits 1. Environment: FARO (the binary, for `faro calibrate
--list`), XDG_DATA_HOME (the profile database, read only), FARO_PO and FARO_DATA (for Tests/UI/spanish_strings.py)."""
import os
import sqlite3
import subprocess
import time
import unicodedata

import pyatspi
from atspi_driver import active_window, describe_windows, fail, wait_for, window_title, xdotool  # noqa: E402
from dogtail import tree  # noqa: E402
import spanish_strings  # noqa: E402

LIST = "Beacons cercanos"
UNKNOWN = "Beacon desconocido"
CONTENT = "Contenido del sitio"
RATE = "Calificar sitio"
RATING = "Calificación"
PREFERENCES = "Preferencias"
MENU_ITEM = "Acerca de Faro"  # an item of the primary menu
CONTACT = "Mis datos de contacto"
SHORTCUTS = "Atajos de teclado"
SAVE_PAGE = "Guardar página"
SAVED = "Guardados"
SAVED_LIST = "Páginas guardadas"
BEACONS = "Beacons"
VISITS = "Lugares visitados"
SEND_DETAILS = "Enviar mis datos"
COMMENT = "Comentario (opcional)"
ROW_MENU = ("Detalles", "Calibrar a 1 m…")
# How many presses of Tab or an arrow a step may take to reach what it wants before it fails.
MAX_PRESSES = 25


def key(*keys):
    """Real key presses, to whichever window has the keyboard focus (as a keyboard would)."""
    for k in keys:
        xdotool("key", "--clearmodifiers", k)
        time.sleep(0.25)


def is_focused(node):
    try:
        return node.getState().contains(pyatspi.STATE_FOCUSED)
    except Exception:
        return False


def focused(root=None):
    """The node that has the keyboard focus under `root` (the application), found by walking what is showing."""
    found = []

    def visit(node, depth):
        if found or depth > 40:
            return
        try:
            state = node.getState()
            if depth > 0 and not state.contains(pyatspi.STATE_SHOWING):
                return
            if state.contains(pyatspi.STATE_FOCUSED):
                found.append(node)
                return
            # A list's rows are looked at only when one of them can hold the focus.
            children = node.children if node.roleName != "text" else []
        except Exception:
            return
        for child in children:
            visit(child, depth + 1)

    visit(root or app, 0)
    return found[0] if found else None


def describe(node):
    return f"{node.roleName} {node.name!r}" if node else "nothing"


def press_until(keys, what, probe):
    """Presses `keys` until `probe(focused node)` holds (checking before the first press); fails after MAX_PRESSES."""
    for _ in range(MAX_PRESSES + 1):
        node = focused()
        if node and probe(node):
            return node
        key(keys)
    fail(f"{MAX_PRESSES} presses of {keys} did not reach {what}; the focus is on {describe(focused())}")


def same_node(a, b):
    return a is not None and b is not None and a.name == b.name and a.roleName == b.roleName and a.extents == b.extents


def tab_follows_the_visual_order(dialog, what):
    """Presses Tab until the focus comes back to where it started in `dialog` and checks that, read from the
    control at the top left, each control Tab reaches is on the same line to the right of the one before, or on a
    later line (by their places on the screen). Returns the names in Tab order."""
    start = wait_for(f"the focus in {what}", lambda: focused(dialog), timeout=5)
    cycle = [start]
    for _ in range(MAX_PRESSES):
        key("Tab")
        node = wait_for(f"the focus in {what} after Tab", lambda: focused(dialog), timeout=5)
        if same_node(node, start):
            break
        cycle.append(node)
    else:
        fail(f"Tab never came back to {describe(start)} in {what}: {[describe(n) for n in cycle]}")
    places = [n.extents for n in cycle]
    first = min(range(len(cycle)), key=lambda i: (places[i][1], places[i][0]))
    cycle, places = cycle[first:] + cycle[:first], places[first:] + places[:first]
    for (a, b), (na, nb) in zip(zip(places, places[1:]), zip(cycle, cycle[1:])):
        ax, ay, aw, ah = a
        bx, by, bw, bh = b
        later_line = by >= ay + ah / 2
        same_line_right = abs((by + bh / 2) - (ay + ah / 2)) < max(ah, bh) / 2 and bx > ax
        if not (later_line or same_line_right):
            fail(f"in {what} Tab goes from {describe(na)} at {a} to {describe(nb)} at {b}, against the visual order")
    return [n.name for n in cycle]


def list_row(node):
    """Whether a node is a row of the beacon list."""
    try:
        return node.roleName == "list item" and node.parent.name == LIST
    except Exception:
        return False


def catalogued(node):
    return list_row(node) and "≈" in (node.name or "") and UNKNOWN not in node.name


def place(row_name):
    """A row's place: its title and business (the distance after them changes every second)."""
    return ", ".join(row_name.split(", ")[:2])


def content():
    found = window.findChildren(lambda n: n.roleName == "text" and n.name == CONTENT and n.showing)
    return found[0] if found and len(found[0].text.strip()) > 20 else None


def main_window_active():
    wait_for(f"the main window to be active ({describe_windows()})",
             lambda: active_window() and window_title(active_window()) == "Faro", timeout=15)


opened = {}


def step_open_site():
    """Tab into the list, Down to a catalogued row, Enter opens its site."""
    press_until("Tab", "a row of the beacon list", list_row)
    row = press_until("Down", "a catalogued row", catalogued)
    opened["place"] = place(row.name)
    key("Return")
    business = opened["place"].split(", ")[1]
    view = wait_for(f"the site of {opened['place']}", lambda: (v := content()) and business in v.text and v, timeout=30)
    return f"{opened['place']} chars={len(view.text)}"


def step_rate_site():
    """Tab to "Calificar sitio", Enter; the rating bar has the focus; Right three times, then 4; Enter sends."""
    press_until("Tab", f"the {RATE} button", lambda n: n.roleName == "push button" and n.name == RATE)
    key("Return")
    dialog = wait_for("the rating dialog", lambda: app.child(name=RATE, roleName="dialog"), timeout=15)
    bar = wait_for("the rating bar to have the focus", lambda: (n := focused(dialog)) and n.name == RATING and n,
                   timeout=10)
    order = tab_follows_the_visual_order(dialog, RATE)
    if order != [RATING, "Cancelar", "Enviar calificación"]:
        fail(f"Tab in {RATE} goes {order}")
    wait_for("the focus back on the rating bar", lambda: (n := focused(dialog)) and n.name == RATING, timeout=5)
    key("Right", "Right", "Right")
    wait_for("the bar to say 3 de 5", lambda: bar.description == "3 de 5", timeout=5)
    key("Left")
    wait_for("the bar to say 2 de 5", lambda: bar.description == "2 de 5", timeout=5)
    key("4")
    wait_for("the bar to say 4 de 5", lambda: bar.description == "4 de 5", timeout=5)
    if not dialog.findChildren(lambda n: n.roleName == "label" and n.name == "4 de 5" and n.showing):
        fail("the dialog's value line does not say 4 de 5")
    spanish_strings.check("rating-dialog-keys", dialog)
    key("Return")
    wait_for("the rating dialog to close",
             lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == RATE), timeout=15)
    wait_for("the thank-you note", lambda: window.findChildren(
        lambda n: n.roleName == "label" and n.name == "Gracias: calificaste este sitio con 4 de 5." and n.showing))
    if window.findChildren(lambda n: n.roleName == "push button" and n.name == RATE and n.showing):
        fail(f"{RATE} is still offered after rating")
    print(f"RATED {opened['place'].split(', ')[1]} 4", flush=True)
    return "4 de 5"


def back_to_the_row(keys):
    main_window_active()
    key(keys)
    wait_for("the list again", lambda: window.findChildren(
        lambda n: n.roleName == "list box" and n.name == LIST and n.showing), timeout=10)
    row = wait_for("the focus on the opened row", lambda: (n := focused()) and list_row(n) and n, timeout=10)
    if place(row.name) != opened["place"]:
        fail(f"after going back the focus is on {row.name!r}, not on {opened['place']!r}")
    if content():
        fail("the site is still shown")
    return place(row.name)


def step_back_with_alt_left():
    return back_to_the_row("alt+Left")


def step_back_with_escape():
    """Enter on the focused row opens it again; Escape goes back to it."""
    key("Return")
    business = opened["place"].split(", ")[1]
    wait_for("the site again", lambda: (v := content()) and business in v.text, timeout=30)
    return back_to_the_row("Escape")


def shown_rows():
    return [n for n in window.findChildren(list_row) if n.showing]


def step_search():
    """Ctrl+F puts the focus in "Buscar"; the opened place's business typed without accents or capitals leaves only
    its rows; Escape empties and closes the bar and the other rows come back."""
    business = opened["place"].split(", ")[1]
    others = [n.name for n in shown_rows() if business not in n.name]
    if not others:
        fail(f"no row other than {business!r} to see the search leave out")
    key("ctrl+f")
    entry = wait_for("the focus in Buscar", lambda: (n := focused()) and n.roleName == "text" and n.name == "Buscar"
                     and n, timeout=10)
    typed = "".join(c for c in unicodedata.normalize("NFD", business) if not unicodedata.combining(c)).lower()
    xdotool("type", "--delay", "60", typed)
    wait_for(f"only {business!r} listed after typing {typed!r}",
             lambda: (rows := shown_rows()) and all(business in n.name for n in rows), timeout=10)
    if entry.text != typed:
        fail(f"the search entry holds {entry.text!r}, not {typed!r}")
    key("Escape")
    wait_for("the other rows back after Escape",
             lambda: any(business not in n.name for n in shown_rows()), timeout=10)
    if window.findChildren(lambda n: n.roleName == "text" and n.name == "Buscar" and n.showing):
        fail("the search bar is still shown after Escape")
    return f"{typed!r} found {business!r}"


def step_preferences():
    """Ctrl+, opens Preferences, whose Tab order is the order on screen; Escape closes it."""
    key("ctrl+comma")
    dialog = wait_for("Preferences", lambda: app.child(name=PREFERENCES, roleName="dialog"), timeout=15)
    wait_for("Preferences to be the active window", lambda: window_title(active_window() or 0) == PREFERENCES,
             timeout=10)
    order = tab_follows_the_visual_order(dialog, PREFERENCES)
    print(f"TAB {PREFERENCES}: {' | '.join(order)}", flush=True)
    key("Escape")
    wait_for("Preferences to close", lambda: not app.findChildren(
        lambda n: n.roleName == "dialog" and n.name == PREFERENCES), timeout=10)
    main_window_active()
    return "opened and closed"


def menu_item_shown(name, role):
    return app.findChildren(lambda n: n.roleName == role and n.name == name and n.showing)


def step_main_menu():
    """F10 opens the primary menu, Escape closes it (and does nothing else)."""
    key("F10")
    wait_for("the primary menu", lambda: menu_item_shown(MENU_ITEM, "push button"), timeout=10)
    key("Escape")
    wait_for("the primary menu to close", lambda: not menu_item_shown(MENU_ITEM, "push button"), timeout=10)
    return "opened and closed"


def step_row_menu():
    """The Menu key opens the focused row's menu (Escape closes it); Shift+F10 opens it again, its first item is
    chosen with Enter: the beacon's page ("Detalles"), which Escape closes."""
    row = press_until("Tab", "a row of the beacon list", list_row)
    key("Menu")
    wait_for("the row's menu (Menu key)", lambda: all(menu_item_shown(n, "menu item") for n in ROW_MENU), timeout=10)
    key("Escape")
    wait_for("the row's menu to close", lambda: not menu_item_shown(ROW_MENU[0], "menu item"), timeout=10)
    key("shift+F10")
    wait_for("the row's menu (Shift+F10)", lambda: all(menu_item_shown(n, "menu item") for n in ROW_MENU), timeout=10)
    key("Return")
    page = wait_for("the beacon's page", lambda: [f for f in app.children if f.name == "Detalles" and
                                                   f.roleName == "frame"], timeout=15)[0]
    wait_for("the page to be the active window", lambda: window_title(active_window() or 0).startswith("Detalles"),
             timeout=10)
    spanish_strings.check("beacon-page-keys", page)
    key("Escape")
    wait_for("the page to close", lambda: not [f for f in app.children if f.name == "Detalles"], timeout=10)
    main_window_active()
    return place(row.name)


def stored_contact():
    """The contact details the window stored (read from its database, read only)."""
    path = os.path.join(os.environ["XDG_DATA_HOME"], "faro", "faro.sqlite3")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT nombre, email, telefono, empresa FROM contact_profile").fetchone()
    except sqlite3.Error:
        return None


def step_contact_form():
    """F10, Down to "Mis datos de contacto", Enter. The focus starts in Nombre and Tab follows the fields as shown;
    Enter in a field submits: a short phone is refused and the focus moves to Teléfono; fixed, Enter saves."""
    key("F10")
    press_until("Down", f"the menu item {CONTACT}", lambda n: n.name == CONTACT)
    key("Return")
    dialog = wait_for("the contact dialog", lambda: app.child(name=CONTACT, roleName="dialog"), timeout=15)
    order = tab_follows_the_visual_order(dialog, CONTACT)
    if order[:4] != ["Nombre", "Email", "Teléfono", "Empresa"] or order[-2:] != ["Cancelar", "Guardar"]:
        fail(f"Tab in {CONTACT} goes {order}")
    typed = {"Nombre": "Ana Lopez", "Email": "ana@ejemplo.com", "Teléfono": "55 1234", "Empresa": "Faro SA"}
    spanish_strings.TYPED.update(typed.values())
    for i, (field, text) in enumerate(typed.items()):
        if i > 0:
            key("Tab")
        wait_for(f"the focus in {field}", lambda: (n := focused(dialog)) and n.name == field and n.roleName == "text",
                 timeout=5)
        xdotool("type", "--delay", "30", text)
    key("Return")
    wait_for("the focus moved to Teléfono", lambda: (n := focused(dialog)) and n.name == "Teléfono", timeout=10)
    if not dialog.findChildren(lambda n: n.roleName == "label" and "10 dígitos" in (n.name or "") and n.showing):
        fail("no inline message under Teléfono")
    spanish_strings.check("contact-dialog-keys", dialog)
    key("ctrl+a")
    xdotool("type", "--delay", "30", "5512345678")
    key("Return")
    wait_for("the contact dialog to close", lambda: not app.findChildren(
        lambda n: n.roleName == "dialog" and n.name == CONTACT), timeout=10)
    stored = wait_for("the stored contact details", stored_contact, timeout=10)
    if stored != ("Ana Lopez", "ana@ejemplo.com", "5512345678", "Faro SA"):
        fail(f"the form stored {stored!r}")
    main_window_active()
    return "|".join(stored)


def step_shortcuts_window():
    """Ctrl+? shows the keyboard shortcuts window, in Spanish; Escape closes it."""
    key("ctrl+question")
    shortcuts = wait_for("the shortcuts window", lambda: [w for w in app.children if w.name == SHORTCUTS and
                                                          w.showing], timeout=15)[0]
    for title in ("Volver", "Preferencias", "Abrir la fila con el foco", "Cambiar la calificación"):
        wait_for(f"the shortcut {title}", lambda: shortcuts.findChildren(
            lambda n: n.roleName == "label" and n.name == title and n.showing), timeout=5)
    # The key caps GTK draws by the keys' own names (gdk_keyval_name): what is printed on the keys, not text of Faro.
    spanish_strings.TYPED.update({"F", "F10", "Menu", "Q", "W"})
    spanish_strings.check("shortcuts-window", shortcuts)
    key("Escape")
    wait_for("the shortcuts window to close", lambda: not [w for w in app.children if w.name == SHORTCUTS and
                                                           w.showing], timeout=10)
    main_window_active()
    return "shown and closed"


def step_saved_page():
    """A catalogued row opened with Enter; Tab to "Guardar página", Enter saves it; Alt+Left goes back to the row.
    Tab to the page switcher's "Guardados", Space shows it; Tab into its list, Enter opens the saved copy, whose back
    button is "Volver a Guardados"; Alt+Left goes back to Guardados with the focus on that row."""
    business = open_a_catalogued_row()
    press_until("Tab", f"the {SAVE_PAGE} button", lambda n: n.roleName == "push button" and n.name == SAVE_PAGE)
    key("Return")
    wait_for("the page to be saved", lambda: window.findChildren(
        lambda n: n.roleName == "label" and n.name == "Guardada en Guardados." and n.showing), timeout=30)
    back_to_the_row("alt+Left")
    press_until("Tab", f"the page switcher's {SAVED}", lambda n: n.roleName == "radio button" and n.name == SAVED)
    key("space")
    saved_row = press_until("Tab", "a row of Guardados", lambda n: n.roleName == "list item" and
                            n.parent.name == SAVED_LIST and business in (n.name or ""))
    key("Return")
    wait_for("the saved copy", lambda: window.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").endswith("(copia guardada)") and n.showing), timeout=20)
    wait_for("the back button named after Guardados", lambda: window.findChildren(
        lambda n: n.roleName == "push button" and n.name == "Volver a Guardados" and n.showing), timeout=5)
    spanish_strings.check("saved-copy-keys", window)
    key("alt+Left")
    row = wait_for("the focus back on the saved row", lambda: (n := focused()) and n.roleName == "list item" and
                   n.parent.name == SAVED_LIST and n, timeout=10)
    if row.name != saved_row.name:
        fail(f"after going back the focus is on {row.name!r}, not on {saved_row.name!r}")
    back_to_the_beacon_list()
    return row.name.split(",")[0]


def back_to_the_beacon_list():
    """Tab to the page switcher's "Beacons", Space shows the list again, for the steps that follow."""
    press_until("Tab", f"the page switcher's {BEACONS}", lambda n: n.roleName == "radio button" and n.name == BEACONS)
    key("space")
    wait_for("the beacon list", lambda: window.findChildren(
        lambda n: n.roleName == "list box" and n.name == LIST and n.showing), timeout=10)


def step_visit():
    """Tab to the page switcher's "Lugares visitados", Space shows it; Tab into its list lands on a visit, never on
    a day's heading, nor does Up from it; Enter opens its site, whose back button is "Volver a Lugares visitados";
    Escape goes back with the focus on that visit."""
    press_until("Tab", f"the page switcher's {VISITS}", lambda n: n.roleName == "radio button" and n.name == VISITS)
    key("space")
    # The day headings ("Hoy") are no stop: Tab enters the list on a visit, and Up or Down never reach a heading.
    visit = press_until("Tab", "a row of Lugares visitados", lambda n: n.parent.name == VISITS)
    if visit.roleName != "list item" or ", " not in (visit.name or ""):
        fail(f"Tab entered Lugares visitados on {describe(visit)}, not on a visit")
    # Up from the newest visit passes "Hoy" above it (the focus leaves the list); Tab comes back to that visit.
    key("Up")
    node = focused()
    if node and node.parent.name == VISITS and node.name != visit.name:
        fail(f"Up from the newest visit stopped on {describe(node)}")
    visit = press_until("Tab", "a visit", lambda n: n.roleName == "list item" and n.parent.name == VISITS and
                        ", " in (n.name or ""))
    key("Return")
    business = visit.name.split(", ")[1]
    wait_for("the visit's site", lambda: (v := content()) and business in v.text, timeout=30)
    wait_for("the back button named after Lugares visitados", lambda: window.findChildren(
        lambda n: n.roleName == "push button" and n.name == "Volver a Lugares visitados" and n.showing), timeout=5)
    key("Escape")
    row = wait_for("the focus back on the visit", lambda: (n := focused()) and n.roleName == "list item" and
                   n.parent.name == VISITS and n, timeout=10)
    if row.name != visit.name:
        fail(f"after going back the focus is on {row.name!r}, not on {visit.name!r}")
    back_to_the_beacon_list()
    return visit.name.split(",")[0]


def open_a_catalogued_row():
    """Tab into the beacon list, Home, Down to the first catalogued row, Enter: waits for its site; its business."""
    press_until("Tab", "a row of the beacon list", list_row)
    key("Home")
    row = press_until("Down", "a catalogued row", catalogued)
    opened["place"] = place(row.name)
    business = opened["place"].split(", ")[1]
    key("Return")
    wait_for(f"the site of {business}", lambda: (v := content()) and business in v.text, timeout=30)
    return business


def step_send_details():
    """With contact details kept (the step before), a catalogued row opened with Enter; Tab to "Enviar mis datos",
    Enter; the comment has the focus, and Tab leaves it for the buttons in their order (Cancelar, Enviar); Enter on
    Enviar sends, and the button becomes "Datos enviados"; Alt+Left goes back."""
    business = open_a_catalogued_row()
    press_until("Tab", f"the {SEND_DETAILS} button", lambda n: n.roleName == "push button" and n.name == SEND_DETAILS)
    key("Return")
    dialog = wait_for("the comment dialog", lambda: app.child(name=SEND_DETAILS, roleName="dialog"), timeout=15)
    wait_for("the focus in the comment", lambda: (n := focused(dialog)) and n.name == COMMENT, timeout=5)
    spanish_strings.TYPED.add("Hola desde el teclado")
    xdotool("type", "--delay", "30", "Hola desde el teclado")
    key("Tab")
    wait_for("Tab to reach Cancelar", lambda: (n := focused(dialog)) and n.name == "Cancelar", timeout=5)
    key("Tab")
    wait_for("Tab to reach Enviar", lambda: (n := focused(dialog)) and n.name == "Enviar", timeout=5)
    spanish_strings.check("send-details-keys", dialog)
    key("Return")
    wait_for("the comment dialog to close", lambda: not app.findChildren(
        lambda n: n.roleName == "dialog" and n.name == SEND_DETAILS), timeout=10)
    sent = wait_for("'Datos enviados'", lambda: [b for b in window.findChildren(
        lambda n: n.roleName == "push button" and n.name == "Datos enviados" and n.showing)], timeout=10)[0]
    if sent.sensitive:
        fail("'Enviar mis datos' is still enabled after sending")
    print(f"SENT {business} Hola desde el teclado", flush=True)
    back_to_the_row("alt+Left")
    return business


def step_calibrate():
    """Home, then Down to the desk beacon 7/42's row; Shift+F10, Down (to "Calibrar a 1 m…"), Enter. Once the
    result shows, "Guardar calibración" is the default with the focus: Enter saves it and closes the dialog."""
    press_until("Tab", "a row of the beacon list", list_row)
    key("Home")
    press_until("Down", "the desk beacon's row", lambda n: list_row(n) and (n.name or "").startswith("7/42,"))
    key("shift+F10")
    wait_for("the row's menu", lambda: all(menu_item_shown(n, "menu item") for n in ROW_MENU), timeout=10)
    # The menu opens with its first item (Detalles) selected: Down selects the second.
    key("Down", "Return")
    dialog = wait_for("the calibration dialog", lambda: app.child(name="Calibrar a 1 m", roleName="dialog"), timeout=15)
    wait_for("the calibration's result and Guardar calibración with the focus", lambda: (n := focused(dialog)) and
             n.name == "Guardar calibración", timeout=90)
    result = dialog.child(name="Resultado de la calibración").queryText().getText(0, -1)
    spanish_strings.check("calibration-keys", dialog)
    key("Return")
    wait_for("the calibration dialog to close", lambda: not app.findChildren(
        lambda n: n.roleName == "dialog" and n.name == "Calibrar a 1 m"), timeout=10)
    listed = subprocess.run([os.environ["FARO"], "calibrate", "--list", "--json"], capture_output=True, text=True)
    if ":7:42" not in listed.stdout and '"minor": 42' not in listed.stdout:
        fail(f"the calibration was not stored: {listed.stdout!r} {listed.stderr!r}")
    main_window_active()
    return result


# The walk, in order: (name, step). Each step starts where the one before left the focus.
STEPS = [
    ("open-site-from-list", step_open_site),
    ("rate-site", step_rate_site),
    ("back-alt-left", step_back_with_alt_left),
    ("back-escape", step_back_with_escape),
    ("search", step_search),
    ("preferences", step_preferences),
    ("main-menu", step_main_menu),
    ("row-menu", step_row_menu),
    ("saved-page", step_saved_page),
    ("visit", step_visit),
    ("contact-form", step_contact_form),
    ("send-details", step_send_details),
    ("calibrate", step_calibrate),
    ("shortcuts-window", step_shortcuts_window),
]

app = wait_for("faro on the accessibility bus", lambda: tree.root.application("faro"), timeout=30)
window = wait_for("the main window", lambda: app.child(roleName="frame", recursive=False))
wait_for("a catalogued row", lambda: window.child(name=LIST, roleName="list box").findChildren(catalogued), timeout=40)
# The pointer rests away from the window: only the keyboard drives it.
xdotool("mousemove", "1279", "799")
main_window_active()
spanish_strings.check("beacons-keys", app)
for name, step in STEPS:
    print(f"OK {name} {step()}", flush=True)
if not spanish_strings.report():
    fail("English or unknown strings in the views the keyboard walk reached")
print(f"OK keyboard-walk {len(STEPS)} steps", flush=True)
