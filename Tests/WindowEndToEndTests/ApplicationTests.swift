import FaroTestSupport
import Foundation
import Testing

/// The GtkApplication's life: one instance per session, and a clean exit on SIGTERM.
@Suite("Faro application")
struct ApplicationTests {
    @Test func secondLaunchHandsOverAndSIGTERMExitsCleanly() throws {
        let data = try TemporaryDirectory("faro-app")
        try FileManager.default.createDirectory(atPath: data.file("home"), withIntermediateDirectories: true)
        var env = data.xdgEnvironment
        env["FARO_DATA_DIR"] = Paths.data
        let r = try ChildProcess.run(
            Paths.packageRoot + "/Tests/UI/app-lifecycle.sh",
            [
                Paths.executable("faro"), "--source", "replay", Paths.data + "/demo/walk.jsonl",
                "--no-tray",
            ], environment: env, timeout: 150)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        for step in ["first-instance-owns-the-name", "second-launch-exits", "first-still-running", "sigterm-exit"] {
            #expect(r.stdout.contains("OK \(step)"), "\(step): \(r.stdout)")
        }
    }
}
