import CSecret
import FaroApp
import FaroSettings
import FaroTestSupport
import Foundation
import Testing

/// The running app follows changes made from outside: `gsettings set …` in another process (same keyfile backend,
/// same schema folder) reaches the observer, on the main context the store was created under.
@Suite("Settings observation", .serialized)
struct SettingsObservationTests {
    /// The keys an observer was called with.
    final class Seen {
        var keys: [String] = []
    }

    /// A private main context, thread-default while the test runs: GSettings and the keyfile backend's file
    /// monitor deliver to it, and the test runs it until what it waits for has happened (or 20 s pass).
    final class Loop {
        let context: OpaquePointer

        init() {
            context = g_main_context_new()
            g_main_context_push_thread_default(context)
        }

        /// Dispatches events until `done` holds; false when 20 s passed first.
        func run(until done: () -> Bool) -> Bool {
            final class Flag { var raised = false }
            let expired = Flag()
            let timeout = g_timeout_source_new(20_000)
            let box = Unmanaged.passRetained(expired).toOpaque()
            g_source_set_callback(
                timeout,
                { data in
                    if let data { Unmanaged<Flag>.fromOpaque(data).takeUnretainedValue().raised = true }
                    return 0
                }, box, { data in if let data { Unmanaged<Flag>.fromOpaque(data).release() } })
            g_source_attach(timeout, context)
            defer {
                g_source_destroy(timeout)
                g_source_unref(timeout)
            }
            while !done() && !expired.raised { g_main_context_iteration(context, 1) }
            return done()
        }

        /// Dispatches whatever is ready now, without waiting.
        func drain() {
            while g_main_context_iteration(context, 0) != 0 {}
        }

        deinit {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
    }

    func open(_ fixture: SchemaFixture) throws -> GSettingsStore {
        // The folder exists before the backend watches it, as it does once anything was ever saved.
        try FileManager.default.createDirectory(
            atPath: (fixture.keyfile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return try GSettingsStore(
            schemaID: fixture.schemaID, schemaDirectory: fixture.schemas, backend: .keyfile(path: fixture.keyfile))
    }

    @Test func gsettingsSetInAnotherProcessReachesTheObserver() throws {
        let fixture = try SchemaFixture()
        let loop = Loop()
        let settings = try open(fixture)
        let seen = Seen()
        let token = settings.observe { seen.keys.append($0) }
        #expect(settings.monitoring == .on)

        let set = try fixture.gsettings(["set", fixture.schemaID, "monitoring", "false"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(loop.run { seen.keys.contains(SettingsKey.monitoring.rawValue) }, "no change seen: \(seen.keys)")
        #expect(settings.monitoring == .off)

        // paused-until is part of the app's "monitoring" value.
        seen.keys = []
        _ = try fixture.gsettings(["set", fixture.schemaID, "monitoring", "true"])
        _ = try fixture.gsettings(["set", fixture.schemaID, "paused-until", "1900000000"])
        #expect(loop.run { settings.monitoring == .paused(until: 1_900_000_000) })
        #expect(Set(seen.keys) == [SettingsKey.monitoring.rawValue])

        _ = try fixture.gsettings(["set", fixture.schemaID, "backend-url", "https://faro.example"])
        #expect(loop.run { seen.keys.contains(SettingsKey.backendURL.rawValue) })
        #expect(settings.text(.backendURL) == "https://faro.example")
        withExtendedLifetime(token) {}
    }

    @Test func aCancelledObservationHearsNothingMore() throws {
        let fixture = try SchemaFixture()
        let loop = Loop()
        let settings = try open(fixture)
        let cancelled = Seen()
        let kept = Seen()
        let first = settings.observe { cancelled.keys.append($0) }
        let second = settings.observe { kept.keys.append($0) }
        first.cancel()
        _ = try fixture.gsettings(["set", fixture.schemaID, "cool-down", "60"])
        #expect(loop.run { kept.keys.contains(SettingsKey.coolDown.rawValue) })
        #expect(cancelled.keys.isEmpty)
        withExtendedLifetime(second) {}
    }

    @Test func writingTheValueAlreadyStoredChangesNothing() throws {
        let fixture = try SchemaFixture()
        let loop = Loop()
        let settings = try open(fixture)
        let seen = Seen()
        let token = settings.observe { seen.keys.append($0) }
        // The app persists every state it applies, also the one it just read after a change from outside: that
        // write must not come back as another change (an endless loop between the observer and the store).
        settings.setString(SettingsKey.monitoring, "on")
        settings.setString(SettingsKey.exitPeriod, "30")
        settings.setString(SettingsKey.backendURL, nil)
        loop.drain()
        #expect(seen.keys.isEmpty)
        settings.setString(SettingsKey.exitPeriod, "45")
        #expect(loop.run { seen.keys == [SettingsKey.exitPeriod.rawValue] })
        withExtendedLifetime(token) {}
    }
}
