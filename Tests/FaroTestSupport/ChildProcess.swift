import Foundation

/// A program the tests start for real (the `faro` binary, `faro-backend`, dbus-daemon, a dbusmock peer), with its
/// output captured and its life bounded: every wait has a timeout and `deinit` kills what is still running.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let lock = NSLock()
    private var stdoutBuffer = Data()
    private var stderrBuffer = Data()
    private let lineArrived = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments`; `environment` entries are added to (or override) the test's own.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
                stdin: Data? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            input.fileHandleForWriting.writeabilityHandler = { handle in
                handle.write(stdin)
                try? handle.close()
                handle.writeabilityHandler = nil
            }
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        stdoutPipe.fileHandleForReading.readabilityHandler = { [weak self] h in self?.take(h.availableData, err: false) }
        stderrPipe.fileHandleForReading.readabilityHandler = { [weak self] h in self?.take(h.availableData, err: true) }
        // The test runner's threads block most signals, and a child inherits the mask of the thread that starts
        // it: without this, SIGTERM would never reach the programs the tests start (nor what they start).
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    private func take(_ data: Data, err: Bool) {
        lock.lock()
        if err { stderrBuffer.append(data) } else { stdoutBuffer.append(data) }
        lock.unlock()
        lineArrived.signal()
    }

    /// Everything the process wrote to stdout so far.
    public var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: stdoutBuffer, as: UTF8.self) }
    /// Everything the process wrote to stderr so far.
    public var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: stderrBuffer, as: UTF8.self) }

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
        return process.terminationStatus
    }

    /// Sends a signal (SIGTERM by default).
    public func signal(_ number: Int32 = SIGTERM) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Runs a program to completion: (status, stdout, stderr). A run past `timeout` is killed and reported as -1.
    public static func run(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
                           stdin: Data? = nil, timeout: Double = 120) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, stdin: stdin)
        guard let status = child.wait(timeout: timeout) else {
            child.signal(SIGKILL)
            _ = child.wait(timeout: 5)
            return (-1, child.stdout, child.stderr)
        }
        return (status, child.stdout, child.stderr)
    }
}
