#!/usr/bin/python3
"""Preferences and "Calibrar a 1 m" driven through AT-SPI (dogtail) in the Spanish window; run by
Tests/UI/preferences-calibration.sh. Every string the dialogs, results and pages show must be Spanish
(Tests/UI/spanish_strings.py: `ENGLISH`/`UNKNOWN` lines, then a failure at the end). Prints `OK <step>` lines; a
failure prints `FAIL <reason>` and exits 1.
Environment: FARO_BIN, FARO_BACKEND_URL (a faro-backend), FARO_REFUSING_URL (one that wants an app key)."""
import os
import subprocess
import sys
import time

from atspi_driver import (  # noqa: E402  (sets dogtail up first)
    back_to_the_list, describe_windows, fail, main_window, press, stacking, transient_for, wait_for, window_manager,
    window_titled)
from dogtail import rawinput, tree  # noqa: E402
import pyatspi  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("FARO_PO", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "po", "es.po"))
import spanish_strings  # noqa: E402
from spanish_strings import check  # noqa: E402

SCHEMA = "io.github.faro.Faro"
BEACON = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1:100:1"


def gsettings(*args):
    return subprocess.run(["gsettings", *args], capture_output=True, text=True, check=True).stdout.strip()


def over(title, parent, step):
    """Under a window manager: the window titled `title` is transient for `parent` (an X window) and above it."""
    if not window_manager():
        return
    child = wait_for(f"{step}: the window {title!r} ({describe_windows()})", lambda: window_titled(title), timeout=10)
    if transient_for(child) != parent:
        fail(f"{step}: {title!r} is transient for {hex(transient_for(child) or 0)}, not {hex(parent)}: {describe_windows()}")
    order = stacking()
    if order.index(child) < order.index(parent):
        fail(f"{step}: {title!r} is below its parent: {describe_windows()}")
    print(f"OK {step}", flush=True)


def checked(node):
    return node.getState().contains(pyatspi.STATE_CHECKED)


def sensitive(node):
    return node.getState().contains(pyatspi.STATE_SENSITIVE)


app = wait_for("faro on the accessibility bus", lambda: tree.root.application("faro"), timeout=30)
window = wait_for("the main window", lambda: app.child(roleName="frame", recursive=False))

# Preferences from the primary menu.
press(window.child(name="Menú principal", roleName="toggle button"))
press(wait_for("the Preferencias item", lambda: app.child(name="Preferencias", roleName="push button")))
dialog = wait_for("the Preferencias dialog", lambda: app.child(name="Preferencias", roleName="dialog"))
main_id = main_window() if window_manager() else None
over("Preferencias", main_id, "preferences-over-the-main-window")
exit_spin = dialog.child(name="Periodo de salida (segundos)", roleName="spin button")
if exit_spin.queryValue().currentValue != 30:
    fail(f"the exit period shows {exit_spin.queryValue().currentValue}, not the default 30")
# A change made with gsettings while the dialog is open shows at once.
gsettings("set", SCHEMA, "exit-period", "45")
wait_for("the exit period to follow gsettings", lambda: exit_spin.queryValue().currentValue == 45, timeout=10)
print("OK gsettings-set-shows-in-preferences", flush=True)
monitoring = dialog.child(name="Monitoreo en segundo plano")
if not checked(monitoring):
    fail("monitoring shows off at start")
