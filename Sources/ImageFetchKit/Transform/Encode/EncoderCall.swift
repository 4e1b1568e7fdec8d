import CImageCodecs
import FoundationEssentials

/// Runs CImageCodecs' encode calls (encode.c), which share a shape: bytes the library allocated
/// handed over in an `imgfetch_encoded`, an `IMGFETCH_ENCODE` status, and a message.
enum EncoderCall {
    enum Library { case jpeg, png, webp, webpAnimation, webpMux, avif }

    /// Loads `library` once per process; `format` names what it writes in the error.
    static func load(_ library: Library, for format: ImageFormat) throws(EncodeError) {
        let failure: UnsafePointer<CChar>? = switch library {
        case .jpeg: imgfetch_jpeg_encoder_load()
        case .png: imgfetch_png_encoder_load()
        case .webp: imgfetch_webp_encoder_load()
        case .webpAnimation: imgfetch_webp_animation_load()
        case .webpMux: imgfetch_webp_mux_load()
        case .avif: imgfetch_avif_encoder_load()
        }
        if let failure { throw .libraryUnavailable(format, reason: String(cString: failure)) }
    }

    /// Runs `call` with an empty `imgfetch_encoded` and a message buffer; the bytes it encoded.
    static func run(
        _ format: ImageFormat, _ call: (UnsafeMutablePointer<imgfetch_encoded>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(EncodeError) -> Data {
        var encoded = imgfetch_encoded()
        defer { imgfetch_encoded_free(&encoded) }
        let (status, reason) = CodecCall.withMessage { message, size in call(&encoded, message, size) }
        guard status == IMGFETCH_ENCODED, let bytes = encoded.bytes else {
            throw .failed(format, reason: reason.isEmpty ? "the library gave no reason" : reason)
        }
        return Data(bytes: bytes, count: encoded.size)
    }
}
