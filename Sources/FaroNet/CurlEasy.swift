internal import CCurl
internal import CShim.Curl
import FaroCore
import FoundationEssentials

/// libcurl's global state: `curl_global_init` exactly once, before the first handle. Every transfer calls
/// `Curl.initialize()` first (a thread-safe static initializer; libcurl itself is opened by that first call, see
/// CShim/curl_loader.c), so a window that never talks to the network never loads libcurl.
public enum Curl {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Initialises libcurl; returns false if libcurl could not start (then every request fails).
    @discardableResult
    public static func initialize() -> Bool { initialized }
}

/// One HTTP answer as received.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header lines of the final response, names as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Connections libcurl had to open for this request (0 when it reused a kept-alive one).
    public var newConnections: Int = 0

    /// A header's value (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.last(where: { $0.name.lowercased() == name.lowercased() })?.value
    }
}

/// Where libcurl writes the body and headers of one transfer; `limit` caps the body.
final class TransferBuffer {
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    let limit: Int
    var overflowed = false

    init(limit: Int) { self.limit = limit }
}

/// One reusable libcurl easy handle (connections are kept alive between requests), used by one thread at a time.
/// Every option that matters for safety is set once here: no redirects, http/https only, TLS verified, timeouts.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer

    /// Why a handle could not be made.
    struct SetupError: Error {}

    init(connectTimeout: Double, totalTimeout: Double) throws(SetupError) {
        Curl.initialize()
        guard let h = curl_easy_init() else { throw SetupError() }
        handle = h
        faro_curl_easy_setopt_long(h, CURLOPT_NOSIGNAL, 1)
        faro_curl_easy_setopt_long(h, CURLOPT_FOLLOWLOCATION, 0)
        faro_curl_easy_setopt_string(h, CURLOPT_PROTOCOLS_STR, "http,https")
        faro_curl_easy_setopt_long(h, CURLOPT_SSL_VERIFYPEER, 1)
        faro_curl_easy_setopt_long(h, CURLOPT_SSL_VERIFYHOST, 2)
        faro_curl_easy_setopt_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
        faro_curl_easy_setopt_long(h, CURLOPT_TIMEOUT_MS, Int(totalTimeout * 1000))
        faro_curl_easy_setopt_long(h, CURLOPT_TCP_KEEPALIVE, 1)
        faro_curl_easy_setopt_long(h, CURLOPT_TCP_NODELAY, 1)
        faro_curl_easy_setopt_string(h, CURLOPT_USERAGENT, "Faro/1.0 (Linux)")
        faro_curl_easy_setopt_data_callback(h, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            guard let user else { return 0 }
            let buffer = Unmanaged<TransferBuffer>.fromOpaque(user).takeUnretainedValue()
            let n = size * count
            if buffer.body.count + n > buffer.limit {
                buffer.overflowed = true
                return 0  // makes libcurl stop with CURLE_WRITE_ERROR
            }
            if let data, n > 0 { buffer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: n)) }
            return n
        }
        faro_curl_easy_setopt_data_callback(h, CURLOPT_HEADERFUNCTION) { data, size, count, user in
            guard let user, let data else { return 0 }
            let buffer = Unmanaged<TransferBuffer>.fromOpaque(user).takeUnretainedValue()
            let n = size * count
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
                .trimmingWhitespaceAndNewlines()
            if line.hasPrefix("HTTP/") {
                buffer.headers = []  // a new response (after 100 Continue): keep only the final one's headers
            } else if let colon = line.firstIndex(of: ":") {
                buffer.headers.append(
                    (
                        String(line[..<colon]),
                        String(line[line.index(after: colon)...]).trimmingWhitespace()
                    ))
            }
            return n
        }
    }

    deinit { curl_easy_cleanup(handle) }

    /// Performs one request. `body` nil means GET, else POST with that body.
    func perform(url: String, headers: [String], body: [UInt8]?, limit: Int) -> Result<HTTPResponse, TablesError> {
        let buffer = TransferBuffer(limit: limit)
        let box = Unmanaged.passRetained(buffer)
        defer { box.release() }
        faro_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, box.toOpaque())
        faro_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, box.toOpaque())
        faro_curl_easy_setopt_string(handle, CURLOPT_URL, url)
        var list: UnsafeMutablePointer<curl_slist>?
        for h in headers { list = curl_slist_append(list, h) }
        // The list must outlive the transfer: it is freed right after curl_easy_perform returns.
        defer {
            faro_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, nil)
            curl_slist_free_all(list)
        }
        faro_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)
        if let body {
            faro_curl_easy_setopt_long(handle, CURLOPT_POST, 1)
            faro_curl_easy_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBytes { raw in
                _ = faro_curl_easy_setopt_pointer(
                    handle, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)))
            }
        } else {
            faro_curl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1)
        }
        let code = curl_easy_perform(handle)
        if buffer.overflowed { return .failure(.responseTooLarge(limit: limit)) }
        guard code == CURLE_OK else {
            return .failure(.transport(String(cString: curl_easy_strerror(code))))
        }
        var status = 0
        faro_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var connects = 0
        faro_curl_easy_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        return .success(
            HTTPResponse(status: status, headers: buffer.headers, body: buffer.body, newConnections: connects))
    }
}
