import FaroTestSupport
import Foundation
import Testing

/// The real window under Xvfb, driven through AT-SPI by Tests/UI/faro_ui.py, with a real faro-backend on loopback
/// and the demo recording as the beacon source. Each test is a fresh app with its own data folder.
@Suite("Faro window", .serialized)
struct WindowTests {
    /// A running faro-backend on a free port, with its own database.
    final class Backend {
        let backend: BackendProcess
        var url: String { backend.url }
        var process: ChildProcess { backend.child }
        let folder: TemporaryDirectory

        /// `data` is the folder with the demo catalog and microsites (the source tree's `data/` unless a test gives
        /// its own).
        init(_ faults: [String] = [], data: String = Paths.data) throws {
            folder = try TemporaryDirectory("faro-ui-backend")
            backend = try BackendProcess(
                ["--database", folder.file("backend.sqlite3"), "--data", data, "--debug"] + faults)
        }

        /// Every microsite request the backend received, with its headers.
        func siteRequests() throws -> [[String: Any]] {
            let r = try ChildProcess.run("/usr/bin/curl", ["-s", "\(url)/debug/requests"])
            return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]) ?? []
        }

        /// Waits up to 10 s for rows to arrive in a table.
        func waitForRows(_ table: String) throws -> [[String: Any]] {
            var rows: [[String: Any]] = []
            for _ in 0..<100 where rows.isEmpty {
                rows = try self.rows(table)
                if rows.isEmpty { Thread.sleep(forTimeInterval: 0.1) }
            }
            return rows
        }

        /// The rows of a backend table, through the tables protocol (a read cut short is tried again, up to 5 times);
        /// `key` is the app key of a backend started with `--app-key`.
        func rows(_ table: String, key: String? = nil) throws -> [[String: Any]] {
            var lastError: Error?
            for _ in 0..<5 {
                let r = try ChildProcess.run(
                    "/usr/bin/curl",
                    [
                        "-s", "-m", "10", "-H", "ZUMO-API-VERSION: 2.0.0",
                    ] + (key.map { ["-H", "ZUMO-API-KEY: \($0)"] } ?? []) + [
                        "\(url)/tables/\(table)?$top=1000"
                    ])
                do {
                    return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
                } catch {
                    lastError = error
                    Thread.sleep(forTimeInterval: 0.5)
                }
            }
            throw lastError ?? CocoaError(.fileReadUnknown)
        }
    }

    /// Runs scenarios in one app instance; returns the driver's output.
    func drive(
        _ scenarios: [String], language: String, backend: Backend, data: TemporaryDirectory,
        extra: [String] = []
    ) throws -> (status: Int32, output: String) {
        try drive(scenarios, language: language, backendURL: backend.url, data: data, extra: extra)
    }

    func drive(
        _ scenarios: [String], language: String, backendURL: String, data: TemporaryDirectory,
        extra: [String] = []
    ) throws -> (status: Int32, output: String) {
        let child = try start(scenarios, language: language, backendURL: backendURL, data: data, extra: extra)
        let status = child.wait(timeout: 200) ?? -1
        return (status, child.stdout + child.stderr)
    }

    /// Starts the driver without waiting for it.
    func start(
        _ scenarios: [String], language: String, backend: Backend, data: TemporaryDirectory,
        extra: [String] = [], linger: Double = 0
    ) throws -> ChildProcess {
        try start(scenarios, language: language, backendURL: backend.url, data: data, extra: extra, linger: linger)
    }

    func start(
        _ scenarios: [String], language: String, backendURL: String, data: TemporaryDirectory,
        extra: [String] = [], linger: Double = 0
    ) throws -> ChildProcess {
        let shots = Paths.packageRoot + "/build/screenshots"
        var env = try data.windowEnvironment(language: language)
        env["FARO"] = Paths.executable("faro")
        env["FARO_ARGS"] =
            (["--source", "replay", Paths.data + "/demo/walk.jsonl", "--backend", backendURL, "--no-tray"]
            + extra).joined(separator: " ")
        env["SHOTS"] = shots
        env["FARO_LANG"] = language
        try installBrowser(in: data)
        env["FARO_UI_OPENED"] = data.file("opened-urls")
        env["FARO_UI_EXPORT_TO"] = data.file("exports/saved-page.mht")
        env["FARO_UI_LINGER"] = String(linger)
        env["FARO_UI_STOP"] = data.file("stop-lingering")
        return try ChildProcess(Paths.packageRoot + "/Tests/UI/run-scenario.sh", scenarios, environment: env)
    }

    /// The desktop's default browser for http and https, as GIO finds it (XDG_DATA_HOME/applications and
    /// XDG_CONFIG_HOME/mimeapps.list): a script that appends each URL it is given to `opened-urls`, so no real
    /// browser starts and a test can read what the app opened.
    func installBrowser(in data: TemporaryDirectory) throws {
        let recorder = data.file("browser.sh")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(data.file("opened-urls"))'\n"
            .write(toFile: recorder, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: recorder)
        try FileManager.default.createDirectory(
            atPath: data.file("data/applications"), withIntermediateDirectories: true)
        try """
        [Desktop Entry]
        Type=Application
        Name=Test browser
        Exec=\(recorder) %u
        MimeType=x-scheme-handler/http;x-scheme-handler/https;
        NoDisplay=true

        """.write(toFile: data.file("data/applications/faro-test-browser.desktop"), atomically: true, encoding: .utf8)
        try """
        [Default Applications]
        x-scheme-handler/http=faro-test-browser.desktop
        x-scheme-handler/https=faro-test-browser.desktop

        """.write(toFile: data.file("config/mimeapps.list"), atomically: true, encoding: .utf8)
    }

    /// The URLs the app handed to the browser, in order.
    func openedURLs(_ data: TemporaryDirectory) -> [String] {
        let recorded = (try? String(contentsOfFile: data.file("opened-urls"), encoding: .utf8)) ?? ""
        return recorded.split(separator: "\n").map(String.init)
    }

    /// Ends a driver's linger early: the test has seen what it waited for.
    func stopLingering(_ data: TemporaryDirectory) {
        _ = FileManager.default.createFile(atPath: data.file("stop-lingering"), contents: nil)
    }

    @Test(arguments: ["en", "es"])
    func beaconsAppearNearestFirstWithDistances(_ language: String) throws {
        let backend = try Backend()
        let data = try TemporaryDirectory("faro-ui")
        let r = try drive(["beacons"], language: language, backend: backend, data: data)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("OK beacons"))
    }

    @Test(arguments: ["en", "es"])
    func contactDetailsAreValidatedThenSaved(_ language: String) throws {
        let backend = try Backend()
        let data = try TemporaryDirectory("faro-ui")
        let r = try drive(["contact"], language: language, backend: backend, data: data)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("OK invalid-phone-rejected"))
        #expect(r.output.contains("OK contact-saved"))
        // Saved on the device, cleaned: the separators the user typed are gone.
        let db = data.file("data/faro/faro.sqlite3")
        let row = try ChildProcess.run(
            "/usr/bin/sqlite3", [db, "SELECT nombre, telefono, empresa FROM contact_profile"])
        #expect(row.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Ana López|5512345678|Faro SA")
    }

    @Test func businessRegistrationReachesTheBackend() throws {
        let backend = try Backend()
        let data = try TemporaryDirectory("faro-ui")
        let driver = try start(["register"], language: "es", backend: backend, data: data, linger: 15)
        let submitted = driver.waitForLine(timeout: 120) { $0.hasPrefix("OK registration-submitted") }
        #expect(submitted != nil, "\(driver.stdout)\(driver.stderr)")
        // The app's background delivery sends it while the window stays open.
        var rows: [[String: Any]] = []
        for _ in 0..<100 where rows.isEmpty {
            rows = try backend.rows("interested")
            if rows.isEmpty { Thread.sleep(forTimeInterval: 0.1) }
        }
        stopLingering(data)
        #expect(driver.wait(timeout: 60) == 0, "\(driver.stdout)\(driver.stderr)")
        let arrived = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(arrived["nombre"] as? String == "Panadería Santa Clara")
        #expect(arrived["email"] as? String == "hola@santaclara.mx")
        #expect(arrived["telefono"] as? String == "5512345678")
    }

    /// In both languages: the scenario finds every control, dialog and message by its translated name ("Save page",
    /// "Rate site", "Saved", "(saved copy)"… / "Guardar página", "Calificar sitio", "Guardados", "(copia guardada)"…).
    @Test(arguments: ["en", "es"])
    func aSiteLoadsFreshIsSavedRatedAndOpensOfflineFromGuardados(_ language: String) throws {
        var backend: Backend? = try Backend()
        let url = try #require(backend?.url)
        let data = try TemporaryDirectory("faro-ui")
        let driver = try start(["site"], language: language, backend: try #require(backend), data: data, linger: 12)
        let rated = driver.waitForLine(timeout: 150) { $0.hasPrefix("OK site-rated") }
        #expect(rated != nil, "\(driver.stdout)\(driver.stderr)")
        // Every microsite request was fresh: no-cache headers, the device id, and no cookie from earlier loads
        // (the backend sets one on every answer).
        let requests = try #require(backend).siteRequests().filter {
            ($0["path"] as? String ?? "").hasPrefix("/sitios/")
        }
        // The pages themselves (not their CSS and images): paths without a file extension.
        let pages = requests.filter { !(($0["path"] as? String ?? "").split(separator: "/").last ?? "").contains(".") }
        #expect(pages.count >= 2)  // the load and the fresh fetch of "Guardar"
        for r in requests {
            #expect((r["cache-control"] as? String ?? "").contains("no-cache"), "\(r)")
            #expect((r["pragma"] as? String ?? "").contains("no-cache"), "\(r)")
            #expect(r["cookie"] is NSNull, "\(r)")
        }
        for page in pages { #expect((page["query"] as? String ?? "").contains("imei="), "\(page)") }
        // The rating went local first, then through the outbox.
        let ratings = try #require(backend).waitForRows("rateme")
        #expect(ratings.count == 1)
        #expect(ratings.first?["calificacion"] as? Int == 4)
        #expect((ratings.first?["imei"] as? String ?? "").count >= 15)
        #expect(ratings.first?["cliente"] as? String != nil)
        #expect((ratings.first?["fechahora"] as? String)?.hasSuffix("Z") == true)
        stopLingering(data)
        #expect(driver.wait(timeout: 60) == 0, "\(driver.stdout)\(driver.stderr)")
        // The backend goes away: Guardados still opens the page.
        backend = nil
        #expect(try ChildProcess.run("/usr/bin/curl", ["-s", "-m", "2", url + "/sitios/"]).status != 0)
        let offline = try drive(["saved"], language: language, backendURL: url, data: data)
        #expect(offline.status == 0, "\(offline.output)")
        #expect(offline.output.contains("OK saved-opened-offline"))
        #expect(offline.output.contains("OK saved-deleted"))
        let left = try ChildProcess.run(
            "/usr/bin/sqlite3", [data.file("data/faro/faro.sqlite3"), "SELECT count(*) FROM saved_pages"])
        #expect(left.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// Links in a microsite's text go to the desktop's browser (here the recording stand-in), by a click and by
    /// Enter at the cursor; the content view does not load them itself, and they never carry the device id.
    @Test func linksInASiteOpenInTheBrowserOnClickAndOnEnter() throws {
        let backend = try Backend()
        let data = try TemporaryDirectory("faro-ui")
        let r = try drive(["links"], language: "es", backend: backend, data: data)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("OK link-enter"))
        #expect(r.output.contains("OK link-click"))
        // Enter on plain text opened nothing; each link opened once, absolute (the in-site one resolved against the
        // page) and without the device id the page itself was loaded with.
        #expect(
            openedURLs(data) == [
                "https://cafelaparroquia.example/pedidos",
                backend.url + "/sitios/libreria-el-pendulo/",
            ])
        let requests = try backend.siteRequests()
        let cafe = requests.filter { $0["path"] as? String == "/sitios/cafe-la-parroquia" }
        #expect(cafe.count == 1)
        #expect(cafe.allSatisfy { ($0["query"] as? String ?? "").contains("imei=") }, "\(cafe)")
        #expect(
            !requests.contains { ($0["path"] as? String ?? "").hasPrefix("/sitios/libreria-el-pendulo") }, "\(requests)"
        )
    }

    /// "Export…" in Guardados, through the real file chooser: a path typed into its name field, "Export", and the
    /// file is the stored archive, a Chromium-style MHT with the page in it.
    @Test func aSavedPageIsExportedThroughTheFileChooser() throws {
        let backend = try Backend()
        let data = try TemporaryDirectory("faro-ui")
        // Guardados holds a page, saved by `faro save` into the same data folder (and to a reference copy).
        let page = backend.url + "/sitios/cafe-la-parroquia/"
        let saved = try ChildProcess.run(
            Paths.executable("faro"),
            [
                "save", page, "--business", "Café La Parroquia",
                "-o", data.file("reference.mht"),
            ],
            environment: data.xdgEnvironment)
        try #require(saved.status == 0, "\(saved.stderr)")
        try FileManager.default.createDirectory(atPath: data.file("exports"), withIntermediateDirectories: true)
        let r = try drive(["export"], language: "en", backend: backend, data: data)
        #expect(r.status == 0, "\(r.output)")
        // The chooser suggested the page's title as the file name.
        #expect(
            r.output.contains("OK export-suggested Café-de-olla-y-pan-dulce---Café-La-Parroquia.mht"), "\(r.output)")
        let exported = try #require(FileManager.default.contents(atPath: data.file("exports/saved-page.mht")))
        #expect(exported == FileManager.default.contents(atPath: data.file("reference.mht")))
        let head = String(decoding: exported.prefix(600), as: UTF8.self)
        #expect(head.hasPrefix("From: <Saved by Blink>\r\n"), "\(head)")
        #expect(head.contains("Snapshot-Content-Location: \(page)\r\n"), "\(head)")
        #expect(head.contains("Content-Type: multipart/related;"), "\(head)")
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains("Content-Type: text/html"))
        #expect(text.contains("<h1>Caf=C3=A9 La Parroquia</h1>"))
        // And it reads back, with no network, as the page.
        let shown = try ChildProcess.run(
            Paths.executable("faro"), ["show", data.file("exports/saved-page.mht")],
            environment: data.xdgEnvironment)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Café de olla con canela y piloncillo"), "\(shown.stdout)")
    }

    @Test func sendMyDetailsIsOfferedOnlyWithContactDetailsAndOnlyOnce() throws {
        let backend = try Backend()
        let data = try TemporaryDirectory("faro-ui")
        let driver = try start(["contact", "send-details"], language: "en", backend: backend, data: data, linger: 12)
        let sent = driver.waitForLine(timeout: 150) { $0.hasPrefix("OK details-sent") }
        #expect(sent != nil, "\(driver.stdout)\(driver.stderr)")
        let rows = try backend.waitForRows("contactame")
        stopLingering(data)
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row["nombrecontacto"] as? String == "Ana López")
        #expect(row["email"] as? String == "ana@ejemplo.com")
        #expect(row["telefono"] as? String == "5512345678")
        #expect(row["empresa"] as? String == "Faro SA")
        #expect(row["comentario"] as? String == "Quiero una cotización")
        for field in ["cliente", "titulo", "fechahora"] { #expect(row[field] as? String != nil, "\(field)") }
        #expect(driver.wait(timeout: 60) == 0, "\(driver.stdout)\(driver.stderr)")
    }

    @Test func theDeviceIDInAboutIsTheOneSentAndNeverShared() throws {
        let backend = try Backend()
        let data = try TemporaryDirectory("faro-ui")
        let r = try drive(["about", "share"], language: "es", backend: backend, data: data)
        #expect(r.status == 0, "\(r.output)")
        let shown = try #require(r.output.split(separator: "\n").first { $0.hasPrefix("OK about-device-id ") })
            .split(separator: " ").last.map(String.init)
        let link = try #require(r.output.split(separator: "\n").first { $0.hasPrefix("OK share-link ") })
        #expect(!link.contains("imei"))
        #expect(r.output.contains("OK share-qr"))
        // The page load sent exactly the id "Acerca de" shows.
        let queries = try backend.siteRequests().compactMap { $0["query"] as? String }
        #expect(queries.contains { $0.contains("imei=" + (shown ?? "-")) }, "\(queries) vs \(shown ?? "")")
    }
}
