import FaroCore
import FoundationEssentials

/// Why a fetch failed, in words a user can act on; the content view shows `description` with "Reintentar".
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an http(s) URL libcurl accepts.
    case invalidURL(String)
    /// The user moved on and the load was cancelled.
    case cancelled
    /// No answer within the time limit.
    case timedOut(seconds: Double)
    /// The server answered with an HTTP error status.
    case httpStatus(Int, url: String)
    /// The response is larger than Faro accepts for one page or resource.
    case tooLarge(limit: Int)
    /// More redirects than the limit.
    case tooManyRedirects(limit: Int)
    /// Could not connect, resolve, or read: libcurl's own message.
    case network(String)

    public var description: String {
        switch self {
        case .invalidURL(let url): return "the address \"\(url)\" is not a valid http or https URL"
        case .cancelled: return "the load was cancelled"
        case .timedOut(let seconds):
            return "the site did not answer within \(Int(seconds)) s; check the connection and retry"
        case .httpStatus(let code, let url): return "the site answered HTTP \(code) for \(url)"
        case .tooLarge(let limit): return "the page is larger than \(limit / (1 << 20)) MB, which Faro does not load"
        case .tooManyRedirects(let limit): return "the site redirected more than \(limit) times"
        case .network(let message): return "could not load the page: \(message)"
        }
    }
}

/// How every content request is made: fresh (no-cache headers, a new cookie store), bounded (timeouts, redirect
/// and size limits).
public struct FetchOptions: Sendable, Equatable {
    public var connectTimeout: Double
    public var totalTimeout: Double
    public var maxRedirects: Int
    public var maxBytes: Int
    public var userAgent: String

    public init(
        connectTimeout: Double = 10, totalTimeout: Double = 30, maxRedirects: Int = 10,
        maxBytes: Int = 32 << 20, userAgent: String = "Faro/0.1 (Linux; libcurl)"
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxRedirects = maxRedirects
        self.maxBytes = maxBytes
        self.userAgent = userAgent
    }

    public static let standard = FetchOptions()
}

/// A successful response: where it ended up after redirects, its status, media type and charset, and its bytes.
public struct FetchResponse: Sendable, Equatable {
    public var requestedURL: String
    public var finalURL: String
    public var status: Int
    /// The `Content-Type` header as sent (e.g. `text/html; charset=utf-8`), if any.
    public var contentType: String?
    public var body: [UInt8]
    /// How long libcurl's transfer took (connect, request, response), as `curl -w %{time_total}` measures it; zero
    /// for transfers of a multi handle.
    public var transferDuration: Duration = .zero

    /// The media type without parameters, lower-cased.
    public var mediaType: String? {
        contentType.map { ($0.split(separator: ";").first.map(String.init) ?? $0).trimmingWhitespace().lowercased() }
    }

    /// The `charset` parameter of the Content-Type, if any.
    public var charset: String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimming(charactersIn: "\"'")
            }
        }
        return nil
    }
}

/// A cancellation flag shared between the UI (which sets it when the user moves on) and a transfer thread (which
/// checks it from libcurl's progress callback).
public final class FetchCancellation: @unchecked Sendable {
    private let lock = ConditionLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}
