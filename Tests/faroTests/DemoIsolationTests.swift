import FaroTestSupport
import Foundation
import Testing

/// `faro --demo` (what `make run` starts) on a machine where Faro is already in use: it runs on a private profile
/// and leaves the user's own data exactly as it was ("make run" must not lose real data).
@Suite("faro --demo isolation", .serialized)
struct DemoIsolationTests {
    static let tools = ["/usr/bin/Xvfb", "/usr/bin/dbus-run-session", "/usr/bin/sqlite3"]
    /// Under CI a missing tool is a failure, not a skip.
    static let runnable =
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        || ProcessInfo.processInfo.environment["CI"] == "true"

    let faro = Paths.executable("faro")

    /// Every file under `folder` with its bytes.
    func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    @Test(.enabled(if: runnable, "needs Xvfb, dbus-run-session and sqlite3"))
    func aRowQueuedInAProfileSurvivesADemoRunUntouched() throws {
        let home = try TemporaryDirectory("faro-demo-isolation")
        var env = home.xdgEnvironment
        env["TMPDIR"] = home.file("tmp")
        try FileManager.default.createDirectory(atPath: home.file("tmp"), withIntermediateDirectories: true)
        // The user's own profile: a registration queued offline, a backend setting the demo must not use.
        env["FARO_BACKEND"] = "https://faro.example"
        let queued = try ChildProcess.run(
            faro, ["register", "--nombre", "Ana", "--email", "ana@ejemplo.mx", "--telefono", "5512345678"],
            environment: env, timeout: 60)
        #expect(queued.status == 0, "\(queued.stderr)")
        let id = queued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.createDirectory(atPath: home.file("config/gtk-3.0"), withIntermediateDirectories: true)
        try "[Settings]\ngtk-enable-animations=false\n".write(
            toFile: home.file("config/gtk-3.0/settings.ini"), atomically: true, encoding: .utf8)
        let userData = home.file("data")
        let before = try snapshot(userData)
        #expect(before.keys.contains("faro/faro.sqlite3"))

        let demo = try ChildProcess(
            Paths.packageRoot + "/Tests/UI/with-display.sh", [faro, "--demo", "--no-tray"], environment: env)
        defer { demo.signal(SIGKILL) }
        let pidLine = try #require(demo.waitForLine(timeout: 60) { $0.hasPrefix("PID ") })
        let pid = try #require(Int32(pidLine.dropFirst(4)))
        let ready = try #require(
            demo.waitForLine(timeout: 60) { $0.hasPrefix("faro: demo on a private profile in ") }, "\(demo.stderr)")
        let profile = String(ready.dropFirst("faro: demo on a private profile in ".count).prefix { $0 != " " })
        #expect(profile.hasPrefix(home.file("tmp") + "/faro-demo-"))
        let folders = try FileManager.default.contentsOfDirectory(atPath: home.file("tmp"))
        #expect(folders.contains { $0.hasPrefix("faro-demo-backend-") })  // the demo backend's folder: mkdtemp too

        // The demo works on its own profile: its catalog comes from its own backend into its own database. Waiting
        // for that means its outbox delivery (started before the window) has had its turn too.
        // The user's GTK look reaches the demo window: its settings are copied into the private profile.
        #expect(
            try String(contentsOfFile: profile + "/config/gtk-3.0/settings.ini", encoding: .utf8)
                == "[Settings]\ngtk-enable-animations=false\n")
        let privateDB = profile + "/data/faro/faro.sqlite3"
        var catalogued = 0
        for _ in 0..<600 where catalogued == 0 {
            let r = try ChildProcess.run(
                "/usr/bin/sqlite3", ["-readonly", privateDB, "SELECT count(*) FROM catalog_places"], timeout: 10)
            catalogued = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            if catalogued == 0 { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(catalogued > 0, "the demo never named a place: \(demo.stderr)")
        // Nothing of the user's profile is open in the demo.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")
        }
        #expect(open.contains(privateDB))
        #expect(!open.contains { $0.hasPrefix(userData) }, "\(open)")

        kill(pid, SIGTERM)
        #expect(demo.wait(timeout: 60) == 0)
        // The private profile and the demo backend's folder are gone; the user's files are byte for byte the same.
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.file("tmp")).isEmpty)
        #expect(try snapshot(userData) == before)
        let listed = try ChildProcess.run(faro, ["outbox", "--json"], environment: env, timeout: 60)
        #expect(listed.stdout.contains(#""id": "\#(id)", "table": "interested", "state": "pending""#))
    }
}
