import CImageCodecs
import FoundationEssentials

/// The one file that calls libwebp: `WebPDecode` into our buffer for a still image, and
/// `WebPAnimDecoder` (demux) for an animation. Both report status codes; nothing longjmps.
enum LibWebP {
    /// Decodes a still image straight into a new RGBA8 buffer of `width` × `height`: its own size,
    /// or with `scaled` any other, to which libwebp resamples each row as it decodes.
    static func decodeRGBA(_ data: Data, width: Int, height: Int, scaled: Bool = false) throws(DecodeError) -> [UInt8] {
        try CodecLibraries.load(for: .webp)
        var status = VP8_STATUS_OK
        let byteCount = width * height * 4
        let pixels = PixelBuffer.make(byteCount: byteCount) { buffer in
            var config = WebPDecoderConfig()
            guard imgfetch_WebPInitDecoderConfig(&config) != 0 else { status = VP8_STATUS_INVALID_PARAM; return }
            config.output.colorspace = MODE_RGBA
            if scaled {
                // Shrinking by 2 or more averages away what the in-loop deblocking filter and the
                // smooth chroma upsampling would refine: skipping both cut dwebp's time for a
                // corpus WebP scaled to half by a quarter (0.12 to 0.09 s for 10 decodes), as
                // libwebp's own -nofilter -nofancy options do.
                config.options.bypass_filtering = 1
                config.options.no_fancy_upsampling = 1
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(width)
                config.options.scaled_height = Int32(height)
            }
            config.output.is_external_memory = 1
            config.output.width = Int32(width)
            config.output.height = Int32(height)
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = byteCount
            status = data.withUnsafeBytes { source in
                imgfetch_WebPDecode(source.baseAddress?.assumingMemoryBound(to: UInt8.self), source.count, &config)
            }
            imgfetch_WebPFreeDecBuffer(&config.output)  // frees nothing of ours: the memory is external
            if status != VP8_STATUS_OK { buffer.initialize(repeating: 0) }
        }
        guard status == VP8_STATUS_OK else { throw error(status) }
        return pixels
    }

    /// Decodes every frame of an animation (so a broken later frame is caught) and returns the
    /// first, composited on the `width` × `height` canvas.
    static func decodeAnimationRGBA(_ data: Data, width: Int, height: Int, frameCount: Int) throws(DecodeError) -> [UInt8] {
        try CodecLibraries.load(for: .webp)
        var failure: DecodeError?
        let byteCount = width * height * 4
        let pixels = PixelBuffer.make(byteCount: byteCount) { buffer in
            buffer.initialize(repeating: 0)
            failure = data.withUnsafeBytes { source in
                var options = WebPAnimDecoderOptions()
                guard imgfetch_WebPAnimDecoderOptionsInit(&options) != 0 else { return .corrupt(.webp, reason: "libwebp refused its options") }
                options.color_mode = MODE_RGBA
                options.use_threads = 0
                var input = WebPData(bytes: source.baseAddress?.assumingMemoryBound(to: UInt8.self), size: source.count)
                guard let decoder = imgfetch_WebPAnimDecoderNew(&input, &options) else {
                    return .corrupt(.webp, reason: "libwebp cannot read the animation")
                }
                defer { imgfetch_WebPAnimDecoderDelete(decoder) }
                var decoded = 0
                while imgfetch_WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                    var frame: UnsafeMutablePointer<UInt8>?
                    var timestamp: Int32 = 0
                    guard imgfetch_WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
                        return .corrupt(.webp, reason: "frame \(decoded + 1) of \(frameCount) does not decode")
                    }
                    if decoded == 0 { buffer.baseAddress?.update(from: frame, count: byteCount) }
                    decoded += 1
                }
                return decoded == 0 ? .corrupt(.webp, reason: "the animation has no frames") : nil
            }
        }
        if let failure { throw failure }
        return pixels
    }

    private static func error(_ status: VP8StatusCode) -> DecodeError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: .truncated(.webp)
        case VP8_STATUS_UNSUPPORTED_FEATURE: .corrupt(.webp, reason: "it uses a feature libwebp does not support")
        case VP8_STATUS_OUT_OF_MEMORY: .corrupt(.webp, reason: "libwebp ran out of memory")
        default: .corrupt(.webp, reason: "libwebp reports a bitstream error (status \(status.rawValue))")
        }
    }
}
