import FaroApp
import FaroCore
import Testing

@Suite("Beacon list view model")
struct BeaconListViewModelTests {
    let uuid = BeaconUUID(high: 0xFA20_DE30_0B1E_4C5A, low: 0x9B5E_D3A0_BE0C_0DE1)
    let spanish = Localizer {
        [
            "near": "cerca", "far": "lejos", "immediate": "inmediato", "unknown": "desconocido",
            "Unknown beacon %@": "Beacon desconocido %@", "Bluetooth is off": "Bluetooth está apagado",
            "The Bluetooth service (bluetoothd) is not running. Faro starts scanning as soon as it is.":
                "El servicio de Bluetooth no está en marcha.",
        ][$0] ?? $0
    }

    func ranged(_ minor: UInt16, _ distance: Double?) -> RangedBeacon {
        RangedBeacon(
            identity: BeaconIdentity(uuid: uuid, major: 100, minor: minor), measuredPower: -59,
            address: BluetoothAddress(value: UInt64(minor)), rssi: -60, smoothedRSSI: -60, distance: distance,
            proximity: Proximity(distance: distance), firstSeen: 0, lastSeen: 1, history: DistanceHistory([3, 2.5]))
    }

    @Test func catalogedAndUnknownRowsInSpanish() {
        let id1 = BeaconIdentity(uuid: uuid, major: 100, minor: 1)
        let place = CatalogPlace(
            identity: id1, cliente: "Café La Parroquia", titulo: "Café de olla",
            url: "http://127.0.0.1/sitios/cafe/")
        let model = BeaconListBuilder.list(
            snapshot: RangingSnapshot(time: 1, beacons: [ranged(1, 2.4), ranged(2, 7)]),
            catalog: CatalogIndex([place]), state: .scanning, localize: spanish)
        #expect(model.rows.count == 2)
        #expect(model.rows[0].title == "Café de olla")
        #expect(model.rows[0].subtitle == "Café La Parroquia")
        #expect(model.rows[0].distanceText == "≈ 2.4 m")
        #expect(model.rows[0].proximityText == "cerca")
        #expect(model.rows[0].isCatalogued)
        #expect(model.rows[0].accessibleName == "Café de olla, Café La Parroquia, ≈ 2.4 m, cerca")
        #expect(model.rows[1].title == "100/2")
        #expect(model.rows[1].subtitle == "Beacon desconocido fa20de30-0b1e-4c5a-9b5e-d3a0be0c0de1")
        #expect(model.rows[1].proximityText == "lejos")
        #expect(!model.rows[1].isCatalogued)
    }

    @Test func emptyStatesSayWhy() {
        let empty = RangingSnapshot(time: 0, beacons: [])
        let off = BeaconListBuilder.list(
            snapshot: empty, catalog: CatalogIndex(), state: .bluetoothOff, localize: spanish)
        #expect(off.emptyTitle == "Bluetooth está apagado")
        let paused = BeaconListBuilder.list(
            snapshot: empty, catalog: CatalogIndex(), state: .paused, localize: .english)
        #expect(paused.emptyTitle == "Monitoring is paused")
        let broken = BeaconListBuilder.list(
            snapshot: empty, catalog: CatalogIndex(), state: .unavailable(.serviceMissing),
            localize: .english)
        #expect(broken.emptyDetail.hasPrefix("The Bluetooth service (bluetoothd) is not running."))
        // Worded by the localizer, never with the source's English reason.
        let worded = BeaconListBuilder.list(
            snapshot: empty, catalog: CatalogIndex(), state: .unavailable(ScannerProblem(.bluezNotRunning)),
            localize: spanish)
        #expect(worded.emptyDetail == "El servicio de Bluetooth no está en marcha.")
        #expect(!worded.emptyDetail.contains("systemctl"))
    }

    @Test func formMessagesAreTranslatedWithArguments() {
        let errors = FormErrors(problems: [
            FieldProblem(field: .telefono, reason: .phoneDigits(count: 9)),
            FieldProblem(field: .email, reason: .invalidEmail),
        ])
        let es = Localizer {
            $0 == "The phone number needs exactly 10 digits (this one has %@)."
                ? "El teléfono debe tener exactamente 10 dígitos (este tiene %@)." : $0
        }
        let messages = FormMessages(errors, localize: es)
        #expect(messages[.telefono] == "El teléfono debe tener exactamente 10 dígitos (este tiene 9).")
        #expect(messages[.email] == "Enter an e-mail address like nombre@ejemplo.com.")
        #expect(messages[.nombre] == nil)
    }
}
