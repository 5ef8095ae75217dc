/// Why a libcurl handle could not be made or a transfer gave no answer. The callers (the content view's fetcher,
/// the backend client) turn these into their own user-facing errors; `detail` texts are libcurl's own words.
public enum CurlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libcurl could not be loaded or initialised.
    case unavailable(String)
    /// libcurl refused one of the protections every handle must have (allowed protocols, certificate checks, the
    /// CA bundle): Faro does not fetch without it.
    case unprotected(option: String, detail: String)
    /// libcurl refused another option (a timeout, a header list, a callback).
    case setupFailed(option: String, detail: String)
    /// The transfer callback stopped it (the user moved on).
    case cancelled
    /// No complete answer within the time limit.
    case timedOut
    /// The answer is larger than the limit set for the request.
    case tooLarge(limit: Int)
    /// The URL's scheme is not one of the allowed protocols (http, https).
    case unsupportedProtocol
    /// libcurl could not read the URL.
    case malformedURL
    /// The server's certificate is not trusted, or does not name the host that was asked for.
    case untrustedCertificate(detail: String)
    /// The TLS handshake failed for another reason.
    case tlsFailed(detail: String)
    /// Could not resolve, connect, send or receive.
    case transport(detail: String)

    public var description: String {
        switch self {
        case .unavailable(let reason): return "libcurl could not start: \(reason)"
        case .unprotected(let option, let detail):
            return "libcurl cannot enforce \(option) (\(detail)); Faro does not fetch without it"
        case .setupFailed(let option, let detail): return "libcurl refused \(option) (\(detail))"
        case .cancelled: return "the transfer was cancelled"
        case .timedOut: return "no answer within the time limit"
        case .tooLarge(let limit): return "the answer is larger than \(limit) bytes"
        case .unsupportedProtocol: return "only http and https addresses are fetched"
        case .malformedURL: return "the address is not a valid URL"
        case .untrustedCertificate(let detail): return "the site's certificate is not trusted: \(detail)"
        case .tlsFailed(let detail): return "the secure connection failed: \(detail)"
        case .transport(let detail): return detail
        }
    }
}
