/// The window's command line, declared once: `parse` reads exactly the options `help` lists (and the one for D-Bus
/// activation), and `faro --help`, `faro --demo --help`, faro(1) and the bash completion print `help`
/// (ProgramText.window).
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

    /// Every option the window takes, as its help lists them.
    static let help: [OptionHelp] = [
        OptionHelp(
            "--demo",
            "The offline demo: the demo beacons and a private faro-backend on loopback serving the demo catalog "
                + "and sites, on a private profile that never touches your own data."),
        OptionHelp("--source bluez|hci|replay FILE|demo", "Where advertisements come from (as for 'faro scan')."),
        OptionHelp("--adapter hciN", "bluez: the adapter to use."),
        OptionHelp("--device hciN", "hci: the controller to use."),
        OptionHelp(
            "--backend URL",
            "The backend's base URL (else $FARO_BACKEND, else the backend-url setting); https except for loopback."),
        OptionHelp("--speed X", "replay and demo: play the recording X times as fast."),
        OptionHelp("--no-tray", "Show no tray icon."),
        OptionHelp(
            "--background",
            "Start monitoring without opening the window (what the \"start at login\" autostart entry runs)."),
    ]

    /// Options the parser takes that the help does not list: GLib's D-Bus activation passes this one.
    static let unlisted = ["--gapplication-service"]

    /// `faro [--demo] [--source …] …`: every option of `help`, in its order.
    static var usage: String { (["faro"] + help.map { "[\($0.form)]" }).joined(separator: " ") }

    /// Takes the window's options out of `args` (the caller then calls `finish()`, which rejects anything else).
    static func parse(_ args: inout Arguments) throws(UsageError) -> GUIOptions {
        var options = GUIOptions()
        options.demo = args.flag("--demo")
        options.service = args.flag("--gapplication-service")
        options.noTray = args.flag("--no-tray")
        options.background = args.flag("--background")
        options.speed = try args.number("--speed", in: 0.01...10_000) ?? 1
        options.sourceName = try args.option("--source") ?? (options.demo ? "demo" : nil)
        options.replayFile = options.sourceName == "replay" ? try args.positional("FILE after --source replay") : nil
        options.adapter = try args.option("--adapter")
        options.device = try args.option("--device")
        options.backendURL = try args.option("--backend")
        return options
    }
}
