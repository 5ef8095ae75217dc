"""What every AT-SPI driver in Tests/UI shares: dogtail set up for a headless box (no accessibility prompt, no debug
logs, short delays), and the fail / wait_for / press helpers. Import it before dogtail's tree."""
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
