"""What every AT-SPI driver in Tests/UI shares: dogtail set up for a headless box (no accessibility prompt, no debug
logs, short delays), and the fail / wait_for / press helpers. Import it before dogtail's tree."""
import re
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


def window_manager():
    """Whether a window manager runs on the display (Tests/UI/with-display.sh, FARO_WINDOW_MANAGER)."""
    out = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], capture_output=True, text=True).stdout
    return "window id" in out


def _window_ids(text):
    return [int(w, 16) for w in re.findall(r"0x[0-9a-f]+", text.split("#")[-1])] if "#" in text else []


def _xprop(*args):
    return subprocess.run(["xprop", *args], capture_output=True, text=True).stdout


def _clients():
    return [hex(w) for w in _window_ids(_xprop("-root", "_NET_CLIENT_LIST"))]


def stacking():
    """The windows the window manager manages, bottom to top (_NET_CLIENT_LIST_STACKING)."""
    return _window_ids(_xprop("-root", "_NET_CLIENT_LIST_STACKING"))


def active_window():
    ids = _window_ids(_xprop("-root", "_NET_ACTIVE_WINDOW"))
    return ids[0] if ids else None


def window_title(window):
    match = re.search(r'= "(.*)"', _xprop("-id", hex(window), "_NET_WM_NAME"))
    return match.group(1) if match else ""


def transient_for(window):
    """The window `window` is transient for (its WM_TRANSIENT_FOR), or None."""
    ids = _window_ids(_xprop("-id", hex(window), "WM_TRANSIENT_FOR"))
    return ids[0] if ids else None


def window_titled(title):
    found = [w for w in stacking() if window_title(w) == title]
    return found[0] if found else None


def main_window():
    """The main window: the one managed window that is transient for no other."""
    mains = [w for w in stacking() if transient_for(w) is None]
    return mains[0] if len(mains) == 1 else None


def describe_windows():
    """The managed windows bottom to top with their titles, and the active one (for failure messages)."""
    return [(hex(w), window_title(w)) for w in stacking()] + [("active", hex(active_window() or 0))]


def _transient(window):
    return transient_for(int(window, 16)) is not None


def back_to_the_list():
    """Goes back to the main window's list from the beacon pages over it. Under a window manager, which keeps a page
    (transient for the main window) above it, each page is closed with Alt+F4, the window manager's own key, and the
    main window is then the active one; without one, nothing stacks windows but the app. Then the app's
    show-beacons action shows the list (and, without a window manager, raises the main window over the pages)."""
    if window_manager():
        for page in [w for w in _clients() if _transient(w)]:
            xdotool("windowactivate", "--sync", page)
            time.sleep(0.3)
            xdotool("key", "alt+F4")
            wait_for(f"the window manager to close the page {page}", lambda: page not in _clients(), timeout=10)
        mains = _clients()
        wait_for(f"the main window to be active ({mains})", lambda: len(mains) == 1 and mains[0] in subprocess.run(
            ["xprop", "-root", "_NET_ACTIVE_WINDOW"], capture_output=True, text=True).stdout, timeout=10)
    subprocess.run(["gdbus", "call", "--session", "--dest", "io.github.faro.Faro", "--object-path",
                    "/io/github/faro/Faro", "--method", "org.gtk.Actions.Activate", "show-beacons", "[]", "{}"],
                   check=True, capture_output=True)
    time.sleep(0.5)
