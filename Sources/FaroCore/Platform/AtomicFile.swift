#if canImport(Glibc)
    import Glibc
#endif

/// Why a file could not be written: `problem` is the value a window words in the user's language; `reason` the
/// same in English for the terminal and logs ("no such folder", "permission denied", "the disk is full").
public struct FileWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: FileWriteProblem
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }

    public init(path: String, problem: FileWriteProblem, reason: String) {
        self.path = path
        self.problem = problem
        self.reason = reason
    }
}

/// What kept a file from being written.
public enum FileWriteProblem: Equatable, Sendable {
    case noSuchFolder
    case permissionDenied
    case diskFull
    case isFolder
    case other

    public init(errno code: Int32) {
        switch code {
        case ENOENT: self = .noSuchFolder
        case EACCES, EPERM, EROFS: self = .permissionDenied
        case ENOSPC, EDQUOT: self = .diskFull
        case EISDIR: self = .isFolder
        default: self = .other
        }
    }
}

/// Writing a whole file so that readers see the old content or the new one, never half of it: the bytes go to a
/// temporary file in the same folder, reach the disk (`fsync`), replace the target with `rename`, and the folder
/// itself is synced so the rename survives a crash. The temporary file is created with `O_EXCL | O_NOFOLLOW` under
/// an unpredictable name, so another user of a shared folder can neither guess it nor plant a link there for Faro to
/// write through. A failure leaves the target as it was and removes the temporary file.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(FileWriteError) {
        var generator = SystemRandomNumberGenerator()
        try write(bytes, to: path, permissions: permissions) { randomName(&generator) }
    }

    /// `write` with the temporary names drawn from `nextName` (tests plant files under the first one).
    static func write(
        _ bytes: [UInt8], to path: String, permissions: mode_t, nextName: () -> String
    ) throws(FileWriteError) {
        func failure(_ code: Int32) -> FileWriteError {
            FileWriteError(path: path, problem: FileWriteProblem(errno: code), reason: reason(code))
        }
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = path + ".part-" + nextName()
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure(errno) }
        let code = POSIXWrite.all(bytes, to: fd)
        if code != 0 {
            close(fd)
            unlink(temporary)
            throw failure(code)
        }
        if fsync(fd) != 0 || close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw failure(code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(code)
        }
        let synced = syncDirectory(of: path)
        // Some file systems cannot sync a folder (EINVAL); the file itself is on disk either way.
        if synced != 0 && synced != EINVAL { throw failure(synced) }
    }

    /// 16 random letters and digits (about 95 bits).
    static func randomName(_ generator: inout SystemRandomNumberGenerator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        var name = ""
        for _ in 0..<16 {
            name.unicodeScalars.append(
                Unicode.Scalar(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))]))
        }
        return name
    }

    /// `fsync` of the folder holding `path`: 0, or the `errno` of the call that failed.
    static func syncDirectory(of path: String) -> Int32 {
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        return fsync(fd) == 0 ? 0 : errno
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such folder"
        case EACCES, EPERM, EROFS: return "permission denied"
        case ENOSPC, EDQUOT: return "the disk is full"
        case EISDIR: return "it is a folder"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
