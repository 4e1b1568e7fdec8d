import CImageCodecs
import FoundationEssentials

/// The frames of an animated WebP, composed by libwebp's `WebPAnimDecoder` (which applies each
/// frame's blending and disposal on its own canvas and the previous one: two canvases).
///
/// Owns a copy of the file's bytes, which the decoder reads from for its whole life, and the
/// decoder; not `Sendable`, one thread at a time.
final class WebPAnimationReader: AnimationReading {
    let canvasWidth: Int
    let canvasHeight: Int
    let frameCount: Int
    /// ANIM's loop count: how many times the animation plays, 0 for forever.
    let loopCount: Int

    private let bytes: PinnedBytes
    private let decoder: OpaquePointer
    private var framesRead = 0
    /// libwebp gives each frame's end time; a frame's duration is the difference from the last.
    private var lastTimestamp = 0

    /// A reader of `data`, whose container the registry has checked declares `frameCount` frames
    /// on a `width` × `height` canvas; libwebp's demuxer must agree.
    init(_ data: Data, width: Int, height: Int, frameCount: Int) throws(DecodeError) {
        try CodecLibraries.load(for: .webp)
        bytes = PinnedBytes(data)
        var options = WebPAnimDecoderOptions()
        var input = WebPData(bytes: bytes.base, size: bytes.count)
        guard imgfetch_WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw .corrupt(.webp, reason: "libwebp refused its animation options")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        guard let decoder = imgfetch_WebPAnimDecoderNew(&input, &options) else {
            throw .corrupt(.webp, reason: "libwebp cannot read the animation")
        }
        self.decoder = decoder
        var info = WebPAnimInfo()
        let known = imgfetch_WebPAnimDecoderGetInfo(decoder, &info) != 0
        (canvasWidth, canvasHeight, self.frameCount, loopCount) = (width, height, frameCount, Int(info.loop_count))
        // Past this point deinit frees what init made.
        guard known, Int(info.canvas_width) == width, Int(info.canvas_height) == height, Int(info.frame_count) == frameCount else {
            throw .corrupt(.webp, reason: "libwebp reads the animation as \(info.frame_count) frames of \(info.canvas_width)×\(info.canvas_height), not \(frameCount) of \(width)×\(height)")
        }
    }

    deinit {
        imgfetch_WebPAnimDecoderDelete(decoder)
    }

    func nextFrame() throws(DecodeError) -> AnimationFrame? {
        guard framesRead < frameCount, imgfetch_WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard imgfetch_WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw .corrupt(.webp, reason: "frame \(framesRead + 1) of \(frameCount) does not decode")
        }
        framesRead += 1
        let byteCount = canvasWidth * canvasHeight * 4
        let pixels = PixelBuffer.make(byteCount: byteCount) { $0.baseAddress?.update(from: canvas, count: byteCount) }
        defer { lastTimestamp = Int(timestamp) }
        return AnimationFrame(
            image: RGBAImage(width: canvasWidth, height: canvasHeight, pixels: pixels),
            duration: max(0, Int(timestamp) - lastTimestamp)
        )
    }
}
