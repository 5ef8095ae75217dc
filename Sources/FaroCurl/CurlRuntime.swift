internal import CCurl
internal import CShim

/// libcurl's process-wide state. libcurl is opened, and `curl_global_init` run, when the first handle is made
/// (CShim/curl_loader.c), and stays open: a window that never talks to the network never loads libcurl.
public enum CurlRuntime {
    /// Opens and starts libcurl if needed; false if libcurl cannot start (then every handle fails to be made).
    @discardableResult
    public static func initialize() -> Bool { faro_curl_load() }

    /// Whether libcurl is open now (for tests and diagnostics).
    public static var isLoaded: Bool { faro_curl_is_loaded() }

    /// Why libcurl could not start, in libcurl's words (its loader names a missing library).
    static var failureReason: String { String(cString: curl_easy_strerror(CURLE_FAILED_INIT)) }
}
