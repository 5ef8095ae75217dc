"""What every AT-SPI driver in Tests/UI shares: dogtail set up for a headless box (no accessibility prompt, no debug
logs, short delays), and the fail / wait_for / press helpers. Import it before dogtail's tree."""
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


def fail(message):
    print(f"FAIL {message}", flush=True)
    sys.exit(1)


def wait_for(what, probe, timeout=40.0, required=True, interval=0.2):
    """`probe()` once it is truthy; on timeout, FAIL (or None when not `required`)."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            value = probe()
            if value:
                return value
        except Exception as error:  # AT-SPI trees change under us while the app updates
            last = error
        time.sleep(interval)
    if required:
        fail(f"timed out waiting for {what} ({last})")
    return None


def press(node):
    """Activates a button or menu item through its accessible action (no pointer coordinates, so a busy machine or
    a layout change cannot make the click land elsewhere); falls back to a pointer click."""
    try:
        node.doActionNamed("click")
    except Exception:
        node.click()


def xdotool(*args):
    subprocess.run(["xdotool", *args], check=True)


def pointer_onto(node):
    """Moves the real pointer onto `node` as a hand would: from elsewhere first (a second move to the same spot sends
    no motion event, and GTK then ignores a click on a row it has just shown again), then a moment's rest."""
    x, y, w, h = node.extents
    xdotool("mousemove", "5", "5")
    time.sleep(0.2)
    xdotool("mousemove", str(x + w // 3), str(y + h // 2))
    time.sleep(0.6)
