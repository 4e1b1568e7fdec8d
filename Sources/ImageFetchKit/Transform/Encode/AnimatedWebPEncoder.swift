import CImageCodecs
import FoundationEssentials

/// Writes an animated WebP (libwebpmux's WebPAnimEncoder) from frames handed over one at a time,
/// so memory holds the frame being added and the encoder's state (the previous canvas and the
/// frames encoded so far), never the whole animation's pixels. Lossy frames at `quality`, alpha
/// kept, timing and loop count as given; the original's ICC profile and EXIF only when given
/// (`--keep-metadata`: ICCP and EXIF chunks, written by libwebpmux).
///
/// Not `Sendable`: it owns libwebpmux state, used by one thread from `init` to `finish()`.
final class AnimatedWebPEncoder {
    /// The canvas every frame must fill.
    let width: Int
    let height: Int
    private var animation: OpaquePointer?  // imgfetch_webp_animation; nil once finished
    private var frameCount = 0
    private let metadata: KeptMetadata

    /// An animation of `width` × `height` frames, played `loopCount` times (0 = forever), each
    /// frame lossy at `quality` 1–100 (libwebp's scale; values outside are clamped), or lossless when
    /// `lossless` (quality then sets the effort), with `metadata`'s chunks.
    init(width: Int, height: Int, loopCount: Int, quality: Int, lossless: Bool = false, metadata: KeptMetadata = .none) throws(EncodeError) {
        guard width > 0, height > 0 else { throw .emptyImage(width: width, height: height) }
        guard width <= WebPEncoder.maxSide, height <= WebPEncoder.maxSide else {
            throw .tooLarge(.webp, width: width, height: height, limit: WebPEncoder.maxSide)
        }
        try EncoderCall.load(.webpAnimation, for: .webp)
        if !metadata.isEmpty { try EncoderCall.load(.webpMux, for: .webp) }
        self.width = width
        self.height = height
        self.metadata = metadata
        var created: OpaquePointer?
        let (_, reason) = CodecCall.withMessage { message, size in
            created = imgfetch_webp_animation_new(UInt32(width), UInt32(height), Int32(min(max(loopCount, 0), 65535)),
                                                  Float(clampedQuality(quality)), lossless ? 1 : 0, message, size)
            return created == nil ? Int32(IMGFETCH_ENCODE_FAILED) : Int32(IMGFETCH_ENCODED)
        }
        guard let created else { throw .failed(.webp, reason: reason) }
        animation = created
    }

    deinit { imgfetch_webp_animation_free(animation) }

    /// Adds the next frame, which must be the canvas's size, shown for `durationMilliseconds`.
    func add(_ image: RGBAImage, durationMilliseconds: Int) throws(EncodeError) {
        guard let animation else { throw .alreadyFinished }
        guard image.width == width, image.height == height else {
            throw .frameSizeMismatch(width: image.width, height: image.height, canvasWidth: width, canvasHeight: height)
        }
        let duration = Int32(clamping: max(durationMilliseconds, 0))
        let (status, reason) = image.pixels.withUnsafeBufferPointer { rgba in
            CodecCall.withMessage { message, size in imgfetch_webp_animation_add(animation, rgba.baseAddress, duration, message, size) }
        }
        guard status == IMGFETCH_ENCODED else { throw .failed(.webp, reason: reason) }
        frameCount += 1
    }

    /// The animated WebP file. The encoder takes no frames afterwards; its state is freed now.
    func finish() throws(EncodeError) -> Data {
        guard let animation else { throw .alreadyFinished }
        guard frameCount > 0 else { throw .noFrames }
        defer {
            imgfetch_webp_animation_free(animation)
            self.animation = nil
        }
        return try EncoderCall.run(.webp) { out, message, size in
            metadata.withCMetadata { metadata in imgfetch_webp_animation_finish(animation, metadata, out, message, size) }
        }
    }
}
