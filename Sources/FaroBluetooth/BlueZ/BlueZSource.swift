internal import CGio
import FaroCore
import FaroGLib

/// What bluetoothd answered, sorted by what Faro does about it. Pure, so the mapping is tested without a bus.
public enum BlueZReply: Equatable, Sendable {
    /// The call worked, or the goal is already reached (`org.bluez.Error.InProgress` for StartDiscovery).
    case done
    /// The adapter is powered off (`org.bluez.Error.NotReady`).
    case poweredOff
    /// The bus policy refuses the call (`org.freedesktop.DBus.Error.AccessDenied`).
    case accessDenied(String)
    /// bluetoothd is gone or not answering (ServiceUnknown, NameHasNoOwner, NoReply, Disconnected): wait for it.
    case serviceGone
    /// The adapter object went away (UnknownObject, UnknownMethod, `org.bluez.Error.DoesNotExist`).
    case adapterGone
    /// Anything else, with the error name and message.
    case failed(name: String, message: String)

    /// Classifies a D-Bus error name and message.
    public static func classify(errorName name: String, message: String) -> BlueZReply {
        switch name {
        case "org.bluez.Error.InProgress", "org.bluez.Error.AlreadyExists": return .done
        case "org.bluez.Error.NotReady": return .poweredOff
        case "org.freedesktop.DBus.Error.AccessDenied", "org.bluez.Error.NotAuthorized",
            "org.freedesktop.DBus.Error.AuthFailed":
            return .accessDenied(message.isEmpty ? name : message)
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
            "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Disconnected",
            "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut":
            return .serviceGone
        case "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
            "org.freedesktop.DBus.Error.UnknownInterface", "org.bluez.Error.DoesNotExist":
            return .adapterGone
        default: return .failed(name: name, message: message)
        }
    }
}

/// Scans through bluetoothd: a GDBus client of `org.bluez` on the system bus, driven entirely by the GLib main
/// context it was started on (asynchronous calls and signals, no polling, no blocking).
///
/// It picks the adapter (the first powered one, or the one named), sets a discovery filter (LE, duplicate data,
/// an RSSI floor so that every RSSI change is reported) and starts discovery; then it follows `InterfacesAdded`,
/// `PropertiesChanged` and `InterfacesRemoved`. It survives bluetoothd stopping or restarting (the bus name is
/// watched), adapters coming, going and being powered off, policy refusals, and malformed data; each situation is
/// reported as a `SourceState`. Discovery is stopped in `stop`.
public final class BlueZSource: AdvertisementSource {
    /// How to scan.
    public struct Options: Sendable {
        /// The adapter to use (`hci0`); nil takes the first powered one.
        public var adapter: String?
        /// Power the adapter on through `Adapter1.Powered` when it is off (only when the user asked for it).
        public var powerOn: Bool
        /// The discovery filter's RSSI floor in dBm. Any value makes bluetoothd report every RSSI change.
        public var rssiFloor: Int16
        /// The bus to use; nil is the system bus (`$DBUS_SYSTEM_BUS_ADDRESS` or the standard socket).
        public var busAddress: String?
        /// The quiet-scanner watchdog's settings; nil switches it off. It power-cycles the adapter only with
        /// `powerOn`.
        public var watchdog: ScanWatchdogConfiguration?

        public init(
            adapter: String? = nil, powerOn: Bool = false, rssiFloor: Int16 = -127, busAddress: String? = nil,
            watchdog: ScanWatchdogConfiguration? = ScanWatchdogConfiguration()
        ) {
            self.adapter = adapter
            self.powerOn = powerOn
            self.rssiFloor = rssiFloor
            self.busAddress = busAddress
            self.watchdog = watchdog
        }
    }

    /// Counters for diagnostics and the benchmark.
    public struct Statistics: Sendable, Equatable {
        /// D-Bus signals handled (all kinds).
        public var signals = 0
        /// Sightings delivered.
        public var sightings = 0
        /// Messages dropped because a value was malformed.
        public var rejected = 0
        /// Discovery restarts the watchdog asked for.
        public var discoveryRestarts = 0
        /// Adapter power cycles the watchdog asked for.
        public var powerCycles = 0
    }

