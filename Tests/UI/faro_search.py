#!/usr/bin/python3
"""Search in the Spanish window (docs/beacons.md, "Search"), through real key presses (xdotool) and AT-SPI (dogtail)
to read what shows; run by Tests/UI/search.sh on a private X server and session bus.

The window replays four demo beacons from the start and the one of "Librería El Péndulo" only from LATE seconds on
(a replay this script writes), against a faro-backend naming them; Guardados holds two pages (`faro save`, in the
script). Steps: Ctrl+F opens the bar with the cursor in "Buscar"; "TONALA" lists only "Cine Tonalá"; "pendulo",
typed before that beacon is heard, says "Sin resultados para «pendulo»", and the row appears when the beacon is
heard while the others stay filtered out; "300/1" finds a beacon by major/minor, the UUID finds all; Escape empties
and closes the bar and every row comes back. Then Guardados and Lugares visitados filter the same way (the header's
button opens the bar there). Every string showing must be Spanish (spanish_strings). Prints `OK <step>` lines, or
`FAIL <reason>`. Environment: FARO, FARO_BACKEND (the backend's URL), XDG_* folders, FARO_PO, FARO_DATA.
"""
import json
import math
import os
import random
import subprocess
import sys
import time

os.environ.setdefault("FARO_LANG", "es")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faro_ui  # noqa: E402  (sets dogtail's configuration up first)
from atspi_driver import fail, press, wait_for, xdotool  # noqa: E402
import spanish_strings  # noqa: E402

UUID = "fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1"
# (major, minor, address, distance in m): Café La Parroquia, Panadería Santa Clara, Taquería Los Cocuyos, Cine Tonalá.
EARLY = [(100, 1, "C0:FF:EE:00:00:01", 2.0), (100, 3, "C0:FF:EE:00:00:03", 4.0),
         (200, 3, "C0:FF:EE:00:00:07", 6.0), (300, 1, "C0:FF:EE:00:00:08", 3.0)]
# Librería El Péndulo, heard from LATE seconds after the start.
LATE_BEACON = (100, 2, "C0:FF:EE:00:00:02", 1.5)
LATE = 45
SECONDS = 240
PENDULO = "Librería El Péndulo"
TYPED = {"TONALA", "pendulo", "300/1", "zzz", "tonala", UUID.upper()}
spanish_strings.TYPED.update(TYPED)


def frame(major, minor):
    payload = bytes.fromhex(UUID.replace("-", "")) + major.to_bytes(2, "big") + minor.to_bytes(2, "big") + bytes([0xC5])
    return (bytes([0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + payload).hex()


def write_replay(path):
    """Each beacon once a second at its distance (-59 dBm at 1 m, 2 dB of noise); the late one from LATE on."""
    rng = random.Random(38)
    lines = []
    for second in range(SECONDS):
        for i, (major, minor, address, distance) in enumerate(EARLY + [LATE_BEACON]):
            if (major, minor) == LATE_BEACON[:2] and second < LATE:
                continue
            rssi = int(round(-59 - 20 * math.log10(distance) + rng.gauss(0, 2)))
            lines.append({"t": round(second + (i + 0.5) / 6, 3), "address": address, "rssi": rssi, "kind": "ad",
                          "data": frame(major, minor)})
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


def beacon_rows(window):
    return faro_ui.beacon_rows(window)


def beacon_list(window):
    return window.child(name=faro_ui.TEXT["list"], roleName="list box")


def names(rows):
    return sorted((r.name or "").split(",")[1].strip() if "," in (r.name or "") else (r.name or "") for r in rows)


def entry_of(window):
    found = [n for n in window.findChildren(lambda n: n.roleName == "text" and n.name == "Buscar") if n.showing]
    return found[0] if found else None


def focus_window():
    """The keyboard goes to the main window (no window manager here: the X server's input focus is set on it)."""
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Faro$"], capture_output=True,
                         text=True).stdout.split()
    if not ids:
        fail("no X window named Faro")
    xdotool("windowfocus", "--sync", ids[0])
    time.sleep(0.3)


def type_query(text):
    """Replaces the bar's text with `text`, typed key by key."""
    xdotool("key", "ctrl+a", "BackSpace")
    xdotool("type", "--delay", "40", text)


def placeholder_says(listbox, text):
    """Whether the list's empty state says `text` (GTK keeps a list box's placeholder out of the accessibility tree:
    the list gives its words as its description)."""
    return (listbox.description or "").split("\n")[0] == text


def describe(window):
    """What the window shows (for a failure's message): its labels and the beacon rows."""
    labels = [(n.name, n.showing) for n in window.findChildren(lambda n: n.roleName == "label", showingOnly=False)]
    entry = entry_of(window)
    listbox = window.child(name=faro_ui.TEXT["list"], roleName="list box")
    children = [(c.roleName, c.name) for c in listbox.children]
    return f"labels {labels}, rows {names(beacon_rows(window))}, list {children}, entry {entry.text if entry else None!r}"


def shot(window, name):
    """The window as shown, for README (build/screenshots/NAME)."""
    x, y, w, h = window.extents
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "screenshots")
    os.makedirs(folder, exist_ok=True)
    subprocess.run(["import", "-display", os.environ["DISPLAY"], "-window", "root", "-crop",
                    f"{w}x{h}+{max(x, 0)}+{max(y, 0)}", "+repage", os.path.join(folder, name)], check=True)


