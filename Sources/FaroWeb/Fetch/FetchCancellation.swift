import FaroCore

/// A cancellation flag shared between the UI (which sets it when the user moves on) and a transfer thread (which
/// checks it from libcurl's progress callback).
public final class FetchCancellation: @unchecked Sendable {
    private let lock = ConditionLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}
