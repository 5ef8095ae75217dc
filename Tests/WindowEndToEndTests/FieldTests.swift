import FaroTestSupport
import Foundation
import Testing

/// The window in the field, on the real `faro` under Xvfb with a private bus, a python-dbusmock
/// notification server and a real faro-backend with its fault flags: a start with the backend refusing
/// connections, a row the backend refuses forever and one queued for another backend in the outbox panel, a
/// backend that refuses the app key until it is set, a key kept in a locked keyring, and a python-dbusmock
/// NetworkManager that does not answer or loses the network. Observed through AT-SPI (Tests/UI/faro_desktop.py),
/// the mocks' recorded calls, `faro outbox --json` on the same profile and the backend's own tables and counts.
@Suite("The window in the field", .serialized)
struct FieldTests {
    typealias Desktop = BackgroundMonitoringTests.Desktop
    static let eventually = BackgroundMonitoringTests.eventually

    /// What the window and its dialogs show now (every showing accessible name).
    static func texts(_ desktop: Desktop) throws -> [String] {
        try desktop.desktop(["texts"]) as? [String] ?? []
    }

    /// `faro ARGS` on the desktop's profile, with its output.
    static func faro(_ desktop: Desktop, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let r = try ChildProcess.run(
            Paths.executable("faro"), arguments, environment: desktop.environment, timeout: 60)
        return (r.status, r.stdout + r.stderr)
    }

