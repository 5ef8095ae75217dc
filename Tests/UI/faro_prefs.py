#!/usr/bin/python3
"""Preferences and "Calibrar a 1 m" driven through AT-SPI (dogtail) in the Spanish window; run by
Tests/UI/preferences-calibration.sh. Prints `OK <step>` lines; a failure prints `FAIL <reason>` and exits 1.
Environment: FARO_BIN, FARO_BACKEND_URL (a faro-backend), FARO_REFUSING_URL (one that wants an app key)."""
import os
import subprocess
import sys
import time

from dogtail import config

config.config.checkForA11y = False
config.config.logDebugToStdOut = False
config.config.logDebugToFile = False
config.config.searchShowingOnly = True
config.config.defaultDelay = 0.2
config.config.searchBackoffDuration = 0.2
config.config.searchCutoffCount = 25
from dogtail import rawinput, tree  # noqa: E402
import pyatspi  # noqa: E402

SCHEMA = "io.github.faro.Faro"
BEACON = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1:100:1"


def fail(message):
    print(f"FAIL {message}", flush=True)
    sys.exit(1)


def wait_for(what, probe, timeout=40.0):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            value = probe()
            if value:
                return value
        except Exception as error:  # the tree changes while the app updates
            last = error
        time.sleep(0.2)
    fail(f"timed out waiting for {what} ({last})")


def press(node):
    node.doActionNamed("click")


def gsettings(*args):
    return subprocess.run(["gsettings", *args], capture_output=True, text=True, check=True).stdout.strip()


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
print(f"OK probe-connected {result.text!r}", flush=True)
url.text = os.environ["FARO_REFUSING_URL"]
press(test)
wait_for("Rechazado", lambda: (result.text or "").startswith("Rechazado (HTTP 401)"), timeout=30)
print(f"OK probe-refused {result.text!r}", flush=True)
url.text = "http://127.0.0.1:1"
press(test)
wait_for("Sin respuesta", lambda: (result.text or "").startswith("Sin respuesta"), timeout=30)
print(f"OK probe-down {result.text!r}", flush=True)
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
press(save)
wait_for("the calibration dialog to close", lambda: not app.findChildren(lambda n: n.roleName == "dialog" and n.name == "Calibrar a 1 m"), timeout=10)
listed = subprocess.run([os.environ["FARO_BIN"], "calibrate", "--list"], capture_output=True, text=True).stdout
if BEACON not in listed or "adapter 00:11:22:33:44:00 offset=" not in listed:
    fail(f"faro calibrate --list says {listed!r}")
print("OK calibration-stored-with-the-adapter-offset", flush=True)
