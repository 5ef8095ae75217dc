import FaroTestSupport
import Foundation
import Testing

/// A catalog the size of a chain does not hold the window up (docs/backend-protocols.md, "Large catalogs"): the real
/// window under Xvfb, with its private bus, the notification server mock and a replayed walk, pulls 100,000 new
/// places from faro-backend `--protocol 3` (pages of 100, each answered 50 ms late, so the pull lasts well over a
/// minute however fast the machine). While that pull is demonstrably still running — the backend has not served its
/// last page and the profile holds fewer places than the backend — the beacon list keeps changing (read through
/// AT-SPI) and entering a catalogued place raises its zone notification (read from the mock). No timings are
/// asserted.
@Suite("Large catalog sync beside the window", .serialized)
struct LargeCatalogSyncTests {
    typealias Desktop = BackgroundMonitoringTests.Desktop
    static let newPlaces = 100_000

    /// 100,000 rows for faro-backend's `--load` into table `beacons`, with no `updatedAt`: the backend stamps them
    /// as it loads them, after the demo places the profile already holds.
    static func chainRows(to path: String) throws {
        var text = #"{"beacons":["#
        text.reserveCapacity(newPlaces * 170)
        for i in 0..<newPlaces {
            if i > 0 { text += "," }
            text += #"{"id":"chain-\#(i)","uuid":"\#(BackgroundMonitoringTests.uuid)","major":\#(2000 + i / 1000),"#
            text += #""minor":\#(i % 1000),"cliente":"Cadena","titulo":"Sucursal \#(i)","#
            text += #""url":"https://cadena.example/\#(i)/"}"#
        }
        text += "]}"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A walk past Café La Parroquia (100/1), whose signal swells and fades every few seconds from 0.5 s on, and
    /// Librería El Péndulo (100/2), which comes in range at 6 s.
    static func walk(in folder: TemporaryDirectory, seconds: Double = 120) throws -> String {
        try BackgroundMonitoringTests.recording(in: folder, seconds: seconds, name: "walk.jsonl") { t in
            -67 + Int((10 * sin(t * 2 * Double.pi / 6)).rounded())
        }
    }

    /// How many places the profile's catalog holds (read beside the running window: the database is in WAL mode).
    static func profilePlaces(_ desktop: Desktop) throws -> Int {
        let r = try ChildProcess.run(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3, sys; c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True); "
                    + "print(c.execute('SELECT count(*) FROM catalog_places').fetchone()[0])",
                desktop.home.file("data/faro/faro.sqlite3"),
            ], timeout: 30)
        guard r.status == 0, let count = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BackgroundMonitoringTests.Failure(description: "could not count the profile's places: \(r.stderr)")
        }
        return count
    }

    /// The beacon list's rows as AT-SPI names them ("Café La Parroquia … ≈ 2.1 m …").
    static func listRows(_ desktop: Desktop) throws -> [String] {
        (try desktop.desktop(["texts"]) as? [String] ?? []).filter { $0.contains("≈") }
    }

    @Test func theListAndZoneNotificationsGoOnWhileAHundredThousandPlacesSync() throws {
        let scratch = try TemporaryDirectory("faro-chain")
        let requests = scratch.file("requests.log")
        let desktop = try Desktop(backendArguments: [
            "--protocol", "3", "--latency-ms", "50", "--request-log", requests,
        ])
        try desktop.notificationServer(actions: true)

        // The profile holds the demo catalog already (one pull, as `faro catalog sync` makes it).
        let primed = try ChildProcess.run(
            Paths.executable("faro"), ["catalog", "sync", "--backend", desktop.backend.url],
            environment: desktop.environment, timeout: 120)
        try #require(primed.status == 0, "\(primed.stdout)\(primed.stderr)")
        let demoPlaces = try Self.profilePlaces(desktop)
        try #require(demoPlaces > 0)

        // Then the chain registers its beacons on the backend.
        try Self.chainRows(to: scratch.file("chain.json"))
        let loaded = try ChildProcess.run(
            Paths.executable("faro-backend"),
            [
                "--database", desktop.backend.folder.file("backend.sqlite3"), "--load", scratch.file("chain.json"),
                "--load-only",
            ], timeout: 300)
        try #require(loaded.status == 0, "\(loaded.stderr)")
        let total = demoPlaces + Self.newPlaces
        let pages = Self.newPlaces / 100
        func served() throws -> Int {
            (try String(contentsOfFile: requests, encoding: .utf8)).split(separator: "\n").count
        }
        let before = try served()

        // The window starts on the walk; its first pull brings the 100,000 new places, page by page.
        let app = try desktop.faro(["--source", "replay", try Self.walk(in: scratch), "--no-tray"])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)
        #expect(
            BackgroundMonitoringTests.eventually(60) { try served() > before + 2 }, "the pull did not start")

        // The list shows the café, then its distance changes as its signal swells and fades, and the bookshop joins.
        var first: [String] = []
        #expect(
            BackgroundMonitoringTests.eventually(60) {
                first = try Self.listRows(desktop)
                return !first.isEmpty
            }, "no beacon in the list: \(app.stderr)")
        #expect(
            BackgroundMonitoringTests.eventually(60) {
                let now = try Self.listRows(desktop)
                return !now.isEmpty && now != first
            }, "the list did not change from \(first)")
        #expect(
            BackgroundMonitoringTests.eventually(60) {
                let rows = try Self.listRows(desktop)
                return rows.contains { $0.contains("Café La Parroquia") }
                    && rows.contains { $0.contains("Librería El Péndulo") }
            }, "\((try? Self.listRows(desktop)) ?? [])")

        // Entering the catalogued café raised its zone notification.
        #expect(
            BackgroundMonitoringTests.eventually(60) {
                try desktop.zoneNotifications().contains { ($0[3] as? String ?? "").contains("Café La Parroquia") }
            }, "\((try? desktop.notifyCalls()) ?? [])")

        // All of that while the pull was still running: the last page has not been served, and the profile holds
        // fewer places than the backend.
        let servedNow = try served() - before
        let heldNow = try Self.profilePlaces(desktop)
        #expect(servedNow < pages, "the pull had ended (\(servedNow) pages served)")
        #expect(heldNow < total, "the pull had ended (\(heldNow) places held)")
        // And it is a pull that moves on: the profile has taken pages of the chain in meanwhile.
        #expect(
            BackgroundMonitoringTests.eventually(60) { try Self.profilePlaces(desktop) > demoPlaces },
            "no page of the chain was stored")
        #expect(app.process.isRunning)
    }
}
