internal import CGtk
import FaroCore
import FaroGLib
import FoundationEssentials

/// Opt-in measurement hooks for `bench/window/run.sh`, read from the environment when the main window is created.
/// Without these variables nothing here runs.
///
/// - `FARO_EXIT_AFTER_FIRST_FRAME=1`: quit the application once the main window's first frame has been drawn
///   (launch-to-first-frame time and peak memory, timed from outside). `=rows`: wait for the first frame drawn
///   with at least one row in the beacon list instead.
/// - `FARO_STALL_PROBE=SECONDS`: a 2 ms timeout on the main loop records how late each call comes (the gap since the
///   previous call minus the period); after `FARO_STALL_WARMUP` seconds (default 5: the list fills up) it measures
///   for SECONDS, then prints `stall_p99_ms=… stall_max_ms=… stall_samples=…` (and the stalls over 16 ms, the main
///   thread's own CPU time per gap, the warm-up's worst stall and the rows in the list) to stdout and quits.
@MainActor
enum BenchmarkHooks {
    /// Installs the hooks the environment asks for on a newly created main window.
    static func attach(_ window: MainWindow, application: UnsafeMutablePointer<GtkApplication>) {
        let env = ProcessInfo.processInfo.environment
        if let mode = env["FARO_EXIT_AFTER_FIRST_FRAME"], !mode.isEmpty, mode != "0" {
            exitAfterFirstFrame(window, application: application, needRows: mode == "rows")
        }
        if let text = env["FARO_STALL_PROBE"], let seconds = Double(text), seconds > 0 {
            let warmUp = env["FARO_STALL_WARMUP"].flatMap(Double.init) ?? 5
            StallProbe.start(window: window, application: application, warmUp: max(warmUp, 0), seconds: seconds)
        }
    }

    private final class FrameWatch {
        let window: MainWindow
        let application: UnsafeMutablePointer<GtkApplication>
        let needRows: Bool
        var done = false
        init(window: MainWindow, application: UnsafeMutablePointer<GtkApplication>, needRows: Bool) {
            self.window = window
            self.application = application
            self.needRows = needRows
        }
    }

    /// A "draw" handler on the toplevel (it runs for every frame the window paints) that, on the first frame that
    /// counts, queues the quit behind the rest of that frame with a low-priority idle.
    private static func exitAfterFirstFrame(
        _ window: MainWindow, application: UnsafeMutablePointer<GtkApplication>,
        needRows: Bool
    ) {
        let watch = FrameWatch(window: window, application: application, needRows: needRows)
        Signal.connect(
            window.window, "draw",
            event: { _ in
                guard !watch.done, !watch.needRows || watch.window.beacons.shownRows > 0 else { return false }
                watch.done = true
                let quit: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { app in
                    g_application_quit(cast(app, to: GApplication.self))
                    return 0
                }
                g_idle_add_full(G_PRIORITY_LOW, quit, UnsafeMutableRawPointer(watch.application), nil)
                return false
            })
    }
}

/// The main-loop stall probe behind `FARO_STALL_PROBE`.
@MainActor
private final class StallProbe {
    static let periodMs = 2.0

    let window: MainWindow
    let application: UnsafeMutablePointer<GtkApplication>
    let warmUpEnd: Int
    let end: Int
    var last: Int
    var lastCPU: Double
    var warmUpMax = 0.0
    var stalls: [Double] = []
    /// The main thread's own CPU time over each gap: a long gap with little of it was the machine (another
    /// process had the core), not the main loop.
    var busy: [Double] = []

    private init(
        window: MainWindow, application: UnsafeMutablePointer<GtkApplication>, warmUp: Double,
        seconds: Double
    ) {
        self.window = window
        self.application = application
        let now = g_get_monotonic_time()
        last = now
        lastCPU = StallProbe.threadCPUMilliseconds()
        warmUpEnd = now + Int(warmUp * 1_000_000)
        end = warmUpEnd + Int(seconds * 1_000_000)
        stalls.reserveCapacity(Int(seconds * 1000 / StallProbe.periodMs) + 16)
        busy.reserveCapacity(stalls.capacity)
    }

    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    static func start(
        window: MainWindow, application: UnsafeMutablePointer<GtkApplication>, warmUp: Double,
        seconds: Double
    ) {
        let probe = StallProbe(window: window, application: application, warmUp: warmUp, seconds: seconds)
        MainContextSources.addTimeout(milliseconds: UInt32(periodMs)) { MainActor.assumeIsolated { probe.tick() } }
    }

    /// One call of the 2 ms timeout: records its lateness; at the end, reports and quits.
    private func tick() -> Bool {
        let now = g_get_monotonic_time()
        let stall = max(Double(now - last) / 1000 - StallProbe.periodMs, 0)
        let cpu = StallProbe.threadCPUMilliseconds()
        let used = cpu - lastCPU
        last = now
        lastCPU = cpu
        if now <= warmUpEnd {
            warmUpMax = max(warmUpMax, stall)
            return true
        }
        stalls.append(stall)
        busy.append(used)
        guard now >= end else { return true }
        report()
        g_application_quit(cast(application, to: GApplication.self))
        return false
    }

    private func report() {
        func percentile(_ sorted: [Double], _ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded()))]
        }
        let sorted = stalls.sorted()
        let sortedBusy = busy.sorted()
        let over = sorted.reduce(0) { $0 + ($1 > 16 ? 1 : 0) }
        let line = String(
            cFormat: "stall_p50_ms=%.2f stall_p99_ms=%.2f stall_max_ms=%.2f stall_samples=%ld "
                + "stall_over_16ms=%ld stall_busy_p99_ms=%.2f stall_busy_max_ms=%.2f "
                + "stall_warmup_max_ms=%.2f stall_rows=%ld\n",
            percentile(sorted, 50), percentile(sorted, 99), sorted.last ?? 0, sorted.count, over,
            percentile(sortedBusy, 99), sortedBusy.last ?? 0, warmUpMax, window.beacons.shownRows)
        StandardStreams.writeOutput(line)
    }
}
