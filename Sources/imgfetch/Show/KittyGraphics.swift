import FoundationEssentials
import ImageFetchKit

/// Draws an image with the kitty terminal graphics protocol (kitty, WezTerm, Ghostty, Konsole):
/// the RGBA pixels themselves, base64 in chunks of at most 4096 bytes, shown at the cursor, which
/// then moves below the image.
enum KittyGraphics {
    /// Whether the terminal described by the environment speaks the protocol.
    static func isSupported(environment: (String) -> String?) -> Bool {
        if environment("KITTY_WINDOW_ID") != nil { return true }
        if let term = environment("TERM"), term.contains("kitty") || term.contains("ghostty") { return true }
        if let program = environment("TERM_PROGRAM"), ["WezTerm", "ghostty"].contains(program) { return true }
        return false
    }

    /// The escape sequences that transmit and show `image` (`a=T`, 32-bit RGBA, quiet: `q=2`
    /// asks the terminal not to answer on standard input), then a newline.
    static func render(_ image: DecodedImage) -> String {
        let encoded = Data(image.pixels).base64EncodedString()
        var out = ""
        var start = encoded.startIndex
        var first = true
        repeat {
            let end = encoded.index(start, offsetBy: 4096, limitedBy: encoded.endIndex) ?? encoded.endIndex
            let more = end < encoded.endIndex ? 1 : 0
            let control = first ? "a=T,f=32,s=\(image.width),v=\(image.height),q=2,m=\(more)" : "m=\(more)"
            out += "\u{1B}_G\(control);\(encoded[start..<end])\u{1B}\\"
            start = end
            first = false
        } while start < encoded.endIndex
        return out + "\n"
    }
}
