/// The colour `--background` names: what `--fit contain` pads with and what transparency is
/// flattened onto for JPEG output. Written `#rrggbb`, `#rrggbbaa` or a CSS colour name, as sharp
/// and libvips take it; straight (not premultiplied) alpha.
public struct BackgroundColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// JPEG's flattening colour unless one is given: a logo on a transparent background comes out on white.
    public static let white = BackgroundColor(red: 255, green: 255, blue: 255)
    /// What `contain` pads with unless a colour is given: nothing, where the format keeps alpha.
    public static let clear = BackgroundColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The colour `text` names, or nil when it names none.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("#") {
            let digits = lower.dropFirst()
            guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
            let rgba = digits.count == 6 ? value << 8 | 0xFF : value
            self.init(red: UInt8(rgba >> 24), green: UInt8(rgba >> 16 & 0xFF), blue: UInt8(rgba >> 8 & 0xFF), alpha: UInt8(rgba & 0xFF))
            return
        }
        guard let named = Self.cssNames[lower] else { return nil }
        self.init(red: named.0, green: named.1, blue: named.2, alpha: named.3)
    }

    /// `#rrggbbaa`, the normal form's spelling.
    public var description: String {
        "#" + [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
