import CImageCodecs
import FoundationEssentials

/// The displayed frames of a JPEG XL animation, decoded one at a time by libjxl (through jxl.c's
/// animation calls), which composes each on the canvas (coalescing) and turns it upright.
///
/// Owns a copy of the file's bytes, which libjxl reads from, and the decoder with its thread
/// pool; not `Sendable`, one thread at a time.
final class JXLAnimationReader: AnimationReading {
    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    /// The animation header's num_loops: plays, 0 for forever.
    let loopCount: Int

    private let bytes: PinnedBytes
    private let animation: OpaquePointer
    private var framesRead = 0

    /// A reader of `data`, whose headers the registry's probe read: `info.frameCount` displayed
    /// frames on an `info.width` × `info.height` canvas.
    init(_ data: Data, info: ImageInfo) throws(DecodeError) {
        try CodecLibraries.load(for: .jxl)
        bytes = PinnedBytes(data)
        var opened: OpaquePointer?
        var loops: UInt32 = 0
        let base = bytes.base
        if let failure = CodecCall.status(format: .jxl, { message, size in
            imgfetch_jxl_animation_open(base, data.count, UInt32(info.width), UInt32(info.height), &opened, &loops, message, size)
        }) {
            throw failure
        }
        guard let opened else {
            throw .corrupt(.jxl, reason: "libjxl opened no animation")
        }
        animation = opened
        (canvasWidth, canvasHeight, frameCount, loopCount) = (info.width, info.height, info.frameCount, Int(loops))
    }

    deinit {
        imgfetch_jxl_animation_close(animation)
    }

    func nextFrame() throws(DecodeError) -> AnimationFrame? {
        guard framesRead < frameCount else { return nil }
        var decoded: Int32 = 0
        var duration: UInt64 = 0
        let pixels = try CodecCall.fillRGBA(format: .jxl, width: canvasWidth, height: canvasHeight) { rgba, message, size in
            imgfetch_jxl_animation_next(animation, rgba, &decoded, &duration, message, size)
        }
        guard decoded != 0 else {
            throw .corrupt(.jxl, reason: "the animation ends after \(framesRead) of its \(frameCount) frames")
        }
        framesRead += 1
        return AnimationFrame(image: RGBAImage(width: canvasWidth, height: canvasHeight, pixels: pixels), duration: Int(clamping: duration))
    }
}
