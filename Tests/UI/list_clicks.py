#!/usr/bin/python3
"""Ten real pointer clicks (xdotool, through the X server like a mouse) on catalogued rows of the beacon list while
it re-sorts every second; each must open the site of the row that was under the pointer. Run by
Tests/UI/list-clicks.sh inside with-display.sh. Prints `OK`/`FAIL` lines and `CLICKS opened/10`."""
import os
import sys
import time

import atspi_driver  # noqa: E402  (sets dogtail up first)
from atspi_driver import fail, pointer_onto, xdotool  # noqa: E402
from dogtail import config, tree  # noqa: E402

config.config.defaultDelay = 0.1

LIST = os.environ.get("FARO_LIST_NAME", "Nearby beacons")
UNKNOWN = os.environ.get("FARO_UNKNOWN", "Unknown beacon")
CONTENT = os.environ.get("FARO_CONTENT", "Site content")
BACK = os.environ.get("FARO_BACK", "Back to the beacons")


def wait_for(what, probe, timeout=30.0):
    """`probe()` once truthy, else None after `timeout` (a miss is counted, not fatal)."""
    return atspi_driver.wait_for(what, probe, timeout=timeout, required=False, interval=0.1)


app = wait_for("faro", lambda: tree.root.application("faro"))
window = wait_for("the window", lambda: app.child(roleName="frame", recursive=False))
if not window:
    fail("no window")


def catalogued_rows():
    listbox = window.child(name=LIST, roleName="list box")
    return [r for r in listbox.children if "≈" in (r.name or "") and UNKNOWN not in r.name and r.showing]


def content():
    found = window.findChildren(lambda n: n.roleName == "text" and n.name == CONTENT and n.showing)
    return found[0] if found and len(found[0].text.strip()) > 20 else None


rows = wait_for("three catalogued rows", lambda: (r := catalogued_rows()) and len(r) >= 3 and r, timeout=40)
if not rows:
    fail("the list never showed three catalogued rows")
time.sleep(3)  # let the list start re-sorting
opened = 0
for attempt in range(10):
    rows = wait_for("the rows", lambda: (r := catalogued_rows()) and len(r) >= 2 and r, timeout=20)
    if not rows:
        fail(f"click {attempt + 1}: no rows to click")
    target = rows[attempt % len(rows)]
    business = target.name.split(",")[1].strip() if target.name.count(",") >= 1 else target.name
    pointer_onto(target)
    xdotool("click", "1")
    view = wait_for("the site", content, timeout=6)
    if view and business in view.text:
        opened += 1
        print(f"OK click-{attempt + 1} opened {business}", flush=True)
    elif view:
        print(f"WRONG click-{attempt + 1} opened another place than {business}", flush=True)
    else:
        print(f"LOST click-{attempt + 1} on {business}", flush=True)
    if view:
        back = window.child(name=BACK, roleName="push button")
        back.doActionNamed("click")
        wait_for("the list again", lambda: catalogued_rows(), timeout=10)
    xdotool("mousemove", "5", "5")
    time.sleep(1.2)
print(f"CLICKS {opened}/10", flush=True)
if opened != 10:
    fail(f"only {opened} of 10 clicks opened the place under the pointer")
print("OK ten-clicks-ten-opens", flush=True)