    /// Where Faro's own discovery request on the chosen adapter stands (`restarting`: stopped by the watchdog, to
    /// be started again when bluetoothd answers).
    private enum Discovery { case none, starting, active, restarting }

    static let service = "org.bluez"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"

    public let name = "bluez"
    public let options: Options
    private var counters = Statistics()
    /// Signals handled, sightings delivered, messages dropped as malformed so far.
    public var statistics: Statistics {
        var s = counters
        s.rejected += tracker.rejectedCount
        return s
    }
    /// The Bluetooth address of the adapter in use (what calibration offsets are kept under), nil before one is
    /// chosen or when bluetoothd did not say.
    public var adapterAddress: String? { tracker.adapterPath.flatMap { adapters[$0]?.address } }
    /// How many devices of the chosen adapter are being followed.
    public var deviceCount: Int { tracker.deviceCount }

    private let clock: () -> Double
    private var handler: ((SourceEvent) -> Void)?
    /// The main context replies and signals are dispatched on (the starter's), kept alive while scanning.
    private var context: OpaquePointer?
    private var cancellable: DBusCancellable?
    private var connection: OpaquePointer?
    private var subscriptions: [UInt32] = []
    private var nameWatch: UInt32 = 0
    private var serviceOwner: String?
    private var serviceSeen = false
    private var loaded = false
    /// Bumped whenever bluetoothd goes or comes, so replies from an earlier instance are ignored.
    private var generation = 0
    private var adapters: [String: AdapterProperties] = [:]
    private var tracker = BlueZDeviceTracker()
    private var discovery = Discovery.none
    private var powerRequested = false
    private var hasScanned = false
    private var lastState: SourceState?
    private var watchdog: ScanWatchdog?
    private var watchdogTimer: UInt32 = 0

    /// A source with `options`; `clock` stamps sightings (monotonic seconds by default).
    public init(options: Options = Options(), clock: (() -> Double)? = nil) {
        self.options = options
        self.clock = clock ?? GLibMainLoop.monotonicSeconds
        watchdog = options.watchdog.map { ScanWatchdog(configuration: $0) }
    }

    deinit {
        teardown()
    }

    /// Whether bluetoothd is on the bus: a quick blocking check for choosing the default source before any UI
    /// exists. Fails when the bus itself cannot be reached.
    public static func isServiceRunning(busAddress: String? = nil) -> Result<Bool, ScanError> {
        let address: String
        switch busAddress.map({ Result<String, DBusFailure>.success($0) }) ?? DBusClient.systemBusAddress() {
        case .success(let a): address = a
        case .failure(let f): return .failure(.systemBusUnavailable(detail: f.message))
        }
        let connection: OpaquePointer
        switch DBusClient.connectSync(address: address) {
        case .success(let c): connection = c
        case .failure(let f): return .failure(.systemBusUnavailable(detail: f.message))
        }
        defer { DBusClient.close(connection, waiting: true) }
        return MessageBus.nameHasOwner(service, on: connection, timeoutMilliseconds: 3000).mapError { f -> ScanError in
            .systemBusUnavailable(detail: f.message)
        }
    }

    public func start(_ handler: @escaping (SourceEvent) -> Void) throws(ScanError) {
        if let adapter = options.adapter, !BlueZSource.isAdapterName(adapter) {
            throw .invalidAdapterName(adapter)
        }
        let address: String
        switch options.busAddress.map({ Result<String, DBusFailure>.success($0) }) ?? DBusClient.systemBusAddress() {
        case .success(let a): address = a
        case .failure(let f): throw .systemBusUnavailable(detail: f.message)
        }
        self.handler = handler
        context = MainContextSources.currentContext()
        cancellable = DBusCancellable()
        DBusClient.connect(address: address, cancellable: cancellable) { [weak self] result in
            guard let self, self.handler != nil else {
                if case .success(let connection) = result { DBusClient.close(connection) }
                return
            }
            switch result {
            case .success(let connection): self.connected(connection)
            case .failure(let failure): self.fail(.systemBusUnavailable(detail: failure.message))
            }
        }
    }

