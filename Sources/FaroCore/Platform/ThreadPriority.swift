import Glibc

/// The calling thread's scheduling priority. On Linux the nice value belongs to each thread (not the process, as
/// POSIX has it), and `setpriority(PRIO_PROCESS, 0, …)` changes only the caller's: a worker can step back without
/// slowing the main loop.
public enum ThreadPriority {
    /// Sets the calling thread's nice value; returns whether it took effect. The corresponding C function is
    /// `setpriority`.
    @discardableResult
    public static func setNice(_ value: Int32) -> Bool {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value) == 0
    }

    /// The calling thread's nice value. The corresponding C function is `getpriority`.
    public static func nice() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }
}
