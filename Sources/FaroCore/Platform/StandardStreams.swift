#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered writes to standard output and standard error: each call is whole `write`s, so a pipe reader (or a
/// test) sees every line as it happens. The corresponding C function is `write`.
public enum StandardStreams {
    public static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }
    public static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to fd: Int32) {
        _ = POSIXWrite.all(Array(text.utf8), to: fd)  // a closed pipe: nothing else to do with the text
    }
}
