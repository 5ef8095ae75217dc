#!/usr/bin/python3
"""Drives the hostile-image benchmark (bench/web/images.sh): opens one place's microsite in the real window, as a
user would (a click on its row, through AT-SPI), while Faro's main-loop stall probe (FARO_STALL_PROBE) records how
late the main loop runs, and samples the process's peak resident memory (VmHWM) until Faro quits.

Usage: images.py OUT_PREFIX BUSINESS -- FARO ARGS...   (environment: FARO_STALL_PROBE, FARO_STALL_WARMUP, DISPLAY)
Prints: images_<OUT_PREFIX>_stall_max_ms=… …_stall_p99_ms=… …_stall_over_16ms=… …_peak_rss_kb=… …_opened=yes|no
"""
import os
import subprocess
import sys
import time

from dogtail import config

config.config.checkForA11y = False
config.config.logDebugToStdOut = False
config.config.logDebugToFile = False
config.config.searchShowingOnly = True
config.config.defaultDelay = 0.1
config.config.searchBackoffDuration = 0.2
config.config.searchCutoffCount = 50
from dogtail import tree  # noqa: E402


def peak_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main():
    prefix, business = sys.argv[1], sys.argv[2]
    command = sys.argv[sys.argv.index("--") + 1:]
    warmup = float(os.environ.get("FARO_STALL_WARMUP", "5"))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=sys.stderr, text=True)
    started = time.time()
    peak = 0
    opened = "no"
    clicked = False
    while process.poll() is None:
        peak = max(peak, peak_kb(process.pid) or 0)
        if not clicked and time.time() - started > warmup + 0.5:
            # The probe measures from the end of the warm-up: the click on the row lands inside the measurement.
            try:
                app = tree.root.application("faro")
                listbox = app.child(roleName="list box", retry=False)
                rows = [r for r in listbox.children if business in (r.name or "")]
                if rows:
                    rows[0].click()
                    clicked = True
            except Exception:  # noqa: BLE001 (the window is still coming up: try again)
                pass
        if clicked and opened == "no":
            try:
                app = tree.root.application("faro")
                views = app.findChildren(lambda n: n.roleName == "text" and n.showing, recursive=True)
                if any("Oferta" in (v.text or "") for v in views):
                    opened = "yes"
            except Exception:  # noqa: BLE001
                pass
        time.sleep(0.1)
    output = process.stdout.read()
    line = next((l for l in output.splitlines() if l.startswith("stall_")), "")
    values = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
    print(" ".join([
        f"images_{prefix}_stall_max_ms={values.get('stall_max_ms', 'nan')}",
        f"images_{prefix}_stall_p99_ms={values.get('stall_p99_ms', 'nan')}",
        f"images_{prefix}_stall_over_16ms={values.get('stall_over_16ms', 'nan')}",
        f"images_{prefix}_busy_max_ms={values.get('stall_busy_max_ms', 'nan')}",
        f"images_{prefix}_peak_rss_kb={peak}",
        f"images_{prefix}_opened={opened}",
    ]))
    return 0 if line else 1


if __name__ == "__main__":
    sys.exit(main())
