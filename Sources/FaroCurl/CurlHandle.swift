internal import CCurl
internal import CShim

/// What a transfer reports while it runs: bytes received (and the total when known), and whether to stop.
public struct CurlObserver: Sendable {
    public var progress: (@Sendable (Int64, Int64?) -> Void)?
    public var isCancelled: (@Sendable () -> Bool)?

    public init(
        progress: (@Sendable (Int64, Int64?) -> Void)? = nil, isCancelled: (@Sendable () -> Bool)? = nil
    ) {
        self.progress = progress
        self.isCancelled = isCancelled
    }
}

/// Faro's one wrapper of a libcurl easy handle, used by the content view's fetcher and by the backend client alike.
///
/// Every handle gets the same protections, set when it is made and checked one by one: libcurl may speak only http
/// and https (`CURLOPT_PROTOCOLS_STR`, `CURLOPT_REDIR_PROTOCOLS_STR`), never follows a redirect by itself (callers
/// decide, hop by hop), verifies the server's certificate and host name (`CURLOPT_SSL_VERIFYPEER`,
/// `CURLOPT_SSL_VERIFYHOST`), and trusts the system's certificates (or the test-only bundle of
/// `FARO_TEST_CA_BUNDLE`). When libcurl refuses any of them (an old libcurl without `CURLOPT_PROTOCOLS_STR`, say),
/// the handle is not made: Faro refuses to fetch rather than fetch unprotected.
///
/// A handle keeps its connection alive between requests and is used by one thread at a time.
public final class CurlHandle {
    let raw: UnsafeMutableRawPointer
    public let settings: CurlSettings
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    fileprivate var body: [UInt8] = []
    fileprivate var headers: [HTTPHeader] = []
    fileprivate var limit = 0
    fileprivate var overflowed = false
    fileprivate var observer = CurlObserver()
    /// The URL of the request being made.
    public private(set) var url = ""

    /// Makes a handle with every protection in place, or says which one libcurl refused.
    public init(_ settings: CurlSettings) throws(CurlError) {
        guard CurlRuntime.acquire() else { throw .unavailable(CurlRuntime.failureReason) }
        guard let handle = curl_easy_init() else {
            CurlRuntime.release()
            throw .unavailable("curl_easy_init failed")
        }
        raw = handle
        self.settings = settings
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try protect()
        try configure()
    }

    deinit {
        curl_easy_cleanup(raw)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
        CurlRuntime.release()
    }

    /// The options Faro never fetches without.
    private func protect() throws(CurlError) {
        func require(_ name: String, _ code: CURLcode) throws(CurlError) {
            guard code == CURLE_OK else {
                throw .unprotected(option: name, detail: String(cString: curl_easy_strerror(code)))
            }
        }
        try require(
            "CURLOPT_PROTOCOLS_STR", faro_curl_easy_setopt_string(raw, CURLOPT_PROTOCOLS_STR, settings.protocols))
        try require(
            "CURLOPT_REDIR_PROTOCOLS_STR",
            faro_curl_easy_setopt_string(raw, CURLOPT_REDIR_PROTOCOLS_STR, settings.protocols))
        try require("CURLOPT_FOLLOWLOCATION", faro_curl_easy_setopt_long(raw, CURLOPT_FOLLOWLOCATION, 0))
        try require("CURLOPT_SSL_VERIFYPEER", faro_curl_easy_setopt_long(raw, CURLOPT_SSL_VERIFYPEER, 1))
        try require("CURLOPT_SSL_VERIFYHOST", faro_curl_easy_setopt_long(raw, CURLOPT_SSL_VERIFYHOST, 2))
        if let bundle = settings.trust.caBundle {
            // Only the named bundle: the system's folder of certificates is switched off too.
            try require("CURLOPT_CAINFO", faro_curl_easy_setopt_string(raw, CURLOPT_CAINFO, bundle))
            try require("CURLOPT_CAPATH", faro_curl_easy_setopt_pointer(raw, CURLOPT_CAPATH, nil))
        }
    }

