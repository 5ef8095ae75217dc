'''Faro's bluetoothd mock: python-dbusmock's stock bluez5 template, corrected where Faro needs it.

Run with: /usr/bin/python3 -m dbusmock --system --template bluez_faro.py

What it changes or adds (the stock template in python-dbusmock 0.28.7 has these bugs):
- AddAdapter: the adapter has Adapter1.DiscoveryFilter-free properties, a real SetDiscoveryFilter (kept per
  adapter), GetDiscoveryFilters, and StartDiscovery that works without a prior filter and refuses with
  org.bluez.Error.NotReady while the adapter is powered off, as bluetoothd does.
- AddBeacon: a device whose ManufacturerData is typed a{qv} (stock: aa{qv}), announced with exactly one
  InterfacesAdded carrying the iBeacon.
- Advertise: one PropertiesChanged with RSSI and ManufacturerData, as bluetoothd sends for every report when the
  discovery filter has DuplicateData and an RSSI floor.
- SetPowered: powers an adapter off or on with the PropertiesChanged bluetoothd sends.
- StopDiscovery (and powering off) clears each device's RSSI with a PropertiesChanged that invalidates it, as
  bluetoothd does when a discovery ends: a device it still lists is not a device heard now.
- EmitRaw: sends a PropertiesChanged with any GVariant text, for devices (and daemons) that send garbage.
The stock AddDevice, RemoveAdapter and RemoveAdapterWithDevices stay available.
'''

import dbus

from dbusmock import OBJECT_MANAGER_IFACE, mockobject
from dbusmock.templates import bluez5
from dbusmock.templates.bluez5 import (  # noqa: F401  (re-exported: the loader adds them to the main object)
    AddDevice, RemoveAdapter, RemoveAdapterWithDevices, PairDevice, BlockDevice, ConnectDevice, DisconnectDevice,
)

BUS_NAME = bluez5.BUS_NAME
MAIN_OBJ = bluez5.MAIN_OBJ
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

BLUEZ_MOCK_IFACE = bluez5.BLUEZ_MOCK_IFACE
ADAPTER_IFACE = bluez5.ADAPTER_IFACE
DEVICE_IFACE = bluez5.DEVICE_IFACE
PROPS_IFACE = 'org.freedesktop.DBus.Properties'


def load(mock, parameters):
    bluez5.load(mock, parameters)


def _adapter_changed(adapter, changes):
    adapter.EmitSignal(PROPS_IFACE, 'PropertiesChanged', 'sa{sv}as', [ADAPTER_IFACE, changes, []])


def StartDiscovery(adapter):
    props = adapter.props[ADAPTER_IFACE]
    if not props['Powered']:
        raise dbus.exceptions.DBusException('Resource Not Ready', name='org.bluez.Error.NotReady')
    props['Discovering'] = dbus.Boolean(True, variant_level=1)
    _adapter_changed(adapter, {'Discovering': dbus.Boolean(True, variant_level=1)})


def _forget_rssi(adapter_path):
    '''bluetoothd clears each device's RSSI when a discovery ends (RSSI is "only available during discovery").'''
    for path, obj in list(mockobject.objects.items()):
        if not path.startswith(adapter_path + '/dev_'):
            continue
        props = obj.props.get(DEVICE_IFACE, {})
        if 'RSSI' in props:
            del props['RSSI']
            obj.EmitSignal(PROPS_IFACE, 'PropertiesChanged', 'sa{sv}as',
                           [DEVICE_IFACE, dbus.Dictionary({}, signature='sv'), ['RSSI']])


def StopDiscovery(adapter):
    props = adapter.props[ADAPTER_IFACE]
    if not props['Discovering']:
        raise dbus.exceptions.DBusException('No discovery started', name='org.bluez.Error.Failed')
    props['Discovering'] = dbus.Boolean(False, variant_level=1)
    _adapter_changed(adapter, {'Discovering': dbus.Boolean(False, variant_level=1)})
    _forget_rssi(adapter.__dbus_object_path__)


def SetDiscoveryFilter(adapter, discovery_filter):
    adapter.discovery_filter = discovery_filter


def GetDiscoveryFilters(_adapter):
    return ['UUIDs', 'RSSI', 'Pathloss', 'Transport', 'DuplicateData', 'Discoverable', 'Pattern']


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ss', out_signature='s')
def AddAdapter(self, device_name, system_name):
    '''Adds a powered adapter /org/bluez/<device_name> and announces it with InterfacesAdded.'''
    path = '/org/bluez/' + device_name
    number = int(device_name[3:]) if device_name[3:].isdigit() else 0
    properties = {
        'Address': dbus.String(f'00:11:22:33:44:{number:02X}', variant_level=1),
        'AddressType': dbus.String('public', variant_level=1),
        'Name': dbus.String(system_name, variant_level=1),
        'Alias': dbus.String(system_name, variant_level=1),
        'Class': dbus.UInt32(268, variant_level=1),
        'Powered': dbus.Boolean(True, variant_level=1),
        'Discoverable': dbus.Boolean(False, variant_level=1),
        'Pairable': dbus.Boolean(True, variant_level=1),
        'Discovering': dbus.Boolean(False, variant_level=1),
        'UUIDs': dbus.Array([], signature='s', variant_level=1),
    }
    self.AddObject(path, ADAPTER_IFACE, properties, [
        ('RemoveDevice', 'o', '', bluez5.RemoveDevice),
        ('StartDiscovery', '', '', StartDiscovery),
        ('StopDiscovery', '', '', StopDiscovery),
        ('SetDiscoveryFilter', 'a{sv}', '', SetDiscoveryFilter),
        ('GetDiscoveryFilters', '', 'as', GetDiscoveryFilters),
    ])
    adapter = mockobject.objects[path]
    adapter.discovery_filter = {}
    mockobject.objects['/'].EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}', [
        dbus.ObjectPath(path), {ADAPTER_IFACE: properties}])
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sb', out_signature='')
def SetPowered(_self, device_name, powered):
    '''Powers an adapter on or off; powering off also ends discovery, as bluetoothd does.'''
    adapter = mockobject.objects['/org/bluez/' + device_name]
    props = adapter.props[ADAPTER_IFACE]
    props['Powered'] = dbus.Boolean(powered, variant_level=1)
    changes = {'Powered': dbus.Boolean(powered, variant_level=1)}
    ended = not powered and props['Discovering']
    if ended:
        props['Discovering'] = dbus.Boolean(False, variant_level=1)
        changes['Discovering'] = dbus.Boolean(False, variant_level=1)
    _adapter_changed(adapter, changes)
    if ended:
        _forget_rssi('/org/bluez/' + device_name)


