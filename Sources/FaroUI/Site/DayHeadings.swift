internal import CGtk
import FaroApp
import FaroCore
import FaroGLib

/// The day headings of one listing: "Hoy", "Ayer", or the local date with the locale's month name ("2 dic 2026").
/// The time zone and today's date are looked up once, not per visit (each lookup of the local zone reads
/// `/etc/localtime`'s link and status, and 500 visits took a quarter of the page's time), and a date is formatted once
/// for the visits of the same day in a row (they come newest first).
final class DayHeadings {
    private let zone: OpaquePointer
    private let today: Int
    private var last: (day: Int, text: String)?

    /// Headings for the time zone `zone` (the local one when nil) with `now` (seconds since 1970) as today.
    init(zone: OpaquePointer? = nil, now: Double = Double(g_get_real_time()) / 1_000_000) {
        let zone: OpaquePointer =
            zone.flatMap { g_time_zone_ref($0) } ?? g_time_zone_new_local() ?? g_time_zone_new_utc()
        self.zone = zone
        today = DayHeadings.day(now, in: zone)
    }

    deinit { g_time_zone_unref(zone) }

    /// The civil day of `seconds` in `zone`: days since 1970-01-01 there.
    static func day(_ seconds: Double, in zone: OpaquePointer) -> Int {
        let time = gint64(seconds)
        let offset = gint64(g_time_zone_get_offset(zone, g_time_zone_find_interval(zone, G_TIME_TYPE_UNIVERSAL, time)))
        let local = time + offset
        return Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }

    func heading(_ seconds: Double) -> String {
        let day = DayHeadings.day(seconds, in: zone)
        if day == today { return I18n.tr("Today") }
        if day == today - 1 { return I18n.tr("Yesterday") }
        if let last, last.day == day { return last.text }
        var text = ""
        if let utc = g_date_time_new_from_unix_utc(gint64(seconds)) {
            if let time = g_date_time_to_timezone(utc, zone) {
                if let formatted = g_date_time_format(time, "%-d %b %Y") {
                    text = String(cString: formatted)
                    g_free(formatted)
                }
                g_date_time_unref(time)
            }
            g_date_time_unref(utc)
        }
        last = (day, text)
        return text
    }
}
