import CGio
import FaroBluetooth
import FaroCore
import FaroGLib

/// Runs a source on a fresh GLib main context that is thread-default for the test's thread, and records its
/// events. Every wait is bounded.
final class SourceDriver {
    private let context: OpaquePointer?
    let loop: GLibMainLoop
    var events: [SourceEvent] = []

    init() {
        context = g_main_context_new()
        g_main_context_push_thread_default(context)
        loop = GLibMainLoop()
    }

    deinit {
        g_main_context_pop_thread_default(context)
        g_main_context_unref(context)
    }

    func start(_ source: AdvertisementSource) throws {
        try source.start { [weak self] event in self?.events.append(event) }
    }

    /// Iterates until `condition` holds (true) or `timeout` seconds pass (false).
    @discardableResult
    func run(timeout: Double = 10, until condition: () -> Bool) -> Bool {
        loop.iterate(timeout: timeout, until: condition)
    }

    /// Lets the context run for `seconds`.
    func settle(_ seconds: Double) {
        _ = loop.iterate(timeout: seconds) { false }
    }

    /// Stops the source and waits (at most 5 s) for it to finish.
    func stop(_ source: AdvertisementSource) -> Bool {
        var stopped = false
        source.stop { stopped = true }
        return run(timeout: 5) { stopped }
    }

    var sightings: [BeaconSighting] {
        events.compactMap { if case .sighting(let s) = $0 { return s } else { return nil } }
    }

    var states: [SourceState] {
        events.compactMap { if case .state(let s) = $0 { return s } else { return nil } }
    }

    var failures: [ScanError] {
        events.compactMap { if case .failed(let e) = $0 { return e } else { return nil } }
    }

    func clear() { events.removeAll() }
}