    public func stop(_ done: @escaping () -> Void) {
        guard let connection, discovery != .none, let adapter = tracker.adapterPath, serviceOwner != nil else {
            teardown()
            done()
            return
        }
        discovery = .none
        let finish: (Result<OpaquePointer?, DBusFailure>) -> Void = { [weak self] _ in
            self?.teardown()
            done()
        }
        DBusClient.call(
            connection, destination: BlueZSource.service, path: adapter,
            interface: BlueZSource.adapterInterface, method: "StopDiscovery",
            timeoutMilliseconds: 2000, finish)
    }

    /// `hci` followed by digits.
    static func isAdapterName(_ name: String) -> Bool {
        HCISource.deviceNumber(name) != nil
    }

    // MARK: - Connection and service

    private func connected(_ connection: OpaquePointer) {
        self.connection = connection
        let service = BlueZSource.service
        subscriptions.append(
            DBusClient.subscribe(
                connection, sender: service, interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
                path: "/"
            ) { [weak self] _, _, parameters in self?.interfacesAdded(parameters) })
        subscriptions.append(
            DBusClient.subscribe(
                connection, sender: service, interface: "org.freedesktop.DBus.ObjectManager",
                member: "InterfacesRemoved",
                path: "/"
            ) { [weak self] _, _, parameters in self?.interfacesRemoved(parameters) })
        subscriptions.append(
            DBusClient.subscribe(
                connection, sender: service, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                path: nil
            ) { [weak self] _, path, parameters in self?.propertiesChanged(path, parameters) })
        nameWatch = DBusClient.watchName(
            connection, service,
            appeared: { [weak self] owner in
                self?.serviceAppeared(owner)
            },
            vanished: { [weak self] in
                self?.serviceVanished()
            })
    }

    private func serviceAppeared(_ owner: String) {
        guard let connection else { return }
        generation += 1
        serviceOwner = owner
        loaded = false
        let expected = generation
        DBusClient.call(
            connection, destination: BlueZSource.service, path: "/",
            interface: "org.freedesktop.DBus.ObjectManager", method: "GetManagedObjects"
        ) { [weak self] r in
            guard let self, self.generation == expected else { return }
            switch r {
            case .success(let reply): self.loadManagedObjects(reply)
            case .failure(let failure): self.handleFailure(failure, during: "GetManagedObjects")
            }
        }
    }

    private func serviceVanished() {
        generation += 1
        let wasThere = serviceOwner != nil || serviceSeen
        serviceOwner = nil
        loaded = false
        adapters.removeAll()
        tracker.follow(adapterPath: nil)
        discovery = .none
        powerRequested = false
        report(wasThere ? .serviceGone : .waitingForService)
    }

    private func loadManagedObjects(_ reply: OpaquePointer?) {
        guard let reply, GVariantReading.has(reply, type: ObjectManager.managedObjectsReplyType) else {
            counters.rejected += 1
            return
        }
        serviceSeen = true
        loaded = true
        var devices: [(String, DeviceProperties)] = []
        GVariantReading.forEachManagedObject(reply) { path, interfaces in
            GVariantReading.forEachInterface(interfaces) { name, properties in
                if name == BlueZSource.adapterInterface {
                    adapters[path] = BlueZVariant.adapterProperties(properties)
                } else if name == BlueZSource.deviceInterface {
                    devices.append((path, BlueZVariant.deviceProperties(properties)))
                }
            }
        }
        reconcile()
        let now = clock()
        for (path, properties) in devices {
            if let sighting = tracker.added(path: path, properties: properties, at: now) { deliver(sighting) }
        }
    }

    // MARK: - Signals

    private func interfacesAdded(_ parameters: OpaquePointer) {
        counters.signals += 1
        guard GVariantReading.has(parameters, type: "(oa{sa{sv}})"),
            let path = GVariantReading.stringChild(parameters, 0),
            let interfaces = g_variant_get_child_value(parameters, 1)
        else {
            counters.rejected += 1
            return
        }
        defer { g_variant_unref(interfaces) }
        var adapterChanged = false
        GVariantReading.forEachInterface(interfaces) { name, properties in
            if name == BlueZSource.adapterInterface {
                adapters[path] = BlueZVariant.adapterProperties(properties)
                adapterChanged = true
            } else if name == BlueZSource.deviceInterface {
                let device = BlueZVariant.deviceProperties(properties)
                if device.isAdvertisement { heardSomething() }
                if let sighting = tracker.added(path: path, properties: device, at: clock()) { deliver(sighting) }
            }
        }
        if adapterChanged { reconcile() }
    }

