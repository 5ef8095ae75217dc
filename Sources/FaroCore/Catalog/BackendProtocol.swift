/// The two generations of the tables protocol Faro speaks (docs/backend-protocols.md): Azure Mobile Apps
/// (`ZUMO-API-VERSION: 2.0.0`, a list answer is a JSON array) and Datasync (3.0.0, the Community Toolkit and ASP.NET
/// Core Datasync: a list answer is `{"items", "count", "nextLink"}`).
public enum BackendProtocol: Int, Sendable, Equatable, Hashable, CaseIterable, CustomStringConvertible {
    case v2 = 2
    case v3 = 3

    /// The `ZUMO-API-VERSION` header value of the generation.
    public var version: String { self == .v2 ? "2.0.0" : "3.0.0" }

    /// The server family that speaks it (`Azure Mobile Apps`, `Datasync`).
    public var family: String { self == .v2 ? "Azure Mobile Apps" : "Datasync" }

    /// The generation in words (`tables protocol 3.0.0 (Datasync)`).
    public var description: String {
        "tables protocol \(version) (\(family))"
    }

    /// The generation a list answer's shape belongs to: an array or `{results, count}` is 2.0.0, an object with an
    /// `items` array is 3.0.0; nil for anything else.
    public static func ofListAnswer(_ answer: JSONValue) -> BackendProtocol? {
        if answer.arrayValue != nil { return .v2 }
        if answer["items"]?.arrayValue != nil { return .v3 }
        if answer["results"]?.arrayValue != nil { return .v2 }
        return nil
    }
}

/// The `backend-protocol` setting: learn the generation from the server (`auto`), or speak one (`2`, `3`).
public enum BackendProtocolSetting: Sendable, Equatable, Hashable, CustomStringConvertible {
    case auto
    case fixed(BackendProtocol)

    /// Reads `auto`, `2`, `3` (also `2.0.0` and `3.0.0`); nil for anything else.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "auto", "": self = .auto
        case "2", "2.0.0": self = .fixed(.v2)
        case "3", "3.0.0": self = .fixed(.v3)
        default: return nil
        }
    }

    /// The setting's text (`auto`, `2`, `3`).
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .fixed(let generation): return String(generation.rawValue)
        }
    }

    /// What a usage error says about a bad value.
    public static let expected = "auto, 2 or 3"
}
