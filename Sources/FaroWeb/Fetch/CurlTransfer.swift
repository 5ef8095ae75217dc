import CCurl
import CShim.Curl
import FoundationEssentials

/// libcurl's process-wide setup: `curl_global_init` exactly once, before any transfer (Swift runs a static
/// `let` initializer once, thread-safely).
enum CurlRuntime {
    static let ready: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// One configured libcurl easy handle and what it collects: the body, capped in size, with progress reports and
/// cancellation through the transfer callback. Used alone (a page) or inside a multi handle (resources).
final class CurlTransfer {
    let handle: UnsafeMutableRawPointer
    let url: String
    let options: FetchOptions
    private var headers: UnsafeMutablePointer<curl_slist>?
    private(set) var body: [UInt8] = []
    private(set) var overflowed = false
    let cancellation: FetchCancellation?
    let progress: (@Sendable (Int64, Int64?) -> Void)?

    /// Creates and configures the handle: fresh (no-cache headers, a brand-new in-memory cookie store, cleared),
    /// http(s) only, redirects followed up to the limit, timeouts, size cap, progress and cancellation.
    init(
        url: String, options: FetchOptions, cancellation: FetchCancellation?,
        progress: (@Sendable (Int64, Int64?) -> Void)?
    ) throws(FetchError) {
        guard CurlRuntime.ready else { throw .network("libcurl could not be initialised") }
        guard let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let handle = curl_easy_init()
        else {
            throw .invalidURL(url)
        }
        self.handle = handle
        self.url = url
        self.options = options
        self.cancellation = cancellation
        self.progress = progress
        configure()
        // Room for a typical page up front, so the transfer itself rarely reallocates.
        body.reserveCapacity(min(options.maxBytes, 64 << 10))
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headers { curl_slist_free_all(headers) }
    }

    private func configure() {
        faro_curl_easy_setopt_string(handle, CURLOPT_URL, url)
        faro_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        faro_curl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        faro_curl_easy_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        faro_curl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        faro_curl_easy_setopt_long(handle, CURLOPT_MAXREDIRS, options.maxRedirects)
        faro_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000))
        faro_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(options.totalTimeout * 1000))
        faro_curl_easy_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxBytes))
        faro_curl_easy_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent)
        faro_curl_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        // Always fresh: ask every cache on the way to revalidate, and keep no cookie from any earlier load. An empty
        // COOKIEFILE turns on libcurl's in-memory cookie engine for this handle only (redirects within the load
        // keep their cookies, as in a browser); "ALL" empties it before the request.
        for header in ["Cache-Control: no-cache", "Pragma: no-cache"] { headers = curl_slist_append(headers, header) }
        faro_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        faro_curl_easy_setopt_string(handle, CURLOPT_COOKIEFILE, "")
        faro_curl_easy_setopt_string(handle, CURLOPT_COOKIELIST, "ALL")
        let me = Unmanaged.passUnretained(self).toOpaque()
        faro_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
        faro_curl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            guard let user else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
            let length = size * count
            guard let data, length > 0 else { return length }
            if transfer.body.count + length > transfer.options.maxBytes {
                transfer.overflowed = true
                return 0
            }
            data.withMemoryRebound(to: UInt8.self, capacity: length) {
                transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
            }
            return length
        }
        faro_curl_easy_setopt_pointer(handle, CURLOPT_XFERINFODATA, me)
        faro_curl_easy_setopt_progress_callback(handle) { user, total, now, _, _ in
            guard let user else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
            if transfer.cancellation?.isCancelled == true { return 1 }
            transfer.progress?(Int64(now), total > 0 ? Int64(total) : nil)
            return 0
        }
        // The transfer callback only runs when someone listens for progress or may cancel.
        faro_curl_easy_setopt_long(handle, CURLOPT_NOPROGRESS, progress == nil && cancellation == nil ? 1 : 0)
    }

    /// The response once libcurl finished with `code`, or the error it means.
    func finish(_ code: CURLcode) -> Result<FetchResponse, FetchError> {
        switch code {
        case CURLE_OK: break
        case CURLE_ABORTED_BY_CALLBACK: return .failure(.cancelled)
        case CURLE_OPERATION_TIMEDOUT: return .failure(.timedOut(seconds: options.totalTimeout))
        case CURLE_FILESIZE_EXCEEDED: return .failure(.tooLarge(limit: options.maxBytes))
        case CURLE_WRITE_ERROR where overflowed: return .failure(.tooLarge(limit: options.maxBytes))
        case CURLE_TOO_MANY_REDIRECTS: return .failure(.tooManyRedirects(limit: options.maxRedirects))
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return .failure(.invalidURL(url))
        default: return .failure(.network(String(cString: curl_easy_strerror(code))))
        }
        var status = 0
        faro_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafePointer<CChar>?
        faro_curl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        var type: UnsafePointer<CChar>?
        faro_curl_easy_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &type)
        let finalURL = effective.map { String(cString: $0) } ?? url
        guard (200..<300).contains(status) else { return .failure(.httpStatus(status, url: finalURL)) }
        return .success(
            FetchResponse(
                requestedURL: url, finalURL: finalURL, status: status,
                contentType: type.map { String(cString: $0) }, body: body))
    }
}
