import FaroCore
import FaroCurl
import FoundationEssentials

/// Where a content load may be redirected: only to http(s) addresses, and never from https down to plain http
/// (that would send the request, and with it the device id, in clear text). libcurl follows no redirect by itself:
/// every hop is checked here first.
enum RedirectRule {
    /// Nil when the hop from `current` to `target` may be followed, else the error that refuses it.
    static func refusal(from current: String, to target: String) -> FetchError? {
        let targetScheme = scheme(target)
        guard targetScheme == "http" || targetScheme == "https" else {
            return .unsupportedRedirect(to: RedactedURL(target))
        }
        if scheme(current) == "https", targetScheme == "http" { return .insecureRedirect(to: RedactedURL(target)) }
        return nil
    }

    /// The lower-cased scheme of an absolute URL, or "" when it has none.
    static func scheme(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":") else { return "" }
        let scheme = url[..<colon]
        return scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) ? scheme.lowercased() : ""
    }
}

/// One content transfer on Faro's libcurl wrapper: fresh (no-cache headers, a brand-new in-memory cookie store that
/// lives as long as the load), http(s) only, certificates verified, redirects followed hop by hop under
/// `RedirectRule` up to the limit, timeouts, size cap, progress and cancellation. Used alone (a page) or inside a
/// `CurlMulti` (resources).
final class CurlTransfer {
    let handle: CurlHandle
    /// The URL first asked for.
    let requestedURL: String
    /// The URL of the hop in progress (the final URL once done).
    private(set) var currentURL: String
    private(set) var redirects = 0
    /// libcurl's own time for the hops so far (`CurlResponse.totalTime`).
    private(set) var hopsTime: Duration = .zero
    let options: FetchOptions
    private let observer: CurlObserver

    /// Makes the handle (refusing when libcurl cannot enforce a protection) and prepares the first request.
    init(url: String, options: FetchOptions, observer: CurlObserver) throws(FetchError) {
        let scheme = RedirectRule.scheme(url)
        guard scheme == "http" || scheme == "https" else { throw .invalidURL(RedactedURL(url)) }
        var settings = CurlSettings(
            connectTimeout: options.connectTimeout, totalTimeout: options.totalTimeout, userAgent: options.userAgent,
            privateCookies: true, acceptCompressed: true, trust: options.trust)
        settings.protocols = options.protocols
        do { handle = try CurlHandle(settings) } catch {
            throw CurlTransfer.fetchError(error, options: options, url: url)
        }
        requestedURL = url
        currentURL = url
        self.options = options
        self.observer = observer
        try prepare(url)
    }

    private func prepare(_ url: String) throws(FetchError) {
        currentURL = url
        // Always fresh: ask every cache on the way to revalidate.
        let request = CurlRequest(
            url: url, headers: ["Cache-Control: no-cache", "Pragma: no-cache"], maxBytes: options.maxBytes)
        do { try handle.prepare(request, observer: observer) } catch {
            throw CurlTransfer.fetchError(error, options: options, url: url)
        }
    }

    /// What happened after libcurl finished one hop.
    enum Step {
        /// The load is over: its response or the error.
        case done(Result<FetchResponse, FetchError>)
        /// A redirect was taken: the handle is prepared for the next hop, perform it again.
        case again
    }

    /// The response of a finished hop, an error, or `.again` when its redirect may be followed.
    func step(_ result: Result<CurlResponse, CurlError>) -> Step {
        let response: CurlResponse
        switch result {
        case .failure(let error):
            return .done(.failure(CurlTransfer.fetchError(error, options: options, url: currentURL)))
        case .success(let r): response = r
        }
        hopsTime += response.totalTime
        if (300..<400).contains(response.status), let target = response.redirectURL, !target.isEmpty {
            guard redirects < options.maxRedirects else {
                return .done(.failure(.tooManyRedirects(limit: options.maxRedirects)))
            }
            if let refusal = RedirectRule.refusal(from: currentURL, to: target) { return .done(.failure(refusal)) }
            redirects += 1
            do throws(FetchError) { try prepare(target) } catch { return .done(.failure(error)) }
            return .again
        }
        guard (200..<300).contains(response.status) else {
            return .done(.failure(.httpStatus(response.status, url: RedactedURL(currentURL))))
        }
        return .done(
            .success(
                FetchResponse(
                    requestedURL: requestedURL, finalURL: currentURL, status: response.status,
                    contentType: response.contentType, body: response.body, transferDuration: hopsTime)))
    }

    /// The fetch error a libcurl failure means for a content load of `url`.
    static func fetchError(_ error: CurlError, options: FetchOptions, url: String) -> FetchError {
        switch error {
        case .unavailable(let reason): return .network("libcurl could not start (\(reason))")
        case .unprotected: return .unprotected(error.description)
        case .setupFailed: return .network(error.description)
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut(seconds: options.totalTimeout)
        case .tooLarge: return .tooLarge(limit: options.maxBytes)
        case .unsupportedProtocol, .malformedURL: return .invalidURL(RedactedURL(url))
        case .untrustedCertificate(let detail): return .untrustedCertificate(detail)
        case .tlsFailed(let detail): return .tls(detail)
        case .transport(let detail): return .network(detail)
        }
    }
}
