/// How Faro writes a distance in metres: the one place its text is spelled (docs/architecture.md).
///
/// - ``approximate(_:)``: "≈ 2.4 m" below 10 m, "≈ 13 m" from 10 m, "?" when unknown (the beacon list's rows).
/// - ``oneDecimal(_:)``: "≈ 2.4 m" at any distance (the beacon page, visits, the terminal's table and `faro visits`).
/// - ``unknown``: "?"; the terminal's table writes ``unknownMetres`` ("? m") so its unit column stays.
public enum DistanceText {
    /// An unknown distance.
    public static let unknown = "?"
    /// An unknown distance where a unit is expected (the terminal's table).
    public static let unknownMetres = "? m"

    /// "≈ 2.4 m" (one decimal below 10 m, whole metres from 10 m), ``unknown`` when there is no finite, non-negative
    /// distance.
    public static func approximate(_ metres: Double?) -> String { approximate(step: step(metres)) }

    /// What ``approximate(_:)`` shows, as one number: -1 for unknown, tenths of a metre below 10 m, else 1,000 plus
    /// whole metres. Equal steps give equal texts, so a row can keep its text while its step stays the same.
    /// Integer arithmetic: the beacon list asks this for every row every second.
    public static func step(_ metres: Double?) -> Int {
        guard let d = metres, d.isFinite, d >= 0, d < 1e9 else { return -1 }
        let tenths = Int((d * 10).rounded())
        return tenths < 100 ? tenths : 1000 + Int(d.rounded())
    }

    /// The text of a ``step(_:)``.
    public static func approximate(step: Int) -> String {
        if step < 0 { return unknown }
        if step < 100 { return "≈ \(step / 10).\(step % 10) m" }
        return "≈ \(step - 1000) m"
    }

    /// "≈ 2.4 m": one decimal by the C library's `%.1f` rules (the binary value's ties to even), at any distance.
    public static func oneDecimal(_ metres: Double) -> String { "≈ " + String(cFormat: "%.1f", metres) + " m" }
}
