import FoundationEssentials

/// Faro's application id: the GtkApplication's D-Bus name, the GSettings schema, the desktop file, the icon and
/// the autostart entry all carry it. `io.github.faro.Faro` by default; a development-profile install
/// (`meson setup -Dprofile=development`) installs everything under `io.github.faro.Faro.Devel`, beside a regular
/// Faro, and writes that id to `share/faro/app-id`, which the installed binaries read at start. SwiftPM builds one
/// binary for both profiles, so the profile is a fact of the install, not of the build.
public enum AppIdentity {
    public static let standard = "io.github.faro.Faro"
    public static let development = standard + ".Devel"

    /// The id named by the `app-id` file in `dataDirectory` (the installed `share/faro`), or `standard` when there
    /// is none (the source tree, a default install). Anything but the two ids is refused with the reason, so that a
    /// damaged file never makes Faro look for a schema that no install has.
    public static func resolve(dataDirectory: String?) -> Result<String, AppIdentityError> {
        guard let dataDirectory else { return .success(standard) }
        let path = dataDirectory + "/app-id"
        guard FileManager.default.fileExists(atPath: path) else { return .success(standard) }
        guard let data = FileManager.default.contents(atPath: path), let text = String(bytes: data, encoding: .utf8)
        else { return .failure(AppIdentityError(path: path, found: "unreadable")) }
        let id = String(text.filter { !$0.isWhitespace })
        guard id == standard || id == development else { return .failure(AppIdentityError(path: path, found: id)) }
        return .success(id)
    }
}

/// An `app-id` file that names neither of Faro's ids.
public struct AppIdentityError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let found: String
    public var description: String {
        "\(path) names the application id '\(found)'; expected \(AppIdentity.standard) or \(AppIdentity.development)"
    }
}
