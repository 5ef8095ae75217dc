import FaroTestSupport
import Foundation
import Testing

/// `make run` (scripts/run.sh) in a copy of the tree where `swift`, the two build scripts and `faro` are stand-ins
/// that say they ran: a failed build stops the script with the build's status and starts nothing, and a build whose
/// only output is the filtered linker note still starts the demo.
@Suite("make run")
struct RunScriptTests {
    /// Runs the copied run.sh with a `swift` that prints `output` and exits with `status`.
    func run(swiftStatus status: Int, output: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let tree = try TemporaryDirectory("faro-run-sh")
        let fm = FileManager.default
        for folder in ["scripts", ".build/debug", "bin"] {
            try fm.createDirectory(atPath: tree.file(folder), withIntermediateDirectories: true)
        }
        try fm.copyItem(atPath: Paths.packageRoot + "/scripts/run.sh", toPath: tree.file("scripts/run.sh"))
        func script(_ path: String, _ body: String) throws {
            try ("#!/bin/sh\n" + body + "\n").write(toFile: tree.file(path), atomically: true, encoding: .utf8)
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree.file(path))
        }
        try script("bin/swift", "echo '\(output)'\nexit \(status)")
        try script("scripts/build-translations.sh", "echo translations-built")
        try script("scripts/build-schemas.sh", "echo schemas-built")
        try script(".build/debug/faro", "echo \"faro-started $*\"")
        let path = tree.file("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try ChildProcess.run(
            "/bin/bash", [tree.file("scripts/run.sh")],
            environment: ["PATH": path, "DISPLAY": "", "WAYLAND_DISPLAY": ""],
            timeout: 30)
    }

    @Test func aFailedBuildStopsWithItsStatusAndStartsNothing() throws {
        let r = try run(swiftStatus: 3, output: "error: cannot find x in scope")
        #expect(r.status == 3, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("error: cannot find x in scope"))
        #expect(!r.stdout.contains("faro-started") && !r.stdout.contains("translations-built"))
        #expect(r.stderr.contains("the build failed"))
    }

    @Test func aBuildThatSucceedsStartsTheTerminalDemoWithoutADisplay() throws {
        let r = try run(swiftStatus: 0, output: "warning: prohibited flag(s): -pthread")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("faro-started scan --source demo"))
        #expect(!r.stdout.contains("prohibited flag"))
    }
}