    private func configure() throws(CurlError) {
        func require(_ name: String, _ code: CURLcode) throws(CurlError) {
            guard code == CURLE_OK else {
                throw .setupFailed(option: name, detail: String(cString: curl_easy_strerror(code)))
            }
        }
        try require("CURLOPT_NOSIGNAL", faro_curl_easy_setopt_long(raw, CURLOPT_NOSIGNAL, 1))
        try require("CURLOPT_ERRORBUFFER", faro_curl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer))
        try require(
            "CURLOPT_CONNECTTIMEOUT_MS",
            faro_curl_easy_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, CurlHandle.milliseconds(settings.connectTimeout))
        )
        try require(
            "CURLOPT_TIMEOUT_MS",
            faro_curl_easy_setopt_long(raw, CURLOPT_TIMEOUT_MS, CurlHandle.milliseconds(settings.totalTimeout)))
        try require("CURLOPT_USERAGENT", faro_curl_easy_setopt_string(raw, CURLOPT_USERAGENT, settings.userAgent))
        if settings.keepAlive {
            try require("CURLOPT_TCP_KEEPALIVE", faro_curl_easy_setopt_long(raw, CURLOPT_TCP_KEEPALIVE, 1))
            try require("CURLOPT_TCP_NODELAY", faro_curl_easy_setopt_long(raw, CURLOPT_TCP_NODELAY, 1))
        }
        if settings.acceptCompressed {
            try require("CURLOPT_ACCEPT_ENCODING", faro_curl_easy_setopt_string(raw, CURLOPT_ACCEPT_ENCODING, ""))
        }
        if settings.privateCookies {
            // An empty COOKIEFILE turns on libcurl's in-memory cookie engine for this handle only; "ALL" empties it.
            try require("CURLOPT_COOKIEFILE", faro_curl_easy_setopt_string(raw, CURLOPT_COOKIEFILE, ""))
            try require("CURLOPT_COOKIELIST", faro_curl_easy_setopt_string(raw, CURLOPT_COOKIELIST, "ALL"))
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        try require("CURLOPT_WRITEDATA", faro_curl_easy_setopt_pointer(raw, CURLOPT_WRITEDATA, me))
        try require(
            "CURLOPT_WRITEFUNCTION",
            faro_curl_easy_setopt_data_callback(raw, CURLOPT_WRITEFUNCTION) { data, size, count, user in
                guard let user else { return 0 }
                let handle = Unmanaged<CurlHandle>.fromOpaque(user).takeUnretainedValue()
                let length = size * count
                guard let data, length > 0 else { return length }
                if handle.body.count + length > handle.limit {
                    handle.overflowed = true
                    return 0  // makes libcurl stop with CURLE_WRITE_ERROR
                }
                data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    handle.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
                }
                return length
            })
        try require("CURLOPT_HEADERDATA", faro_curl_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, me))
        try require(
            "CURLOPT_HEADERFUNCTION",
            faro_curl_easy_setopt_data_callback(raw, CURLOPT_HEADERFUNCTION) { data, size, count, user in
                guard let user, let data else { return 0 }
                let handle = Unmanaged<CurlHandle>.fromOpaque(user).takeUnretainedValue()
                let length = size * count
                handle.header(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
                return length
            })
        try require("CURLOPT_XFERINFODATA", faro_curl_easy_setopt_pointer(raw, CURLOPT_XFERINFODATA, me))
        try require(
            "CURLOPT_XFERINFOFUNCTION",
            faro_curl_easy_setopt_progress_callback(raw) { user, total, now, _, _ in
                guard let user else { return 0 }
                let handle = Unmanaged<CurlHandle>.fromOpaque(user).takeUnretainedValue()
                if handle.observer.isCancelled?() == true { return 1 }
                handle.observer.progress?(Int64(now), total > 0 ? Int64(total) : nil)
                return 0
            })
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        seconds.isFinite ? Int(max(1, min(seconds * 1000, 86_400_000))) : 86_400_000
    }

    /// A header line of the answer being received: a status line starts a new response (after `100 Continue`, or a
    /// proxy's answer), so only the final one's headers are kept.
    fileprivate func header(_ text: String) {
        var line = Substring(text)
        // "\r\n" is one Character: `isNewline` covers it, and trailing blanks go too.
        while let last = line.last, last.isNewline || last == " " || last == "\t" { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            headers = []
        } else if let colon = line.firstIndex(of: ":") {
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.append(HTTPHeader(name: String(line[..<colon]), value: String(value)))
        }
    }

    /// Sets up `request` (the previous one's answer and header list are dropped); then `perform()` it, or hand the
    /// handle to a `CurlMulti`.
    public func prepare(_ request: CurlRequest, observer: CurlObserver = CurlObserver()) throws(CurlError) {
        func require(_ name: String, _ code: CURLcode) throws(CurlError) {
            guard code == CURLE_OK else {
                throw .setupFailed(option: name, detail: String(cString: curl_easy_strerror(code)))
            }
        }
        body = []
        body.reserveCapacity(min(max(request.maxBytes, 0), 64 << 10))
        headers = []
        overflowed = false
        limit = max(request.maxBytes, 0)
        self.observer = observer
        url = request.url
        errorBuffer[0] = 0
        try require("CURLOPT_URL", faro_curl_easy_setopt_string(raw, CURLOPT_URL, request.url))
        try require("CURLOPT_HTTPHEADER", faro_curl_easy_setopt_pointer(raw, CURLOPT_HTTPHEADER, nil))
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        for line in request.headers { headerList = curl_slist_append(headerList, line) }
        // The list must outlive the transfer: it is kept until the next request or the handle goes away.
        try require(
            "CURLOPT_HTTPHEADER",
            faro_curl_easy_setopt_pointer(raw, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)))
        if let bytes = request.body {
            try require("CURLOPT_POST", faro_curl_easy_setopt_long(raw, CURLOPT_POST, 1))
            try require(
                "CURLOPT_POSTFIELDSIZE_LARGE",
                faro_curl_easy_setopt_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
            let code = bytes.withUnsafeBytes { buffer in
                faro_curl_easy_setopt_pointer(
                    raw, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)))
            }
            try require("CURLOPT_COPYPOSTFIELDS", code)
        } else {
            try require("CURLOPT_HTTPGET", faro_curl_easy_setopt_long(raw, CURLOPT_HTTPGET, 1))
        }
        try require(
            "CURLOPT_MAXFILESIZE_LARGE", faro_curl_easy_setopt_offset(raw, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        )
        let quiet = observer.progress == nil && observer.isCancelled == nil
        // The transfer callback only runs when someone listens for progress or may cancel.
        try require("CURLOPT_NOPROGRESS", faro_curl_easy_setopt_long(raw, CURLOPT_NOPROGRESS, quiet ? 1 : 0))
    }

    /// Makes the prepared request on the calling thread (blocking) and returns its answer.
    public func perform() -> Result<CurlResponse, CurlError> {
        finish(CurlResult(code: curl_easy_perform(raw)))
    }

    /// Makes `request` on the calling thread (blocking).
    public func perform(_ request: CurlRequest, observer: CurlObserver = CurlObserver()) -> Result<
        CurlResponse, CurlError
    > {
        do throws(CurlError) { try prepare(request, observer: observer) } catch { return .failure(error) }
        return perform()
    }

    /// The answer once libcurl finished the transfer with `result`, or the error it means.
    func finish(_ result: CurlResult) -> Result<CurlResponse, CurlError> {
        let code = result.code
        if overflowed || code == CURLE_FILESIZE_EXCEEDED { return .failure(.tooLarge(limit: limit)) }
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        var status = 0
        faro_curl_easy_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &status)
        var connects = 0
        faro_curl_easy_getinfo_long(raw, CURLINFO_NUM_CONNECTS, &connects)
        var type: UnsafePointer<CChar>?
        faro_curl_easy_getinfo_string(raw, CURLINFO_CONTENT_TYPE, &type)
        var redirect: UnsafePointer<CChar>?
        faro_curl_easy_getinfo_string(raw, CURLINFO_REDIRECT_URL, &redirect)
        var microseconds: curl_off_t = 0
        faro_curl_easy_getinfo_offset(raw, CURLINFO_TOTAL_TIME_T, &microseconds)
        return .success(
            CurlResponse(
                status: status, headers: headers, body: body, url: url,
                redirectURL: (300..<400).contains(status) ? redirect.map { String(cString: $0) } : nil,
                contentType: type.map { String(cString: $0) }, newConnections: connects,
                totalTime: .microseconds(Int64(microseconds))))
    }

    private func error(for code: CURLcode) -> CurlError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_UNSUPPORTED_PROTOCOL: return .unsupportedProtocol
        case CURLE_URL_MALFORMAT: return .malformedURL
        case CURLE_PEER_FAILED_VERIFICATION: return .untrustedCertificate(detail: detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .tlsFailed(detail: detail)
        default: return .transport(detail: detail)
        }
    }
}

/// A libcurl result code, as a multi handle reports it for each finished transfer.
struct CurlResult {
    let code: CURLcode
}
