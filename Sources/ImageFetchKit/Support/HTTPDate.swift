import FoundationEssentials
import Glibc

/// Reads the date format HTTP headers use (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`).
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days: Set<Substring> = ["Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,"]

    /// The instant `text` names, or nil when it is not an IMF-fixdate. Each field must have its
    /// day name, digits or range: timegm would carry `08:400:00` into another hour, and a year
    /// past Int32 would trap on its way into `tm`.
    static func parse(_ text: String) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 6, days.contains(words[0]), words[5] == "GMT", let month = months.firstIndex(of: String(words[2])),
              let day = number(words[1], digits: 2, in: 1...31), let year = number(words[3], digits: 4, in: 0...9999)
        else { return nil }
        let clock = words[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = number(clock[0], digits: 2, in: 0...23),
              let minute = number(clock[1], digits: 2, in: 0...59), let second = number(clock[2], digits: 2, in: 0...60)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: Double(timegm(&parts)))
    }

    /// `text` as a number of exactly `digits` ASCII digits within `range`.
    private static func number(_ text: Substring, digits: Int, in range: ClosedRange<Int>) -> Int? {
        guard text.utf8.count == digits, text.isASCIIDigits, let value = Int(text),
              range.contains(value) else { return nil }
        return value
    }
}
