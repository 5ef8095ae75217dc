#!/usr/bin/python3
"""The ways into a beacon's page other than the right click, in the Spanish window (docs/beacon-page.md); run by
Tests/UI/beacon-page-entries.sh. A long press with a real pointer (xdotool: button 1 held for 1.2 s) on the
catalogued row shows the row's context menu, opens no site, and the menu stays open after the release; its
"Detalles" opens the page. Then a click on the row opens the site, whose header offers "Detalles" (named, with its
tooltip as the description), which opens the same page. Each page is checked by its UUID label and its chart's
accessible description. Prints `OK <step>` lines; a failure prints `FAIL <reason>` and exits 1."""
import time

from atspi_driver import back_to_the_list, fail, pointer_onto, press, wait_for, xdotool  # noqa: E402  (sets dogtail up first)
from dogtail import tree  # noqa: E402

UUID = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"
TOOLTIP = "La página de este beacon: su señal, sus lecturas y su identidad"


def pages():
    return [f for f in app.children if f.name == "Detalles" and f.roleName == "frame"]


def site_shown():
    return window.findChildren(lambda n: n.roleName == "text" and n.name == "Contenido del sitio" and n.showing)


def catalogued_row():
    listbox = window.child(name="Beacons cercanos", roleName="list box")
    rows = [r for r in listbox.children if "≈" in (r.name or "") and "Beacon desconocido" not in r.name and r.showing]
    return rows[0] if rows else None


def check_page(page, step):
    """The page is the mock beacon's: its UUID label and a chart that describes live readings."""
    uuid = page.child(name="UUID", roleName="label")
    if uuid.text != UUID:
        fail(f"{step}: the page shows UUID {uuid.text!r}")
    chart = page.child(name="Señal de los últimos 5 minutos", roleName="drawing area")
    wait_for(f"{step}: the chart's description",
             lambda: "lecturas en los últimos 5 minutos" in (chart.description or ""), timeout=10)
    if "RSSI -6" not in chart.description:
        fail(f"{step}: the chart says {chart.description!r}")
    print(f"OK {step} {chart.description!r}", flush=True)


app = wait_for("faro on the accessibility bus", lambda: tree.root.application("faro"), timeout=30)
window = wait_for("the main window", lambda: app.child(roleName="frame", recursive=False))
row = wait_for("the catalogued beacon's row", catalogued_row, timeout=40)

# A long press: the pointer comes onto the row, rests, and holds button 1 down well past GTK's long-press time.
pointer_onto(row)
xdotool("mousedown", "1")
time.sleep(1.2)
xdotool("mouseup", "1")
item = wait_for("the Detalles item after a long press", lambda: app.child(name="Detalles", roleName="menu item"), timeout=10)
time.sleep(1.0)  # the menu stays open after the release, and the release opened nothing
if not app.findChildren(lambda n: n.roleName == "menu item" and n.name == "Detalles" and n.showing):
    fail("the menu closed when the long press was released")
if site_shown():
    fail("the long press opened the site as a click would")
if pages():
    fail("a page opened before the menu was used")
print("OK long-press-shows-the-row-menu", flush=True)
press(item)
page = wait_for("the Detalles window from the long press's menu", lambda: pages(), timeout=15)[0]
check_page(page, "long-press-menu-opens-the-page")

# The site opened from the row: its header offers "Detalles".
back_to_the_list()
row = wait_for("the catalogued beacon's row", catalogued_row, timeout=20)
pointer_onto(row)
xdotool("click", "1")
wait_for("the site", site_shown, timeout=30)
button = wait_for("the header's Detalles button", lambda: [b for b in window.findChildren(
    lambda n: n.roleName == "push button" and n.name == "Detalles") if b.showing], timeout=10)[0]
if button.description != TOOLTIP:
    fail(f"the Detalles button's description (its tooltip) is {button.description!r}")
print("OK site-header-details-button-named", flush=True)
before = pages()
press(button)
page = wait_for("a second Detalles window from the site's header",
                lambda: [p for p in pages() if p not in before], timeout=15)[0]
check_page(page, "site-header-opens-the-page")
# The page opens beside the site: the main window still shows the site the user came from.
if not site_shown():
    fail("opening Detalles from the site's header took the main window away from the site")
print("OK site-stays-under-its-details-page", flush=True)

# Press, drag and release, as a finger does: a long press, then the pointer moves onto "Detalles" with the button
# still down, and letting go there opens the page.
back_to_the_list()
row = wait_for("the catalogued beacon's row", catalogued_row, timeout=20)
before = pages()
pointer_onto(row)
xdotool("mousedown", "1")
time.sleep(1.2)
item = wait_for("the Detalles item while the button is held", lambda: [n for n in app.findChildren(
    lambda n: n.roleName == "menu item" and n.name == "Detalles") if n.showing], timeout=10)[0]
x, y, w, h = item.extents
xdotool("mousemove", str(x + w // 2), str(y + h // 2))
time.sleep(0.4)
xdotool("mouseup", "1")
page = wait_for("the Detalles window chosen by the release", lambda: [p for p in pages() if p not in before],
                timeout=15)[0]
if site_shown():
    fail("the press, drag and release opened the site")
check_page(page, "long-press-drag-release-opens-the-page")
