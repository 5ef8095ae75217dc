#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own for blocking work (a transfer, the outbox, a raw socket): what Foundation's `Thread` was
/// used for, without Foundation. The corresponding C functions are `pthread_create` and `pthread_detach`.
public enum DetachedThread {
    /// Runs `body` on a new detached thread called `name` (Linux keeps 15 bytes of it, shown by `top -H`).
    /// Returns false, and `body` never runs, when the system cannot start another thread.
    @discardableResult
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(ThreadWork(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, threadEntry, work) == 0 else {
            Unmanaged<ThreadWork>.fromOpaque(work).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

/// What a new thread runs, and its name.
private final class ThreadWork: @unchecked Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Linux's thread name (`comm`, 15 bytes), written where `pthread_setname_np` writes it.
    func nameCurrentThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}

private func threadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    let work = Unmanaged<ThreadWork>.fromOpaque(raw).takeRetainedValue()
    work.nameCurrentThread()
    work.body()
    return nil
}
