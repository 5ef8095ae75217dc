/// Why an outbox row is still waiting or was refused, as a value: the window words it in the user's language, the
/// terminal (`faro outbox`, docs/cli.md) in English through `english`. Texts inside are the server's own message
/// (its data, shown as it is) or, for `unreachable`, the transport's description (shown by the terminal only).
public indirect enum OutboxReason: Sendable, Equatable {
    /// No HTTP answer: connection refused or reset, timeout, DNS, TLS, a response cut off or too large.
    case unreachable(detail: String)
    /// The server said "try again" (408, 429, 5xx).
    case serverTrouble(status: Int, message: String)
    /// The server answered with a redirect (Faro does not follow them); `message` says where to.
    case redirect(status: Int, message: String)
    /// The server refused the app key (401, 403).
    case keyRefused(status: Int, message: String)
    /// 404 for the row's table: the backend has no such table.
    case tableMissing(table: String, message: String)
    /// The server refused the row for good with this status.
    case refused(status: Int, message: String)
    /// 409 for a row that is not the one Faro sent; `difference` says what differs.
    case conflict(difference: String)
    /// Given up after `count` "try again" answers; `last` is the last one.
    case gaveUpAfterErrors(count: Int, last: OutboxReason)
    /// Given up after waiting `days` days; `last` is the last reason.
    case gaveUpAfterDays(days: Int, last: OutboxReason)

    /// The terminal's wording (docs/cli.md, `faro outbox`).
    public var english: String {
        func detail(_ message: String) -> String { message.isEmpty ? "" : ": \(message)" }
        switch self {
        case .unreachable(let detail): return detail
        case .serverTrouble(let status, let message), .refused(let status, let message):
            return "HTTP \(status)\(detail(message))"
        case .redirect(let status, let message):
            return "HTTP \(status) redirect\(detail(message)); Faro does not follow redirects, check the backend URL"
        case .keyRefused(let status, let message):
            return "the backend refused the app key (HTTP \(status)\(detail(message))); check the app key setting"
        case .tableMissing(let table, let message):
            return "table \(table) not found on the backend (HTTP 404\(detail(message)))"
        case .conflict(let difference): return "HTTP 409: \(difference)"
        case .gaveUpAfterErrors(let count, let last):
            return "gave up after \(count) attempts; the backend kept answering \(last.english)"
        case .gaveUpAfterDays(let days, let last): return "gave up after waiting \(days) day(s): \(last.english)"
        }
    }

    /// The HTTP status the reason carries, if any.
    public var status: Int? {
        switch self {
        case .unreachable, .conflict: return nil
        case .serverTrouble(let status, _), .redirect(let status, _), .keyRefused(let status, _),
            .refused(let status, _):
            return status
        case .tableMissing: return 404
        case .gaveUpAfterErrors(_, let last), .gaveUpAfterDays(_, let last): return last.status
        }
    }

    /// The stored form (a JSON object with a stable `code`), read back by `init(stored:)`.
    public var stored: String { json.serialized }

    /// The reason from its stored form; nil for anything else (a row stored before reasons were values).
    public init?(stored: String) {
        guard let value = try? JSONValue.parse(stored) else { return nil }
        self.init(json: value)
    }

    private var json: JSONValue {
        func object(_ code: String, _ members: [(String, JSONValue)]) -> JSONValue {
            .object([("code", .string(code))] + members)
        }
        func http(_ code: String, _ status: Int, _ message: String) -> JSONValue {
            object(code, [("status", .integer(Int64(status))), ("message", .string(message))])
        }
        switch self {
        case .unreachable(let detail): return object("unreachable", [("detail", .string(detail))])
        case .serverTrouble(let status, let message): return http("server_trouble", status, message)
        case .redirect(let status, let message): return http("redirect", status, message)
        case .keyRefused(let status, let message): return http("key_refused", status, message)
        case .refused(let status, let message): return http("refused", status, message)
        case .tableMissing(let table, let message):
            return object("table_missing", [("table", .string(table)), ("message", .string(message))])
        case .conflict(let difference): return object("conflict", [("difference", .string(difference))])
        case .gaveUpAfterErrors(let count, let last):
            return object("gave_up_after_errors", [("count", .integer(Int64(count))), ("last", last.json)])
        case .gaveUpAfterDays(let days, let last):
            return object("gave_up_after_days", [("days", .integer(Int64(days))), ("last", last.json)])
        }
    }

    private init?(json value: JSONValue) {
        guard let code = value["code"]?.stringValue else { return nil }
        let status = value["status"]?.intValue
        let message = value["message"]?.stringValue ?? ""
        switch code {
        case "unreachable":
            self = .unreachable(detail: value["detail"]?.stringValue ?? "")
        case "server_trouble", "redirect", "key_refused", "refused":
            guard let status else { return nil }
            switch code {
            case "server_trouble": self = .serverTrouble(status: status, message: message)
            case "redirect": self = .redirect(status: status, message: message)
            case "key_refused": self = .keyRefused(status: status, message: message)
            default: self = .refused(status: status, message: message)
            }
        case "table_missing":
            self = .tableMissing(table: value["table"]?.stringValue ?? "", message: message)
        case "conflict":
            self = .conflict(difference: value["difference"]?.stringValue ?? "")
        case "gave_up_after_errors", "gave_up_after_days":
            guard let last = value["last"].flatMap(OutboxReason.init(json:)) else { return nil }
            if code == "gave_up_after_errors", let count = value["count"]?.intValue {
                self = .gaveUpAfterErrors(count: count, last: last)
            } else if code == "gave_up_after_days", let days = value["days"]?.intValue {
                self = .gaveUpAfterDays(days: days, last: last)
            } else {
                return nil
            }
        default:
            return nil
        }
    }
}
