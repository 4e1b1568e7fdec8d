import ImageFetchKit

/// Draws an image as text: each character cell shows two pixels, the upper as the foreground of
/// an upper half block (▀) and the lower as its background, in 24-bit colour. Works in every
/// terminal with true colour; one pixel is one column wide and half a row tall, so an image
/// `columns` wide and `2 × rows` tall fills `columns` × `rows` cells.
enum HalfBlockRenderer {
    /// The text for `image`, one line per two pixel rows, each line ending in a colour reset and a
    /// newline. A pixel less than half opaque is left to the terminal's own background.
    static func render(_ image: DecodedImage) -> String {
        var out = ""
        out.reserveCapacity(image.width * (image.height / 2 + 1) * 24)
        var y = 0
        while y < image.height {
            var last: (fg: RGBA?, bg: RGBA?, set: Bool) = (nil, nil, false)
            for x in 0..<image.width {
                let top = visible(image.pixel(x: x, y: y))
                let bottom = y + 1 < image.height ? visible(image.pixel(x: x, y: y + 1)) : nil
                // ▀ shows the foreground above, ▄ below; a cell with only its lower pixel uses ▄
                // so the upper half keeps the terminal's background.
                let (glyph, fg, bg): (String, RGBA?, RGBA?) = switch (top, bottom) {
                case (nil, nil): (" ", nil, nil)
                case (let t?, nil): ("▀", t, nil)
                case (nil, let b?): ("▄", b, nil)
                case (let t?, let b?): ("▀", t, b)
                }
                if !last.set || last.fg != fg || last.bg != bg {
                    out += "\u{1B}[0m"
                    if let fg { out += "\u{1B}[38;2;\(fg.red);\(fg.green);\(fg.blue)m" }
                    if let bg { out += "\u{1B}[48;2;\(bg.red);\(bg.green);\(bg.blue)m" }
                    last = (fg, bg, true)
                }
                out += glyph
            }
            out += "\u{1B}[0m\n"
            y += 2
        }
        return out
    }

    /// The colour a pixel shows with, over black; nil when it is less than half opaque.
    private static func visible(_ pixel: RGBA) -> RGBA? {
        guard pixel.alpha >= 128 else { return nil }
        guard pixel.alpha < 255 else { return pixel }
        let a = Int(pixel.alpha)
        return RGBA(
            red: UInt8(Int(pixel.red) * a / 255), green: UInt8(Int(pixel.green) * a / 255), blue: UInt8(Int(pixel.blue) * a / 255))
    }
}
