/// A backend timestamp (`updatedAt`, a DATETIMEOFFSET) read as milliseconds since 1970 UTC, so that two
/// spellings of one instant (`…07.123Z`, `…07.123+00:00`, `…09:03:07.123-05:00`) compare equal and order
/// correctly. Faro never does arithmetic on the server's clock with its own: timestamps are only compared.
public struct CatalogTimestamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z (finer fractions are truncated).
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (a space may stand for the `T`); nil for anything else.
    public init?(_ text: String) {
        let b = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= b.count else { return nil }
            var value: Int64 = 0
            for i in start..<start + count {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int64(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 20, let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
            b[7] == UInt8(ascii: "-"), let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == 0x20,
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            b[16] == UInt8(ascii: ":"), let second = digits(17, 2),
            CivilDate(year: year, month: month, day: day).isValid,
            hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var millis: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale: Int64 = 100
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                millis += Int64(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offsetMinutes: Int64 = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"),
                let om = digits(i + 4, 2), oh < 24, om < 60
            else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSince1970
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetMinutes * 60
        milliseconds = seconds * 1000 + millis
    }

    /// The instant in Faro's own spelling (`2026-11-29T14:03:07.123Z`, as `Fechahora`).
    public var description: String {
        var days = milliseconds / 86_400_000
        var millisOfDay = milliseconds % 86_400_000
        if millisOfDay < 0 {
            millisOfDay += 86_400_000
            days -= 1
        }
        // Whole seconds through Fechahora (its integer calendar), plus the milliseconds.
        return Fechahora.format(secondsSince1970: Double(days * 86_400 + millisOfDay / 1000))
            .replacing(".000Z", with: "." + CatalogTimestamp.pad3(millisOfDay % 1000) + "Z")
    }

    public static func < (a: CatalogTimestamp, b: CatalogTimestamp) -> Bool { a.milliseconds < b.milliseconds }

    private static func pad3(_ n: Int64) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }
}
