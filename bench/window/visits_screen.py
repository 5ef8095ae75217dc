#!/usr/bin/env python3
"""Times "Lugares visitados" coming on screen in the running Faro window, for bench/window/run.sh (part 4).

  visits_screen.py FARO_STDOUT ROUNDS DATABASE

Faro runs with FARO_TIMINGS=1, which prints `frame=visits visits_first_screen_ms=… visits_first_screen_cpu_ms=…
visits_first_screen_wait_ms=… visits_rows=…` at the end of the first frame painted with the page's rows, timed from
the moment the page began to read its visits (the switch), with the main thread's CPU time and its wait for a core
(ready to run while other processes had the cores) over the same span.
Each round, as a user would, the page's button in the header's switcher is clicked through AT-SPI (dogtail), the
line is awaited, and the Beacons page is shown again. The first round is the page's first showing since launch;
before each later one a visit is added to the profile DATABASE (one that has just ended, as when the user comes back
from a walk), so the page lists its visits anew every round rather than keeping the rows it has.

Prints key=value lines. The goal's figure (≤ 50 ms) is `visits_first_screen_own_ms`: the median over the rounds of
each span less the main thread's wait for a core in it, the time the page takes when it has a core to run on (on a
machine that other work shares, the wait alone moves the plain span by tens of milliseconds from one run to the
next). Beside it: the median, best and worst plain spans, the first round's, the main thread's CPU time over the span
(median and worst: "busy"), its wait for a core (median and worst), the load average when the rounds began, and the
visit rows the first frame held.
"""
import os
import sqlite3
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "UI"))
import atspi_driver  # noqa: E402  (sets dogtail up first)
from atspi_driver import press, wait_for  # noqa: E402
from dogtail import tree  # noqa: E402


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [line for line in f if line.startswith("frame=visits ")]


def main():
    path, rounds, database = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    app = wait_for("faro on the accessibility bus", lambda: tree.root.application("faro"), timeout=60)
    window = wait_for("the main window", lambda: app.child(roleName="frame", recursive=False))
    wait_for("the window's first frame", lambda: any(l.startswith("frame=first") for l in open(path, encoding="utf-8")))
    times, cpus, waits, rows = [], [], [], []
    with open("/proc/loadavg", encoding="ascii") as f:
        load = f.read().split()[0]
    for r in range(rounds):
        before = len(lines(path))
        if r > 0:
            with sqlite3.connect(database, timeout=10) as db:
                now = time.time()
                db.execute("INSERT INTO visits (place_id, cliente, titulo, url, uuid, major, minor, entered_at, left_at, "
                           "closest_m) VALUES ('p-new', 'Negocio nuevo', 'Lugar nuevo', 'https://example.com/new', "
                           "'fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1', 9, 9, ?, ?, 1.2)", (now - 120 - r, now - 60 - r))
        press(window.child(name="Visited places", roleName="radio button"))
        found = wait_for(f"round {r + 1}: the visits frame", lambda: len(lines(path)) > before and lines(path), timeout=30)
        fields = dict(item.split("=", 1) for item in found[-1].split())
        times.append(float(fields["visits_first_screen_ms"]))
        cpus.append(float(fields["visits_first_screen_cpu_ms"]))
        waits.append(float(fields["visits_first_screen_wait_ms"]))
        rows.append(int(fields["visits_rows"]))
        print(f"round {r + 1}: {times[-1]:.2f} ms (main thread busy {cpus[-1]:.2f} ms, waited for a core "
              f"{waits[-1]:.2f} ms), {rows[-1]} rows", file=sys.stderr, flush=True)
        time.sleep(0.5)
        press(window.child(name="Beacons", roleName="radio button"))
        time.sleep(1.0)
    own = statistics.median(t - w for t, w in zip(times, waits))
    print(f"visits_first_screen_own_ms={own:.2f} visits_first_screen_ms={statistics.median(times):.2f} "
          f"visits_first_screen_best_ms={min(times):.2f} "
          f"visits_first_screen_max_ms={max(times):.2f} visits_first_screen_rounds={rounds} "
          f"visits_first_screen_cold_ms={times[0]:.2f} visits_first_screen_busy_ms={statistics.median(cpus):.2f} "
          f"visits_first_screen_busy_max_ms={max(cpus):.2f} visits_first_screen_wait_ms={statistics.median(waits):.2f} "
          f"visits_first_screen_wait_max_ms={max(waits):.2f} visits_first_screen_load1={load} "
          f"visits_first_screen_rows={min(rows)} visits_first_screen_goal_50ms={'yes' if own <= 50 else 'no'}")


main()
