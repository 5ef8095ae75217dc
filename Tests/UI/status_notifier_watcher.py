'''A StatusNotifierWatcher for tests: what a desktop's tray host (the KDE/Ayatana protocol) offers to tray items.

Run with: /usr/bin/python3 -m dbusmock --session --template Tests/UI/status_notifier_watcher.py

It owns org.kde.StatusNotifierWatcher at /StatusNotifierWatcher, says a host is registered, accepts
RegisterStatusNotifierItem (recorded: read them with org.freedesktop.DBus.Mock.GetMethodCalls, or with
GetRegisteredItems, which also gives the sender), and emits StatusNotifierItemRegistered as a real watcher does.
'''

import dbus

BUS_NAME = 'org.kde.StatusNotifierWatcher'
MAIN_OBJ = '/StatusNotifierWatcher'
MAIN_IFACE = 'org.kde.StatusNotifierWatcher'
SYSTEM_BUS = False


def load(mock, _parameters):
    mock.registered = []
    mock.AddProperties(MAIN_IFACE, {
        'RegisteredStatusNotifierItems': dbus.Array([], signature='s'),
        'IsStatusNotifierHostRegistered': dbus.Boolean(True),
        'ProtocolVersion': dbus.Int32(0),
    })


@dbus.service.method(MAIN_IFACE, in_signature='s', out_signature='', sender_keyword='sender')
def RegisterStatusNotifierItem(self, service, sender=None):
    '''An item registers: `service` is a bus name or an object path (then the item lives at the sender).'''
    path = service if service.startswith('/') else '/StatusNotifierItem'
    name = sender if service.startswith('/') else service
    self.registered.append((str(name), str(path)))
    self.props[MAIN_IFACE]['RegisteredStatusNotifierItems'] = dbus.Array(
        [f'{n}{p}' for n, p in self.registered], signature='s')
    self.EmitSignal(MAIN_IFACE, 'StatusNotifierItemRegistered', 's', [f'{name}{path}'])


@dbus.service.method(MAIN_IFACE, in_signature='s', out_signature='')
def RegisterStatusNotifierHost(_self, _service):
    '''A host registers (nothing to do: this watcher always reports one).'''


@dbus.service.method('org.kde.StatusNotifierWatcher.Mock', in_signature='', out_signature='a(ss)')
def GetRegisteredItems(self):
    '''(bus name, object path) of every item that registered, in order (test helper).'''
    return dbus.Array(self.registered, signature='(ss)')
