import FaroCore
import FoundationEssentials

/// Why a fetch (or a save) failed, in words a user can act on; the content view shows `description` with
/// "Reintentar", and `faro page`/`faro save` print it. URLs are held as `RedactedURL`s and the whole text goes through
/// `DeviceIDScrubber`, so no message ever shows the device id.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an http(s) URL libcurl accepts.
    case invalidURL(RedactedURL)
    /// The user moved on and the load was cancelled.
    case cancelled
    /// No answer within the time limit.
    case timedOut(seconds: Double)
    /// The server answered with an HTTP error status.
    case httpStatus(Int, url: RedactedURL)
    /// The response is larger than Faro accepts for one page or resource.
    case tooLarge(limit: Int)
    /// A page's images and stylesheets together are larger than Faro fetches for one page.
    case resourcesTooLarge(limit: Int)
    /// More redirects than the limit.
    case tooManyRedirects(limit: Int)
    /// A redirect from https to plain http: it would send the request (and the device id) in clear text.
    case insecureRedirect(to: RedactedURL)
    /// A redirect to something other than an http(s) address (`ftp:`, `file:`, …).
    case unsupportedRedirect(to: RedactedURL)
    /// The site's certificate is not trusted or does not name the site (libcurl's detail).
    case untrustedCertificate(String)
    /// The secure connection could not be set up (libcurl's detail).
    case tls(String)
    /// libcurl cannot enforce a protection Faro needs, so nothing was fetched.
    case unprotected(String)
    /// The saved copy would be larger than the largest archive Faro opens.
    case archiveTooLarge(limit: Int)
    /// Could not connect, resolve, or read: libcurl's own message.
    case network(String)

    public var description: String { DeviceIDScrubber.scrub(text) }

    private var text: String {
        switch self {
        case .invalidURL(let url): return "the address \"\(url)\" is not a valid http or https URL"
        case .cancelled: return "the load was cancelled"
        case .timedOut(let seconds):
            return "the site did not answer within \(Int(seconds.rounded(.up))) s; check the connection and retry"
        case .httpStatus(let code, let url): return "the site answered HTTP \(code) for \(url)"
        case .tooLarge(let limit):
            return "the page is larger than \(FetchError.megabytes(limit)), which Faro does not load"
        case .resourcesTooLarge(let limit):
            return "the page's images and stylesheets together are larger than \(FetchError.megabytes(limit))"
        case .tooManyRedirects(let limit): return "the site redirected more than \(limit) times"
        case .insecureRedirect(let url):
            return "the site redirected from a secure (https) address to an insecure one (\(url)); Faro does not "
                + "follow it"
        case .unsupportedRedirect(let url):
            return "the site redirected to \(url), which is not a web address; Faro does not follow it"
        case .untrustedCertificate(let detail):
            return "the site's certificate is not trusted (\(detail)); the page was not loaded"
        case .tls(let detail): return "the secure connection to the site failed: \(detail)"
        case .unprotected(let detail): return "Faro cannot load pages safely here: \(detail)"
        case .archiveTooLarge(let limit):
            return "the page with its images is larger than \(FetchError.megabytes(limit)), the largest saved page "
                + "Faro keeps (and opens again); it was not saved"
        case .network(let message): return "could not load the page: \(message)"
        }
    }

    /// `limit` bytes in whole megabytes ("64 MB"), or in bytes below one.
    static func megabytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\((bytes + (1 << 19)) >> 20) MB" : "\(bytes) bytes"
    }
}
