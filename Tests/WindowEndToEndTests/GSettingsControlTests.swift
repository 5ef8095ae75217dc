import FaroTestSupport
import Foundation
import Testing

/// "gsettings controls a running Faro": `gsettings set io.github.faro.Faro monitoring false` turns
/// monitoring off in the open window (its exported `monitoring` action, which the menu and the tray show).
/// The window's monitoring service observes the settings store, so a change from another process reaches it.
@Suite("gsettings controls the window", .serialized)
struct GSettingsControlTests {
    @Test
    func gsettingsTurnsMonitoringOffAndOnInTheRunningApp() throws {
        let backend = try WindowTests.Backend()
        let data = try TemporaryDirectory("faro-gsettings")
        var env = data.xdgEnvironment
        env["FARO_DATA_DIR"] = Paths.data
        try FileManager.default.createDirectory(atPath: data.file("home"), withIntermediateDirectories: true)
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/gsettings-control.sh",
            [
                Paths.executable("faro"), Paths.packageRoot + "/build/glib-2.0/schemas", "--source", "replay",
                Paths.data + "/demo/walk.jsonl", "--backend", backend.url, "--no-tray",
            ], environment: env, timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        #expect(r.stdout.contains("OK gsettings-turns-monitoring-off"), "\(r.stdout)")
        #expect(r.stdout.contains("OK gsettings-turns-monitoring-on"), "\(r.stdout)")
        #expect(r.stdout.contains("OK gsettings-turns-start-at-login-on"), "\(r.stdout)")
        #expect(r.stdout.contains("OK gsettings-turns-start-at-login-off"), "\(r.stdout)")
    }
}
