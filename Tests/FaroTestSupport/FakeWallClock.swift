import Foundation

extension RequiredTool {
    /// libfaketime, for a wall clock that jumps as a suspend or a correction makes it jump.
    public static let faketime = RequiredTool.executable("/usr/bin/faketime", package: "faketime")
}

/// libfaketime for one process: its wall clock is the real one plus the offset written in a file (`+8h`,
/// `-2h`), read again at every call; its monotonic clock is not faked. A `faketime` process is kept running
/// only for its shared memory, whose name faro is given in `FAKETIME_SHARED`: otherwise libfaketime's
/// constructor calls `setenv`, and Swift, which finds `argv` through `environ`, would see no arguments.
public final class FakeWallClock {
    /// A harness step that failed (faketime did not start).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
    public let file: String
    private let holder: ChildProcess
    private let shared: String

    public init(in folder: TemporaryDirectory) throws {
        file = folder.file("faketime-offset")
        try "+0\n".write(toFile: file, atomically: true, encoding: .utf8)
        holder = try ChildProcess(
            "/usr/bin/faketime", ["-f", "+0", "/bin/sh", "-c", #"echo "shared=$FAKETIME_SHARED"; exec sleep 600"#])
        guard let line = holder.waitForLine(timeout: 10, { $0.hasPrefix("shared=/") }) else {
            throw Failure(description: "faketime did not start: \(holder.stderr)")
        }
        shared = String(line.dropFirst("shared=".count)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public var environment: [String: String] {
        [
            "LD_PRELOAD": FakeWallClock.library, "FAKETIME_TIMESTAMP_FILE": file, "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1", "FAKETIME_SHARED": shared,
        ]
    }

    /// Moves the wall clock to the real time plus `offset`.
    public func set(_ offset: String) throws {
        try (offset + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    }

    deinit {
        holder.signal(SIGKILL)
        holder.wait(timeout: 5)
    }
}
