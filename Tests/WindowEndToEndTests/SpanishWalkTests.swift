import FaroTestSupport
import Foundation
import Testing

/// The Spanish window has no English left: Tests/UI/spanish_walk.py opens every menu, dialog and page of the real
/// window (under Xvfb, through AT-SPI), calibration's result included, and fails on any label, button, menu item,
/// window title, tooltip or status text that is an English msgid of po/es.po, holds common English words, or is
/// made of anything but Spanish messages of po/es.po, numbers and the demo catalog's data.
@Suite("Spanish window walk", .serialized)
struct SpanishWalkTests {
    @Test func noEnglishStringIsShownInTheSpanishWindow() throws {
        let backend = try WindowTests.Backend()
        let data = try TemporaryDirectory("faro-walk")
        var env = try data.windowEnvironment(language: "es")
        env["FARO"] = Paths.executable("faro")
        env["FARO_ARGS"] = [
            "--source", "replay", Paths.data + "/demo/walk.jsonl", "--backend", backend.url, "--no-tray",
        ]
        .joined(separator: " ")
        env["FARO_PO"] = Paths.packageRoot + "/po/es.po"
        env["FARO_DATA"] = Paths.data
        env["FARO_LANG"] = "es"
        let walk = try ChildProcess(
            Paths.packageRoot + "/Tests/UI/with-display.sh",
            ["/usr/bin/python3", Paths.packageRoot + "/Tests/UI/spanish_walk.py"], environment: env)
        let status = walk.wait(timeout: 280) ?? -1
        let output = walk.stdout + walk.stderr
        #expect(status == 0, "\(output)")
        #expect(output.contains("OK spanish-walk"), "\(output)")
        // Every part of the window was walked.
        for view in [
            "beacons", "calibration-dialog", "calibration-result", "main-menu", "preferences", "contact-dialog",
            "contact-dialog-errors", "register-dialog", "about-dialog",
            "saved-empty", "site", "share-menu", "qr-dialog", "rating-dialog", "send-details-dialog", "site-saved",
            "export-chooser", "saved-list", "saved-copy", "visits", "beacon-page",
        ] {
            #expect(output.contains("VIEW \(view) "), "the walk did not reach \(view)")
        }
    }

    /// The outbox panel in Spanish: a row a faro-backend refused with 400 (its own message shown as it is) and a row
    /// the window's deliverer cannot deliver (that backend stopped) say where they stand and why in Spanish; the
    /// main window's X title is "Faro" (Tests/UI/outbox_walk.py).
    @Test func theOutboxPanelsReasonsAreSpanish() throws {
        let data = try TemporaryDirectory("faro-walk")
        var env = try data.windowEnvironment(language: "es")
        let faro = Paths.executable("faro")
        let message = "Internal error (injected fault)"  // what faro-backend answers for an injected fault
        let backend = try WindowTests.Backend(["--fail-rate", "1", "--fail-status", "400"])
        let url = backend.url
        func register(_ name: String) throws {
            let r = try ChildProcess.run(
                faro,
                [
                    "register", "--nombre", name, "--email", "ana@ejemplo.mx", "--telefono", "5512345678",
                    "--backend", url,
                ], environment: env, timeout: 30)
            try #require(r.status == 0, "\(r.stderr)")
        }
        try register("Ana López")
        let flush = try ChildProcess.run(faro, ["outbox", "flush", "--backend", url], environment: env, timeout: 60)
        #expect(flush.stdout.contains("failed: 1"), "\(flush.stdout)\(flush.stderr)")
        backend.backend.stop()
        try register("Bea Ruiz")
        env["FARO"] = faro
        env["FARO_ARGS"] = [
            "--source", "replay", Paths.data + "/demo/walk.jsonl", "--backend", url, "--no-tray",
        ]
        .joined(separator: " ")
        env["FARO_PO"] = Paths.packageRoot + "/po/es.po"
        env["FARO_DATA"] = Paths.data
        env["FARO_LANG"] = "es"
        env["OUTBOX_SERVER_MESSAGE"] = message
        env["OUTBOX_TYPED"] = "Ana López|Bea Ruiz"
        let walk = try ChildProcess(
            Paths.packageRoot + "/Tests/UI/with-display.sh",
            ["/usr/bin/python3", Paths.packageRoot + "/Tests/UI/outbox_walk.py"], environment: env)
        let status = walk.wait(timeout: 200) ?? -1
        let output = walk.stdout + walk.stderr
        #expect(status == 0, "\(output)")
        #expect(output.contains("OK outbox-walk") && output.contains("VIEW outbox-panel "), "\(output)")
    }
}
