import FaroTestSupport
import Foundation
import Testing

/// Faro started as a user starts it: the bare name found through `PATH`, from the home folder, with no `FARO_*`
/// variable. It finds its data and faro-backend from the running binary (`/proc/self/exe`): `argv[0]` is then
/// just `faro`, which names no folder.
@Suite("faro started through PATH", .serialized)
struct StartedThroughPATHTests {
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/dbus-run-session", "/usr/bin/curl"]
    /// Under CI a missing tool is a failure, not a skip.
    static let runnable =
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        || ProcessInfo.processInfo.environment["CI"] == "true"

    /// A fresh home with `bin/faro` linked to the built binary and `bin/faro-backend` to `target` (the built
    /// `faro-backend`, or `faro` itself as the package installs it).
    func home(backend target: String) throws -> TemporaryDirectory {
        let home = try TemporaryDirectory("faro-path")
        let fm = FileManager.default
        try fm.createDirectory(atPath: home.file("bin"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: home.file("home"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: home.file("bin/faro"), withDestinationPath: Paths.executable("faro"))
        try fm.createSymbolicLink(atPath: home.file("bin/faro-backend"), withDestinationPath: target)
        return home
    }

    /// `/bin/sh -c script` in the home folder with a clean environment: `PATH` is `bin/` then the system's.
    func shell(_ script: String, home: TemporaryDirectory, through wrapper: [String] = []) -> (String, [String]) {
        var arguments = ["-u", "FARO_DATA_DIR", "-u", "FARO_LOCALE_DIR", "-u", "FARO_BIN_DIR"]
        for (key, value) in home.xdgEnvironment { arguments.append("\(key)=\(value)") }
        arguments +=
            ["PATH=\(home.file("bin")):/usr/bin:/bin"] + wrapper + ["/bin/sh", "-c", "cd \"$HOME\" && " + script]
        return ("/usr/bin/env", arguments)
    }

    @Test func scanReplaysTheDemoFromTheHomeFolder() throws {
        let home = try home(backend: Paths.executable("faro-backend"))
        let (program, arguments) = shell("exec faro scan --source demo --duration 2 --speed 20", home: home)
        let run = try ChildProcess.run(program, arguments, timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("data folder"), "\(run.stderr)")
        #expect(run.stdout.contains("Demo: replaying simulated beacons from " + Paths.data + "/demo/"), "\(run.stdout)")
        let rows = run.stdout.split(separator: "\n").filter { $0.contains(" dBm ") && $0.contains(" m ") }
        #expect(!rows.isEmpty, "no beacon rows: \(run.stdout)")
    }

    /// The package's layout: faro-backend is a link to faro, which runs the backend under that name and serves the
    /// demo catalog from the data folder it finds beside itself.
    @Test(.enabled(if: runnable, "needs curl"))
    func faroStartedAsFaroBackendServesTheDemo() throws {
        let home = try home(backend: Paths.executable("faro"))
        let version = try ChildProcess.run(Paths.executable("faro-backend"), ["--version"])
        let (program, arguments) = shell("exec faro-backend --version", home: home)
        let linked = try ChildProcess.run(program, arguments, timeout: 30)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout == version.stdout && linked.stdout.hasPrefix("faro-backend "), "\(linked.stdout)")

        let (serve, serveArguments) = shell("exec faro-backend --port 0 --database :memory:", home: home)
        let server = try ChildProcess(serve, serveArguments)
        defer { server.signal(SIGKILL) }
        let line = try #require(
            server.waitForLine(timeout: 30) { $0.hasPrefix("listening on http://127.0.0.1:") }, "\(server.stderr)")
        let url = String(line.dropFirst("listening on ".count)).trimmingCharacters(in: .whitespaces)
        #expect(!server.stderr.contains("no data folder"), "\(server.stderr)")
        let catalog = try ChildProcess.run(
            "/usr/bin/curl", ["-sf", "-H", "ZUMO-API-VERSION: 2.0.0", url + "/tables/beacons"], timeout: 30)
        #expect(catalog.status == 0, "\(catalog.stderr)")
        #expect(catalog.stdout.contains("/sitios/"), "the demo catalog is not served: \(catalog.stdout)")
    }

    /// `faro --demo` started by its bare name finds faro-backend beside the running binary and opens its profile.
    @Test(.enabled(if: runnable, "needs Xvfb and dbus-run-session"))
    func demoFindsFaroBackendBesideItself() throws {
        let home = try home(backend: Paths.executable("faro-backend"))
        let (program, arguments) = shell(
            "exec faro --demo --no-tray", home: home, through: [Paths.packageRoot + "/Tests/UI/with-display.sh"])
        let demo = try ChildProcess(program, arguments)
        defer { demo.signal(SIGKILL) }
        let ready = demo.waitForLine(timeout: 90) { $0.hasPrefix("faro: demo on a private profile in ") }
        #expect(ready != nil, "\(demo.stdout)\n\(demo.stderr)")
        #expect(!demo.stderr.contains("faro-backend is not next to faro"), "\(demo.stderr)")
    }
}
