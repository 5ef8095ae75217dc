#!/usr/bin/python3
"""Drives the hostile-image benchmark (bench/web/images.sh): opens one place's microsite in the real window, as a
user would ("View site" on its zone notification, played by python-dbusmock), while Faro's main-loop stall probe (FARO_STALL_PROBE) records how
late the main loop runs, and samples the process's peak resident memory (VmHWM) until the probe's line is printed, then ends Faro.

Usage: images.py OUT_PREFIX -- FARO ARGS...   (environment: FARO_STALL_PROBE, FARO_STALL_WARMUP, DISPLAY)
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
from dogtail import tree  # noqa: E402  (AT-SPI only reads the content view's text, to report that it opened)


GDBUS = ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
         "/org/freedesktop/Notifications", "--method"]


def zone_notified():
    """Whether Faro has raised its zone notification (python-dbusmock's notification server recorded a Notify)."""
    r = subprocess.run(GDBUS + ["org.freedesktop.DBus.Mock.GetMethodCalls", "Notify"], capture_output=True,
                       text=True, timeout=10)
    return r.returncode == 0 and "You are near" in r.stdout


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
    prefix = sys.argv[1]
    command = sys.argv[sys.argv.index("--") + 1:]
    warmup = float(os.environ.get("FARO_STALL_WARMUP", "5"))
    # Faro's stall probe only prints its line; this driver ends Faro (SIGTERM) once the line is there.
    out_path = f"{prefix}.stall.out"
    out_file = open(out_path, "w+")
    process = subprocess.Popen(command, stdout=out_file, stderr=sys.stderr, text=True)
    started = time.time()
    peak = 0
    opened = "no"
    clicked = False
    while process.poll() is None:
        peak = max(peak, peak_kb(process.pid) or 0)
        if not clicked and time.time() - started > warmup + 0.5 and zone_notified():
            # The probe measures from the end of the warm-up: "View site" on the zone notification (what a user
            # clicks when the place comes in range) opens the page inside the measurement.
            subprocess.run(GDBUS + ["org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications",
                                    "ActionInvoked", "us", "[<uint32 1>, <'view-site'>]"],
                           capture_output=True, timeout=10)
            clicked = True
        if clicked and opened == "no":
            try:
                app = tree.root.application("faro")
                window = app.child(roleName="frame", recursive=False)
                views = window.findChildren(lambda n: n.roleName == "text" and n.showing)
                if any("Oferta" in (v.text or "") for v in views):
                    opened = "yes"
            except Exception as error:  # noqa: BLE001
                print(f"images.py: no content view yet ({error})", file=sys.stderr)
        out_file.seek(0)
        if any(l.startswith("stall_") for l in out_file.read().splitlines()):
            process.terminate()
            process.wait(timeout=30)
            break
        time.sleep(0.1)
    out_file.seek(0)
    output = out_file.read()
    out_file.close()
    os.unlink(out_path)
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