gsettings("set", SCHEMA, "monitoring", "false")
wait_for("the monitoring switch to follow gsettings", lambda: not checked(monitoring), timeout=10)
gsettings("set", SCHEMA, "monitoring", "true")
wait_for("the monitoring switch to turn back on", lambda: checked(monitoring), timeout=10)
print("OK gsettings-monitoring-shows-in-preferences", flush=True)
# And a change made in the dialog reaches the key.
exit_spin.queryValue().currentValue = 60
wait_for("the exit-period key to read 60", lambda: gsettings("get", SCHEMA, "exit-period") == "uint32 60", timeout=10)
cool = dialog.child(name="Pausa entre notificaciones (minutos)", roleName="spin button")
cool.queryValue().currentValue = 5
wait_for("cool-down to read 300 s", lambda: gsettings("get", SCHEMA, "cool-down") == "uint32 300", timeout=10)
print("OK preferences-write-the-keys", flush=True)
names = [n.name for n in dialog.findChildren(lambda n: n.roleName in ("spin button", "text", "toggle button", "push button", "check box"))]
if any(not n for n in names):
    fail(f"a control has no accessible name: {names}")
print(f"OK every-control-named {len(names)}", flush=True)

# The backend URL: the rule, then "Probar conexión" against a backend, a refusing one and one that is down.
url = dialog.child(name="URL del servidor", roleName="text")
test = dialog.child(name="Probar conexión", roleName="push button")
result = dialog.child(name="Resultado de la prueba de conexión")


def probe(address, expected):
    url.text = address
    press(test)
    return wait_for(f"the probe of {address} to say {expected!r}", lambda: expected in (result.name or result.text or ""), timeout=30)


url.text = "http://example.com"
press(test)
wait_for("the https rule", lambda: "https://" in (result.text or ""), timeout=10)
if gsettings("get", SCHEMA, "backend-url") == "'http://example.com'":
    fail("an http URL that is not loopback was stored")
print("OK preferences-refuse-plain-http", flush=True)
url.text = os.environ["FARO_BACKEND_URL"]
press(test)
wait_for("Conectado", lambda: (result.text or "").startswith("Conectado: "), timeout=30)
# "Probar conexión" names the generation the backend speaks (faro-backend's default is 2.0.0).
if "Protocolo de tablas 2.0.0 (Azure Mobile Apps)." not in result.text:
    fail(f"the probe does not name the backend's generation: {result.text!r}")