    private func interfacesRemoved(_ parameters: OpaquePointer) {
        counters.signals += 1
        guard GVariantReading.has(parameters, type: "(oas)"), let path = GVariantReading.stringChild(parameters, 0),
            let names = g_variant_get_child_value(parameters, 1)
        else {
            counters.rejected += 1
            return
        }
        defer { g_variant_unref(names) }
        for name in GVariantReading.strings(names) {
            if name == BlueZSource.deviceInterface {
                tracker.removed(path: path)
            } else if name == BlueZSource.adapterInterface {
                adapters.removeValue(forKey: path)
                if path == tracker.adapterPath {
                    tracker.follow(adapterPath: nil)
                    discovery = .none
                }
                reconcile()
            }
        }
    }

    private func propertiesChanged(_ path: UnsafePointer<CChar>, _ parameters: OpaquePointer) {
        counters.signals += 1
        guard GVariantReading.has(parameters, type: "(sa{sv}as)"),
            let interface = g_variant_get_child_value(parameters, 0)
        else {
            counters.rejected += 1
            return
        }
        defer { g_variant_unref(interface) }
        guard let interfaceName = g_variant_get_string(interface, nil),
            let changes = g_variant_get_child_value(parameters, 1)
        else { return }
        defer { g_variant_unref(changes) }
        if strcmp(interfaceName, BlueZSource.deviceInterface) == 0 {
            var invalidated: [String] = []
            if let list = g_variant_get_child_value(parameters, 2) {
                if g_variant_n_children(list) > 0 { invalidated = GVariantReading.strings(list) }
                g_variant_unref(list)
            }
            let device = BlueZVariant.deviceProperties(changes, invalidated: invalidated)
            if device.isAdvertisement { heardSomething() }
            if let sighting = tracker.changed(path: String(cString: path), properties: device, at: clock()) {
                deliver(sighting)
            }
        } else if strcmp(interfaceName, BlueZSource.adapterInterface) == 0 {
            adapterChanged(String(cString: path), BlueZVariant.adapterProperties(changes))
        }
    }

    private func adapterChanged(_ path: String, _ change: AdapterProperties) {
        guard var adapter = adapters[path] else { return }
        if let powered = change.powered { adapter.powered = powered }
        if let discovering = change.discovering { adapter.discovering = discovering }
        if let address = change.address { adapter.address = address }
        adapters[path] = adapter
        if path == tracker.adapterPath {
            if change.powered == false {
                discovery = .none
                powerRequested = false
            } else if change.discovering == false, discovery == .active {
                // Discovery ended under us (adapter reset, another tool): ask again.
                discovery = .none
            }
        }
        reconcile()
    }

    // MARK: - Choosing the adapter and discovering

