import FaroCommandLine

/// `faro`'s own help, beside each command's: the window (the program run without a command), `help`, and what the
/// manual page says about the environment, files and exit status. `faro --help`, `faro help CMD`, `faro CMD
/// --help`, faro(1) and the bash completion are all made from `program`.
enum ProgramText {
    static let window = CommandHelp(
        name: "", synopsis: [GUIOptions.usage],
        summary: "Open the window.",
        description: """
            Without a command, faro opens its window (a single-instance GTK application, app id \
            io.github.faro.Faro): the places near you with their distance, nearest first; a place's site, always \
            fresh from the network; Guardados (saved pages, offline); "Mis datos de contacto" and "Registrar mi \
            negocio". Background monitoring goes on while the window is closed (in the tray) and raises a zone \
            notification when you walk into a catalogued place; it can be turned off or paused from the window's \
            menu or the tray. The default source is BlueZ when bluetoothd is on the system bus, else the demo.
            """,
        options: GUIOptions.Option.declared,
        examples: [ExampleHelp("faro --demo", "Opens the window on the demo: every feature works offline.")])

    /// `faro help`'s options.
    enum HelpOption {
        static let command = OptionSpec("COMMAND", "The command to explain.")
        static let man = OptionSpec("--man", "Print the manual page faro(1), in roff.")
        static let bashCompletion = OptionSpec("--bash-completion", "Print the bash completion script.")
    }

    static let help = CommandHelp(
        name: "help",
        synopsis: ["faro help [COMMAND]", "faro help --man", "faro help --bash-completion"],
        summary: "Show the help of faro or of one command.",
        description: """
            Prints the usage of every command, or of one command with its options and an example (the same as \
            'faro COMMAND --help'). --man prints the manual page faro(1) and --bash-completion the completion \
            script, both made from this same help text (meson installs them).
            """,
        options: [
            HelpOption.command, HelpOption.man, HelpOption.bashCompletion,
        ],
        examples: [ExampleHelp("faro help register", "Explains 'faro register', its options and an example.")])

    static func program(commands: [CommandHelp]) -> ProgramHelp {
        ProgramHelp(
            name: "faro", version: FaroVersion.string,
            summary: "listens for iBeacons and opens the microsites tied to them",
            description: """
                Faro is a beacon companion for the Linux desktop. It listens for Bluetooth LE iBeacons, shows the \
                places near you with their approximate distance and opens the site each business tied to its \
                beacon. Besides the window, the commands below are a stable interface for scripts: their output \
                formats do not change.
                """,
            commands: [window] + commands + [help],
            options: [
                OptionSpec("-h, --help", "Show the usage of every command and exit."),
                OptionSpec("--version", "Show faro's version and exit."),
            ],
            environment: [
                OptionHelp("FARO_BACKEND", "The backend's base URL, when --backend is not given."),
                OptionHelp(
                    "FARO_APP_KEY", "The backend's app key (ZUMO-API-KEY), ahead of the one stored with 'faro app-key'."
                ),
                OptionHelp(
                    "FARO_TABLE_BEACONS, FARO_TABLE_INTERESTED, FARO_TABLE_CONTACTAME, FARO_TABLE_RATEME",
                    "Backend table names, ahead of the table-* settings."),
                OptionHelp("FARO_DATA_DIR", "The demo data folder (default /usr/share/faro)."),
                OptionHelp("FARO_LOCALE_DIR", "The translations folder (default /usr/share/locale)."),
                OptionHelp(
                    "XDG_DATA_HOME, XDG_CONFIG_HOME",
                    "Where Faro keeps its data and its app key file: one variable gives a second profile."),
                OptionHelp(
                    "GSETTINGS_BACKEND, GSETTINGS_SCHEMA_DIR",
                    "GLib's: where settings are kept (keyfile: in XDG_CONFIG_HOME) and an extra schema folder."),
            ],
            files: [
                OptionHelp(
                    "~/.local/share/faro/faro.sqlite3",
                    "Faro's data: contact details, the catalog cache, Guardados, the outbox (mode 0600)."),
                OptionHelp("~/.config/faro/app-key", "The app key, when no Secret Service is available (mode 0600)."),
                OptionHelp(
                    "~/.config/autostart/io.github.faro.Faro.desktop", "Present while \"start at login\" is on."),
                OptionHelp("/usr/share/faro/demo", "The demo recording, catalog and sites."),
                OptionHelp(
                    "/usr/share/glib-2.0/schemas/io.github.faro.Faro.gschema.xml",
                    "The settings schema: 'gsettings list-recursively io.github.faro.Faro' shows every setting."),
            ],
            exitStatus: "0 success, 1 failure (one line on stderr says why), 2 usage error.",
            seeAlso: ["faro-backend(1)", "gsettings(1)", "secret-tool(1)"])
    }
}
