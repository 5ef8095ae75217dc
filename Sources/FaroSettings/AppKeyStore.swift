import FaroCore
import FoundationEssentials
import Glibc

/// Why the app key could not be read, stored or removed, said so that the user can act.
public enum AppKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The Secret Service answered with an error.
    case secretService(String)
    /// The keyring that holds (or would hold) the key is locked, and no prompt could unlock it.
    case keyringLocked
    /// The fallback file cannot be read or written.
    case file(path: String, reason: String)
    /// The fallback file is readable by other users, so the key may have leaked and is not used.
    case exposed(path: String, mode: UInt32)
    /// The key is empty or spans several lines.
    case invalid(String)

    public var description: String {
        switch self {
        case .secretService(let message): return "the Secret Service refused: \(message)"
        case .keyringLocked:
            return "the keyring that keeps the app key is locked: unlock it (log in to the desktop session, or open "
                + "Passwords and Keys) and try again, or give the key in $FARO_APP_KEY"
        case .file(let path, let reason): return "\(path): \(reason)"
        case .exposed(let path, let mode):
            return "\(path) is readable by other users (mode \(String(mode, radix: 8))): the key in it is not used; "
                + "run 'chmod 600 \(path)' if only you could read it, else store a new key"
        case .invalid(let why): return "not a usable app key: \(why)"
        }
    }
}

/// The backend's app key (`ZUMO-API-KEY`): a secret, so not a setting. Kept in the Secret Service (the desktop's
/// keyring, through libsecret) when one is on the session bus, else in a file only its owner can read
/// (`$XDG_CONFIG_HOME/faro/app-key`, mode 0600).
public struct AppKeyStore: Sendable {
    public enum Location: Sendable, Equatable {
        case secretService
        case file(String)
    }

    public let location: Location

    public init(location: Location) { self.location = location }

    /// The store this session uses: the Secret Service when one can be reached, else the file.
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> AppKeyStore {
        if SecretServiceProbe.isAvailable(environment: environment) { return AppKeyStore(location: .secretService) }
        return AppKeyStore(location: .file(filePath(environment: environment)))
    }

    /// `$XDG_CONFIG_HOME/faro/app-key` (`~/.config` when unset or relative).
    public static func filePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/faro/app-key" }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.config/faro/app-key"
    }

    /// Where the key is kept, in a sentence for `faro --help` and `faro app-key`.
    public var summary: String {
        switch location {
        case .secretService:
            return "The app key (ZUMO-API-KEY) is kept in the Secret Service (the desktop's keyring, through "
                + "libsecret), found on this session bus."
        case .file(let path):
            return "The app key (ZUMO-API-KEY) is kept in \(path) (mode 0600): no Secret Service is on this session "
                + "bus."
        }
    }

    /// The stored key, or nil when there is none.
    public func read() throws(AppKeyError) -> String? {
        switch location {
        case .secretService: return try SecretServiceItem.lookup()
        case .file(let path): return try Self.readFile(path)
        }
    }

    /// Stores `key` (one line, surrounding spaces dropped), replacing any earlier one.
    public func store(_ key: String) throws(AppKeyError) {
        let trimmed = key.trimmedLine
        guard !trimmed.isEmpty else { throw .invalid("it is empty") }
        guard !trimmed.contains(where: \.isNewline) else { throw .invalid("it spans several lines") }
        switch location {
        case .secretService: try SecretServiceItem.store(trimmed)
        case .file(let path): try Self.writeFile(path, trimmed)
        }
    }

    /// Removes the stored key (nothing happens when there is none).
    public func remove() throws(AppKeyError) {
        switch location {
        case .secretService: try SecretServiceItem.clear()
        case .file(let path):
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .file(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    static func readFile(_ path: String) throws(AppKeyError) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .file(path: path, reason: String(cString: strerror(errno)))
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else { throw .exposed(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .file(path: path, reason: "cannot be read")
        }
        let key = String(decoding: data, as: UTF8.self).trimmedLine
        return key.isEmpty ? nil : key
    }

    static func writeFile(_ path: String, _ key: String) throws(AppKeyError) {
        let folder = path.parentDirectoryPath
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .file(path: folder, reason: "cannot create the folder")
            }
        }
        do { try AtomicFile.write(Array((key + "\n").utf8), to: path, permissions: 0o600) } catch {
            throw .file(path: path, reason: error.reason)
        }
    }
}

extension String {
    /// The text without the spaces, tabs and line breaks around it.
    var trimmedLine: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
