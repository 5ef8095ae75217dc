internal import CGtk
import FaroCore
import FaroInstall
import FoundationEssentials

/// "Start at login": the XDG autostart entry `$XDG_CONFIG_HOME/autostart/<app id>.desktop`
/// (`io.github.faro.Faro.desktop`; a development-profile install has its own), which starts this very binary with
/// `--background` (monitoring without a window) when the user logs in.
@MainActor
struct Autostart {
    let appID: String

    var fileName: String { appID + ".desktop" }

    /// Where the entry lives (GLib's user config dir honours `XDG_CONFIG_HOME`).
    var path: String {
        String(cString: g_get_user_config_dir()) + "/autostart/" + fileName
    }

    var isEnabled: Bool { FileManager.default.fileExists(atPath: path) }

    /// The running executable's absolute path (what `Exec` starts); nil without `/proc`.
    static var executable: String? { RunningExecutable.path }

    /// The entry's text for `executable`.
    func entry(executable: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=Faro
        Comment=\(I18n.tr("Finds the beacons near you and opens the sites of their places."))
        Exec=\(Autostart.quote(executable)) --background
        Icon=\(appID)
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
    }

    /// An `Exec` argument quoted as the Desktop Entry spec asks when it holds reserved characters.
    static func quote(_ argument: String) -> String {
        let reserved: Set<Character> = [
            " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?",
            "#", "(", ")", "`", "=", "%",
        ]
        guard argument.contains(where: reserved.contains) else { return argument }
        var out = ""
        for c in argument {
            if "\"`$\\".contains(c) { out += "\\\\" }
            out.append(c == "%" ? "%%" : String(c))
        }
        return "\"" + out + "\""
    }

    /// Writes the entry (on) or removes it (off).
    func set(_ enabled: Bool) throws {
        let fm = FileManager.default
        if enabled {
            let folder = path.parentDirectoryPath
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Without /proc there is no path of this binary to start at login.
            guard let executable = Autostart.executable else { throw CocoaError(.fileReadNoSuchFile) }
            try AtomicFile.write(Array(entry(executable: executable).utf8), to: path)
        } else if fm.fileExists(atPath: path) {
            try fm.removeItem(atPath: path)
        }
    }
}
