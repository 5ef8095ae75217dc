internal import CGtk
import FaroCore
import FaroGLib
import FoundationEssentials

/// Timings printed for `bench/window` and `bench/web` (bench/README.md), read from the environment when the main
/// window is created. They only print: the benchmark reads the line and ends the process itself. Without these
/// variables nothing here runs.
///
/// - `FARO_TIMINGS=1`: prints `frame=first` once the main window's first frame is drawn, and `frame=rows` once a
///   frame with at least one row in the beacon list is drawn. Each time "Lugares visitados" is shown, at the end of
///   the first frame painted with its rows, it prints `frame=visits visits_first_screen_ms=…` (from the moment the
///   page began to read its visits, or the first time to be built), `visits_first_screen_cpu_ms=…` (the main thread's
///   CPU time over the same span), `visits_first_screen_wait_ms=…` (the time over the same span it was ready to run
///   but waited for a core: other processes had them) and `visits_rows=…` (the visit rows it holds then).
/// - `FARO_STALL_PROBE=SECONDS`: a 2 ms timeout on the main loop records how late each call comes (the gap since the
///   previous call minus the period); after `FARO_STALL_WARMUP` seconds (default 5: the list fills up) it measures
///   for SECONDS, then prints `stall_p99_ms=… stall_max_ms=… stall_samples=…` (and the stalls over 16 ms, the main
///   thread's own CPU time per gap, the warm-up's worst stall, the beacons listed and the rows built for them, and the charts of beacon pages
///   drawn while it measured) to stdout.
@MainActor
enum TimingReport {
    /// Installs what the environment asks for on a newly created main window.
    /// `visits` gives "Lugares visitados" once it is built (it is built when first shown).
    static func attach(_ window: MainWindow, visits: @escaping @MainActor () -> VisitsPage?) {
        let env = ProcessInfo.processInfo.environment
        if let mode = env["FARO_TIMINGS"], !mode.isEmpty, mode != "0" {
            reportFrames(window, visits: visits)
        }
        if let text = env["FARO_STALL_PROBE"], let seconds = Double(text), seconds > 0 {
            let warmUp = env["FARO_STALL_WARMUP"].flatMap(Double.init) ?? 5
            StallProbe.start(window: window, warmUp: max(warmUp, 0), seconds: seconds)
        }
    }

    /// A "draw" handler on the toplevel (it runs for every frame the window paints) that prints the first frame and
    /// the first frame with rows, then stays quiet.
    private static func reportFrames(_ window: MainWindow, visits: @escaping @MainActor () -> VisitsPage?) {
        var first = true
        var rows = true
        Signal.connect(
            window.window, "draw",
            event: { _ in
                if first {
                    first = false
                    StandardStreams.writeOutput("frame=first\n")
                    reportVisitsFrames(window, visits: visits)
                }
                if rows, window.beacons.shownRows > 0 {
                    rows = false
                    StandardStreams.writeOutput("frame=rows\n")
                }
                return false
            })
    }
}

extension TimingReport {
    /// The calling thread's CPU time, milliseconds.
    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    /// How long the calling thread has been ready to run but waiting for a core (the kernel's run-queue delay, the
    /// second field of `/proc/thread-self/schedstat`), milliseconds; 0 where the kernel does not keep it.
    static func threadWaitMilliseconds() -> Double {
        var contents: UnsafeMutablePointer<gchar>?
        guard g_file_get_contents("/proc/thread-self/schedstat", &contents, nil, nil) != 0, let contents else {
            return 0
        }
        defer { g_free(contents) }
        let fields = String(cString: contents).split(separator: " ")
        guard fields.count > 1, let nanoseconds = Double(fields[1]) else { return 0 }
        return nanoseconds / 1_000_000
    }

    /// A moment on the calling thread: monotonic time (µs), and its CPU time and time waiting for a core so far (ms).
    struct Mark: Equatable {
        var monotonic: Int
        var cpu: Double
        var waited: Double

        @MainActor static func now() -> Mark {
            Mark(monotonic: g_get_monotonic_time(), cpu: threadCPUMilliseconds(), waited: threadWaitMilliseconds())
        }
    }

    /// After each frame is painted (the frame clock's "after-paint"): the first one that shows the rows of a new
    /// reading of "Lugares visitados".
    fileprivate static func reportVisitsFrames(
        _ window: MainWindow, visits page: @escaping @MainActor () -> VisitsPage?
    ) {
        guard let clock = gtk_widget_get_frame_clock(window.window) else { return }
        var reported = 0
        Signal.connect(clock, "after-paint") { () -> Void in
            guard let visits = page(), visits.reloadStarted.monotonic != reported, visits.visitRows > 0,
                window.visiblePage == "visits"
            else { return }
            let started = visits.reloadStarted
            reported = started.monotonic
            let now = Mark.now()
            StandardStreams.writeOutput(
                String(
                    cFormat: "frame=visits visits_first_screen_ms=%.2f visits_first_screen_cpu_ms=%.2f "
                        + "visits_first_screen_wait_ms=%.2f visits_rows=%ld\n",
                    Double(now.monotonic - started.monotonic) / 1000, now.cpu - started.cpu,
                    now.waited - started.waited, visits.visitRows))
        }
    }
}

/// The main-loop stall probe behind `FARO_STALL_PROBE`.
@MainActor
private final class StallProbe {
    static let periodMs = 2.0

    let window: MainWindow
    let warmUpEnd: Int
    let end: Int
    var last: Int
    var lastCPU: Double
    var warmUpMax = 0.0
    /// Beacon pages' charts drawn before the measured span began.
    var chartsBefore: Int?
    var stalls: [Double] = []
    /// The main thread's own CPU time over each gap: a long gap with little of it was the machine (another
    /// process had the core), not the main loop.
    var busy: [Double] = []

    private init(window: MainWindow, warmUp: Double, seconds: Double) {
        self.window = window
        let now = g_get_monotonic_time()
        last = now
        lastCPU = StallProbe.threadCPUMilliseconds()
        warmUpEnd = now + Int(warmUp * 1_000_000)
        end = warmUpEnd + Int(seconds * 1_000_000)
        stalls.reserveCapacity(Int(seconds * 1000 / StallProbe.periodMs) + 16)
        busy.reserveCapacity(stalls.capacity)
    }

    static func threadCPUMilliseconds() -> Double { TimingReport.threadCPUMilliseconds() }

    static func start(window: MainWindow, warmUp: Double, seconds: Double) {
        let probe = StallProbe(window: window, warmUp: warmUp, seconds: seconds)
        MainContextSources.addTimeout(milliseconds: UInt32(periodMs)) { MainActor.assumeIsolated { probe.tick() } }
    }

    /// One call of the 2 ms timeout: records its lateness; at the end, reports and stops.
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
        if chartsBefore == nil { chartsBefore = BeaconPage.chartsDrawn }
        stalls.append(stall)
        busy.append(used)
        guard now >= end else { return true }
        report()
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
                + "stall_warmup_max_ms=%.2f stall_rows=%ld stall_built_rows=%ld stall_charts_drawn=%ld\n",
            percentile(sorted, 50), percentile(sorted, 99), sorted.last ?? 0, sorted.count, over,
            percentile(sortedBusy, 99), sortedBusy.last ?? 0, warmUpMax, window.beacons.listedRows,
            window.beacons.shownRows, BeaconPage.chartsDrawn - (chartsBefore ?? BeaconPage.chartsDrawn))
        StandardStreams.writeOutput(line)
    }
}
