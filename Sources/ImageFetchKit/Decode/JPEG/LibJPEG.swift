import CImageCodecs
import FoundationEssentials

/// The one file that reaches libjpeg's scanline API, through CImageCodecs' C function that keeps
/// libjpeg's longjmp error handling on the C side.
enum LibJPEG {
    /// Decodes every pixel and keeps none: memory stays a few rows wide whatever the image size.
    static func decodeDiscarding(_ data: Data) throws(DecodeError) {
        try CodecLibraries.load(for: .jpeg)
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBytes { source in
            imgfetch_jpeg_decode_discarding(
                source.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(source.count), &message, message.count
            )
        }
        guard status != 0 else { return }
        let reason = String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw .corrupt(.jpeg, reason: reason.isEmpty ? "libjpeg cannot decode it" : reason)
    }
}
