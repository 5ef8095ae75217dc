/// The `fechahora` field of backend rows: ISO 8601 in UTC with milliseconds, `2026-11-29T14:03:07.123Z`
/// (docs/backend.md). Computed with integer calendar arithmetic, so no locale or time zone can change it.
public enum Fechahora {
    /// Formats `secondsSince1970` (UTC), truncated to the millisecond.
    public static func format(secondsSince1970 seconds: Double) -> String {
        let totalMillis = Int64((seconds * 1000).rounded(.down))
        var days = totalMillis / 86_400_000
        var millisOfDay = totalMillis % 86_400_000
        if millisOfDay < 0 {
            millisOfDay += 86_400_000
            days -= 1
        }
        let date = CivilDate(daysSince1970: days)
        let hour = millisOfDay / 3_600_000
        let minute = millisOfDay / 60_000 % 60
        let second = millisOfDay / 1000 % 60
        let milli = millisOfDay % 1000
        return
            "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
