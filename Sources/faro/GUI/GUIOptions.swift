/// The window's command line, declared once: `init` reads exactly the options `declared` holds (one of them, for
/// D-Bus activation, unlisted), and `faro --help`, `faro --demo --help`, faro(1) and the bash completion print
/// them (ProgramText.window).
struct GUIOptions {
    var demo = false
    /// `--gapplication-service`: GLib's D-Bus activation (the service file's Exec line), not for people.
    var service = false
    var noTray = false
    /// The autostart entry's: monitoring starts, no window opens (the tray or a notification opens it).
    var background = false
    var speed: Double = 1
    var sourceName: String?
    var replayFile: String?
    var adapter: String?
    var device: String?
    var backendURL: String?

    enum Option {
        static let demo = OptionSpec(
            "--demo",
            "The offline demo: the demo beacons and a private faro-backend on loopback serving the demo catalog "
                + "and sites, on a private profile that never touches your own data.")
        static let source = OptionSpec(
            "--source bluez|hci|replay FILE|demo", "Where advertisements come from (as for 'faro scan').")
        static let adapter = OptionSpec("--adapter hciN", "bluez: the adapter to use.")
        static let device = OptionSpec("--device hciN", "hci: the controller to use.")
        static let backend = OptionSpec(
            "--backend URL",
            "The backend's base URL (else $FARO_BACKEND, else the backend-url setting); https except for loopback.")
        static let speed = OptionSpec(
            "--speed X", "replay and demo: play the recording X times as fast.", range: 0.01...10_000)
        static let noTray = OptionSpec("--no-tray", "Show no tray icon.")
        static let background = OptionSpec(
            "--background",
            "Start monitoring without opening the window (what the \"start at login\" autostart entry runs).")
        /// GLib's D-Bus activation passes it; the help does not list it.
        static let service = OptionSpec(
            "--gapplication-service", "Started by D-Bus activation.", listed: false)
        static let declared = [demo, source, adapter, device, backend, speed, noTray, background, service]
    }

    /// `faro [--demo] [--source …] …`: every listed option, in its order.
    static var usage: String {
        (["faro"] + Option.declared.filter(\.listed).map { "[\($0.form)]" }).joined(separator: " ")
    }

    /// Takes the window's options out of `args` (the caller then calls `finish()`, which refuses anything else).
    init(_ args: inout Arguments) throws(UsageError) {
        demo = args.flag(Option.demo)
        service = args.flag(Option.service)
        noTray = args.flag(Option.noTray)
        background = args.flag(Option.background)
        speed = try args.number(Option.speed) ?? 1
        sourceName = try args.option(Option.source) ?? (demo ? "demo" : nil)
        replayFile = sourceName == "replay" ? try args.positional("FILE after --source replay") : nil
        adapter = try args.option(Option.adapter)
        device = try args.option(Option.device)
        backendURL = try args.option(Option.backend)
    }
}