    /// The profile's outbox as `faro outbox --json` reports it.
    static func outbox(_ desktop: Desktop) throws -> [String: Any] {
        let r = try faro(desktop, ["outbox", "--json"])
        return (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    /// Queues a registration from the terminal on the desktop's profile; returns the row's id.
    @discardableResult
    static func registered(_ desktop: Desktop, _ nombre: String, backend: String? = nil) throws -> String {
        let r = try faro(
            desktop,
            [
                "register", "--nombre", nombre, "--email", "hola@ejemplo.mx", "--telefono", "5512345678",
                "--backend", backend ?? desktop.backend.url,
            ])
        #expect(r.status == 0, "\(r.stdout)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func names(_ rows: [[String: Any]]) -> [String] { rows.compactMap { $0["nombre"] as? String } }

    // MARK: an offline start

    @Test func startedOfflineThePlacesAreNamedAndNotifiedOnceTheBackendAnswers() throws {
        // The backend stops listening right after it started, for 20 s: Faro starts with no server to ask.
        let desktop = try Desktop(backendArguments: ["--refuse-for", "20"])
        try desktop.notificationServer(actions: true)
        let recording = try BackgroundMonitoringTests.recording(in: desktop.home, seconds: 150)
        let app = try desktop.faro(["--source", "replay", recording, "--no-tray"])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)

        // While it refuses: the beacons are listed unnamed, one calm line says why, and nobody is notified.
        let offline = "No connection to the server; the names will arrive when it reconnects."
        #expect(
            Self.eventually(15) { try Self.texts(desktop).contains(offline) }, "\((try? Self.texts(desktop)) ?? [])")
        #expect(
            Self.eventually(10) { try Self.texts(desktop).contains { $0.contains("Unknown beacon") } },
            "\((try? Self.texts(desktop)) ?? [])")
        #expect(try desktop.zoneNotifications().isEmpty)
        try desktop.desktop(["shot", Paths.packageRoot + "/build/screenshots/offline.png"])

        // Once it answers: the names arrive without any action from the user, the line goes, and the place entered
        // while offline is announced because the user is still there.
        #expect(
            Self.eventually(90) { try Self.texts(desktop).contains { $0.contains("Café de olla") } },
            "\((try? Self.texts(desktop)) ?? [])")
        #expect(Self.eventually(10) { try !Self.texts(desktop).contains(offline) })
        #expect(
            Self.eventually(15) {
                try desktop.zoneNotifications().contains { call in
                    "\(call[3]) \(call[4])".contains("Café La Parroquia")
                }
            }, "\((try? desktop.notifyCalls()) ?? [])")
    }

    // MARK: the network

    @Test func aNetworkManagerThatDoesNotAnswerDoesNotHoldTheWindow() throws {
        let desktop = try Desktop()
        try desktop.networkManager()
        // Stopped, as a hung daemon: GIO's monitor asks it for its state when it is made (up to 25 s unanswered).
        try desktop.pause(.networkManager, true)
        let app = try desktop.faro([
            "--source", "replay", try BackgroundMonitoringTests.recording(in: desktop.home), "--no-tray",
        ])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        #expect(Self.eventually(10) { try desktop.window().frames == 1 }, "the window waited for NetworkManager")
        #expect(
            Self.eventually(15) { try Self.texts(desktop).contains { $0.contains("Café de olla") } },
            "\((try? Self.texts(desktop)) ?? [])")
        try desktop.pause(.networkManager, false)
    }

    @Test func theNetworkComingBackPullsTheCatalogAtOnce() throws {
        let desktop = try Desktop()
        try desktop.networkManager()
        let app = try desktop.faro([
            "--source", "replay", try BackgroundMonitoringTests.recording(in: desktop.home), "--no-tray",
        ])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)
        func pulls() throws -> Int { try BackendInserts.listings(desktop.backend.url)["beacons"] ?? 0 }
        #expect(
            Self.eventually(15) { try Self.texts(desktop).contains { $0.contains("Café de olla") } },
            "\((try? Self.texts(desktop)) ?? [])")
        let before = try pulls()
        #expect(before >= 1)

        // NetworkManager loses the network and has it back (a resume before the Wi-Fi, a cable): the catalog is
        // pulled at once, not at its next period (15 minutes); every beacon of the recording is catalogued, so
        // nothing else asks. GIO reports NetworkManager's state only as a property change, not `network-changed`.
        try desktop.setNetworkState(20)
        try desktop.setNetworkState(70)
        #expect(Self.eventually(10) { try pulls() > before }, "\((try? pulls()) ?? -1) pulls")
    }

    // MARK: the outbox panel

    @Test func theOutboxPanelRetriesMovesAndDiscardsRowsOneByOne() throws {
        let desktop = try Desktop(backendArguments: ["--fail-body-containing", "Veneno"])
        try desktop.notificationServer(actions: true)
        // Queued before the window starts: one the backend refuses forever, one it takes, one for another backend.
        let poisoned = try Self.registered(desktop, "Veneno SA")
        try Self.registered(desktop, "Buena SA")
        try Self.registered(desktop, "Otra SA", backend: "http://127.0.0.1:9")
        let app = try desktop.faro(["--source", "replay", try BackgroundMonitoringTests.recording(in: desktop.home)])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)

        // The window delivers the good row (and only to its own backend).
        #expect(Self.eventually(30) { Self.names(try desktop.backend.rows("interested")) == ["Buena SA"] })
        // The outbox line offers the panel; the panel tells the two waiting rows apart, with why they wait.
        #expect(Self.eventually(30) { try Self.texts(desktop).contains("Pending submissions") })
        try desktop.desktop(["press", "Pending submissions"])
        #expect(
            Self.eventually(15) {
                let shown = try Self.texts(desktop).joined(separator: "\n")
                return shown.contains("Waiting for another server (http://127.0.0.1:9)")
                    && shown.contains("Veneno SA") && shown.contains("500")
            }, "\((try? Self.texts(desktop)) ?? [])")
        #expect(app.process.isRunning, "\(app.stdout)\(app.stderr)")
        try desktop.desktop(["shot", Paths.packageRoot + "/build/screenshots/outbox-panel.png"])

        // Retry: the poisoned row is tried again at once (and refused again, with its reason kept).
        let attemptsBefore = try Self.attempts(of: poisoned, in: desktop)
        try desktop.desktop(["press", "Retry Business registration · Veneno SA*"])
        #expect(Self.eventually(30) { try Self.attempts(of: poisoned, in: desktop) > attemptsBefore })

        // "Send to this server": the row queued for another backend goes to this one.
        try desktop.desktop(["press", "Send Business registration · Otra SA*"])
        #expect(
            Self.eventually(30) { Set(Self.names(try desktop.backend.rows("interested"))) == ["Buena SA", "Otra SA"] })

        // Discard: only on the user's word, and then it is gone for good; nothing else was ever dropped.
        try desktop.desktop(["press", "Discard Business registration · Veneno SA*"])
        #expect(Self.eventually(15) { (try Self.outbox(desktop)["rows"] as? [Any])?.isEmpty == true })
        #expect(Self.eventually(10) { try !Self.texts(desktop).contains { $0.contains("Veneno SA") } })
        #expect(Set(Self.names(try desktop.backend.rows("interested"))) == ["Buena SA", "Otra SA"])
    }

    /// How many delivery attempts the outbox recorded for row `id` (−1 when it is not there).
    static func attempts(of id: String, in desktop: Desktop) throws -> Int {
        let rows = try outbox(desktop)["rows"] as? [[String: Any]] ?? []
        let row = rows.first { $0["id"] as? String == id }
        return row?["attempts"] as? Int ?? -1
    }

    // MARK: a refused app key

    @Test func aRefusedAppKeyIsSaidOnceAndRowsWaitUntilTheKeyIsSet() throws {
        let desktop = try Desktop(backendArguments: ["--app-key", "llave-secreta"])
        try desktop.notificationServer(actions: true)
        try desktop.keyring()
        try Self.registered(desktop, "Paciente SA")
        let app = try desktop.faro(["--source", "replay", try BackgroundMonitoringTests.recording(in: desktop.home)])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)
        let refused = "The server refused the app key; submissions wait until it is set."
        #expect(
            Self.eventually(40) { try Self.texts(desktop).contains(refused) }, "\((try? Self.texts(desktop)) ?? [])")
        #expect(try Self.texts(desktop).filter { $0 == refused }.count == 1)
        // The row is kept pending (never failed) while the key is refused.
        #expect(Self.eventually(10) { (try Self.outbox(desktop)["pending"] as? Int) == 1 })
        #expect((try Self.outbox(desktop)["failed"] as? Int) == 0)
        #expect(try desktop.backend.rows("interested").isEmpty)

        // The key is set from the terminal while the same window runs: `faro app-key set` stores it and tells the
        // window (app.reload-backend over D-Bus), which delivers the row without a restart.
        let set = try ChildProcess.run(
            Paths.executable("faro"), ["app-key", "set"], environment: desktop.environment,
            stdin: Data("llave-secreta\n".utf8), timeout: 30)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("The running Faro window was told to read it again."), "\(set.stdout)")
        #expect(
            Self.eventually(40) {
                Self.names(try desktop.backend.rows("interested", key: "llave-secreta")) == ["Paciente SA"]
            }
        )
        #expect(Self.eventually(20) { try !Self.texts(desktop).contains(refused) })
        #expect(Self.eventually(10) { (try Self.outbox(desktop)["pending"] as? Int) == 0 })
    }

    /// A key kept in a keyring that the login left locked: the window says so (not that the server refused the
    /// key), the row waits, and once the keyring is unlocked, Reintentar reads the key and the row goes. A Secret
    /// Service that does not answer meanwhile holds only that read, not the window.
    @Test func aKeyInALockedKeyringIsSaidAndReadOnceTheKeyringIsUnlockedWithoutFreezingTheWindow() throws {
        let desktop = try Desktop(backendArguments: ["--app-key", "llave-secreta"])
        try desktop.notificationServer(actions: true)
        try desktop.keyring()
        try Self.registered(desktop, "Paciente SA")
        let set = try ChildProcess.run(
            Paths.executable("faro"), ["app-key", "set"], environment: desktop.environment,
            stdin: Data("llave-secreta\n".utf8), timeout: 30)
        try #require(set.status == 0, "\(set.stderr)")
        try desktop.keyring(locked: true)
        let app = try desktop.faro(["--source", "replay", try BackgroundMonitoringTests.recording(in: desktop.home)])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)
        let locked = "The keyring that keeps the app key is locked; unlock it and press Retry."
        #expect(
            Self.eventually(40) { try Self.texts(desktop).contains(locked) }, "\((try? Self.texts(desktop)) ?? [])")
        #expect(try Self.texts(desktop).filter { $0 == locked }.count == 1)
        #expect(try !Self.texts(desktop).contains("The server refused the app key; submissions wait until it is set."))
        #expect(Self.eventually(10) { (try Self.outbox(desktop)["pending"] as? Int) == 1 })
        #expect(try desktop.backend.rows("interested", key: "llave-secreta").isEmpty)

        // Unlocked, but the Secret Service does not answer for now (stopped): Reintentar reads the key on a thread
        // of its own, so the window goes on answering AT-SPI meanwhile, and a second press waits for that read.
        try desktop.keyring(locked: false)
        try desktop.pause(.keyring, true)
        try desktop.desktop(["press", "Retry connecting to the server"])
        #expect(
            Self.eventually(10) { try Self.texts(desktop).contains(locked) }, "the window froze on the keyring")
        try desktop.desktop(["press", "Retry connecting to the server"])
        #expect(try desktop.backend.rows("interested", key: "llave-secreta").isEmpty)
        try desktop.pause(.keyring, false)
        #expect(
            Self.eventually(40) {
                Self.names(try desktop.backend.rows("interested", key: "llave-secreta")) == ["Paciente SA"]
            }
        )
        #expect(
            Self.eventually(20) { try !Self.texts(desktop).contains(locked) }, "\((try? Self.texts(desktop)) ?? [])")
        #expect(Self.eventually(10) { (try Self.outbox(desktop)["pending"] as? Int) == 0 })
    }

    // MARK: the demo beside a real Faro

    @Test func theDemoRunsBesideARunningFaroInsteadOfHandingOverToIt() throws {
        let desktop = try Desktop()
        let app = try desktop.faro(["--source", "replay", try BackgroundMonitoringTests.recording(in: desktop.home)])
        defer { _ = BackgroundMonitoringTests.stop(app) }
        try desktop.waitForApp(app)
        var environment = desktop.environment
        environment["FARO_DATA_DIR"] = Paths.data
        let demo = try ChildProcess(Paths.executable("faro"), ["--demo", "--no-tray"], environment: environment)
        // A hand-over would make the second start exit at once (status 0) and show the real Faro instead.
        #expect(demo.waitForLine(timeout: 30) { $0.contains("demo on a private profile") } != nil, "\(demo.stderr)")
        #expect(Self.eventually(20) { try desktop.desktop(["apps"]) as? Int == 2 })
        #expect(demo.process.isRunning)
        #expect(BackgroundMonitoringTests.stop(demo) != nil)
        #expect(app.process.isRunning)
    }
}
