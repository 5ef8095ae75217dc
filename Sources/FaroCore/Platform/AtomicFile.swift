#if canImport(Glibc)
    import Glibc
#endif

/// Why a file could not be written, in words a user can act on ("no such folder", "permission denied", "the disk
/// is full").
public struct FileWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Writing a whole file so that readers see the old content or the new one, never half of it: the bytes go to a
/// temporary file in the same folder, reach the disk (`fsync`), and replace the target with `rename`. A failure
/// leaves the target as it was and removes the temporary file.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(FileWriteError) {
        func failure(_ code: Int32) -> FileWriteError { FileWriteError(path: path, reason: reason(code)) }
        let temporary = path + ".part-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)
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
