#!/usr/bin/python3
"""What the desktop sees of a running Faro, for the monitoring tests (Tests/WindowEndToEndTests/BackgroundMonitoringTests.swift).

Each command attaches to what is already running on $DISPLAY and the session bus ($DBUS_SESSION_BUS_ADDRESS),
prints one JSON value on stdout and exits 0, or prints the reason on stderr and exits 1.

  calls [--system] DEST PATH METHOD   the recorded calls of METHOD on a python-dbusmock object: [[arg, ...], ...]
  window                              Faro's windows through AT-SPI: {"frames": N, "beacons": bool, "saved": bool,
                                      "site": bool, "details": bool} (what the window shows: the list, Saved,
                                      a place's site, and its header's Detalles button)
  menu                                opens the window's primary menu: [{"name", "role"}] of what it shows
  show-saved                          clicks the "Saved" tab of the window (leaves the beacon list)
  close PID                           asks every top-level X window of PID to close (WM_DELETE_WINDOW, as a window
                                      manager's close button does)
  tray-menu                           the tray item's menu (com.canonical.dbusmenu) of the item registered with the
                                      StatusNotifierWatcher mock: [{"id", "label", "toggle-type", "toggle-state"}]
  tray-click LABEL                    sends "clicked" to the tray menu item labelled LABEL
  apps                                how many Faro processes are on the accessibility bus
  texts                               what Faro's showing windows and dialogs say: the names of every showing node
                                      (labels, rows, buttons), in tree order
  checked NAME [ROLE]                 whether the showing node called NAME (a radio button by default) is checked
  press NAME [ROLE]                   activates the showing node called NAME (a button by default; NAME* matches a
                                      prefix) in any of Faro's windows, through its accessible action
  shot FILE                           a screenshot of Faro's topmost showing dialog (or its window) into FILE
"""
import ctypes
import json
import os
import subprocess
import sys
import time


def plain(value):
    """dbus-python values as JSON-able Python values."""
    import dbus
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    return value


def calls(args):
    import dbus
    system = args and args[0] == "--system"
    if system:
        args = args[1:]
    dest, path, method = args
    bus = dbus.SystemBus() if system else dbus.SessionBus()
    mock = dbus.Interface(bus.get_object(dest, path), "org.freedesktop.DBus.Mock")
    return [plain(c[-1]) for c in mock.GetMethodCalls(method)]


def faro_app():
    import pyatspi
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is not None and app.name == "faro":
            return app
    return None


def walk(node, depth=0):
    if node is None or depth > 40:
        return
    yield node
    for i in range(node.childCount):
        yield from walk(node.getChildAtIndex(i), depth + 1)


def showing(node):
    import pyatspi
    return node.getState().contains(pyatspi.STATE_SHOWING)


def window(_args):
    app = faro_app()
    if app is None:
        raise RuntimeError("faro is not on the accessibility bus")
    frames = [app.getChildAtIndex(i) for i in range(app.childCount)]
    frames = [f for f in frames if f is not None and f.getRoleName() == "frame" and showing(f)]
    state = {"frames": len(frames), "beacons": False, "saved": False, "site": False, "details": False}
    for frame in frames:
        for node in walk(frame):
            role = node.getRoleName()
            if role == "list box" and showing(node):
                if node.name in ("Nearby beacons", "Beacons cercanos"):
                    state["beacons"] = True
                if node.name in ("Saved pages", "Páginas guardadas"):
                    state["saved"] = True
            if role == "text" and node.name in ("Site content", "Contenido del sitio") and showing(node):
                state["site"] = True
            if role == "push button" and node.name in ("Details", "Detalles") and showing(node):
                state["details"] = True
    return state


def show_saved(_args):
    app = faro_app()
    for node in walk(app):
        if node.getRoleName() == "radio button" and node.name in ("Saved", "Guardados") and showing(node):
            action = node.queryAction()
            for i in range(action.nActions):
                if action.getName(i) == "click":
                    action.doAction(i)
                    return True
    raise RuntimeError("no 'Saved' tab to click")


def menu(_args):
    """Opens the window's primary menu and lists its items: [{"name", "role"}] (check items are "check box")."""
    app = faro_app()
    button = next((n for n in walk(app) if n.getRoleName() == "toggle button"
                   and n.name in ("Main menu", "Menú principal") and showing(n)), None)
    if button is None:
        raise RuntimeError("no main menu button")
    action = button.queryAction()
    action.doAction(next(i for i in range(action.nActions) if action.getName(i) == "click"))
    items = []
    for _ in range(25):
        time.sleep(0.2)
        items = [{"name": n.name, "role": n.getRoleName()} for n in walk(app)
                 if n.getRoleName() in ("check box", "push button") and showing(n) and n.name]
        if any(i["role"] == "check box" for i in items):
            break
    return items


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class XEvent(ctypes.Union):
    _fields_ = [("xclient", XClientMessageEvent), ("pad", ctypes.c_long * 24)]


