internal import CCurl
internal import CShim

/// libcurl's process-wide state. libcurl is opened, and `curl_global_init` run, by the first handle's lease, and
/// closed again once no handle has existed for a while (60 s, see `setIdleUnload`; CShim/curl_loader.c): a window
/// that never talks to the network never loads libcurl, and a tray app between two catalog pulls does not keep it
/// resident.
public enum CurlRuntime {
    /// Opens and starts libcurl if needed; false if libcurl cannot start (then every handle fails to be made). The
    /// library may be closed again after the idle time unless a handle is made.
    @discardableResult
    public static func initialize() -> Bool {
        guard faro_curl_acquire() else { return false }
        faro_curl_release()
        return true
    }

    /// Whether libcurl is open now (for tests and diagnostics).
    public static var isLoaded: Bool { faro_curl_is_loaded() }

    /// How many times libcurl was opened (and started) in this process.
    public static var loadCount: Int { Int(faro_curl_load_count()) }

    /// Seconds libcurl stays open once the last handle is gone (default 60; negative: until the process ends).
    public static func setIdleUnload(seconds: Double) { faro_curl_set_idle_unload(seconds) }

    /// Takes a lease for a handle being made; false (with `failureReason`) when libcurl cannot start.
    static func acquire() -> Bool { faro_curl_acquire() }

    /// Gives back a handle's lease, after the handle and everything libcurl allocated for it are freed.
    static func release() { faro_curl_release() }

    /// Why libcurl could not start, in libcurl's words (its loader names a missing library).
    static var failureReason: String { String(cString: curl_easy_strerror(CURLE_FAILED_INIT)) }
}
