import CSecret
import FaroApp
import FaroSettings
import FaroTestSupport
import Foundation
import Testing

/// The GSettings adapter on a private schema folder and a keyfile backend: typed values, the string form the app's
/// `SettingsStore` uses, range checks, and a schema that is missing or older never aborting the process.
@Suite("GSettings store")
struct GSettingsStoreTests {
    func store(_ fixture: SchemaFixture) throws -> GSettingsStore {
        try GSettingsStore(
            schemaID: fixture.schemaID, schemaDirectory: fixture.schemas, backend: .keyfile(path: fixture.keyfile))
    }

    @Test func defaultsAreTheContractsOnes() throws {
        let fixture = try SchemaFixture()
        let settings = try store(fixture)
        #expect(settings.monitoring == .on)
        #expect(settings.seconds(.exitPeriod) == 30)
        #expect(settings.seconds(.coolDown) == 600)
        #expect(settings.seconds(.catalogRefreshInterval) == 900)
        #expect(settings.text(.backendURL) == nil)
        #expect(settings.tableNames == ("beacons", "interested", "contactame", "rateme"))
        #expect(settings.bool(.startAtLogin) == false)
        #expect(settings.string(SettingsKey.toldAboutBackground) == nil)
        #expect(settings.string(SettingsKey.exitPeriod) == "30")
    }

    @Test func monitoringIsTwoKeysReadAsOneValue() throws {
        let fixture = try SchemaFixture()
        let settings = try store(fixture)
        settings.setString(SettingsKey.monitoring, MonitoringPreference.paused(until: 1_900_000_000).storedValue)
        #expect(settings.string(SettingsKey.monitoring) == "paused:1900000000")
        // What gsettings (another process, same keyfile) sees.
        #expect(try fixture.gsettings(["get", fixture.schemaID, "monitoring"]).stdout == "true\n")
        #expect(try fixture.gsettings(["get", fixture.schemaID, "paused-until"]).stdout == "int64 1900000000\n")
        try settings.setMonitoring(.off)
        #expect(try fixture.gsettings(["get", fixture.schemaID, "monitoring"]).stdout == "false\n")
        #expect(try fixture.gsettings(["get", fixture.schemaID, "paused-until"]).stdout == "int64 0\n")
        #expect(settings.monitoring == .off)
        settings.setString(SettingsKey.monitoring, "on")
        #expect(settings.monitoring == .on)
    }

    @Test func stringFormsOfEveryKind() throws {
        let fixture = try SchemaFixture()
        let settings = try store(fixture)
        settings.setString(SettingsKey.toldAboutBackground, "yes")
        #expect(settings.string(SettingsKey.toldAboutBackground) == "true")
        settings.setString(SettingsKey.toldAboutBackground, nil)
        #expect(settings.string(SettingsKey.toldAboutBackground) == nil)
        settings.setString(SettingsKey.backendURL, "https://faro.example")
        #expect(try fixture.gsettings(["get", fixture.schemaID, "backend-url"]).stdout == "'https://faro.example'\n")
        settings.setString(SettingsKey.coolDown, "120")
        #expect(settings.seconds(.coolDown) == 120)
        settings.setString(SettingsKey.tableRateme, "ratings")
        #expect(settings.tableNames.rateme == "ratings")
    }

    @Test func valuesOutsideTheSchemaAreRefusedNotClamped() throws {
        let fixture = try SchemaFixture()
        let settings = try store(fixture)
        #expect(throws: SettingsError.self) { try settings.setSeconds(.exitPeriod, 0) }
        #expect(throws: SettingsError.self) { try settings.setSeconds(.catalogRefreshInterval, 10) }
        #expect(throws: SettingsError.self) { try settings.set(SettingsKey.exitPeriod.rawValue, "soon") }
        #expect(throws: SettingsError.self) { try settings.set("no-such-key", "1") }
        do {
            try settings.setSeconds(.exitPeriod, 7200)
            Issue.record("7200 s was accepted for exit-period")
        } catch {
            #expect(error.description.contains("from 1 to 3600 seconds"), "\(error)")
        }
        #expect(settings.seconds(.exitPeriod) == 30)
        try settings.setSeconds(.exitPeriod, 3600)
        #expect(settings.seconds(.exitPeriod) == 3600)
    }

    @Test func aMissingSchemaIsAnErrorNotAnAbort() throws {
        let fixture = try SchemaFixture()
        #expect(throws: SettingsError.self) {
            try GSettingsStore(schemaID: "io.github.faro.Faro.Missing", schemaDirectory: fixture.schemas)
        }
        do {
            _ = try GSettingsStore(schemaID: "io.github.faro.Faro.Missing", schemaDirectory: fixture.schemas)
        } catch {
            #expect(error.description.contains("io.github.faro.Faro.Missing is not installed"))
            #expect(error.description.contains(fixture.schemas))
        }
    }

    @Test func anOlderSchemaIsAnErrorNotAnAbort() throws {
        let old = try SchemaFixture(id: "io.github.faro.Faro.Old", removingKey: "catalog-refresh-interval")
        #expect(throws: SettingsError.schemaOutdated(id: old.schemaID, key: "catalog-refresh-interval", found: nil)) {
            try GSettingsStore(schemaID: old.schemaID, schemaDirectory: old.schemas)
        }
        let foreign = try SchemaFixture(id: "io.github.faro.Faro.Foreign", signedExitPeriod: true)
        #expect(throws: SettingsError.schemaOutdated(id: foreign.schemaID, key: "exit-period", found: "i")) {
            try GSettingsStore(schemaID: foreign.schemaID, schemaDirectory: foreign.schemas)
        }
    }
}
