import CShim
import Foundation

/// A program the tests start for real (the `faro` binary, `faro-backend`, dbus-daemon, a dbusmock peer), with its
/// output captured and its life bounded: every wait has a timeout and `deinit` kills what is still running.
///
/// Started with `posix_spawn` directly, not Foundation's `Process`: on Linux, `Process.run` lists `/proc/self/fd`
/// copying each `dirent`'s whole 256-byte name field, which reads past the kernel's buffer when the last entry ends
/// on a page boundary — the test runner crashed there (SIGSEGV in memcpy) once enough descriptors were open.
public final class ChildProcess: @unchecked Sendable {
    /// The running program, as the tests query it.
    public final class Handle: @unchecked Sendable {
        public let processIdentifier: Int32
        private let lock = NSLock()
        private var exitStatus: Int32?

        init(_ pid: Int32) { processIdentifier = pid }

        /// Whether the program still runs (reaps it once it has exited).
        public var isRunning: Bool { status(blocking: false) == nil }

        /// Exit code, or the signal number when a signal ended it (as Foundation's `terminationStatus`).
        func status(blocking: Bool) -> Int32? {
            lock.lock()
            defer { lock.unlock() }
            if exitStatus == nil {
                var raw: Int32 = 0
                var result: Int32
                repeat {
                    result = waitpid(processIdentifier, &raw, blocking ? 0 : WNOHANG)
                } while result < 0 && errno == EINTR
                if result == processIdentifier {
                    let signal = raw & 0x7f
                    exitStatus = signal == 0 ? (raw >> 8) & 0xff : signal
                }
            }
            return exitStatus
        }
    }

    public let process: Handle
    private let lock = NSLock()
    private var stdoutBuffer = Data()
    private var stderrBuffer = Data()
    private let lineArrived = DispatchSemaphore(value: 0)
    /// Set when the object goes away: the readers stop once the pipes stay quiet.
    private let abandoned = ManagedFlag()

    /// Starts `executable` with `arguments`; `environment` entries are added to (or override) the test's own.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        stdin: Data? = nil
    ) throws {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let out = try Self.pipe()
        let err = try Self.pipe()
        let input = try Self.pipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, out.write, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, err.write, STDERR_FILENO)
        _ = faro_posix_spawn_file_actions_addclosefrom(&actions, 3)
        // The test runner's threads block most signals, and a child inherits the spawning thread's mask: without
        // an empty mask, SIGTERM would never reach the programs the tests start (nor what they start). Each child
        // gets its own process group, as Foundation's Process gave it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        for fd in [out.write, err.write, input.read] { close(fd) }
        guard spawned == 0 else {
            for fd in [out.read, err.read, input.write] { close(fd) }
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(spawned),
                userInfo: [
                    NSLocalizedDescriptionKey: "cannot start \(executable): \(String(cString: strerror(spawned)))"
                ])
        }
        process = Handle(pid)
        let bytes = stdin ?? Data()
        let writer = input.write
        Thread.detachNewThread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(writer, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 { if errno == EINTR { continue } else { break } }
                    offset += n
                }
            }
            close(writer)
        }
        startReader(out.read, err: false)
        startReader(err.read, err: true)
    }

    /// A close-on-exec pipe (so no other child inherits it).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Reads `fd` on a thread of its own until end of file, or until this object is gone and the pipe stays quiet
    /// (a grandchild that outlives the program — a daemon it started — may hold the pipe open forever).
    private func startReader(_ fd: Int32, err: Bool) {
        let abandoned = abandoned
        Thread.detachNewThread { [weak self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, 200)
                if ready == 0 {
                    if abandoned.isSet { break }
                    continue
                }
                if ready < 0 { if errno == EINTR { continue } else { break } }
                let n = read(fd, &chunk, chunk.count)
                if n < 0 { if errno == EINTR { continue } else { break } }
                if n == 0 { break }
                self?.take(Data(chunk[..<n]), err: err)
            }
            close(fd)
        }
    }

    private func take(_ data: Data, err: Bool) {
        lock.lock()
        if err { stderrBuffer.append(data) } else { stdoutBuffer.append(data) }
        lock.unlock()
        lineArrived.signal()
    }

    /// Everything the process wrote to stdout so far.
    public var stdout: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: stdoutBuffer, as: UTF8.self)
    }
    /// Everything the process wrote to stderr so far.
    public var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: stderrBuffer, as: UTF8.self)
    }

    /// Waits until a stdout line satisfies `match` and returns it, or nil after `timeout` seconds or at exit.
    public func waitForLine(timeout: Double = 10, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let line = stdout.split(separator: "\n").map(String.init).first(where: match) { return line }
            if !process.isRunning {
                // Give the reader a moment to drain what the process wrote just before it exited.
                Thread.sleep(forTimeInterval: 0.05)
                return stdout.split(separator: "\n").map(String.init).first(where: match)
            }
            if Date() >= deadline { return nil }
            _ = lineArrived.wait(timeout: .now() + 0.1)
        }
    }

    /// Waits for the process to exit and returns its status, or nil after `timeout` seconds.
    @discardableResult
    public func wait(timeout: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
        // Let the readers take what the process wrote last. Not "read to end of file": a grandchild that outlives
        // the process (a daemon it started) may hold the pipe open forever.
        var quiet = 0
        while quiet < 3 {
            quiet = lineArrived.wait(timeout: .now() + 0.05) == .timedOut ? quiet + 1 : 0
        }
        return process.status(blocking: true)
    }

    /// Sends a signal (SIGTERM by default).
    public func signal(_ number: Int32 = SIGTERM) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = process.status(blocking: true)
        }
        abandoned.set()
    }

    /// Runs a program to completion: (status, stdout, stderr). A run past `timeout` is killed and reported as -1.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        stdin: Data? = nil, timeout: Double = 120
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, stdin: stdin)
        guard let status = child.wait(timeout: timeout) else {
            child.signal(SIGKILL)
            _ = child.wait(timeout: 5)
            return (-1, child.stdout, child.stderr)
        }
        return (status, child.stdout, child.stderr)
    }
}

/// A flag one thread sets and others read.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
