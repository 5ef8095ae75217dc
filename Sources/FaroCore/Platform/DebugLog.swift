#if canImport(Glibc)
    import Glibc
#endif

/// Faro's debug log: one line per event on stderr, written only when `G_MESSAGES_DEBUG` names `faro` (or `all`), as
/// GLib's own debug messages are. Off by default, so nothing of it reaches a user's terminal.
public enum DebugLog {
    /// Whether debug lines are written (read once from the environment).
    public static let isEnabled: Bool = {
        guard let value = getenv("G_MESSAGES_DEBUG") else { return false }
        let domains = String(cString: value).split { $0 == " " || $0 == "," }
        return domains.contains("faro") || domains.contains("all")
    }()

    /// Writes `faro-DEBUG: <topic>: <line>` when the debug log is on; `line` is built only then.
    public static func write(_ topic: String, _ line: @autoclosure () -> String) {
        guard isEnabled else { return }
        StandardStreams.writeError("faro-DEBUG: \(topic): \(line())\n")
    }
}
