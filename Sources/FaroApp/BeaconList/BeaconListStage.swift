import FaroCore

/// What the window tells the list stage besides the session's updates.
public struct BeaconListInputs: Sendable, Equatable {
    /// The scanner's state, for the empty list's words.
    public var state: ScannerState
    /// Whether to build rows (only while the window is open); the counts come either way.
    public var listWanted: Bool
    /// What the window's search bar holds: the list has only the beacons that match it.
    public var query: SearchQuery

    public init(state: ScannerState, listWanted: Bool, query: SearchQuery = .everything) {
        self.state = state
        self.listWanted = listWanted
        self.query = query
    }
}

/// What the list stage hands the main thread through the session runner: region events as they happen, and after
/// each tick the counts. The list itself goes to the `BeaconListFeed`.
public enum BeaconListOutput: Sendable {
    case region(RegionEvent)
    case ranged(BeaconListTickResult)
}

/// One tick as the main thread gets it: how many beacons are in range (the tick goes on while any are) and how
/// many of them the catalog knows (the tray's count).
public struct BeaconListTickResult: Sendable {
    public var inRange: Int
    public var catalogued: Int
    /// The distance of each catalogued beacon in range that has one (a visit's closest distance).
    public var cataloguedDistances: [BeaconIdentity: Double] = [:]
}

/// The window's stage of the beacon session, on the session's thread: builds the rows from each tick's ranged
/// beacons (`BeaconListBuilder`) and publishes the finished `BeaconListUpdate` (`publish`: the window's
/// `BeaconListFeed`), so the main thread only swaps it in.
public final class BeaconListStage: BeaconSessionStage, @unchecked Sendable {
    private var builder: BeaconListBuilder
    private let publish: @Sendable (BeaconListUpdate) -> Void
    /// The last two lists handed to the main thread, kept so that the main thread, replacing one list with the
    /// next, never holds the last reference to the old one: a thousand rows' strings and histories are freed
    /// here, a tick later, instead of in the main loop.
    private var delivered: [BeaconListUpdate] = []
    /// Called on the session's thread once a crowd has left the list and its lists are freed (`CrowdDeparture`).
    private let releaseFreeMemory: @Sendable () -> Void
    private var departure = CrowdDeparture()

    public init(
        localize: Localizer, releaseFreeMemory: @escaping @Sendable () -> Void = {},
        publish: @escaping @Sendable (BeaconListUpdate) -> Void
    ) {
        builder = BeaconListBuilder(localize: localize)
        self.releaseFreeMemory = releaseFreeMemory
        self.publish = publish
    }

    public func process(_ updates: [BeaconSessionUpdate], inputs: BeaconListInputs, refresh: Bool)
        -> [BeaconListOutput]
    {
        var outputs: [BeaconListOutput] = []
        for update in updates {
            switch update {
            case .region(let event):
                outputs.append(.region(event))
            case .ranged(let ranged):
                if inputs.listWanted {
                    let built = builder.update(
                        snapshot: ranged.snapshot, catalog: ranged.catalog, state: inputs.state, query: inputs.query)
                    delivered.append(built)
                    if delivered.count > 2 { delivered.removeFirst() }
                    publish(built)
                    // The lists held here are the largest a crowd's rows still take: once they are small again,
                    // the crowd's strings and histories are freed.
                    if departure.observe(listed: delivered.map(\.order.count).max() ?? 0) { releaseFreeMemory() }
                }
                var result = BeaconListTickResult(
                    inRange: ranged.snapshot.beacons.count, catalogued: ranged.cataloguedInRange)
                if result.catalogued > 0 {
                    for beacon in ranged.snapshot.beacons where ranged.catalog.contains(beacon.identity) {
                        if let d = beacon.distance { result.cataloguedDistances[beacon.identity] = d }
                    }
                }
                outputs.append(.ranged(result))
            }
        }
        return outputs
    }

    /// Keeps the builder: its generations must keep growing across a reset, or a row built afterwards could get
    /// the revision of an old one and never be redrawn. Beacons gone are forgotten at the next list anyway.
    public func reset() {}
}
