import FaroCore

/// Why a request to the backend gave no usable answer, in words a user can act on.
public enum TablesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No HTTP answer: refused, reset, timed out, cut off, TLS failure (libcurl's message).
    case transport(String)
    /// The server answered with an error status; `message` is its error text.
    case http(status: Int, message: String)
    /// The server redirected; Faro never follows redirects (they could lead to another host).
    case redirected(status: Int, location: String)
    /// The answer was larger than the configured cap.
    case responseTooLarge(limit: Int)
    /// The answer was not JSON (`Content-Type` says what it was).
    case unexpectedContentType(String)
    /// The answer claimed to be JSON but was not, or had the wrong shape.
    case malformedResponse(String)
    /// A JSON answer of neither generation's list shape (`what` says what it was).
    case unexpectedShape(String)
    /// The `backend-protocol` setting names one generation and the backend speaks the other.
    case protocolMismatch(setting: BackendProtocol, server: BackendProtocol)

    public var description: String {
        switch self {
        case .transport(let m): return "cannot reach the backend: \(m). Check the network and the backend URL."
        case .http(let s, let m): return "the backend answered HTTP \(s)\(m.isEmpty ? "" : ": \(m)")"
        case .redirected(let s, let l):
            return "the backend answered with a redirect (HTTP \(s)) to \(l.isEmpty ? "another address" : l); "
                + "Faro does not follow redirects: set the backend URL to the final address."
        case .responseTooLarge(let limit): return "the backend's answer is larger than \(limit) bytes; refused."
        case .unexpectedContentType(let t):
            return "the backend answered with '\(t)' instead of JSON; check the backend URL."
        case .malformedResponse(let m): return "the backend's answer is not valid JSON (\(m))."
        case .unexpectedShape(let what):
            return "the backend answered a listing with \(what), neither a 2.0.0 array nor a 3.0.0 {items, count, "
                + "nextLink}; check the backend URL."
        case .protocolMismatch(let setting, let server):
            return "the backend speaks \(server), but backend-protocol is set to \(setting.rawValue): set it to auto "
                + "or \(server.rawValue) (--protocol, or gsettings set io.github.faro.Faro backend-protocol auto)."
        }
    }
}
