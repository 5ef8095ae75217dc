/// A day of the proleptic Gregorian calendar, converted to and from a count of days since 1970-01-01 with integer
/// arithmetic (Howard Hinnant's `days_from_civil` and `civil_from_days`), so no locale, time zone or calendar
/// setting can change it. Every date Faro writes or reads by itself goes through here.
public struct CivilDate: Hashable, Sendable {
    public var year: Int64
    /// 1…12.
    public var month: Int64
    /// 1…31.
    public var day: Int64

    public init(year: Int64, month: Int64, day: Int64) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (before it when negative).
    public init(daysSince1970 days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date (negative before it). A day past its month's end counts on into the next
    /// month, as `days_from_civil` does; check ``isValid`` first where that matters.
    public var daysSince1970: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Whether the month is 1…12 and the day is within it.
    public var isValid: Bool {
        (1...12).contains(month) && (1...CivilDate.daysIn(month: month, year: year)).contains(day)
    }

    /// 0 for Sunday … 6 for Saturday.
    public static func weekday(daysSince1970 days: Int64) -> Int { Int(((days % 7) + 11) % 7) }

    public static func isLeap(_ year: Int64) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// 28…31; 31 for a month outside 1…12.
    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The day that `seconds` (since 1970 UTC) falls in, and the seconds since its midnight.
    public static func split(secondsSince1970 seconds: Int64) -> (days: Int64, secondOfDay: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (days, seconds - days * 86_400)
    }
}
