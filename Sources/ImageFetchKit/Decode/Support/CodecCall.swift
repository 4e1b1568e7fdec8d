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
        return try fillRGBA(format: format, width: width, height: height) { rgba, message, messageSize in
            data.withUnsafeBytes { source in
                decode(source.baseAddress?.assumingMemoryBound(to: UInt8.self), source.count, rgba, message, messageSize)
            }
        }
    }

    /// A new `width` × `height` RGBA8 array filled by a C call that takes the buffer and a message
    /// buffer (the library already loaded); zeroed, and the call's error thrown, when it fails.
    static func fillRGBA(
        format: ImageFormat, width: Int, height: Int,
        _ fill: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(DecodeError) -> [UInt8] {
        var failure: DecodeError?
        let pixels = PixelBuffer.make(byteCount: width * height * 4) { buffer in
            failure = status(format: format) { message, messageSize in fill(buffer.baseAddress, message, messageSize) }
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
        data.withUnsafeBytes { source in
            status(format: format) { message, messageSize in
                call(source.baseAddress?.assumingMemoryBound(to: UInt8.self), source.count, message, messageSize)
            }
        }
    }

    /// Runs a C call with a message buffer; the error its `IMGFETCH_CODEC_` status stands for, or nil.
    static func status(format: ImageFormat, _ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> DecodeError? {
        let (status, reason) = withMessage(call)
        switch status {
        case Int32(IMGFETCH_CODEC_DECODED): return nil
        case Int32(IMGFETCH_CODEC_TRUNCATED): return .truncated(format)
        default: return .corrupt(format, reason: String(reason.trimmingWhitespace()))
        }
    }

    /// Runs a C call (a decoder's or an encoder's) with a message buffer; its status, and the
    /// message it left.
    static func withMessage(_ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (status: Int32, message: String) {
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { call($0.baseAddress!, $0.count) }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (status, text)
    }
}
