import FoundationEssentials

/// Where Faro's files are at run time, the same for `faro`, `faro-backend` and the window: an environment
/// variable first, then the installed layout (`<prefix>/bin/faro` → `<prefix>/share/…`), then the source tree
/// (walking up from the executable in `.build/…` to the folder that holds `data/`). The executable is the running
/// file itself (`RunningExecutable`), never the name it was started by.
public enum InstallLayout {
    /// Faro's data folder (demo recording, catalog, microsites): `$FARO_DATA_DIR`, `share/faro`, or `data/`.
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let env = environment["FARO_DATA_DIR"], !env.isEmpty { return env }
        return find(installed: "share/faro", sourceTree: "data", probe: "demo")
    }

    /// The translations: `$FARO_LOCALE_DIR`, the installed `share/locale` (when it holds Faro's catalog), or the
    /// source tree's `build/locale` (written by scripts/build-translations.sh).
    public static func localeDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let env = environment["FARO_LOCALE_DIR"], !env.isEmpty { return env }
        return find(installed: "share/locale", sourceTree: "build/locale", probe: "es/LC_MESSAGES/faro.mo")
    }

    /// The first of `<prefix>/installed` or an ancestor's `sourceTree` folder that contains `probe`.
    static func find(installed: String, sourceTree: String, probe: String) -> String? {
        guard let directory = RunningExecutable.directory else { return nil }
        return find(installed: installed, sourceTree: sourceTree, probe: probe, executableDirectory: directory)
    }

    /// The same search from the executable folder `executableDirectory`.
    static func find(installed: String, sourceTree: String, probe: String, executableDirectory: String) -> String? {
        let fm = FileManager.default
        let exe = URL(fileURLWithPath: executableDirectory)
        let prefix = exe.deletingLastPathComponent().appendingPathComponent(installed)
        if fm.fileExists(atPath: prefix.appendingPathComponent(probe).path) { return prefix.path }
        var dir = exe
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent(sourceTree)
            if fm.fileExists(atPath: candidate.appendingPathComponent(probe).path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }
}
