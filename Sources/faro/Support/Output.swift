import Dispatch
import FaroCore
import FoundationEssentials
import Glibc

/// What `faro decode`, `faro range --json` and `faro scan --json` print: FaroCore's `JSONValue` written `spaced`, with
/// key order and number format as the stable contract (docs/cli.md).
enum JSON {
    /// One decoded iBeacon as `faro decode` prints it.
    static func decoded(_ s: DecodedBeacon) -> String {
        var fields: [(String, JSONValue)] = [
            ("uuid", .string(s.beacon.uuid.description)),
            ("major", .integer(Int64(s.beacon.major))),
            ("minor", .integer(Int64(s.beacon.minor))),
            ("tx_power", .integer(Int64(s.beacon.measuredPower))),
        ]
        if let address = s.address { fields.append(("address", .string(address.description))) }
        if s.address != nil { fields.append(("rssi", s.rssi.map { .integer(Int64($0)) } ?? .null)) }
        return JSONValue.object(fields).spaced
    }

    /// One ranging tick as `faro range --json` and `faro scan --json` print it.
    static func tick(_ snapshot: RangingSnapshot, time: Double) -> String {
        let beacons = snapshot.beacons.map { b in
            JSONValue.object([
                ("uuid", .string(b.identity.uuid.description)),
                ("major", .integer(Int64(b.identity.major))),
                ("minor", .integer(Int64(b.identity.minor))),
                ("address", .string(b.address.description)),
                ("rssi", .integer(Int64(b.rssi))),
                ("distance", b.distance.map { JSONValue.rounded($0, decimals: 2) } ?? .null),
                ("proximity", .string(b.proximity.rawValue)),
            ])
        }
        return JSONValue.object([("t", .rounded(time, decimals: 3)), ("beacons", .array(beacons))]).spaced
    }
}

/// The human-readable ranging table.
enum Table {
    static func tick(_ snapshot: RangingSnapshot, time: Double) -> String {
        var lines = ["t=\(JSONValue.rounded(time, decimals: 3).spaced)s  \(snapshot.beacons.count) beacon(s) in range"]
        for b in snapshot.beacons {
            let distance = b.distance.map(DistanceText.oneDecimal) ?? DistanceText.unknownMetres
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
