import FaroApp
import FaroSettings
import FaroStore
import FaroTestSupport
import Foundation
import Testing

/// What older Faros kept in SQLite moves into GSettings (and the app key into its store) once, and the SQLite
/// table is not used after: on a real database file and a keyfile backend.
@Suite("Settings migration")
struct SettingsMigrationTests {
    /// A database as an older Faro left it, with its settings rows.
    func legacyDatabase(_ fixture: SchemaFixture, _ rows: [String: String]) throws -> FaroDatabase {
        let database = try FaroDatabase(path: fixture.folder.file("data/faro/faro.sqlite3"))
        for (key, value) in rows { try database.settings.set(key, value) }
        return database
    }

    @Test func everyOldSettingMovesOnceAndTheRowsAreGone() throws {
        let fixture = try SchemaFixture()
        let settings = try GSettingsStore(
            schemaID: fixture.schemaID, schemaDirectory: fixture.schemas, backend: .keyfile(path: fixture.keyfile))
        let keyFile = fixture.folder.file("config/faro/app-key")
        let appKeys = AppKeyStore(location: .file(keyFile))
        let database = try legacyDatabase(
            fixture,
            [
                "monitoring": "paused:1900000000", "told-about-background": "yes",
                "backend-url": "https://faro.example/api", "table.beacons": "catalogo", "table.rateme": "ratings",
                "app-key": "s3cret",
            ])

        let report = SettingsMigration.run(from: database, to: settings, appKeys: appKeys)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(
            Set(report.moved)
                == ["monitoring", "told-about-background", "backend-url", "table.beacons", "table.rateme", "app-key"])
        #expect(settings.monitoring == .paused(until: 1_900_000_000))
        #expect(settings.bool(.toldAboutBackground))
        #expect(settings.text(.backendURL) == "https://faro.example/api")
        #expect(settings.tableNames == ("catalogo", "interested", "contactame", "ratings"))
        #expect(try appKeys.read() == "s3cret")
        var info = stat()
        #expect(stat(keyFile, &info) == 0 && info.st_mode & 0o777 == 0o600)
        // Written through to the backend another process reads.
        let url = try fixture.gsettings(["get", fixture.schemaID, "backend-url"])
        #expect(url.stdout == "'https://faro.example/api'\n")
        // The old table is empty: nothing reads it any more, and a second run moves nothing.
        let left = try database.connection.query("SELECT count(*) FROM settings").first?.first?.integer
        #expect(left == 0)
        #expect(SettingsMigration.run(from: database, to: settings, appKeys: appKeys).moved.isEmpty)
    }

    /// The app key's store is made (which probes the session bus for a Secret Service) only when an old key is
    /// there to move, so a launch with nothing left to move makes no bus round trip for it.
    @Test func theKeyStoreIsMadeOnlyForAnOldKey() throws {
        let fixture = try SchemaFixture()
        let settings = try GSettingsStore(
            schemaID: fixture.schemaID, schemaDirectory: fixture.schemas, backend: .keyfile(path: fixture.keyfile))
        let database = try legacyDatabase(fixture, ["backend-url": "https://faro.example/api"])
        var made = 0
        func keyStore() -> AppKeyStore {
            made += 1
            return AppKeyStore(location: .file(fixture.folder.file("config/faro/app-key")))
        }
        #expect(SettingsMigration.run(from: database, to: settings, appKeys: keyStore()).moved == ["backend-url"])
        #expect(made == 0)
        #expect(SettingsMigration.run(from: database, to: settings, appKeys: keyStore()).moved.isEmpty)
        #expect(made == 0)

        try database.settings.set("app-key", "s3cret")
        #expect(SettingsMigration.run(from: database, to: settings, appKeys: keyStore()).moved == ["app-key"])
        #expect(made == 1)
        #expect(try keyStore().read() == "s3cret")
    }

    @Test func aValueSetSinceInGSettingsWins() throws {
        let fixture = try SchemaFixture()
        let settings = try GSettingsStore(
            schemaID: fixture.schemaID, schemaDirectory: fixture.schemas, backend: .keyfile(path: fixture.keyfile))
        try settings.setText(.backendURL, "https://newer.example")
        let database = try legacyDatabase(fixture, ["backend-url": "https://older.example"])
        let report = SettingsMigration.run(
            from: database, to: settings, appKeys: AppKeyStore(location: .file(fixture.folder.file("key"))))
        #expect(report.moved == ["backend-url"])
        #expect(settings.text(.backendURL) == "https://newer.example")
    }

    @Test func whatCannotMoveStaysInItsRow() throws {
        let fixture = try SchemaFixture()
        let settings = try GSettingsStore(
            schemaID: fixture.schemaID, schemaDirectory: fixture.schemas, backend: .keyfile(path: fixture.keyfile))
        // The key's folder would have to be made inside a regular file: the key cannot be stored.
        #expect(FileManager.default.createFile(atPath: fixture.folder.file("not-a-folder"), contents: Data()))
        let appKeys = AppKeyStore(location: .file(fixture.folder.file("not-a-folder/faro/app-key")))
        let database = try legacyDatabase(fixture, ["app-key": "s3cret", "backend-url": "https://faro.example"])
        let report = SettingsMigration.run(from: database, to: settings, appKeys: appKeys)
        #expect(report.moved == ["backend-url"])
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("app-key:"), "\(report.problems)")
        #expect(try database.settings.value("app-key") == "s3cret")
        #expect(try database.settings.value("backend-url") == nil)
    }

    /// End to end: `faro outbox flush` with no --backend finds the URL an older Faro saved in SQLite, moves it into
    /// GSettings on the way and delivers there.
    @Test func theCommandLineMovesAndUsesTheOldBackendSetting() throws {
        let fixture = try SchemaFixture()
        let backend = try BackendProcess(environment: fixture.environment)
        defer { backend.stop() }
        let url = backend.url
        let database = try legacyDatabase(
            fixture, ["backend-url": url, "table.interested": "interested", "monitoring": "off"])
        let registered = try ChildProcess.run(
            Paths.executable("faro"),
            [
                "register", "--nombre", "Panadería Santa Clara", "--email", "hola@santaclara.mx", "--telefono",
                "5512345678",
            ],
            environment: fixture.environment)
        #expect(registered.status == 0, "\(registered.stderr)")
        let flushed = try ChildProcess.run(
            Paths.executable("faro"), ["outbox", "flush", "--timeout", "20"], environment: fixture.environment)
        #expect(flushed.status == 0, "\(flushed.stdout)\(flushed.stderr)")
        #expect(flushed.stdout.contains("delivered: 1"), "\(flushed.stdout)")
        #expect(try database.settings.value("backend-url") == nil)
        #expect(try fixture.gsettings(["get", fixture.schemaID, "backend-url"]).stdout == "'\(url)'\n")
        // The window's own settings stay where the window reads them until it uses GSettings itself.
        #expect(try database.settings.value("monitoring") == "off")
    }

    /// Without the schema, a command that needs a setting says so in one line, and nothing aborts.
    @Test func aMissingSchemaIsOneClearLine() throws {
        let fixture = try SchemaFixture()
        var environment = fixture.environment
        let empty = fixture.folder.file("no-schemas")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        environment["GSETTINGS_SCHEMA_DIR"] = empty
        environment["XDG_DATA_DIRS"] = empty
        environment["XDG_DATA_HOME"] = empty
        let r = try ChildProcess.run(
            Paths.executable("faro"), ["outbox", "flush", "--timeout", "1"], environment: environment)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("the settings schema io.github.faro.Faro is not installed"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
