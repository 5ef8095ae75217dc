/// CSV of readings (docs/beacon-page.md): `time_utc,address,rssi,rssi_filtered,distance_m,proximity`, RFC 4180
/// (CRLF line ends, fields quoted only when they must be), ISO 8601 UTC times with milliseconds, `.` as the decimal
/// mark whatever the locale (numbers are formatted here, never by printf).
public enum ReadingCSV {
    public static let columns = ["time_utc", "address", "rssi", "rssi_filtered", "distance_m", "proximity"]

    /// The header line, with `extra` columns after the six.
    public static func header(extra: [String] = []) -> String { line(columns + extra) }

    /// One reading's line; `epoch` is added to the reading's time to make it seconds since 1970, UTC.
    public static func row(_ r: BeaconReading, epoch: Double = 0, extra: [String] = []) -> String {
        line(
            [
                Fechahora.format(secondsSince1970: r.time + epoch), r.address.description, String(r.rssi),
                decimal(r.filtered, 2), r.distance.map { decimal($0, 3) } ?? "", r.proximity.rawValue,
            ] + extra)
    }

    /// Fields joined by commas; a field holding a comma, a quote, CR or LF is quoted, its quotes doubled.
    public static func line(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" })
                ? "\"" + field.replacing("\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\r\n"
    }

    /// `value` with exactly `digits` decimals and a `.`, computed in integers (no locale can change it).
    public static func decimal(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(Int64(value)) }
        let whole = Int64(scaled) / Int64(scale)
        let fraction = Int64(scaled) % Int64(scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let text = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }
}