print(f"OK probe-connected {result.text!r}", flush=True)
check("preferences-probe-connected", dialog)
url.text = os.environ["FARO_REFUSING_URL"]
press(test)
wait_for("Rechazado", lambda: (result.text or "").startswith("Rechazado (HTTP 401)"), timeout=30)
print(f"OK probe-refused {result.text!r}", flush=True)
check("preferences-probe-refused", dialog)
url.text = "http://127.0.0.1:1"
press(test)
wait_for("Sin respuesta", lambda: (result.text or "").startswith("Sin respuesta"), timeout=30)
print(f"OK probe-down {result.text!r}", flush=True)
check("preferences-probe-down", dialog)
url.text = os.environ["FARO_BACKEND_URL"]
url.grabFocus()
rawinput.pressKey("Return")
wait_for("the backend URL key", lambda: gsettings("get", SCHEMA, "backend-url") == f"'{os.environ['FARO_BACKEND_URL']}'", timeout=10)
print("OK backend-url-stored", flush=True)
rawinput.pressKey("Escape")
wait_for("Preferencias to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == "Preferencias"), timeout=10)

# "Calibrar a 1 m" from the row's context menu (a real right click).
listbox = window.child(name="Beacons cercanos", roleName="list box")
row = wait_for("the beacon's row", lambda: [r for r in listbox.children if "100/1" in (r.name or "") or "≈" in (r.name or "")], timeout=40)[0]
x, y, w, h = row.extents
rawinput.click(x + w // 3, y + h // 2, button=3)
item = wait_for("the Calibrar a 1 m item", lambda: app.child(name="Calibrar a 1 m…", roleName="menu item"), timeout=10)
press(item)
calibration = wait_for("the calibration dialog", lambda: app.child(name="Calibrar a 1 m", roleName="dialog"))
over("Calibrar a 1 m", main_id, "row-calibration-over-the-main-window")
calibration.child(name="Sostén tu equipo a 1 m del beacon.", roleName="label")
print("OK calibration-dialog-says-what-to-do", flush=True)
save = calibration.child(name="Guardar calibración", roleName="push button")
if sensitive(save):
    fail("Guardar was offered before any readings")
wait_for("a result to save", lambda: sensitive(save), timeout=45)
progress = calibration.child(name="Lecturas tomadas")
readings = int((progress.description or "0").split()[0])
if readings < 10:
    fail(f"the calibration settled on {readings} readings")
text = calibration.child(name="Resultado de la calibración").text
if "Potencia medida a 1 m: -6" not in text or "anunciada: -59 dBm" not in text:
    fail(f"the result reads {text!r}")
print(f"OK calibration-result {readings} {text!r}", flush=True)
check("calibration-result", calibration)
press(save)
wait_for("the calibration dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == "Calibrar a 1 m"), timeout=10)
listed = subprocess.run([os.environ["FARO_BIN"], "calibrate", "--list"], capture_output=True, text=True).stdout
if BEACON not in listed or "adapter 00:11:22:33:44:00 offset=" not in listed:
    fail(f"faro calibrate --list says {listed!r}")
print("OK calibration-stored-with-the-adapter-offset", flush=True)

# A beacon no catalog names opens its page with a plain click (it has no site).
listbox = window.child(name="Beacons cercanos", roleName="list box")
stranger = wait_for("the unknown beacon's row", lambda: [r for r in listbox.children
                                                        if "Beacon desconocido" in (r.name or "") and "7/7" in r.name], timeout=20)[0]
before = 0
x, y, w, h = stranger.extents
rawinput.click(x + w // 3, y + h // 2)
wait_for("a page for the unknown beacon", lambda: len([f for f in app.children if f.name == "Detalles"]) > before, timeout=10)
pages = [f for f in app.children if f.name == "Detalles"]
if not any(p.findChildren(lambda n: n.roleName == "label" and n.text == "01234567-89ab-cdef-0123-456789abcdef") for p in pages):
    fail("no page shows the unknown beacon's UUID")
print("OK unknown-beacon-click-opens-its-page", flush=True)
stranger_page = [f for f in app.children if f.name == "Detalles"][0]

# A beacon's page, from the row's context menu (the mock's beacon is the demo catalog's Café La Parroquia). The page
# covers the list: the user goes back to the list first.
back_to_the_list()
listbox = window.child(name="Beacons cercanos", roleName="list box")
row = wait_for("the beacon's row", lambda: [r for r in listbox.children if "≈" in (r.name or "")], timeout=20)[0]
x, y, w, h = row.extents
rawinput.click(x + w // 3, y + h // 2, button=3)
wait_for("the Detalles item", lambda: app.child(name="Detalles", roleName="menu item"), timeout=10).doActionNamed("click")
page = wait_for(f"the Detalles window (windows: {[c.name for c in app.children]}, row {row.name!r})",
                lambda: [f for f in app.children if f.name == "Detalles" and f != stranger_page], timeout=15)[0]
uuid = page.child(name="UUID", roleName="label")
if uuid.text != BEACON.split(":")[0]:
    fail(f"the page shows UUID {uuid.text!r}")
chart = page.child(name="Señal de los últimos 5 minutos")
wait_for("the chart's description", lambda: "lecturas en los últimos 5 minutos" in (chart.description or ""), timeout=10)
if "RSSI -6" not in chart.description:
    fail(f"the chart says {chart.description!r}")
print(f"OK beacon-page-chart {chart.description!r}", flush=True)
calibrated = page.child(name="Potencia calibrada", roleName="label")
if "dBm" not in calibrated.text:
    fail(f"the calibrated power reads {calibrated.text!r} after the calibration")
print(f"OK beacon-page-calibrated {calibrated.text!r}", flush=True)
check("beacon-page", page)
if os.environ.get("SHOTS"):
    time.sleep(1.5)
    ex, ey, ew, eh = page.extents
    os.makedirs(os.environ["SHOTS"], exist_ok=True)
    subprocess.run(["import", "-display", os.environ["DISPLAY"], "-window", "root", "-crop", f"{ew}x{eh}+{max(ex, 0)}+{max(ey, 0)}",
                    "+repage", os.path.join(os.environ["SHOTS"], "beacon-page.png")], check=True)


def export(target):
    page.child(name="Exportar CSV…", roleName="push button").doActionNamed("click")
    chooser = wait_for("the file chooser", lambda: [d for d in app.children if d.name == "Exportar lecturas"])[0]
    if page_id is not None:
        over("Exportar lecturas", page_id, "csv-chooser-over-the-page")
    entry = wait_for("the file name", lambda: [e for e in chooser.findChildren(
        lambda n: n.roleName == "text" and (n.text or "").endswith(".csv"))])[0]
    entry.text = target
    chooser.child(name="Exportar", roleName="push button").doActionNamed("click")
    wait_for("the file chooser to close", lambda: not [d for d in app.children if d.name == "Exportar lecturas"])


page_id = window_titled("Detalles: Café de olla y pan dulce — Café La Parroquia") if window_manager() else None
target = os.path.join(os.environ["XDG_RUNTIME_DIR"], "lecturas.csv")
export(target)
wait_for("the CSV", lambda: os.path.exists(target), timeout=10)
with open(target, "rb") as f:
    data = f.read().decode("utf-8")
lines = data.split("\r\n")
if lines[0] != "time_utc,address,rssi,rssi_filtered,distance_m,proximity":
    fail(f"the CSV header is {lines[0]!r}")
rows = [line.split(",") for line in lines[1:] if line]
if len(rows) < 10:
    fail(f"only {len(rows)} rows exported")
for r in rows:
    if len(r) != 6 or not r[0].endswith("Z") or r[0][10] != "T" or r[1] != "C0:FF:EE:00:00:01" \
            or not -67 <= int(r[2]) <= -64 or "." not in r[3] or r[5] not in ("immediate", "near", "far", "unknown"):
        fail(f"a CSV row reads {r}")
times = [r[0] for r in rows]
if times != sorted(times) or len(set(times)) != len(times):
    fail("the CSV rows are not in time order")
if [p for p in os.listdir(os.environ["XDG_RUNTIME_DIR"]) if ".part-" in p]:
    fail("a partial file was left beside the export")
print(f"OK csv-exported {len(rows)} rows", flush=True)
export("/proc/lecturas.csv")
wait_for("the reason", lambda: [d for d in app.children if "No se exportaron las lecturas" in (d.name or "")
                                 or d.findChildren(lambda n: n.name == "No se exportaron las lecturas")], timeout=10)
if os.path.exists("/proc/lecturas.csv"):
    fail("a file appeared in an unwritable folder")
print("OK csv-export-refused-with-the-reason", flush=True)
for refusal in [d for d in app.children if "No se exportaron las lecturas" in (d.name or "")
                or d.findChildren(lambda n: n.name == "No se exportaron las lecturas")]:
    check("csv-export-refusal", refusal)

# A beacon never heard: its page says so instead of showing an empty chart.
subprocess.run(["gdbus", "call", "--session", "--dest", "io.github.faro.Faro", "--object-path", "/io/github/faro/Faro",
                "--method", "org.gtk.Actions.Activate", "details", "[<'%s:9:9'>]" % BEACON.split(":")[0], "{}"],
               check=True, capture_output=True)
empty = wait_for("the second Detalles window", lambda: [f for f in app.children if f.name == "Detalles" and f not in (page, stranger_page)
                                                      and f.findChildren(lambda n: n.name == "Sin lecturas todavía")], timeout=10)
print("OK beacon-page-without-readings", flush=True)
if not spanish_strings.report():
    fail(f"{len(spanish_strings.findings)} English and {len(spanish_strings.unknown)} unknown string(s) in Preferences,"
         " calibration and the beacon pages")
print("OK preferences-spanish", flush=True)
