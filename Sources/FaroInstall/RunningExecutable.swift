import FoundationEssentials

/// The running executable's own file, as the kernel records it in `/proc/self/exe`: the one way Faro finds its
/// files (data, translations, schemas, `faro-backend`), whatever name or path started it. `argv[0]` is not a path
/// to rely on: a shell that finds `faro` through `PATH` passes the bare name, and a launcher may pass anything.
public enum RunningExecutable {
    /// The executable's absolute path with symbolic links resolved, or nil when `/proc` is not mounted.
    public static var path: String? {
        guard var path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        // A binary replaced on disk while it runs (a rebuild, a package upgrade) reads as "<path> (deleted)".
        let deleted = " (deleted)"
        if path.hasSuffix(deleted), !FileManager.default.fileExists(atPath: path) {
            path.removeLast(deleted.count)
        }
        return path
    }

    /// The folder holding the executable (`<prefix>/bin` when installed, `.build/<configuration>` in the source tree).
    public static var directory: String? {
        path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }
}
