import FaroCore
import FoundationEssentials

/// The rule every place that takes a backend URL applies (the terminal, the settings, Preferences): https, or plain
/// http only to this computer; a host, no query, no fragment, no user. Empty means "no backend".
public enum BackendURLRule {
    public enum Problem: Equatable, Sendable {
        case notAURL
        case notHTTPS
    }

    /// Why `text` cannot be the backend URL, nil when it can (or is empty).
    public static func problem(_ text: String) -> Problem? {
        var url = text.trimmingWhitespace()
        if url.isEmpty { return nil }
        while url.hasSuffix("/") { url.removeLast() }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host,
            !host.isEmpty, parsed.query == nil, parsed.fragment == nil, parsed.user == nil
        else { return .notAURL }
        switch scheme {
        case "https": return nil
        case "http": return LoopbackHost.contains(host) ? nil : .notHTTPS
        default: return .notAURL
        }
    }
}
