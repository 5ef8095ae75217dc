/// What one delivery attempt of an outbox row came to, as seen by the client.
public enum DeliveryAttemptResult: Sendable, Equatable {
    /// The server answered with this HTTP status; `message` is what its body says (or a summary of it).
    case response(status: Int, message: String)
    /// No HTTP answer: connection refused or reset, timeout, DNS, TLS, a response cut off or too large.
    case transportFailure(String)
    /// 409 on a 3.0.0 backend whose stored row under this id is not the row Faro sent; `reason` says what differs.
    case conflict(reason: String)
}

/// What the outbox does with a row after an attempt.
public enum DeliveryVerdict: Sendable, Equatable {
    /// The backend holds the row: 2xx, or 409 (a row with that id already exists: an earlier attempt got through).
    case delivered
    /// Try again later (5xx, 408, 429, timeouts, connection errors).
    case retry(reason: OutboxReason)
    /// The backend refuses the row for good (other 4xx, unexpected 1xx/3xx): keep it as failed for this reason.
    case rejected(reason: OutboxReason)
    /// The backend refused the app key (401, 403): a configuration problem, not the row's. The row stays pending,
    /// unchanged, and is tried again when the configuration changes.
    case keyRefused(reason: OutboxReason)

    /// The reason of a verdict other than `delivered`.
    public var reason: OutboxReason? {
        switch self {
        case .delivered: return nil
        case .retry(let reason), .rejected(let reason), .keyRefused(let reason): return reason
        }
    }

    /// Classifies one attempt. The rules of docs/outbox.md: 409 means delivered; 5xx and transport errors mean
    /// retry; 401/403 mean the app key was refused; other 4xx keep the row as failed with the server's message
    /// (404 says which table is missing when `table` is given).
    public static func classify(_ result: DeliveryAttemptResult, table: String? = nil) -> DeliveryVerdict {
        switch result {
        case .transportFailure(let reason):
            return .retry(reason: .unreachable(detail: reason))
        case .conflict(let reason):
            return .rejected(reason: .conflict(difference: reason))
        case .response(let status, let message):
            switch status {
            case 200..<300, 409:
                return .delivered
            case 408, 429, 500..<600:
                return .retry(reason: .serverTrouble(status: status, message: message))
            case 300..<400:
                return .rejected(reason: .redirect(status: status, message: message))
            case 401, 403:
                return .keyRefused(reason: .keyRefused(status: status, message: message))
            case 404 where table != nil:
                return .rejected(reason: .tableMissing(table: table ?? "", message: message))
            default:
                return .rejected(reason: .refused(status: status, message: message))
            }
        }
    }
}
