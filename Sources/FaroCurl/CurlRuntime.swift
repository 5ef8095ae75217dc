internal import CCurl

/// libcurl's process-wide state: `curl_global_init` exactly once, before the first handle. Every handle asks for it
/// first (a thread-safe static initializer; libcurl itself is opened by that first call, see CShim/curl_loader.c),
/// so a window that never talks to the network never loads libcurl.
public enum CurlRuntime {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Initialises libcurl; returns false if libcurl could not start (then every handle fails to be made).
    @discardableResult
    public static func initialize() -> Bool { initialized }

    /// Why libcurl could not start, in libcurl's words (its loader names a missing library).
    static var failureReason: String { String(cString: curl_easy_strerror(CURLE_FAILED_INIT)) }
}
