import FaroCore
import FaroSettings
import Glibc

/// `faro app-key [set|clear]`: where the backend's app key is kept, storing it (read from stdin, so it never shows
/// in `ps` or the shell history) and removing it. The key itself is never printed.
enum AppKeyCommand {
    static let help = CommandHelp(
        name: "app-key", synopsis: ["faro app-key", "faro app-key set", "faro app-key clear"],
        summary: "Store or remove the backend's app key (in the keyring, else a 0600 file).",
        description: """
            The backend's app key (sent as ZUMO-API-KEY) is a secret, not a setting: Faro keeps it in the Secret \
            Service (the desktop's keyring, through libsecret) when one is on the session bus, and otherwise in \
            ~/.config/faro/app-key, readable by you only (mode 0600). 'faro app-key' says which and whether a key is \
            stored; 'set' reads the key from standard input (one line), 'clear' removes it. $FARO_APP_KEY, when \
            set, is used ahead of the stored key. A Faro window already running reads the key again at once. A key in \
            a locked keyring is neither read nor removed (no password prompt is raised): unlock the keyring first.
            """,
        actions: ["set", "clear"],
        examples: [
            ExampleHelp(
                "secret-tool lookup service azure | faro app-key set",
                "Stores the key another tool prints, without it ever appearing on a command line.")
        ])

    static func run(_ arguments: Arguments) throws -> Int32 {
        var args = arguments
        let action = try? args.positional("action")
        try args.finish()
        let store = AppKeyStore.standard()
        do {
            switch action {
            case nil:
                Output.line(store.summary)
                Output.line(try store.read() == nil ? "No app key is stored." : "An app key is stored.")
            case "set":
                guard let key = readLine(strippingNewline: true) else {
                    throw CommandFailure(
                        description: "no app key on standard input (pipe it in: ... | faro app-key set)")
                }
                try store.store(key)
                Output.line("The app key is stored (\(place(store))).")
                tellRunningWindow()
            case "clear":
                try store.remove()
                Output.line("No app key is stored now (\(place(store))).")
                tellRunningWindow()
            case let other?:
                throw UsageError(description: "unknown app-key action '\(other)' (use set or clear)")
            }
        } catch let error as AppKeyError {
            throw CommandFailure(description: error.description)
        }
        return 0
    }

    /// A window already running reads the key again at once (rows it kept waiting on a refused key are sent).
    static func tellRunningWindow() {
        if RunningInstance.activate("reload-backend", appID: InstalledAppID.resolve()) {
            Output.line("The running Faro window was told to read it again.")
        }
    }

    static func place(_ store: AppKeyStore) -> String {
        switch store.location {
        case .secretService: return "in the Secret Service"
        case .file(let path): return "in \(path)"
        }
    }
}