def _ibeacon(uuid_hex, major, minor, power):
    payload = [0x02, 0x15] + list(bytes.fromhex(uuid_hex.replace('-', '')))
    payload += [major >> 8, major & 0xFF, minor >> 8, minor & 0xFF, power & 0xFF]
    return dbus.Array([dbus.Byte(b) for b in payload], signature='y')


def _manufacturer_data(uuid_hex, major, minor, power):
    return dbus.Dictionary({dbus.UInt16(0x004C): dbus.Array(_ibeacon(uuid_hex, major, minor, power),
                                                            signature='y', variant_level=1)},
                           signature='qv', variant_level=1)


def _device_path(adapter_name, address):
    return f'/org/bluez/{adapter_name}/dev_' + address.replace(':', '_').upper()


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sssqqyn', out_signature='s')
def AddBeacon(_self, adapter_name, address, uuid_hex, major, minor, power, rssi):
    '''Adds an iBeacon device (ManufacturerData a{qv}) and announces it with one InterfacesAdded.'''
    adapter_path = '/org/bluez/' + adapter_name
    if adapter_path not in mockobject.objects:
        raise dbus.exceptions.DBusException(f'Adapter {adapter_name} does not exist.',
                                            name=BLUEZ_MOCK_IFACE + '.NoSuchAdapter')
    path = _device_path(adapter_name, address)
    properties = {
        'Address': dbus.String(address, variant_level=1),
        'AddressType': dbus.String('random', variant_level=1),
        'Alias': dbus.String(address.replace(':', '-'), variant_level=1),
        'Paired': dbus.Boolean(False, variant_level=1),
        'Trusted': dbus.Boolean(False, variant_level=1),
        'Blocked': dbus.Boolean(False, variant_level=1),
        'Connected': dbus.Boolean(False, variant_level=1),
        'LegacyPairing': dbus.Boolean(False, variant_level=1),
        'Adapter': dbus.ObjectPath(adapter_path, variant_level=1),
        'RSSI': dbus.Int16(rssi, variant_level=1),
        'ManufacturerData': _manufacturer_data(uuid_hex, major, minor, power),
        'ServicesResolved': dbus.Boolean(False, variant_level=1),
    }
    mockobject.objects[adapter_path].AddObject(path, DEVICE_IFACE, properties, [
        ('Connect', '', '', ''),
        ('Disconnect', '', '', ''),
    ])
    mockobject.objects['/'].EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}', [
        dbus.ObjectPath(path), {DEVICE_IFACE: properties}])
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sssqqyn', out_signature='')
def Advertise(_self, adapter_name, address, uuid_hex, major, minor, power, rssi):
    '''One more advertisement from a device: PropertiesChanged with RSSI and ManufacturerData.'''
    device = mockobject.objects[_device_path(adapter_name, address)]
    changes = {
        'RSSI': dbus.Int16(rssi, variant_level=1),
        'ManufacturerData': _manufacturer_data(uuid_hex, major, minor, power),
    }
    device.props[DEVICE_IFACE].update(changes)
    device.EmitSignal(PROPS_IFACE, 'PropertiesChanged', 'sa{sv}as', [DEVICE_IFACE, changes, []])


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sa{sv}', out_signature='')
def EmitRaw(_self, path, changes):
    '''Sends PropertiesChanged(Device1, changes, []) from `path`, whatever `changes` holds (garbage on purpose).'''
    mockobject.objects['/'].EmitSignalDetailed(PROPS_IFACE, 'PropertiesChanged', 'sa{sv}as',
                                               [DEVICE_IFACE, changes, []], {'path': path})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='')
def EmitMisshapen(_self, path):
    '''Sends signals with the right names and the wrong argument types from `path`.'''
    manager = mockobject.objects['/']
    manager.EmitSignalDetailed(PROPS_IFACE, 'PropertiesChanged', 'ss', [DEVICE_IFACE, 'garbage'], {'path': path})
    manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 's', ['garbage'])
    manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'i', [42])


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='a{sv}')
def GetDiscoveryFilter(_self, adapter_name):
    '''The filter the last SetDiscoveryFilter set on this adapter (test helper).'''
    return dbus.Dictionary(mockobject.objects['/org/bluez/' + adapter_name].discovery_filter, signature='sv')
