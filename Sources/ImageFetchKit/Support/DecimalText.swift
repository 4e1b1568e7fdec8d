/// Fixed-point text for the figures the tool prints (`1.5 MiB`, `3.21 s`), without Foundation's
/// `String(format:)`, which lives outside FoundationEssentials.
package enum DecimalText {
    /// `value` rounded half away from zero to `digits` decimals, e.g. `fixed(3.14159, digits: 2)`
    /// is `"3.14"`. Values beyond ±2^53 or not finite are printed as Swift prints them.
    package static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard value.isFinite, scaled < 9_007_199_254_740_992 else { return "\(value)" }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(units) }
        let fraction = String(units % divisor)
        let padded = String(repeating: "0", count: digits - fraction.count) + fraction
        return sign + String(units / divisor) + "." + padded
    }
}
