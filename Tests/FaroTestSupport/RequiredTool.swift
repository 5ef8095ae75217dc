import Foundation

/// A program a test needs (Chromium, dbusmock, systemd-id128, Xvfb, `unshare --net`, openssl…). On a developer's
/// machine a test whose tool is missing is skipped, with the reason; under `CI=true` (what `make test` runs in CI,
/// which installs every tool) it runs anyway and fails on `require()`, because there a missing tool means the set-up
/// is broken, and a skip would hide it.
///
/// A test names it in its trait, `.enabled(if: RequiredTool.chromium.shouldRun, Comment(rawValue:
/// RequiredTool.chromium.reason))`, and starts with `try RequiredTool.chromium.require()`.
public struct RequiredTool: Sendable {
    /// What the test needs, in words ("chromium").
    public let name: String
    /// The Debian package that provides it.
    public let package: String
    private let probe: @Sendable () -> Bool

    public init(name: String, package: String, probe: @escaping @Sendable () -> Bool) {
        self.name = name
        self.package = package
        self.probe = probe
    }

    /// An executable at `path`.
    public static func executable(_ path: String, package: String) -> RequiredTool {
        RequiredTool(name: path, package: package) { FileManager.default.isExecutableFile(atPath: path) }
    }

    /// Whether the tests run in CI: `CI=true` (or `1`, `yes`).
    public static var isCI: Bool {
        ["true", "1", "yes"].contains((ProcessInfo.processInfo.environment["CI"] ?? "").lowercased())
    }

    /// Whether the tool is there.
    public var isPresent: Bool { probe() }

    /// Whether a test that needs it runs: when it is there, and always under `CI=true` (where `require()` fails).
    public var shouldRun: Bool { RequiredTool.isCI || isPresent }

    /// The skip reason shown on a developer's machine.
    public var reason: String { "\(name) is missing (apt-get install \(package))" }

    /// Throws when the tool is missing: the test fails, saying what to install.
    public func require() throws {
        guard isPresent else {
            throw Missing(
                description: "\(name) is missing (apt-get install \(package))"
                    + (RequiredTool.isCI ? "; under CI=true a missing tool is a failure, not a skip" : ""))
        }
    }

    /// A tool that is not there.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    // MARK: The tools the suites use

    public static let chromium = RequiredTool.executable("/usr/bin/chromium", package: "chromium")
    public static let xvfb = RequiredTool.executable("/usr/bin/Xvfb", package: "xvfb")
    public static let xdotool = RequiredTool.executable("/usr/bin/xdotool", package: "xdotool")
    public static let openssl = RequiredTool.executable("/usr/bin/openssl", package: "openssl")
    public static let systemdID128 = RequiredTool(name: "systemd-id128 and /etc/machine-id", package: "systemd") {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-id128")
            && FileManager.default.isReadableFile(atPath: "/etc/machine-id")
    }
    public static let dbusmock = RequiredTool(name: "python3-dbusmock", package: "python3-dbusmock") {
        (try? ChildProcess.run("/usr/bin/python3", ["-c", "import dbusmock"], timeout: 20).status) == 0
    }
    /// `unshare --net`: a network namespace of its own (needs util-linux and the right to create one).
    public static let unshareNet = RequiredTool(name: "unshare --net", package: "util-linux") {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
            && (try? ChildProcess.run("/usr/bin/unshare", ["--net", "--", "/bin/true"], timeout: 20).status) == 0
    }
}
