internal import CBluez
internal import CGio
import FaroCore
import FaroGLib
import FoundationEssentials
import Glibc

/// Scans with a raw HCI socket through libbluetooth, for hosts without bluetoothd. Needs CAP_NET_RAW.
///
/// On its own thread it sets passive LE scanning (public own address, 10 ms interval and window), enables it with
/// duplicate filtering off, installs an event filter for LE meta events, then reads LE Advertising Reports (several
/// per event) and decodes their iBeacons. Sightings and failures reach the starting thread's GLib main context
/// through a pipe watched there. `stop` disables scanning and restores the socket's filter. Every failure becomes a
/// `ScanError` that says what to do (no Bluetooth in the kernel, no adapter, missing CAP_NET_RAW, busy controller).
public final class HCISource: AdvertisementSource {
    /// Counters for diagnostics.
    public struct Statistics: Sendable, Equatable {
        /// HCI events read.
        public var events = 0
        /// Sightings delivered.
        public var sightings = 0
        /// Events that were not well-formed advertising reports.
        public var rejected = 0
    }

    public let name = "hci"
    /// `hciN`, or nil for the first adapter.
    public let device: String?
    /// Active scanning (asks for scan responses) instead of passive.
    public let active: Bool
    private let clock: @Sendable () -> Double
    private var reader: HCIReader?
    private var watch: UInt32 = 0
    private var context: OpaquePointer?
    private var handler: ((SourceEvent) -> Void)?
    private var stopped: (() -> Void)?

    public var statistics: Statistics { reader?.statistics ?? Statistics() }

    public init(device: String? = nil, active: Bool = false, clock: (@Sendable () -> Double)? = nil) {
        self.device = device
        self.active = active
        self.clock = clock ?? { GLibMainLoop.monotonicSeconds() }
    }

    deinit {
        reader?.requestStop()
        if watch != 0 { MainContextSources.remove(watch, context: context) }
        MainContextSources.release(context: context)
    }

    /// The adapter number in `hciN`, or nil when the name is not of that form.
    public static func deviceNumber(_ name: String) -> Int32? {
        guard name.hasPrefix("hci"), name.count > 3, name.dropFirst(3).allSatisfy(\.isASCII) else { return nil }
        return Int32(name.dropFirst(3)).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Checks that the kernel has Bluetooth sockets at all; the corresponding C call is
    /// `socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)`.
    public static func probeKernel(executable: String = HCIErrorMapping.currentExecutable()) throws(ScanError) {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else {
            throw HCIErrorMapping.error(errno: errno, step: .openSocket, device: nil, executable: executable)
        }
        close(fd)
    }

    public func start(_ handler: @escaping (SourceEvent) -> Void) throws(ScanError) {
        var number: Int32?
        if let device {
            guard let n = HCISource.deviceNumber(device) else { throw .invalidDeviceName(device) }
            number = n
        }
        let executable = HCIErrorMapping.currentExecutable()
        try HCISource.probeKernel(executable: executable)
        let reader: HCIReader
        do {
            reader = try HCIReader(device: device, number: number, active: active, executable: executable, clock: clock)
        } catch {
            throw error
        }
        attach(reader, handler)
        reader.start()
    }

    /// Reads HCI events from an already open descriptor (a socket pair in tests) instead of an adapter: the same
    /// thread, decoding and delivery, without the commands. The descriptor is not closed.
    func start(readingFrom fd: Int32, _ handler: @escaping (SourceEvent) -> Void) throws(ScanError) {
        let reader = try HCIReader(
            device: device, number: nil, active: active,
            executable: HCIErrorMapping.currentExecutable(), clock: clock)
        attach(reader, handler)
        reader.start(readingFrom: fd)
    }

    private func attach(_ reader: HCIReader, _ handler: @escaping (SourceEvent) -> Void) {
        self.reader = reader
        self.handler = handler
        context = MainContextSources.currentContext()
        watch = MainContextSources.addFDWatch(reader.notifyFD, context: context) { [weak self] in
            self?.drain() ?? false
        }
    }

    public func stop(_ done: @escaping () -> Void) {
        guard let reader, watch != 0 else {
            done()
            return
        }
        stopped = done
        reader.requestStop()
    }

    /// Delivers what the reader queued; returns false once the reader has finished.
    private func drain() -> Bool {
        guard let reader else { return false }
        for item in reader.takeQueued() {
            switch item {
            case .event(let event):
                handler?(event)
            case .finished:
                watch = 0
                handler = nil
                let done = stopped
                stopped = nil
                done?()
                return false
            }
        }
        return true
    }

    /// Decodes one HCI event as read from the socket into sightings, through the production decode path
    /// (`AdvertisementDecoder.forEachBeacon`); returns why it was not a well-formed advertising report event (nil
    /// when it was, even if no report held an iBeacon). Allocation-free apart from `deliver`.
    public static func sightings(
        inEvent bytes: UnsafeRawBufferPointer, at time: Double,
        _ deliver: (BeaconSighting) -> Void
    ) -> HCIEventRejection? {
        let any = AdvertisementDecoder.forEachBeacon(in: bytes, kind: .hci) { decoded in
            // An HCI report always carries an address; nil here would be a decoder bug, and then nothing is sent.
            // Its RSSI is nil where the controller said 127 ("not available"), which is passed on as such.
            guard let address = decoded.address else { return }
            deliver(BeaconSighting(decoded, heardFrom: address, rssi: 127, at: time))
        }
        return any ? nil : HCIEventParser.check(bytes)
    }
}

/// The reader thread's side of HCISource: the socket, the commands and the queue handed to the main context.
final class HCIReader: @unchecked Sendable {
    /// What the thread hands to the main context: an event to deliver, or the end of the thread.
    enum Item {
        case event(SourceEvent)
        case finished
    }

