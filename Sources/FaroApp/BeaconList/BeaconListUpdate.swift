import FaroCore

/// The beacon list after one tick, as the GTK layer takes it from the thread that built it: every row ready to
/// show, nearest first, and for each row the generation at which it last changed, so the main thread can tell a
/// changed row by comparing two numbers and touches only the rows that changed, and only near the viewport.
public struct BeaconListUpdate: Sendable {
    /// Grows with every update; a row's revision is the generation of the update in which its content last changed.
    public var generation: UInt64
    public var model: BeaconListViewModel
    /// Per row of `model.rows`: the generation at which it last changed. Two updates that give a beacon the same
    /// revision give it the same row.
    public var revisions: [UInt64]
    /// The identities, nearest first (`model.rows.map(\.identity)`).
    public var order: [BeaconIdentity]
    /// Each identity's index in `model.rows`.
    public var positions: [BeaconIdentity: Int]
    /// The search the rows were chosen by (`SearchQuery.everything`: every beacon heard).
    public var query: SearchQuery = .everything

    /// A beacon's row and its revision, or nil when the beacon is not in the list.
    public func row(_ identity: BeaconIdentity) -> (model: BeaconRowModel, revision: UInt64)? {
        guard let i = positions[identity] else { return nil }
        return (model.rows[i], revisions[i])
    }
}
