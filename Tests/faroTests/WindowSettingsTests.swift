import FaroApp
import FaroCore
import FaroNet
import FaroSettings
import FaroStore
import FaroTestSupport
import Foundation
import Testing

@testable import faro

/// What the window builds from its settings and environment, as `faro` does at start: monitoring's cool-down read
/// from the real GSettings schema, and the outbox deliverer's retry limits from `FARO_OUTBOX_*`.
@Suite(.serialized) struct WindowSettingsTests {
    /// Faro's schema compiled into a private folder, opened on GLib's memory backend.
    func settings() throws -> (GSettingsStore, TemporaryDirectory) {
        let folder = try TemporaryDirectory("faro-window-settings")
        let schemas = folder.file("schemas")
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: Paths.data + "/io.github.faro.Faro.gschema.xml.in", encoding: .utf8)
            .replacingOccurrences(of: "@APP_ID@", with: SettingsKey.schemaID)
            .replacingOccurrences(of: "@APP_PATH@", with: "/io/github/faro/Faro/")
        try text.write(toFile: schemas + "/\(SettingsKey.schemaID).gschema.xml", atomically: true, encoding: .utf8)
        let compiled = try ChildProcess.run("/usr/bin/glib-compile-schemas", ["--strict", schemas])
        try #require(compiled.status == 0, "glib-compile-schemas: \(compiled.stderr)")
        return (try GSettingsStore(schemaDirectory: schemas, backend: .memory), folder)
    }

    /// Whether each entry of a walk is announced: in at 0, out (exit period), back in at `reentry`.
    func announced(_ configuration: RegionMonitorConfiguration, reentry: Double) throws -> [Bool] {
        let uuid = try #require(BeaconUUID("B9407F30-F5F8-466E-AFF9-25556B57FE6D"))
        let beacon = BeaconIdentity(uuid: uuid, major: 7, minor: 42)
        var monitor = RegionMonitor(
            regions: [Region(identifier: "cafe", uuid: uuid, major: 7, minor: 42)], configuration: configuration)
        var entries: [Bool] = []
        for event in monitor.observe(beacon, at: 0) where event.kind == .enter { entries.append(event.announce) }
        let exits = monitor.tick(at: configuration.exitPeriod + 1)
        #expect(exits.map(\.kind) == [.exit])
        for event in monitor.observe(beacon, at: reentry) where event.kind == .enter { entries.append(event.announce) }
        return entries
    }

    /// 0 in Preferences (and `gsettings set … cool-down 0`) is 0 in the window: every entry is announced.
    @Test func aCoolDownOfZeroAnnouncesEveryEntry() throws {
        let (store, folder) = try settings()
        defer { withExtendedLifetime(folder) {} }
        #expect(GUICommand.sessionConfiguration(store).regions.coolDown == 600)
        try store.setSeconds(.coolDown, 0)
        let zero = GUICommand.sessionConfiguration(store).regions
        #expect(zero.coolDown == 0)
        #expect(try announced(zero, reentry: zero.exitPeriod + 2) == [true, true])

        try store.setSeconds(.coolDown, 120)
        let twoMinutes = GUICommand.sessionConfiguration(store).regions
        #expect(twoMinutes.coolDown == 120)
        // Counted from the announced entry at 0: back at 119 s is silent, at 120 s announced.
        #expect(try announced(twoMinutes, reentry: 119) == [true, false])
        #expect(try announced(twoMinutes, reentry: 120) == [true, true])
    }

    /// `FARO_OUTBOX_MAX_ATTEMPTS=1`: the window's deliverer gives a row up after the backend's first "try again",
    /// as `faro outbox flush` does (with the default of 10 the row would still be pending).
    @Test func theWindowsOutboxHonoursTheRetryLimits() throws {
        let backend = try BackendProcess(["--fail-rate", "1", "--fail-status", "503", "--seed", "5"])
        let dir = try TemporaryDirectory("faro-window-outbox")
        let path = dir.file("faro.sqlite3")
        let db = try FaroDatabase(path: path)
        let site = SiteIdentity(cliente: "Cliente", titulo: "Título", url: "http://s/1")
        let row = try db.outbox.submit(
            .rateme(SiteRating(site: site, imei: "imei", calificacion: 4, fechahora: "2026-11-29T14:03:07.123Z")),
            now: Date().timeIntervalSince1970, backend: backend.url)
        let deliverer = WindowOutbox.deliverer(
            databasePath: path, configuration: try BackendConfiguration(baseURL: backend.url),
            environment: ["FARO_OUTBOX_MAX_ATTEMPTS": "1", "FARO_OUTBOX_MAX_AGE_DAYS": "2"])
        deliverer.start()
        let status = deliverer.waitUntilDrained(timeout: 30)
        deliverer.stop()
        #expect(status?.counts?.failed == 1 && status?.counts?.pending == 0)
        let failed = try #require(try db.outbox.row(id: row.id))
        #expect(failed.state == .failed && failed.attempts == 1)
        #expect(failed.lastError?.contains("HTTP 503") == true, "\(failed.lastError ?? "")")
    }
}
