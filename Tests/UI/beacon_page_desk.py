#!/usr/bin/python3
"""The demo's desk beacon (7/42, about 1 m away, no catalog entry) through its page, under a real window manager, in
the Spanish window; run by Tests/UI/beacon-page-desk.sh. Every press is a real pointer click (xdotool). A click on
the beacon's row opens its page; the page's "Calibrar a 1 m…" opens the calibration dialog transient for the page
(WM_TRANSIENT_FOR), which collects the demo's readings and offers a result; "Guardar calibración" stores it
(`faro calibrate --list --json` on the demo's private profile shows it) and closes the dialog, leaving the page the
active window above the main window; the page then shows the calibrated power, and "Exportar CSV…" opens the file
chooser over the page (transient for it, on top of the stack), which writes the CSV. Prints `OK <step>` lines; a
failure prints `FAIL <reason>` and exits 1.
Environment: FARO_BIN, FARO_PROFILE (the demo's private profile folder)."""
import json
import os
import re
import subprocess

from atspi_driver import (  # noqa: E402  (sets dogtail up first)
    active_window as active, describe_windows as describe, fail, main_window, pointer_onto, stacking, transient_for,
    wait_for, window_titled, xdotool)
from dogtail import tree  # noqa: E402
import pyatspi  # noqa: E402

DESK = "e2c56db5-dffb-48d2-b060-d0f5a71096e0:7:42"
PAGE_TITLE = "Detalles: Beacon desconocido 7/42"


def click(node):
    """A real click: the pointer comes onto the node from elsewhere, rests, and button 1 goes down and up."""
    pointer_onto(node)
    xdotool("click", "1")


def sensitive(node):
    return node.getState().contains(pyatspi.STATE_SENSITIVE)


def check_page_on_top(page_id, main_id, step):
    """After the dialog: the page is the active window and above the main window."""
    wait_for(f"{step}: the page to be the active window ({describe()})", lambda: active() == page_id, timeout=10)
    order = stacking()
    if order.index(page_id) < order.index(main_id):
        fail(f"{step}: the main window is above the page: {describe()}")


app = wait_for("faro on the accessibility bus", lambda: tree.root.application("faro"), timeout=60)
window = wait_for("the main window", lambda: app.child(roleName="frame", recursive=False))
main_id = wait_for("the main window on the window manager's list", main_window, timeout=20)
listbox = window.child(name="Beacons cercanos", roleName="list box")
row = wait_for("the desk beacon's row", lambda: [r for r in listbox.children if "Beacon desconocido" in (r.name or "")
                                                 and "7/42" in r.name and r.showing], timeout=60)[0]
distance = re.search(r"≈ ([0-9.]+) m", row.name)
if not distance or float(distance.group(1)) > 3:
    fail(f"the desk beacon's row reads {row.name!r}: not about 1 m away")
print(f"OK desk-beacon-listed {row.name!r}", flush=True)

# Its page, with a click on the row (a beacon no catalog names has no site).
click(row)
page = wait_for("the desk beacon's page", lambda: [f for f in app.children if f.name == "Detalles" and f.roleName == "frame"],
                timeout=15)[0]
page_id = wait_for(f"the page's window ({describe()})", lambda: window_titled(PAGE_TITLE), timeout=10)
if transient_for(page_id) != main_id:
    fail(f"the page is not transient for the main window: {transient_for(page_id)} {describe()}")
check_page_on_top(page_id, main_id, "page-opened")
uuid = page.child(name="UUID", roleName="label")
if uuid.text != DESK.split(":")[0]:
    fail(f"the page shows UUID {uuid.text!r}")
calibrated = page.child(name="Potencia calibrada", roleName="label")
wait_for("the page's first values", lambda: calibrated.text == "Sin calibrar", timeout=10)
print("OK desk-beacon-page-opens-on-top", flush=True)

# "Calibrar a 1 m…" on the page: the dialog belongs to the page, not to the main window.
click(page.child(name="Calibrar a 1 m…", roleName="push button"))
dialog = wait_for("the calibration dialog", lambda: app.child(name="Calibrar a 1 m", roleName="dialog"), timeout=15)
dialog_id = wait_for(f"the dialog's window ({describe()})", lambda: window_titled("Calibrar a 1 m"), timeout=10)
if transient_for(dialog_id) != page_id:
    fail(f"the calibration dialog is transient for {hex(transient_for(dialog_id) or 0)}, not the page "
         f"{hex(page_id)}: {describe()}")
