import CImageCodecs
import FoundationEssentials

/// Runs one of CImageCodecs' whole-image decode calls (AVIF, HEIC, JPEG XL, TIFF), which share a
/// shape: the data in, a caller's RGBA8 buffer out, an `IMGFETCH_CODEC_` status and a message.
enum CodecCall {
    /// The C call's arguments: the data's bytes, the RGBA buffer, and the message buffer.
    typealias Decode = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<CChar>, Int) -> Int32

    /// Loads `format`'s library, then decodes into a new `width` × `height` RGBA8 array.
    static func decodeRGBA(_ data: Data, format: ImageFormat, width: Int, height: Int, _ decode: Decode) throws(DecodeError) -> [UInt8] {
        try CodecLibraries.load(for: format)
        var failure: DecodeError?
        let pixels = PixelBuffer.make(byteCount: width * height * 4) { buffer in
            failure = run(data, format: format) { source, count, message, messageSize in
                decode(source, count, buffer.baseAddress, message, messageSize)
            }
            if failure != nil { buffer.initialize(repeating: 0) }
        }
        if let failure { throw failure }
        return pixels
    }

    /// Runs a C call over `data` with a message buffer; the error its status stands for, or nil.
    static func run(
        _ data: Data, format: ImageFormat,
        _ call: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> DecodeError? {
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { source in
            message.withUnsafeMutableBufferPointer { text in
                call(source.baseAddress?.assumingMemoryBound(to: UInt8.self), source.count, text.baseAddress!, text.count)
            }
        }
        switch status {
        case Int32(IMGFETCH_CODEC_DECODED): return nil
        case Int32(IMGFETCH_CODEC_TRUNCATED): return .truncated(format)
        default:
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .corrupt(format, reason: String(reason.trimmingWhitespace()))
        }
    }
}
