import CGtk
import Testing

@testable import FaroUI

/// The day headings of "Lugares visitados" (docs/visits.md), worked out once per listing, against GLib's own
/// calendar: the date of each instant and of `now` in the zone, and "yesterday" as GLib's day before `now`.
@Suite("Visits page day headings")
struct DayHeadingsTests {
    /// What GLib says, one instant at a time: "Hoy" when the civil dates match, "Ayer" for the date before today's,
    /// else the date formatted in the zone.
    static func reference(_ seconds: Double, now: Double, zone: OpaquePointer) -> String {
        func local(_ seconds: Double) -> OpaquePointer? {
            guard let utc = g_date_time_new_from_unix_utc(gint64(seconds)) else { return nil }
            defer { g_date_time_unref(utc) }
            return g_date_time_to_timezone(utc, zone)
        }
        guard let time = local(seconds), let today = local(now), let yesterday = g_date_time_add_days(today, -1)
        else { return "?" }
        defer { for t in [time, today, yesterday] { g_date_time_unref(t) } }
        func day(_ t: OpaquePointer) -> Int {
            Int(g_date_time_get_year(t)) * 1000 + Int(g_date_time_get_day_of_year(t))
        }
        if day(time) == day(today) { return I18n.tr("Today") }
        if day(time) == day(yesterday) { return I18n.tr("Yesterday") }
        guard let text = g_date_time_format(time, "%-d %b %Y") else { return "?" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Madrid changes its offset twice a year; each `now` is a moment where a day boundary is near: just after and
    /// before midnight, the days the clocks go forward and back, and New Year (yesterday in the year before).
    @Test(arguments: [
        "2026-12-05T00:00:30+01:00", "2026-12-05T23:59:50+01:00", "2026-03-29T12:00:00+02:00",
        "2026-03-30T00:10:00+02:00", "2026-10-25T12:00:00+01:00", "2026-10-26T00:30:00+01:00",
        "2027-01-01T00:05:00+01:00",
    ])
    func headingsMatchGLibsCalendarAcrossMidnightsAndOffsetChanges(_ nowText: String) throws {
        let zone = try #require(g_time_zone_new_identifier("Europe/Madrid"), "tzdata's Europe/Madrid")
        defer { g_time_zone_unref(zone) }
        let parsed = try #require(g_date_time_new_from_iso8601(nowText, nil))
        let now = Double(g_date_time_to_unix(parsed))
        g_date_time_unref(parsed)
        // Newest first, as the page lists visits: one listing's headings over ten days, every 7 minutes.
        let headings = DayHeadings(zone: zone, now: now)
        var seconds = now
        var checked = 0
        var dates = Set<String>()
        while seconds > now - 10 * 86_400 {
            let expected = Self.reference(seconds, now: now, zone: zone)
            #expect(headings.heading(seconds) == expected, "\(seconds) with now \(nowText)")
            dates.insert(expected)
            seconds -= 420
            checked += 1
        }
        #expect(checked > 2000 && dates.count >= 10, "\(checked) instants over \(dates.count) days")
        #expect(headings.heading(now) == I18n.tr("Today"))
    }
}
