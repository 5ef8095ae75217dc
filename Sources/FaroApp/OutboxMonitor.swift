/// The outbox as the window sees it after the last delivery pass.
public struct OutboxState: Equatable, Sendable {
    public var pending: Int
    public var failed: Int
    /// Rows waiting for another backend than the configured one (moved or discarded from the panel).
    public var queuedElsewhere: Int
    /// The backend refused the app key (rows stay pending until it is set).
    public var keyRefused: String?
    /// The backend could not be reached at the last pass.
    public var unreachable: String?

    public init(
        pending: Int, failed: Int, queuedElsewhere: Int = 0, keyRefused: String? = nil, unreachable: String? = nil
    ) {
        self.pending = pending
        self.failed = failed
        self.queuedElsewhere = queuedElsewhere
        self.keyRefused = keyRefused
        self.unreachable = unreachable
    }
}

/// The outbox as the window sees it: its state, "retry now" and the panel's rows.
public protocol OutboxMonitor: AnyObject {
    /// Nil before the first delivery pass (or with no backend configured).
    var state: OutboxState? { get }
    /// Called on the main thread after each delivery pass, so the window redraws its line when it is told to.
    var onStateChange: (@MainActor () -> Void)? { get set }
    /// Every pending row due now, refused rows queued again too ("Reintentar ahora").
    func retryNow()
    /// The rows for the panel (nil: the outbox cannot be read).
    func panel() -> OutboxPanelModel?
}

/// The window's line about submissions: "2 envíos pendientes · 1 envío rechazado", or nothing.
public func outboxStatusText(_ state: OutboxState, localize: Localizer) -> String? {
    var parts: [String] = []
    if state.pending > 0 {
        parts.append(localize.plural("%@ submission pending", "%@ submissions pending", state.pending))
    }
    if state.failed > 0 {
        parts.append(
            localize.plural("%@ submission refused by the server", "%@ submissions refused by the server", state.failed)
        )
    }
    if state.queuedElsewhere > 0 {
        parts.append(
            localize.plural(
                "%@ submission waiting for another server", "%@ submissions waiting for another server",
                state.queuedElsewhere))
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
}

/// The same line for bare counts.
public func outboxStatusText(pending: Int, failed: Int, localize: Localizer) -> String? {
    outboxStatusText(OutboxState(pending: pending, failed: failed), localize: localize)
}
