#if canImport(Glibc)
    import Glibc
#endif

/// Writing all of a buffer to a file descriptor, retrying short writes and interrupted calls. The corresponding C
/// function is `write`.
enum POSIXWrite {
    /// Returns 0 once every byte is written, or the `errno` of the write that failed.
    static func all(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
