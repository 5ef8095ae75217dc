import FaroCore

/// What the window tells the list stage besides the session's updates.
public struct BeaconListInputs: Sendable, Equatable {
    /// The scanner's state, for the empty list's words.
    public var state: ScannerState
    /// Whether to build rows (only while the window is open); the counts come either way.
    public var listWanted: Bool

    public init(state: ScannerState, listWanted: Bool) {
        self.state = state
        self.listWanted = listWanted
    }
}

/// What the list stage hands the main thread: region events as they happen, and after each tick the counts and
/// (with the window open) the finished list.
public enum BeaconListOutput: Sendable {
    case region(RegionEvent)
    case ranged(BeaconListTickResult)
}

/// One tick as the main thread gets it: how many beacons are in range (the tick goes on while any are), how many
/// of them the catalog knows (the tray's count), and the list when one was asked for.
public struct BeaconListTickResult: Sendable {
    public var inRange: Int
    public var catalogued: Int
    public var list: BeaconListUpdate?
}

/// The window's stage of the beacon session, on the session's thread: builds the rows from each tick's ranged
/// beacons (`BeaconListBuilder`), so the main thread only swaps in a finished `BeaconListUpdate`.
public final class BeaconListStage: BeaconSessionStage, @unchecked Sendable {
    private var builder: BeaconListBuilder
    /// The last two lists handed to the main thread, kept so that the main thread, replacing one list with the
    /// next, never holds the last reference to the old one: a thousand rows' strings and histories are freed
    /// here, a tick later, instead of in the main loop.
    private var delivered: [BeaconListUpdate] = []

    public init(localize: Localizer) {
        builder = BeaconListBuilder(localize: localize)
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
                var list: BeaconListUpdate?
                if inputs.listWanted {
                    let built = builder.update(snapshot: ranged.snapshot, catalog: ranged.catalog, state: inputs.state)
                    delivered.append(built)
                    if delivered.count > 2 { delivered.removeFirst() }
                    list = built
                }
                outputs.append(
                    .ranged(
                        BeaconListTickResult(
                            inRange: ranged.snapshot.beacons.count, catalogued: ranged.cataloguedInRange,
                            list: list)))
            }
        }
        return outputs
    }

    /// Keeps the builder: its generations must keep growing across a reset, or a row built afterwards could get
    /// the revision of an old one and never be redrawn. Beacons gone are forgotten at the next list anyway.
    public func reset() {}
}
