import Testing

@testable import FaroUI

/// The beacon list holds still under the pointer (docs/beacon-page.md), but not for every beacon that left: past
/// `maxHeldDepartedRows` rows of departed beacons it takes its order again, so a pointer resting on the list while a
/// crowd passes does not keep a row (and its widgets) for each of them.
@Suite("Beacon list: rows of departed beacons while it holds still")
@MainActor
struct BeaconListHoldTests {
    @Test func holdingKeepsAFewDepartedRowsAndNoMore() {
        #expect(BeaconListPage.keepsPlaces(holding: true, departedRows: 0))
        #expect(BeaconListPage.keepsPlaces(holding: true, departedRows: BeaconListPage.maxHeldDepartedRows))
        #expect(!BeaconListPage.keepsPlaces(holding: true, departedRows: BeaconListPage.maxHeldDepartedRows + 1))
        #expect(!BeaconListPage.keepsPlaces(holding: true, departedRows: 300))
        #expect(!BeaconListPage.keepsPlaces(holding: false, departedRows: 0))
    }
}