    let deviceName: String?
    let number: Int32?
    let active: Bool
    let executable: String
    let clock: @Sendable () -> Double
    /// Written by the reader when items are queued; watched on the main context.
    let notifyFD: Int32
    private let notifyWriteFD: Int32
    /// Written by `requestStop`; polled by the reader.
    private let stopReadFD: Int32
    private let stopWriteFD: Int32
    private let lock = ConditionLock()
    private var queue: [Item] = []
    private var counters = HCISource.Statistics()

    init(
        device: String?, number: Int32?, active: Bool, executable: String,
        clock: @escaping @Sendable () -> Double
    ) throws(ScanError) {
        deviceName = device
        self.number = number
        self.active = active
        self.executable = executable
        self.clock = clock
        var notify: [Int32] = [0, 0]
        var stop: [Int32] = [0, 0]
        guard HCIReader.openPipe(&notify) else {
            throw .systemCallFailed(call: "pipe", errno: errno, message: HCIErrorMapping.message(for: errno))
        }
        guard HCIReader.openPipe(&stop) else {
            let code = errno
            close(notify[0])
            close(notify[1])
            throw .systemCallFailed(call: "pipe", errno: code, message: HCIErrorMapping.message(for: code))
        }
        notifyFD = notify[0]
        notifyWriteFD = notify[1]
        stopReadFD = stop[0]
        stopWriteFD = stop[1]
    }

    /// A close-on-exec, non-blocking pipe; the corresponding C functions are `g_unix_open_pipe` and
    /// `g_unix_set_fd_nonblocking`.
    static func openPipe(_ fds: inout [Int32]) -> Bool {
        guard g_unix_open_pipe(&fds, FD_CLOEXEC, nil) != 0 else { return false }
        guard g_unix_set_fd_nonblocking(fds[0], 1, nil) != 0, g_unix_set_fd_nonblocking(fds[1], 1, nil) != 0 else {
            close(fds[0])
            close(fds[1])
            return false
        }
        return true
    }

    deinit {
        close(notifyFD)
        close(notifyWriteFD)
        close(stopReadFD)
        close(stopWriteFD)
    }

    var statistics: HCISource.Statistics {
        lock.lock()
        defer { lock.unlock() }
        return counters
    }

    func start() {
        DetachedThread.start(name: "faro-hci") { [self] in self.run() }
    }

    /// Starts the thread on an open descriptor, skipping the adapter and its commands.
    func start(readingFrom fd: Int32) {
        DetachedThread.start(name: "faro-hci") { [self] in
            defer { self.post(.finished) }
            self.readEvents(fd)
        }
    }

    func requestStop() {
        var one: UInt8 = 1
        _ = write(stopWriteFD, &one, 1)
    }

    func takeQueued() -> [Item] {
        var byte = [UInt8](repeating: 0, count: 64)
        while read(notifyFD, &byte, byte.count) > 0 {}
        lock.lock()
        defer { lock.unlock() }
        let items = queue
        queue.removeAll()
        return items
    }