def close(args):
    pid = int(args[0])
    tree = subprocess.run(["xwininfo", "-root", "-children"], capture_output=True, text=True, check=True).stdout
    ids = [line.split()[0] for line in tree.splitlines() if line.strip().startswith("0x")]
    mine = []
    for wid in ids:
        prop = subprocess.run(["xprop", "-id", wid, "_NET_WM_PID", "WM_PROTOCOLS"], capture_output=True, text=True).stdout
        if f"_NET_WM_PID(CARDINAL) = {pid}" in prop and "WM_DELETE_WINDOW" in prop:
            mine.append(int(wid, 16))
    if not mine:
        raise RuntimeError(f"no window of process {pid} takes WM_DELETE_WINDOW")
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(os.environ["DISPLAY"].encode())
    if not display:
        raise RuntimeError("cannot open the display")
    protocols = x11.XInternAtom(display, b"WM_PROTOCOLS", 0)
    delete = x11.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
    for wid in mine:
        event = XEvent()
        event.xclient.type = 33  # ClientMessage
        event.xclient.window = wid
        event.xclient.message_type = protocols
        event.xclient.format = 32
        event.xclient.data[0] = delete
        event.xclient.data[1] = 0  # CurrentTime
        x11.XSendEvent(display, wid, 0, 0, ctypes.byref(event))
    x11.XFlush(display)
    x11.XCloseDisplay(display)
    return len(mine)


def tray_item():
    """(bus name, menu path) of the tray item registered with the watcher mock."""
    import dbus
    bus = dbus.SessionBus()
    watcher = bus.get_object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher")
    items = watcher.GetRegisteredItems(dbus_interface="org.kde.StatusNotifierWatcher.Mock")
    if not items:
        raise RuntimeError("no item registered with the StatusNotifierWatcher")
    name, path = items[-1]
    item = bus.get_object(str(name), str(path))
    menu = item.Get("org.kde.StatusNotifierItem", "Menu", dbus_interface="org.freedesktop.DBus.Properties")
    return bus, str(name), str(menu)


def tray_entries():
    import dbus
    bus, name, menu_path = tray_item()
    menu = dbus.Interface(bus.get_object(name, menu_path), "com.canonical.dbusmenu")
    _revision, layout = menu.GetLayout(0, -1, dbus.Array([], signature="s"))
    entries = []

    def visit(node):
        ident, props, children = node
        if ident != 0:
            entries.append({"id": int(ident), "label": str(props.get("label", "")),
                            "toggle-type": str(props.get("toggle-type", "")),
                            "toggle-state": int(props.get("toggle-state", -1))})
        for child in children:
            visit(child)
    visit(layout)
    return menu, entries


def tray_menu(_args):
    return tray_entries()[1]


def tray_click(args):
    import dbus
    menu, entries = tray_entries()
    for entry in entries:
        if entry["label"] == args[0]:
            menu.Event(dbus.Int32(entry["id"]), "clicked", dbus.Int32(0, variant_level=1), dbus.UInt32(int(time.time())))
            return entry["id"]
    raise RuntimeError(f"no tray menu item {args[0]!r} in {entries}")


def showing_windows():
    app = faro_app()
    if app is None:
        raise RuntimeError("faro is not on the accessibility bus")
    tops = [app.getChildAtIndex(i) for i in range(app.childCount)]
    return [t for t in tops if t is not None and showing(t)]


def apps(_args):
    """How many Faro processes are on the accessibility bus (each with its own window)."""
    import pyatspi
    desktop = pyatspi.Registry.getDesktop(0)
    return sum(1 for app in desktop if app is not None and app.name == "faro")


def texts(_args):
    out = []
    for top in showing_windows():
        for node in walk(top):
            if node.name and showing(node):
                out.append(node.name)
    return out


def press(args):
    name = args[0]
    role = args[1] if len(args) > 1 else "push button"
    # "Discard Business registration · Veneno SA*": a trailing * matches any name that starts so.
    matches = (lambda n: n.startswith(name[:-1])) if name.endswith("*") else (lambda n: n == name)
    for top in showing_windows():
        for node in walk(top):
            if node.name and matches(node.name) and node.getRoleName() == role and showing(node):
                action = node.queryAction()
                for i in range(action.nActions):
                    if action.getName(i) == "click":
                        action.doAction(i)
                        return name
    raise RuntimeError(f"no showing {role} called {name!r}; showing: {texts([])}")


def checked(args):
    """Whether the showing node called NAME (a radio button by default) is checked."""
    import pyatspi
    name = args[0]
    role = args[1] if len(args) > 1 else "radio button"
    for top in showing_windows():
        for node in walk(top):
            if node.name == name and node.getRoleName() == role and showing(node):
                return node.getState().contains(pyatspi.STATE_CHECKED)
    raise RuntimeError(f"no showing {role} called {name!r}; showing: {texts([])}")


def shot(args):
    tops = showing_windows()
    dialogs = [t for t in tops if t.getRoleName() == "dialog"]
    node = (dialogs or tops)[-1]
    component = node.queryComponent()
    import pyatspi
    x, y, w, h = component.getExtents(pyatspi.DESKTOP_COORDS)
    os.makedirs(os.path.dirname(os.path.abspath(args[0])), exist_ok=True)
    subprocess.run(["import", "-display", os.environ["DISPLAY"], "-window", "root", "-crop",
                    f"{w}x{h}+{max(x, 0)}+{max(y, 0)}", "+repage", args[0]], check=True)
    return args[0]


COMMANDS = {"apps": apps, "texts": texts, "press": press, "shot": shot, "calls": calls, "window": window, "menu": menu, "show-saved": show_saved, "close": close, "tray-menu": tray_menu,
            "tray-click": tray_click, "checked": checked}


if __name__ == "__main__":
    try:
        print(json.dumps(COMMANDS[sys.argv[1]](sys.argv[2:]), ensure_ascii=False), flush=True)
    except Exception as error:  # the test prints the reason with its own failure
        print(f"{type(error).__name__}: {error}", file=sys.stderr, flush=True)
        sys.exit(1)
