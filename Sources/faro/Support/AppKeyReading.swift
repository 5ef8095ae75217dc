import FaroCore
import FaroSettings
import FoundationEssentials

/// The stored app key, read once on a thread of its own after the window's first frame (`start()`, from
/// `GUIEnvironment.afterFirstFrame`): asking the Secret Service (probing the bus, opening a session, the search)
/// takes tens of milliseconds and may start the keyring daemon, which the first frame should neither wait for nor
/// share the cores with. The catalog's syncer waits for it on the catalog's thread; the outbox deliverer starts once
/// it is in.
final class AppKeyReading: @unchecked Sendable {
    private let condition = ConditionLock()
    private var outcome: Result<String?, AppKeyError>?
    private var waiting: [@Sendable (Result<String?, AppKeyError>) -> Void] = []

    private let environment: [String: String]
    private var started = false

    /// Reads from the store this session uses (`AppKeyStore.standard`) once `start()` is called.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Starts the read (once). `wait()` blocks until it is done, so start it before anything waits.
    func start() {
        let first = condition.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let environment = environment
        DetachedThread.start(name: "faro-app-key") { [self] in
            let result = Result { () throws(AppKeyError) -> String? in
                try AppKeyStore.standard(environment: environment).read()
            }
            let callbacks = condition.withLock { () -> [@Sendable (Result<String?, AppKeyError>) -> Void] in
                outcome = result
                condition.broadcast()
                defer { waiting = [] }
                return waiting
            }
            for callback in callbacks { callback(result) }
        }
    }

    /// The key (nil when none is stored), waiting for the read if it is still under way.
    func wait() throws(AppKeyError) -> String? {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return try outcome!.get()
    }

    /// Calls `body` with the outcome once it is known, on the reading thread (or at once, on this one, if it is).
    func whenRead(_ body: @escaping @Sendable (Result<String?, AppKeyError>) -> Void) {
        let known = condition.withLock { () -> Result<String?, AppKeyError>? in
            if outcome == nil { waiting.append(body) }
            return outcome
        }
        if let known { body(known) }
    }
}
