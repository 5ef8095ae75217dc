import CGtk
import FaroGLib
import FaroTestSupport
import Foundation
import Testing

@testable import FaroUI

/// When the work the first frame does not need starts (`LaunchWork`: the app key read, the catalog's first pull,
/// the outbox), on a real GTK window under Xvfb (the display of ReadableTextViewTests, one per test process).
@Suite("Work after the first frame (GTK, Xvfb)", .serialized)
@MainActor
struct LaunchWorkTests {
    /// What happened, and in which main-loop iteration (GLib dispatches every ready source of the best priority in
    /// one iteration: a quit queued there would still let the work start).
    final class Log {
        var events: [String] = []
        var iterations: [String: Int] = [:]
        var iteration = 0
        func add(_ event: String) {
            events.append(event)
            iterations[event] = iterations[event] ?? iteration
        }
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func runsOnceBehindTheWindowsFirstFrameAndAfterItsLowPriorityIdles() throws {
        try ReadableTextViewTests.gtk()
        let log = Log()
        let work = LaunchWork { log.add("work") }
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        defer { gtk_widget_destroy(window) }
        gtk_window_set_default_size(cast(window, to: GtkWindow.self), 200, 100)
        // A G_PRIORITY_LOW idle queued by the first frame, as bench/window's C reference queues its quit.
        Signal.connect(
            window, "draw",
            event: { _ in
                log.add("draw")
                MainContextSources.addIdle(priority: .low) {
                    MainActor.assumeIsolated { log.add("low idle") }
                    return false
                }
                return false
            })
        work.runAfterFirstFrame(of: window)
        // Nothing is drawn before the window is shown, so nothing starts.
        ReadableTextViewTests.runMainLoop(for: 0.2)
        #expect(log.events.isEmpty)
        gtk_widget_show_all(window)
        let deadline = Date().addingTimeInterval(60)
        while !log.events.contains("work"), Date() < deadline {
            log.iteration += 1
            if g_main_context_iteration(nil, 0) == 0 { usleep(2000) }
        }
        #expect(Array(log.events.prefix(3)) == ["draw", "low idle", "work"])
        #expect((log.iterations["work"] ?? 0) > (log.iterations["low idle"] ?? .max))
        // Later frames, and asking again, start nothing more.
        for _ in 0..<3 {
            gtk_widget_queue_draw(window)
            ReadableTextViewTests.runMainLoop(for: 0.1)
        }
        work.run()
        work.runAfterFirstFrame(of: window)
        gtk_widget_queue_draw(window)
        ReadableTextViewTests.runMainLoop(for: 0.1)
        #expect(log.events.filter { $0 == "work" }.count == 1)
        #expect(log.events.filter { $0 == "draw" }.count >= 2)
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func startsAtTheFallbackWhenNoWindowIsEverDrawn() throws {
        try ReadableTextViewTests.gtk()
        var runs = 0
        let work = LaunchWork { runs += 1 }
        let start = Date()
        work.armFallback()
        ReadableTextViewTests.runMainLoop { runs > 0 }
        let waited = Date().timeIntervalSince(start)
        #expect(runs == 1)
        // Not before the fallback time (an upper bound would be the machine's speed, not Faro's).
        #expect(waited >= Double(LaunchWork.fallbackMilliseconds) / 1000 - 0.05)
        work.run()
        ReadableTextViewTests.runMainLoop(for: 0.1)
        #expect(runs == 1)
    }

    @Test(.enabled(if: ReadableTextViewTests.available, Comment(rawValue: RequiredTool.xvfb.reason)))
    func runsAtOnceWhenAskedWithoutAWindow() throws {
        try ReadableTextViewTests.gtk()
        var runs = 0
        let work = LaunchWork { runs += 1 }
        work.run()
        #expect(runs == 1)
        work.armFallback()
        work.run()
        #expect(runs == 1)
    }

    /// The tray icon is prepended to the environment's work: it comes first, once, and work prepended after the run
    /// (a second activation) runs at once.
    @Test
    func prependedWorkRunsFirstOnceAndAtOnceAfterTheRun() {
        var events: [String] = []
        let work = LaunchWork { events.append("pull") }
        work.prepend { events.append("tray") }
        #expect(events.isEmpty)
        work.run()
        work.run()
        #expect(events == ["tray", "pull"])
        work.prepend { events.append("late") }
        #expect(events == ["tray", "pull", "late"])
    }

    @Test
    func prependedWorkRunsWithoutEnvironmentWork() {
        var runs = 0
        let work = LaunchWork(nil)
        work.prepend { runs += 1 }
        work.run()
        #expect(runs == 1)
    }
}
