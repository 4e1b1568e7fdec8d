import FoundationEssentials
import Glibc

/// Reads the date format HTTP headers use (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant `text` names, or nil when it is not an IMF-fixdate.
    static func parse(_ text: String) -> Date? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[5] == "GMT", let day = Int(words[1]), let month = months.firstIndex(of: String(words[2])),
              let year = Int(words[3]) else { return nil }
        let clock = words[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        return Date(timeIntervalSince1970: Double(timegm(&parts)))
    }
}
