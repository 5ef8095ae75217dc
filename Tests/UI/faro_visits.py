#!/usr/bin/python3
""""Lugares visitados" in the Spanish window through AT-SPI (dogtail); run by Tests/UI/visits-walk.sh after the walk.
Every string the page and the beacon's page show must be Spanish (Tests/UI/spanish_strings.py: `ENGLISH`/`UNKNOWN`
lines, then a failure). Prints `OK <step>` lines; a failure prints `FAIL <reason>` and exits 1."""
import os
import subprocess
import sys
import time

from atspi_driver import fail, wait_for  # noqa: E402  (sets dogtail up first)
from dogtail import tree  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("FARO_PO", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "po", "es.po"))
import spanish_strings  # noqa: E402


app = wait_for("faro on the accessibility bus", lambda: tree.root.application("faro"))
window = wait_for("the main window", lambda: app.child(roleName="frame", recursive=False))
tab = wait_for("the Lugares visitados tab", lambda: window.child(name="Lugares visitados", roleName="radio button"))
tab.doActionNamed("click")
listbox = wait_for("the visits list", lambda: window.child(name="Lugares visitados", roleName="list box"))
rows = wait_for("visit rows", lambda: [r for r in listbox.children if (r.name or "").count(",") >= 2])
if not any(r.name == "Hoy" for r in listbox.children):
    fail(f"no 'Hoy' heading: {[r.name for r in listbox.children]}")
print(f"OK visits-page-lists {len(rows)} under Hoy", flush=True)
spanish_strings.check("visits", app)
if os.environ.get("SHOTS"):
    time.sleep(1.5)
    ex, ey, ew, eh = window.extents
    os.makedirs(os.environ["SHOTS"], exist_ok=True)
    subprocess.run(["import", "-display", os.environ["DISPLAY"], "-window", "root", "-crop", f"{ew}x{eh}+{max(ex, 0)}+{max(ey, 0)}",
                    "+repage", os.path.join(os.environ["SHOTS"], "visits.png")], check=True)
first = rows[0]
title = first.name.split(",")[0]
first.click()
wait_for("the site of the visit", lambda: window.findChildren(
    lambda n: n.roleName == "text" and n.name == "Contenido del sitio" and n.showing and len(n.text.strip()) > 20), timeout=30)
print(f"OK visit-opens-site {title}", flush=True)
# The site's header offers the page of the visit's beacon, which names the same place.
details = wait_for("the header's Detalles button", lambda: [b for b in window.findChildren(
    lambda n: n.roleName == "push button" and n.name == "Detalles") if b.showing], timeout=10)[0]
details.doActionNamed("click")
page = wait_for("the beacon's page", lambda: [f for f in app.children if f.name == "Detalles" and f.roleName == "frame"],
                timeout=15)[0]
entry = page.child(name="Entrada del catálogo", roleName="label")
if not entry.text.startswith(title + ","):
    fail(f"the visit's beacon page names another place: {entry.text!r}, not {title!r}")
uuid = page.child(name="UUID", roleName="label").text
print(f"OK visit-site-details {uuid} {entry.text}", flush=True)
spanish_strings.check("visit-beacon-page", page)
tab = window.child(name="Lugares visitados", roleName="radio button")
tab.doActionNamed("click")
clear = wait_for("Borrar historial", lambda: window.child(name="Borrar historial", roleName="push button"))
clear.doActionNamed("click")
dialog = wait_for("the confirmation", lambda: app.child(name="Borrar historial", roleName="dialog"))
spanish_strings.check("visits-clear-confirmation", dialog)
dialog.child(name="Borrar historial", roleName="push button").doActionNamed("click")
listbox = window.child(name="Lugares visitados", roleName="list box")
wait_for("an empty list", lambda: not [r for r in listbox.children if (r.name or "").count(",") >= 2])
print("OK visits-history-cleared", flush=True)
if not spanish_strings.report():
    fail(f"{len(spanish_strings.findings)} English and {len(spanish_strings.unknown)} unknown string(s) on the visits "
         "page")
print("OK visits-spanish", flush=True)
