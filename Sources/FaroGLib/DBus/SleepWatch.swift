import Glibc

/// logind on the system bus (`org.freedesktop.login1`), through the D-Bus client: a delay inhibitor lock held while
/// Faro runs, and `PrepareForSleep` passed on. What happens at a sleep and a resume is its owner's (the window's
/// monitoring, `faro scan`); this only carries the lock, and releases it once `onPrepareForSleep(true)` has
/// returned (docs/monitoring.md, "Sleep and resume").
///
/// Without a system bus or without logind (a container) nothing happens, and `debug` is told so once.
@MainActor
public final class SleepWatch {
    static let service = "org.freedesktop.login1"
    static let path = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"

    /// `true` before the machine sleeps (what must be written is written before it returns: the lock goes
    /// then), `false` after it woke up.
    public var onPrepareForSleep: ((Bool) -> Void)?

    private var connection: OpaquePointer?
    private var cancellable: DBusCancellable?
    private var subscription: UInt32 = 0
    private var nameWatch: UInt32 = 0
    /// The inhibitor lock's descriptor, while held.
    private var lock: Int32 = -1
    /// A lock asked for and not answered yet (taken again after a resume, at most one at a time).
    private var locking = false
    private var saidUnavailable = false
    private let busAddress: String?
    /// Where the debug lines go (the debug log, `G_MESSAGES_DEBUG=faro`).
    private let debug: (String) -> Void

    /// `busAddress` nil: the system bus (`$DBUS_SYSTEM_BUS_ADDRESS` or the standard socket).
    public init(busAddress: String? = nil, debug: @escaping (String) -> Void) {
        self.busAddress = busAddress
        self.debug = debug
    }

    /// Whether the delay lock is held now.
    public var holdsLock: Bool { lock >= 0 }

    public func start() {
        let address: String
        if let busAddress {
            address = busAddress
        } else {
            switch DBusClient.systemBusAddress() {
            case .success(let a): address = a
            case .failure(let f):
                unavailable("no system bus (\(f.message))")
                return
            }
        }
        let cancellable = DBusCancellable()
        self.cancellable = cancellable
        DBusClient.connect(address: address, cancellable: cancellable) { [weak self] result in
            MainActor.assumeIsolated {
                guard let self else {
                    if case .success(let c) = result { DBusClient.close(c) }
                    return
                }
                switch result {
                case .success(let c): self.connected(c)
                case .failure(let f): self.unavailable("the system bus cannot be reached (\(f.message))")
                }
            }
        }
    }

    public func stop() {
        cancellable?.cancel()
        cancellable = nil
        if nameWatch != 0 {
            DBusClient.unwatchName(nameWatch)
            nameWatch = 0
        }
        if let connection {
            if subscription != 0 { DBusClient.unsubscribe(connection, subscription) }
            subscription = 0
            DBusClient.close(connection)
            self.connection = nil
        }
        releaseLock()
    }

    /// Lets the sleep go ahead (Faro is ready for it).
    public func releaseLock() {
        if lock >= 0 {
            close(lock)
            lock = -1
            debug("inhibitor lock released")
        }
    }

    /// Takes the delay lock again (after a resume) unless it is held or asked for.
    public func takeLock() {
        guard let connection, lock < 0, !locking else { return }
        locking = true
        DBusClient.callTakingDescriptor(
            connection, destination: SleepWatch.service, path: SleepWatch.path, interface: SleepWatch.manager,
            method: "Inhibit",
            parameters: GVariantReading.stringTuple(
                "sleep", "Faro", "Closing visits and saving before the computer sleeps", "delay")
        ) { [weak self] result in
            MainActor.assumeIsolated {
                guard let self else {
                    if case .success(let fd) = result { close(fd) }
                    return
                }
                self.locking = false
                switch result {
                case .success(let fd):
                    if self.lock >= 0 || self.connection == nil {
                        close(fd)
                    } else {
                        self.lock = fd
                        self.debug("inhibitor lock taken")
                    }
                case .failure(let f):
                    self.debug("logind refused the inhibitor lock: \(f.name): \(f.message)")
                }
            }
        }
    }

    private func connected(_ connection: OpaquePointer) {
        self.connection = connection
        subscription = DBusClient.subscribe(
            connection, sender: SleepWatch.service, interface: SleepWatch.manager, member: "PrepareForSleep",
            path: SleepWatch.path
        ) { [weak self] _, _, parameters in
            guard GVariantReading.has(parameters, type: "(b)"),
                let sleeping = GVariantReading.withChild(parameters, 0, { GVariantReading.boolean($0) })
            else { return }
            MainActor.assumeIsolated { self?.prepareForSleep(sleeping) }
        }
        nameWatch = DBusClient.watchName(
            connection, SleepWatch.service,
            appeared: { [weak self] _ in MainActor.assumeIsolated { self?.takeLock() } },
            vanished: { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.releaseLock()
                    self.unavailable("logind (org.freedesktop.login1) is not on the system bus")
                }
            })
    }

    private func prepareForSleep(_ sleeping: Bool) {
        debug(sleeping ? "PrepareForSleep(true): going to sleep" : "PrepareForSleep(false): awake")
        onPrepareForSleep?(sleeping)
        if sleeping {
            releaseLock()
        } else {
            takeLock()
        }
    }

    private func unavailable(_ why: String) {
        guard !saidUnavailable else { return }
        saidUnavailable = true
        debug("\(why); sleep and resume are not followed")
    }
}
