import FaroTestSupport
import Foundation
import Testing

/// Quieting places (docs/notifications.md), in Spanish, on the real `faro` under Xvfb with python-dbusmock's
/// notification server (with actions) and a real faro-backend naming the places: a notification's "Silenciar este
/// lugar", the `notify-places` setting (`none`, and `saved` with a page in Guardados), the site page's toggle and Preferences' "Lugares silenciados", observed
/// through the mock's recorded Notify calls, AT-SPI (Tests/UI/faro_desktop.py) and `faro muted` / `faro visits`.
@Suite("Quiet places", .serialized)
struct MutePlacesTests {
    typealias Desktop = BackgroundMonitoringTests.Desktop
    static let uuid = BackgroundMonitoringTests.uuid
    static let cafe = "Café La Parroquia"
    static let libreria = "Librería El Péndulo"

    static func eventually(_ timeout: Double = 15, _ condition: () throws -> Bool) -> Bool {
        BackgroundMonitoringTests.eventually(timeout, condition)
    }

    /// A recording of the café (100/1) and the librería (100/2), each advertising four times a second during its
    /// spans of seconds.
    static func recording(
        in desktop: Desktop, cafe: [ClosedRange<Double>], libreria: [ClosedRange<Double>]
    ) throws -> String {
        let hex = uuid.replacingOccurrences(of: "-", with: "")
        var lines: [(Double, String)] = []
        for (spans, minor, suffix, address) in [(cafe, "0001", "c5", "01"), (libreria, "0002", "c3", "02")] {
            for span in spans {
                var t = span.lowerBound
                while t <= span.upperBound {
                    lines.append(
                        (
                            t,
                            #"{"t": \#(t), "address": "C0:FF:EE:00:00:\#(address)", "rssi": -60, "kind": "ad", "data": "0201061aff4c000215\#(hex)0064\#(minor)\#(suffix)"}"#
                        ))
                    t += 0.25
                }
            }
        }
        let path = desktop.home.file("places.jsonl")
        let text = lines.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Settings before Faro starts, in the keyfile its settings backend reads (`key=GVariant text`).
    static func settings(_ desktop: Desktop, _ values: [String: String]) throws {
        let folder = desktop.home.file("config/glib-2.0/settings")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let lines = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try (["[io/github/faro/Faro]"] + lines).joined(separator: "\n").appending("\n")
            .write(toFile: folder + "/keyfile", atomically: true, encoding: .utf8)
    }

    /// `gsettings` on the desktop's keyfile, with the source tree's schema.
    @discardableResult
    static func gsettings(_ desktop: Desktop, _ arguments: [String]) throws -> String {
        var environment = desktop.environment
        environment["GSETTINGS_SCHEMA_DIR"] = Paths.packageRoot + "/build/glib-2.0/schemas"
        let r = try ChildProcess.run("/usr/bin/gsettings", arguments, environment: environment, timeout: 10)
        guard r.status == 0 else {
            throw BackgroundMonitoringTests.Failure(description: "gsettings \(arguments): \(r.stderr)")
        }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `faro ARGUMENTS --json` on the desktop's profile: one decoded object per line.
    static func faroJSON(_ desktop: Desktop, _ arguments: [String]) throws -> [[String: Any]] {
        let r = try ChildProcess.run(
            Paths.executable("faro"), arguments + ["--json"], environment: desktop.environment, timeout: 20)
        guard r.status == 0 else {
            throw BackgroundMonitoringTests.Failure(description: "faro \(arguments): \(r.stderr)")
        }
        return try r.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The zone notifications (Spanish titles), in the order they were sent.
    static func zoneNotifications(_ desktop: Desktop) throws -> [[Any]] {
        try desktop.notifyCalls().filter { ($0[3] as? String ?? "").hasPrefix("Estás cerca de") }
    }

    /// Whether a zone notification names `business` (in its title or its body).
    static func names(_ call: [Any], _ business: String) -> Bool {
        (call[3] as? String ?? "").contains(business) || (call[4] as? String ?? "").contains(business)
    }

    static func texts(_ desktop: Desktop) throws -> [String] {
        try desktop.desktop(["texts"]) as? [String] ?? []
    }

    @Test func mutingFromANotificationSilencesThatPlaceOverAReEntryWhileAnotherStillNotifies() throws {
        let desktop = try Desktop()
        desktop.language = "es"
        // Short periods: a place left 3 s after its last advertisement is entered again, announced after 1 s.
        try Self.settings(desktop, ["exit-period": "3", "cool-down": "1"])
        try desktop.notificationServer(actions: true)
        let recording = try Self.recording(
            in: desktop, cafe: [0.5...20, 32...55], libreria: [12...20, 32...55])
        let app = try desktop.faro(["--source", "replay", recording, "--no-tray"])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)

        // The café's notification offers, beside its default action and "Ver sitio", "Silenciar este lugar".
        #expect(Self.eventually(20) { try Self.zoneNotifications(desktop).count >= 1 }, "\(app.stderr)")
        let first = try #require(try Self.zoneNotifications(desktop).first)
        #expect(first[3] as? String == "Estás cerca de \(Self.cafe)")
        #expect(
            first[5] as? [String] == [
                "default", "Abrir", "view-site", "Ver sitio", "mute-place", "Silenciar este lugar",
            ])
        try desktop.invoke(1, "mute-place")
        #expect(
            Self.eventually {
                try Self.faroJSON(desktop, ["muted"]).map { $0["business"] as? String } == [Self.cafe]
            }, "the café was not muted: \(app.stderr)")

        // The librería still notifies, in a new notification that does not name the café; then both are left and
        // entered again after the cool-down: the librería is announced again, the café never.
        #expect(
            Self.eventually(60) {
                try Self.zoneNotifications(desktop).filter { Self.names($0, Self.libreria) }.count >= 2
            }, "\(app.stderr)")
        let calls = try Self.zoneNotifications(desktop)
        let afterMute = calls.dropFirst()
        #expect(afterMute.count == 2)
        #expect(afterMute.allSatisfy { !Self.names($0, Self.cafe) }, "\(afterMute)")
        #expect(afterMute.first?[1] as? Int == 0)  // a new notification after the muted one
        #expect(afterMute.first?[3] as? String == "Estás cerca de \(Self.libreria)")
        // The muted café is still listed, and both of its entries are in the visits.
        #expect(Self.eventually { try Self.texts(desktop).contains { $0.contains(Self.cafe) } })
        let visits = try Self.faroJSON(desktop, ["visits"])
        #expect(visits.filter { $0["business"] as? String == Self.cafe }.count == 2, "\(visits)")
        #expect(visits.filter { $0["business"] as? String == Self.libreria }.count == 2, "\(visits)")
        Thread.sleep(forTimeInterval: 2)
        #expect(try Self.zoneNotifications(desktop).filter { Self.names($0, Self.cafe) }.count == 1)
    }

    @Test func notifyPlacesNoneSilencesEveryNotificationWhileTheListGoesOnAndPreferencesFollowIt() throws {
        let desktop = try Desktop()
        desktop.language = "es"
        try Self.settings(desktop, ["exit-period": "3", "cool-down": "1", "notify-places": "'none'"])
        try desktop.notificationServer(actions: true)
        let recording = try Self.recording(
            in: desktop, cafe: [0.5...14, 30...55], libreria: [3...14, 30...55])
        let app = try desktop.faro(["--source", "replay", recording, "--no-tray"])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)

        // Preferences shows the choice and follows it while open.
        try desktop.activate("preferences")
        #expect(Self.eventually { try desktop.desktop(["checked", "Ninguno"]) as? Bool == true })
        #expect(try desktop.desktop(["checked", "Todos"]) as? Bool == false)

        // Both places are listed and visited, and nothing is notified.
        #expect(
            Self.eventually(20) {
                let shown = try Self.texts(desktop)
                return shown.contains { $0.contains(Self.cafe) } && shown.contains { $0.contains(Self.libreria) }
            })
        #expect(
            Self.eventually {
                try Self.faroJSON(desktop, ["visits"]).compactMap { $0["business"] as? String }.count == 2
            })
        #expect(try Self.zoneNotifications(desktop).isEmpty)

        // Changed from outside, the setting shows at once in Preferences, and the re-entries are notified again.
        try Self.gsettings(desktop, ["set", "io.github.faro.Faro", "notify-places", "all"])
        #expect(Self.eventually { try desktop.desktop(["checked", "Todos"]) as? Bool == true })
        #expect(try desktop.desktop(["checked", "Ninguno"]) as? Bool == false)
        #expect(
            Self.eventually(40) { try Self.zoneNotifications(desktop).contains { Self.names($0, Self.cafe) } },
            "\(app.stderr)")
        #expect(try Self.zoneNotifications(desktop).contains { Self.names($0, Self.libreria) })

        // Chosen in Preferences, the setting is stored.
        _ = try desktop.desktop(["press", "Solo mis lugares guardados", "radio button"])
        #expect(
            Self.eventually {
                try Self.gsettings(desktop, ["get", "io.github.faro.Faro", "notify-places"]) == "'saved'"
            })
    }

    @Test func notifyPlacesSavedNotifiesOnlyAPlaceWithAPageInGuardados() throws {
        let desktop = try Desktop()
        desktop.language = "es"
        try Self.settings(desktop, ["exit-period": "3", "cool-down": "1", "notify-places": "'saved'"])
        // The café's page is in Guardados (saved by `faro save` into the same profile), the librería's is not.
        let saved = try ChildProcess.run(
            Paths.executable("faro"),
            ["save", desktop.backend.url + "/sitios/cafe-la-parroquia/", "--business", Self.cafe],
            environment: desktop.environment, timeout: 60)
        try #require(saved.status == 0, "\(saved.stderr)")
        try desktop.notificationServer(actions: true)
        // The librería is entered while the café's notification is still on screen: a notification for it would
        // update that one.
        let recording = try Self.recording(in: desktop, cafe: [0.5...14], libreria: [3...14])
        let app = try desktop.faro(["--source", "replay", recording, "--no-tray"])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)

        // Both places are entered (visited); only the saved café is notified, once.
        #expect(
            Self.eventually(30) {
                Set(try Self.faroJSON(desktop, ["visits"]).compactMap { $0["business"] as? String })
                    == [Self.cafe, Self.libreria]
            }, "\(app.stderr)")
        #expect(Self.eventually(20) { try Self.zoneNotifications(desktop).count >= 1 }, "\(app.stderr)")
        Thread.sleep(forTimeInterval: 2)
        let calls = try Self.zoneNotifications(desktop)
        #expect(calls.count == 1, "\(calls)")
        #expect(calls.first?[3] as? String == "Estás cerca de \(Self.cafe)")
        #expect(calls.allSatisfy { !Self.names($0, Self.libreria) }, "\(calls)")
    }

    @Test func theSitePageMutesAndPreferencesUnmutesFollowingEachOther() throws {
        let desktop = try Desktop()
        desktop.language = "es"
        try desktop.notificationServer(actions: true)
        let recording = try Self.recording(in: desktop, cafe: [0.5...120], libreria: [])
        let app = try desktop.faro(["--source", "replay", recording, "--no-tray"])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)

        // "Ver sitio" opens the café's page, which offers to mute it.
        #expect(Self.eventually(20) { try Self.zoneNotifications(desktop).count >= 1 }, "\(app.stderr)")
        try desktop.invoke(1, "view-site")
        #expect(Self.eventually { try desktop.window().site })
        _ = try desktop.desktop(["press", "Silenciar avisos de este lugar", "toggle button"])
        #expect(Self.eventually { try Self.texts(desktop).contains("Volver a avisarme") })
        #expect(try Self.texts(desktop).contains("Ya no se avisa al entrar en este lugar."))
        #expect(try desktop.desktop(["checked", "Volver a avisarme", "toggle button"]) as? Bool == true)
        let muted = try Self.faroJSON(desktop, ["muted"])
        #expect(muted.map { $0["business"] as? String } == [Self.cafe], "\(muted)")

        // Preferences lists it; "Volver a avisarme" there un-mutes it, the list shows its empty state and the
        // site page offers to mute it again.
        try desktop.activate("preferences")
        #expect(Self.eventually { try Self.texts(desktop).contains("Lugares silenciados") })
        #expect(try Self.texts(desktop).contains { $0.hasPrefix(Self.cafe + " — ") })
        _ = try desktop.desktop(["press", "Volver a avisarme de \(Self.cafe)"])
        #expect(Self.eventually { try Self.faroJSON(desktop, ["muted"]).isEmpty })
        #expect(Self.eventually { try Self.texts(desktop).contains { $0.hasPrefix("Ningún lugar silenciado.") } })
        #expect(Self.eventually { try Self.texts(desktop).contains("Silenciar avisos de este lugar") })
        #expect(try desktop.desktop(["checked", "Silenciar avisos de este lugar", "toggle button"]) as? Bool == false)
        #expect(try !Self.texts(desktop).contains("Volver a avisarme"))

        // Muted again from the site page, it shows in the open Preferences at once.
        _ = try desktop.desktop(["press", "Silenciar avisos de este lugar", "toggle button"])
        #expect(Self.eventually { try Self.texts(desktop).contains("Volver a avisarme de \(Self.cafe)") })
        #expect(try !Self.texts(desktop).contains { $0.hasPrefix("Ningún lugar silenciado.") })
    }
}