    private func post(_ item: Item) {
        lock.lock()
        queue.append(item)
        lock.unlock()
        var one: UInt8 = 1
        _ = write(notifyWriteFD, &one, 1)
    }

    private func fail(_ error: ScanError) {
        post(.event(.failed(error)))
    }

    private func errnoError(_ step: HCIStep) -> ScanError {
        HCIErrorMapping.error(errno: errno, step: step, device: deviceName, executable: executable)
    }

    /// The thread: open, configure, read until asked to stop, restore.
    private func run() {
        defer { post(.finished) }
        let id = number ?? hci_get_route(nil)
        guard id >= 0 else { return fail(errnoError(.findAdapter)) }
        let name = deviceName ?? "hci\(id)"
        let dd = hci_open_dev(id)
        guard dd >= 0 else { return fail(errnoError(.openDevice)) }
        defer { close(dd) }

        var original = hci_filter()
        var length = socklen_t(MemoryLayout<hci_filter>.size)
        let savedFilter = getsockopt(dd, SOL_HCI, HCI_FILTER, &original, &length) == 0

        // LE Set Scan Parameters: type, interval, window (0.625 ms units, little-endian), own address, policy.
        let interval: UInt16 = 0x0010
        let parameters: [UInt8] = [
            active ? 0x01 : 0x00, UInt8(interval & 0xFF), UInt8(interval >> 8),
            UInt8(interval & 0xFF), UInt8(interval >> 8), 0x00, 0x00,  // own address type: public
        ]
        if let error = command(dd, ocf: UInt16(OCF_LE_SET_SCAN_PARAMETERS), parameters, .setScanParameters, name) {
            return fail(error)
        }
        // LE Set Scan Enable: enable, duplicate filtering off (every advertisement, for ranging).
        if let error = command(dd, ocf: UInt16(OCF_LE_SET_SCAN_ENABLE), [0x01, 0x00], .enableScan, name) {
            return fail(error)
        }
        defer {
            _ = command(dd, ocf: UInt16(OCF_LE_SET_SCAN_ENABLE), [0x00, 0x00], .enableScan, name)
            if savedFilter { _ = setsockopt(dd, SOL_HCI, HCI_FILTER, &original, length) }
        }
        var filter = hci_filter()
        hci_filter_clear(&filter)
        hci_filter_set_ptype(HCI_EVENT_PKT, &filter)
        hci_filter_set_event(EVT_LE_META_EVENT, &filter)
        guard setsockopt(dd, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size)) == 0 else {
            return fail(errnoError(.setFilter))
        }
        post(.event(.state(.scanning(adapter: name))))
        readEvents(dd)
    }

    /// Sends one LE command and checks its status; nil when it succeeded.
    private func command(_ dd: Int32, ocf: UInt16, _ parameters: [UInt8], _ step: HCIStep, _ name: String)
        -> ScanError?
    {
        var cparam = parameters
        var status: UInt8 = 0xFF
        let result: Int32 = cparam.withUnsafeMutableBytes { c in
            withUnsafeMutablePointer(to: &status) { s in
                var request = hci_request(
                    ogf: UInt16(OGF_LE_CTL), ocf: ocf, event: 0, cparam: c.baseAddress,
                    clen: Int32(c.count), rparam: UnsafeMutableRawPointer(s), rlen: 1)
                return hci_send_req(dd, &request, 1000)
            }
        }
        if result < 0 {
            return HCIErrorMapping.error(errno: errno, step: step, device: name, executable: executable)
        }
        return status == 0 ? nil : HCIErrorMapping.error(status: status, step: step, device: name)
    }

    private func readEvents(_ dd: Int32) {
        var buffer = [UInt8](repeating: 0, count: Int(HCI_MAX_EVENT_SIZE))
        var fds = [
            pollfd(fd: dd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopReadFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return fail(errnoError(.read))
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else {
                if fds[0].revents != 0 { return fail(errnoError(.read)) }
                continue
            }
            let n = read(dd, &buffer, buffer.count)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return fail(errnoError(.read))
            }
            let now = clock()
            var found: [BeaconSighting] = []
            let rejection = buffer.withUnsafeBytes { p in
                HCISource.sightings(inEvent: UnsafeRawBufferPointer(rebasing: p[0..<n]), at: now) { found.append($0) }
            }
            lock.lock()
            counters.events += 1
            if rejection != nil { counters.rejected += 1 }
            counters.sightings += found.count
            lock.unlock()
            for s in found { post(.event(.sighting(s))) }
        }
    }
}
