internal import CGtk
import FaroGLib

/// The work Faro starts once its window is on screen, because the first frame does not need it: the tray icon,
/// reading the app key from the keyring, the catalog's worker with its first pull, the outbox
/// (`GUIEnvironment.afterFirstFrame`).
/// Started before, it ran beside GTK's own start: libcurl with its TLS and Kerberos libraries, libsecret's session
/// and the keyring daemon's D-Bus activation took the second core and the dynamic loader's lock while GTK opened
/// the display (bench/window: the first frame came 10–15 ms later, and with 10 MB more resident).
///
/// It runs once, whichever comes first: behind the main window's first frame (an idle below `G_PRIORITY_LOW`
/// after the frame is drawn: bench/window's quit behind that frame comes first, so its first-frame runs time the
/// launch and its runs with rows include this work), at once when Faro starts without a window (`--background`),
/// or `fallbackMilliseconds` after start-up (a window that is never drawn: minimised at once, or a D-Bus
/// activation that opens none).
@MainActor
final class LaunchWork {
    static let fallbackMilliseconds: UInt32 = 2000

    private var work: [@MainActor () -> Void]
    private var done = false

    init(_ work: (@MainActor () -> Void)?) { self.work = work.map { [$0] } ?? [] }

    /// Adds work to run before what is already there; runs it at once when the launch work has already run.
    func prepend(_ first: @escaping @MainActor () -> Void) {
        if done { first() } else { work.insert(first, at: 0) }
    }

    /// Starts the fallback timer (call once, from the application's startup).
    func armFallback() {
        guard !work.isEmpty else { return }
        MainContextSources.addTimeout(milliseconds: Self.fallbackMilliseconds) { [weak self] in
            MainActor.assumeIsolated { self?.run() }
            return false
        }
    }

    /// Runs the work behind `window`'s first drawn frame.
    func runAfterFirstFrame(of window: UnsafeMutablePointer<GtkWidget>?) {
        guard !work.isEmpty, let window else { return }
        let handler = HandlerID()
        handler.value = Signal.connect(
            window, "draw",
            event: { [weak self] _ in
                g_signal_handler_disconnect(window, handler.value)
                MainContextSources.addIdle(priority: .last) {
                    MainActor.assumeIsolated { self?.run() }
                    return false
                }
                return false
            })
    }

    /// The "draw" handler, disconnected by its own first call.
    private final class HandlerID {
        var value: UInt = 0
    }

    /// Runs the work now, if it has not run yet.
    func run() {
        guard !done else { return }
        done = true
        let work = self.work
        self.work = []
        for step in work { step() }
    }
}