    /// Moves towards "discovering on the right adapter" from whatever is known now.
    private func reconcile() {
        guard let connection, serviceOwner != nil, loaded else { return }
        let chosen: String?
        if let wanted = options.adapter {
            let path = "/org/bluez/" + wanted
            chosen = adapters[path] != nil ? path : nil
        } else if let current = tracker.adapterPath, adapters[current]?.powered == true {
            // Stay on a working adapter when another one comes or powers up.
            chosen = current
        } else {
            let paths = adapters.keys.sorted()
            chosen = paths.first { adapters[$0]?.powered == true } ?? paths.first
        }
        guard let path = chosen, let adapter = adapters[path] else {
            if tracker.adapterPath != nil { tracker.follow(adapterPath: nil) }
            discovery = .none
            report(.adapterMissing(requested: options.adapter))
            return
        }
        if path != tracker.adapterPath {
            if let previous = tracker.adapterPath, discovery != .none, adapters[previous] != nil {
                // Leaving an adapter that still exists: end the discovery Faro asked it for.
                DBusClient.call(
                    connection, destination: BlueZSource.service, path: previous,
                    interface: BlueZSource.adapterInterface, method: "StopDiscovery"
                ) { _ in }
            }
            tracker.follow(adapterPath: path)
            discovery = .none
            powerRequested = false
        }
        let adapterName = BlueZDeviceTracker.adapterName(fromPath: path)
        guard adapter.powered == true else {
            report(.poweredOff(adapter: adapterName))
            if options.powerOn, !powerRequested {
                powerRequested = true
                let expected = generation
                DBusClient.call(
                    connection, destination: BlueZSource.service, path: path,
                    interface: "org.freedesktop.DBus.Properties", method: "Set",
                    parameters: BlueZVariant.powerOn()
                ) { [weak self] r in
                    guard let self, self.generation == expected, case .failure(let f) = r else { return }
                    self.handleFailure(f, during: "powering \(adapterName) on")
                }
            }
            return
        }
        guard discovery == .none else { return }
        discovery = .starting
        let expected = generation
        DBusClient.call(
            connection, destination: BlueZSource.service, path: path,
            interface: BlueZSource.adapterInterface, method: "SetDiscoveryFilter",
            parameters: BlueZVariant.discoveryFilter(rssiFloor: options.rssiFloor)
        ) { [weak self] r in
            guard let self, self.generation == expected, self.tracker.adapterPath == path,
                self.discovery == .starting
            else { return }
            if case .failure(let f) = r {
                // Without the filter scanning still works, only coarser; but a refusal by policy is final.
                if case .accessDenied = BlueZReply.classify(errorName: f.name, message: f.message) {
                    self.discovery = .none
                    self.handleFailure(f, during: "SetDiscoveryFilter")
                    return
                }
            }
            self.startDiscovery(path, adapterName: adapterName, expected: expected)
        }
    }

    private func startDiscovery(_ path: String, adapterName: String, expected: Int) {
        guard let connection else { return }
        DBusClient.call(
            connection, destination: BlueZSource.service, path: path,
            interface: BlueZSource.adapterInterface, method: "StartDiscovery"
        ) { [weak self] r in
            guard let self, self.generation == expected, self.tracker.adapterPath == path,
                self.discovery == .starting
            else { return }
            switch r {
            case .success:
                self.discoveryStarted(adapterName)
            case .failure(let f):
                if BlueZReply.classify(errorName: f.name, message: f.message) == .done {
                    self.discoveryStarted(adapterName)
                } else {
                    self.discovery = .none
                    self.handleFailure(f, during: "StartDiscovery")
                }
            }
        }
    }

    private func discoveryStarted(_ adapterName: String) {
        discovery = .active
        if watchdog?.silence(at: clock()) == nil {
            report(hasScanned ? .resumed(adapter: adapterName) : .scanning(adapter: adapterName))
        }
        hasScanned = true
        scheduleWatchdog()
    }

    // MARK: - The quiet-scanner watchdog (docs/monitoring.md)

    /// bluetoothd reported an advertisement (an RSSI or advertising data; not an RSSI cleared at the end of a
    /// discovery): the scanner hears.
    private func heardSomething() {
        guard watchdog != nil else { return }
        let wasQuiet = watchdog?.silence(at: clock()) != nil
        watchdog?.heard(at: clock())
        if wasQuiet, discovery == .active, let path = tracker.adapterPath {
            report(.resumed(adapter: BlueZDeviceTracker.adapterName(fromPath: path)))
        }
        scheduleWatchdog()
    }

    /// One timer at a time, for when the silence would become a fault (a reading meanwhile only moves that time:
    /// the timer finds nothing due and is set again), and once a minute while quiet for the status. Without
    /// traffic there is no timer at all.
    private func scheduleWatchdog() {
        guard watchdogTimer == 0, discovery == .active, let watchdog, let due = watchdog.nextActionAt else { return }
        let now = clock()
        var at = due
        if let silence = watchdog.silence(at: now) {
            at = min(at, now + 60 - silence.truncatingRemainder(dividingBy: 60))
        }
        let seconds = min(max(at - now, 0.01), 3600)
        watchdogTimer = MainContextSources.addTimeout(milliseconds: UInt32(seconds * 1000), context: context) {
            [weak self] in
            guard let self else { return false }
            self.watchdogTimer = 0
            self.checkWatchdog()
            self.scheduleWatchdog()
            return false
        }
    }

