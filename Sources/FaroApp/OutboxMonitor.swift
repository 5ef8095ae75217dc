/// The outbox as the window sees it: how many submissions wait or were refused, and "retry now".
public protocol OutboxMonitor: AnyObject {
    /// (pending, failed), or nil before the first delivery pass.
    var counts: (pending: Int, failed: Int)? { get }
    func retryNow()
}

/// The window's line about submissions: "2 envíos pendientes", "1 envío rechazado", or nothing.
public func outboxStatusText(pending: Int, failed: Int, localize: Localizer) -> String? {
    var parts: [String] = []
    if pending > 0 { parts.append(localize.plural("%@ submission pending", "%@ submissions pending", pending)) }
    if failed > 0 {
        parts.append(
            localize.plural("%@ submission refused by the server", "%@ submissions refused by the server", failed))
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
}
