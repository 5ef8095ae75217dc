import FaroCurl

/// libcurl for the backend side: opened and started by the first handle and closed a minute after the last (see
/// `CurlRuntime`); `initialize()` says whether it can start at all.
public enum Curl {
    /// Initialises libcurl; returns false if libcurl could not start (then every request fails).
    @discardableResult
    public static func initialize() -> Bool { CurlRuntime.initialize() }
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

/// The backend client's reusable libcurl handle (connections are kept alive between requests), used by one thread at
/// a time: Faro's one `CurlHandle`, with its protections (http/https only, no redirects followed, TLS verified),
/// keep-alive and the backend's timeouts.
final class CurlEasy {
    private let handle: CurlHandle

    /// Why a handle could not be made, in libcurl's words.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    init(connectTimeout: Double, totalTimeout: Double) throws(SetupError) {
        do {
            handle = try CurlHandle(
                CurlSettings(
                    connectTimeout: connectTimeout, totalTimeout: totalTimeout, userAgent: "Faro/1.0 (Linux)",
                    keepAlive: true))
        } catch {
            throw SetupError(description: error.description)
        }
    }

    /// Performs one request. `body` nil means GET, else POST with that body.
    func perform(url: String, headers: [String], body: [UInt8]?, limit: Int) -> Result<HTTPResponse, TablesError> {
        switch handle.perform(CurlRequest(url: url, headers: headers, body: body, maxBytes: limit)) {
        case .success(let response):
            return .success(
                HTTPResponse(
                    status: response.status, headers: response.headers.map { ($0.name, $0.value) },
                    body: response.body, newConnections: response.newConnections))
        case .failure(.tooLarge(let limit)):
            return .failure(.responseTooLarge(limit: limit))
        case .failure(let error):
            return .failure(.transport(error.description))
        }
    }
}