    private func stopWatchdogTimer() {
        if watchdogTimer != 0 {
            MainContextSources.remove(watchdogTimer, context: context)
            watchdogTimer = 0
        }
    }

    private func checkWatchdog() {
        guard discovery == .active, let connection, let path = tracker.adapterPath, serviceOwner != nil else { return }
        let now = clock()
        let action = watchdog?.check(at: now, canPowerCycle: options.powerOn)
        let adapterName = BlueZDeviceTracker.adapterName(fromPath: path)
        if let silence = watchdog?.silence(at: now) {
            report(.quiet(adapter: adapterName, minutes: Int(silence / 60)))
        }
        switch action {
        case nil:
            return
        case .restartDiscovery:
            counters.discoveryRestarts += 1
            discovery = .restarting
            let expected = generation
            DBusClient.call(
                connection, destination: BlueZSource.service, path: path,
                interface: BlueZSource.adapterInterface, method: "StopDiscovery", timeoutMilliseconds: 5000
            ) { [weak self] _ in
                // Started again whatever the answer: a refused stop leaves discovery on, and StartDiscovery's
                // InProgress counts as done.
                guard let self, self.generation == expected, self.discovery == .restarting else { return }
                self.discovery = .none
                self.reconcile()
            }
        case .powerCycle:
            counters.powerCycles += 1
            // Powered false: adapterChanged sees it and reconcile powers the adapter on again (`powerOn`).
            let expected = generation
            DBusClient.call(
                connection, destination: BlueZSource.service, path: path,
                interface: "org.freedesktop.DBus.Properties", method: "Set", parameters: BlueZVariant.powerOn(false)
            ) { [weak self] r in
                guard let self, self.generation == expected, case .failure(let f) = r else { return }
                self.handleFailure(f, during: "powering \(adapterName) off")
            }
        }
    }

    private func handleFailure(_ failure: DBusFailure, during operation: String) {
        switch BlueZReply.classify(errorName: failure.name, message: failure.message) {
        case .done:
            return
        case .poweredOff:
            if let path = tracker.adapterPath {
                adapters[path]?.powered = false
                report(.poweredOff(adapter: BlueZDeviceTracker.adapterName(fromPath: path)))
            }
        case .accessDenied(let detail):
            report(.accessDenied(detail: "\(operation): \(detail)"))
        case .serviceGone:
            // The name watcher reports the service's departure and return; nothing to do until then.
            return
        case .adapterGone:
            // InterfacesRemoved follows; until then the adapter is treated as absent.
            if let path = tracker.adapterPath { adapters.removeValue(forKey: path) }
            tracker.follow(adapterPath: nil)
            discovery = .none
            reconcile()
        case .failed(let name, let message):
            fail(.bluezCallFailed(method: operation, errorName: name, message: message))
        }
    }

    // MARK: - Delivery and teardown

    /// bluetoothd merges every client's discovery filter (the lowest RSSI floor, every transport asked for), so
    /// what arrives is checked again against Faro's own floor.
    private func deliver(_ sighting: BeaconSighting) {
        guard Int16(sighting.rssi) >= options.rssiFloor else { return }
        counters.sightings += 1
        handler?(.sighting(sighting))
    }

    private func report(_ state: SourceState) {
        guard state != lastState else { return }
        lastState = state
        handler?(.state(state))
    }

    private func fail(_ error: ScanError) {
        let handler = self.handler
        teardown()
        handler?(.failed(error))
    }

    private func teardown() {
        handler = nil
        stopWatchdogTimer()
        if let cancellable {
            cancellable.cancel()
            self.cancellable = nil
        }
        if nameWatch != 0 {
            DBusClient.unwatchName(nameWatch)
            nameWatch = 0
        }
        if let connection {
            for id in subscriptions { DBusClient.unsubscribe(connection, id) }
            subscriptions.removeAll()
            DBusClient.close(connection)
            self.connection = nil
        }
        if let context {
            MainContextSources.release(context: context)
            self.context = nil
        }
        discovery = .none
    }
}
