#!/usr/bin/python3
"""Opens the Spanish window's outbox panel ("Detalles…" on the outbox line) with a pending row and a refused one and
fails on any visible string that is not Spanish (Tests/UI/spanish_strings.py), the reasons of both rows included;
also checks the main window's X title (what a task switcher shows) is "Faro".

The rows are made by the test before the window starts (Tests/WindowEndToEndTests/SpanishWalkTests.swift): one
refused for good by a faro-backend answering 400, whose message (OUTBOX_SERVER_MESSAGE) is the server's data and is
shown as it is (so are the names registered, OUTBOX_TYPED, split by "|"); one queued for that backend after it
stopped, which the window's deliverer cannot reach. Run by Tests/UI/with-display.sh with FARO_LANG=es; environment as
for spanish_walk.py. Prints `VIEW …` lines, findings, then `OK outbox-walk` or `FAIL …`.
"""
import os
import subprocess
import sys

os.environ.setdefault("FARO_LANG", "es")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faro_ui  # noqa: E402  (sets dogtail's configuration up first)
from faro_ui import fail, press, wait_for  # noqa: E402
import spanish_strings  # noqa: E402

# The server's message and the names the test registered are data, shown as they are.
spanish_strings.TYPED.update([os.environ["OUTBOX_SERVER_MESSAGE"]] + os.environ["OUTBOX_TYPED"].split("|"))
REFUSED = "Rechazado por el servidor"
UNREACHABLE = "No se pudo contactar con el servidor."


def x_titles():
    """The _NET_WM_NAME and WM_NAME of every mapped X window of class Faro (the main window; GTK's client leader
    is never mapped)."""
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "^Faro$"],
                         capture_output=True, text=True).stdout.split()
    titles = []
    for window in ids:
        props = subprocess.run(["xprop", "-id", window, "_NET_WM_NAME", "WM_NAME", "WM_CLASS"],
                               capture_output=True, text=True).stdout
        print(f"XPROP {window} {props!r}", flush=True)
        if "_NET_WM_NAME" in props and "not found" not in props.split("\n")[0]:
            titles.append(props)
    return titles


def walk(app, window):
    # The main window's title as the window manager reads it.
    titles = wait_for("an X window of class Faro with a title", x_titles, timeout=15)
    for props in titles:
        if '_NET_WM_NAME(UTF8_STRING) = "Faro"' not in props or 'WM_NAME(STRING) = "Faro"' not in props:
            fail(f"the main window's X title is not Faro: {props!r}")

    # "Detalles…" on the outbox line, named after what it opens.
    details = wait_for("the outbox line's Detalles… button",
                       lambda: window.child(name="Envíos pendientes", roleName="push button"), timeout=30)
    press(details)
    panel = wait_for("the outbox panel", lambda: app.child(name="Envíos pendientes", roleName="dialog"))

    def details_shown():
        labels = [n.queryText().getText(0, -1) for n in panel.findChildren(lambda n: n.roleName == "label")]
        refused = [t for t in labels if t.startswith(REFUSED) and os.environ["OUTBOX_SERVER_MESSAGE"] in t]
        waiting = [t for t in labels if t.startswith("Aún sin enviar") and UNREACHABLE in t]
        return (refused, waiting) if refused and waiting else None

    # The pending row's reason appears once the window's deliverer has tried it.
    refused, waiting = wait_for("both rows with their reasons", details_shown, timeout=60)
    print(f"ROWS {refused!r} {waiting!r}", flush=True)
    if "(HTTP 400)" not in refused[0]:
        fail(f"the refused row does not give the server's status: {refused[0]!r}")
    spanish_strings.check("outbox-panel", app)
    press(panel.child(name="Cerrar", roleName="push button"))


def main():
    spanish_strings.run_window(walk, "the Spanish outbox panel")
    print("OK outbox-walk", flush=True)


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException:
        import traceback
        print("FAIL " + traceback.format_exc().replace("\n", "\n     "), flush=True)
        sys.exit(1)
