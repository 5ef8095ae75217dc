import Foundation

/// A real `faro-backend` on a free loopback port for one test (the data folder is the source tree's `data/` unless
/// the arguments name another), stopped when the value goes away. Every test that needs the backend starts it here.
public final class BackendProcess: @unchecked Sendable {
    /// The running server: its output lines, signals and exit.
    public let child: ChildProcess
    /// `http://127.0.0.1:PORT`, no trailing slash.
    public let url: String
    public let port: Int

    /// Why the backend did not come up.
    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Starts `faro-backend ARGUMENTS` (`--port 0` and `--data` added unless given) and waits for its
    /// `listening on` line; `environment` entries are added to the test's own.
    public init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
        let port = arguments.contains("--port") ? [] : ["--port", "0"]
        let data = arguments.contains("--data") ? [] : ["--data", Paths.data]
        child = try ChildProcess(
            Paths.executable("faro-backend"), port + data + arguments, environment: environment)
        guard let line = child.waitForLine(timeout: 20, { $0.hasPrefix("listening on http://127.0.0.1:") }),
            let last = line.split(separator: ":").last, let port = Int(last.trimmingCharacters(in: .whitespaces))
        else {
            throw StartFailure(description: "faro-backend did not start: \(child.stderr)")
        }
        self.port = port
        url = "http://127.0.0.1:\(port)"
    }

    /// Kills the server. SIGKILL, because a child of the test runner may inherit an ignored SIGTERM.
    public func stop() {
        child.signal(SIGKILL)
        _ = child.wait(timeout: 10)
    }

    deinit { stop() }
}
