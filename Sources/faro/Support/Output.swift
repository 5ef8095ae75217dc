import Dispatch
import FaroCore
import FoundationEssentials
import Glibc

/// The small JSON this tool prints, written by hand so that key order and number format are a stable contract.
enum JSON {
    /// A number with at most `decimals` decimals, always with at least one (`12.0`).
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var text = String(cFormat: "%.\(decimals)f", value)
        while text.hasSuffix("0"), let dot = text.firstIndex(of: "."),
            text.index(after: dot) < text.index(before: text.endIndex)
        {
            text.removeLast()
        }
        return text
    }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(JSONString.literal($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// One decoded iBeacon as `faro decode` prints it.
    static func decoded(_ s: DecodedBeacon) -> String {
        var fields: [(String, String)] = [
            ("uuid", JSONString.literal(s.beacon.uuid.description)),
            ("major", String(s.beacon.major)),
            ("minor", String(s.beacon.minor)),
            ("tx_power", String(s.beacon.measuredPower)),
        ]
        if let address = s.address { fields.append(("address", JSONString.literal(address.description))) }
        if s.address != nil { fields.append(("rssi", s.rssi.map { String($0) } ?? "null")) }
        return object(fields)
    }

    /// One ranging tick as `faro range --json` and `faro scan --json` print it.
    static func tick(_ snapshot: RangingSnapshot, time: Double) -> String {
        let beacons = snapshot.beacons.map { b in
            object([
                ("uuid", JSONString.literal(b.identity.uuid.description)),
                ("major", String(b.identity.major)),
                ("minor", String(b.identity.minor)),
                ("address", JSONString.literal(b.address.description)),
                ("rssi", String(b.rssi)),
                ("distance", b.distance.map { number($0, decimals: 2) } ?? "null"),
                ("proximity", JSONString.literal(b.proximity.rawValue)),
            ])
        }
        return object([("t", number(time, decimals: 3)), ("beacons", "[" + beacons.joined(separator: ", ") + "]")])
    }
}

/// The human-readable ranging table.
enum Table {
    static func tick(_ snapshot: RangingSnapshot, time: Double) -> String {
        var lines = ["t=\(JSON.number(time, decimals: 3))s  \(snapshot.beacons.count) beacon(s) in range"]
        for b in snapshot.beacons {
            let distance = b.distance.map { "≈ " + String(cFormat: "%.1f", $0) + " m" } ?? "? m"
            let id = "\(b.identity.uuid)  \(b.identity.major)/\(b.identity.minor)"
            lines.append("  \(id)  \(b.address)  \(b.rssi) dBm  \(distance)  \(b.proximity.rawValue)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The CSV of readings that `--csv` writes (docs/beacon-page.md): the six columns, then the beacon's uuid, major and
/// minor.
enum CSVOutput {
    /// The header line.
    static func header() { StandardStreams.writeOutput(ReadingCSV.header(extra: ["uuid", "major", "minor"])) }

    /// Rows of collected readings; `epoch` turns their time into seconds since 1970.
    static func rows(_ readings: [(identity: BeaconIdentity, reading: BeaconReading)], epoch: Double) {
        guard !readings.isEmpty else { return }
        var text = ""
        for (identity, reading) in readings {
            text += ReadingCSV.row(
                reading, epoch: epoch,
                extra: [identity.uuid.description, String(identity.major), String(identity.minor)])
        }
        StandardStreams.writeOutput(text)
    }
}