order = stacking()
if not order.index(main_id) < order.index(page_id) < order.index(dialog_id):
    fail(f"the dialog did not open over the page, above the main window: {describe()}")
print("OK calibration-dialog-over-the-page", flush=True)
save = dialog.child(name="Guardar calibración", roleName="push button")
wait_for("a result to save", lambda: sensitive(save), timeout=70)
result = dialog.child(name="Resultado de la calibración").text
if "Potencia medida a 1 m: -6" not in result or "anunciada: -59 dBm" not in result:
    fail(f"the result reads {result!r}")
readings = int((dialog.child(name="Lecturas tomadas").description or "0").split()[0])
print(f"OK desk-calibration-result {readings} {result!r}", flush=True)
click(save)
wait_for("the calibration dialog to close", lambda: not app.findChildren(
    lambda n: n.roleName == "dialog" and n.name == "Calibrar a 1 m"), timeout=10)
check_page_on_top(page_id, main_id, "calibration-closed")
print("OK page-on-top-after-the-dialog", flush=True)

# Stored in the demo's private profile, and shown on the page.
env = dict(os.environ, XDG_DATA_HOME=os.path.join(os.environ["FARO_PROFILE"], "data"),
           XDG_CONFIG_HOME=os.path.join(os.environ["FARO_PROFILE"], "config"))
listed = subprocess.run([os.environ["FARO_BIN"], "calibrate", "--list", "--json"], capture_output=True, text=True, env=env)
try:
    stored = [c for c in json.loads(listed.stdout)["calibrations"] if c["beacon"] == DESK]
except (ValueError, KeyError) as error:
    fail(f"faro calibrate --list --json says {listed.stdout!r} {listed.stderr!r} ({error})")
if len(stored) != 1 or stored[0]["advertised_power"] != -59 or not -70 <= stored[0]["measured_power"] <= -60:
    fail(f"faro calibrate --list --json says {listed.stdout!r}")
print(f"OK desk-calibration-stored {stored[0]['measured_power']}", flush=True)
wait_for(f"the page's calibrated power (reads {calibrated.text!r})",
         lambda: re.fullmatch(r"-6[0-9]\.[0-9] dBm", calibrated.text or ""), timeout=10)
if f"{stored[0]['measured_power']:.1f} dBm" != calibrated.text:
    fail(f"the page shows {calibrated.text!r}, the profile {stored[0]['measured_power']}")
print(f"OK page-shows-the-calibration {calibrated.text!r}", flush=True)

# "Exportar CSV…" on the page: the file chooser opens over the page.
click(page.child(name="Exportar CSV…", roleName="push button"))
chooser = wait_for("the file chooser", lambda: [d for d in app.children if d.name == "Exportar lecturas"], timeout=15)[0]
chooser_id = wait_for(f"the chooser's window ({describe()})", lambda: window_titled("Exportar lecturas"), timeout=10)
if transient_for(chooser_id) != page_id:
    fail(f"the file chooser is transient for {hex(transient_for(chooser_id) or 0)}, not the page: {describe()}")
wait_for(f"the file chooser on top, over the page ({describe()})", lambda: (o := stacking())[-1] == chooser_id
         and o.index(main_id) < o.index(page_id), timeout=10)
print("OK file-chooser-over-the-page", flush=True)
target = os.path.join(os.environ["XDG_RUNTIME_DIR"], "escritorio.csv")
entry = wait_for("the file name", lambda: [e for e in chooser.findChildren(
    lambda n: n.roleName == "text" and (n.text or "").endswith(".csv"))])[0]
if entry.text != "beacon-7-42.csv":
    fail(f"the chooser proposes {entry.text!r}")
entry.text = target
click(chooser.child(name="Exportar", roleName="push button"))
wait_for("the file chooser to close", lambda: not [d for d in app.children if d.name == "Exportar lecturas"])
wait_for("the CSV", lambda: os.path.exists(target), timeout=10)
with open(target, "rb") as f:
    lines = f.read().decode("utf-8").split("\r\n")
if lines[0] != "time_utc,address,rssi,rssi_filtered,distance_m,proximity":
    fail(f"the CSV header is {lines[0]!r}")
rows = [line.split(",") for line in lines[1:] if line]
if len(rows) < 15 or any(len(r) != 6 or r[1] != "DE:AD:BE:EF:00:2A" or not -75 <= int(r[2]) <= -50 for r in rows):
    fail(f"the CSV rows read {rows[:3]}… ({len(rows)} rows)")
print(f"OK desk-csv-exported {len(rows)} rows", flush=True)
