/// The beacon list as the session builds it, for the window to observe: `BeaconListStage` publishes each finished
/// list on the session's thread, and the observer gets it on the main thread, one hop later. Lists are built only
/// while the window wants them (`MonitoringService.setListWanted`).
@MainActor
public final class BeaconListFeed {
    private let hop: @Sendable (@escaping @Sendable @MainActor () -> Void) -> Void
    /// Called with every list, on the main thread, while set (the beacon list page).
    public var observer: (@MainActor (BeaconListUpdate) -> Void)?

    /// `hop`: how a list reaches the main thread (the window passes FaroGLib's `MainThread.hop`).
    public nonisolated init(hop: @escaping @Sendable (@escaping @Sendable @MainActor () -> Void) -> Void) {
        self.hop = hop
    }

    /// Hands `update` to the observer on the main thread (from any thread).
    public nonisolated func publish(_ update: BeaconListUpdate) {
        hop { [self] in observer?(update) }
    }
}