def walk(app, window):
    rows = wait_for("four catalogued beacons", lambda: (r := [x for x in beacon_rows(window)
                                                             if faro_ui.TEXT["unknown"] not in x.name])
                    and len(r) >= 4 and r, timeout=60)
    if any(PENDULO in r.name for r in rows):
        fail(f"the late beacon was listed before its time (the window took over {LATE} s to come up?)")
    started = time.time()
    print(f"OK search-rows-before {names(rows)}", flush=True)

    # Ctrl+F: the bar opens, the cursor in "Buscar".
    focus_window()
    xdotool("key", "ctrl+f")
    entry = wait_for("the search entry Buscar", lambda: entry_of(window), timeout=10)
    wait_for("the cursor in Buscar", lambda: entry.focused, timeout=10)
    button = window.child(name="Buscar", roleName="toggle button")
    if not button.checked:
        fail("Ctrl+F opened the bar but the header's Buscar button is not pressed")
    print("OK search-ctrl-f-opens", flush=True)

    # Case and accents do not count: "TONALA" finds "Cine Tonalá" only.
    type_query("TONALA")
    found = wait_for("only Cine Tonalá", lambda: (r := beacon_rows(window)) and names(r) == ["Cine Tonalá"] and r,
                     timeout=15)
    print(f"OK search-accents {names(found)}", flush=True)
    spanish_strings.check("search-beacons", app)
    shot(window, "search-es.png")

    # A place not heard yet: "Sin resultados para «pendulo»", then its row appears as soon as it is heard, alone.
    type_query("pendulo")
    if not wait_for("the no-results message", lambda: placeholder_says(beacon_list(window), "Sin resultados para «pendulo»"),
                    timeout=15, required=False):
        fail(f"no «Sin resultados para «pendulo»»: {describe(window)}")
    if beacon_rows(window):
        fail(f"rows listed with no match: {names(beacon_rows(window))}")
    if time.time() - started > LATE - 5:
        fail("too late to see the empty state before the beacon is heard")
    print("OK search-no-results Sin resultados para «pendulo»", flush=True)
    spanish_strings.check("search-no-results", app)
    appeared = wait_for("the Péndulo row once heard", lambda: (r := beacon_rows(window)) and r, timeout=LATE + 30)
    if names(appeared) != [PENDULO]:
        fail(f"with «pendulo» typed the list shows {names(appeared)}")
    time.sleep(3)  # a few ticks: the four others are still heard and must stay out
    if names(beacon_rows(window)) != [PENDULO]:
        fail(f"the filter did not hold while the list updated: {names(beacon_rows(window))}")
    print(f"OK search-live {names(appeared)} after {time.time() - started:.0f} s", flush=True)

    # By major/minor, and by UUID (every beacon).
    type_query("300/1")
    wait_for("300/1 to find Cine Tonalá", lambda: names(beacon_rows(window)) == ["Cine Tonalá"], timeout=15)
    type_query(UUID.upper())
    everyone = wait_for("the UUID to find all five", lambda: (r := beacon_rows(window)) and len(r) == 5 and r,
                        timeout=15)
    print(f"OK search-identity 300/1, UUID: {len(everyone)} rows", flush=True)

    # Escape: the bar empties and closes, every row comes back.
    type_query("zzz")
    wait_for("the no-results message for zzz", lambda: placeholder_says(beacon_list(window), "Sin resultados para «zzz»"),
             timeout=15)
    xdotool("key", "Escape")
    wait_for("the bar to close", lambda: entry_of(window) is None, timeout=10)
    back = wait_for("every row back", lambda: (r := beacon_rows(window)) and len(r) == 5 and r, timeout=15)
    if entry.text:
        fail(f"Escape left {entry.text!r} in the bar")
    if window.child(name="Buscar", roleName="toggle button").checked:
        fail("the header's Buscar button stayed pressed after Escape")
    print(f"OK search-escape-restores {len(back)} rows", flush=True)

    # Guardados: opened with the header's button this time.
    press(window.child(name="Guardados", roleName="radio button"))
    saved = wait_for("the saved pages list", lambda: window.child(name="Páginas guardadas", roleName="list box"))
    all_saved = wait_for("two saved pages", lambda: (r := [x for x in saved.children if x.name]) and len(r) == 2 and r)
    press(window.child(name="Buscar", roleName="toggle button"))
    entry = wait_for("the search entry over Guardados", lambda: entry_of(window), timeout=10)
    wait_for("the cursor in Buscar", lambda: entry.focused, timeout=10)
    type_query("pendulo")
    kept = wait_for("only the Péndulo page", lambda: (r := [x for x in saved.children if x.name]) and len(r) == 1 and r,
                    timeout=15)
    kept = [r.name for r in kept]  # the rows go when the list is made again
    if PENDULO not in kept[0]:
        fail(f"Guardados kept {kept[0]!r} for «pendulo»")
    type_query("zzz")
    wait_for("Guardados' no-results message", lambda: placeholder_says(saved, "Sin resultados para «zzz»"), timeout=15)
    spanish_strings.check("search-saved", app)
    xdotool("key", "Escape")
    wait_for("both saved pages back", lambda: len([x for x in saved.children if x.name]) == 2, timeout=15)
    print(f"OK search-saved {kept[0].split(',')[1].strip()} of {len(all_saved)}", flush=True)

    # Lugares visitados: the visits the replay's entries recorded (the Péndulo's included).
    press(window.child(name="Lugares visitados", roleName="radio button"))
    visits = wait_for("the visits list", lambda: window.child(name="Lugares visitados", roleName="list box"))

    def visit_rows():
        return [r for r in visits.children if (r.name or "").count(",") >= 2]
    before = wait_for("visits of several places", lambda: (r := visit_rows()) and len({names([x])[0] for x in r}) >= 3
                      and r, timeout=30)
    focus_window()
    xdotool("key", "ctrl+f")
    entry = wait_for("the search entry over the visits", lambda: entry_of(window), timeout=10)
    wait_for("the cursor in Buscar", lambda: entry.focused, timeout=10)
    type_query("tonala")
    kept = wait_for("only Cine Tonalá's visits", lambda: (r := visit_rows()) and all("Cine Tonalá" in x.name for x in r)
                    and r, timeout=15)
    type_query("zzz")
    wait_for("the visits' no-results message", lambda: placeholder_says(visits, "Sin resultados para «zzz»"),
             timeout=15)
    if visit_rows():
        fail(f"visits listed for «zzz»: {[r.name for r in visit_rows()]}")
    spanish_strings.check("search-visits", app)
    xdotool("key", "Escape")
    wait_for("every visit back", lambda: len(visit_rows()) == len(before), timeout=15)
    print(f"OK search-visits {len(kept)} of {len(before)}", flush=True)


def main():
    replay = os.path.join(os.environ["XDG_RUNTIME_DIR"], "search-replay.jsonl")
    write_replay(replay)
    os.environ["FARO_ARGS"] = f"--source replay {replay} --backend {os.environ['FARO_BACKEND']} --no-tray"
    spanish_strings.run_window(walk, "the search")
    print("OK search-spanish", flush=True)


if __name__ == "__main__":
    main()
