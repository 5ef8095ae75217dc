import FaroCore
import Testing

/// The one civil-date conversion (`CivilDate`): days since 1970 to year/month/day and back.
@Suite struct CivilDateTests {
    @Test func knownDays() {
        let known: [(Int64, Int64, Int64, Int64)] = [
            (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 2, 29, 11_016), (2026, 11, 29, 20_786),
            (1900, 3, 1, -25_508), (1600, 2, 29, -135_081), (9999, 12, 31, 2_932_896), (1, 1, 1, -719_162),
        ]
        for (y, m, d, days) in known {
            #expect(CivilDate(year: y, month: m, day: d).daysSince1970 == days, "\(y)-\(m)-\(d)")
            #expect(CivilDate(daysSince1970: days) == CivilDate(year: y, month: m, day: d), "\(days)")
        }
    }

    /// Walks every day from year -768 to year 4707 and checks each is the one after the day before (by the month
    /// lengths, leap days included), and that it converts back to its count.
    @Test func everyDayFollowsTheOneBeforeAndRoundTrips() {
        let first: Int64 = -1_000_000
        var previous = CivilDate(daysSince1970: first)
        #expect(previous == CivilDate(year: -768, month: 2, day: 4))
        var leapDays = 0
        for days in (first + 1)...1_000_000 {
            let date = CivilDate(daysSince1970: days)
            var expected = previous
            expected.day += 1
            if expected.day > CivilDate.daysIn(month: expected.month, year: expected.year) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 {
                    expected.month = 1
                    expected.year += 1
                }
            }
            if date != expected || date.daysSince1970 != days {
                Issue.record("day \(days): \(date) after \(previous)")
                return
            }
            if date.month == 2 && date.day == 29 { leapDays += 1 }
            previous = date
        }
        #expect(previous == CivilDate(year: 4707, month: 11, day: 29))
        // 97 leap days every 400 years: 1,327 between -768-02-05 and 4707-11-29.
        #expect(leapDays == 1327)
    }

    @Test func leapYears() {
        #expect(CivilDate.isLeap(2000) && CivilDate.isLeap(2024) && CivilDate.isLeap(1600) && CivilDate.isLeap(0))
        #expect(!CivilDate.isLeap(1900) && !CivilDate.isLeap(2100) && !CivilDate.isLeap(2026))
        #expect(CivilDate(year: 2024, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2026, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 1900, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2026, month: 13, day: 1).isValid)
        #expect(!CivilDate(year: 2026, month: 4, day: 31).isValid)
        #expect(
            CivilDate(year: 2028, month: 3, day: 1).daysSince1970
                - CivilDate(year: 2028, month: 2, day: 28).daysSince1970 == 2)
    }

    @Test func weekdayAndSplit() {
        #expect(CivilDate.weekday(daysSince1970: 0) == 4)  // Thursday
        #expect(CivilDate.weekday(daysSince1970: 20_786) == 0)  // 2026-11-29, a Sunday
        #expect(CivilDate.weekday(daysSince1970: -1) == 3)
        #expect(CivilDate.weekday(daysSince1970: -13) == 5)
        #expect(CivilDate.split(secondsSince1970: 86_399) == (0, 86_399))
        #expect(CivilDate.split(secondsSince1970: -1) == (-1, 86_399))
        #expect(CivilDate.split(secondsSince1970: -86_400) == (-1, 0))
    }
}
